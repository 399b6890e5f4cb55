"""What each page can be asked (its ASKS, lib/asks.py): for every declared quantity, the answer lib computes
from a link's values (as the page's LINKS parse them) is what the page shows for the same link, on the
default view and on seeded random valid links (and a few links chosen to reach the other answer of a
yes-or-no question). A page's shown number is compared as written: lib's answer goes through the same
ui.fmt call as the page's, and the two texts must be equal."""

from __future__ import annotations

import re

import numpy as np
import pytest

from classroom import asking
from lib import asks, tax
from lib.activations import ACTIVATIONS
from lib.relufit import KNOT_MODES, TARGETS
from lib.transformer import PRESETS
from tests.app.conftest import ROOT, decode, figures, open_page
from ui import fmt, state
from ui.expr import sig, val

PAGES = ("recipe-card", "stacking", "activations", "tax-bands", "gpt2-params", "gpt2-mlp", "trainer")
RANDOM_LINKS = 3      # seeded random valid links per page, beside its default view and its chosen ones


_CACHE: dict = {}


def declared(page: str) -> tuple[state.Links, dict[str, asks.Ask]]:
    """A page's LINKS and ASKS, read once."""
    if page not in _CACHE:
        f = str(ROOT / "pages" / f"{page}.py")
        _CACHE[page] = (state.page_links(f), asking.page_asks(f))
    return _CACHE[page]


# --- links: the default view, chosen ones, and random valid ones (seeded) --------------------------------
def _tenths(rng, lo, hi, shape=()):
    return np.round(rng.uniform(lo, hi, size=shape), 1) + 0.0


def _row(v) -> str:
    return ",".join(f"{float(x):g}" for x in np.ravel(v))


def _recipe(rng) -> dict:
    nin, nout = int(rng.integers(1, 5)), int(rng.integers(1, 3))
    q = {"mode": "plain", "nin": str(nin), "nout": str(nout)}
    q |= {f"x{i + 1}": f"{_tenths(rng, -3, 3):g}" for i in range(nin)}
    q |= {f"w{i + 1}{j + 1}": f"{_tenths(rng, -2, 2):g}" for i in range(nin) for j in range(nout)}
    return q | {f"b{j + 1}": f"{_tenths(rng, -2, 2):g}" for j in range(nout)}


def _stacking(rng) -> dict:
    q = {"relu": str(bool(rng.integers(0, 2))).lower(), "target": f"{_tenths(rng, -5, 5):g}",
         "lr": str(rng.choice(["0.01", "0.05", "0.1", "0.3"])), "steps": str(int(rng.integers(0, 40)))}
    q |= {f"mx{i + 1}": f"{_tenths(rng, -5, 5):g}" for i in range(3)}
    q |= {f"mw{i + 1}{j + 1}": f"{_tenths(rng, -3, 3):g}" for i in range(3) for j in range(2)}
    q |= {f"mb{j + 1}": f"{_tenths(rng, -3, 3):g}" for j in range(2)}
    q |= {f"pw{i + 1}1": f"{_tenths(rng, -3, 3):g}" for i in range(2)}
    q |= {"scale": f"{round(rng.uniform(0.5, 2.0), 2):g}", "depth": str(int(rng.integers(1, 41))),
          "tokens": str(int(rng.integers(1, 9)))}
    return q | {"pb1": f"{_tenths(rng, -3, 3):g}"}


def _activations(rng) -> dict:
    return {"bend": str(rng.choice(list(ACTIVATIONS))), "x": f"{_tenths(rng, -3, 3):g}",
            "w1": _row(_tenths(rng, -2, 2, 3)), "b1": _row(_tenths(rng, -2, 2, 3)),
            "w2": ";".join(f"{v:g}" for v in _tenths(rng, -2, 2, 3)), "b2": f"{_tenths(rng, -2, 2):g}"}


def _tax(rng) -> dict:
    q = {"preset": str(rng.choice(list(tax.PRESETS))), "income": str(int(rng.integers(0, 300)) * 1000),
         "target": str(rng.choice(list(TARGETS))), "knots": str(rng.choice(list(KNOT_MODES))),
         "units": str(int(rng.integers(1, 21)))}
    if rng.random() < 0.5:
        t = np.sort(rng.choice(np.arange(1, 200), size=3, replace=False)) * 1000
        q["bands"] = ",".join(f"{a}:{r}" for a, r in zip([0, *t.tolist()], [0, 10, 25, 40], strict=True))
    return q


def _gpt2_params(rng) -> dict:
    q = {"preset": str(rng.choice(list(PRESETS)))}
    if rng.random() < 0.7:
        q["layers"] = str(int(rng.integers(1, 49)))
    if rng.random() < 0.5:
        q["tie"] = str(bool(rng.integers(0, 2))).lower()
    return q


def _gpt2_mlp(rng) -> dict:
    def m(rows, cols):
        return ";".join(_row(_tenths(rng, -2, 2, cols)) for _ in range(rows))
    q = {"x": m(5, 3), "w1": m(3, 6), "w2": m(6, 3), "tok": str(int(rng.integers(1, 6))),
         "act": str(rng.choice(["gelu", "gelu_tanh"]))}
    if rng.random() < 0.5:
        q |= {"bias": "true", "b1": m(1, 6), "b2": m(1, 3)}
    if rng.random() < 0.5:
        q |= {"seed": str(int(rng.integers(0, 50))), "near": f"{round(rng.uniform(0.01, 0.45), 2):g}",
              "init": str(rng.choice(["gpt2", "fan_in"]))}
    return q


def _trainer(rng) -> dict:
    return {"dataset": str(rng.choice(["checkerboard", "xor", "moons", "gaussians", "ring"])),
            "n": str(int(rng.choice([100, 200, 300]))), "noise": str(rng.choice(["0", "0.1", "0.3"])),
            "seed": str(int(rng.integers(0, 100))), "hidden": str(rng.choice(["0", "4", "8", "8,8"])),
            "act": str(rng.choice(["relu", "tanh", "silu"])), "lr": str(rng.choice(["0.01", "0.03", "0.1"])),
            "twin": "false"}


RANDOM = {"recipe-card": _recipe, "stacking": _stacking, "activations": _activations, "tax-bands": _tax,
          "gpt2-params": _gpt2_params, "gpt2-mlp": _gpt2_mlp, "trainer": _trainer}
CHOSEN = {   # links that reach the other side of a yes-or-no question, or a corner of a page
    "recipe-card": [{"mode": "plain", "nin": "5", "nout": "3"}],
    "stacking": [{"relu": "false", "steps": "12"}],
    "activations": [{"bend": "identity", "x": "-1.5"},
                    {"bend": "relu", "w1": "1,1,1", "b1": "5,5,5", "x": "2"}],   # every unit on: it collapses
    "tax-bands": [{"preset": "simple", "income": "25000", "knots": "learned", "target": "abs"}],
    "gpt2-params": [{"preset": "llama-3-8b"}, {"preset": "gpt2", "heads": "5"}],   # 5 heads: not a model
    "gpt2-mlp": [{"tok": "4"}],
    "trainer": [{"dataset": "gaussians", "hidden": "0", "twin": "false"},
                {"lr": "10", "opt": "sgd", "act": "identity", "twin": "false"}],   # this one diverges
}


def links(page: str) -> list[dict]:
    rng = np.random.default_rng(45 + PAGES.index(page))
    return [{}, *CHOSEN[page], *(RANDOM[page](rng) for _ in range(RANDOM_LINKS))]


# --- the page, opened once per link (and per number of epochs trained) ---------------------------------
_OPENED: dict = {}


def opened(page: str, link: dict, epochs: int | None = None):
    key = (page, tuple(sorted(link.items())), epochs)
    if key not in _OPENED:
        at = open_page(page, link)
        assert not at.exception, at.exception
        for _ in range((epochs or 0) // 100):
            at.button(key="trainer_step_100").click().run()
        _OPENED[key] = at
    return _OPENED[key]


def metric(at, label: str) -> str:
    return next(m.value for m in at.metric if m.label.startswith(label))


def texts(at, kind: str = "markdown") -> list[str]:
    return [e.value for e in getattr(at, kind)]


def grab(at, pattern: str, kind: str = "markdown") -> re.Match:
    found = [m for t in texts(at, kind) if (m := re.search(pattern, t))]
    assert found, f"nothing on the page matches {pattern!r}"
    return found[0]


def yes_if(flag: bool) -> int:
    return 0 if flag else 1


# --- per page and quantity: what the page shows, and lib's answer written the same way ------------------
def _outputs(at) -> list[str]:
    line = next(t for t in texts(at, "caption") if t.startswith("Outputs y = xW + b: "))
    items = line.removeprefix("Outputs y = xW + b: ").rstrip(".").split(", ")
    return [item.rsplit(" ", 1)[1] for item in items]


def _tax_cur(link) -> str:
    return tax.PRESETS[link.get("preset", "uk-2024")].currency


def _error_series(at, link) -> np.ndarray:
    name = "learned knots" if link.get("knots") == "learned" else "even knots"
    for fig in figures(at):
        for tr in fig["data"]:
            if tr.get("name") == name:
                return decode(tr["y"])
    raise AssertionError(f"no {name} curve on the page")


def _treemap(at) -> dict:
    fig = next(f for f in figures(at) if f["data"][0].get("type") == "treemap")
    return dict(zip(fig["data"][0]["ids"], decode(fig["data"][0]["values"]).tolist(), strict=True))


def _memory(at, dtype: str) -> float:
    df = next(d.value for d in at.dataframe if "GiB" in d.value.columns)
    return float(df.loc[df["dtype"] == dtype, "GB"].iloc[0])


def _said(kind: str, words: str):
    """A yes-or-no the page answers by showing an element of `kind` that holds `words`."""
    return lambda at, link, p: yes_if(any(words in t for t in texts(at, kind)))


def _first_ramps(at, link, p) -> str:
    return str(1 + int(np.flatnonzero(_error_series(at, link) <= p["error"])[0]))


def _mlp_share(at, link, p) -> str:
    shares = _treemap(at)
    return f"{100 * shares['block/mlp'] / shares['model']:.9f}"


def _token_out(at, link, p) -> str:
    return grab(at, r"comes out as \(([^)]*)\)").group(1).split(", ")[p["feature"] - 1]


def _batch_out(at, link, p) -> str:
    rows, cols = grab(at, r"\*\*Y = XW \+ b\*\*, (\d+) × (\d+)").groups()
    return str(int(rows) * int(cols))


def _metric(label: str):
    return lambda at, link, p: metric(at, label)


def _pct(digits: int = 1):
    return lambda v: fmt.pct(v / 100, digits)


# (page, ask) -> (what the page shows: (at, link, params) -> text or index; lib's answer as the page writes
# it, None for money in the link's currency)
SHOWN = {
    ("recipe-card", "y"): (lambda at, link, p: _outputs(at)[p["j"] - 1], val),
    ("recipe-card", "params"): (_metric("parameters"), fmt.count),
    ("stacking", "prediction"): (_metric("prediction ŷ"), val),
    ("stacking", "loss"): (_metric("loss now"), lambda v: fmt.num(v, 4, keep=1)),
    ("stacking", "folds"): (_said("info", "fold into **one** layer"), int),
    ("stacking", "compound"): (lambda at, link, p: next(m.value for m in at.metric if "^" in m.label),
                               lambda v: sig(v, 4)),
    ("stacking", "batch_out"): (_batch_out, lambda v: str(int(v))),
    ("activations", "value"): (lambda at, link, p: grab(at, r"f\(x\) = (\S+), its slope").group(1),
                               lambda v: fmt.num(v, 4)),
    ("activations", "slope"): (lambda at, link, p: grab(at, r"its slope f′\(x\) = (\S+) ").group(1),
                               lambda v: fmt.num(v, 4)),
    ("activations", "collapses"): (_said("success", "Identical: "), int),
    ("tax-bands", "tax"): (_metric("Tax at this income"), None),
    ("tax-bands", "marginal"): (_metric("Marginal rate at this income"), _pct(2)),
    ("tax-bands", "effective"): (_metric("Effective rate"), _pct(2)),
    ("tax-bands", "ramps"): (_first_ramps, lambda v: str(int(v))),
    ("gpt2-params", "total"): (_metric("Parameters"), fmt.count),
    ("gpt2-params", "per_block"): (_metric("In one block"), fmt.count),
    ("gpt2-params", "mlp_share"): (_mlp_share, lambda v: f"{v:.9f}"),
    ("gpt2-params", "memory"): (lambda at, link, p: f"{_memory(at, p['dtype']):.2f}", lambda v: f"{v:.2f}"),
    ("gpt2-mlp", "on"): (lambda at, link, p: grab(at, r"(\d+) of \d+ hidden values are on").group(1),
                         lambda v: str(int(v))),
    ("gpt2-mlp", "output"): (_token_out, lambda v: fmt.fixed(v, 3)),
    ("gpt2-mlp", "widen"): (lambda at, link, p: grab(at, r"\((\S+) times as many\)").group(1), fmt.num),
    ("gpt2-mlp", "near"): (_metric("Pushed near zero"), _pct()),
    ("trainer", "accuracy"): (_metric("Test accuracy"), _pct()),
    ("trainer", "train_accuracy"): (_metric("Train accuracy"), _pct()),
    ("trainer", "diverges"): (_said("error", "Training stopped"), int),
}
NO_ANSWER = {   # (page, ask) -> does the page show that this link has no answer?
    ("tax-bands", "ramps"): lambda at, link, p: bool((_error_series(at, link) > p["error"]).all()),
}
# trainer questions answered after training: the page trains by +100 steps
EPOCHS = {"accuracy", "train_accuracy", "diverges"}


def params_for(ask: asks.Ask, link: dict, rng) -> list[dict]:
    """The question's parameters to try on this link: the defaults, and each other value worth showing."""
    out = [{}]
    for p in ask.params:
        if p.choices:
            out += [{p.name: c} for c in p.choices if c != p.default]
        elif p.name == "j":
            out += [{"j": j + 1} for j in range(1, int(link.get("nout", 2)))]
        elif p.name == "feature":
            out += [{"feature": 2}, {"feature": 3}]
        elif p.name == "error":
            out += [{"error": float(rng.choice([0.2, 0.1, 0.02, 0.01]))}]
        elif p.name == "epochs":
            out += [{"epochs": 100}]
    return out


CASES = [(page, name) for page in PAGES for name in declared(page)[1]]


def test_every_lesson_page_declares_what_it_can_be_asked_and_each_is_tested():
    from ui.nav import LESSONS

    lesson_pages = {item.url_path for item in LESSONS if item.url_path and item.url_path != "class"}
    assert set(PAGES) == lesson_pages
    assert {(page, name) for page, name in CASES} == set(SHOWN) | {("trainer", "line")}
    for page in PAGES:
        for ask in declared(page)[1].values():
            assert ask.words and ask.kind in asks.KINDS


@pytest.mark.parametrize(("page", "name"), [c for c in CASES if c != ("trainer", "line")])
def test_libs_answer_is_what_the_page_shows(page, name):
    links_table, table = declared(page)
    ask = table[name]
    read, write = SHOWN[(page, name)]
    rng = np.random.default_rng(7)
    checked = 0
    for link in links(page):
        values = asking.read_values(links_table, link)
        for p in params_for(ask, link, rng):
            settled = ask.settle(p)
            at = opened(page, link, settled.get("epochs") if name in EPOCHS else None)
            try:
                answer = ask.answer(values, p)
            except ValueError:   # no answer for this link: the page shows none either
                assert (page, name) in NO_ANSWER and NO_ANSWER[(page, name)](at, link, settled)
                continue
            shown = read(at, link, settled)
            want = write(answer) if write else fmt.money(answer, _tax_cur(link), 2)
            assert shown == want, f"{page} {name} {p} for {link}: the page shows {shown}, lib says {want}"
            checked += 1
    assert checked >= len(links(page))


def test_a_straight_line_splits_the_data_exactly_when_a_network_without_a_hidden_layer_gets_every_point():
    """/trainer's "line": lib tries every straight line on the link's points. The page's own straight line
    is a network with no hidden layer (hidden=0): after training it gets every training and test point right
    when lib says a line splits them, and cannot when lib says none does."""
    links_table, table = declared("trainer")
    seen = set()
    for link in links("trainer"):
        link = {**link, "hidden": "0", "twin": "false"}
        answer = table["line"].answer(asking.read_values(links_table, link))
        at = opened("trainer", link, 300)
        both = metric(at, "Train accuracy") == metric(at, "Test accuracy") == fmt.pct(1.0)
        assert yes_if(both) == answer, f"line for {link}"
        seen.add(answer)
    assert seen == {0, 1}


def test_the_chosen_links_reach_both_answers_of_each_yes_or_no_question():
    for page, name in CASES:
        links_table, table = declared(page)
        ask = table[name]
        if ask.kind != "choice":
            continue
        got = {ask.answer(asking.read_values(links_table, link)) for link in links(page)}
        assert got == {0, 1}, f"{page} {name}: the links tried reach only {got}"

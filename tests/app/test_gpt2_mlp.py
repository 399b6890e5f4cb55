"""/gpt2-mlp under AppTest: the default walk-through, controls that change it, the checker,
the full-size block, and bad links."""

from __future__ import annotations

import numpy as np
import pytest

from lib import ffn
from tests.app.conftest import chart_elements, decode, figures, open_page, spec_text
from ui import fmt

# Chart order on the page: the block at a glance, z, h, the GELU curve, y, the token's path, [checks],
# histogram, changes.
GLANCE, Z, H, CURVE, Y, PATH = range(6)


def _cells(fig) -> np.ndarray:
    return decode(fig["data"][0]["z"])


def _text(at) -> str:
    return " ".join(m.value for m in at.markdown) + " " + " ".join(c.value for c in at.caption)


@pytest.fixture(scope="module")
def default_page():
    return open_page("gpt2-mlp")


def test_default_shows_every_step_computed_by_lib(default_page):
    at = default_page
    assert not at.exception
    steps = ffn.ffn(ffn.SEED_X, ffn.SEED_W1, ffn.SEED_W2)
    figs = figures(at)
    np.testing.assert_allclose(_cells(figs[Z]), steps.pre)
    np.testing.assert_allclose(_cells(figs[H]), steps.post)
    np.testing.assert_allclose(_cells(figs[Y]), steps.out)
    # The picture at the top is token 1's path: x in, GELU(z) in the hidden circles, y out.
    columns = {t["name"]: t["text"] for t in figs[GLANCE]["data"] if t["name"].startswith("layer ")}
    for name, values in (("layer 0", steps.x[0]), ("layer 1", steps.post[0]), ("layer 2", steps.out[0])):
        assert columns[name] == [fmt.num(v, 2, keep=1) for v in values], name
    text = _text(at)
    assert "y = (" + ", ".join(fmt.fixed(v, 2) for v in steps.out[0]) + ")" in text
    for caption in ("z = x W₁, before GELU** · shape 5 × 6", "h = GELU(z)** · shape 5 × 6",
                    "the block's output** · shape 5 × 3"):
        assert caption in text
    # The seed printed 1.428 for token 1, unit 6; the page shows what x W1 really gives.
    assert "1.4 × 0.4 + (−1.52) × (−0.1) + 0.12 × 0.5 = **0.772**" in text
    assert abs(steps.pre[0, 5] - 1.428) > 0.01 and np.isclose(_cells(figs[Z])[0, 5], steps.pre[0, 5])


def test_full_size_metrics(default_page):
    metrics = {m.label: m.value for m in default_page.metric}
    assert metrics["Weights in W₁ and W₂"] == "4,718,592"
    assert metrics["Weights in W₁W₂ (768 × 768)"] == "589,824"
    gap = next(m for m in default_page.metric if m.label == "Largest gap, no GELU")
    # ui.fmt.gap says "below rounding error" under 1e-12 only
    assert gap.value == "exactly 0" or (gap.delta == "below rounding error" and "× 10⁻" in gap.value), gap
    assert float(metrics["Largest gap, with GELU"]) > 0.1
    assert metrics["Pushed near zero"].endswith("%")
    changes = decode(figures(default_page)[-1]["data"][0]["y"])
    assert changes.shape == (8,) and changes[2] > 0 and np.all(np.delete(changes, 2) == 0)


def test_tanh_gelu_changes_the_hidden_table():
    at = open_page("gpt2-mlp")
    before = _cells(figures(at)[H])
    at.selectbox(key="act").set_value("gelu_tanh").run()
    after = _cells(figures(at)[H])
    steps = ffn.ffn(ffn.SEED_X, ffn.SEED_W1, ffn.SEED_W2, act="gelu_tanh")
    np.testing.assert_allclose(after, steps.post)
    assert 0 < np.max(np.abs(after - before)) < 1e-3


def test_biases_come_from_the_link_and_shift_z():
    at = open_page("gpt2-mlp", {"bias": "true", "b1": "1,0,0,0,0,0"})
    assert not at.exception
    z = _cells(figures(at)[Z])
    base = ffn.ffn(ffn.SEED_X, ffn.SEED_W1, ffn.SEED_W2).pre
    np.testing.assert_allclose(z[:, 0] - base[:, 0], 1.0)
    np.testing.assert_allclose(z[:, 1:], base[:, 1:])


def test_follow_token_changes_the_path():
    at = open_page("gpt2-mlp")
    at.selectbox(key="tok").set_value(3).run()
    steps = ffn.ffn(ffn.SEED_X, ffn.SEED_W1, ffn.SEED_W2)
    bars = figures(at)[PATH]["data"]
    np.testing.assert_allclose(decode(bars[0]["y"]), steps.pre[2])
    np.testing.assert_allclose(decode(bars[1]["y"]), steps.post[2])
    assert "Token 3 goes in as" in _text(at)
    table = next(d.value for d in at.dataframe if "unit" in d.value.columns)
    assert list(table["on"]) == ["on" if v > 0 else "off" for v in steps.pre[2]]


def test_checker_shows_the_seed_slips():
    at = open_page("gpt2-mlp", {"check": "true"})
    at.button[1].click().run()  # Load the seed's hand-worked tables
    assert not at.exception
    warnings = [w.value for w in at.warning]
    assert warnings[0].startswith("13 of 30 cells off by more than 0.001 (13 new in this step)")
    assert warnings[1].startswith("13 of 30 cells off by more than 0.001 (3 new in this step)")
    assert warnings[2].startswith("15 of 15 cells off by more than 0.001 (15 new in this step)")
    checks = figures(at)[PATH + 1:PATH + 4]
    states = [_cells(f) for f in checks]
    # z table: token 3, unit 4 (0-based (2, 3)) is a slip in this step (red = 2)
    assert states[0][2, 3] == 2 and states[0][0, 0] == 0
    # GELU table: token 3, unit 4 only carries the z slip (amber = 1); token 2, unit 2 is new
    assert states[1][2, 3] == 1 and states[1][1, 1] == 2
    assert np.all(states[2] == 2)


def test_checker_tolerance_changes_the_count():
    at = open_page("gpt2-mlp", {"check": "true"})
    at.button[1].click().run()
    at.number_input(key="tol").set_value(0.0005).run()
    assert at.warning[0].value.startswith("19 of 30 cells")


def test_a_typed_correct_table_passes():
    steps = ffn.ffn(ffn.SEED_X, ffn.SEED_W1, ffn.SEED_W2)
    rows = "\n".join(" ".join(f"{v:.3f}" for v in row) for row in steps.out)
    at = open_page("gpt2-mlp", {"check": "true", "out": rows})
    assert not at.exception
    assert at.success[0].value == "All 15 cells within 0.001."


def test_a_bad_table_gets_one_line_and_keeps_the_last_good_one():
    at = open_page("gpt2-mlp", {"check": "true"})
    at.button[1].click().run()
    at.text_area(key="post").set_value("[[1, 2, 3], [4, 5, 6]]").run()
    assert not at.exception
    errors = [e.value for e in at.error]
    assert errors == ["GELU(z) (5 × 6): expected 5 × 6 numbers, got 2 × 3; "
                      "still checking the last good table."]
    assert at.warning[1].value.startswith("13 of 30 cells")  # the seed's GELU table still checked
    at.text_area(key="pre").set_value("1 2 x").run()
    assert any("row 1, column 3: 'x' is not a number" in e.value for e in at.error)


def test_bad_links_fall_back_with_notes():
    at = open_page("gpt2-mlp", {"act": "relu", "tok": "9", "x": "1,2;3", "w2": "a", "poke": "99",
                                "init": "huge", "near": "7", "tol": "abc", "check": "true",
                                "pre": "[[1, 2]", "seed": "-5"})
    assert not at.exception
    notes = " ".join(c.value for c in at.caption)
    for key in ("act=relu", "tok=9", "x=1,2;3", "w2=a", "poke=99", "init=huge", "near=7", "tol=abc",
                "seed=-5"):
        assert f"Ignored `{key}`" in notes, key
    assert any("brackets" in e.value for e in at.error)
    steps = ffn.ffn(ffn.SEED_X, ffn.SEED_W1, ffn.SEED_W2)
    np.testing.assert_allclose(_cells(figures(at)[Y]), steps.out)  # defaults kept


def test_real_size_controls_change_the_numbers():
    at = open_page("gpt2-mlp")
    before = {m.label: m.value for m in at.metric}
    at.selectbox(key="init").set_value("fan_in").run()
    after = {m.label: m.value for m in at.metric}
    assert float(after["Pushed near zero"].rstrip("%")) > 3 * float(before["Pushed near zero"].rstrip("%"))
    at.slider(key="poke").set_value(7).run()
    changes = decode(figures(at)[-1]["data"][0]["y"])
    assert changes[6] > 0 and np.all(np.delete(changes, 6) == 0)


def test_overflowing_matrices_warn_instead_of_drawing_nan():
    big = ";".join(["1e200,1e200,1e200"] * 5)
    at = open_page("gpt2-mlp", {"x": big, "w1": ";".join(["1e200,1,1,1,1,1"] * 3),
                                "check": "true", "pre": "1 2 3 4 5 6\n" * 5})
    assert not at.exception
    assert any("overflow" in w.value for w in at.warning)
    assert not any("cells off by" in w.value for w in at.warning)  # no NaN comparisons
    for fig in figures(at):
        for trace in fig["data"]:
            for attr in ("x", "y", "z"):
                v = trace.get(attr)
                if isinstance(v, dict | list) and not (isinstance(v, list) and v and isinstance(v[0], str)):
                    assert np.isfinite(decode(v).astype(float)).all()


def _specs(at) -> list[str]:
    return [spec_text(el) for el in chart_elements(at)]


def test_a_control_changes_its_own_section_only():
    """tok moves the token's path, near the histogram, poke the changes chart: nothing else moves."""
    at = open_page("gpt2-mlp")
    HIST, CHANGES = -2, -1
    for key, value, own in (("tok", 4, {PATH}), ("near", 0.2, {len(_specs(at)) + HIST}),
                            ("poke", 6, {len(_specs(at)) + CHANGES})):
        before = _specs(at)
        metrics_before = {m.label: m.value for m in at.metric}
        widget = at.selectbox(key=key) if key == "tok" else at.slider(key=key)
        widget.set_value(value).run()
        after = _specs(at)
        assert not at.exception and len(after) == len(before)
        changed = {i for i, (a, b) in enumerate(zip(before, after, strict=True)) if a != b}
        assert changed == own, (key, changed)
        moved = {k for k, v in ({m.label: m.value for m in at.metric}).items() if metrics_before.get(k) != v}
        assert moved <= ({"Pushed near zero"} if key == "near" else set()), (key, moved)


def test_plain_labels_and_one_colour_language():
    at = open_page("gpt2-mlp", {"poke": "2"})
    assert at.selectbox(key="act").format_func("gelu_tanh") == "tanh approximation"
    assert at.selectbox(key="init").format_func("fan_in") == "1/√inputs (fan-in)"
    specs = " ".join(_specs(at)).upper()
    assert "#E69F00" not in specs  # orange is class 0's colour: never "off" or "changed token" here
    figs = figures(at)
    curve = figs[CURVE]["data"]
    off = next(t for t in curve if t.get("name", "").startswith("units off"))
    assert off["marker"]["color"] == "#999999"  # ui.colors.OFF
    bars = figs[-1]["data"][0]["marker"]["color"]
    assert bars[1] != "#999999" and all(c == "#999999" for i, c in enumerate(bars) if i != 1)


def test_no_e_notation_or_negative_zero_on_screen():
    import re

    at = open_page("gpt2-mlp", {"init": "fan_in", "tok": "3"})
    words = [*(m.value for m in at.markdown), *(c.value for c in at.caption),
             *(f"{m.label} {m.value}" for m in at.metric)]
    for d in at.dataframe:
        words.append(d.value.to_string())
    for spec in _specs(at):
        words += re.findall(r'"text":\s*(\[[^\]]*\]|"[^"]*")', spec)
    text = " ".join(words)
    assert not re.search(r"\d[eE][-+]?\d", text), re.search(r".{20}\d[eE][-+]?\d.{20}", text)
    assert "-0.000" not in text and "−0.000" not in text


def test_a_link_reproduces_every_section():
    """Set the controls by hand, then open the page from the link they make: the same page."""
    at = open_page("gpt2-mlp")
    at.selectbox(key="act").set_value("gelu_tanh").run()
    at.selectbox(key="tok").set_value(3).run()
    at.number_input(key="seed").set_value(4).run()
    at.selectbox(key="init").set_value("fan_in").run()
    at.slider(key="near").set_value(0.2).run()
    at.slider(key="poke").set_value(6).run()
    link = {"act": "gelu_tanh", "tok": "3", "seed": "4", "init": "fan_in", "near": "0.2", "poke": "6"}
    assert at.query_params["act"] == "gelu_tanh"  # bound by hand: the short value, not the name
    again = open_page("gpt2-mlp", link)
    assert not again.exception
    assert _specs(again) == _specs(at)
    assert [m.value for m in again.metric] == [m.value for m in at.metric]
    assert _text(again) == _text(at)


def test_the_near_zero_heading_says_what_is_measured():
    """The heading claimed 'GELU pushes part of the hidden layer near zero' over 1.0 %: it now states the
    two shares the metrics under it show, and follows the slider."""
    at = open_page("gpt2-mlp")
    metric = {m.label: m.value for m in at.metric}
    heading = next(h.value for h in at.subheader if h.value.startswith("GELU shrinks"))
    assert heading == (f"GELU shrinks {metric['Negative before GELU']} of the hidden values and pushes "
                       f"{metric['Pushed near zero']} near zero")
    at.slider(key="near").set_value(0.4).run()
    near = next(m.value for m in at.metric if m.label == "Pushed near zero")
    assert near != metric["Pushed near zero"]
    assert f"pushes {near} near zero" in " ".join(h.value for h in at.subheader)

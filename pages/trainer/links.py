"""The live trainer's links, derived from lib/settings.py's one table of settings (the link table, the share
link, the weights file's check), and what each problem type says (PROBLEM_UI: its first words, its captions).

pages/trainer.py draws these; pages/trainer/controls.py and the sections read them. A parser raises
ValueError with a reason a student can read; ui.state shows it next to the box and keeps the last good
value.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import streamlit as st

from classroom.links import short_link
from engine import fairshare
from lib import settings
from lib.datasets import PROBLEMS
from lib.settings import (  # noqa: F401  (the page's words for the table's names)
    ACTS,
    OPT_NAMES,
    SAME,
    VIEWS,
    WORST,
    format_hidden,
    parse_hidden,
    parse_speed,
    parse_units,
    plain,
)
from lib.train import read_export
from pages.trainer import run as tr
from ui import address, fmt, room, state

_WORDS = {"redraws": f"{1 / fairshare.MIN_INTERVAL:.0f}"}   # what a setting's help names from the engine


def _link(s: settings.Setting) -> state.Link:
    """One row of lib.settings as a link of ui.state: a number a link carries onto a list of choices is
    any number within the row's bounds (and `same` on the twin's)."""
    parse = s.parse
    if parse is None and s.lo is not None and s.choices:
        lo, hi = s.lo, s.hi
        parse = lambda raw: state.parse_number(raw, lo, hi)   # noqa: E731
        parse = settings.same_or(parse) if SAME in s.choices else parse
    return state.Link(s.key, s.widget, s.default, s.label, s.help.format_map(_WORDS),
                      lo=None if s.choices else s.lo, hi=None if s.choices else s.hi, step=s.step,
                      choices=s.choices, names=s.names, parse=parse, fmt=s.fmt, number_format=s.number_format,
                      meaning=s.meaning, values=s.values, hand=s.hand)


@dataclass(frozen=True)
class ProblemUI:
    """What the page says for one problem type (lib.datasets.PROBLEMS has its maths, lib.settings.first its
    first dataset, network and pace)."""
    why: str            # why its first network has that size ({units}: its first layer's)
    intro: str          # the page's first words: what is on screen and what to watch
    csv_labels: str     # what a points file's last column holds ({last}: the last class)
    csv_example: str    # what the template file's points are ({k}: the classes)
    shading: str        # the caption under the live maps ({k}: the classes)

    def labels(self, k: int) -> str:
        return self.csv_labels.format(last=k - 1)

    def example(self, k: int) -> str:
        return self.csv_example.format(k=k)


_CURVES = "Curves: solid train, dotted test; indigo your network, teal the twin."
PROBLEM_UI = {
    "classify": ProblemUI(
        "one layer of {units}: enough bends for a checkerboard, few enough to watch each one",
        "Two classes of points, a tiny network, and gradient descent running live. With **no hidden layer** the "
        "network can only draw a straight boundary; give it a hidden layer with a **bend** and the same "
        "training loop carves out curved regions. Press **Play** and watch both side by side.",
        "labels 0 or 1", "an XOR of two classes",
        "Shading: the network's P(class 1), from orange (class 0) through white to green (class 1). Class 0 "
        "points are circles, class 1 squares; filled: training points; hollow: test points, never trained "
        "on. " + _CURVES),
    "classes": ProblemUI(
        "two layers of {units}: a spiral's arms need bends on bends; one small layer stays near chance",
        "Three to five classes of points, a tiny network with one output per class (softmax: the outputs made "
        "into shares that add up to 1, one per class), and gradient "
        "descent running live. With **no hidden layer** every border between two classes is straight; with "
        "hidden layers and a **bend** the borders curve around the arms. Press **Play** and watch both side by "
        "side.",
        "labels 0 to {last}", "{k} clusters, one per class",
        "Shading: the class the network picks among {k}, in its colour, paler where it is unsure. Each class "
        "has its own shape (circle, square, diamond, triangle, cross); filled: training points; hollow: test "
        "points, never trained on. " + _CURVES),
    "regress": ProblemUI(
        "one layer of {units}: a curve is a sum of ramps, one per unit (as tax bands are), and more ramps fit "
        "the wave on every seed",
        "A value for every point, a tiny network with one output, and gradient descent running live. With **no "
        "hidden layer** the network can only draw a straight line (or a flat plane); with a hidden layer of "
        "**ReLU** units its fit is a sum of ramps, one per unit, that bends to follow the curve. Press **Play** "
        "and watch both.",
        "values from −10 to 10", "values on a tilted plane",
        "Shading: the network's value, vermillion below 0 through white to blue above it. Squares: the points "
        "coloured by their value (filled train, hollow test). " + _CURVES),
}
CURVE_CAPTION = ("Squares: the points (filled train, hollow test); the thick line is the network's curve. Under "
                 "it, each hidden unit's ramp times its out weight: the curve is their sum plus a bias, like tax "
                 "bands. " + _CURVES)


def classes_of(problem: str, k: int) -> int | None:
    """The number of classes a problem's points and files are checked against: k for `classes`, else None
    (two classes, or values)."""
    return k if PROBLEMS[problem].head == "softmax" else None


def problem_now() -> str:
    """The problem type the link or the box holds now (the first one for a value that is not one)."""
    problem = LINKS.value("problem")
    return problem if problem in PROBLEM_UI else "classify"


LINKS = state.Links(
    *(_link(s) for s in settings.table()),
    # Declared once per process and shared by every session: what varies by session (the datasets of the
    # problem chosen, a number typed into a link) goes through LINKS.vary, never into this table.
    page=Path(__file__).resolve().parents[1] / "trainer.py",
)


def _choices_with_link(key: str) -> None:
    """A bound select_slider drops a link value that is not one of its options; a teacher who typed
    `speed=25` or `lr=0.05` into a slide means it, so a usable one joins this run's options."""
    link = LINKS[key]
    value = LINKS.value(key)
    if value in link.choices:
        return
    numeric = sorted([c for c in link.choices if c != "max"] + [value], key=float)
    LINKS.vary(key, choices=(*numeric, *(c for c in link.choices if c == "max")))


def slider(key: str):
    """A select_slider of LINKS that also takes a usable link value off its list."""
    _choices_with_link(key)
    return LINKS.widget(key, format_func=LINKS[key].fmt)


def view_tabs(key: str = "view") -> tuple[dict[str, Any], str]:
    """Draw `key`'s tabs (a `tabs` row of lib/settings.py) and return ({choice: its tab's container}, the
    open choice).

    Streamlit's lazy tabs (`on_change="rerun"`): only the open tab's code needs to run, so a page
    computes and sends one tab's charts, not every tab's; opening another tab reruns the page.
    The tabs' own widget key is `key + "_tab"` (it holds the tab's label)."""
    link = LINKS[key]
    names = link.names or {}
    if LINKS.open_tab(link) is None:  # first draw here, or the key's state is another page's
        st.session_state[f"{key}_tab"] = names[LINKS.good(key)]  # this page's link, else its default
    LINKS.own(key)
    boxes = st.tabs([names[c] for c in link.choices], key=f"{key}_tab", on_change="rerun")
    value = LINKS.open_tab(link)
    LINKS.accept(key, value)
    LINKS.show_note(key, value)
    return dict(zip(link.choices, boxes, strict=True)), value


def twin_number_with_link(key: str) -> None:
    """A usable number typed into a link (`tlr=0.05`) joins this run's list, as _choices_with_link does."""
    link = LINKS[key]
    value = LINKS.value(key)
    if value == SAME or value in link.choices or not isinstance(value, float):
        return
    numbers = sorted([*(c for c in link.choices if c != SAME), value])
    LINKS.vary(key, choices=(SAME, *numbers), names={**link.names, value: plain(value)})


def share_link(run: tr.Run, values: dict) -> list[tuple[str, str]] | None:
    """The parts of this page's share link, its query: every setting that differs from its default and
    the network's weights (`w=`); None for a network too large for a link. show_link draws the link."""
    code = run.trainer.encode_weights()
    if code is None:
        return None
    params = []
    for key, value in values.items():
        link = LINKS[key]
        problem = values.get("problem")
        default = settings.first(problem)["dataset"] if key == "dataset" and problem in PROBLEMS else link.default
        if state._equal(value, default):
            continue
        if link.kind == "multi":
            params += [(key, str(v)) for v in value]
        else:
            params.append((key, link.to_text(value)))
    params.append(("w", code))
    return params


def show_link(params: list[tuple[str, str]]) -> None:
    """The share link (share_link's parts) as the page offers it. In the room view (issue 43 item 9) its
    1,500 characters (a 3-class network's weights) were printed for nobody to read off a screen: there a
    button keeps it under a short link a room can type (/?s=CODE, classroom/links.py), in a box with its
    copy button."""
    if not room.on():
        st.code(address.page_link(params, "/trainer"), language=None, wrap_lines=True)
        return
    path, base = "trainer", address.page_link([], "/trainer").rstrip("/")
    short_link(path, urlencode(params), base[: -len(path)] if base.endswith(path) else base + "/",
               key="trainer_short_link",
               label="Short link", help="This network, its settings and its weights under six "
                    "letters, e.g. /?s=K7M2QX, for the room to type. Kept on this server for a year. The "
                    "whole link is on the page without large text.")


def twin_title(spec: tr.Spec) -> str:
    """What the twin is, in a few words: "No hidden layer", or its differences from the network."""
    cfg = spec.twin_config()
    if cfg["hidden"] == () and all(v == SAME for k, v in spec.twin_diff.items() if k != "hidden"):
        return "No hidden layer"
    words = []
    if cfg["hidden"] != spec.hidden:
        words.append(fmt.layers(cfg["hidden"]))
    for key, now in spec.hparams().items():
        if key in cfg and cfg[key] != now:
            link = LINKS[key]
            words.append(link.names[cfg[key]] if link.names else f"{LINKS['t' + key].label[6:]} {link.to_text(cfg[key])}")
    return "Twin: " + ", ".join(words) if words else "Twin"


def check_file(data: bytes, spec: tr.Spec):
    """A weights file a student loads, checked against the page (lib.train.read_export: every field bounded, shapes, finite
    numbers, size cap, the problem type; here also the number of classes and the layers this page builds).
    Returns (the dict, its TrainConfig); ValueError with one line, nothing loaded, whatever the file holds."""
    try:
        d, cfg = read_export(data, head=spec.head, n_in=len(spec.feat))
    except ValueError:
        raise
    except Exception as err:   # nothing a file holds gets past this as anything but one line
        raise ValueError(f"the file could not be read ({type(err).__name__})") from None
    if spec.head == "softmax" and cfg.classes != spec.k:
        raise ValueError(f"the file's network sorts {cfg.classes} classes, the page {spec.k}: set Classes to "
                         f"{cfg.classes} first")
    try:
        parse_hidden(format_hidden(cfg.hidden))
    except ValueError as err:
        raise ValueError(f"the file's hidden layers do not fit this page: {err}") from None
    return d, cfg

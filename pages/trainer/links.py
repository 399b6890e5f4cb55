"""The live trainer's links: every setting a link carries, its parser and its words, and what each
problem type brings with it (PROBLEM_UI: its first dataset and network, its first words, its captions).

pages/trainer.py draws these; pages/trainer/controls.py and the sections read them. A parser raises
ValueError with a reason a student can read; ui.state shows it next to the box and keeps the last good
value.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple

import numpy as np

from engine import fairshare
from lib.activations import ACTIVATIONS
from lib.datasets import CLASSES_DEFAULT, CLASSES_MAX, CLASSES_MIN, DEFAULT_CELLS, PROBLEMS
from lib.features import FEATURES
from lib.optim import OPT_NAMES, OPTIMIZERS
from lib.points import HAND_LINK_CHARS, HAND_MAX, MAX_POINTS
from lib.train import MAX_LINK_PARAMS, read_export
from pages.trainer import run as tr
from ui import address, fmt, state

ACTS = {k: a.label for k, a in ACTIVATIONS.items()}
VIEWS = {"bend": "Bend", "inside": "Inside", "step": "One step", "warp": "Warp",
         "mistakes": "Mistakes", "code": "Code"}
WORST = "worst"              # `pt`: follow the training point the network fits worst
LR_OPTIONS = (0.00001, 0.0001, 0.001, 0.003, 0.01, 0.03, 0.1, 0.3, 1.0, 3.0, 10.0)
PENALTIES = (0.0, 0.00001, 0.0001, 0.001, 0.003, 0.01, 0.03, 0.1, 0.3, 1.0, 3.0, 10.0)  # the Playground's 0..10
BATCHES = (0, *range(1, 31), 32, 64, 128)   # the Playground's 1 to 30, and a few powers of two
SPEEDS = ("1", "2", "5", "10", "20", "50", "100", "200", "500", "1000", "max")
MAX_SPEED = 100_000          # epochs per redraw typed into a link
MAX_LAYERS, MAX_UNITS = 6, 32  # the Playground allows 6 layers of 8; a link may ask for more units


def parse_hidden(text: str) -> tuple[int, ...]:
    """'8' -> (8,), '16,16' -> (16, 16), '0' -> () (no hidden layer); ValueError with a reason."""
    t = str(text).replace(" ", "")
    if t == "0":
        return ()
    if not t:
        raise ValueError("it is empty; write units per layer like 8 or 16,16, or 0 for none")
    parts = t.split(",")
    if len(parts) > MAX_LAYERS:
        raise ValueError(f"at most {MAX_LAYERS} hidden layers")
    units = []
    for i, p in enumerate(parts):
        if not p.isdigit():
            raise ValueError(f"layer {i + 1} ({p or 'empty'}) is not a whole number")
        u = int(p)
        if not 1 <= u <= MAX_UNITS:
            raise ValueError(f"layer {i + 1} has {u} units; use 1 to {MAX_UNITS}")
        units.append(u)
    return tuple(units)


def format_hidden(hidden: tuple[int, ...]) -> str:
    return ",".join(map(str, hidden)) or "0"


def parse_units(text: str) -> tuple[int, int]:
    """'1,2' -> (1, 2): the two units of a layer drawn across and up (view=warp); ValueError with a reason."""
    parts = str(text).replace(" ", "").split(",")
    if len(parts) != 2 or not all(p.isdigit() for p in parts):
        raise ValueError("write two unit numbers like 1,2")
    u, v = int(parts[0]), int(parts[1])
    if not (1 <= u <= MAX_UNITS and 1 <= v <= MAX_UNITS):
        raise ValueError(f"units run from 1 to {MAX_UNITS}")
    if u == v:
        raise ValueError("the two units must differ")
    return u, v


def format_units(units: tuple[int, int]) -> str:
    return ",".join(map(str, units))


def parse_speed(text: str) -> int | None:
    """'max' -> None (a time budget), '25' -> 25 epochs per redraw; ValueError otherwise."""
    t = str(text).strip().lower()
    if t == "max":
        return None
    if not t.isdigit() or not 1 <= int(t) <= MAX_SPEED:
        raise ValueError(f"use a whole number from 1 to {MAX_SPEED:,}, or max")
    return int(t)


def _speed_text(raw: str) -> str:
    parse_speed(raw)
    return str(raw).strip().lower()


def _number_in(lo: float, hi: float):
    return lambda raw: state.parse_number(raw, lo, hi)


def plain(v) -> str:
    """0.03, 10, 0.00001: a number on a slider and, being its format_func, in the link (no e-notation)."""
    return np.format_float_positional(float(v), trim="-")


def _weights_text(raw: str) -> str:
    return str(raw).strip()


SAME = "same"   # a twin setting that follows the network's own


def _same_or(parse):
    def parse_twin(raw: str):
        return SAME if str(raw).strip().lower() == SAME else parse(raw)
    return parse_twin


def _twin_hidden_text(value) -> str:
    return SAME if value == SAME else format_hidden(value)


def _twin_number_text(value) -> str:
    return SAME if value == SAME else plain(value)


SAME_NAME = "same as your network"


PROBLEM_NAMES = {p.name: p.label for p in PROBLEMS.values()}
# Every problem's datasets in one list (the link's choices); a run offers its problem's (PROBLEMS[p].sets).
ALL_SETS = tuple(dict.fromkeys(name for p in PROBLEMS.values() for name in p.sets))


class FirstNetwork(NamedTuple):
    """A problem's first network: one that learns its first dataset within seconds of Play (bench/defaults.py
    measures them over seeds); its lesson pace (epochs per redraw: the boundary forms over several seconds
    at about 8 redraws a second, where full speed would finish before a room can look); and why that size."""
    hidden: tuple[int, ...]
    lr: float
    pace: str
    why: str


@dataclass(frozen=True)
class ProblemUI:
    """What the page says and starts with for one problem type (lib.datasets.PROBLEMS has its maths)."""
    first_set: str
    network: FirstNetwork
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
        "checkerboard",
        FirstNetwork((8,), 0.03, "5", "one layer of {units}: enough bends for a checkerboard, few enough to "
                                      "watch each one"),
        "Two classes of points, a tiny network, and gradient descent running live. With **no hidden layer** the "
        "network can only draw a straight boundary; give it a hidden layer with a **bend** and the same "
        "training loop carves out curved regions. Press **Play** and watch both side by side.",
        "labels 0 or 1", "an XOR of two classes",
        "Shading: the network's P(class 1), from orange (class 0) through white to green (class 1). Class 0 "
        "points are circles, class 1 squares; filled: training points; hollow: test points, never trained "
        "on. " + _CURVES),
    "classes": ProblemUI(
        "spiral",
        FirstNetwork((16, 16), 0.03, "10", "two layers of {units}: a spiral's arms need bends on bends; one small "
                                           "layer stays near chance"),
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
        "sin(2x)",
        FirstNetwork((32,), 0.1, "50", "one layer of {units}: a curve is a sum of ramps, one per unit (as tax "
                                       "bands are), and more ramps fit the wave on every seed"),
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


def _point_choice(text: str) -> str:
    text = text.strip().lower()
    if text == WORST or (text.isdigit() and int(text) < 10_000):
        return text
    raise ValueError("not `worst` or a point's number")


LINKS = state.Links(
    state.select("problem", PROBLEMS, "classify", "Problem type",
                 "Two classes (a sigmoid output), 3 to 5 classes (softmax) or a value per point (a linear "
                 "output, mean squared error), on the plane or along a curve.", names=PROBLEM_NAMES,
                 meaning="two classes, several classes, or a value per point"),
    state.slider("k", CLASSES_MIN, CLASSES_MAX, CLASSES_DEFAULT, 1, "Classes",
                 "How many classes (colours) the points come in.",
                 meaning="number of classes (`problem=classes` only)"),
    state.select("dataset", ALL_SETS, "checkerboard", "Dataset",
                 "Which pattern to learn; the list follows the problem type. Checkerboard and spiral need "
                 "bends; gaussians and blobs do not.",
                 meaning="the pattern (or curve) to learn; the choices follow `problem`",
                 values="two classes: " + ", ".join(f"`{d}`" for d in PROBLEMS["classify"].sets)
                 + "; classes: " + ", ".join(f"`{d}`" for d in PROBLEMS["classes"].sets)
                 + "; values: " + ", ".join(f"`{d}`" for d in PROBLEMS["regress"].sets)
                 + " (`checkerboard`, `spiral`, `sin(2x)`)"),
    state.slider("n", 50, MAX_POINTS, 400, 50, "Points", "How many points to draw (train and test together).",
                 meaning="points, train and test together", values=f"50 to {MAX_POINTS} in steps of 50 (400)"),
    state.slider("noise", 0.0, 1.0, 0.0, 0.05, "Noise",
                 "Jitter every point's position; 0.5 is a lot. Labels keep their clean class.",
                 meaning="jitter of the points' positions"),
    state.slider("train", 10, 90, 80, 5, "Training share",
                 "Points the network learns from; the rest are the test set it never sees.",
                 number_format="%d %%", meaning="training share of the points, in percent"),
    state.number("seed", 0, 99_999, 0, 1, "Seed",
                 "Fixes the points and the network's starting weights: same seed, same run.",
                 meaning="the points and the starting weights"),
    state.slider("cells", 2, 8, DEFAULT_CELLS, 1, "Checkerboard cells per side",
                 f"The board's size; {DEFAULT_CELLS} × {DEFAULT_CELLS} is what the default 8-unit network "
                 "learns reliably. Bigger boards want more units.",
                 meaning="checkerboard cells per side (checkerboard only)"),
    state.multi("feat", FEATURES, ("x1", "x2"), "Inputs fed to the network",
                "As in the Playground: " + ", ".join(f"{k} = {f.label}" for k, f in FEATURES.items())
                + ". A hand-made x1sq + x2sq lets even a straight-line network draw a circle.",
                meaning="inputs fed to the network, repeated for several"),
    state.text("hidden", (8,), "Units per hidden layer",
               "Comma separated, one number per hidden layer: 8, or 16,16 for two layers of 16; 0 for none "
               f"(a plain linear classifier). Up to {MAX_LAYERS} layers of 1 to {MAX_UNITS} units.",
               parse=parse_hidden, fmt=format_hidden,
               meaning="units per hidden layer, comma separated; `0` = no hidden layer",
               values=f"up to {MAX_LAYERS} layers of 1 to {MAX_UNITS} units (`8`)"),
    state.select("act", ACTS, "relu", "Bend (activation)",
                 "Applied after every hidden layer. Changing it keeps the weights.", names=ACTS,
                 meaning="the bend after every hidden layer"),
    state.select("opt", OPTIMIZERS, "adam", "Optimiser",
                 "How each step uses the gradient: plain SGD, SGD with momentum (steps keep some of their last "
                 "direction), or Adam (each weight's step scaled by how large its gradients have been lately).",
                 names=OPT_NAMES,
                 meaning="optimiser"),
    state.select("batch", BATCHES, 0, "Batch size",
                 "Training points per step. All points (full batch) is one step per epoch, the fastest.",
                 names={0: "all points (full batch)"}, meaning="points per step; `0` = all of them",
                 values="`0` (all points), `1` to `30`, `32`, `64`, `128` (`0`)"),
    state.select_slider("lr", LR_OPTIONS, 0.03, "Learning rate",
                        "Step size. Too large and the loss blows up: training stops and says so.",
                        parse=_number_in(0.000001, 10.0), fmt=plain, meaning="learning rate",
                        values="`0.00001` ... `10`; any number from 0.000001 to 10 in a link (`0.03`)"),
    state.select_slider("l2", PENALTIES, 0.0, "L2 penalty",
                        "Adds 0.5 · L2 · (sum of squared weights) to the loss: pulls every weight towards 0.",
                        parse=_number_in(0.0, 10.0), fmt=plain, meaning="L2 penalty",
                        values="`0` ... `10`; any number from 0 to 10 in a link (`0`)"),
    state.select_slider("l1", PENALTIES, 0.0, "L1 penalty",
                        "Adds L1 · (sum of |weights|) to the loss: drives the weights it does not need to "
                        "exactly 0. Both at 0: no penalty.",
                        parse=_number_in(0.0, 10.0), fmt=plain, meaning="L1 penalty",
                        values="`0` ... `10`; any number from 0 to 10 in a link (`0`)"),
    state.select_slider("speed", SPEEDS, PROBLEM_UI["classify"].network.pace, "Epochs per redraw",
                        "The lesson pace lets a class watch the boundary form; 1 shows every step; max trains as "
                        "many epochs as fit between two redraws (up to "
                        f"{1 / fairshare.MIN_INTERVAL:.0f} a second, fewer when others play too).",
                        parse=_speed_text, fmt=str,
                        meaning="epochs per redraw while playing; `max` = as many as fit in the redraw's "
                                "time budget",
                        values=f"a whole number from 1 to {MAX_SPEED}, or `max` (the problem's lesson pace: "
                               + ", ".join(f"`{u.network.pace}`" for u in PROBLEM_UI.values()) + ")"),
    state.toggle("twin", True, "Twin beside it",
                 "Train a second network on the same data from the same start, in lockstep: by default with no "
                 "hidden layer; choose its differences below.",
                 meaning="train a twin beside the network, in lockstep (its differences: `thidden` ... `tl2`)"),
    state.text("thidden", (), "Twin: units per hidden layer",
               "As for your network (8, or 16,16; 0 for none), or `same`. The same widths start from exactly "
               "your network's weights; other widths share the first layer's units they both have.",
               parse=_same_or(parse_hidden), fmt=_twin_hidden_text,
               meaning="the twin's units per hidden layer, or `same`; `0` = no hidden layer",
               values="as `hidden`, or `same` (`0`)"),
    state.select("tact", (SAME, *ACTS), SAME, "Twin: bend", "The twin's bend, or the same as your network's.",
                 names={SAME: SAME_NAME, **ACTS}, meaning="the twin's bend", values="`same` or any `act` value (`same`)"),
    state.select("topt", (SAME, *OPTIMIZERS), SAME, "Twin: optimiser", "The twin's optimiser.",
                 names={SAME: SAME_NAME, **OPT_NAMES}, meaning="the twin's optimiser",
                 values="`same` or any `opt` value (`same`)"),
    state.select("tlr", (SAME, *LR_OPTIONS), SAME, "Twin: learning rate", "The twin's learning rate.",
                 names={SAME: SAME_NAME, **{v: plain(v) for v in LR_OPTIONS}},
                 parse=_same_or(_number_in(0.000001, 10.0)), fmt=_twin_number_text,
                 meaning="the twin's learning rate", values="`same` or any `lr` on the list (`same`)"),
    state.select("tl1", (SAME, *PENALTIES), SAME, "Twin: L1 penalty", "The twin's L1 penalty.",
                 names={SAME: SAME_NAME, **{v: plain(v) for v in PENALTIES}},
                 parse=_same_or(_number_in(0.0, 10.0)), fmt=_twin_number_text,
                 meaning="the twin's L1 penalty", values="`same` or any `l1` on the list (`same`)"),
    state.select("tl2", (SAME, *PENALTIES), SAME, "Twin: L2 penalty", "The twin's L2 penalty.",
                 names={SAME: SAME_NAME, **{v: plain(v) for v in PENALTIES}},
                 parse=_same_or(_number_in(0.0, 10.0)), fmt=_twin_number_text,
                 meaning="the twin's L2 penalty", values="`same` or any `l2` on the list (`same`)"),
    state.toggle("discrete", False, "Discretise the shading",
                 "Shade each point of the plane by the class the network picks (P above or below ½) instead "
                 "of by how sure it is.", meaning="shade by the class picked (P above or below ½), not by P"),
    state.select("bend", ACTS, "identity", "Redraw the trained weights with the bend",
                 "Only the drawing below changes; training keeps using the bend chosen above.", names=ACTS,
                 meaning="the bend used to redraw the trained weights in \"the bend on and off\"",
                 values="any `act` value (`identity`)"),
    state.select("wlayer", range(1, MAX_LAYERS + 1), 1, "Hidden layer",
                 "The layer the plane is seen through: the grid and the points go through every layer up to "
                 "this one.", meaning="the hidden layer the warped plane is drawn after (`view=warp`)",
                 values=f"1 to {MAX_LAYERS}, up to the network's hidden layers (`1`)"),
    state.text("wunits", (1, 2), "Units drawn across and up",
               "Two units of that layer, comma separated: 1,2 draws unit 1's output across and unit 2's up.",
               parse=parse_units, fmt=format_units,
               meaning="the two units of that layer whose outputs are the warped plane's x and y (`view=warp`)",
               values="two different units the layer has, e.g. `3,5` (`1,2`)"),
    state.tabs("view", VIEWS, "bend", "Below the trainer",
               "One view at a time under the trainer; only the open one is computed.",
               meaning="the view open under the trainer"),
    state.text("pt", WORST, "The point followed", "Click a training point in 'One step'.",
               parse=_point_choice, fmt=str, hand=True,
               meaning="the training point followed in \"One step\": its number, or `worst` (the one the "
                       "network fits worst now)",
               values="`worst` or 0 to 9999; a number past the training points is ignored with a note"),
    state.text("pts", "", "Points placed by hand", "Written as you click on the map; not a control.",
               parse=str, fmt=str, hand=True,
               meaning="points placed by hand, `x1_x2_class` (or `x1_x2_value`) joined by `~`, coordinates "
                       "to 2 decimals",
               values=f"at most {HAND_MAX} points ({fmt.count(HAND_LINK_CHARS)} characters); a link whose "
                      "points do not fit the page is ignored with a note"),
    state.toggle("only", False, "Only my points",
                 "Start from an empty plane: the network learns only the points you place by clicking.",
                 meaning="only the points placed by hand, no dataset under them"),
    state.text("w", "", "Trained weights", "Written by the share link; not a control.",
               parse=_weights_text, fmt=str,
               meaning=f"trained weights (float32, URL-safe base64), written by the share link for networks "
                       f"of at most {MAX_LINK_PARAMS} parameters",
               values="a link that does not fit the network is ignored with a note"),
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
    return LINKS.widget(key, format_func=plain if key != "speed" else str)


def twin_number_with_link(key: str) -> None:
    """A usable number typed into a link (`tlr=0.05`) joins this run's list, as _choices_with_link does."""
    link = LINKS[key]
    value = LINKS.value(key)
    if value == SAME or value in link.choices or not isinstance(value, float):
        return
    numbers = sorted([*(c for c in link.choices if c != SAME), value])
    LINKS.vary(key, choices=(SAME, *numbers), names={**link.names, value: plain(value)})


def share_link(run: tr.Run, values: dict) -> str | None:
    """This page's link with every setting that differs from its default and, for a small network,
    its weights (`w=`)."""
    code = run.trainer.encode_weights()
    if code is None:
        return None
    params = []
    for key, value in values.items():
        link = LINKS[key]
        first = PROBLEM_UI.get(values.get("problem"))
        default = first.first_set if key == "dataset" and first else link.default
        if state._equal(value, default):
            continue
        if link.kind == "multi":
            params += [(key, str(v)) for v in value]
        else:
            params.append((key, link.to_text(value)))
    params.append(("w", code))
    return address.page_link(params, "/trainer")


def twin_title(spec: tr.Spec) -> str:
    """What the twin is, in a few words: "No hidden layer", or its differences from the network."""
    cfg = spec.twin_config()
    if cfg["hidden"] == () and all(v == SAME for k, v in spec.twin_diff.items() if k != "hidden"):
        return "No hidden layer"
    words = []
    if cfg["hidden"] != spec.hidden:
        words.append(fmt.layers(cfg["hidden"]))
    names = {"act": lambda v: ACTS[v], "opt": lambda v: OPT_NAMES[v], "lr": lambda v: f"learning rate {plain(v)}",
             "l1": lambda v: f"L1 {plain(v)}", "l2": lambda v: f"L2 {plain(v)}"}
    for key, say in names.items():
        if cfg[key] != spec.hparams()[key]:
            words.append(say(cfg[key]))
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

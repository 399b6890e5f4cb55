"""The live trainer: watch a bend learn a boundary that no straight line can draw.

Sections: the live part (boundary maps, Play, metrics, curves) beside the controls; then one tab at a
time (`view=`): the bend switched on and off, inside the network (diagram, unit maps, linear regions),
right and wrong class by class, the code. The top (controls and live part) is one fragment: a control
reruns it alone, and it asks for a full rerun only when the pictures below depend on what changed (the
data, the layers, the bend, the weights after a Step, Play or Pause). The live part inside it is the
fragment that ticks while playing; the open tab ticks too, at a lower rate (ui.trainer.SLOW_TICK). Only
the open tab runs (Streamlit's lazy tabs), so a data move computes and sends one tab's pictures.
"""

import json
import math
from dataclasses import replace
from urllib.parse import urlencode

import numpy as np
import streamlit as st

from engine import fairshare
from lib.activations import ACTIVATIONS
from lib.datasets import CLASSES_DEFAULT, CLASSES_MAX, CLASSES_MIN, DEFAULT_CELLS, PROBLEMS, dims
from lib.features import FEATURES
from lib.maps import (
    RES,
    UNIT_RES,
    boundary_cells,
    class_map,
    class_shade,
    collapse,
    confusion,
    curve_fit,
    fold_lines,
    labels_of,
    limit_for,
    plane_inputs,
    probability_map,
    unit_maps,
    value_map,
    value_shade,
    value_span,
)
from lib.mlp import collapse_params, follow, forward, loss_and_grads, point_losses
from lib.optim import OPTIMIZERS
from lib.points import (
    HAND_LINK_CHARS,
    HAND_MAX,
    MAX_BYTES,
    MAX_POINTS,
    columns_for,
    decode_hand,
    encode_hand,
    points_csv,
    template_csv,
)
from lib.regions import line_in_box, region_ids
from lib.train import MAX_LINK_PARAMS
from lib.warp import grid_lines, on_axes, warp
from ui import address, charts, fmt, picking, state, tex
from ui import classroom as cr
from ui import trainer as tr
from ui import trainer_charts as tc
from ui.light import sendable
from ui.source import show_source

ACTS = {k: a.label for k, a in ACTIVATIONS.items()}
VIEWS = {"bend": "Bend", "inside": "Inside", "step": "One step", "warp": "Warp",
         "mistakes": "Mistakes", "code": "Code"}
WORST = "worst"              # `pt`: follow the training point the network fits worst
OPT_NAMES = {"sgd": "SGD", "momentum": "SGD with momentum", "adam": "Adam"}
LR_OPTIONS = (0.00001, 0.0001, 0.001, 0.003, 0.01, 0.03, 0.1, 0.3, 1.0, 3.0, 10.0)
PENALTIES = (0.0, 0.00001, 0.0001, 0.001, 0.003, 0.01, 0.03, 0.1, 0.3, 1.0, 3.0, 10.0)  # the Playground's 0..10
BATCHES = (0, *range(1, 31), 32, 64, 128)   # the Playground's 1 to 30, and a few powers of two
SPEEDS = ("1", "2", "5", "10", "20", "50", "100", "200", "500", "1000", "max")
MAX_SPEED = 100_000          # epochs per redraw typed into a link
MAX_LAYERS, MAX_UNITS = 6, 32  # the Playground allows 6 layers of 8; a link may ask for more units
FULL = "trainer_full_run"    # session flag: True while the whole page is running (not a fragment)
VIEW = "trainer_view"        # what the sections below the top were last drawn for
BELOW = "trainer_below"      # the controls they depend on, when they were drawn
H_MAP, H_CURVES = 450, 400   # live chart heights (px): a map about 380 px square at 1366 px, 340 on a phone


# --- link values that need more than a widget ------------------------------------------------------
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
    def parse(raw: str) -> float:
        try:
            v = float(raw)
        except ValueError:
            raise ValueError("not a number") from None
        if not (math.isfinite(v) and lo <= v <= hi):
            raise ValueError(f"use a number from {fmt.num(lo, 6)} to {fmt.num(hi)}")
        return v
    return parse


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
TWIN_NUMBERS = {SAME: SAME_NAME}


PROBLEM_NAMES = {p.name: p.label for p in PROBLEMS.values()}
# Every problem's datasets in one list (the link's choices); a run offers its problem's (PROBLEMS[p].sets).
ALL_SETS = tuple(dict.fromkeys(name for p in PROBLEMS.values() for name in p.sets))
FIRST_SET = {"classify": "checkerboard", "classes": "spiral", "regress": "sin(2x)"}  # each problem's default
# Each problem's first network: one that learns its first dataset within seconds of Play (bench/defaults.py
# measures them over seeds); its lesson pace (epochs per redraw: the boundary forms over several seconds
# at about 8 redraws a second, where full speed would finish before a room can look); and why that size.
NETWORKS = {
    "classify": ((8,), 0.03, "5", "one layer of {units}: enough bends for a checkerboard, few enough to "
                                  "watch each one"),
    "classes": ((16, 16), 0.03, "10", "two layers of {units}: a spiral's arms need bends on bends; one small "
                                      "layer stays near chance"),
    "regress": ((32,), 0.1, "50", "one layer of {units}: a curve is a sum of ramps, one per unit (as tax "
                                  "bands are), and more ramps fit the wave on every seed"),
}
LAST_PROBLEM = "trainer_last_problem"
# The page's first words, per problem type: what is on screen and what to watch.
INTRO = {
    "classify": "Two classes of points, a tiny network, and gradient descent running live. With **no hidden "
                "layer** the network can only draw a straight boundary; give it a hidden layer with a **bend** "
                "and the same training loop carves out curved regions. Press **Play** and watch both side by "
                "side.",
    "classes": "Three to five classes of points, a tiny network with one output per class (softmax), and "
               "gradient descent running live. With **no hidden layer** every border between two classes is "
               "straight; with hidden layers and a **bend** the borders curve around the arms. Press **Play** "
               "and watch both side by side.",
    "regress": "A value for every point, a tiny network with one output, and gradient descent running live. "
               "With **no hidden layer** the network can only draw a straight line (or a flat plane); with a "
               "hidden layer of **ReLU** units its fit is a sum of ramps, one per unit, that bends to follow "
               "the curve. Press **Play** and watch both.",
}
CHALLENGE = "trainer_challenge"   # the class challenge this page is in (ui.classroom), set by each full run
CURVE_RES = 240   # points along a curve fit's axis


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
                 "How each step uses the gradient: plain SGD, SGD with momentum, or Adam.", names=OPT_NAMES,
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
    state.select_slider("speed", SPEEDS, NETWORKS["classify"][2], "Epochs per redraw",
                        "The lesson pace lets a class watch the boundary form; 1 shows every step; max trains as "
                        "many epochs as fit between two redraws (up to "
                        f"{1 / fairshare.MIN_INTERVAL:.0f} a second, fewer when others play too).",
                        parse=_speed_text, fmt=str,
                        meaning="epochs per redraw while playing; `max` = as many as fit in the redraw's "
                                "time budget",
                        values=f"a whole number from 1 to {MAX_SPEED}, or `max` (the problem's lesson pace: "
                               + ", ".join(f"`{n[2]}`" for n in NETWORKS.values()) + ")"),
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
)


def _choices_with_link(key: str) -> None:
    """A bound select_slider drops a link value that is not one of its options; a teacher who typed
    `speed=25` or `lr=0.05` into a slide means it, so a usable one joins this run's options."""
    link = LINKS[key]
    value = LINKS.value(key)
    if value in link.choices:
        return
    numeric = sorted([c for c in link.choices if c != "max"] + [value], key=float)
    LINKS.links[key] = replace(link, choices=(*numeric, *(c for c in link.choices if c == "max")))


def _slider(key: str):
    """A select_slider of LINKS that also takes a usable link value off its list."""
    _choices_with_link(key)
    return LINKS.widget(key, format_func=plain if key != "speed" else str)


def page_base() -> str:
    """The page's address without its query, one students can reach (ui.address: a loopback address
    becomes the machine's network address); '/trainer' under AppTest."""
    url = address.page_url()
    return address.reachable(url.split("?")[0])[0] if url else "/trainer"


def share_link(run: tr.Run, values: dict) -> str | None:
    """This page's link with every setting that differs from its default and, for a small network,
    its weights (`w=`)."""
    code = run.trainer.encode_weights()
    if code is None:
        return None
    params = []
    for key, value in values.items():
        link = LINKS[key]
        default = FIRST_SET.get(values.get("problem"), link.default) if key == "dataset" else link.default
        if state._equal(value, default):
            continue
        if link.kind == "multi":
            params += [(key, str(v)) for v in value]
        else:
            params.append((key, link.to_text(value)))
    params.append(("w", code))
    return f"{page_base()}?{urlencode(params)}"


# --- the top: controls beside the live part ---------------------------------------------------------
def _problem_and_sets() -> tuple[str, int, str]:
    """The problem type, its classes and its first dataset, before any control is drawn; the dataset
    link's choices become this problem's (a value left from another problem goes back to its first)."""
    problem = LINKS.value("problem")
    problem = problem if problem in PROBLEMS else "classify"
    k = int(LINKS.value("k"))
    sets = tuple(PROBLEMS[problem].sets)
    LINKS.links["dataset"] = replace(LINKS["dataset"], choices=sets)
    _follow_problem(problem)
    first = FIRST_SET[problem]
    if "dataset" in st.session_state and st.session_state["dataset"] not in sets:
        st.session_state["dataset"] = first
    return problem, k, first


def _follow_problem(problem: str) -> None:
    """A new problem type brings its own first network (NETWORKS), unless the student chose the layers or
    the rate themselves (a value other than the last problem's default, or one the link opened with)."""
    last = st.session_state.get(LAST_PROBLEM)
    st.session_state[LAST_PROBLEM] = problem
    if last == problem:
        return
    was, now = NETWORKS.get(last or "classify"), NETWORKS[problem]
    for key, old, new in (("hidden", was[0], now[0]), ("lr", was[1], now[1]), ("speed", was[2], now[2])):
        chosen = last is None and key in st.query_params   # the link asked for this value
        if not chosen and LINKS.value(key) == old and old != new:
            LINKS.set(key, new)


def network_why(problem: str, hidden: tuple) -> str | None:
    """Why this problem's first network has its size (shown while the student keeps it)."""
    first, _, _, why = NETWORKS[problem]
    if tuple(hidden) != first:
        return None
    return "Why this size: " + why.format(units=first[0]) + "."


def _lock(problem: dict) -> None:
    """A class challenge's data, set on the data controls before they are drawn (then drawn locked).
    A link's own data values would win over it on a widget's first draw: they are dropped first."""
    dropped = [k for k in problem if k in st.query_params and k in LINKS.links]
    for key in dropped:
        del st.query_params[key]
    if dropped:
        st.rerun(scope="app")
    for key, value in problem.items():
        if value is None or key not in LINKS.links:
            continue
        now = LINKS.value(key)
        if key == "feat":   # a multiselect holds a list: compare and set as one
            now, value = list(now or ()), list(value)
        if now != value:
            LINKS.set(key, value)


ONE_INPUT = tuple(f for f in FEATURES if FEATURES[f].inputs == 1)   # what a curve (one input, x1) can use


def _inputs_for(curve: bool) -> None:
    """The inputs box offers what the points have: a curve only the features of x1 alone."""
    choices, default = (ONE_INPUT, ("x1",)) if curve else (tuple(FEATURES), ("x1", "x2"))
    LINKS.links["feat"] = replace(LINKS["feat"], choices=choices, default=default)
    now = [f for f in (LINKS.value("feat") or ()) if f in choices]
    if curve and now != list(LINKS.value("feat") or ()):
        LINKS.set("feat", now or list(default))
        LINKS.note("feat", "A curve has one input, x₁: the inputs made from x₂ were left out.",
                   tuple(now or default))


def data_controls(own: tr.OwnData | None, locked: dict | None = None) -> dict:
    """The data's controls; returns their values. `locked`: a class challenge's data, shown but fixed."""
    lock = locked is not None
    with st.container(border=True):
        st.markdown("**The data**" + (" (the class challenge's: locked)" if lock else ""))
        if lock:
            _lock(locked)
        LINKS.widget("problem", disabled=lock)
        problem, k, first = _problem_and_sets()
        if own is not None and (own.problem, own.k if problem == "classes" else None) != (
                problem, k if problem == "classes" else None):
            st.caption(f":orange[:material/info: Your points from `{own.name}` are for another problem type: "
                       "using the built-in datasets.]")
            own = None
        if problem == "classes":
            k = int(LINKS.widget("k", disabled=own is not None or lock))
        dataset = LINKS.widget("dataset", default=first, disabled=own is not None or lock)
        info = PROBLEMS[problem].info
        st.caption(info.get(dataset, "") if own is None else
                   f":material/upload_file: Using your {len(own.y):,} points from `{own.name}`.")
        n = LINKS.widget("n", disabled=own is not None or lock)
        noise = LINKS.widget("noise", disabled=own is not None or lock)
        share = LINKS.widget("train")
        seed = LINKS.widget("seed", disabled=lock)
        plain_board = dataset == "checkerboard" and problem == "classify"
        cells = LINKS.widget("cells", disabled=lock) if plain_board and own is None else None
        curve = (own.X.shape[1] == 1) if own is not None else dims(problem, dataset) == 1
        _inputs_for(curve)
        feat = LINKS.widget("feat", disabled=lock)
        if not feat:
            st.caption(":orange[:material/info: Pick at least one input; using "
                       + ("x1" if curve else "x1 and x2") + ".]")
            feat = LINKS["feat"].default
        only = False
        if not lock:
            row = st.container(horizontal=True, vertical_alignment="center")
            with row:
                st.button("New points", icon=":material/refresh:", on_click=_new_points,
                          help="Draw a fresh set of points (the next seed), and start the network again.")
                only = LINKS.widget("only")
            own_points(own, problem, k)
    return dict(dataset=dataset, n=int(n), noise=float(noise), train=share / 100, seed=int(seed), cells=cells,
                feat=tuple(f for f in FEATURES if f in feat), problem=problem, k=k, own=own, only=bool(only))


def _new_points():
    LINKS.set("seed", (int(LINKS.value("seed")) + 1) % 100_000)


def own_points(own: tr.OwnData | None, problem: str = "classify", k: int = CLASSES_DEFAULT) -> None:
    with st.expander("Your own points (CSV)", icon=":material/upload_file:"):
        what = {"classify": "labels 0 or 1", "classes": f"labels 0 to {k - 1}",
                "regress": "values from −10 to 10"}[problem]
        st.markdown(f"A CSV with a header row `{columns_for(problem)}`, {what}, at most {MAX_POINTS:,} points "
                    f"and {MAX_BYTES // 1000} KB.")
        example = {"classify": "an XOR of two classes", "classes": f"{k} clusters, one per class",
                   "regress": "values on a tilted plane"}[problem]
        st.download_button("Download a template", lambda: template_csv(problem, k), "layer-lab-points.csv",
                           "text/csv", icon=":material/download:",
                           help=f"About forty points of {example}, in the accepted format.")
        slot = st.session_state.setdefault("trainer_upload_slot", 0)
        up = st.file_uploader("Upload points", type=["csv"], key=f"trainer_upload_{slot}",
                              help=f"Columns {columns_for(problem)}. Replaces the dataset until you go back.")
        if up is not None:
            try:
                parsed = tr.own_data(up.name, up.getvalue(), problem, k if problem == "classes" else None)
            except ValueError as err:
                keep = f"your points from {own.name}" if own else "the built-in dataset"
                st.error(f"Could not use {up.name}: {err}. Still using {keep}.", icon=":material/error:")
            else:
                if own is None or own.digest != parsed.digest:
                    st.session_state[tr.OWN] = parsed
                    st.rerun(scope="app")
        if own is not None:
            st.button("Back to the built-in datasets", on_click=_forget_own, icon=":material/undo:",
                      help="Forget the uploaded points.")


def _forget_own():
    st.session_state[tr.OWN] = None
    st.session_state["trainer_upload_slot"] = st.session_state.get("trainer_upload_slot", 0) + 1


def network_controls() -> dict:
    """The network's and the optimiser's controls; returns their values."""
    with st.container(border=True):
        st.markdown("**The network**")
        hidden = LINKS.widget("hidden")
        if why := network_why(LINKS.value("problem") if LINKS.value("problem") in NETWORKS else "classify",
                              hidden):
            st.caption(why)
        act = LINKS.widget("act")
        opt = LINKS.widget("opt")
        batch = LINKS.widget("batch")
        lr = _slider("lr")
        l1 = _slider("l1")
        l2 = _slider("l2")
    return dict(hidden=hidden, act=act, opt=opt, lr=float(lr), batch=int(batch), l1=float(l1), l2=float(l2))


def twin_controls() -> dict:
    """The twin's differences from the network (Trainer.twin's changes); "same" follows the network."""
    with st.expander("The twin's differences", icon=":material/compare_arrows:"):
        diff = {"hidden": LINKS.widget("thidden")}
        for key in ("act", "opt", "lr", "l1", "l2"):
            _twin_number_with_link(f"t{key}")
            diff[key] = LINKS.widget(f"t{key}")
    return diff


def _twin_number_with_link(key: str) -> None:
    """A usable number typed into a link (`tlr=0.05`) joins this run's list, as _choices_with_link does."""
    link = LINKS[key]
    value = LINKS.value(key)
    if value == SAME or value in link.choices or not isinstance(value, float):
        return
    numbers = sorted([*(c for c in link.choices if c != SAME), value])
    LINKS.links[key] = replace(link, choices=(SAME, *numbers), names={**link.names, value: plain(value)})


def _twin_title(spec: tr.Spec) -> str:
    """What the twin is, in a few words: "No hidden layer", or its differences from the network."""
    cfg = spec.twin_config()
    if cfg["hidden"] == () and all(v == SAME for k, v in spec.twin_diff.items() if k != "hidden"):
        return "No hidden layer"
    words = []
    if cfg["hidden"] != spec.hidden:
        words.append("no hidden layer" if not cfg["hidden"] else f"hidden {format_hidden(cfg['hidden'])}")
    names = {"act": lambda v: ACTS[v], "opt": lambda v: OPT_NAMES[v], "lr": lambda v: f"learning rate {plain(v)}",
             "l1": lambda v: f"L1 {plain(v)}", "l2": lambda v: f"L2 {plain(v)}"}
    for key, say in names.items():
        if cfg[key] != spec.hparams()[key]:
            words.append(say(cfg[key]))
    return "Twin: " + ", ".join(words) if words else "Twin"


def _set_playing(value: bool):
    # Set, not flip: Streamlit may run a click's callback twice when the click lands during a
    # fragment tick (once in that tick, once replayed in the full rerun); flipping would undo it.
    st.session_state[tr.PLAYING] = value
    if not value:
        fairshare.leave(fairshare.session_key())  # the others get this session's share at once


def buttons(held: bool = False) -> None:
    """Play, Step, +10, +100 and Reset in one wrapping row, right above the maps (on a phone too).

    Outside every fragment, with callbacks: a button inside the top fragment (the parent of the ticking
    live fragment) is disabled while a tick runs, and a playing tick is nearly always running.
    """
    playing = bool(st.session_state.get(tr.PLAYING, False))
    bar = st.container(horizontal=True, vertical_alignment="bottom")
    bar.button("Pause" if playing else "Play", key="trainer_play", type="primary", on_click=_set_playing,
               disabled=held and not playing,
               args=(not playing,), icon=":material/pause:" if playing else ":material/play_arrow:",
               width="stretch", help="Train continuously; the maps redraw several times a second.")
    problem = LINKS.value("problem") if LINKS.value("problem") in NETWORKS else "classify"
    pace, full = NETWORKS[problem][2], LINKS.value("speed") == "max"
    bar.button("Lesson pace" if full else "Full speed", key="trainer_pace", on_click=LINKS.set,
               args=("speed", pace if full else "max"),
               icon=":material/slow_motion_video:" if full else ":material/fast_forward:", width="stretch",
               help=f"Back to {pace} epochs a redraw, a pace a class can watch." if full else
                    "As many epochs as fit between two redraws: the engine's full speed.")
    for k in (1, 10, 100):
        bar.button("Step" if k == 1 else f"+{k}", key=f"trainer_step_{k}", width="stretch", on_click=_step,
                   args=(k,), help=f"Train {k} epoch{'s' if k > 1 else ''} and stop.",
                   icon=":material/skip_next:" if k == 1 else None, disabled=held)
    # Paused by the teacher: no training at all, and nothing trained is thrown away until they resume.
    bar.button("Reset", key="trainer_reset", icon=":material/restart_alt:", width="stretch", on_click=_reset,
               help="Back to epoch 0 and the starting weights of this seed.", disabled=held)


def _step(k: int) -> None:
    run = st.session_state.get(tr.RUN)
    if run is not None:
        tr.advance(run, k)


def _reset() -> None:
    run = st.session_state.get(tr.RUN)
    if run is not None:
        tr.reset(run)


def import_weights(spec: tr.Spec) -> None:
    """An uploader for a weights file this page exported: checked, then the page follows its settings
    (a full rerun) and the run continues from its weights; a one-line message and nothing loaded if not."""
    slot = st.session_state.setdefault(tr.IMPORT_SLOT, 0)
    up = st.file_uploader("Load weights (JSON)", type=["json"], key=f"trainer_weights_{slot}",
                          help="A file from \"Download the weights\": the network, its settings and its epoch. "
                               "The layers, bend, optimiser and penalties here follow the file.")
    if up is None:
        return
    try:
        d, cfg = tr.check_file(up.getvalue(), spec)
    except ValueError as err:
        st.error(f"Could not load {up.name}: {err}. Nothing was loaded; the network is as it was.",
                 icon=":material/error:")
        return
    st.session_state[tr.IMPORT] = {"name": up.name, "d": d, "cfg": cfg, "set": False}
    st.session_state[tr.IMPORT_SLOT] = slot + 1
    st.rerun(scope="app")


def _follow_file() -> None:
    """Before any control is drawn: the page's settings take a pending file's (see import_weights)."""
    pending = st.session_state.get(tr.IMPORT)
    if pending and not pending["set"]:
        for key in tr.FILE_KEYS:
            LINKS.set(key, tuple(pending["cfg"].hidden) if key == "hidden" else getattr(pending["cfg"], key))
        pending["set"] = True


def share(run: tr.Run, values: dict, problem: str = "classify", spec: tr.Spec | None = None) -> None:
    with st.container(border=True):
        st.markdown("**Share and export**")
        size = tr.n_params(run)
        link = share_link(run, values)
        if link:
            st.caption("This page's link with every setting and the trained weights: a class opens exactly "
                       "this network.")
            st.code(link, language=None, wrap_lines=True)
            if address.reachable(address.page_url())[1]:
                host = address.network_ip()
                st.caption(":material/lan: " + address.LOOPBACK_NOTE.format(host=host))
            st.caption(f"This network has {fmt.count(size)} parameters; links carry up to "
                       f"{fmt.count(MAX_LINK_PARAMS)}.")
        else:
            st.info(f"This network has {fmt.count(size)} parameters, more than the {fmt.count(MAX_LINK_PARAMS)} "
                    "a link can carry: download the weights instead.", icon=":material/info:")
        # Deferred (a callable): the file is made when it is asked for, not on every rerun.
        st.download_button("Download the weights (JSON)", lambda: json.dumps(run.trainer.to_dict(), indent=1),
                           "layer-lab-network.json", "application/json", icon=":material/download:",
                           help="The configuration, the epoch and every weight matrix with its shape.",
                           width="stretch")
        if spec is not None:
            import_weights(spec)
        d = run.data
        st.download_button("Download the points (CSV)",
                           lambda: points_csv(np.vstack([d.Xtr, d.Xte]), np.concatenate([d.ytr, d.yte]),
                                              problem),
                           "layer-lab-points.csv", "text/csv", icon=":material/download:", width="stretch",
                           help=f"Every point of this run, train and test, as {columns_for(problem)}.")


def top() -> None:
    """Play and the live maps first, at the page's full width; the controls right under them in three
    columns (one under the other on a phone)."""
    own: tr.OwnData | None = st.session_state.get(tr.OWN)
    full = bool(st.session_state.get(FULL))
    _follow_file()
    if not full and _below(own) != st.session_state.get(BELOW):
        st.rerun(scope="app")  # a control the sections below depend on moved: skip straight to the page
    bar, box = st.container(), st.container()
    knobs = st.columns([3, 2], vertical_alignment="top")
    data_col, net_col, share_col = st.columns(3, gap="medium")
    ch: cr.Challenge | None = st.session_state.get(CHALLENGE)
    with data_col:
        values = data_controls(None if ch else own, ch.problem if ch else None)
    with net_col:
        values.update(network_controls())
    with knobs[0]:
        speed_text = _slider("speed")
    with knobs[1]:
        twin_on = LINKS.widget("twin")
        twin_diff = twin_controls() if twin_on else {"hidden": ()}
        discrete = LINKS.widget("discrete")
    own = values.pop("own")
    only = values.pop("only")
    curve = own.X.shape[1] == 1 if own is not None else dims(values["problem"], values["dataset"]) == 1
    limit = limit_for(own.X if own is not None and not only else np.zeros((0, 2)))
    hand = _hand_points(values["problem"], values["k"], limit, curve)
    spec = tr.Spec(**{k: values[k] for k in ("dataset", "n", "noise", "seed", "cells", "train", "feat")},
                   hidden=values["hidden"], act=values["act"], opt=values["opt"], lr=values["lr"],
                   batch=values["batch"], l2=values["l2"], l1=values["l1"],
                   twin=False, own=own, problem=values["problem"], k=values["k"], twin_diff=twin_diff,
                   hand=hand, only=only)
    spec.twin = bool(twin_on) and spec.twin_differs()
    picking.moved()  # this run draws the points as they are now
    if only and not hand:  # an empty plane: nothing to train yet
        with box:
            empty_plane(spec, limit, curve)
        share_col.caption(":material/link: The share link and the downloads come with your first point.")
        st.session_state["trainer_spec"] = None
        st.session_state.pop(tr.RUN, None)   # Step and Play have nothing to train
        st.session_state[tr.PLAYING] = False
        _settle(("empty", spec.data_sig()), own)
        return
    run = tr.get_run(spec)
    weights_error = tr.apply_link_weights(run, LINKS.value("w"))
    pending = st.session_state.pop(tr.IMPORT, None)
    file_error = None
    if pending:
        try:
            tr.load_file(run, spec, pending["name"], pending["d"], pending["cfg"])
        except ValueError as err:
            file_error = f"Could not load {pending['name']}: {err}. Nothing was loaded."
    playing = bool(st.session_state.get(tr.PLAYING, False))
    with bar:
        if weights_error:
            LINKS.note("w", f"Ignored the weights in the link (`w=`): {weights_error}; nothing was loaded.")
        LINKS.show_note("w")
        if file_error:
            st.error(file_error, icon=":material/error:")
        if run.loaded:
            st.caption(f":material/link: {run.loaded}")
    with box:
        # While playing the browser's timer is short and engine.fairshare paces the ticks: each waits for
        # its turn, so the process's playing sessions share a budget and slider moves go first.
        st.fragment(live, run_every=fairshare.TIMER if playing else None)(spec, parse_speed(speed_text),
                                                                         discrete)
    if twin_on and not spec.twin:
        if not spec.hidden and twin_diff == {"hidden": ()}:
            knobs[1].caption(":material/info: Your network has no hidden layer, so it is its own twin: give it "
                             "hidden units (for example 8) to compare.")
        else:
            knobs[1].caption(":material/info: The twin is set exactly like your network: choose a difference.")
    elif run.twin is not None:
        knobs[1].caption(f":material/compare_arrows: The twin starts from {run.twin.start_note}.")
    with share_col:
        if ch is not None:   # its own fragment: Submit reruns the box, not the maps
            st.fragment(submit_part)(ch)
        twin_values = {f"t{k}" if k != "hidden" else "thidden": v for k, v in twin_diff.items()}
        share(run, {**values, **twin_values, "hidden": spec.hidden, "speed": speed_text, "twin": bool(twin_on),
                    "discrete": bool(discrete), "bend": LINKS.value("bend"),
                    "wlayer": LINKS.value("wlayer"), "wunits": _units_now(),
                    "view": LINKS.value("view"), "train": round(100 * spec.train),
                    "cells": values["cells"] if values["cells"] is not None else LINKS["cells"].default,
                    "pts": encode_hand(spec.hand), "only": spec.only},
              spec.problem, spec)
    st.session_state["trainer_spec"] = spec
    _settle((run.sig, spec.act, playing, None if playing else tr.weights_key(run)), own)


def _units_now() -> tuple[int, int]:
    """The warp view's units as its box holds them now: the box is parsed in the view, drawn after the
    share link."""
    try:
        return parse_units(st.session_state["wunits"])
    except (KeyError, ValueError):
        return LINKS.value("wunits")


def empty_plane(spec: tr.Spec, limit: float, curve: bool) -> None:
    """"Only my points" with none placed yet: the empty plane (or a curve's empty axes) to click on."""
    dim = 1 if curve else 2
    empty = tr.Data(np.zeros((0, dim)), np.zeros(0), np.zeros((0, dim)), np.zeros(0), np.zeros((0, 0)),
                    np.zeros((0, 0)), limit)
    adding = picking.controls(LINKS, spec.problem, spec.k, limit, curve, 0)
    LINKS.show_note("pts", "")
    st.markdown(":material/ads_click: **An empty plane.** Choose what a click adds above, then click where the "
                "points should be; the network starts learning from your first point.")
    if curve:
        fig = picking.curve(picking.empty_curve(limit, H_MAP), empty, adding or "a point at the value you click")
    else:
        xs = np.linspace(-limit, limit, RES)
        P = np.full((RES, RES), 0.5)
        look = _look(spec, empty) if spec.problem != "regress" else dict(scale=tc.VALUE_SHADING, span=1.0)
        base = tc.live_boundary(st.session_state.setdefault(tr.FIGURES, {}), "empty", ("empty", limit), xs, xs,
                                P, empty, title="Your points", height=H_MAP, **look)
        fig = picking.plane({}, "empty.hand", base, empty, adding or "a point")
    charts.show(fig, live=True, key="trainer_pick_map" if adding else "trainer_empty_map",
                on_click=picking.on_click("trainer_pick_map", LINKS) if adding else None)


def _settle(view: tuple, own: tr.OwnData | None) -> None:
    """After the top: remember what the sections below were drawn for, or rerun the page when they show
    something that changed."""
    if st.session_state.get(FULL):
        st.session_state[VIEW] = view
        st.session_state[BELOW] = _below(own)
    elif st.session_state.get(VIEW) != view:
        st.rerun(scope="app")  # the sections below show what changed: the whole page reruns


def _hand_points(problem: str, k: int, limit: float, curve: bool) -> tuple:
    """The points placed by hand, from the link (`pts`), checked for this page; a link whose points do
    not fit (another problem type, a class out of range, outside the plane) is dropped with a note."""
    raw = LINKS.value("pts") or ""
    try:
        P = decode_hand(raw, problem, k if problem == "classes" else None, limit, curve)
    except ValueError as err:
        LINKS.note("pts", f"Ignored the points placed by hand (`pts={raw[:40]}`): {err}; using none.", "")
        LINKS.set("pts", "")
        P = np.zeros((0, 2 if curve else 3))
    return tuple(tuple(float(v) for v in row) for row in P)


def _below(own: tr.OwnData | None) -> tuple:
    """The controls that the sections below the top depend on, as they stand before the top is drawn (the
    layers too: a new network is a new run, so the top would ask for the whole page after drawing itself)."""
    problem, _, first = _problem_and_sets()
    dataset = LINKS.value("dataset", default=first)
    keys = ("k", "n", "noise", "train", "seed", "feat", "hidden", "act", "pts", "only")
    return (own.digest if own else None, problem, dataset,
            LINKS.value("cells") if dataset == "checkerboard" else None, *(LINKS.value(k) for k in keys))


def _pct(v: float) -> str:
    return fmt.pct(v) if np.isfinite(v) else "none"   # no test points (only points placed by hand)


def _title(spec: tr.Spec) -> str:
    if not spec.hidden:
        return "No hidden layer"
    return f"Hidden {format_hidden(spec.hidden)} · {ACTS[spec.act]}"


def _shade(P: np.ndarray, discrete: bool) -> np.ndarray:
    """The shading: P itself, or the class picked (0 or 1) when discretised."""
    return (P > 0.5).astype(np.float32) if discrete else P


def _is_curve(run: tr.Run) -> bool:
    """A 1-D fit (one input column): drawn as points and a curve, not over the plane."""
    return run.data.Xtr.shape[1] == 1


def _span(d: tr.Data) -> float:
    return value_span(np.concatenate([d.ytr, d.yte]))


def _raw_map(spec: tr.Spec, t, act: str, d: tr.Data) -> np.ndarray:
    """What network `t` predicts over the square with bend `act` (lib.maps: P(class 1), the classes'
    probabilities or the values), kept for the weights it was made from: the live map, its twin and the
    bend's pictures below read the same few maps, so each is computed once."""
    store = st.session_state.setdefault(tr.FIGURES, {}).setdefault("maps", {})
    want = (spec.problem, spec.feat, d.limit, act, tuple(t.sizes), t.flat.tobytes())
    if want not in store:
        if len(store) >= 6:
            store.pop(next(iter(store)))
        if spec.problem == "classes":
            store[want] = class_map(t.params, spec.feat, d.limit, act, RES)
        elif spec.problem == "regress":
            store[want] = value_map(t.params, spec.feat, d.limit, act, RES)
        else:
            store[want] = probability_map(t.params, spec.feat, d.limit, act, RES)
    return store[want]


def _edge(spec: tr.Spec, t, act: str, d: tr.Data) -> np.ndarray | None:
    """The live map's boundary cells (a dark line of cells where the class changes), None for values."""
    if spec.problem == "regress":
        return None
    return boundary_cells(labels_of(_raw_map(spec, t, act, d)))


def _plane(spec: tr.Spec, t, act: str, d: tr.Data, discrete: bool) -> np.ndarray:
    """The shading's numbers in [0, 1] over the square for this problem type (res, res), for network `t`."""
    raw = _raw_map(spec, t, act, d)
    if spec.problem == "classes":
        return class_shade(raw, discrete)
    if spec.problem == "regress":
        return value_shade(raw, _span(d))
    return _shade(raw, discrete)


def _look(spec: tr.Spec, d: tr.Data) -> dict:
    """How the plane is coloured for this problem type: boundary_figure's scale, k, span and hover."""
    if spec.problem == "classes":
        return dict(scale=tc.shading_for("classes", spec.k), k=spec.k, hover="class + sureness")
    if spec.problem == "regress":
        return dict(scale=tc.VALUE_SHADING, span=_span(d), hover="shade")
    return {}


def _legend(spec: tr.Spec, d: tr.Data, discrete: bool) -> str:
    if spec.problem == "classify":
        return tc.legend_html()
    return tc.legend_html(spec.problem, spec.k, _span(d), discrete)


def _curve_chart(spec: tr.Spec, run: tr.Run, act: str | None = None, title: str | None = None,
                 twin: bool = True):
    """The 1-D fit: the points, the network's curve (and its twin's), each unit's ramp under it."""
    d, t = run.data, run.trainer
    x = np.linspace(-d.limit, d.limit, CURVE_RES)
    y, parts, bias = curve_fit(t.params, spec.feat, x, act or spec.act)
    fits = [(_title(spec) if act is None else f"bend {ACTS[act]}", y, tc.MAIN_COLOR)]
    if twin and run.twin is not None:
        fits.insert(0, (_twin_title(spec), curve_fit(run.twin.params, spec.feat, x, run.twin.cfg.act)[0],
                        tc.TWIN_COLOR))
    return tc.curve_figure(x, fits, d, parts=parts, bias=bias, title=title, height=H_MAP + 60)


def _metric_row(c, m: dict, head: str) -> None:
    c.metric("Epoch", fmt.count(m["epoch"]), width=125)
    if head == "linear":
        c.metric("Loss", fmt.fixed(m["train_loss"], 3), width=125,
                 help="Mean squared error on the training points (plus the L1 and L2 penalties).")
        c.metric("Train R²", _r2(m["train_r2"]), width=125,
                 help="1 − (squared error) / (spread of the values): 1 is a perfect fit, 0 no better than "
                      "their mean.")
        c.metric("Test R²", _r2(m["test_r2"]), width=125,
                 help="On the points the network never trains on (none: every point is a training point).")
        c.metric("Test mean absolute error", _r2(m["test_mae"]), width=190,
                 help="The average distance between the network's value and the point's, on the test points.")
        return
    c.metric("Loss", fmt.fixed(m["train_loss"], 3), width=125,
             help="Mean cross-entropy on the training points (plus the L1 and L2 penalties).")
    c.metric("Train accuracy", _pct(m["train_acc"]), width=125)
    c.metric("Test accuracy", _pct(m["test_acc"]), width=125,
             help="On the points the network never trains on (none: every point is a training point).")


def _r2(v: float) -> str:
    return fmt.fixed(v, 3) if np.isfinite(v) else "none"


def live(spec: tr.Spec, speed: int | None, discrete: bool = False) -> None:
    """The live part: the boundary maps first, then the numbers and the curves (a fragment that
    trains a chunk on every tick while playing)."""
    if picking.moved():  # a click placed or removed a point: the data changed, the whole page follows
        st.rerun(scope="app")
    run: tr.Run = st.session_state[tr.RUN]
    t = run.trainer
    figs = st.session_state.setdefault(tr.FIGURES, {})
    playing = bool(st.session_state.get(tr.PLAYING))
    share_key = fairshare.session_key()
    plan = None
    ch = st.session_state.get(CHALLENGE)
    if playing and cr.paused(ch):   # the teacher paused the class: Play stops, the page says why
        st.session_state[tr.PLAYING] = False
        fairshare.leave(share_key)
        st.rerun(scope="app")
    cr.here(ch, playing)
    if playing:
        plan = fairshare.start(share_key, speed)   # waits for this session's turn
        tr.advance(run, speed, budget=plan.budget)
        if t.diverged:  # the Play button must turn back into Play: rerun the whole page
            st.session_state[tr.PLAYING] = False
            fairshare.leave(share_key)
            st.rerun(scope="app")
    m = t.metrics()
    if t.diverged:
        st.error(f"Training stopped: {t.diverged}. Lower the learning rate, then press Reset.",
                 icon=":material/warning:")
        st.button("Reset", key="trainer_reset_diverged", on_click=tr.reset, args=(run,),
                  icon=":material/restart_alt:", help="Back to epoch 0 and the starting weights.")
    d = run.data
    xs, ys = np.linspace(-d.limit, d.limit, RES), np.linspace(-d.limit, d.limit, RES)
    curve = _is_curve(run)
    look = _look(spec, d)
    # Twin: the numbers first, then the two maps side by side (stacked on a phone) and the curves under
    # them, so the room sees the epoch, loss and accuracy beside what they measure on the first screen.
    # Alone: the map, and the numbers and curves beside it. A curve fit: one chart with both curves, the
    # numbers beside it.
    side_by_side = run.twin is not None and not curve
    numbers = st.container() if side_by_side else None
    maps = st.columns(2, gap="medium")
    slot = maps[0].container(height=H_MAP + 72 if curve else H_MAP + 12, border=False)
    with maps[0]:  # under the map: what a click on it adds (drawn first: the map needs to know)
        LINKS.show_note("pts", LINKS.value("pts") or "")
        adding = picking.controls(LINKS, spec.problem, spec.k, d.limit, curve, d.hand)
    click = picking.on_click("trainer_pick_map", LINKS) if adding else None
    with slot:
        if curve:
            charts.show(picking.curve(_curve_chart(spec, run), d, adding),
                        key="trainer_pick_map" if adding else "trainer_curvefit", on_click=click)
        else:
            P = _plane(spec, t, spec.act, d, discrete)
            base = tc.live_boundary(figs, "boundary", run.sig, xs, ys, P, d, title=_title(spec), height=H_MAP,
                                    edge=_edge(spec, t, spec.act, d), **look)
            charts.show(picking.plane(figs, "boundary.hand", base, d, adding), live=True,
                        key="trainer_pick_map" if adding else "trainer_boundary", on_click=click)
    if side_by_side:
        with maps[1], st.container(height=H_MAP + 12, border=False):
            P0 = _plane(spec, run.twin, run.twin.cfg.act, d, discrete)
            base = tc.live_boundary(figs, "twin", run.sig, xs, ys, P0, d, title=_twin_title(spec), height=H_MAP,
                                    edge=_edge(spec, run.twin, run.twin.cfg.act, d), **look)
            charts.show(picking.plane(figs, "twin.hand", base, d, None), live=True, key="trainer_boundary_twin")
        st.html(_legend(spec, d, discrete))
    with numbers if side_by_side else maps[1]:
        c = st.container(horizontal=True)  # four across, or two by two beside a lone map and on a phone
        _metric_row(c, m, spec.head)
        if run.twin is not None:
            m0 = run.twin.metrics()
            who = _twin_title(spec)
            if spec.head == "linear":
                st.caption(f"{who}: Train R² {_r2(m0['train_r2'])} · test {_r2(m0['test_r2'])}")
            else:
                st.caption(f"{who}: Train accuracy {_pct(m0['train_acc'])} · test {_pct(m0['test_acc'])}")
    with maps[1] if not side_by_side else st.container():
        hold = tr.CURVES_HOLD if playing else 0.0  # a step or reset shows at once
        name = _twin_title(spec)
        name = name[0].lower() + name[1:] if name == "No hidden layer" else name.lower()
        shape = (name, run.twin is not None, spec.head, H_CURVES)
        held = tc.held_curves(figs, "curves", hold, shape)
        # A frame only when there are curves to draw (at epoch 0 pandas would cost a millisecond or two).
        curves = () if held is not None else (tr.finite_history(t) if len(t.history["epoch"]) >= 2 else ())
        if held is None and len(curves) < 2:
            what = "R²" if spec.head == "linear" else "accuracy"
            st.markdown(f":material/show_chart: The loss and {what} curves start with the first epoch: "
                        "press **Play** or **Step**.")
        else:
            twin = tr.finite_history(run.twin) if run.twin is not None and held is None else None
            with st.container(height=H_CURVES + 12, border=False):
                fig = held if held is not None else tc.live_curves(
                    figs, "curves", curves, twin, height=H_CURVES, hold=hold, twin_name=name, shape=shape)
                charts.show(fig, live=True, key="trainer_curves")
    if not side_by_side and not curve:
        st.html(_legend(spec, d, discrete))
    rate = st.session_state.setdefault("trainer_clock", tr.Clock()).tick(m["epoch"])
    if plan is not None:
        fairshare.finish(share_key)  # this tick's measured cost sets this session's next interval
        st.caption(":material/speed: " + plan.describe(rate[0] if rate else None)
                   + (f" Measured here: {fmt.fixed(rate[1], 1)} redraws a second." if rate else ""))
    elif curve:
        st.caption("Squares: the points (filled train, hollow test); the thick line is the network's curve. "
                   "Under it, each hidden unit's ramp times its out weight: the curve is their sum plus a bias, "
                   "like tax bands. Curves: solid train, dotted test; indigo your network, teal the twin.")
    elif spec.problem == "classes":
        st.caption(f"Shading: the class the network picks among {spec.k}, in its colour, paler where it is "
                   "unsure. Filled squares: training points; hollow squares: test points, never trained on. "
                   "Curves: solid train, dotted test; indigo your network, teal the twin.")
    elif spec.problem == "regress":
        st.caption("Shading: the network's value, vermillion below 0 through white to blue above it. Squares: "
                   "the points coloured by their value (filled train, hollow test). Curves: solid train, dotted "
                   "test; indigo your network, teal the twin.")
    else:
        st.caption("Shading: the network's P(class 1), from orange (class 0) through white to green (class 1). "
                   "Filled squares: training points; hollow squares: test points, never trained on. "
                   "Curves: solid train, dotted test; indigo your network, teal the twin.")


# --- the sections below ---------------------------------------------------------------------------
def bend_switch(spec: tr.Spec) -> None:
    """The trained weights redrawn with another bend: the bend on and off."""
    st.markdown(
        "Take the network as it is trained now and swap its bend **without touching a weight**. "
        "With *identity* (no bend) every layer is linear, the layers multiply into one, "
        "and the boundary can only be one straight line. Switch back: the trained boundary returns."
    )
    if st.session_state.get(tr.PLAYING):
        st.caption(":material/pause_circle: Training is playing: these two pictures show the weights as they "
                   "were when Play was pressed; they catch up at Pause or Step.")
    bend = LINKS.widget("bend")
    run: tr.Run = st.session_state[tr.RUN]
    t, d = run.trainer, run.data
    figs = st.session_state.setdefault(tr.FIGURES, {})
    xs, ys = np.linspace(-d.limit, d.limit, RES), np.linspace(-d.limit, d.limit, RES)
    if spec.problem != "classify" or _is_curve(run):
        _bend_switch_other(spec, run, bend, figs, xs, ys)
        return
    plain_inputs = list(spec.feat) == ["x1", "x2"]
    W, b, gap = tr.memo(figs, "collapse", tr.net_key(run), lambda: collapse(t.params, spec.feat, d.limit))
    line = None
    if plain_inputs and bend == "identity":
        line = tc.line_across(line_in_box(W[:, 0], float(b[0]), d.limit))
    key = tr.weights_key(run)
    left, right = st.columns(2)
    with left:
        charts.show(_cached(figs, "bend_before", (key, spec.act), lambda: tc.boundary_figure(
            xs, ys, _raw_map(spec, t, spec.act, d), d,
            title=f"As trained: {ACTS[spec.act]}", live=False, height=420), shared=run.hand),
            key="trainer_bend_before")
    with right:
        charts.show(_cached(figs, "bend_after", (key, bend), lambda: tc.boundary_figure(
            xs, ys, _raw_map(spec, t, bend, d), d,
            title=f"Same weights: {ACTS[bend]}", live=False, height=420, line=line), shared=run.hand),
            key="trainer_bend_after")
    if bend == "identity":
        names = [FEATURES[f].label for f in spec.feat]
        k = len(spec.hidden) + 1
        # Short lines rather than one long one: a phone shows each whole.
        st.latex(r"P(\text{class }1) = \sigma\!\left(x W + b\right)")
        product = "W_1" if k == 1 else ("W_1 W_2" if k == 2 else r"W_1 W_2 \cdots W_{" + str(k) + "}")
        st.latex(rf"W = {product} = " + tex.bmatrix(W))
        bias = "b_1" if k == 1 else ("b_1 W_2 + b_2" if k == 2 else r"\ldots")
        st.latex(rf"b = {bias} = " + fmt.tex(b[0], 3, fixed_digits=True))
        st.caption("x = (" + ", ".join(names) + "). The network without its bends and this single layer "
                   f"differ by at most {fmt.gap(gap)} over the square.")
        if plain_inputs:
            st.markdown(f"The boundary is the line **{_line_text(W[0, 0], W[1, 0], b[0])} = 0** (dashed), "
                        "where P = ½.")
    elif bend == spec.act:
        st.caption("The bend it was trained with: the two pictures are the same.")


def _bend_switch_other(spec: tr.Spec, run: tr.Run, bend: str, figs: dict, xs, ys) -> None:
    """The bend on and off for k classes and for values: the same two pictures; the printed single
    layer is written for two classes only."""
    key = tr.weights_key(run)
    d = run.data
    left, right = st.columns(2)
    for col, act, name, title in ((left, spec.act, "bend_before", f"As trained: {ACTS[spec.act]}"),
                                  (right, bend, "bend_after", f"Same weights: {ACTS[bend]}")):
        with col:
            if _is_curve(run):
                fig = _cached(figs, name, (key, act, "curve"), lambda act=act, title=title: _curve_chart(
                    spec, run, act=act, title=title, twin=False), shared=run.hand)
            else:
                fig = _cached(figs, name, (key, act, spec.problem), lambda act=act, title=title: tc.boundary_figure(
                    xs, ys, _plane(spec, run.trainer, act, d, False), d, title=title, live=False,
                    height=420, **_look(spec, d)), shared=run.hand)
            charts.show(fig, key=f"trainer_{name}")
    if bend == "identity":
        what = "a straight line" if _is_curve(run) else "a tilted plane"
        st.caption(f"Without bends the layers multiply into one linear layer: the network draws {what}"
                   + ("" if spec.problem == "regress" else ", and its class borders are straight")
                   + ". The printed single layer is written for two classes only.")
    elif bend == spec.act:
        st.caption("The bend it was trained with: the two pictures are the same.")


def _line_text(w1: float, w2: float, b: float) -> str:
    """w1·x₁ + w2·x₂ + b with each sign written once: 1.51·x₁ − 0.628·x₂ − 0.507."""
    def term(v, name, first=False):
        sign = fmt.MINUS if fmt.num(v).startswith(fmt.MINUS) else ("" if first else "+")
        body = fmt.num(abs(v))
        return (f"{sign}{body}{name}" if first else f" {sign} {body}{name}")
    return term(w1, "·x₁", first=True) + term(w2, "·x₂") + term(b, "")


def _cached(figs: dict, key: str, want, build, shared: tuple | None = None):
    """The figure stored under `key` if it was built for `want`, else a new one (kept in the session).

    A figure sent a second time unchanged is frozen (ui.frozen: st.plotly_chart then skips plotly's deep
    copy of it); nothing changes these figures once built. The first send is not: most are sent once.
    shared : when `want` holds the weights themselves (ui.trainer.weights_key), what else the picture
        depends on (the points placed by hand): the figure then comes from a cache the sessions share,
        so a class on one link builds each epoch-0 picture once.
    """
    entry = figs.get(key)
    if entry is None or entry[0] != want:
        fig = _shared_figure((key, want, shared), build) if shared is not None else build()
        figs[key] = entry = (want, fig)
        return fig
    return sendable(entry[1])


@st.cache_resource(max_entries=128, show_spinner=False)
def _shared_figure(want, _build):
    """A picture of trained weights that is pure in `want`, frozen and never changed afterwards: sessions
    share it (st.cache_resource hands out the object itself)."""
    return sendable(_build())


def inside(spec: tr.Spec) -> None:
    """The network diagram, every unit's map and the linear regions, from the weights now."""
    if not spec.hidden:
        st.info("This network has no hidden layer: it is one linear layer, and its boundary is one straight "
                "line. Give it hidden units (for example 8) to see them here.", icon=":material/info:")
        return
    run: tr.Run = st.session_state[tr.RUN]
    t, d = run.trainer, run.data
    figs = st.session_state.setdefault(tr.FIGURES, {})
    playing = bool(st.session_state.get(tr.PLAYING))
    in_labels = [FEATURES[f].label for f in spec.feat]
    curve = _is_curve(run)
    st.markdown(
        "Each first-layer unit computes one sum **w₁x₁ + w₂x₂ + b** (a tilted plane) and bends it. "
        "With ReLU that is a ramp: zero on one side of its **fold line** (dashed, where the sum is 0), "
        "rising on the other. The output adds the last layer's units, each times its weight: "
        "like tax bands, a sum of ramps."
    )
    net = tr.net_key(run)
    # While playing the diagram keeps the weights of the last full redraw (the maps below stay live).
    drawn_for = (run.sig, spec.act) if playing else (net, spec.act)
    charts.show(_cached(figs, "network", drawn_for, lambda: tc.network_figure(
        t.params, in_labels, act_label=ACTS[spec.act],
        height=min(520, 140 + 26 * max(len(in_labels), *spec.hidden))),
        shared=None if playing else ()), key="trainer_network")
    st.caption("Line width grows with the size of the weight: blue positive, vermillion negative. Hover a line "
               "for its value.")
    if curve:
        st.caption(":material/info: A curve has one input, so there are no maps over the plane: each last-layer "
                   "unit's ramp is drawn under the curve at the top, and the curve is their sum.")
        return
    xs, ys, F = plane_inputs(d.limit, spec.feat, UNIT_RES)
    plain_inputs = list(spec.feat) == ["x1", "x2"]
    folds = tr.memo(figs, "folds", net, lambda: fold_lines(t.params, d.limit)) if plain_inputs else None
    layers_shown = [0] if len(spec.hidden) == 1 else [0, len(spec.hidden) - 1]
    for li in layers_shown:
        units = min(spec.hidden[li], 16)
        st.subheader(("First hidden layer" if li == 0 else "Last hidden layer")
                     + (" (the first 16 units)" if spec.hidden[li] > 16 else ""))
        # The same weights draw the same maps: a move of the points' sliders keeps them as they were.
        fig = tr.memo(figs, f"units_{li}", (net, spec.act, li, units, plain_inputs, playing),
                      lambda li=li, units=units: _unit_maps(spec, t, d, li, units, xs, ys, folds, playing))
        charts.show(fig, key=f"trainer_units_{li}")
    below = " (ReLU never is: its maps are blue or near white)" if spec.act == "relu" else ""
    st.caption(f"Each map: the unit's output after the bend, blue above 0 and vermillion below{below}. "
               "The output's sum is every last-layer map times its out weight (\"out\"), plus a bias.")

    st.subheader("Linear regions")
    ids, count = tr.memo(figs, "region_ids", (net, spec.act), lambda: region_ids(t.params, F, spec.act))
    r1, r2 = st.columns([3, 2])
    with r1:
        charts.show(tc.live_regions(figs, "regions", xs, ys, ids.reshape(len(ys), len(xs)), limit=d.limit,
                                    folds=[s for s in folds if s is not None] if folds else [],
                                    data=d if spec.problem != "regress" else None,
                                    sig=(run.sig, run.hand)),
                    key="trainer_regions")
    with r2:
        st.metric("Linear regions over the square", fmt.count(count),
                  help=f"Distinct on/off patterns of the hidden units seen on a {UNIT_RES} × {UNIT_RES} grid.")
        relu_like = spec.act in ("relu", "identity")
        st.markdown(
            "Inside one coloured region the same units are on, so the network is one linear function "
            "there: a ReLU network is **piecewise linear**, and the boundary is made of straight pieces. "
            + ("" if relu_like else f"With {ACTS[spec.act]} the bend is smooth, so the pieces "
               "are only nearly linear; the colours still show which units are above 0.")
        )


def _unit_maps(spec: tr.Spec, t, d: tr.Data, li: int, units: int, xs, ys, folds, live: bool):
    """The first `units` maps of hidden layer `li`, titled with their out weights when they feed the output."""
    H = unit_maps(t.params, spec.feat, d.limit, spec.act, li, units)          # (units, 60, 60)
    last = li == len(spec.hidden) - 1
    one_out = t.params[-1][0].shape[1] == 1
    W_out = t.params[li + 1][0] if last and one_out else None                 # (units, 1) into the output
    titles = []
    for j in range(units):
        name = f"h{j + 1}" if len(spec.hidden) == 1 else f"h{li + 1}.{j + 1}"
        titles.append(f"{name} · out {fmt.signed(W_out[j, 0])}" if W_out is not None else name)
    return tc.unit_maps_figure(xs, ys, H, titles=titles, limit=d.limit,
                               folds=folds[:units] if li == 0 and folds else None,
                               cols=4 if units <= 8 else 6, live=live)


WARP_LINES, WARP_SAMPLES = 13, 60   # the grid over the square: lines each way, points along each


def _warp_layer(widths: tuple) -> int:
    """The hidden layer to look through: the link's or the student's, if the network has it; else the
    first, with one line saying what was ignored."""
    choices = tuple(range(1, len(widths) + 1))
    LINKS.links["wlayer"] = replace(LINKS["wlayer"], choices=choices)
    raw = st.session_state.get("wlayer", st.query_params.get("wlayer"))
    if raw is not None and raw not in choices and str(raw) not in map(str, choices):
        have = "one hidden layer" if len(widths) == 1 else f"hidden layers 1 to {len(widths)}"
        LINKS.note("wlayer", f"Ignored `wlayer={state.shown(raw)}`: this network has {have}; using 1.", 1)
        st.query_params.pop("wlayer", None)   # a link's value would win over the state on a first draw
        st.session_state["wlayer"] = 1
    return int(LINKS.widget("wlayer"))


def _warp_units(layer: int, width: int) -> tuple[int, int]:
    """The two units drawn across and up: the box's (the link's at first), if layer `layer` has them; else
    1 and 2, with one line saying what was ignored (the box keeps the text, as for a text that does not
    parse)."""
    typed = st.session_state.get("wunits", st.query_params.get("wunits"))
    try:
        asked = parse_units(typed) if typed is not None else None
    except ValueError:
        asked = None   # the box says why itself
    if asked is not None and max(asked) > width:
        LINKS.note("wunits", f"Ignored `wunits={state.shown(typed)}`: layer {layer} has {width} units; "
                             "using 1,2.", typed)
    units = LINKS.widget("wunits")
    if max(units) > width:
        units = LINKS.accept("wunits", (1, 2))[0]   # the last good value, for a text that does not parse
    return units


def _sum_text(weights, names, bias: float) -> str:
    """w1·x₁ − w2·x₂ + b, each sign written once (as _line_text), for any number of inputs."""
    text = ""
    for v, name in [*zip(weights, names, strict=True), (bias, "")]:
        minus = fmt.num(v).startswith(fmt.MINUS)
        sign = (fmt.MINUS if minus else "") if not text else (f" {fmt.MINUS} " if minus else " + ")
        text += f"{sign}{fmt.num(abs(v))}{'·' + name if name else ''}"
    return text


def _warp_words(spec: tr.Spec, params, layer: int, units: tuple[int, int], H, curve: bool) -> str:
    """What the picture shows for this bend, in one or two sentences with the live network's numbers."""
    what, plane = ("line", "line") if curve else ("grid", "plane")
    u, v = units
    layers = "layer 1 is" if layer == 1 else f"layers 1 to {layer} are"
    if spec.act == "identity":
        if list(spec.feat) != (["x1"] if curve else ["x1", "x2"]):
            return (f"The bend is off (identity), so {layers} one affine map of the inputs; but the hand-made "
                    f"inputs are already bent functions of x₁{'' if curve else ' and x₂'}, so the {what} arrives "
                    "curved and the layers only shear what they made.")
        W, b = collapse_params(params[:layer])
        names = [FEATURES[f].label for f in spec.feat]
        stays = ("stays a straight line" if curve else
                 "stays a sheared grid: straight lines stay straight and parallel ones parallel")
        return (f"The bend is off (identity), so {layers} one affine map: unit {u} = "
                f"**{_sum_text(W[:, u - 1], names, b[u - 1])}** and unit {v} = "
                f"**{_sum_text(W[:, v - 1], names, b[v - 1])}**. A linear layer only shears, stretches and "
                f"shifts, so the {what} {stays}.")
    if spec.act == "relu":
        x0, y0, both = on_axes(H)
        return (f"With ReLU the {what} folds onto the axes: a unit whose sum is below 0 outputs 0, which "
                f"flattens that part of the {plane} onto an axis. Here unit {u} is 0 on **{fmt.pct(x0)}** of "
                f"the {what} and unit {v} on **{fmt.pct(y0)}**; **{fmt.pct(both)}** lands on the corner (0, 0).")
    return (f"With {ACTS[spec.act]} the {what} bends but does not fold flat onto an axis: unlike ReLU, it "
            "sends no whole region to exactly 0.")


def warp_view(spec: tr.Spec) -> None:
    """The plane as a hidden layer sees it (ConvNetJS's view): a grid over the square and the points, drawn
    at the outputs of two units of the chosen layer, from the weights now."""
    if not spec.hidden:
        st.info("This network has no hidden layer: there is no layer to look through, only the output. Give "
                "it hidden units (for example 8) to see the plane as they see it.", icon=":material/info:")
        return
    run: tr.Run = st.session_state[tr.RUN]
    t, d = run.trainer, run.data
    curve = _is_curve(run)
    widths = tuple(t.sizes[1:-1])
    words, chart = st.columns([2, 3], gap="medium")
    with words:
        st.markdown("Every hidden layer moves the plane. Here a grid over the square and the points are "
                    "pushed through the layers up to the one chosen, and drawn where two of its units put "
                    "them: the first unit's output across, the second's up.")
        layer = _warp_layer(widths)
        if widths[layer - 1] < 2:
            st.info(f"Layer {layer} has one unit: the whole plane lands on one line. Choose a layer with two "
                    "or more units.", icon=":material/info:")
            return
        units = _warp_units(layer, widths[layer - 1])
    lines = (np.linspace(-d.limit, d.limit, 4 * WARP_SAMPLES)[None, :, None] if curve
             else grid_lines(d.limit, WARP_LINES, WARP_SAMPLES))
    H = warp(t.params, spec.act, spec.feat, lines, layer, units)
    Ptr, Pte = (warp(t.params, spec.act, spec.feat, X, layer, units) for X in (d.Xtr, d.Xte))
    with words:
        if curve:
            st.markdown(f"A curve has one input, x₁: the input is a line, not a plane. This is where that line "
                        f"lands as x₁ runs from {fmt.num(-d.limit)} to {fmt.num(d.limit)}, with the points on it.")
        st.markdown(_warp_words(spec, t.params, layer, units, H, curve))
    look = dict(span=_span(d)) if spec.problem == "regress" else dict(k=spec.k if spec.problem == "classes" else 2)
    with chart:
        charts.show(tc.warp_figure(H, Ptr, d.ytr, Pte, d.yte, x_title=f"unit {units[0]} of layer {layer}",
                                   y_title=f"unit {units[1]} of layer {layer}", **look), key="trainer_warp")
        lines_were = "the input line" if curve else f"a {WARP_LINES} × {WARP_LINES} grid of lines over the square"
        st.caption(f"Indigo: {lines_were}, after layer {layer}. Squares: the points after the same layers "
                   "(filled train, hollow test), coloured as on the map. Both axes share one scale; the dark "
                   "lines are where a unit is 0.")


def submit_part(ch) -> None:
    """Submit to the class: the network as it is when pressed (Play may have moved it since the box was
    drawn), read from the session's run."""

    def network() -> tuple[dict, dict]:
        t = st.session_state[tr.RUN].trainer
        return t.to_dict(), cr.network_spec(t.cfg, t.epoch)

    cr.submit_box(ch, network, cr.paused(ch))


def _follow_clicked() -> None:
    points = ((st.session_state.get("trainer_follow_pick") or {}).get("selection") or {}).get("points") or []
    if points and points[0].get("point_index") is not None:
        LINKS.set("pt", str(int(points[0]["point_index"])))


def one_point(spec: tr.Spec) -> None:
    """One point, one step: a training point followed forward layer by layer (sums, bends, outputs), its
    loss, the backward pass as each unit's delta, and the step this point alone would make (lib.mlp.follow
    on the network as it stands, playing or not)."""
    run: tr.Run = st.session_state[tr.RUN]
    t, d = run.trainer, run.data
    n = len(d.ytr)
    if not n:
        st.caption(":material/touch_app: No training points yet.")
        return
    params = [(np.array(W), np.array(b)) for W, b in t.params]   # the network as it stands
    act, head = t.cfg.act, t.cfg.head
    losses = point_losses(params, d.Ftr, d.ytr, act, head)
    choice = LINKS.value("pt")
    raw = st.query_params.get("pt")
    if raw is not None and choice == WORST and raw.strip().lower() != WORST:
        LINKS.note("pt", "Ignored the point in the link (`pt=`): not `worst` or a point's number; following "
                         "the worst-fit one.")
    if choice != WORST and int(choice) >= n:
        LINKS.note("pt", f"Ignored pt={choice}: there are {fmt.count(n)} training points (0 to {n - 1}); "
                         "following the worst-fit one.")
        choice = WORST
    i = int(np.argmax(losses)) if choice == WORST else int(choice)
    LINKS.show_note("pt")
    left, right = st.columns([2, 3], gap="medium")
    with left:
        charts.show(tc.follow_pick_figure(d, i, spec.problem), key="trainer_follow_pick",
                    on_click=_follow_clicked)
        st.caption(f"Point {i}" + (" (the worst fit now)" if choice == WORST else "")
                   + ": click another training point to follow it.")
        st.button("Follow the worst-fit point", key="trainer_follow_worst", on_click=LINKS.set,
                  args=("pt", WORST), disabled=choice == WORST, icon=":material/target:",
                  help="The training point with the largest loss under the network as it is now.")
    got = follow(params, d.Ftr[i], d.ytr[i], act, head)
    with right:
        names = [FEATURES[f].label for f in spec.feat]
        inputs = ", ".join(f"{name} = {fmt.num(v)}" for name, v in zip(names, d.Ftr[i], strict=True))
        truth = (f"class {int(d.ytr[i])}" if head != "linear" else f"value {fmt.num(float(d.ytr[i]))}")
        st.markdown(f"**In:** {inputs}; the answer is {truth}.")
        bend = ACTIVATIONS[act].label
        for k, (z, h, delta, passes) in enumerate(zip(got["z"], got["h"], got["delta"], got["passes"],
                                                       strict=False)):
            off = int((~passes).sum())
            st.markdown(f"**Hidden layer {k + 1}**: each unit's sum, {bend}, its output, and δ = ∂loss/∂sum"
                        + (f" ({off} unit{'s' if off != 1 else ''} at a flat part of the bend pass no gradient "
                           "back: nothing before them learns from this point through them)" if off else ""))
            st.dataframe(tc.follow_table(z, h, delta, passes), hide_index=True, width="stretch")
        out = got["out"]
        if head == "softmax":
            said = "P(each class) = " + ", ".join(fmt.num(float(v)) for v in got["p"])
        else:
            said = (f"P(class 1) = {fmt.num(float(got['p']))}" if head == "sigmoid"
                    else f"the value {fmt.num(float(got['p']))}")
        st.markdown(f"**Out:** {said}; this point's loss is **{fmt.num(got['loss'])}** "
                    f"(δ at the output: {', '.join(fmt.num(float(v)) for v in got['delta'][-1])}; "
                    f"sum {', '.join(fmt.num(float(v)) for v in out)}).")
    lr = t.cfg.lr
    rows = []
    for k, ((W, _), (dW, db)) in enumerate(zip(params, got["grads"], strict=True)):
        move = lr * float(np.sqrt(np.sum(dW * dW) + np.sum(db * db)))
        size = float(np.linalg.norm(W))
        rows.append(f"layer {k + 1}: {fmt.num(move)}" + (f" ({fmt.pct(move / size)} of its weights' size)"
                                                        if size else ""))
    st.markdown(f"**One step on this point alone** (plain gradient descent at rate {fmt.num(lr)}; "
                f"{OPT_NAMES.get(t.cfg.opt, t.cfg.opt)} rescales it) would move " + "; ".join(rows) + ".")
    st.caption("A batch's step is the average of these, point by point: the tests check that the points' "
               "deltas sum to the batch gradient (tests/unit/test_follow.py).")


def mistakes(spec: tr.Spec) -> None:
    """The confusion matrix on the training and the test points: which class is taken for which
    (`spec` is the fragment's argument, as for the other views; the run is the session's)."""
    run: tr.Run = st.session_state[tr.RUN]
    t, d = run.trainer, run.data
    if t.cfg.head == "linear":
        st.caption(":material/info: No confusion matrix here: the network predicts a value per point, not a "
                   "class, so there is nothing to confuse; R² and the mean absolute error above say how close.")
        return
    k = t.sizes[-1] if t.cfg.head == "softmax" else 2
    cols = st.columns(2)
    for col, (name, F, y) in zip(cols, (("Training points", d.Ftr, d.ytr), ("Test points", d.Fte, d.yte)),
                                 strict=True):
        with col:
            if not len(y):
                st.caption(f"{name}: none.")
                continue
            guess = t.predict(F).argmax(axis=1) if k > 2 else t.predict(F) > 0.5
            C = confusion(y, guess, k)                                         # (k, k)
            st.markdown(f"**{name}**: {fmt.count(np.trace(C))} of {fmt.count(C.sum())} right")
            st.dataframe(tc.confusion_table(C), width="content")
    st.caption("Each row is the points of one class; the columns say what the network took them for. "
               "The diagonal is what it gets right.")


def going_further() -> None:
    st.caption("This is the reference: the plain NumPy of lib/mlp.py, one line per equation. Play runs a "
               "fused version of the same sums (lib/train.py: one buffer per layer, no copies), and a "
               "test checks its loss and every gradient equal to this code's, and whole training runs "
               "equal to a loop over it (tests/unit/test_train.py).")
    show_source(forward, loss_and_grads, label="The code that trains it: forward beside backward")


def below(spec: tr.Spec | None) -> None:
    """One view under the trainer, chosen by tab. Only the open tab runs: a data move computes and
    sends its pictures, not all of them. While playing it ticks at the slow rate."""
    boxes, view = LINKS.tabs("view")
    with boxes[view]:
        if view == "code":
            going_further()
        elif spec is None:  # "only my points" with none placed yet
            st.caption(":material/touch_app: Place a point on the map first: this view shows the network "
                       "trained on it.")
        elif view == "bend":
            st.fragment(bend_switch)(spec)
        else:
            slow = tr.SLOW_TICK if st.session_state.get(tr.PLAYING) else None
            views = {"inside": inside, "mistakes": mistakes, "step": one_point, "warp": warp_view}
            st.fragment(views[view], run_every=slow)(spec)


if __name__ == "__main__":
    st.title("Live trainer")
    st.markdown(INTRO.get(LINKS.value("problem"), INTRO["classify"]))
    st.session_state[FULL] = True
    challenge = cr.challenge()
    LINKS.hide_also(challenge.hide if challenge else ())   # the controls the teacher hid for the class
    st.session_state[CHALLENGE] = challenge
    held = cr.paused(challenge)
    cr.banner(challenge, held)
    if challenge is not None:
        st.fragment(cr.watch, run_every=cr.WATCH_EVERY)(challenge, held)
    if held:
        st.session_state[tr.PLAYING] = False
    buttons(held)
    st.fragment(top)()
    st.session_state[FULL] = False
    below(st.session_state["trainer_spec"])  # None: "only my points" with none placed yet

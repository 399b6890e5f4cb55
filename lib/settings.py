"""Every setting of the live trainer, declared once (as TensorFlow Playground's state.ts): one row each
with its link key, its widget, its default, its bounds or choices, its words, the problem types and views
it applies to, whether a weights file carries it, whether the twin may differ in it, and what a change of
it does to a run. Plain data: lib reads it (the lesson mode's trainer questions), and the page derives its
link table, its frozen `Spec`, its share link, the keys a weights file sets and the twin's choices from it
(pages/trainer/links.py). A new setting is one row here and its use in lib (docs/ARCHITECTURE.md).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, make_dataclass
from typing import Any

import numpy as np

from lib.activations import ACTIVATIONS
from lib.datasets import CLASSES_DEFAULT, CLASSES_MAX, CLASSES_MIN, DEFAULT_CELLS, PROBLEMS
from lib.features import FEATURES
from lib.optim import OPT_NAMES, OPTIMIZERS
from lib.points import HAND_LINK_CHARS, HAND_MAX, MAX_POINTS
from lib.train import MAX_LINK_PARAMS, TrainConfig

ACTS = {k: a.label for k, a in ACTIVATIONS.items()}
VIEWS = {"bend": "Bend", "inside": "Inside", "step": "One step", "warp": "Warp",
         "mistakes": "Mistakes", "code": "Code"}
WORST = "worst"              # `pt`: follow the training point the network fits worst
LR_OPTIONS = (0.00001, 0.0001, 0.001, 0.003, 0.01, 0.03, 0.1, 0.3, 1.0, 3.0, 10.0)
# the Playground's 0..10
PENALTIES = (0.0, 0.00001, 0.0001, 0.001, 0.003, 0.01, 0.03, 0.1, 0.3, 1.0, 3.0, 10.0)
BATCHES = (0, *range(1, 31), 32, 64, 128)   # the Playground's 1 to 30, and a few powers of two
SPEEDS = ("1", "2", "5", "10", "20", "50", "100", "200", "500", "1000", "max")
MAX_SPEED = 100_000          # epochs per redraw typed into a link
MAX_LAYERS, MAX_UNITS = 6, 32  # the Playground allows 6 layers of 8; a link may ask for more units
SAME = "same"                # a twin setting that follows the network's own
SAME_NAME = "same as your network"
PROBLEM_NAMES = {p.name: p.label for p in PROBLEMS.values()}
# Every problem's datasets in one list (the link's choices); a run offers its problem's (PROBLEMS[p].sets).
ALL_SETS = tuple(dict.fromkeys(name for p in PROBLEMS.values() for name in p.sets))


# --- the parsers of what a link or a box carries: ValueError with a reason a student can read -------------
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


def plain(v) -> str:
    """0.03, 10, 0.00001: a number on a slider and, being its format_func, in the link (no e-notation)."""
    return np.format_float_positional(float(v), trim="-")


def _point_choice(text: str) -> str:
    text = text.strip().lower()
    if text == WORST or (text.isdigit() and int(text) < 10_000):
        return text
    raise ValueError("not `worst` or a point's number")


# --- the table -------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Setting:
    """One setting of the trainer. `widget` is a kind of ui.state's link table (slider, number, toggle,
    select, select_slider, multi, text, tabs); `help` may name `{redraws}` (the page fills it in)."""

    key: str                 # the link key, the widget's key and (with `spec`) the Spec field
    widget: str
    default: Any             # the value, not its text
    label: str
    help: str
    lo: float | None = None  # bounds: a slider's, or a number a link may carry onto a select_slider
    hi: float | None = None
    step: float | None = None
    choices: tuple = ()
    names: Mapping | None = None   # display name per choice; the link keeps the choice
    parse: Callable[[str], Any] | None = None   # text -> value, ValueError(reason)
    fmt: Callable[[Any], str] | None = None     # value -> link text
    number_format: str | None = None
    meaning: str = ""        # the README's columns
    values: str = ""
    hand: bool = False       # bound by hand (not drawn on every run)
    problems: tuple = ()     # the problem types it applies to (empty: all)
    views: tuple = ()        # the views below the trainer it applies to (empty: the trainer itself)
    first: Mapping | None = None   # a problem type's own first value (a new problem brings it)
    spec: bool = False       # a field of the run's frozen Spec (and so of the share link)
    per: float = 1           # the link holds the Spec's value times this (`train`: a share in percent)
    keeps: bool = False      # a change keeps the weights (Trainer.set_hparams), not a new run
    file: bool = False       # a weights file carries it, and loading one sets it
    twin: bool = False       # the twin may differ in it (link key `t` + key)
    twin_first: Any = SAME   # the twin's default
    twin_help: str = ""      # the twin's box's help (else "The twin's <label>.")

    def __post_init__(self):
        if self.first and self.default is None:   # the first problem type's first value
            object.__setattr__(self, "default", self.first[FIRST_PROBLEM])


def _firsts(classify, classes, regress) -> dict:
    return {"classify": classify, "classes": classes, "regress": regress}


# A problem's first network learns its first dataset within seconds of Play (bench/defaults.py measures them
# over seeds); its lesson pace (epochs per redraw) lets the boundary form over several seconds.
FIRST_PROBLEM = "classify"
_PACES = _firsts("5", "10", "50")
SETTINGS = (
    Setting("problem", "select", FIRST_PROBLEM, "Problem type",
            "Two classes (a sigmoid output), 3 to 5 classes (softmax) or a value per point (a linear "
            "output, mean squared error), on the plane or along a curve.", choices=tuple(PROBLEMS),
            names=PROBLEM_NAMES, meaning="two classes, several classes, or a value per point", spec=True),
    Setting("k", "slider", CLASSES_DEFAULT, "Classes", "How many classes (colours) the points come in.",
            lo=CLASSES_MIN, hi=CLASSES_MAX, step=1, meaning="number of classes (`problem=classes` only)",
            problems=("classes",), spec=True),
    Setting("dataset", "select", None, "Dataset",
            "Which pattern to learn; the list follows the problem type. Checkerboard and spiral need "
            "bends; gaussians and blobs do not.", choices=ALL_SETS,
            meaning="the pattern (or curve) to learn; the choices follow `problem`",
            values="two classes: " + ", ".join(f"`{d}`" for d in PROBLEMS["classify"].sets)
            + "; classes: " + ", ".join(f"`{d}`" for d in PROBLEMS["classes"].sets)
            + "; values: " + ", ".join(f"`{d}`" for d in PROBLEMS["regress"].sets)
            + " (`checkerboard`, `spiral`, `sin(2x)`)",
            first=_firsts("checkerboard", "spiral", "sin(2x)"), spec=True),
    Setting("n", "slider", 400, "Points", "How many points to draw (train and test together).",
            lo=50, hi=MAX_POINTS, step=50, meaning="points, train and test together",
            values=f"50 to {MAX_POINTS} in steps of 50 (400)", spec=True),
    Setting("noise", "slider", 0.0, "Noise",
            "Jitter every point's position; 0.5 is a lot. Labels keep their clean class.",
            lo=0.0, hi=1.0, step=0.05, meaning="jitter of the points' positions", spec=True),
    Setting("train", "slider", 80, "Training share",
            "Points the network learns from; the rest are the test set it never sees.", lo=10, hi=90, step=5,
            number_format="%d %%", meaning="training share of the points, in percent", spec=True, per=100),
    Setting("seed", "number", 0, "Seed",
            "Fixes the points and the network's starting weights: same seed, same run.", lo=0, hi=99_999,
            step=1, meaning="the points and the starting weights", spec=True),
    Setting("cells", "slider", DEFAULT_CELLS, "Checkerboard cells per side",
            f"The board's size; {DEFAULT_CELLS} × {DEFAULT_CELLS} is what the default 8-unit network "
            "learns reliably. Bigger boards want more units.", lo=2, hi=8, step=1,
            meaning="checkerboard cells per side (checkerboard only)", problems=("classify",), spec=True),
    Setting("feat", "multi", ("x1", "x2"), "Inputs fed to the network",
            "As in the Playground: " + ", ".join(f"{k} = {f.label}" for k, f in FEATURES.items())
            + ". A hand-made x1sq + x2sq lets even a straight-line network draw a circle.",
            choices=tuple(FEATURES),
            meaning="inputs fed to the network, repeated for several", spec=True),
    Setting("hidden", "text", None, "Units per hidden layer",
            "Comma separated, one number per hidden layer: 8, or 16,16 for two layers of 16; 0 for none "
            f"(a plain linear classifier). Up to {MAX_LAYERS} layers of 1 to {MAX_UNITS} units.",
            parse=parse_hidden, fmt=format_hidden,
            meaning="units per hidden layer, comma separated; `0` = no hidden layer",
            values=f"up to {MAX_LAYERS} layers of 1 to {MAX_UNITS} units (`8`)",
            first=_firsts((8,), (16, 16), (32,)), spec=True, file=True, twin=True, twin_first=(),
            twin_help="As for your network (8, or 16,16; 0 for none), or `same`. The same widths start from "
                      "exactly your network's weights; other widths share the first layer's units they both "
                      "have."),
    Setting("act", "select", "relu", "Bend (activation)",
            "Applied after every hidden layer. Changing it keeps the weights.", choices=tuple(ACTS),
            names=ACTS,
            meaning="the bend after every hidden layer", spec=True, keeps=True, file=True, twin=True,
            twin_help="The twin's bend, or the same as your network's."),
    Setting("opt", "select", "adam", "Optimiser",
            "How each step uses the gradient: plain SGD, SGD with momentum (steps keep some of their last "
            "direction), or Adam (each weight's step scaled by how large its gradients have been lately).",
            choices=tuple(OPTIMIZERS), names=OPT_NAMES, meaning="optimiser", spec=True, keeps=True, file=True,
            twin=True),
    Setting("batch", "select", 0, "Batch size",
            "Training points per step. All points (full batch) is one step per epoch, the fastest.",
            choices=BATCHES, names={0: "all points (full batch)"},
            meaning="points per step; `0` = all of them",
            values="`0` (all points), `1` to `30`, `32`, `64`, `128` (`0`)",
            spec=True, keeps=True, file=True),
    Setting("lr", "select_slider", None, "Learning rate",
            "Step size. Too large and the loss blows up: training stops and says so.", lo=0.000001, hi=10.0,
            choices=LR_OPTIONS, fmt=plain, meaning="learning rate",
            values="`0.00001` ... `10`; any number from 0.000001 to 10 in a link (`0.03`)",
            first=_firsts(0.03, 0.03, 0.1), spec=True, keeps=True, file=True, twin=True),
    Setting("l1", "select_slider", 0.0, "L1 penalty",
            "Adds L1 · (sum of |weights|) to the loss: drives the weights it does not need to exactly 0. "
            "Both at 0: no penalty.", lo=0.0, hi=10.0, choices=PENALTIES, fmt=plain, meaning="L1 penalty",
            values="`0` ... `10`; any number from 0 to 10 in a link (`0`)",
            spec=True, keeps=True, file=True, twin=True),
    Setting("l2", "select_slider", 0.0, "L2 penalty",
            "Adds 0.5 · L2 · (sum of squared weights) to the loss: pulls every weight towards 0.",
            lo=0.0, hi=10.0,
            choices=PENALTIES, fmt=plain, meaning="L2 penalty",
            values="`0` ... `10`; any number from 0 to 10 in a link (`0`)",
            spec=True, keeps=True, file=True, twin=True),
    Setting("speed", "select_slider", None, "Epochs per redraw",
            "The lesson pace lets a class watch the boundary form; 1 shows every step; max trains as many "
            "epochs as fit between two redraws (up to {redraws} a second, fewer when others play too).",
            choices=SPEEDS, parse=_speed_text, fmt=str,
            meaning="epochs per redraw while playing; `max` = as many as fit in the redraw's time budget",
            values=f"a whole number from 1 to {MAX_SPEED}, or `max` (the problem's lesson pace: "
                   + ", ".join(f"`{p}`" for p in _PACES.values()) + ")", first=_PACES),
    Setting("twin", "toggle", True, "Twin beside it",
            "Train a second network on the same data from the same start, in lockstep: by default with no "
            "hidden layer; choose its differences below.",
            meaning="train a twin beside the network, in lockstep (its differences: `thidden` ... `tl2`)"),
    "twins",   # the twin's differences: one derived setting per `twin=True` row above (twin_settings)
    Setting("discrete", "toggle", False, "Discretise the shading",
            "Shade each point of the plane by the class the network picks (P above or below ½) instead of by "
            "how sure it is.", meaning="shade by the class picked (P above or below ½), not by P"),
    Setting("bend", "select", "identity", "Redraw the trained weights with the bend",
            "Only the drawing below changes; training keeps using the bend chosen above.",
            choices=tuple(ACTS),
            names=ACTS, meaning="the bend used to redraw the trained weights in \"the bend on and off\"",
            values="any `act` value (`identity`)", views=("bend",)),
    Setting("wlayer", "select", 1, "Hidden layer",
            "The layer the plane is seen through: the grid and the points go through every layer up to this "
            "one.", choices=tuple(range(1, MAX_LAYERS + 1)),
            meaning="the hidden layer the warped plane is drawn after (`view=warp`)",
            values=f"1 to {MAX_LAYERS}, up to the network's hidden layers (`1`)", views=("warp",)),
    Setting("wunits", "text", (1, 2), "Units drawn across and up",
            "Two units of that layer, comma separated: 1,2 draws unit 1's output across and unit 2's up.",
            parse=parse_units, fmt=format_units,
            meaning="the two units of that layer whose outputs are the warped plane's x and y (`view=warp`)",
            values="two different units the layer has, e.g. `3,5` (`1,2`)", views=("warp",)),
    Setting("view", "tabs", "bend", "Below the trainer",
            "One view at a time under the trainer; only the open one is computed.", choices=tuple(VIEWS),
            names=VIEWS, meaning="the view open under the trainer"),
    Setting("pt", "text", WORST, "The point followed", "Click a training point in 'One step'.",
            parse=_point_choice, fmt=str, hand=True,
            meaning="the training point followed in \"One step\": its number, or `worst` (the one the "
                    "network fits worst now)",
            values="`worst` or 0 to 9999; a number past the training points is ignored with a note",
            views=("step",)),
    Setting("pts", "text", "", "Points placed by hand", "Written as you click on the map; not a control.",
            parse=str, fmt=str, hand=True,
            meaning="points placed by hand, `x1_x2_class` (or `x1_x2_value`) joined by `~`, coordinates to 2 "
                    "decimals",
            values=f"at most {HAND_MAX} points ({HAND_LINK_CHARS:,} characters); a link whose points do not "
                   "fit the page is ignored with a note"),
    Setting("only", "toggle", False, "Only my points",
            "Start from an empty plane: the network learns only the points you place by clicking.",
            meaning="only the points placed by hand, no dataset under them", spec=True),
    Setting("w", "text", "", "Trained weights", "Written by the share link; not a control.",
            parse=lambda raw: str(raw).strip(), fmt=str,
            meaning=f"trained weights (float32, URL-safe base64), written by the share link for networks of "
                    f"at most {MAX_LINK_PARAMS} parameters",
            values="a link that does not fit the network is ignored with a note"),
)
BY_KEY = {s.key: s for s in SETTINGS if isinstance(s, Setting)}


def same_or(parse):
    def parse_twin(raw: str):
        return SAME if str(raw).strip().lower() == SAME else parse(raw)
    return parse_twin


def _same_or_text(fmt):
    return lambda value: SAME if value == SAME else fmt(value)


def twin_setting(s: Setting) -> Setting:
    """The twin's box for a setting it may differ in: `t` + its key, its choices after `same`."""
    what = (s.label[0].lower() + s.label[1:] if s.label[1:2].islower() else s.label).split(" (")[0]
    first_text = SAME if s.twin_first == SAME else (s.fmt or str)(s.twin_first)
    if s.widget == "text":
        return Setting(f"t{s.key}", "text", s.twin_first, f"Twin: {what}", s.twin_help,
                       parse=same_or(s.parse), fmt=_same_or_text(s.fmt),
                       meaning=f"the twin's {what}, or `same`"
                       + s.meaning[s.meaning.find(";"):] * (";" in s.meaning),
                       values=f"as `{s.key}`, or `same` (`{first_text}`)")
    common = dict(meaning=f"the twin's {what}", values=f"`same` or any `{s.key}`"
                  + (" value" if s.widget == "select" else " on the list") + f" (`{first_text}`)")
    names = {SAME: SAME_NAME, **(s.names or {c: (s.fmt or str)(c) for c in s.choices})}
    return Setting(f"t{s.key}", "select", s.twin_first, f"Twin: {what}", s.twin_help or f"The twin's {what}.",
                   choices=(SAME, *s.choices), names=names, lo=s.lo, hi=s.hi,
                   fmt=_same_or_text(s.fmt) if s.fmt else None, **common)


def table() -> tuple[Setting, ...]:
    """Every setting in the page's order, the twin's differences in their place."""
    twins = [twin_setting(t) for t in BY_KEY.values() if t.twin]
    return tuple(x for s in SETTINGS for x in (twins if s == "twins" else [s]))


def keys(**flags) -> tuple[str, ...]:
    """The keys of the settings with these flags: keys(file=True) are what a weights file sets."""
    return tuple(k for k, s in BY_KEY.items() if all(getattr(s, f) == v for f, v in flags.items()))


def first(problem: str) -> dict:
    """A problem type's own first values (its dataset, network, rate and pace)."""
    return {k: s.first[problem] for k, s in BY_KEY.items() if s.first}


def applies(key: str, problem: str, view: str | None = None) -> bool:
    s = BY_KEY[key]
    return (not s.problems or problem in s.problems) and (not s.views or view in s.views)


# --- the run's frozen spec -------------------------------------------------------------------------------
class _SpecMethods:
    def twin_config(self) -> dict:
        """The twin's layers and hyperparameters, every "same" resolved to the network's own."""
        mine = {"hidden": self.hidden, **self.hparams()}
        return {k: (mine[k] if self.twin_diff.get(k, SAME) == SAME else self.twin_diff[k]) for k in mine}

    def twin_differs(self) -> bool:
        return self.twin_config() != {"hidden": self.hidden, **self.hparams()}

    @property
    def head(self) -> str:
        return PROBLEMS[self.problem].head

    @property
    def classes(self) -> int:
        """Outputs of a softmax network (0 for the other heads)."""
        return self.k if self.problem == "classes" else 0

    def data_sig(self) -> tuple:
        source = ("own", self.own.digest) if self.own else (self.dataset, self.n, self.noise, self.cells)
        if self.only:
            source = ("only my points",)
        return (self.problem, self.classes, *source, self.seed, self.train, self.feat)

    def sig(self) -> tuple:
        return (*self.data_sig(), self.hidden)

    def hparams(self) -> dict:
        """What changes without a new run (Trainer.set_hparams): the `keeps` settings."""
        return {k: getattr(self, k) for k in keys(keeps=True)}

    def config(self, hidden: tuple[int, ...] | None = None) -> TrainConfig:
        return TrainConfig(hidden=self.hidden if hidden is None else hidden, seed=self.seed,
                           head=self.head, classes=self.classes, **self.hparams())


# Everything the page's controls say, after parsing: one field per `spec` setting (its default the table's),
# then what is not a link key: a student's own points, the twin's differences ({"hidden": ()} and the
# `twin` settings' values, "same" = as the network), the points placed by hand.
Spec = make_dataclass(
    "Spec",
    [(k, Any, field(default=s.default / s.per if s.per != 1 else s.default))
     for k, s in BY_KEY.items() if s.spec]
    + [("twin", bool, field(default=False)), ("own", Any, field(default=None)),
       ("twin_diff", dict, field(default_factory=lambda: {"hidden": ()}, hash=False)),
       ("hand", tuple, field(default=()))],
    bases=(_SpecMethods,), frozen=True)
Spec.__module__ = __name__


def link_value(s: Setting, raw) -> Any:
    """A link's text as a setting's value, leniently (a lesson's own link values; the page checks them
    strictly through ui.state)."""
    if s.parse is not None:
        return s.parse(raw)
    if s.widget == "multi":
        return tuple(raw if isinstance(raw, list) else [raw])
    raw = raw[-1] if isinstance(raw, list) else raw
    if isinstance(s.default, bool):
        return str(raw).strip().lower() == "true"
    if isinstance(s.default, int):
        return int(float(raw))
    if isinstance(s.default, float):
        return float(raw)
    return str(raw)


def spec_of(values: Mapping) -> Spec:
    """The run a trainer link asks for (link texts by key; a missing key: its default)."""
    got = {k: link_value(s, values[k]) if k in values else s.default for k, s in BY_KEY.items() if s.spec}
    return Spec(**{k: v / BY_KEY[k].per if BY_KEY[k].per != 1 else v for k, v in got.items()})

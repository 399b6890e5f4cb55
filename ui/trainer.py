"""The live trainer's state: link keys, parsing of typed values, data, and one training run per student.

The page (pages/trainer.py) draws widgets and charts; this module owns what survives between
reruns. A student's run lives in `st.session_state[RUN]`: the Trainer, its twin without a hidden
layer, and the signature of everything the weights depend on (data, inputs, layers, seed). A change
of that signature starts a new run; a change of optimiser, learning rate, batch, L2 or bend keeps
the weights (`Trainer.set_hparams`), which the Playground never did.
"""

from __future__ import annotations

import contextlib
import io
import math
import time
from dataclasses import dataclass, field
from urllib.parse import urlencode

import numpy as np
import pandas as pd
import streamlit as st

from lib import train as engine
from lib.datasets import DATASETS, DOMAIN, make_dataset, split, validate_points
from lib.features import FEATURES, expand
from lib.mlp import predict_proba
from lib.regions import grid

# --- link keys: URL parameter -> default (README's /trainer table lists them) -----------------------
DEFAULTS = {
    "dataset": "checkerboard",
    "hidden": "8",          # units per hidden layer, comma separated; "0" = no hidden layer
    "act": "relu",
    "lr": 0.03,
    "opt": "adam",
    "batch": 0,             # 0 = every training point in one batch
    "l2": 0.0,
    "noise": 0.0,
    "n": 400,
    "seed": 0,
    "speed": "max",         # epochs per redraw, or as many as fit in the redraw's time budget
    "train": 0.8,           # share of the points used for training; the rest is the test set
    "feat": ["x1", "x2"],   # input features fed to the network
    "bend": "identity",     # the bend used to redraw the trained weights in "the bend on and off"
    "twin": True,           # train a twin without a hidden layer beside the chosen network
}
LR_OPTIONS = [0.00001, 0.0001, 0.001, 0.003, 0.01, 0.03, 0.1, 0.3, 1.0, 3.0, 10.0]
L2_OPTIONS = [0.0, 0.00001, 0.0001, 0.001, 0.003, 0.01, 0.03, 0.1]
BATCH_OPTIONS = [0, 1, 4, 10, 16, 32, 64, 128]
SPEED_OPTIONS = ["1", "2", "5", "10", "20", "50", "100", "200", "500", "1000", "max"]
MAX_SPEED = 100_000          # epochs per redraw typed into a link
MAX_LAYERS, MAX_UNITS = 6, 32  # the Playground allows 6 layers of 8; a link may ask for more units

# --- session keys ---------------------------------------------------------------------------------
PLAYING = "trainer_playing"   # bool: the live fragment trains on every tick
RUN = "trainer_run"           # Run: the student's trainer and its twin
HIDDEN_GOOD = "trainer_hidden_good"  # the last hidden layers that parsed
OWN = "trainer_own"           # OwnData or None: points from the student's CSV
WEIGHTS_SEEN = "trainer_weights_seen"  # the `w` link text already applied (or refused)

# The browser asks for a redraw every TICK seconds and Streamlit merges requests that arrive during
# a run, so a tick slower than TICK lowers the rate. Training gets BUDGET of each tick; drawing,
# sending and the browser's own work need the rest (at 20,000 epochs a second, 0.03 s is 600 epochs).
TICK = 0.07         # seconds between redraws while playing (the browser's timer)
BUDGET = 0.03       # seconds of training per redraw at speed "max"
CURVES_HOLD = 0.3   # while playing, the curves take new numbers at most this often (seconds)
RES = 100           # the live boundary's grid: RES x RES probabilities, float32
MAX_UPLOAD_BYTES = 100_000    # a CSV of 2,000 points is about 40 KB
MAX_POINTS = 2000
MAX_LINK_PARAMS = getattr(engine, "MAX_LINK_PARAMS", 200)


# --- typed values --------------------------------------------------------------------------------
def parse_hidden(text: str) -> tuple[int, ...]:
    """'8' -> (8,), '16,16' -> (16, 16), '0' -> () (no hidden layer).

    Raises ValueError with a reason a student can act on.
    """
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


def shown(text: str, limit: int = 40) -> str:
    """Typed or linked text for a message: shortened, and unable to break out of inline code."""
    text = str(text).replace("`", "'").replace("\n", " ")
    return text if len(text) <= limit else text[: limit - 1] + "…"


def format_hidden(hidden: tuple[int, ...]) -> str:
    return ",".join(map(str, hidden)) or "0"


def parse_speed(text: str) -> int | None:
    """'max' -> None (a time budget), '25' -> 25 epochs per redraw; ValueError otherwise."""
    t = str(text).strip().lower()
    if t == "max":
        return None
    if not t.isdigit() or not 1 <= int(t) <= MAX_SPEED:
        raise ValueError(f"use a whole number from 1 to {MAX_SPEED:,}, or max")
    return int(t)


def options_with_link(key: str, options: list, parse) -> list:
    """`options` plus the link's value for `key` when it is usable but not in the list.

    A bound select_slider drops a link value that is not one of its options; a teacher who
    typed `speed=25` or `lr=0.05` into a slide means it, so it joins the options.
    """
    raw = st.query_params.get(key)
    if raw is None:
        return options
    try:
        value = parse(raw)
    except (TypeError, ValueError):
        return options  # links.bound reports it
    if value in options:
        return options
    numeric = [o for o in options if not isinstance(o, str) or o.isdigit()]
    rest = [o for o in options if o not in numeric]
    key_of = float
    return sorted([*numeric, value], key=key_of) + rest


def short_number(v) -> str:
    """0.03, 10, 1e-05: how a number reads on a slider and, being its format_func, in the link.

    A bound select_slider matches a link value against format_func(option) as text, so `lr=10`
    only finds the option 10.0 if the option reads "10".
    """
    return f"{v:g}"


def positive_float(lo: float, hi: float):
    def parse(raw: str) -> float:
        v = float(raw)
        if not (math.isfinite(v) and lo <= v <= hi):
            raise ValueError
        return v
    return parse


def speed_option(raw: str) -> str:
    parse_speed(raw)
    return str(raw).strip().lower()


# --- data ---------------------------------------------------------------------------------------
@dataclass(frozen=True)
class OwnData:
    """Points from the student's CSV."""

    name: str
    X: np.ndarray   # (n, 2)
    y: np.ndarray   # (n,) in {0, 1}
    digest: str     # tells two uploads apart in the run's signature


@st.cache_data(max_entries=64, show_spinner=False)
def built_in(name: str, n: int, noise: float, seed: int, cells: int | None):
    """make_dataset, cached: it is pure and deterministic by seed."""
    return make_dataset(name, n, noise=noise, seed=seed, cells=cells)


@st.cache_data(max_entries=16, show_spinner=False)
def plane(limit: float, res: int = RES):
    """The grid the maps are drawn on: xs (res,), ys (res,), XY (res*res, 2)."""
    return grid(limit, res)


def limit_for(X: np.ndarray) -> float:
    """Half-width of the square drawn: the house square, grown to fit own points."""
    lim = 1.2 * DOMAIN
    if X.size:
        lim = max(lim, 1.05 * float(np.abs(X).max()))
    return round(lim, 3)


def template_csv() -> bytes:
    """A small CSV in the accepted format: an XOR of four clusters."""
    rng = np.random.default_rng(0)
    centres = np.array([[-2.0, -2.0], [2.0, 2.0], [-2.0, 2.0], [2.0, -2.0]])  # (4, 2)
    X = np.repeat(centres, 10, axis=0) + rng.normal(0, 0.6, (40, 2))          # (40, 2)
    y = np.repeat([0, 0, 1, 1], 10)                                           # (40,)
    frame = pd.DataFrame({"x1": X[:, 0].round(3), "x2": X[:, 1].round(3), "label": y})
    return frame.to_csv(index=False).encode()


def read_points(name: str, data: bytes) -> OwnData:
    """Parse an uploaded CSV of x1, x2, label; ValueError with a one-line reason."""
    if len(data) > MAX_UPLOAD_BYTES:
        raise ValueError(f"the file is {len(data) / 1000:,.0f} KB; the limit is "
                         f"{MAX_UPLOAD_BYTES // 1000} KB")
    try:
        frame = pd.read_csv(io.BytesIO(data), dtype=str, keep_default_na=False)
    except (pd.errors.ParserError, pd.errors.EmptyDataError, UnicodeDecodeError):
        raise ValueError("it is not a CSV file with a header row") from None
    cols = [str(c).strip().lower() for c in frame.columns]
    if sorted(cols) != ["label", "x1", "x2"]:
        found = ", ".join(str(c) for c in frame.columns[:6]) or "none"
        raise ValueError(f"it needs exactly the columns x1, x2, label; found {found}")
    frame.columns = cols
    values = {}
    for col in ("x1", "x2", "label"):
        v = pd.to_numeric(frame[col].str.strip(), errors="coerce").to_numpy(dtype=float)
        bad = np.flatnonzero(~np.isfinite(v))
        if bad.size:
            raise ValueError(f"row {bad[0] + 2}: {col} is not a number "
                             f"({frame[col].iloc[bad[0]][:20]!r})")
        values[col] = v
    X = np.column_stack([values["x1"], values["x2"]])  # (n, 2)
    labels = values["label"]
    if not np.isin(labels, (0.0, 1.0)).all():
        bad = np.flatnonzero(~np.isin(labels, (0.0, 1.0)))[0]
        raise ValueError(f"row {bad + 2}: label must be 0 or 1, not {labels[bad]:g}")
    y = labels.astype(int)
    reason = validate_points(X, y, max_points=MAX_POINTS)
    if reason:
        raise ValueError(reason)
    digest = f"{len(data)}-{hash(data) & 0xFFFFFFFF:08x}"
    return OwnData(name=name, X=X, y=y, digest=digest)


# --- the run ------------------------------------------------------------------------------------
@dataclass
class Spec:
    """Everything the page's controls say, after parsing."""

    dataset: str
    n: int
    noise: float
    seed: int
    cells: int | None
    train: float
    feat: tuple[str, ...]
    hidden: tuple[int, ...]
    act: str
    opt: str
    lr: float
    batch: int
    l2: float
    twin: bool
    own: OwnData | None = None

    def data_sig(self) -> tuple:
        source = ("own", self.own.digest) if self.own else (self.dataset, self.n, self.noise, self.cells)
        return (*source, self.seed, self.train, self.feat)

    def sig(self) -> tuple:
        return (*self.data_sig(), self.hidden)

    def hparams(self) -> dict:
        return {"act": self.act, "opt": self.opt, "lr": self.lr, "batch": self.batch, "l2": self.l2}

    def config(self, hidden: tuple[int, ...] | None = None):
        return engine.TrainConfig(hidden=self.hidden if hidden is None else hidden, seed=self.seed,
                                  **self.hparams())


@dataclass
class Data:
    """Raw points (for drawing) and their feature-expanded versions (for the network)."""

    Xtr: np.ndarray   # (n_train, 2)
    ytr: np.ndarray   # (n_train,)
    Xte: np.ndarray   # (n_test, 2)
    yte: np.ndarray   # (n_test,)
    Ftr: np.ndarray   # (n_train, n_features)
    Fte: np.ndarray   # (n_test, n_features)
    limit: float      # the square drawn is [-limit, limit]^2


def data_for(spec: Spec) -> Data:
    if spec.own is not None:
        X, y = spec.own.X, spec.own.y
    else:
        X, y = built_in(spec.dataset, spec.n, spec.noise, spec.seed, spec.cells)
    Xtr, ytr, Xte, yte = split(X, y, train_share=spec.train, seed=spec.seed)
    names = list(spec.feat)
    return Data(Xtr, ytr, Xte, yte, expand(Xtr, names), expand(Xte, names), limit_for(X))


@dataclass
class Run:
    sig: tuple
    data: Data
    trainer: engine.Trainer
    twin: engine.Trainer | None = None
    hparams: dict = field(default_factory=dict)
    loaded: str = ""   # one line when the weights came from a link


def _new_trainer(spec: Spec, data: Data, hidden=None) -> engine.Trainer:
    return engine.Trainer(spec.config(hidden), data.Ftr, data.ytr, data.Fte, data.yte)


def get_run(spec: Spec) -> Run:
    """The student's run for these settings: kept if only hyperparameters changed, else new."""
    run: Run | None = st.session_state.get(RUN)
    if run is None or run.sig != spec.sig():
        data = data_for(spec)
        run = Run(sig=spec.sig(), data=data, trainer=_new_trainer(spec, data), hparams=spec.hparams())
        st.session_state[RUN] = run
    elif run.hparams != spec.hparams():
        changes = {k: v for k, v in spec.hparams().items() if run.hparams.get(k) != v}
        run.trainer.set_hparams(**changes)
        if run.twin is not None:
            run.twin.set_hparams(**changes)
        run.hparams = spec.hparams()
    if spec.twin and run.twin is None:
        run.twin = _new_trainer(spec, run.data, hidden=())
        catch_up(run)
    elif not spec.twin:
        run.twin = None
    return run


def catch_up(run: Run) -> None:
    """Bring the twin to the main run's epoch, so the two stay in lockstep."""
    if run.twin is not None and run.twin.epoch < run.trainer.epoch and not run.twin.diverged:
        run.twin.step(run.trainer.epoch - run.twin.epoch)


def advance(run: Run, speed: int | None, budget: float = BUDGET) -> int:
    """One redraw's worth of training: `speed` epochs, or as many as fit in `budget` seconds.

    The twin (no hidden layer) trains the same number of epochs, so both curves share one epoch
    axis. The main run gets three quarters of the budget; the twin's catch-up takes about as long
    again (at this size an epoch costs the same NumPy calls with or without a hidden layer), which
    the browser's own work per redraw, not the training, is what limits the rate.
    """
    t = run.trainer
    if t.diverged:
        return 0
    if speed is None:
        share = 0.75 if run.twin is not None else 1.0
        done = t.run_for(budget * share)
    else:
        done = t.step(speed)
    if run.twin is not None and done and not run.twin.diverged:
        run.twin.step(done)
    return done


def reset(run: Run) -> None:
    run.trainer.reset()
    if run.twin is not None:
        run.twin.reset()
    run.loaded = ""


def finite_history(t: engine.Trainer) -> pd.DataFrame:
    """The trainer's history as a frame (epoch, train_loss, test_loss, train_acc, test_acc).

    Rows with a non-finite number are dropped (a chart never draws one); a missing test set
    (train share 100 %) leaves its columns out.
    """
    frame = pd.DataFrame(t.history).astype(float)
    for col in ("test_loss", "test_acc"):
        if frame[col].isna().all():
            frame[col] = np.nan
    keep = np.isfinite(frame[["epoch", "train_loss", "train_acc"]].to_numpy()).all(axis=1)
    return frame[keep]


def expand_features(XY: np.ndarray, names) -> np.ndarray:
    """The grid's points as the network's inputs: (m, 2) -> (m, len(names))."""
    return expand(XY, list(names))


def collapse_gap(t: engine.Trainer, names, limit: float, W: np.ndarray, b: np.ndarray) -> float:
    """Largest |network without bends - the one collapsed layer| over the square's grid."""
    _, _, XY = plane(limit, 60)
    F = expand(XY, list(names))                           # (3600, n_in)
    p_net = t.predict(F, act="identity")                  # (3600,) the network, bends off
    p_one = predict_proba([(W, b)], F, "identity")        # (3600,) the one collapsed layer
    return float(np.max(np.abs(p_net - p_one)))


def probabilities(t: engine.Trainer, names, limit: float, res: int = RES, act: str | None = None):
    """P(class 1) over the square: xs (res,), ys (res,), P (res, res) float32 (rows = ys)."""
    xs, ys, XY = plane(limit, res)
    p = t.predict(expand(XY, list(names)), act=act)  # (res*res,)
    P = np.asarray(p, dtype=np.float32).reshape(len(ys), len(xs))
    return xs, ys, P


# --- share and export ---------------------------------------------------------------------------
def apply_link_weights(run: Run) -> str | None:
    """Load `w=` from the link once per distinct text; a one-line reason if refused."""
    raw = st.query_params.get("w")
    if not raw or st.session_state.get(WEIGHTS_SEEN) == raw:
        return None
    st.session_state[WEIGHTS_SEEN] = raw
    try:
        run.trainer.load_weights(raw)
    except (ValueError, TypeError, KeyError, IndexError) as err:
        return str(err).splitlines()[0] if str(err) else "the weights could not be read"
    run.loaded = "Weights loaded from the link: the boundary below is the shared, trained network."
    return None


def share_link(run: Run, base: str | None) -> str | None:
    """This page's link with every setting and, for a small network, its weights (`w=`)."""
    code = run.trainer.encode_weights()
    if code is None:
        return None
    params = [(k, v) for k in st.query_params for v in st.query_params.get_all(k) if k != "w"]
    params.append(("w", code))
    return f"{base or '/trainer'}?{urlencode(params)}"


def page_base() -> str:
    """The page's address without its query (st.context.url; '/trainer' under AppTest)."""
    url = ""
    with contextlib.suppress(AttributeError, RuntimeError):
        url = st.context.url or ""
    return url.split("?")[0] if url else "/trainer"


def n_params(run: Run) -> int:
    return int(sum(W.size + b.size for W, b in run.trainer.params))


class Clock:
    """Epochs and redraws per second seen by the server, for the caption under the live charts."""

    def __init__(self):
        self.marks: list[tuple[float, int]] = []   # (time, epoch) of recent redraws

    def tick(self, epoch: int) -> tuple[float, float] | None:
        now = time.perf_counter()
        self.marks = [m for m in self.marks if now - m[0] < 2.0 and m[1] <= epoch] + [(now, epoch)]
        if len(self.marks) < 3:
            return None
        (t0, e0), (t1, e1) = self.marks[0], self.marks[-1]
        return (e1 - e0) / (t1 - t0), (len(self.marks) - 1) / (t1 - t0)


DATASET_NAMES = list(DATASETS)
FEATURE_NAMES = list(FEATURES)

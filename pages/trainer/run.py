"""The live trainer's one job: the student's run, kept in st.session_state between reruns.

A run is the Trainer, its twin without a hidden layer, the data they learn from, and the
signature of everything the weights depend on (data, inputs, layers, seed). A change of that
signature starts a new run; a change of optimiser, learning rate, batch, L1, L2 or bend keeps the
weights (`Trainer.set_hparams`), which the Playground never did. The page (pages/trainer.py)
declares the link keys and draws; lib computes every number shown.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import numpy as np
import pandas as pd
import streamlit as st

from lib.datasets import make_problem, split
from lib.features import expand
from lib.maps import limit_for
from lib.settings import Spec, keys
from lib.train import Trainer

# --- session keys ---------------------------------------------------------------------------------
PLAYING = "trainer_playing"   # bool: the live fragment trains on every tick
SHOWN_PLAYING = "trainer_shown_playing"   # bool: what the last whole-page run drew (Pause, and the timer on)
RUN = "trainer_run"           # Run: the student's trainer and its twin
OWN = "trainer_own"           # OwnData or None: points from the student's CSV
WEIGHTS_SEEN = "trainer_weights_seen"  # the `w` link text already applied (or refused)
FIGURES = "trainer_figures"   # the live figures of this session, updated in place (see ui.trainer_charts)
CHALLENGE = "trainer_challenge"   # the class challenge the page is in (classroom/), set by each full run

# While playing, engine.fairshare sets each tick's training budget and the pace of the ticks (the page
# passes its plan to `advance`); BUDGET is the budget without it (Step, tests). At 20,000 epochs a
# second, 0.03 s is 600 epochs.
SLOW_TICK = 2.0     # seconds between redraws of the unit maps and the region map while playing
BUDGET = 0.03       # seconds of training per redraw at speed "max"
# While playing, the curves take new numbers at most this often (seconds): in Chromium a changed chart
# costs the page about as much as a changed map, and the curves are history (the numbers beside them,
# which match the maps, change on every redraw).
CURVES_HOLD = 1.0


# --- data ---------------------------------------------------------------------------------------
@dataclass(frozen=True)
class OwnData:
    """Points from the student's CSV."""

    name: str
    X: np.ndarray   # (n, 2)
    y: np.ndarray   # (n,) labels (0/1, or 0..k-1) or values (regress)
    digest: str     # tells two uploads apart in the run's signature
    problem: str = "classify"   # the problem type it was checked for
    k: int | None = None        # classes it was checked for (classes problem)


def own_data(name: str, data: bytes, problem: str = "classify", k: int | None = None) -> OwnData:
    """An uploaded CSV as the run's data for this problem type (lib.points.read_points checks it,
    lib.datasets.validate_points inside; ValueError with a reason)."""
    from lib.points import read_points

    X, y = read_points(data, problem=problem, k=k)
    return OwnData(name=name, X=X, y=y, digest=f"{problem}-{k}-{len(data)}-{hash(data) & 0xFFFFFFFF:08x}",
                   problem=problem, k=k)


@st.cache_data(max_entries=64, show_spinner=False)
def built_in(name: str, n: int, noise: float, seed: int, cells: int | None, problem: str = "classify",
             k: int = 3):
    """make_problem, cached: it is pure and deterministic by seed."""
    return make_problem(problem, name, n, noise=noise, seed=seed, k=k, cells=cells)


@dataclass
class Data:
    """Raw points (for drawing) and their feature-expanded versions (for the network)."""

    Xtr: np.ndarray   # (n_train, 2), or (n_train, 1) for a curve
    ytr: np.ndarray   # (n_train,) labels or values
    Xte: np.ndarray   # (n_test, 2) or (n_test, 1)
    yte: np.ndarray   # (n_test,)
    Ftr: np.ndarray   # (n_train, n_features)
    Fte: np.ndarray   # (n_test, n_features)
    limit: float      # the square drawn is [-limit, limit]^2
    hand: int = 0     # the last `hand` training points were placed by hand


def data_for(spec: Spec) -> Data:
    """The run's points: the dataset (built in or uploaded) split into train and test, and the points
    placed by hand after the training points (all of them train: the student put them there to be
    learnt). With `only`, the hand points alone, on the house square."""
    if spec.own is not None:
        X, y = spec.own.X, spec.own.y
    else:
        X, y = built_in(spec.dataset, spec.n, spec.noise, spec.seed, spec.cells, spec.problem, spec.k)
    limit = limit_for(X)
    if spec.only:
        X, y = X[:0], y[:0]
        limit = limit_for(X)
        Xtr, ytr, Xte, yte = X, y, X, y
    else:
        Xtr, ytr, Xte, yte = split(X, y, train_share=spec.train, seed=spec.seed,
                                   stratify=spec.problem != "regress")
    if spec.hand:
        H = np.asarray(spec.hand, dtype=float)                                    # (m, d + 1)
        Xtr = np.vstack([Xtr, H[:, :-1]])
        ytr = np.concatenate([ytr, H[:, -1].astype(ytr.dtype)])
    names = list(spec.feat)
    return Data(Xtr, ytr, Xte, yte, expand(Xtr, names), expand(Xte, names), limit, hand=len(spec.hand))


# --- the run ------------------------------------------------------------------------------------
@dataclass
class Run:
    sig: tuple
    data: Data
    trainer: Trainer
    twin: Trainer | None = None
    hparams: dict = field(default_factory=dict)
    loaded: str = ""   # one line when the weights came from a link
    twin_cfg: dict = field(default_factory=dict)   # the twin's resolved configuration (Spec.twin_config)
    hand: tuple = ()   # the hand points its data holds (Spec.hand)


def _new_trainer(spec: Spec, data: Data, hidden=None) -> Trainer:
    return Trainer(spec.config(hidden), data.Ftr, data.ytr, data.Fte, data.yte)


def get_run(spec: Spec) -> Run:
    """The student's run for these settings: kept if only hyperparameters changed, else new."""
    run: Run | None = st.session_state.get(RUN)
    if run is None or run.sig != spec.sig():
        data = data_for(spec)
        run = Run(sig=spec.sig(), data=data, trainer=_new_trainer(spec, data), hparams=spec.hparams(),
                  hand=spec.hand)
        st.session_state[RUN] = run
    elif run.hand != spec.hand:
        # Points placed or removed by hand: the same network goes on learning from the new points.
        run.data = data_for(spec)
        for t in (run.trainer, run.twin):
            if t is not None:
                t.set_data(run.data.Ftr, run.data.ytr, run.data.Fte, run.data.yte)
        run.hand = spec.hand
    elif run.hparams != spec.hparams():
        changes = {k: v for k, v in spec.hparams().items() if run.hparams.get(k) != v}
        run.trainer.set_hparams(**changes)
        run.hparams = spec.hparams()
    want = spec.twin_config()
    if spec.twin and (run.twin is None or run.twin_cfg.get("hidden") != want["hidden"]):
        # A new twin from the network's start (Trainer.twin: the same weights where the shapes allow),
        # brought to the network's epoch: the two stay in lockstep.
        run.twin = run.trainer.twin(**want)
        run.twin_cfg = want
        catch_up(run)
    elif spec.twin and run.twin_cfg != want:
        run.twin.set_hparams(**{k: v for k, v in want.items() if k != "hidden" and run.twin_cfg.get(k) != v})
        run.twin_cfg = want
    elif not spec.twin:
        run.twin, run.twin_cfg = None, {}
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
    is fine: the browser's own work per redraw, not the training, is what limits the rate.
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


def weights_key(run: Run) -> tuple:
    """What the pictures of the trained network depend on: the run and its weights now."""
    return run.sig, run.trainer.epoch, run.trainer.flat.tobytes()


def net_key(run: Run, trainer: Trainer | None = None) -> tuple:
    """What a picture of the network alone depends on (not of its points): its layers, inputs, square and
    weights now. The same after a move of n, noise, training share or cells (the seed's starting weights
    do not depend on the points), so such a move rebuilds none of the pictures drawn from it."""
    t = run.trainer if trainer is None else trainer
    problem, classes = run.sig[0], run.sig[1]
    return problem, classes, t.sizes, run.sig[-2], run.data.limit, t.flat.tobytes()


def memo(store: dict, key: str, want, build):
    """`build()`, kept in `store` (a session's dict) under `key` while `want` stays the same."""
    entry = store.get(key)
    if entry is None or entry[0] != want:
        entry = store[key] = (want, build())
    return entry[1]


def finite_history(t: Trainer) -> pd.DataFrame:
    """The trainer's history as a frame (its `keys`: epoch, train_loss, test_loss and train_acc,
    test_acc, or train_r2, test_r2, train_mae, test_mae for values).

    Rows with a non-finite train number are dropped (a chart never draws one); without test points
    (a tiny own CSV) the test columns are all NaN and have no line.
    """
    frame = pd.DataFrame(t.history).astype(float)
    second = "train_acc" if "train_acc" in frame else "train_mae"
    keep = np.isfinite(frame[["epoch", "train_loss", second]].to_numpy()).all(axis=1)
    return frame[keep]


# --- share --------------------------------------------------------------------------------------
def apply_link_weights(run: Run, raw: str | None) -> str | None:
    """Load the link's weights text once per distinct text; a one-line reason if refused."""
    if not raw or st.session_state.get(WEIGHTS_SEEN) == raw:
        return None
    st.session_state[WEIGHTS_SEEN] = raw
    try:
        run.trainer.load_weights(raw)
    except (ValueError, TypeError, KeyError, IndexError) as err:
        return str(err).splitlines()[0] if str(err) else "the weights could not be read"
    run.loaded = "Weights loaded from the link: the boundary is the shared, trained network."
    return None


IMPORT = "trainer_import"     # {"name", "d", "cfg", "set"}: a checked weights file waiting to be loaded
IMPORT_SLOT = "trainer_import_slot"   # the weights uploader's key suffix: a new one empties it


def load_file(run: Run, spec: Spec, name: str, d: dict, cfg) -> str:
    """Continue the run from a checked file's weights (the page's settings already follow it).

    Returns one line for the page: where the weights came from and what still differs from the file.
    """
    t = Trainer.from_dict(d, run.data.Ftr, run.data.ytr, run.data.Fte, run.data.yte, head=spec.head)
    differs = []
    now = spec.hparams()
    for key in keys(keeps=True):
        if getattr(cfg, key) != now[key]:
            differs.append(f"{key} {getattr(cfg, key)} in the file, {now[key]} here")
    if tuple(cfg.hidden) != tuple(spec.hidden):
        raise ValueError("the page's layers do not match the file's")
    if differs:
        t.set_hparams(**now)
    if cfg.seed != spec.seed:
        differs.append(f"seed {cfg.seed} in the file, {spec.seed} here")
    run.trainer, run.hparams = t, spec.hparams()
    run.twin, run.twin_cfg = None, {}
    if spec.twin:
        run.twin_cfg = spec.twin_config()
        run.twin = t.twin(**run.twin_cfg)
        catch_up(run)
    from classroom.text import plain

    run.loaded = (f"Weights loaded from {plain(name[:80])} at epoch {t.epoch:,}: training continues from "
                  "them."
                  + (" Differs from the file: " + "; ".join(differs) + "." if differs else ""))
    return run.loaded


def n_params(run: Run) -> int:
    return int(run.trainer.flat.size)


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

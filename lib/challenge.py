"""A class challenge's hidden test points and the server's scoring of a submitted network.

The test points come from the same generator as the trainer's data (lib.datasets.make_problem), with a
seed the server keeps (store: `test_seed`), so they follow the challenge's pattern but are not the
points a student trains on. They split into a public half, whose score a student sees at once, and a
private half, shown when the teacher reveals it: tuning to the public half does not pay (Kaggle's way).

The score is accuracy for classes (two or k) and R² for values, on the network as submitted
(lib.train's export format, checked by lib.train.check_export before anything is computed).
"""

from __future__ import annotations

import math

import numpy as np

from lib.activations import ACTIVATIONS
from lib.datasets import PROBLEMS, make_problem
from lib.features import expand
from lib.mlp import predict_proba
from lib.optim import OPTIMIZERS
from lib.settings import BY_KEY, keys
from lib.train import (
    FILE_LAYERS,
    FILE_UNITS,
    MAX_BATCH,
    MAX_EPOCH,
    MAX_FILE_PARAMS,
    MAX_PENALTY,
    MAX_RATE,
    r_squared,
    read_export,
)

N_HIDDEN = 400          # hidden test points per challenge: 200 public, 200 private
PROBLEM_KEYS = ("problem", "dataset", "k", "n", "noise", "cells", "seed", "feat")
# The class's data when the teacher brings no trainer view of their own (a challenge started on /class, a
# lesson's challenge step): the trainer's first data (lib.settings), with a little noise.
DEFAULT_PROBLEM = {**{k: BY_KEY[k].default for k in PROBLEM_KEYS}, "noise": 0.1,
                   "feat": list(BY_KEY["feat"].default)}
# A value network's score is kept at or above this R²: below it a network is worse than guessing the mean by
# as much again, and the board's chart ends there (an R² of -1e30 is a number, but not one to keep).
R2_FLOOR = -1.0


def points(problem: dict, n: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """`n` points of the challenge's pattern drawn with `seed` (lib.datasets.make_problem)."""
    return make_problem(problem["problem"], problem["dataset"], int(n),
                        noise=float(problem.get("noise", 0.0)), seed=int(seed), k=int(problem.get("k", 3)),
                        cells=problem.get("cells"))


def hidden_points(problem: dict, test_seed: int, n: int = N_HIDDEN) -> tuple[np.ndarray, np.ndarray]:
    """The challenge's test points: (X (n, 2) or (n, 1), y (n,)), from its pattern and the server's seed."""
    return points(problem, n, test_seed)


def network_of(network: dict, head: str, n_in: int):
    """A submitted network checked (lib.train.check_export's checks): (its layers [(W, b)], its config)."""
    d, cfg = read_export(network, head=head, n_in=n_in)
    return [(np.asarray(layer["W"], dtype=float), np.asarray(layer["b"], dtype=float))
            for layer in d["layers"]], cfg


def public_half(n: int, test_seed: int) -> np.ndarray:
    """Which test points are public: a fixed half (bool (n,)), chosen by the server's seed."""
    order = np.random.default_rng([int(test_seed), 1]).permutation(n)
    mask = np.zeros(n, dtype=bool)
    mask[order[: n // 2]] = True
    return mask


def score_of(head: str, pred: np.ndarray, y: np.ndarray) -> float:
    """Accuracy (classes) or R² (values) of predictions `pred` against `y`.

    pred : P(class 1) (n,) for two classes, P (n, k) for k classes, values (n,) for a linear head.
    """
    if head == "linear":
        if not np.isfinite(pred).all():   # a diverged network: the floor, never the mean's 0
            return R2_FLOOR
        r2 = r_squared(pred, y)
        return float(min(1.0, max(R2_FLOOR, r2))) if np.isfinite(r2) else 0.0   # R2_FLOOR to 1; y flat: 0
    guess = pred.argmax(axis=1) if pred.ndim == 2 else (pred > 0.5).astype(int)
    return float(np.mean(guess == np.asarray(y).astype(int))) if len(y) else 0.0   # 0 to 1


def _predict(network: dict, problem: dict, X: np.ndarray):
    """The network's answers on points X of the challenge: (pred, n_params, head); ValueError (one line a
    student can act on) when it does not fit the challenge or diverged."""
    head = PROBLEMS[problem["problem"]].head
    F = expand(X, list(problem.get("feat") or ("x1", "x2")))
    params, cfg = network_of(network, head, F.shape[1])
    if head == "softmax" and cfg.classes != int(problem.get("k", 3)):
        raise ValueError(f"this network tells {cfg.classes} classes apart; the challenge has "
                         f"{problem.get('k')}")
    with np.errstate(all="ignore"):
        pred = np.asarray(predict_proba(params, F, cfg.act, head))
    if not np.isfinite(pred).all():
        raise ValueError("the network's answers are not all finite numbers (it diverged): reset and "
                         "train again")
    return pred, int(sum(W.size + b.size for W, b in params)), head


def evaluate(network: dict, problem: dict, test_seed: int) -> tuple[float, float, int]:
    """Score a submitted network on the hidden points: (public score, private score, parameters).

    ValueError (one line a student can act on) when the network does not fit the challenge: another
    problem type, other input features, a malformed or non-finite file."""
    X, y = hidden_points(problem, test_seed)
    pred, n_params, head = _predict(network, problem, X)
    public = public_half(len(y), test_seed)
    scores = score_of(head, pred[public], y[public]), score_of(head, pred[~public], y[~public])
    # What is kept is bounded whatever the network: scores in their range, a size a file may have.
    return *(_in_range(v, head) for v in scores), min(int(n_params), MAX_FILE_PARAMS)


def _in_range(score: float, head: str) -> float:
    lo = R2_FLOOR if head == "linear" else 0.0
    return float(min(1.0, max(lo, score))) if math.isfinite(score) else lo


# --- a submission's settings, kept beside it and read back by the board -------------------------------------
SETTINGS = (*keys(file=True), "epoch")   # the trainer's network settings (lib.settings) and the epoch


def settings(cfg, epoch: int) -> dict:
    """A submission's settings as the class keeps them (lib.train's TrainConfig and the epoch), every value
    of a plain type and bounded as a weights file's are (an epoch past MAX_EPOCH is kept as MAX_EPOCH)."""
    return {"hidden": [int(u) for u in cfg.hidden], "act": str(cfg.act), "opt": str(cfg.opt),
            "lr": float(cfg.lr), "batch": int(cfg.batch), "l1": float(cfg.l1), "l2": float(cfg.l2),
            "epoch": min(max(int(epoch), 0), MAX_EPOCH)}


def _count(v, lo: int, hi: int) -> bool:
    return isinstance(v, int) and not isinstance(v, bool) and lo <= v <= hi


def _number(v, lo: float, hi: float) -> bool:
    return (isinstance(v, int | float) and not isinstance(v, bool) and math.isfinite(v) and lo <= v <= hi)


_CHECKS = {
    "hidden": lambda v: isinstance(v, list) and len(v) <= FILE_LAYERS and all(_count(u, 1, FILE_UNITS)
                                                                                for u in v),
    "act": lambda v: isinstance(v, str) and v in ACTIVATIONS,
    "opt": lambda v: isinstance(v, str) and v in OPTIMIZERS,
    "lr": lambda v: _number(v, 0.0, MAX_RATE),
    "batch": lambda v: _count(v, 0, MAX_BATCH),
    "l1": lambda v: _number(v, 0.0, MAX_PENALTY),
    "l2": lambda v: _number(v, 0.0, MAX_PENALTY),
    "epoch": lambda v: _count(v, 0, MAX_EPOCH),
}


def read_submission(public, private, n_params, spec, head: str) -> tuple[float, float | None, int, dict]:
    """A stored submission as the board may draw it: (public, private, parameters, settings), each of a plain
    type and in range, the settings only SETTINGS (a missing one is left out). ValueError when any of it is
    not what Submit keeps: a score that is not a finite number, a size that is not a whole number a file may
    have, settings that are not a JSON object or hold a value out of range (an epoch of 2**63, an
    unknown bend). The board shows such a row as unreadable instead of failing on it."""
    lo = R2_FLOOR if head == "linear" else 0.0
    scores = []
    for v in (public, private):
        if v is None and scores:   # the private score before the teacher reveals it
            scores.append(None)
            continue
        if not _number(v, -math.inf, math.inf):
            raise ValueError("a score is not a finite number")
        scores.append(min(1.0, max(lo, float(v))))
    if not _count(n_params, 0, MAX_FILE_PARAMS):
        raise ValueError("the size is not a whole number of parameters")
    if not isinstance(spec, dict):
        raise ValueError("the settings are not readable")
    for key, ok in _CHECKS.items():
        if key in spec and not ok(spec[key]):
            raise ValueError(f"the setting {key} is out of range")
    return scores[0], scores[1], n_params, {k: spec[k] for k in SETTINGS if k in spec}


def public_mistakes(network: dict, problem: dict, test_seed: int
                    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For a snapshot on the projector: the public half of the test points and which of them the network
    gets wrong, (X (m, d), y (m,), wrong bool (m,)). The private half, which decides the final ranks,
    is never drawn. Values have no 'wrong': all False."""
    X, y = hidden_points(problem, test_seed)
    public = public_half(len(y), test_seed)
    X, y = X[public], y[public]
    pred, _, head = _predict(network, problem, X)
    if head == "linear":
        return X, y, np.zeros(len(y), dtype=bool)
    guess = pred.argmax(axis=1) if pred.ndim == 2 else (pred > 0.5).astype(int)
    return X, y, guess != np.asarray(y).astype(int)


def decision_map(network: dict, problem: dict, res: int = 48) -> tuple[np.ndarray, float] | None:
    """A submitted network's picture over the plane, for the class gallery: (shade (res, res) in [0, 1],
    the square's half-width), shaded as the trainer shades it (P(class 1), lib.maps.class_shade for k
    classes, lib.maps.value_shade for values). None for a curve (one input: no plane to draw)."""
    from lib.datasets import dims
    from lib.maps import (
        class_map,
        class_shade,
        limit_for,
        probability_map,
        value_map,
        value_shade,
        value_span,
    )

    kind = problem["problem"]
    if dims(kind, problem["dataset"]) == 1:
        return None
    head = PROBLEMS[kind].head
    feat = list(problem.get("feat") or ("x1", "x2"))
    params, cfg = network_of(network, head, len(feat))
    X, y = points(problem, problem.get("n", 400), problem.get("seed", 0))   # the class's own data
    limit = limit_for(X)
    if head == "softmax":
        shade = class_shade(class_map(params, feat, limit, cfg.act, res))
    elif head == "linear":
        shade = value_shade(value_map(params, feat, limit, cfg.act, res), value_span(y))
    else:
        shade = probability_map(params, feat, limit, cfg.act, res)
    return np.nan_to_num(np.asarray(shade, dtype=np.float32), nan=0.5), limit

"""A class challenge's hidden test points and the server's scoring of a submitted network.

The test points come from the same generator as the trainer's data (lib.datasets.make_problem), with a
seed the server keeps (store: `test_seed`), so they follow the challenge's pattern but are not the
points a student trains on. They split into a public half, whose score a student sees at once, and a
private half, shown when the teacher reveals it: tuning to the public half does not pay (Kaggle's way).

The score is accuracy for classes (two or k) and R² for values, on the network as submitted
(lib.train's export format, checked by lib.train.check_export before anything is computed).
"""

from __future__ import annotations

import numpy as np

from lib.datasets import PROBLEMS, make_problem
from lib.features import expand
from lib.mlp import predict_proba
from lib.train import _read_export, r_squared

N_HIDDEN = 400          # hidden test points per challenge: 200 public, 200 private
PROBLEM_KEYS = ("problem", "dataset", "k", "n", "noise", "cells", "seed", "feat")


def hidden_points(problem: dict, test_seed: int, n: int = N_HIDDEN) -> tuple[np.ndarray, np.ndarray]:
    """The challenge's test points: (X (n, 2) or (n, 1), y (n,)), from its pattern and the server's seed."""
    kind = problem["problem"]
    return make_problem(kind, problem["dataset"], n, noise=float(problem.get("noise", 0.0)),
                        seed=int(test_seed), k=int(problem.get("k", 3)), cells=problem.get("cells"))


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
        r2 = r_squared(pred, y)
        return float(r2) if np.isfinite(r2) else 0.0
    guess = pred.argmax(axis=1) if pred.ndim == 2 else (pred > 0.5).astype(int)
    return float(np.mean(guess == np.asarray(y).astype(int))) if len(y) else 0.0


def evaluate(network: dict, problem: dict, test_seed: int) -> tuple[float, float, int]:
    """Score a submitted network on the hidden points: (public score, private score, parameters).

    ValueError (one line a student can act on) when the network does not fit the challenge: another
    problem type, other input features, a malformed or non-finite file."""
    head = PROBLEMS[problem["problem"]].head
    feat = list(problem.get("feat") or ("x1", "x2"))
    X, y = hidden_points(problem, test_seed)
    F = expand(X, feat)
    d, cfg = _read_export(network, head=head, n_in=F.shape[1])
    if head == "softmax" and cfg.classes != int(problem.get("k", 3)):
        raise ValueError(f"this network tells {cfg.classes} classes apart; the challenge has "
                         f"{problem.get('k')}")
    params = [(np.asarray(layer["W"], dtype=float), np.asarray(layer["b"], dtype=float))
              for layer in d["layers"]]
    with np.errstate(all="ignore"):
        pred = np.asarray(predict_proba(params, F, cfg.act, head))
    if not np.isfinite(pred).all():
        raise ValueError("the network's answers are not all finite numbers (it diverged): reset and "
                         "train again")
    public = public_half(len(y), test_seed)
    n_params = int(sum(W.size + b.size for W, b in params))
    return score_of(head, pred[public], y[public]), score_of(head, pred[~public], y[~public]), n_params

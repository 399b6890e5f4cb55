"""Extra input features, as in TensorFlow Playground: x1², x2², x1·x2, sin x1, sin x2.

A hand-made feature lets a network without bends draw a curve (x1² + x2² is a circle);
the trainer offers them so students can compare "engineer the feature" with "learn it".
A curve fit (lib.datasets, regress) has the one input x = x1: only the features whose
``inputs`` is 1 apply to it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Feature:
    name: str                                  # key in FEATURES and the URL value
    label: str                                 # what a chart or a menu shows
    fn: Callable[[np.ndarray], np.ndarray]     # X (n, 2) -> (n,)
    inputs: int = 2                            # input columns it reads: 1 = x1 only (fits a curve too)


FEATURES: dict[str, Feature] = {
    f.name: f
    for f in (
        Feature("x1", "x₁", lambda X: X[:, 0], 1),
        Feature("x2", "x₂", lambda X: X[:, 1]),
        Feature("x1sq", "x₁²", lambda X: X[:, 0] ** 2, 1),
        Feature("x2sq", "x₂²", lambda X: X[:, 1] ** 2),
        Feature("x1x2", "x₁x₂", lambda X: X[:, 0] * X[:, 1]),
        Feature("sin1", "sin x₁", lambda X: np.sin(X[:, 0]), 1),
        Feature("sin2", "sin x₂", lambda X: np.sin(X[:, 1])),
    )
}


def expand(X, names):
    """The chosen features of each point, one column per name in the order given.

    Parameters
    ----------
    X : ndarray of shape (n, 2), or (n, 1) for a curve (then only features with inputs == 1)
    names : sequence of str, keys of FEATURES

    Returns
    -------
    ndarray of shape (n, len(names)), float64
    """
    X = np.asarray(X, dtype=float)
    unknown = [k for k in names if k not in FEATURES]
    if unknown:
        raise ValueError(f"unknown feature {unknown[0]!r}; choose from {', '.join(FEATURES)}")
    if not names:
        raise ValueError("choose at least one input feature")
    wide = [k for k in names if FEATURES[k].inputs > X.shape[-1]]
    if wide:
        raise ValueError(f"these points have only x₁; {FEATURES[wide[0]].label} needs x₂")
    return np.column_stack([FEATURES[k].fn(X) for k in names]).astype(float)  # (n, len(names))

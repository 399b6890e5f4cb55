"""Any curve from ReLUs: a least-squares fit of c + sum_j w_j ReLU(x - t_j) to a target.

One hidden layer of ReLU units on a one-number input computes exactly such a sum: unit j
with input weight a_j > 0 and bias b_j is a_j ReLU(x - t_j) with its knot at t_j = -b_j / a_j
(a unit facing left, a_j < 0, is a right-facing ramp plus a straight line, which the sum
can also make). With the knots fixed, the output weights w and bias c are a linear least-
squares problem, solved exactly. Learning the knots too is what training a network does;
here scipy moves the knots and the weights are re-solved exactly at every step.

The first knot sits at the left end of the range, so that ramp is the straight-line part.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy.optimize import least_squares


@dataclass(frozen=True)
class Target:
    name: str                                 # key in TARGETS and in links
    label: str                                # what a menu or legend shows
    fn: Callable[[np.ndarray], np.ndarray]    # the curve, elementwise
    note: str                                 # what makes it easy or hard for ramps


LO, HI = -3.0, 3.0  # every target is fitted on this range


TARGETS: dict[str, Target] = {t.name: t for t in (
    Target("sin", "sin(2x)", lambda x: np.sin(2.0 * x),
           "smooth but wiggly: every bend needs a few ramps."),
    Target("abs", "|x|", np.abs,
           "one kink: two ramps are exact once a knot lands on 0."),
    Target("square", "x²/3", lambda x: x * x / 3.0,
           "curving everywhere: the error shrinks about four-fold per doubling of units."),
    Target("step", "step at 0", lambda x: (x > 0).astype(float),
           "a jump: ramps are continuous, so near the jump they can only get steep."),
    Target("bump", "bump", lambda x: np.exp(-2.0 * x * x),
           "flat, then a hill: knots spent on the flat tails are wasted."),
)}


@dataclass(frozen=True)
class ReluFit:
    knots: np.ndarray     # (k,) where each ramp starts
    weights: np.ndarray   # (k,) slope added at each knot
    bias: float           # the constant c
    x: np.ndarray         # (n,) where the fit was made
    y: np.ndarray         # (n,) the target there
    y_hat: np.ndarray     # (n,) the fitted sum of ramps

    @property
    def ramps(self) -> np.ndarray:
        """Each unit's contribution w_j ReLU(x - t_j), (n, k); bias + their sum is y_hat."""
        return self.weights * np.maximum(self.x[:, None] - self.knots, 0.0)  # (n, k)

    def outline(self) -> tuple[np.ndarray, np.ndarray]:
        """The fitted sum at its breakpoints (the ends and every knot inside): a sum of ramps is
        straight between knots, so these points draw it exactly. Shapes (m,), (m,)."""
        lo, hi = float(self.x[0]), float(self.x[-1])
        xs = np.unique(np.concatenate([[lo, hi], self.knots[(self.knots > lo) & (self.knots < hi)]]))  # (m,)
        return xs, relu_sum(xs, self.knots, self.weights, self.bias)

    def ramp_path(self) -> tuple[np.ndarray, np.ndarray]:
        """Every ramp w_j ReLU(x - t_j) as one unbroken path: along 0 to each knot, up (or down) the
        ramp to the right end and back. Shapes (2 + 3k,), (2 + 3k,)."""
        lo, hi = float(self.x[0]), float(self.x[-1])
        ends = self.weights * np.maximum(hi - self.knots, 0.0)   # (k,) each ramp's value at the right end
        xs = np.column_stack([self.knots, np.full_like(self.knots, hi), self.knots]).ravel()  # (3k,)
        ys = np.column_stack([np.zeros_like(ends), ends, np.zeros_like(ends)]).ravel()       # (3k,)
        return np.concatenate([[lo], xs, [hi]]), np.concatenate([[0.0], ys, [0.0]])

    @property
    def rmse(self) -> float:
        return float(np.sqrt(np.mean((self.y_hat - self.y) ** 2)))

    @property
    def max_error(self) -> float:
        return float(np.max(np.abs(self.y_hat - self.y)))


def relu_features(x, knots) -> np.ndarray:
    """The design matrix [1, ReLU(x - t_1), ..., ReLU(x - t_k)], shape (n, k + 1)."""
    x = np.asarray(x, dtype=float)                                # (n,)
    ramp = np.maximum(x[:, None] - np.asarray(knots, dtype=float), 0.0)  # (n, k)
    return np.hstack([np.ones((x.size, 1)), ramp])              # (n, k + 1)


def relu_sum(x, knots, weights, bias: float) -> np.ndarray:
    """The forward: c + sum_j w_j ReLU(x - t_j), shape (n,)."""
    return relu_features(x, knots) @ np.concatenate([[bias], weights])  # (n,)


def relu_sum_slope(x, knots, weights) -> np.ndarray:
    """Its derivative in x: sum_j w_j [x > t_j], a step function, shape (n,)."""
    x = np.asarray(x, dtype=float)
    return (x[:, None] > np.asarray(knots, dtype=float)) @ np.asarray(weights, dtype=float)  # (n,)


def fit_relus(x, y, knots) -> ReluFit:
    """Least-squares weights and bias for fixed knots (exact: one lstsq solve)."""
    x, y = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    knots = np.sort(np.asarray(knots, dtype=float))
    F = relu_features(x, knots)                                   # (n, k + 1)
    coef, *_ = np.linalg.lstsq(F, y, rcond=None)                  # (k + 1,)
    return ReluFit(knots, coef[1:], float(coef[0]), x, y, F @ coef)


def even_knots(units: int, lo: float = LO, hi: float = HI) -> np.ndarray:
    """`units` knots evenly spaced from lo (included) towards hi (excluded), shape (units,)."""
    if units < 1:
        raise ValueError("at least one unit")
    return lo + (hi - lo) * np.arange(units) / units              # (units,)


def learn_knots(x, y, units: int, lo: float = LO, hi: float = HI) -> ReluFit:
    """Move the knots to lower the squared error, re-solving the weights exactly at each step.

    Starts from the even knots (the first one stays at lo, so the straight-line part is
    always there) and never returns a fit worse than that start.
    """
    x, y = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    start = fit_relus(x, y, even_knots(units, lo, hi))
    if units == 1:
        return start

    def residual(inner):                                          # inner: (units - 1,)
        return fit_relus(x, y, np.concatenate([[lo], inner])).y_hat - y  # (n,)

    sol = least_squares(residual, start.knots[1:], bounds=(lo, hi), diff_step=1e-3,
                        max_nfev=20, x_scale=(hi - lo) / units)  # 20 steps: nearly all the gain, bounded time
    learned = fit_relus(x, y, np.concatenate([[lo], sol.x]))
    return learned if learned.rmse <= start.rmse else start


KNOT_MODES = {"even": "evenly spaced, fixed", "learned": "moved to fit"}


def fit_target(name: str, units: int, mode: str = "even", n: int = 601) -> ReluFit:
    """Fit TARGETS[name] on [LO, HI] with `units` ramps; mode is a KNOT_MODES key."""
    x = np.linspace(LO, HI, n)                                    # (n,)
    y = TARGETS[name].fn(x)                                       # (n,)
    if mode == "learned":
        return learn_knots(x, y, units)
    if mode != "even":
        raise ValueError(f"unknown knot mode {mode!r}")
    return fit_relus(x, y, even_knots(units))


def error_table(name: str, unit_counts, mode: str = "even") -> pd.DataFrame:
    """RMSE and largest error of the fit for each unit count: columns units, rmse, max_error."""
    rows = []
    for k in unit_counts:
        fit = fit_target(name, int(k), mode)
        rows.append({"units": int(k), "rmse": fit.rmse, "max_error": fit.max_error})
    return pd.DataFrame(rows, columns=["units", "rmse", "max_error"])


def _one_blas_thread():
    """A context in which BLAS/LAPACK use one thread, where threadpoolctl is installed.

    Learning knots is hundreds of tiny least-squares solves (601 x 21 at most); OpenBLAS splits
    each over every core, and on a busy machine the threads wait on each other: the learned table
    for 20 units took 2 s of CPU with two BLAS threads and 0.1 s with one.
    """
    try:
        from threadpoolctl import threadpool_limits
    except ImportError:  # pragma: no cover - runs as before, only slower on a busy machine
        return contextlib.nullcontext()
    return threadpool_limits(1)


def fit_table(name: str, mode: str = "even", max_units: int = 20) -> tuple[ReluFit, ...]:
    """Fits of TARGETS[name] with 1 .. max_units ramps, in order: entry k - 1 uses k ramps.

    One call makes the whole error curve, so a page can cache it once per target and answer a
    change of the number of ramps with a lookup.
    """
    with _one_blas_thread():
        return tuple(fit_target(name, k, mode) for k in range(1, max_units + 1))

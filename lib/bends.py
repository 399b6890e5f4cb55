"""The bends lesson's numbers: curves, a two-layer network beside its collapse, one input followed.

Everything /activations shows is computed here (pure NumPy, on top of lib.activations and
lib.layers), so the page only draws: the gallery's curves, the network's line and the single
layer it would collapse to, where each hidden unit bends, the one input x pushed through both,
how far GELU's tanh approximation strays from the exact curve, and SwiGLU on one number.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np

from lib.activations import ACTIVATIONS, Activation
from lib.layers import collapse, largest_gap, linear, swiglu, two_layer

INPUTS = (-3.0, 3.0)       # the network's inputs drawn, and the range of the x to follow
GELU_SPAN = (-6.0, 6.0)    # where GELU exact and its tanh approximation are compared
SWIGLU_SPAN = (-4.0, 4.0)  # SwiGLU's inputs drawn


def curves(names: Iterable[str], xmax: float, *, n: int = 401,
           slopes: bool = False) -> tuple[np.ndarray, dict[str, tuple[np.ndarray, np.ndarray | None]]]:
    """Each named bend over [-xmax, xmax]: x (n,), and per name (f(x) (n,), f'(x) (n,) or None)."""
    x = np.linspace(-xmax, xmax, n)  # (n,)
    out = {}
    for name in names:
        act = ACTIVATIONS[name]
        out[name] = (act.fn(x), act.grad(x) if slopes else None)
    return x, out


def kinks(W1, b1, span: tuple[float, float] = INPUTS) -> np.ndarray:
    """Where each hidden unit's sum z_j = x W1[0, j] + b1[j] crosses zero, inside `span`, sorted.

    W1 (1, n_hid) and b1 (n_hid,): one input. A unit with a zero weight never crosses (its sum is
    the same for every x), so it adds no bend.
    """
    w = np.asarray(W1, dtype=float).reshape(-1)  # (n_hid,)
    b = np.asarray(b1, dtype=float).reshape(-1)  # (n_hid,)
    live = w != 0
    xs = -b[live] / w[live]
    return np.sort(xs[(xs >= span[0]) & (xs <= span[1])])


@dataclass(frozen=True)
class Depth:
    """A one-input network y = f(x W1 + b1) W2 + b2 beside the single layer y = x W + b it
    collapses to without its bend."""

    x: np.ndarray      # (n,) inputs
    net: np.ndarray    # (n,) the network's output
    one: np.ndarray    # (n,) the collapsed single layer's output
    W: np.ndarray      # (1, 1) W1 W2
    b: np.ndarray      # (1,) b1 W2 + b2
    gap: float         # largest |net - one| over x
    where: float       # the x where it is
    kinks: np.ndarray  # (k,) where a hidden unit's sum crosses zero (sorted)
    kink_y: np.ndarray  # (k,) the network's output there
    units: int         # hidden units


def depth(W1, b1, W2, b2, act: Activation, *, n: int = 601, span: tuple[float, float] = INPUTS) -> Depth:
    """The network and its collapse over `span`; W1 (1, n_hid), b1 (n_hid,), W2 (n_hid, 1), b2 (1,)."""
    grid = np.linspace(span[0], span[1], n)[:, None]   # (n, 1)
    _, _, y_net = two_layer(grid, W1, b1, W2, b2, act)  # (n, 1)
    W, b = collapse(W1, b1, W2, b2)                     # (1, 1), (1,)
    y_one = linear(grid, W, b)                          # (n, 1)
    gap, where = largest_gap(grid[:, 0], y_net[:, 0], y_one[:, 0])
    at = kinks(W1, b1, span)                            # (k,)
    _, _, y_at = two_layer(at[:, None], W1, b1, W2, b2, act)  # (k, 1)
    return Depth(grid[:, 0], y_net[:, 0], y_one[:, 0], W, b, gap, where, at, y_at[:, 0],
                 int(np.shape(W1)[1]))


def collapses(d: Depth) -> bool:
    """Is the network the single layer it would collapse to, for every input drawn (to rounding)? Always
    without a bend; with one, when no unit's sum crosses zero where it is live (each stays on)."""
    scale = max(1.0, float(np.abs(d.net).max()), float(np.abs(d.one).max()))
    return d.gap <= 1e-9 * scale


@dataclass(frozen=True)
class Followed:
    """One input x through the network (z, h, y) and through the collapsed layer (W, b, y_one)."""

    x: float
    z: np.ndarray   # (n_hid,) hidden sums x W1 + b1
    h: np.ndarray   # (n_hid,) after the bend, f(z)
    y: float        # h W2 + b2
    W: np.ndarray   # (1, 1)
    b: np.ndarray   # (1,)
    y_one: float    # x W + b


def follow(x: float, W1, b1, W2, b2, act: Activation) -> Followed:
    """Push one number through both versions, every step kept."""
    xs = np.array([[float(x)]])                       # (1, 1)
    z, h, y = two_layer(xs, W1, b1, W2, b2, act)      # (1, n_hid), (1, n_hid), (1, 1)
    W, b = collapse(W1, b1, W2, b2)                   # (1, 1), (1,)
    return Followed(float(x), z[0], h[0], float(y[0, 0]), W, b, float(linear(xs, W, b)[0, 0]))


@dataclass(frozen=True)
class Gap:
    """Two bends compared over a span: their difference and where it is largest."""

    x: np.ndarray     # (n,)
    diff: np.ndarray  # (n,) first minus second
    gap: float        # largest |diff|
    where: float      # the x where it is
    decade: int       # the power of ten of the gap: diff / 10**decade is of order 1 (for an axis)


def approximation_gap(first: str, second: str, *, n: int = 2401,
                      span: tuple[float, float] = GELU_SPAN) -> Gap:
    """How far bend `second` strays from bend `first` (GELU exact and its tanh approximation)."""
    x = np.linspace(span[0], span[1], n)  # (n,)
    a, b = ACTIVATIONS[first].fn(x), ACTIVATIONS[second].fn(x)
    gap, where = largest_gap(x, a, b)
    return Gap(x, a - b, gap, where, decade(gap))


def decade(v: float) -> int:
    """The power of ten of |v| (0 for 0): decade(4.7e-4) == -4."""
    v = abs(float(v))
    return 0 if v == 0 or not math.isfinite(v) else math.floor(math.log10(v))


def swiglu_curves(w_gate: float, w_up: float, *, n: int = 401,
                  span: tuple[float, float] = SWIGLU_SPAN) -> tuple[np.ndarray, ...]:
    """SwiGLU on one number with W_down = 1: x (n,), SiLU(x w_gate) (n,), x w_up (n,), product (n,)."""
    x = np.linspace(span[0], span[1], n)[:, None]  # (n, 1)
    gate, up, out = swiglu(x, [[w_gate]], [[w_up]], [[1.0]])
    return x[:, 0], gate[:, 0], up[:, 0], out[:, 0]

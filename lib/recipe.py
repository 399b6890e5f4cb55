"""The recipe-card layer (seed 000) and the mini network (seed 002), as plain arrays.

A layer is y = xW + b. Everything here feeds /recipe-card: the starting numbers, the
terms of each dot product, the split of an output into its input part and its bias, a batch
of tokens, and the 3 -> 2 -> 1 network with its squared error (value beside derivative).
"""

from __future__ import annotations

import numpy as np

from lib.activations import ACTIVATIONS
from lib.layers import linear

MAX_SIZE = 8  # the largest n_in / n_out the page offers

# Seed 000's recipe card: 3 fruits -> 2 smoothies.
SEED_X = np.array([1.0, 0.5, -1.0])                           # (3,)
SEED_W = np.array([[0.8, -0.5], [0.3, 0.9], [-0.6, 0.4]])     # (3, 2): column j is smoothie j
SEED_B = np.array([0.1, -0.2])                                # (2,)

# Seed 002's mini network: x (3,) -> 2 neurons (ReLU) -> 1 neuron (ReLU).
MINI_X = np.array([1.0, 2.0, 3.0])                            # (3,)
MINI_W1 = np.array([[0.5, -1.0], [-1.0, 0.0], [0.5, -0.5]])   # (3, 2): w(input, neuron)
MINI_B1 = np.array([0.1, 0.0])                                # (2,)
MINI_W2 = np.array([[1.0], [2.0]])                            # (2, 1)
MINI_B2 = np.array([0.0])                                     # (1,)


def _tenths(rng: np.random.Generator, shape, lo: float = -1.0, hi: float = 1.0) -> np.ndarray:
    """Uniform numbers rounded to 0.1, so they sit exactly on a slider's steps."""
    return np.round(rng.uniform(lo, hi, size=shape), 1) + 0.0  # + 0.0 turns -0.0 into 0.0


def default_layer(n_in: int = MAX_SIZE, n_out: int = MAX_SIZE):
    """The page's starting layer: the seed example in the top-left corner, fixed random tenths
    elsewhere, so growing the layer adds inputs and neurons that already do something.

    Returns
    -------
    x : array of shape (n_in,)
    W : array of shape (n_in, n_out)
    b : array of shape (n_out,)
    """
    _check_size(n_in, n_out)
    x, W, b = _DEFAULT
    return x[:n_in].copy(), W[:n_in, :n_out].copy(), b[:n_out].copy()


def _default_8x8():
    rng = np.random.default_rng(2026)  # fixed: the defaults must not change between runs
    x = _tenths(rng, MAX_SIZE)                     # (8,)
    W = _tenths(rng, (MAX_SIZE, MAX_SIZE))         # (8, 8)
    b = _tenths(rng, MAX_SIZE, -0.5, 0.5)          # (8,)
    x[:3], W[:3, :2], b[:2] = SEED_X, SEED_W, SEED_B
    for a in (x, W, b):
        a.flags.writeable = False  # shared by every call: handed out as copies
    return x, W, b


_DEFAULT = _default_8x8()  # drawn once: a page asks for the defaults on every rerun


def init_layer(n_in: int, n_out: int, how: str, seed: int = 0):
    """A fresh layer's weights and biases: "zero" (every number 0) or "random" (uniform
    -1..1 in tenths, biases -0.5..0.5).

    Returns W (n_in, n_out) and b (n_out,).
    """
    _check_size(n_in, n_out)
    if how == "zero":
        return np.zeros((n_in, n_out)), np.zeros(n_out)
    if how == "random":
        rng = np.random.default_rng(seed)
        return _tenths(rng, (n_in, n_out)), _tenths(rng, n_out, -0.5, 0.5)
    raise ValueError(f"unknown initialisation {how!r}; use 'zero' or 'random'")


def _check_size(n_in: int, n_out: int) -> None:
    if not (1 <= n_in <= MAX_SIZE and 1 <= n_out <= MAX_SIZE):
        raise ValueError(f"sizes must be 1..{MAX_SIZE}, got {n_in} x {n_out}")


def dot_terms(x, W):
    """Every product x_i * W_ij: column j, summed, is output j's input part.

    x (n_in,), W (n_in, n_out) -> terms (n_in, n_out).
    """
    x = np.asarray(x, dtype=float)
    return x[:, None] * np.asarray(W, dtype=float)  # (n_in, n_out)


def scaled_parts(x, W, b, times: float):
    """Linearity: scale the input by `times`; the input part scales, the bias does not.

    Returns (part, bias, y): x·times·W (n_out,), b (n_out,), and their sum (n_out,).
    part equals times * (xW) exactly in exact arithmetic; that is the lesson.
    """
    part = linear(times * np.asarray(x, dtype=float), W)  # (n_out,)
    b = np.asarray(b, dtype=float)                        # (n_out,)
    return part, b, part + b


def batch_inputs(x, tokens: int, seed: int = 5):
    """A batch of `tokens` rows: row 0 is x itself, the rest fixed random tenths in -1..1.

    x (n_in,) -> X (tokens, n_in).
    """
    x = np.asarray(x, dtype=float)
    rng = np.random.default_rng(seed)
    rest = _tenths(rng, (MAX_SIZE, MAX_SIZE))[: tokens - 1, : x.size]  # (tokens - 1, n_in)
    return np.vstack([x[None, :], rest])                              # (tokens, n_in)


def mini_network(x, W1, b1, W2, b2, bend: str = "relu"):
    """Seed 002's network: y_hat = f(f(x W1 + b1) W2 + b2), the bend f after both layers.

    x (n_in,); W1 (n_in, n_hid); b1 (n_hid,); W2 (n_hid, n_out); b2 (n_out,);
    bend is a key of ACTIVATIONS ("identity" switches the bend off).

    Returns
    -------
    z1 : (n_hid,)  each hidden neuron's weighted sum plus bias
    h1 : (n_hid,)  after the bend
    z2 : (n_out,)  the output neuron's weighted sum plus bias
    y_hat : (n_out,)  after the bend
    """
    f = ACTIVATIONS[bend].fn
    z1 = linear(x, W1, b1)   # (n_hid,)
    h1 = f(z1)               # (n_hid,)
    z2 = linear(h1, W2, b2)  # (n_out,)
    return z1, h1, z2, f(z2)


def squared_error(y_hat, y):
    """The loss of seed 002, (y_hat - y)^2, elementwise."""
    return np.square(np.asarray(y_hat, dtype=float) - np.asarray(y, dtype=float))


def squared_error_grad(y_hat, y):
    """d/dy_hat of (y_hat - y)^2 = 2 (y_hat - y): which way, and how hard, training pushes y_hat."""
    return 2.0 * (np.asarray(y_hat, dtype=float) - np.asarray(y, dtype=float))

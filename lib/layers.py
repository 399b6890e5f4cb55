"""Linear layers: y = xW + b, their size, and why two of them are one."""

from __future__ import annotations

import numpy as np
from scipy.special import expit


def linear(x, W, b=None):
    """One linear layer, y = x @ W + b.

    Parameters
    ----------
    x : array of shape (n_in,) or (n, n_in)
        One row (a token's features) or a batch of rows.
    W : array of shape (n_in, n_out)
        Column j holds neuron j's weights (GPT-2's storage convention).
    b : array of shape (n_out,), optional

    Returns
    -------
    y : array of shape (n_out,) or (n, n_out)
    """
    x = np.asarray(x, dtype=float)
    W = np.asarray(W, dtype=float)
    y = x @ W  # (n, n_out) or (n_out,)
    if b is not None:
        y = y + np.asarray(b, dtype=float)  # the bias broadcasts over rows
    return y


def param_count(n_in: int, n_out: int, bias: bool = True) -> int:
    """Learned numbers in a layer: n_in * n_out weights plus n_out biases."""
    if n_in < 0 or n_out < 0:
        raise ValueError("layer sizes must be >= 0")
    return int(n_in) * int(n_out) + (int(n_out) if bias else 0)


def collapse(W1, b1, W2, b2):
    """Two stacked linear layers as one: (x W1 + b1) W2 + b2 = x (W1 W2) + (b1 W2 + b2).

    Shapes: W1 (n_in, n_hid), b1 (n_hid,), W2 (n_hid, n_out), b2 (n_out,).
    Returns W (n_in, n_out) and b (n_out,).
    """
    W1, b1, W2, b2 = (np.asarray(a, dtype=float) for a in (W1, b1, W2, b2))
    return W1 @ W2, b1 @ W2 + b2


def two_layer(x, W1, b1, W2, b2, act):
    """Linear, bend, linear: the smallest network where depth can matter.

    x (n, n_in); W1 (n_in, n_hid); W2 (n_hid, n_out); act is an Activation.
    Returns (z, h, y): the hidden sums before the bend (n, n_hid), after it (n, n_hid),
    and the output (n, n_out).
    """
    z = linear(x, W1, b1)       # (n, n_hid)
    h = act.fn(z)               # (n, n_hid)
    return z, h, linear(h, W2, b2)  # y: (n, n_out)


def swiglu(x, W_gate, W_up, W_down):
    """Llama's MLP: a SiLU-gated branch times a linear branch, then a projection down.

    x (n, d); W_gate, W_up (d, d_ff); W_down (d_ff, d). No biases, as in Llama.
    Returns (gate, up, y): SiLU(x W_gate) (n, d_ff), x W_up (n, d_ff), output (n, d).
    """
    x = np.asarray(x, dtype=float)
    a = x @ np.asarray(W_gate, dtype=float)     # (n, d_ff)
    gate = a * expit(a)                         # SiLU(a) = a * sigmoid(a)
    up = x @ np.asarray(W_up, dtype=float)      # (n, d_ff)
    return gate, up, (gate * up) @ np.asarray(W_down, dtype=float)  # y: (n, d)


def largest_gap(x, a, b):
    """Where two curves sampled at the same x differ most: (max |a - b|, the x where it is)."""
    gap = np.abs(np.asarray(a, dtype=float) - np.asarray(b, dtype=float))
    i = int(np.argmax(gap))
    return float(gap[i]), float(np.asarray(x, dtype=float)[i])

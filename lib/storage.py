"""Two storage conventions for the same linear layer.

GPT-2's original code (a "Conv1D") stores W as (n_in, n_out) and computes x W + b.
PyTorch's nn.Linear stores `weight` as (n_out, n_in) and computes x weight^T + b.
Same numbers, transposed: porting weights between the two is one `.T`.
GPT-2's convention is lib.layers.linear itself.
"""

from __future__ import annotations

import numpy as np


def to_torch(W) -> np.ndarray:
    """GPT-2 layout (n_in, n_out) -> nn.Linear's weight (n_out, n_in)."""
    return np.asarray(W, dtype=float).T.copy()  # (n_out, n_in)


def from_torch(weight) -> np.ndarray:
    """nn.Linear's weight (n_out, n_in) -> GPT-2 layout (n_in, n_out)."""
    return np.asarray(weight, dtype=float).T.copy()  # (n_in, n_out)


def linear_torch(x, weight, bias=None):
    """y = x weight^T + bias with weight (n_out, n_in), as nn.Linear.forward computes it."""
    y = np.asarray(x, dtype=float) @ np.asarray(weight, dtype=float).T  # (n, n_out)
    return y if bias is None else y + np.asarray(bias, dtype=float)

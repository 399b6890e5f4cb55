"""The plane as a hidden layer sees it (ConvNetJS's view): a grid over the input square, pushed through
the network's first hidden layers, drawn in the outputs of two units of the last of them.

A linear layer (no bend) maps the grid affinely: it stays a grid, sheared, stretched and shifted. ReLU
sends every negative sum to 0, so the parts of the plane where a unit is off fold flat onto an axis.
The forward pass is lib.mlp's own (hidden_pre and the bend), not written again here.
"""

from __future__ import annotations

import numpy as np

from lib.features import expand
from lib.mlp import _act, hidden_pre


def grid_lines(limit: float, n_lines: int = 13, n_samples: int = 60) -> np.ndarray:
    """`n_lines` horizontal then `n_lines` vertical lines over [-limit, limit]^2, each `n_samples` points.

    Returns
    -------
    ndarray of shape (2 * n_lines, n_samples, 2): line i, its point j, (x1, x2)
    """
    at = np.linspace(-limit, limit, n_lines)                                   # (n_lines,) where each sits
    along = np.linspace(-limit, limit, n_samples)                              # (n_samples,)
    flat = np.broadcast_to(along, (n_lines, n_samples))
    fixed = np.broadcast_to(at[:, None], (n_lines, n_samples))
    horizontal = np.stack([flat, fixed], axis=-1)                              # x2 fixed per line
    vertical = np.stack([fixed, flat], axis=-1)                                # x1 fixed per line
    return np.concatenate([horizontal, vertical])


def warp(params, act, feat, points, layer: int, units: tuple[int, int]) -> np.ndarray:
    """Where `points` land after hidden layers 1..`layer`, read off two of that layer's units.

    Parameters
    ----------
    params : list of (W, b), a network with at least `layer` hidden layers
    act : str, the bend after every hidden layer
    feat : the input features (lib.features names), applied to the points first
    points : ndarray of shape (..., 2), or (..., 1) for a curve's one input
    layer : int, 1 = the first hidden layer
    units : (u, v), 1-based units of that layer: the x and y of the result

    Returns
    -------
    ndarray of shape (..., 2): (output of unit u, output of unit v) per point
    """
    hidden = len(params) - 1
    if not 1 <= layer <= hidden:
        raise ValueError(f"layer {layer}: this network has {hidden} hidden layer{'s' * (hidden != 1)}")
    width = params[layer - 1][0].shape[1]
    if any(not 1 <= u <= width for u in units):
        raise ValueError(f"layer {layer} has {width} unit{'s' * (width != 1)}")
    P = np.asarray(points, dtype=float)
    F = expand(P.reshape(-1, P.shape[-1]), list(feat))                        # (m, d)
    # hidden_pre runs every layer but the last it is given: hidden layers 1..layer, and no further.
    z = hidden_pre(params[:layer + 1], F, act)[-1]                             # (m, width)
    with np.errstate(all="ignore"):
        h = _act(act).fn(z[:, [units[0] - 1, units[1] - 1]])                     # (m, 2)
    return h.reshape(*P.shape[:-1], 2)


def on_axes(H: np.ndarray) -> tuple[float, float, float]:
    """Of the warped points H (..., 2): the share with x at 0, with y at 0, and with both (ReLU's folds)."""
    H = np.asarray(H).reshape(-1, 2)
    zero = H == 0                                                              # (m, 2)
    return float(zero[:, 0].mean()), float(zero[:, 1].mean()), float(zero.all(axis=1).mean())

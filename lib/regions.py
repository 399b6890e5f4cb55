"""Where a network is linear: the grid it is drawn on and its linear regions.

A ReLU network is piecewise linear: inside a region where the same hidden units are on
(sum > 0), every unit is either the identity or zero, so the whole network is one linear
function there. ``region_ids`` labels each point by its on/off pattern.
"""

from __future__ import annotations

import numpy as np

from lib.mlp import hidden_pre


def grid(limit, res=100):
    """A square grid over [-limit, limit]^2.

    Returns
    -------
    xs : ndarray of shape (res,)
    ys : ndarray of shape (res,)
    XY : ndarray of shape (res * res, 2)
        Row ``i * res + j`` is the point (xs[j], ys[i]), so ``values.reshape(res, res)`` is
        indexed [y, x] as a heatmap wants.
    """
    res = int(res)
    if res < 2:
        raise ValueError("a grid needs at least 2 points per side")
    xs = np.linspace(-limit, limit, res)                                       # (res,)
    ys = np.linspace(-limit, limit, res)                                       # (res,)
    gx, gy = np.meshgrid(xs, ys)                                               # (res, res) each
    return xs, ys, np.column_stack([gx.ravel(), gy.ravel()])                   # XY: (res * res, 2)


def region_ids(params, X, act):
    """Which hidden units are on at each point, as one small integer per distinct pattern.

    Parameters
    ----------
    params : list of (W, b)
    X : ndarray of shape (n, n_in)
    act : str, the bend used to compute later layers' sums

    Returns
    -------
    ids : ndarray of shape (n,), int
        Points with the same on/off pattern over all hidden units share an id; ids are
        0 .. count - 1, numbered in order of the patterns' binary codes.
    count : int
        Number of distinct patterns among the points.
    """
    X = np.asarray(X, dtype=float)
    zs = hidden_pre(params, X, act)
    if not zs:  # no hidden layer: one linear region
        return np.zeros(len(X), dtype=int), 1
    on = np.concatenate(zs, axis=1) > 0                                        # (n, units)
    # Each row's bits packed into bytes (first unit most significant) and compared as one opaque
    # value: the same order as np.unique(on, axis=0), about ten times faster (a live map redraws it).
    packed = np.ascontiguousarray(np.packbits(on, axis=1))                     # (n, ceil(units / 8))
    rows = packed.view(np.dtype((np.void, packed.shape[1]))).reshape(-1)       # (n,)
    _, ids = np.unique(rows, return_inverse=True)                              # ids: (n,)
    ids = ids.reshape(-1).astype(int)
    return ids, int(ids.max()) + 1


def line_in_box(w, b: float, box: float) -> np.ndarray | None:
    """The segment of the line x . w + b = 0 inside [-box, box]^2, as two points (2, 2).

    None when the line misses the box (or w is zero, so there is no line at all).
    """
    w = np.asarray(w, dtype=float)
    if not np.any(np.abs(w) > 1e-12):
        return None
    pts = []
    for i in (0, 1):             # where the line crosses each pair of box edges
        j = 1 - i
        if abs(w[j]) < 1e-12:
            continue
        for edge in (-box, box):
            other = -(b + w[i] * edge) / w[j]
            if -box - 1e-9 <= other <= box + 1e-9:
                p = np.empty(2)
                p[i], p[j] = edge, other
                pts.append(p)
    if len(pts) < 2:
        return None
    pts = np.array(pts)                                           # (m, 2)
    far = np.argmax(((pts[:, None] - pts[None]) ** 2).sum(-1))    # the two most distant crossings
    return pts[[far // len(pts), far % len(pts)]]                 # (2, 2)

"""Maps over the plane for the live trainer: what a network predicts, unit by unit, on a square grid.

Every map is drawn on ``lib.regions.grid(limit, res)``: values reshaped to (res, res) are indexed
[y, x], as a heatmap wants. ``names`` are the input features the network reads (lib.features),
so a map expands the grid's points the same way the training points were expanded.
"""

from __future__ import annotations

import functools

import numpy as np

from lib.datasets import DOMAIN
from lib.features import expand
from lib.mlp import collapse_params, hidden_pre, predict_proba
from lib.regions import grid, line_in_box

RES = 100        # the boundary map's grid: RES x RES predictions
UNIT_RES = 60    # unit maps, region map and the collapse check: UNIT_RES x UNIT_RES


def limit_for(X) -> float:
    """Half-width of the square drawn: the house square (1.2 x DOMAIN), grown to fit own points.

    X : ndarray of shape (n, 2)
    """
    X = np.asarray(X, dtype=float)
    lim = 1.2 * DOMAIN
    if X.size:
        lim = max(lim, 1.05 * float(np.abs(X).max()))
    return round(lim, 3)


def plane_inputs(limit: float, names, res: int = RES):
    """The grid's points as the network's inputs (made once per square, inputs and size: read-only).

    Returns
    -------
    xs : ndarray of shape (res,)
    ys : ndarray of shape (res,)
    F : ndarray of shape (res * res, len(names))
    """
    return _plane_inputs(float(limit), tuple(names), int(res))


@functools.lru_cache(maxsize=32)
def _plane_inputs(limit: float, names: tuple, res: int):
    xs, ys, XY = grid(limit, res)
    F = expand(XY, list(names))                                                # (res * res, d)
    for a in (xs, ys, F):
        a.flags.writeable = False
    return xs, ys, F


def probability_map(params, names, limit: float, act: str, res: int = RES) -> np.ndarray:
    """P(class 1) over the square, (res, res) float32, rows = ys (the two-class network's output)."""
    _, _, F = plane_inputs(limit, names, res)
    with np.errstate(all="ignore"):
        p = predict_proba(params, F, act)                                      # (res * res,)
    return np.asarray(p, dtype=np.float32).reshape(res, res)


def unit_maps(params, names, limit: float, act: str, layer: int, units: int, res: int = UNIT_RES):
    """The first `units` units of hidden layer `layer` over the square, after the bend.

    Returns
    -------
    H : ndarray of shape (units, res, res), float32
    """
    from lib.activations import ACTIVATIONS

    _, _, F = plane_inputs(limit, names, res)
    Z = hidden_pre(params, F, act)[layer][:, :units]                           # (res * res, units)
    with np.errstate(all="ignore"):
        H = ACTIVATIONS[act].fn(Z)                                             # (res * res, units)
    return np.ascontiguousarray(H.T.reshape(units, res, res), dtype=np.float32)


def fold_lines(params, limit: float) -> list:
    """Where each first-layer unit's sum w1 x1 + w2 x2 + b is 0, inside the square: (2, 2) or None each.

    Only meaningful when the inputs are x1 and x2 themselves.
    """
    W, b = params[0]                                                           # (2, units), (units,)
    return [line_in_box(W[:, j], float(b[j]), limit) for j in range(W.shape[1])]


def collapse(params, names, limit: float, res: int = UNIT_RES):
    """The network with every bend switched off, as ONE linear layer, and how far apart the two are.

    Without bends, (x W1 + b1) W2 + b2 = x (W1 W2) + (b1 W2 + b2), and so on for every layer.

    Returns
    -------
    W : ndarray of shape (n_in, 1)
    b : ndarray of shape (1,)
    gap : float, the largest |network without bends - the one layer| over the square's grid,
        in probability (rounding error only)
    """
    W, b = collapse_params(params)                                             # (n_in, 1), (1,)
    _, _, F = plane_inputs(limit, names, res)
    with np.errstate(all="ignore"):
        p_net = predict_proba(params, F, "identity")                           # (res * res,)
        p_one = predict_proba([(W, b)], F, "identity")                         # (res * res,)
    return W, b, float(np.max(np.abs(p_net - p_one)))


def confusion(y, predicted, k: int = 2) -> np.ndarray:
    """Counts of (true class, predicted class): C[i, j] = points of class i predicted as j.

    y, predicted : int arrays of shape (n,), classes 0..k-1
    Returns an int array of shape (k, k); its diagonal is what the network gets right.
    """
    y, predicted = np.asarray(y).astype(int), np.asarray(predicted).astype(int)
    C = np.zeros((k, k), dtype=int)
    np.add.at(C, (y, predicted), 1)
    return C


# --- k classes and values (problem types other than two classes) -----------------------------------
def class_map(params, names, limit: float, act: str, res: int = RES) -> np.ndarray:
    """Class probabilities of a softmax network over the square: (res, res, k) float32, rows = ys."""
    _, _, F = plane_inputs(limit, names, res)
    with np.errstate(all="ignore"):
        P = np.asarray(predict_proba(params, F, act, "softmax"), dtype=np.float32)  # (res * res, k)
    return P.reshape(res, res, P.shape[1])


def class_shade(P, discrete: bool = False) -> np.ndarray:
    """k-class probabilities as ONE number per point for a k-segment colour scale, in [0, 1].

    Segment i of k ([i/k, (i+1)/k]) is class i's colour, from pale (the network unsure: its
    largest probability 1/k) to full (sure: 1). discrete: every point at full colour.

    P : ndarray of shape (..., k), rows summing to 1
    Returns ndarray of shape (...), float32; a non-finite row is class 0, unsure.
    """
    P = np.asarray(P, dtype=np.float64)
    k = P.shape[-1]
    P = np.where(np.isfinite(P), P, 0.0)
    top = P.argmax(axis=-1)                                                    # (...)
    sure = (P.max(axis=-1) - 1.0 / k) / (1.0 - 1.0 / k)                        # 0 unsure .. 1 sure
    sure = np.ones_like(sure) if discrete else np.clip(sure, 0.0, 1.0)
    return ((top + 0.01 + 0.98 * sure) / k).astype(np.float32)


def labels_of(raw) -> np.ndarray:
    """The class a map gives each cell: P(class 1) > 0.5 for two classes (res, res), the largest
    probability for k classes (res, res, k). Non-finite cells are class 0."""
    raw = np.asarray(raw)
    if raw.ndim == 3:
        return np.where(np.isfinite(raw), raw, -np.inf).argmax(axis=-1)
    return (np.nan_to_num(raw, nan=0.0) > 0.5).astype(np.int64)


def boundary_cells(labels) -> np.ndarray:
    """Cells where the class changes to the next cell right or up: the boundary as a thin line of cells.

    labels : ndarray of shape (rows, cols) of class numbers. Returns a bool array of the same shape.
    """
    labels = np.asarray(labels)
    edge = np.zeros(labels.shape, dtype=bool)
    edge[:, :-1] |= labels[:, :-1] != labels[:, 1:]
    edge[:-1, :] |= labels[:-1, :] != labels[1:, :]
    return edge


def value_map(params, names, limit: float, act: str, res: int = RES) -> np.ndarray:
    """A linear-head network's value over the square: (res, res) float32, rows = ys."""
    _, _, F = plane_inputs(limit, names, res)
    with np.errstate(all="ignore"):
        v = predict_proba(params, F, act, "linear")                            # (res * res,)
    return np.asarray(v, dtype=np.float32).reshape(res, res)


def value_span(y) -> float:
    """Half-width of a symmetric colour range that holds the values y: max |y|, at least 0.1."""
    y = np.asarray(y, dtype=float)
    y = y[np.isfinite(y)]
    return max(0.1, float(np.abs(y).max())) if y.size else 1.0


def value_shade(V, span: float) -> np.ndarray:
    """Values on a signed scale as [0, 1]: -span -> 0, 0 -> ½, +span -> 1 (clipped; non-finite -> ½)."""
    V = np.asarray(V, dtype=np.float64)
    s = np.clip(0.5 + 0.5 * np.where(np.isfinite(V), V, 0.0) / float(span), 0.0, 1.0)
    return s.astype(np.float32)


def curve_fit(params, names, x, act: str):
    """A 1-D fit's curve and, with a hidden layer, each last-hidden unit's ramp (its share of the output).

    x : ndarray of shape (m,), the positions along the axis
    Returns
    -------
    y : ndarray of shape (m,), the network's value
    parts : ndarray of shape (m, units) or None (no hidden layer); y = parts.sum(axis=1) + bias
    bias : float (0.0 without a hidden layer)
    """
    from lib.mlp import output_parts

    F = expand(np.asarray(x, dtype=float)[:, None], list(names))                # (m, d)
    with np.errstate(all="ignore"):
        y = np.asarray(predict_proba(params, F, act, "linear"), dtype=float).reshape(-1)  # (m,)
        if len(params) < 2:
            return y, None, 0.0
        parts, bias = output_parts(params, F, act)                             # (m, units)
    return y, parts, bias


def prediction_map(head: str, params, names, limit: float, act: str, res: int = RES) -> np.ndarray:
    """What a network with this head predicts over the square: P(class 1) (sigmoid), the classes'
    probabilities (softmax, (res, res, k)) or the values (linear)."""
    made = {"sigmoid": probability_map, "softmax": class_map, "linear": value_map}[head]
    return made(params, names, limit, act, res)


def shading(head: str, raw, discrete: bool = False, span: float = 1.0) -> np.ndarray:
    """A prediction_map as the numbers in [0, 1] its colour scale reads: P(class 1) itself (or the class
    picked, 0 or 1, when discrete); class_shade for k classes; value_shade over ±span for values."""
    if head == "softmax":
        return class_shade(raw, discrete)
    if head == "linear":
        return value_shade(raw, span)
    return (raw > 0.5).astype(np.float32) if discrete else raw


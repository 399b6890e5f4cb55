"""Toy two-class datasets on the plane, as in TensorFlow Playground.

Every generator shares one signature, ``gen(n, rng, **options) -> (X (n, 2), y (n,))``,
and draws its points inside the square [-DOMAIN, DOMAIN]^2; ``make_dataset`` adds the
noise (a jitter of the positions, labels unchanged) and fixes the randomness by seed.
Class 1 is the "inside" or "positive" class (the ring's inner disc, the spiral's second
arm); pages colour it blue.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

DOMAIN = 3.0  # half-width of the square the points live in; wide enough that sin x is a real bend
NOISE_SCALE = 0.25 * DOMAIN  # noise=1 jitters each coordinate by this standard deviation
DEFAULT_N = 400  # points; what the bench and the accuracy tests use
DEFAULT_NOISE = 0.0  # the default page shows the clean pattern
DEFAULT_CELLS = 2  # checkerboard cells per side; 8 ReLU units solve 2 x 2 on every seed tried, 3 x 3 on few


def _halves(n):
    """Points per class: n // 2 of class 0 and the rest of class 1."""
    return n // 2, n - n // 2


def _label_and_shuffle(parts, rng):
    """Stack per-class point sets, label them 0, 1, ... and shuffle the rows together."""
    X = np.concatenate(parts)                                                  # (n, 2)
    y = np.concatenate([np.full(len(p), k, dtype=int) for k, p in enumerate(parts)])  # (n,)
    order = rng.permutation(len(X))
    return X[order], y[order]


def checkerboard(n, rng, cells=DEFAULT_CELLS):
    """A cells x cells board of alternating classes; the corner cell at (-D, -D) is class 0.

    Every cell gets the same number of points (give or take one), so no straight line
    gains from one colour happening to be more common on one side.
    """
    width = 2 * DOMAIN / cells
    cell = rng.permutation(np.arange(n) % (cells * cells))                     # (n,) a cell per point
    ix, iy = cell % cells, cell // cells                                       # (n,) column and row
    corner = np.column_stack([ix, iy]) * width - DOMAIN                        # (n, 2) cell's lower-left
    X = corner + rng.uniform(0, width, size=(n, 2))                            # (n, 2)
    return X, ((ix + iy) % 2).astype(int)                                      # y: (n,)


def ring(n, rng):
    """Class 1: a disc of radius D/2 in the middle; class 0: a ring from 0.7 D to D around it."""
    n0, n1 = _halves(n)
    # sqrt of a uniform radius spreads the points evenly over the area, not bunched at the centre.
    r_in = 0.5 * DOMAIN * np.sqrt(rng.uniform(0, 1, n1))                       # (n1,)
    r_out = DOMAIN * np.sqrt(rng.uniform(0.49, 1.0, n0))                       # (n0,) from 0.7 D to D
    a_in, a_out = rng.uniform(0, 2 * np.pi, n1), rng.uniform(0, 2 * np.pi, n0)
    outer = np.column_stack([r_out * np.cos(a_out), r_out * np.sin(a_out)])    # (n0, 2)
    inner = np.column_stack([r_in * np.cos(a_in), r_in * np.sin(a_in)])        # (n1, 2)
    return _label_and_shuffle([outer, inner], rng)


def xor(n, rng):
    """The four quadrants, alike when opposite; a small gap keeps points off the axes."""
    gap = 0.05 * DOMAIN
    X = rng.uniform(gap, DOMAIN, size=(n, 2)) * rng.choice([-1.0, 1.0], size=(n, 2))  # (n, 2)
    return X, (X[:, 0] * X[:, 1] > 0).astype(int)                              # y: (n,)


def spiral(n, rng):
    """Two interleaved arms, each winding 1.75 turns out from the centre to radius D."""
    parts = []
    for k, m in enumerate(_halves(n)):
        t = rng.uniform(0, 1, m)                                               # (m,) position along the arm
        angle = 1.75 * 2 * np.pi * t + k * np.pi                               # arm 2: half a turn on
        parts.append(DOMAIN * t[:, None] * np.column_stack([np.cos(angle), np.sin(angle)]))  # (m, 2)
    return _label_and_shuffle(parts, rng)


def moons(n, rng):
    """Two interlocking half-circles (scikit-learn's make_moons), scaled to fill the square."""
    n0, n1 = _halves(n)
    t0, t1 = rng.uniform(0, np.pi, n0), rng.uniform(0, np.pi, n1)
    upper = np.column_stack([np.cos(t0), np.sin(t0)])                          # (n0, 2)
    lower = np.column_stack([1 - np.cos(t1), 0.5 - np.sin(t1)])                # (n1, 2)
    centre, half_width = np.array([0.5, 0.25]), 1.5                            # the pair spans x in [-1, 2]
    return _label_and_shuffle([(p - centre) * (DOMAIN / half_width) for p in (upper, lower)], rng)


def gaussians(n, rng):
    """Two round clouds on the diagonal: the one problem a straight line solves."""
    parts = []
    for sign, m in zip((-1.0, 1.0), _halves(n), strict=True):
        cloud = rng.normal(sign * 0.45 * DOMAIN, 0.2 * DOMAIN, size=(m, 2))    # (m, 2)
        parts.append(np.clip(cloud, -DOMAIN, DOMAIN))
    return _label_and_shuffle(parts, rng)


DATASETS: dict[str, Callable] = {
    "checkerboard": checkerboard,
    "ring": ring,
    "xor": xor,
    "spiral": spiral,
    "moons": moons,
    "gaussians": gaussians,
}

DATASET_INFO: dict[str, str] = {
    "checkerboard": "Squares of alternating class: no straight line gets far, bends fence each square.",
    "ring": "A disc inside a ring: a closed boundary, which three ReLU units can already draw.",
    "xor": "Opposite quadrants alike: the classic problem one straight line cannot solve.",
    "spiral": "Two arms winding round each other: hard; wants more units or layers.",
    "moons": "Two interlocking half-moons: a gently curved boundary.",
    "gaussians": "Two round clouds: a straight line separates them, no bend needed.",
}


def make_dataset(name, n, noise=0.0, seed=0, cells=None):
    """Draw a named dataset.

    Parameters
    ----------
    name : str
        A key of DATASETS.
    n : int
        Number of points (>= 2).
    noise : float
        0 to 1: each coordinate is jittered by a normal with standard deviation
        ``noise * NOISE_SCALE`` (0.5 is a lot). Labels keep their noise-free class.
    seed : int
        The same seed gives the same points.
    cells : int, optional
        Checkerboard only: cells per side (None = DEFAULT_CELLS).

    Returns
    -------
    X : ndarray of shape (n, 2), float64
    y : ndarray of shape (n,), int in {0, 1}
    """
    if name not in DATASETS:
        raise ValueError(f"unknown dataset {name!r}; choose one of {', '.join(DATASETS)}")
    n = int(n)
    if n < 2:
        raise ValueError("a dataset needs at least 2 points")
    if not 0.0 <= float(noise) <= 1.0:
        raise ValueError("noise must lie between 0 and 1")
    rng = np.random.default_rng(seed)
    if name == "checkerboard":
        cells = DEFAULT_CELLS if cells is None else int(cells)
        if cells < 1:
            raise ValueError("the checkerboard needs at least 1 cell per side")
        X, y = checkerboard(n, rng, cells=cells)
    else:
        X, y = DATASETS[name](n, rng)
    X = X + float(noise) * NOISE_SCALE * rng.normal(size=X.shape)              # (n, 2)
    return X.astype(np.float64), y.astype(int)


def split(X, y, train_share=0.8, seed=0):
    """Stratified train/test split: each class is split in the same proportion.

    Parameters
    ----------
    X : ndarray of shape (n, d)
    y : ndarray of shape (n,), int in {0, 1}
    train_share : float
        Share of each class that goes to training, in (0, 1]; at least one point of each
        class is kept for training, and the test set may be empty.
    seed : int

    Returns
    -------
    Xtr (n_tr, d), ytr (n_tr,), Xte (n_te, d), yte (n_te,)
    """
    X, y = np.asarray(X, dtype=float), np.asarray(y).astype(int)
    if not 0.0 < float(train_share) <= 1.0:
        raise ValueError("train_share must lie in (0, 1]")
    rng = np.random.default_rng(seed)
    train, test = [], []
    for label in np.unique(y):
        idx = rng.permutation(np.flatnonzero(y == label))
        k = min(len(idx), max(1, round(float(train_share) * len(idx))))
        train.append(idx[:k])
        test.append(idx[k:])
    tr = rng.permutation(np.concatenate(train))
    te = rng.permutation(np.concatenate(test)).astype(int)
    return X[tr], y[tr], X[te], y[te]


def validate_points(X, y, max_points=2000):
    """Why (X, y) cannot be used as a dataset, in one line, or None if it can.

    Parameters
    ----------
    X : array-like of shape (n, 2)
    y : array-like of shape (n,), labels 0 and 1
    max_points : int
    """
    try:
        X = np.asarray(X, dtype=float)
        y = np.asarray(y, dtype=float)
    except (TypeError, ValueError):
        return "the points and labels must be numbers"
    if X.ndim != 2 or X.shape[1] != 2:
        return f"the points need exactly 2 coordinates (x1, x2); got shape {X.shape}"
    if y.ndim != 1 or len(y) != len(X):
        return f"need one label per point; got {y.size} labels for {len(X)} points"
    if len(X) == 0:
        return "there are no points"
    if len(X) > max_points:
        return f"{len(X):,} points is more than the limit of {max_points:,}"
    if not np.isfinite(X).all():
        return "some coordinates are missing or not finite"
    if not np.isin(y, (0.0, 1.0)).all():
        return "labels must be 0 or 1"
    if len(np.unique(y)) < 2:
        return "all points have the same label; a classifier needs both classes"
    return None

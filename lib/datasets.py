"""Toy datasets on the plane, as in TensorFlow Playground, for the trainer's three problem types.

- ``classify``: two classes (DATASETS, make_dataset), labels 0 and 1;
- ``classes``: k = 3 to 5 classes (k arms, k blobs, a k-colour board), labels 0..k-1;
- ``regress``: a value per point: two sets over the plane (a tilted plane, a mix of
  Gaussian bumps) and 1-D curve fits y = f(x) + noise, whose X has one column.

Every generator shares one signature per problem, ``gen(n, rng, **options) -> (X, y)``, and
draws its points inside the square [-DOMAIN, DOMAIN]^2 (a curve's x in [-DOMAIN, DOMAIN]);
``make_dataset`` / ``make_problem`` add the noise and fix the randomness by seed. For classes the
noise jitters the positions (labels unchanged); for values it is added to the values.
Class 1 is the "inside" or "positive" class (the ring's inner disc, the spiral's second
arm); pages colour it blue. PROBLEMS is the registry the page's menus and links are built from.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

DOMAIN = 3.0  # half-width of the square the points live in; wide enough that sin x is a real bend
NOISE_SCALE = 0.25 * DOMAIN  # noise=1 jitters each coordinate by this standard deviation
SPIRAL_TURNS = 1.75  # turns of every spiral arm, of two arms or of k
DEFAULT_CELLS = 2  # checkerboard cells per side; 8 ReLU units solve 2 x 2 on every seed tried, 3 x 3 on few


def _halves(n):
    """Points per class: n // 2 of class 0 and the rest of class 1."""
    return n // 2, n - n // 2


def _shares(n, k):
    """Points per class for k classes: as equal as can be, the first n mod k classes one more."""
    return [n // k + (j < n % k) for j in range(k)]


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
    """Two interleaved arms, each winding SPIRAL_TURNS (1.75) turns out from the centre to radius D."""
    parts = []
    for k, m in enumerate(_halves(n)):
        t = rng.uniform(0, 1, m)                                               # (m,) position along the arm
        angle = SPIRAL_TURNS * 2 * np.pi * t + k * np.pi                        # arm 2: half a turn on
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


# --- k classes ---------------------------------------------------------------------------------
CLASSES_MIN, CLASSES_MAX, CLASSES_DEFAULT = 3, 5, 3  # the `classes` problem's k


def spiral_k(n, rng, k=CLASSES_DEFAULT):
    """k arms, arm j turned by j/k of a circle, each winding SPIRAL_TURNS turns out to radius D."""
    parts = []
    for j, m in enumerate(_shares(n, k)):
        t = rng.uniform(0, 1, m)                                               # (m,) position along the arm
        angle = SPIRAL_TURNS * 2 * np.pi * t + 2 * np.pi * j / k
        parts.append(DOMAIN * t[:, None] * np.column_stack([np.cos(angle), np.sin(angle)]))  # (m, 2)
    return _label_and_shuffle(parts, rng)


def blobs(n, rng, k=CLASSES_DEFAULT):
    """k round clouds with centres evenly spaced on a circle of radius D/2: straight lines separate them."""
    parts = []
    for j, m in enumerate(_shares(n, k)):
        a = 2 * np.pi * j / k + np.pi / 2
        centre = 0.5 * DOMAIN * np.array([np.cos(a), np.sin(a)])               # (2,)
        parts.append(np.clip(rng.normal(centre, 0.15 * DOMAIN, size=(m, 2)), -DOMAIN, DOMAIN))  # (m, 2)
    return _label_and_shuffle(parts, rng)


def checkerboard_k(n, rng, k=CLASSES_DEFAULT):
    """A k x k board whose cell (column i, row j) has colour (i + j) mod k: every row and column
    holds each colour once (a Latin square, diagonal stripes of colour). Equal points per cell."""
    width = 2 * DOMAIN / k
    cell = rng.permutation(np.arange(n) % (k * k))                             # (n,) a cell per point
    ix, iy = cell % k, cell // k                                               # (n,) column and row
    X = np.column_stack([ix, iy]) * width - DOMAIN + rng.uniform(0, width, size=(n, 2))  # (n, 2)
    return X, ((ix + iy) % k).astype(int)                                      # y: (n,)


CLASS_SETS: dict[str, Callable] = {"spiral": spiral_k, "blobs": blobs, "checkerboard": checkerboard_k}

CLASS_SET_INFO: dict[str, str] = {
    "spiral": "k arms winding out from the centre: hard; wants two hidden layers.",
    "blobs": "k round clouds around the centre: straight lines between them are enough.",
    "checkerboard": "A k by k board, colours in diagonal stripes: every row holds each colour once.",
}


# --- values ------------------------------------------------------------------------------------
VALUE_NOISE = 0.5   # noise=1 adds a normal number of this standard deviation to each value
VALUE_LIMIT = 10.0  # values a student's own points may carry: -10 to 10 (the sets stay within -1.6 to 3)
# The mix of Gaussians: (x1, x2, sign) of six bumps, the Playground's regression layout scaled to the square.
BUMPS = tuple((cx * DOMAIN / 3, cy * DOMAIN / 3, sign) for cx, cy, sign in (
    (-2.0, 1.25, 1.0), (0.0, 1.25, -1.0), (2.0, 1.25, 1.0),
    (-2.0, -1.25, -1.0), (0.0, -1.25, 1.0), (2.0, -1.25, -1.0)))
BUMP_WIDTH = 0.5 * DOMAIN / 3  # each bump's standard deviation


def plane(n, rng):
    """Points all over the square; value (x1 + x2) / 2D, a tilted plane from -1 to 1."""
    X = rng.uniform(-DOMAIN, DOMAIN, size=(n, 2))                              # (n, 2)
    return X, (X[:, 0] + X[:, 1]) / (2 * DOMAIN)                               # y: (n,)


def gaussmix(n, rng):
    """Points all over the square; value = the sum of six Gaussian bumps, three up (+1) and three down (-1).

    The Playground's second regression set has the same layout, with cone-shaped bumps.
    """
    X = rng.uniform(-DOMAIN, DOMAIN, size=(n, 2))                              # (n, 2)
    y = np.zeros(n)                                                            # (n,)
    for cx, cy, sign in BUMPS:
        y += sign * np.exp(-((X[:, 0] - cx) ** 2 + (X[:, 1] - cy) ** 2) / (2 * BUMP_WIDTH**2))
    return X, y


@dataclass(frozen=True)
class Curve:
    name: str                                  # key in CURVES and the URL value: the formula itself
    latex: str                                 # the formula, for st.latex
    fn: Callable[[np.ndarray], np.ndarray]     # x (n,) -> f(x) (n,)


CURVES: dict[str, Curve] = {
    c.name: c
    for c in (
        Curve("sin(2x)", r"y = \sin 2x", lambda x: np.sin(2 * x)),
        Curve("sin(x)", r"y = \sin x", np.sin),
        Curve("abs(x)", r"y = |x|", np.abs),
        Curve("x^2/3", r"y = x^2 / 3", lambda x: x * x / 3),
        Curve("sign(x)", r"y = \operatorname{sign}(x)", np.sign),
    )
}


def curve(n, rng, name="sin(2x)"):
    """x uniform on [-D, D], X of shape (n, 1); y = f(x) for the named curve of CURVES."""
    x = rng.uniform(-DOMAIN, DOMAIN, size=n)                                   # (n,)
    return x[:, None], CURVES[name].fn(x).astype(float)                        # (n, 1), (n,)


REGRESS_SETS: dict[str, Callable] = {
    "plane": plane,
    "gaussmix": gaussmix,
    **{name: (lambda n, rng, name=name: curve(n, rng, name)) for name in CURVES},
}

REGRESS_SET_INFO: dict[str, str] = {
    "plane": "A tilted plane: one linear unit fits it exactly.",
    "gaussmix": "Six bumps, three up and three down: each wants its own hill of units.",
    "sin(2x)": "A curve through the points: about two waves; each ReLU adds one bend.",
    "sin(x)": "One slow wave: a few ramps are enough.",
    "abs(x)": "A V: two ReLU ramps, or one unit and its mirror image.",
    "x^2/3": "A parabola: many small bends make a smooth curve.",
    "sign(x)": "A jump: ramps can only make it steep, never a true step.",
}


@dataclass(frozen=True)
class Problem:
    name: str                          # key in PROBLEMS and the `problem` link value
    label: str                         # what a menu shows
    head: str                          # the lib.mlp head: sigmoid, softmax or linear
    sets: dict[str, Callable]          # dataset key -> generator gen(n, rng, ...) -> (X, y)
    info: dict[str, str]               # dataset key -> one line for the page


PROBLEMS: dict[str, Problem] = {
    p.name: p
    for p in (
        Problem("classify", "Two classes", "sigmoid", DATASETS, DATASET_INFO),
        Problem("classes", f"{CLASSES_MIN} to {CLASSES_MAX} classes", "softmax", CLASS_SETS, CLASS_SET_INFO),
        Problem("regress", "A value per point", "linear", REGRESS_SETS, REGRESS_SET_INFO),
    )
}

MAX_POINTS = 2000  # points a dataset (drawn or a student's own) may have


def dims(problem, name):
    """Input columns of a dataset: 1 for the regress curves (x alone), 2 for everything on the plane."""
    return 1 if problem == "regress" and name in CURVES else 2


def make_problem(problem, name, n, noise=0.0, seed=0, k=CLASSES_DEFAULT, cells=None):
    """Draw a named dataset of any problem type (one signature for all).

    Parameters
    ----------
    problem : str, a key of PROBLEMS: "classify", "classes" or "regress"
    name : str, a key of PROBLEMS[problem].sets
    n : int, number of points, 2 to MAX_POINTS
    noise : float, 0 to 1: classify / classes jitter positions by noise * NOISE_SCALE (labels kept);
        regress adds noise * VALUE_NOISE times a standard normal to each value
    seed : int, the same seed gives the same points
    k : int, classes of a `classes` problem, CLASSES_MIN to CLASSES_MAX (ignored otherwise)
    cells : int, optional, classify's checkerboard only (see make_dataset)

    Returns
    -------
    X : ndarray of shape (n, 2) float64, or (n, 1) for a regress curve (see dims)
    y : ndarray of shape (n,): int in {0, 1} (classify), int in 0..k-1 (classes), float64 (regress)
    """
    if problem not in PROBLEMS:
        raise ValueError(f"unknown problem type {problem!r}; choose one of {', '.join(PROBLEMS)}")
    sets = PROBLEMS[problem].sets
    if name not in sets:
        raise ValueError(f"unknown {problem} dataset {name!r}; choose one of {', '.join(sets)}")
    n = int(n)
    if not 2 <= n <= MAX_POINTS:
        raise ValueError(f"a dataset needs 2 to {MAX_POINTS:,} points")
    if problem == "classify":
        return make_dataset(name, n, noise=noise, seed=seed, cells=cells)
    if not 0.0 <= float(noise) <= 1.0:
        raise ValueError("noise must lie between 0 and 1")
    rng = np.random.default_rng(seed)
    if problem == "classes":
        k = int(k)
        if not CLASSES_MIN <= k <= CLASSES_MAX:
            raise ValueError(f"the number of classes must be {CLASSES_MIN} to {CLASSES_MAX}")
        X, y = sets[name](n, rng, k=k)
        X = X + float(noise) * NOISE_SCALE * rng.normal(size=X.shape)          # (n, 2)
        return X.astype(np.float64), y.astype(int)
    X, y = sets[name](n, rng)
    y = y + float(noise) * VALUE_NOISE * rng.normal(size=n)                    # (n,)
    return X.astype(np.float64), y.astype(np.float64)


def split(X, y, train_share=0.8, seed=0, stratify=True):
    """Train/test split; stratified (each class split in the same proportion) unless told otherwise.

    Parameters
    ----------
    X : ndarray of shape (n, d)
    y : ndarray of shape (n,), int class labels (or float values with stratify=False)
    train_share : float
        Share of each class that goes to training, in (0, 1]; at least one point of each
        class is kept for training, and the test set may be empty.
    seed : int
    stratify : bool
        False for values (regress): one random split of all points, at least one for training.

    Returns
    -------
    Xtr (n_tr, d), ytr (n_tr,), Xte (n_te, d), yte (n_te,); y keeps int labels, or float values
    when not stratified
    """
    X = np.asarray(X, dtype=float)
    y = np.asarray(y).astype(int) if stratify else np.asarray(y, dtype=float)
    if not 0.0 < float(train_share) <= 1.0:
        raise ValueError("train_share must lie in (0, 1]")
    rng = np.random.default_rng(seed)
    train, test = [], []
    for label in np.unique(y) if stratify else [None]:
        idx = rng.permutation(np.flatnonzero(y == label) if stratify else np.arange(len(y)))
        k = min(len(idx), max(1, round(float(train_share) * len(idx))))
        train.append(idx[:k])
        test.append(idx[k:])
    tr = rng.permutation(np.concatenate(train))
    te = rng.permutation(np.concatenate(test)).astype(int)
    return X[tr], y[tr], X[te], y[te]


def validate_points(X, y, max_points=MAX_POINTS, problem="classify", k=None, limit=None):
    """Why (X, y) cannot be used as a dataset of this problem type, in one line, or None if it can.

    Parameters
    ----------
    X : array-like of shape (n, 2), or (n, 1) for a regress curve (dims(problem, name) says which)
    y : array-like of shape (n,): labels 0 and 1 (classify), 0..k-1 (classes) or values (regress)
    max_points : int
    problem : str, a key of PROBLEMS
    k : int, optional
        Classes of a `classes` problem (None: CLASSES_DEFAULT).
    limit : float, optional
        If given, every coordinate must lie in [-limit, limit] (the plane the page draws).
    """
    if problem not in PROBLEMS:
        return f"unknown problem type {problem!r}; choose one of {', '.join(PROBLEMS)}"
    try:
        X = np.asarray(X, dtype=float)
        y = np.asarray(y, dtype=float)
    except (TypeError, ValueError):
        return "the points and labels must be numbers"
    if X.ndim == 2 and X.shape[1] == 1 and problem == "regress":
        pass  # a curve: x and its value
    elif X.ndim != 2 or X.shape[1] != 2:
        return f"the points need exactly 2 coordinates (x1, x2); got shape {X.shape}"
    if y.ndim != 1 or len(y) != len(X):
        word = "value" if problem == "regress" else "label"
        return f"need one {word} per point; got {y.size} {word}s for {len(X)} points"
    if len(X) == 0:
        return "there are no points"
    if len(X) > max_points:
        return f"{len(X):,} points is more than the limit of {max_points:,}"
    if not np.isfinite(X).all():
        return "some coordinates are missing or not finite"
    if limit is not None and np.abs(X).max() > limit:
        i = int(np.argmax(np.abs(X).max(axis=1)))
        where = ", ".join(f"{v:.3g}" for v in X[i])
        return f"the point ({where}) lies outside the plane, which runs from -{limit:g} to {limit:g}"
    if problem == "regress":
        if not np.isfinite(y).all():
            return "some values are missing or not finite"
        if np.abs(y).max() > VALUE_LIMIT:
            return f"values must lie between -{VALUE_LIMIT:g} and {VALUE_LIMIT:g}"
        return None
    if problem == "classify":
        if not np.isin(y, (0.0, 1.0)).all():
            return "labels must be 0 or 1"
        if len(np.unique(y)) < 2:
            return "all points have the same label; a classifier needs both classes"
        return None
    k = CLASSES_DEFAULT if k is None else int(k)
    if not (np.isfinite(y).all() and np.array_equal(y, np.round(y)) and y.min() >= 0 and y.max() < k):
        return f"labels must be whole numbers from 0 to {k - 1}"
    if len(np.unique(y)) < 2:
        return "all points have the same label; a classifier needs at least two classes"
    return None

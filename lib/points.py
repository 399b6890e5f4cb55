"""Points a student brings: a CSV of x1, x2, label, checked, with a one-line reason when it will not do."""

from __future__ import annotations

import io

import numpy as np
import pandas as pd

from lib.datasets import CLASSES_DEFAULT, VALUE_LIMIT, validate_points

MAX_BYTES = 100_000   # a CSV of 2,000 points is about 40 KB
MAX_POINTS = 2000
# Coordinates a file may hold: the page's plane grows to fit its points, and a point near 1e308 made the
# plane, and x1² on it, infinite (the live map broke). A million keeps x1² and x1·x2 far from overflow.
COORD_LIMIT = 1e6


def template_csv(problem: str = "classify", k: int = 3) -> bytes:
    """A small CSV in the format read_points takes for this problem type, 40 points (45 for classes):

    classify: an XOR of four clusters; classes: k clusters round a circle, labels 0 to k - 1;
    regress: points over the plane with value (x1 + x2) / 2 (a tilted plane).
    """
    rng = np.random.default_rng(0)
    if problem == "classes":
        angles = 2 * np.pi * np.arange(k) / k                                      # (k,)
        centres = 2.2 * np.column_stack([np.cos(angles), np.sin(angles)])          # (k, 2)
        per = 45 // k
        X = np.repeat(centres, per, axis=0) + rng.normal(0, 0.5, (per * k, 2))    # (per k, 2)
        y = np.repeat(np.arange(k), per)
    elif problem == "regress":
        X = rng.uniform(-3, 3, (40, 2))                                            # (40, 2)
        return points_csv(X.round(3), ((X[:, 0] + X[:, 1]) / 2).round(3), "regress")
    else:
        centres = np.array([[-2.0, -2.0], [2.0, 2.0], [-2.0, 2.0], [2.0, -2.0]])  # (4, 2)
        X = np.repeat(centres, 10, axis=0) + rng.normal(0, 0.6, (40, 2))           # (40, 2)
        y = np.repeat([0, 0, 1, 1], 10)                                            # (40,)
    frame = pd.DataFrame({"x1": X[:, 0].round(3), "x2": X[:, 1].round(3), "label": y})
    return frame.to_csv(index=False).encode()


def points_csv(X, y, problem: str = "classify") -> bytes:
    """Points as the CSV read_points takes back (coordinates to 4 decimals).

    Classes: x1, x2, label (whole numbers). Values (problem "regress"): x1, x2, value, or x1, value
    for a curve (X of shape (n, 1)).
    """
    X = np.asarray(X, dtype=float)
    cols = {"x1": X[:, 0].round(4)}
    if X.shape[1] > 1:
        cols["x2"] = X[:, 1].round(4)
    if problem == "regress":
        cols["value"] = np.asarray(y, dtype=float).round(4)
    else:
        cols["label"] = np.asarray(y).astype(int)
    return pd.DataFrame(cols).to_csv(index=False).encode()


def columns_for(problem: str) -> str:
    """The header a CSV for this problem type needs, as a student reads it."""
    return "x1,x2,value (or x1,value for a curve)" if problem == "regress" else "x1,x2,label"


def read_points(data: bytes, max_bytes: int = MAX_BYTES, max_points: int = MAX_POINTS,
                problem: str = "classify", k: int | None = None):
    """Parse a CSV of points for a problem type (lib.datasets.PROBLEMS).

    classify: x1, x2, label (0 or 1); classes: x1, x2, label (0 to k - 1); regress: x1, x2, value,
    or x1, value (a curve, one input).

    Returns
    -------
    X : ndarray of shape (n, 2), or (n, 1) for a curve
    y : ndarray of shape (n,), int labels, or float values for regress

    Raises ValueError with a one-line reason a student can act on.
    """
    if len(data) > max_bytes:
        raise ValueError(f"the file is {len(data) / 1000:,.0f} KB; the limit is {max_bytes // 1000} KB")
    try:
        frame = pd.read_csv(io.BytesIO(data), dtype=str, keep_default_na=False)
    except (pd.errors.ParserError, pd.errors.EmptyDataError, UnicodeDecodeError):
        raise ValueError("it is not a CSV file with a header row") from None
    cols = [str(c).strip().lower() for c in frame.columns]
    found = ", ".join(str(c) for c in frame.columns[:6]) or "none"
    if problem == "regress":
        if sorted(cols) not in (["value", "x1", "x2"], ["value", "x1"]):
            if "label" in cols:
                raise ValueError("it holds class labels; this page fits values: use the columns "
                                 + columns_for(problem))
            raise ValueError(f"it needs the columns {columns_for(problem)}; found {found}")
    elif sorted(cols) != ["label", "x1", "x2"]:
        if "value" in cols:
            raise ValueError("it holds values; this page sorts classes: use the columns x1, x2, label")
        raise ValueError(f"it needs exactly the columns x1, x2, label; found {found}")
    frame.columns = cols
    target = "value" if problem == "regress" else "label"
    inputs = [c for c in ("x1", "x2") if c in cols]
    values = {}
    for col in (*inputs, target):
        v = pd.to_numeric(frame[col].str.strip(), errors="coerce").to_numpy(dtype=float)
        bad = np.flatnonzero(~np.isfinite(v))
        if bad.size:
            raise ValueError(f"row {bad[0] + 2}: {col} is not a number ({frame[col].iloc[bad[0]][:20]!r})")
        far = np.flatnonzero(np.abs(v) > COORD_LIMIT) if col in inputs else []
        if len(far):
            raise ValueError(f"row {far[0] + 2}: {col} is {v[far[0]]:.3g}, which lies outside "
                             f"-{COORD_LIMIT:,.0f} to {COORD_LIMIT:,.0f} (scale the points down)")
        values[col] = v
    X = np.column_stack([values[c] for c in inputs])                           # (n, 2) or (n, 1)
    labels = values[target]
    if problem == "classify" and not np.isin(labels, (0.0, 1.0)).all():
        bad = np.flatnonzero(~np.isin(labels, (0.0, 1.0)))[0]
        raise ValueError(f"row {bad + 2}: label must be 0 or 1, not {labels[bad]:g}")
    reason = validate_points(X, labels, max_points=max_points, problem=problem, k=k)
    if reason:
        raise ValueError(reason)
    return X, (labels if problem == "regress" else labels.astype(int))   # y: (n,)


# --- points placed by hand -------------------------------------------------------------------
HAND_MAX = 150       # points a student may place by hand: all of them travel in the link
HAND_LINK_CHARS = 2500   # ... in at most this many characters (150 of "-3.36_3.36_-9.9" take 2,399)
HAND_GRID = 31       # clicks land on a grid of HAND_GRID x HAND_GRID places over the plane
_SEP, _FIELD = "~", "_"   # characters a URL carries as they are


def hand_grid(limit: float, n: int = HAND_GRID):
    """The places a click can put a point: an n x n grid over [-limit, limit]^2, as two flat arrays.

    Returns
    -------
    gx, gy : ndarray of shape (n * n,), rounded to 2 decimals (the link's precision)
    """
    g = np.round(np.linspace(-limit, limit, n), 2)                                   # (n,)
    gx, gy = np.meshgrid(g, g)                                                        # (n, n) each
    return gx.ravel(), gy.ravel()


def _num(v: float) -> str:
    """A coordinate or value as the link writes it: at most 2 decimals, no trailing zeros, no -0."""
    s = f"{round(float(v), 2):.2f}".rstrip("0").rstrip(".")
    return "0" if s in ("-0", "") else s


def encode_hand(P) -> str:
    """Hand points as link text: "x1_x2_label~..." (or "x_value~..." for a curve).

    P : ndarray of shape (m, 3): x1, x2, label or value; or (m, 2): x, value (a curve)
    """
    P = np.asarray(P, dtype=float).reshape(-1, np.shape(P)[-1] if np.size(P) else 3)
    return _SEP.join(_FIELD.join(_num(v) for v in row) for row in P)


def check_hand(P, problem: str = "classify", k: int | None = None, limit: float = 3.6,
               curve: bool = False) -> str | None:
    """Why these hand points cannot be used on this page, in one line, or None.

    P : ndarray of shape (m, 3) (x1, x2, target) or (m, 2) for a curve (x, value)
    """
    P = np.asarray(P, dtype=float)
    width = 2 if curve else 3
    if P.size == 0:
        return None
    if P.ndim != 2 or P.shape[1] != width:
        what = "a curve (x and a value)" if curve else "the plane (x1, x2 and a " + (
            "value)" if problem == "regress" else "class)")
        return f"these points are not for {what}"
    if len(P) > HAND_MAX:
        return f"{len(P):,} points is more than the {HAND_MAX} that can be placed by hand"
    if not np.isfinite(P).all():
        return "a number is missing"
    X, y = P[:, :-1], P[:, -1]
    if curve:
        if np.abs(X).max() > limit:
            return f"a point lies outside the curve's range, which runs from {_num(-limit)} to {_num(limit)}"
    elif np.abs(X).max() > limit:
        return f"a point lies outside the plane, which runs from {_num(-limit)} to {_num(limit)}"
    if problem == "regress":
        if np.abs(y).max() > VALUE_LIMIT:
            return f"a value lies outside {_num(-VALUE_LIMIT)} to {_num(VALUE_LIMIT)}"
        return None
    classes = 2 if problem == "classify" else (k or CLASSES_DEFAULT)
    bad = (y != np.round(y)) | (y < 0) | (y >= classes)
    if bad.any():
        i = int(np.argmax(bad))
        return f"point {i + 1} has class {_num(y[i])}, but there are only {classes} (0 to {classes - 1})"
    return None


def decode_hand(text: str, problem: str = "classify", k: int | None = None, limit: float = 3.6,
                curve: bool = False):
    """Link text from encode_hand back to points, checked for this page (check_hand).

    Returns ndarray of shape (m, 3), or (m, 2) for a curve; raises ValueError with a one-line reason.
    """
    width = 2 if curve else 3
    text = (text or "").strip()
    if not text:
        return np.zeros((0, width))
    if len(text) > HAND_LINK_CHARS:
        raise ValueError(f"{len(text):,} characters is more than the {HAND_LINK_CHARS:,} the points may take")
    rows = []
    for i, part in enumerate(text.split(_SEP)):
        fields = part.split(_FIELD)
        try:
            row = [float(f) for f in fields]
        except ValueError:
            raise ValueError(f"point {i + 1} ({part[:20]!r}) is not numbers joined by {_FIELD!r}") from None
        if len(row) != width:
            raise ValueError(f"point {i + 1} has {len(row)} numbers; points for "
                             + ("a curve have 2 (x_value)" if curve else "the plane have 3 (x1_x2_"
                                + ("value)" if problem == "regress" else "class)")))
        rows.append(row)
    P = np.array(rows, dtype=float)                                                  # (m, width)
    reason = check_hand(P, problem, k, limit, curve)
    if reason:
        raise ValueError(reason)
    return P


def add_hand(P, point, problem: str = "classify", k: int | None = None, limit: float = 3.6,
             curve: bool = False):
    """P with one more point (rounded to the link's 2 decimals); ValueError with a reason if it cannot
    take it (the cap, outside the plane, a class or value out of range). P itself is not changed.

    point : (x1, x2, target), or (x, value) for a curve
    """
    width = 2 if curve else 3
    P = np.asarray(P, dtype=float).reshape(-1, width)
    row = np.round(np.asarray(point, dtype=float).reshape(1, -1), 2)                  # (1, width)
    if row.shape[1] != width:
        raise ValueError("that click is not a point of this chart")
    if len(P) >= HAND_MAX:
        raise ValueError(f"{HAND_MAX} points is the most that can be placed by hand (they all travel in the "
                         "link); upload a CSV for more")
    reason = check_hand(row, problem, k, limit, curve)
    if reason:
        raise ValueError(reason.replace("a point lies", "that click lies").replace("point 1 has", "it has"))
    return np.vstack([P, row])


def remove_hand(P, x: float, y: float, tol: float = 0.02):
    """P without the point nearest to (x, y) (the plane's x1, x2, or a curve's x and value), if one lies
    within `tol` of it; P unchanged otherwise. Returns (new P, whether one was removed)."""
    P = np.asarray(P, dtype=float)
    if len(P) == 0:
        return P, False
    d = np.hypot(P[:, 0] - x, P[:, 1] - y)                                          # (m,)
    i = int(np.argmin(d))
    if d[i] > tol:
        return P, False
    return np.delete(P, i, axis=0), True

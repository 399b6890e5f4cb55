"""Points a student brings: a CSV of x1, x2, label, checked, with a one-line reason when it will not do."""

from __future__ import annotations

import io

import numpy as np
import pandas as pd

from lib.datasets import validate_points

MAX_BYTES = 100_000   # a CSV of 2,000 points is about 40 KB
MAX_POINTS = 2000


def template_csv() -> bytes:
    """A small CSV in the accepted format: an XOR of four clusters, 40 points."""
    rng = np.random.default_rng(0)
    centres = np.array([[-2.0, -2.0], [2.0, 2.0], [-2.0, 2.0], [2.0, -2.0]])  # (4, 2)
    X = np.repeat(centres, 10, axis=0) + rng.normal(0, 0.6, (40, 2))          # (40, 2)
    y = np.repeat([0, 0, 1, 1], 10)                                           # (40,)
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

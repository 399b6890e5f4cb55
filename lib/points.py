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


def points_csv(X, y) -> bytes:
    """Points as the CSV read_points takes back (coordinates to 4 decimals)."""
    X = np.asarray(X, dtype=float)
    frame = pd.DataFrame({"x1": X[:, 0].round(4), "x2": X[:, 1].round(4), "label": np.asarray(y).astype(int)})
    return frame.to_csv(index=False).encode()


def read_points(data: bytes, max_bytes: int = MAX_BYTES, max_points: int = MAX_POINTS):
    """Parse a CSV of x1, x2, label (0 or 1).

    Returns
    -------
    X : ndarray of shape (n, 2)
    y : ndarray of shape (n,), int in {0, 1}

    Raises ValueError with a one-line reason a student can act on.
    """
    if len(data) > max_bytes:
        raise ValueError(f"the file is {len(data) / 1000:,.0f} KB; the limit is {max_bytes // 1000} KB")
    try:
        frame = pd.read_csv(io.BytesIO(data), dtype=str, keep_default_na=False)
    except (pd.errors.ParserError, pd.errors.EmptyDataError, UnicodeDecodeError):
        raise ValueError("it is not a CSV file with a header row") from None
    cols = [str(c).strip().lower() for c in frame.columns]
    if sorted(cols) != ["label", "x1", "x2"]:
        found = ", ".join(str(c) for c in frame.columns[:6]) or "none"
        raise ValueError(f"it needs exactly the columns x1, x2, label; found {found}")
    frame.columns = cols
    values = {}
    for col in ("x1", "x2", "label"):
        v = pd.to_numeric(frame[col].str.strip(), errors="coerce").to_numpy(dtype=float)
        bad = np.flatnonzero(~np.isfinite(v))
        if bad.size:
            raise ValueError(f"row {bad[0] + 2}: {col} is not a number ({frame[col].iloc[bad[0]][:20]!r})")
        values[col] = v
    X = np.column_stack([values["x1"], values["x2"]])                          # (n, 2)
    labels = values["label"]
    if not np.isin(labels, (0.0, 1.0)).all():
        bad = np.flatnonzero(~np.isin(labels, (0.0, 1.0)))[0]
        raise ValueError(f"row {bad + 2}: label must be 0 or 1, not {labels[bad]:g}")
    y = labels.astype(int)                                                     # (n,)
    reason = validate_points(X, y, max_points=max_points)
    if reason:
        raise ValueError(reason)
    return X, y

"""LaTeX for numbers on screen: the formulas show the current values."""

from __future__ import annotations

import numpy as np


def num(v: float, digits: int = 3) -> str:
    """A number for LaTeX: fixed decimals, a true minus sign, no '-0.000'."""
    v = float(v)
    s = f"{v:.{digits}f}"
    if float(s) == 0.0:
        s = f"{0.0:.{digits}f}"
    return s


def bmatrix(M, digits: int = 3) -> str:
    """A vector or matrix as a LaTeX bmatrix (a vector is one row, as in y = xW + b)."""
    M = np.atleast_2d(np.asarray(M, dtype=float))
    rows = [" & ".join(num(v, digits) for v in row) for row in M]
    return r"\begin{bmatrix}" + r" \\ ".join(rows) + r"\end{bmatrix}"

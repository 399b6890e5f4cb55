"""LaTeX for numbers on screen: the formulas show the current values.

A thin wrapper over ui.fmt.tex (the one number formatter): fixed decimals, so the numbers in a
vector line up; no '-0.000', no e-notation (a tiny number reads 3.6 \\times 10^{-15}).
"""

from __future__ import annotations

import numpy as np

from ui import fmt


def num(v: float, digits: int = 3) -> str:
    """A number for LaTeX with exactly `digits` decimals (fmt.tex with fixed digits)."""
    return fmt.tex(v, digits, fixed_digits=True)


def bmatrix(M, digits: int = 3) -> str:
    """A vector or matrix as a LaTeX bmatrix (a vector is one row, as in y = xW + b)."""
    M = np.atleast_2d(np.asarray(M, dtype=float))
    rows = [" & ".join(num(v, digits) for v in row) for row in M]
    return r"\begin{bmatrix}" + r" \\ ".join(rows) + r"\end{bmatrix}"

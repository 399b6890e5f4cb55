"""Arithmetic written out with the current numbers, the way the recipe-card lessons write it.

Every number goes through ui.fmt (true minus, no −0, no e-notation). What is lesson-specific here:
`val`, the one precision of the lessons' inputs, weights and outputs (at least one decimal, at most
three: 1.0, 0.8, 1.65, −0.65); negatives in parentheses when multiplied; a dot product written term
by term (y₁ = 1.0 × 0.8 + 0.5 × 0.3 + (−1.0) × (−0.6) + 0.1); and the same numbers as Python
literals for the code a student may copy (ASCII minus there, since Python needs it).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from ui import fmt


def val(v: float) -> str:
    """A weight, input or output: 1.0, 0.8, 1.65, −0.65 (at least one decimal, at most three)."""
    return fmt.num(v, 3, keep=1)


def par(v: float) -> str:
    """A number ready to be multiplied: negatives in parentheses, (−1.0)."""
    s = val(v)
    return f"({s})" if s.startswith(fmt.MINUS) else s


def terms_text(x: Sequence[float], w: Sequence[float], times: str = " × ") -> list[str]:
    """['1.0 × 0.8', '0.5 × 0.3', '(−1.0) × (−0.6)'] for inputs x and one column w."""
    return [f"{par(a)}{times}{par(b)}" for a, b in zip(x, w, strict=True)]


def plus(parts: Sequence[str]) -> str:
    """Join already formatted terms with ' + '."""
    return " + ".join(parts)


def dot_text(x: Sequence[float], w: Sequence[float], b: float | None) -> str:
    """Plain text for x·w (+ b), every product written out: '1.0 × 0.8 + 0.5 × 0.3 + 0.1'."""
    parts = terms_text(x, w)
    if b is not None:
        parts.append(par(b))
    return plus(parts)


def tex(s: str) -> str:
    """Text made by the functions above, for LaTeX (which draws its own minus from '-')."""
    return s.replace(fmt.MINUS, "-").replace("×", r"\times ")


def sig(v: float, figures: int = 4) -> str:
    """A size that may be huge or tiny, to `figures` significant figures, never in e-notation:
    57.67, 0.02825, 123,457, 1.11 × 10⁷, 9.1 × 10⁻¹³."""
    v = float(v)
    if v == 0 or not math.isfinite(v):
        return fmt.num(v)
    if not 1e-3 <= abs(v) < 1e6:
        return fmt.power(v, figures)
    return fmt.num(v, max(0, figures - 1 - math.floor(math.log10(abs(v)))))

"""Arithmetic written out with the current numbers, the way the recipe-card lessons write it.

Every number goes through ui.fmt (true minus, no −0, no e-notation). What is lesson-specific here:
`val`, the one precision of the lessons' inputs, weights and outputs (at least one decimal, at most
three: 1.0, 0.8, 1.65, −0.65); negatives in parentheses when multiplied, and terms joined with ' + '
(the recipe card writes a dot product term by term with them: pages/recipe_card/card.py's dot_text);
and the same numbers as Python literals for the code a student may copy (ASCII minus there, since
Python needs it).
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


def plus(parts: Sequence[str]) -> str:
    """Join already formatted terms with ' + '."""
    return " + ".join(parts)


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

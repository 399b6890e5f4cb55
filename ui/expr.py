"""Arithmetic written out with the current numbers: dot products as a student would write them.

`short` prints a number the way the seeds do (1.0, 0.8, 1.65, -0.65); `dot_latex` writes
y₁ = 1.0 × 0.8 + 0.5 × 0.3 + (-1.0) × (-0.6) + 0.1 = 1.65 for any row of numbers.
"""

from __future__ import annotations

from collections.abc import Sequence


def short(v: float, digits: int = 3) -> str:
    """At least one decimal, at most `digits`, no trailing zeros, no '-0.0'."""
    v = float(v)
    s = f"{v:.{digits}f}".rstrip("0")
    s = s + "0" if s.endswith(".") else s
    return "0.0" if s in ("-0.0", "0.0") else s


def par(v: float, digits: int = 3) -> str:
    """A number ready to be multiplied: negatives in parentheses, (-1.0)."""
    s = short(v, digits)
    return f"({s})" if s.startswith("-") else s


def terms_text(x: Sequence[float], w: Sequence[float], times: str = " × ") -> list[str]:
    """['1.0 × 0.8', '0.5 × 0.3', '(-1.0) × (-0.6)'] for inputs x and one column w."""
    return [f"{par(a)}{times}{par(b)}" for a, b in zip(x, w, strict=True)]


def plus(parts: Sequence[str]) -> str:
    """Join already formatted terms with ' + '."""
    return " + ".join(parts)


def dot_latex(lhs: str, x: Sequence[float], w: Sequence[float], b: float | None,
              result: float) -> str:
    """LaTeX for lhs = x·w (+ b) = result, every product written out."""
    parts = terms_text(x, w, r" \times ")
    if b is not None:
        parts.append(par(b))
    return rf"{lhs} = {plus(parts)} = {short(result)}"


def dot_text(x: Sequence[float], w: Sequence[float], b: float | None) -> str:
    """Plain text for x·w (+ b), every product written out: '1.0 × 0.8 + 0.5 × 0.3 + 0.1'."""
    parts = terms_text(x, w)
    if b is not None:
        parts.append(par(b))
    return plus(parts)

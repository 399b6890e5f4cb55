"""/stacking's numbers written for a student to copy or read along: Python literals (an ASCII minus, as
Python needs) and rows of numbers for the page's text, each at ui.expr's one precision (`val`); how
closely a gradient check agrees, and the loss's fall as st.metric reads a delta."""

from __future__ import annotations

import math

import numpy as np

from ui import fmt
from ui.expr import val


def py(v: float) -> str:
    """A number for Python code: as `val`, with an ASCII minus."""
    return val(v).replace(fmt.MINUS, "-")


def py_vec(v) -> str:
    """[1.0, 0.5, -1.0]"""
    return "[" + ", ".join(py(a) for a in np.ravel(v)) + "]"


def py_matrix(M, indent: int = 13) -> str:
    """A matrix as a Python literal, one row per line, rows lined up under the first."""
    rows = [", ".join(py(a) for a in row) for row in np.atleast_2d(M)]
    return "[" + (",\n" + " " * (indent + 1)).join(f"[{r}]" for r in rows) + "]"


def vec(v) -> str:
    """A row of numbers for the page's text: [0.1, 0.0]."""
    return "[" + ", ".join(val(a) for a in np.ravel(v)) + "]"


def change(v: float, digits: int = 3, *, keep: int = 0) -> str:
    """A change for st.metric's delta: num(v), but a fall starts with the ASCII '-'.

    Streamlit reads a delta's direction (its arrow and colour) from a leading '-' only: with the
    typographic '−' every fall showed as a red rise (/stacking's loss, issue 34).
    """
    s = fmt.num(v, digits, keep=keep)
    return "-" + s[1:] if s.startswith(fmt.MINUS) else s


def agrees(a: float, b: float) -> str:
    """How closely two numbers that should be equal agree: 'agrees to 10⁻⁹', or 'exactly'."""
    d = abs(float(a) - float(b))
    if d == 0:
        return "exactly"
    return "agrees to 10" + str(math.ceil(math.log10(d))).translate(fmt.SUPERSCRIPT)

"""Sliders laid out in the shape of a matrix, each bound to the URL under a systematic key.

`slider_grid` draws one slider per cell of an (r, c) matrix with keys `<prefix><i><j>`
(w11 .. w88, 1-based: input i, output j), `slider_row` one per entry of a vector
(x1 .. x8, b1 .. b8). A value set for a cell outside the current size (a link with w77 on a
3 x 2 layer) is simply not drawn; it comes back (persist_state="page") if the size grows.

Layout, measured with Streamlit 1.67 in Chromium: columns that may not stack (wrap=False)
keep a minimum width of 128 px and scroll sideways beyond it, while stacking columns
(wrap=True) shrink to fit on a laptop but turn into one long list below 640 px. So a grid of
up to FIT columns keeps the matrix's shape everywhere (a 2 px gap: three columns fit a 420 px
phone); a wider one shrinks to fit the screen on a laptop and stacks row by row on a phone.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
import streamlit as st

from ui.links import bound

FIT = 5  # columns of 128 px that fit Streamlit's centred 704 px content width

_SUB = str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉")


def sub(text: str) -> str:
    """Unicode subscripts for digits: w31 -> w₃₁."""
    return str(text).translate(_SUB)


def cell_key(prefix: str, i: int, j: int | None = None) -> str:
    """URL key of a cell, 1-based: cell_key("w", 3, 1) -> "w31"; cell_key("x", 2) -> "x2"."""
    return f"{prefix}{i}" if j is None else f"{prefix}{i}{j}"


def grid_columns(spec: list[float]):
    """Columns for one row of a grid (or a row lined up under one): kept in one row when
    they fit, else free to shrink on a laptop and stack on a phone."""
    if len(spec) <= FIT:
        return st.columns(spec, wrap=False, gap=2, vertical_alignment="center")
    return st.columns(spec, vertical_alignment="center")


_PAD = "\u2002"  # an en space HTML does not collapse: keeps a label clear of the "?" to its left


def _slider(label: str, lo: float, hi: float, default: float, step: float, key: str,
            help: str, fmt: str) -> float:
    return float(bound(st.slider, _PAD + label, lo, hi, float(default), step, key=key, help=help,
                       format=fmt, persist_state="page"))


def slider_row(default, *, prefix: str, lo: float, hi: float, step: float, help: str,
               labels: Sequence[str] | None = None, lead: str | None = None,
               lead_width: float = 1.0, fmt: str = "%.2f") -> np.ndarray:
    """One slider per entry of a vector, side by side.

    Parameters
    ----------
    default : array of shape (c,)
    prefix : keys are prefix1 .. prefix<c>
    labels : each slider's label (default: prefix with a subscript index)
    lead : optional text in a first, narrower column (a row name)

    Returns
    -------
    values : array of shape (c,)
    """
    default = np.asarray(default, dtype=float)
    labels = list(labels) if labels is not None else [sub(cell_key(prefix, j + 1))
                                                      for j in range(default.size)]
    spec = ([lead_width] if lead is not None else []) + [1.0] * default.size
    cols = grid_columns(spec)
    if lead is not None:
        cols[0].markdown(lead)
        cols = cols[1:]
    out = np.empty(default.size)  # (c,)
    for j, col in enumerate(cols):
        with col:
            out[j] = _slider(labels[j], lo, hi, default[j], step, cell_key(prefix, j + 1), help, fmt)
    return out


def slider_grid(default, *, prefix: str, lo: float, hi: float, step: float, help: str,
                row_labels: Sequence[str] | None = None, col_labels: Sequence[str] | None = None,
                lead: Callable[[int], None] | None = None, lead_title: str = "",
                lead_width: float = 1.0, fmt: str = "%.2f") -> np.ndarray:
    """One slider per cell of a matrix, drawn row by row in the matrix's own shape.

    Parameters
    ----------
    default : array of shape (r, c)
    prefix : keys are <prefix><i><j>, i = 1..r (row), j = 1..c (column); labels read w₃₁
    row_labels : r names (markdown) in a first column, one per row
    col_labels : c names (markdown) in a header row above the sliders
    lead : instead of row_labels, lead(i) draws row i's first column (e.g. the input x_i's
        own slider, so a row reads "this input, and the weights leaving it")
    lead_title : the header above the first column

    Returns
    -------
    values : array of shape (r, c)
    """
    default = np.asarray(default, dtype=float)
    r, c = default.shape
    spec = [lead_width] + [1.0] * c
    if col_labels is not None:
        head = grid_columns(spec)
        head[0].markdown(lead_title)
        for j in range(c):
            head[j + 1].markdown(col_labels[j])
    out = np.empty((r, c))  # (r, c)
    for i in range(r):
        cols = grid_columns(spec)
        with cols[0]:
            if lead is not None:
                lead(i)
            elif row_labels is not None:
                st.markdown(row_labels[i])
        for j in range(c):
            with cols[j + 1]:
                key = cell_key(prefix, i + 1, j + 1)
                out[i, j] = _slider(sub(key), lo, hi, default[i, j], step, key, help, fmt)
    return out

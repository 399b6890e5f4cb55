"""A matrix you can edit, in its own shape: one slider per cell when it is small, one grid when it is big.

Every cell is its own URL key, declared once with `cells(...)` in the page's `LINKS`
(w11 .. w88: row i, column j, 1-based; a vector x1 .. x8), so an old link that set one cell keeps
working whatever the matrix is drawn as. The card's cells are bound by hand (`hand=True` in
ui.state): a cell beyond the current size, or one shown in the grid instead of a slider, keeps its
value in the link and comes back when its slider does.

Layout, measured with Streamlit 1.67 in Chromium: columns that may not stack (wrap=False) keep a
minimum width of 128 px and scroll sideways beyond it, while stacking columns turn into one long list
below 640 px. So sliders keep the matrix's shape only up to FIT columns (three fit a 420 px phone);
anything wider is edited as one data editor (pages/recipe_card/grid.py), a grid that scrolls inside itself.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
import streamlit as st

from ui import fmt, state

FIT = 3  # slider columns that keep their shape on a 420 px phone (and read well on a projector)

_SUB = str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉")


def sub(text: str) -> str:
    """Unicode subscripts for digits: w31 -> w₃₁."""
    return str(text).translate(_SUB)


def cell_key(prefix: str, i: int, j: int | None = None) -> str:
    """URL key of a cell, 1-based: cell_key("w", 3, 1) -> "w31"; cell_key("x", 2) -> "x2"."""
    return f"{prefix}{i}" if j is None else f"{prefix}{i}{j}"


def cells(prefix: str, default, lo: float, hi: float, step: float, *, help: str, meaning: str,
          hand: bool = False, name: str | None = None) -> list[state.Link]:
    """One slider link per cell of `default` (a vector (c,) or a matrix (r, c)), one README row.

    The label of each is `name` (default: the prefix) with the cell's subscript (w₃₁), the way the
    lesson writes it.
    """
    name = prefix if name is None else name
    default = np.asarray(default, dtype=float)
    idx = ([(j + 1,) for j in range(default.size)] if default.ndim == 1
           else [(i + 1, j + 1) for i in range(default.shape[0]) for j in range(default.shape[1])])
    first, last = cell_key(prefix, *idx[0]), cell_key(prefix, *idx[-1])
    group = f"`{first}`" if first == last else f"`{first}` .. `{last}`"
    return [state.slider(cell_key(prefix, *ij), lo, hi, float(default[tuple(k - 1 for k in ij)]) + 0.0,
                         step, sub(cell_key(name, *ij)), help, number_format="%.1f",
                         group=group, meaning=meaning, hand=hand,
                         values=f"{fmt.num(lo)} to {fmt.num(hi)} in steps of {fmt.num(step)}")
            for ij in idx]


def fits(n_cols: int) -> bool:
    """Can this many columns of sliders (a lead column included) keep their shape on a phone?"""
    return n_cols <= FIT


def grid_columns(spec: list[float]):
    """Columns for one row of a grid (or a row lined up under one), kept in one row."""
    return st.columns(spec, wrap=False, gap=2, vertical_alignment="center")


_PAD = "\u2002"  # an en space HTML does not collapse: keeps a label clear of the "?" to its left


def _slider(links: state.Links, key: str, label: str | None = None) -> float:
    link = links[key]
    return float(links.widget(key, label=_PAD + (label or link.label)))


def slider_row(links: state.Links, prefix: str, n: int, *, labels: Sequence[str] | None = None,
               lead: str | None = None, lead_width: float = 1.0) -> np.ndarray:
    """One slider per entry of a vector prefix1 .. prefix<n>, side by side; returns (n,).

    lead : optional text in a first, narrower column (a row name)
    """
    spec = ([lead_width] if lead is not None else []) + [1.0] * n
    cols = grid_columns(spec)
    if lead is not None:
        cols[0].markdown(lead)
        cols = cols[1:]
    out = np.empty(n)  # (n,)
    for j, col in enumerate(cols):
        with col:
            out[j] = _slider(links, cell_key(prefix, j + 1), None if labels is None else labels[j])
    return out


def slider_grid(links: state.Links, prefix: str, r: int, c: int, *,
                row_labels: Sequence[str] | None = None, col_labels: Sequence[str] | None = None,
                lead: Callable[[int], None] | None = None, lead_title: str = "",
                lead_width: float = 1.0) -> np.ndarray:
    """One slider per cell <prefix><i><j> of an (r, c) matrix, drawn row by row in its shape.

    row_labels : r names (markdown) in a first column, one per row
    col_labels : c names (markdown) in a header row above the sliders
    lead : instead of row_labels, lead(i) draws row i's first column (e.g. the input x_i's own
        slider, so a row reads "this input, and the weights leaving it")

    Returns values (r, c).
    """
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
                out[i, j] = _slider(links, cell_key(prefix, i + 1, j + 1))
    return out

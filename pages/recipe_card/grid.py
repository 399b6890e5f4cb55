"""/recipe-card's big matrix as one grid: a data editor whose every cell is a declared link key
(ui.slider_grid's `cells`), for sizes past the sliders that keep the matrix's shape on a phone.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd
import streamlit as st

from ui import state

_GRIDS = "_grids"  # session_state: {page id: {grid name: the frame its editor was started from}}


def _bases() -> dict:
    return st.session_state.setdefault(_GRIDS, {}).setdefault(state.page_id(), {})


def fresh_grids() -> None:
    """Start every grid of the page again from the values in force (after a button set its cells)."""
    for name in list(_bases()):
        st.session_state.pop(f"{name}_editor", None)
    _bases().clear()


def _refused() -> dict:
    return st.session_state.setdefault(_GRIDS + "_refused", {}).setdefault(state.page_id(), {})


def apply_grid(links: state.Links, name: str, keys: Sequence[Sequence[str]], *, columns: Sequence[str],
               rows: Sequence[str]) -> None:
    """Take what was typed into grid `name` (call before anything reads its cells' values).

    keys : (r, c) nested lists of link keys, cell (i, j) of the grid; columns, rows: the titles.
    A typed number is checked against its key's bounds (ui.state's Link.from_text); a refused one
    is remembered for the one line `cell_editor` prints under the grid, and the cell keeps its value.
    """
    edits = st.session_state.get(f"{name}_editor")
    refused = []
    if isinstance(edits, dict) and name in _bases():
        for r, changes in edits.get("edited_rows", {}).items():
            for col, v in changes.items():
                i, j = int(r), list(columns).index(col)
                key = keys[i][j]
                why, ok = "empty or not a number", None
                if v is not None and np.isfinite(float(v)):
                    try:
                        ok = round(float(links[key].from_text(repr(float(v)))), 6) + 0.0
                    except ValueError as err:
                        why = str(err)
                if ok is None:
                    refused.append(f"{rows[i]}, {col}: {why}")
                elif ok != float(links.value(key)):
                    links.set(key, ok)
    _refused()[name] = refused


def cell_editor(links: state.Links, name: str, keys: Sequence[Sequence[str]], *,
                columns: Sequence[str], rows: Sequence[str], height: int | None = None) -> np.ndarray:
    """A big matrix as one data editor whose every cell is a declared link key (see `apply_grid`,
    which must run first on every run). Returns the values in force, (r, c)."""
    now = np.array([[float(links.value(k)) for k in row] for row in keys])  # (r, c)
    bases = _bases()
    base = bases.get(name)
    if f"{name}_editor" not in st.session_state or base is None or base.shape != now.shape:
        base = now.copy()  # the editor keeps its edits relative to the frame it was first given
        bases[name] = base
    step = links[keys[0][0]].step
    st.data_editor(
        pd.DataFrame(np.round(base, 2) + 0.0, index=list(rows), columns=list(columns)),  # as fmt.frame
        key=f"{name}_editor", num_rows="fixed", width="stretch", height=height or "auto",
        column_config={c: st.column_config.NumberColumn(c, format="plain", step=step) for c in columns},
    )
    refused = _refused().get(name)
    if refused:
        st.error(f"{refused[0]}; still using the last good value.", icon=":material/error:")
    return now

"""An editable matrix that keeps its last good value and travels in the link.

st.data_editor cannot be bound to the URL, so the matrix keeps a compact form in
st.query_params by hand: rows split by ';', numbers by ',' (`w1=0.5,-1;-1,0`).
A cell left empty or holding no finite number gets one line under the matrix, and the
page keeps computing with the last good matrix.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import streamlit as st

from ui import links


def format_matrix(M) -> str:
    """Compact URL form: '0.5,-1;-1,0' (shortest text that round-trips each float)."""
    M = np.atleast_2d(np.asarray(M, dtype=float))
    return ";".join(",".join(f"{v:.6g}" for v in row) for row in M)


def parse_matrix(text: str, shape: tuple[int, ...]) -> np.ndarray:
    """Parse the compact form back; raises ValueError with a reason a student can act on."""
    rows = [r for r in str(text).strip().split(";")]
    cells = [r.split(",") for r in rows]
    want_rows, want_cols = (1, shape[0]) if len(shape) == 1 else shape
    if len(cells) != want_rows or any(len(r) != want_cols for r in cells):
        got = f"{len(cells)} x {max(len(r) for r in cells)}"
        raise ValueError(f"expected {want_rows} x {want_cols} numbers, got {got}")
    out = np.empty((want_rows, want_cols))
    for i, row in enumerate(cells):
        for j, cell in enumerate(row):
            try:
                v = float(cell)
            except ValueError:
                raise ValueError(f"row {i + 1}, column {j + 1} is not a number") from None
            if not math.isfinite(v):
                raise ValueError(f"row {i + 1}, column {j + 1} is not a finite number")
            out[i, j] = v
    return out.reshape(shape)


def matrix_input(label: str, default, *, key: str, help: str,
                 row_labels=None, col_labels=None, fmt: str = "%.2f") -> np.ndarray:
    """An editable matrix (or vector) bound to the URL parameter `key`; returns the good value.

    Parameters
    ----------
    default : array of shape (r, c) or (c,)
    key : the URL parameter; the editor's own widget key is `key + "_editor"`.
    """
    default = np.asarray(default, dtype=float)
    good, base = _state_keys(key)
    if good not in st.session_state or np.shape(st.session_state[good]) != default.shape:
        start, raw = default, st.query_params.get(key)
        if raw is not None:
            try:
                start = parse_matrix(raw, default.shape)
            except ValueError as err:
                links.note(key, links.ignored(key, raw, f"{err}; using the default"))
        st.session_state[good] = st.session_state[base] = start

    if f"{key}_editor" not in st.session_state:
        # The editor was not drawn on the last run (a hidden section), so Streamlit dropped
        # its edits: start it again from the last good values rather than the first ones.
        st.session_state[base] = st.session_state[good]
    shown = np.atleast_2d(st.session_state[base])
    rows = list(row_labels) if row_labels is not None else [str(i + 1) for i in range(shown.shape[0])]
    cols = list(col_labels) if col_labels is not None else [str(j + 1) for j in range(shown.shape[1])]
    frame = pd.DataFrame(shown, index=rows, columns=cols)
    if label:
        st.caption(f"**{label}**: {help}")
    edited = st.data_editor(
        frame, key=f"{key}_editor", num_rows="fixed", width="content",
        column_config={c: st.column_config.NumberColumn(c, format=fmt, step=0.01) for c in cols},
    )
    values = edited.to_numpy(dtype=float).reshape(default.shape)
    bad = np.argwhere(~np.isfinite(np.atleast_2d(values)))
    if bad.size:
        i, j = bad[0]
        st.error(f"{label or key}: row {rows[i]}, column {cols[j]} is empty or not a number; "
                 "still using the last good values.", icon=":material/error:")
    else:
        st.session_state[good] = values
        if np.array_equal(values, default):
            st.query_params.pop(key, None)
        else:
            st.query_params[key] = format_matrix(values)
    links.show_note(key)
    return np.array(st.session_state[good])


def _state_keys(key: str) -> tuple[str, str]:
    """Session-state keys of a matrix's last good and starting values, kept per page."""
    page = links.page_id()
    return f"_matrix_{page}_{key}_good", f"_matrix_{page}_{key}_base"


def reset_matrix(key: str) -> None:
    """Forget a matrix's edits (call before it is drawn, e.g. from a button's on_click)."""
    for k in (*_state_keys(key), f"{key}_editor"):
        st.session_state.pop(k, None)
    st.query_params.pop(key, None)

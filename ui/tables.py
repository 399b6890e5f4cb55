"""Tables of signed numbers, drawn as the card writes them.

st.dataframe draws a number cell "-0.65" (JavaScript's own text, and no NumberColumn format changes its
sign), where every sentence, metric and chart here writes "−0.65". A pandas Styler's display values do
change it, but Streamlit turns them into a table cell by cell: 14 ms of server CPU for a 2 x 6 table on
every move, and a pandas frame converted to Arrow costs 6 ms more where an Arrow table built directly
costs 0.3 ms. So the numbers go as text, in an Arrow table, right-aligned as numbers stand; the hidden
table a screen reader and a copy read holds the same text as the screen. A column of text sorts as
text: these tables are a few rows of a worked example, read, not sorted.
"""
from __future__ import annotations

import pyarrow as pa
import streamlit as st

from ui import fmt

ROWS = " "   # the column of row names (an Arrow table has no index), pinned at the left as an index is


def signed(columns, digits: int = 3, *, fixed_digits: bool = False, only=None, rows=None,
           column_config=None, **kwargs) -> None:
    """st.dataframe of `columns` ({name: values}) whose columns of numbers (or only those in `only`) are
    written by fmt.grid and right-aligned; `rows` names the rows. A column's label, help and width in
    `column_config` are kept."""
    text = fmt.grid(columns, digits, fixed_digits=fixed_digits, only=only)
    config = dict(column_config or {})
    for name, values in columns.items():
        if fmt.numbers(values) and (only is None or name in only):
            given = config.get(name) or {}
            config[name] = st.column_config.TextColumn(given.get("label", name), help=given.get("help"),
                                                       width=given.get("width"), alignment="right")
    if rows is not None:
        text = {ROWS: [str(r) for r in rows], **text}
        config[ROWS] = st.column_config.TextColumn(ROWS, pinned=True)
    st.dataframe(pa.table(text), hide_index=True, column_config=config, **kwargs)

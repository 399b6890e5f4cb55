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

import html
import numbers

import pyarrow as pa
import streamlit as st

from ui import fmt
from ui.charts import SR_ONLY

ROWS = " "   # the column of row names (an Arrow table has no index), pinned at the left as an index is


def signed(columns, digits: int = 3, *, fixed_digits: bool = False, only=None, rows=None,
           column_config=None, caption: str | None = None, **kwargs) -> None:
    """st.dataframe of `columns` ({name: values}) whose columns of numbers (or only those in `only`) are
    written by fmt.grid and right-aligned; `rows` names the rows. A column's label, help and width in
    `column_config` are kept. The same cells follow as text a screen reader reaches (`caption` names it)."""
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
    order = kwargs.get("column_order")
    names = [n for n in dict.fromkeys([*([ROWS] if rows is not None else []), *(order or text)]) if n in text]
    rows_text = [[cell(v) for v in row] for row in zip(*(text[n] for n in names), strict=True)]
    as_text(names, rows_text, caption or _caption(names))


def _caption(columns) -> str:
    return "Table: " + ", ".join(str(c) for c in columns if str(c).strip())


def cell(v) -> str:
    """One cell as the page writes it: numbers by ui.fmt (a whole number with its separators), text as is."""
    if v is None:
        return ""
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, numbers.Integral):
        return fmt.count(v)
    if isinstance(v, numbers.Real):
        return fmt.num(float(v))
    return str(v)


def cells(data, *, index: bool = False, order=None) -> tuple[list[str], list[list[str]]]:
    """A table's header and rows as text: a pandas DataFrame (its index first when `index`), an Arrow
    table (pandas' index column, if any, first), a dict of columns or a list of row dicts."""
    if isinstance(data, pa.Table):
        cols = data.to_pydict()
        idx = [c for c in cols if c.startswith("__index_level_")]
        cols = {(" " if c in idx else c): v for c, v in
                sorted(cols.items(), key=lambda kv: kv[0] not in idx)}
    elif isinstance(data, list):
        cols = {k: [r.get(k) for r in data] for k in (data[0] if data else {})}
    elif isinstance(data, dict):
        cols = {k: list(v) for k, v in data.items()}
    else:   # pandas
        cols = {str(c): data[c].tolist() for c in data.columns}
        if index:
            cols = {" ": [str(i) for i in data.index], **cols}
    names = [n for n in ([" "] if " " in cols else []) + list(order or cols) if n in cols]
    names = list(dict.fromkeys(names))
    return names, [[cell(v) for v in row] for row in zip(*(cols[n] for n in names), strict=True)]


def as_text(columns, rows, caption: str) -> None:
    """A table only a screen reader meets: `caption`, a header row, the rows (cells already written)."""
    esc = html.escape
    head = "".join(f'<th scope="col">{esc(str(c))}</th>' for c in columns)
    body = "".join("<tr>" + "".join(f"<td>{esc(str(v))}</td>" for v in row) + "</tr>" for row in rows)
    st.html(f'<table class="{SR_ONLY}"><caption>{esc(caption)}</caption><thead><tr>{head}</tr></thead>'
            f"<tbody>{body}</tbody></table>")


def grid(data, caption: str, *, hide_index: bool = True, **kwargs) -> None:
    """st.dataframe of `data`, and the same cells under it as a table a screen reader reaches (`caption`
    names it): for a grid that carries a lesson's answer."""
    st.dataframe(data, hide_index=hide_index, **kwargs)
    columns, rows = cells(data, index=not hide_index, order=kwargs.get("column_order"))
    config = kwargs.get("column_config") or {}
    for j, c in enumerate(columns):   # the grid's own header and a percentage's sign
        given = config.get(c) or {}
        if "%%" in str((given.get("type_config") or {}).get("format", "")):
            rows = [[*r[:j], r[j] + " %", *r[j + 1:]] for r in rows]
        columns[j] = given.get("label") or c
    as_text(columns, rows, caption)

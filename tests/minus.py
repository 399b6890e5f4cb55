"""One minus sign in tables too (issue 34, item 7): a table's negative numbers are drawn "−0.65", as the
card and every sentence write them, never "-0.65".

What st.dataframe sends is checked here, from an AppTest element's proto or from a message the browser
received: the table's cells (an Arrow stream) and, when a pandas Styler made it, the text each cell is
drawn with (`styler.display_values`, the same columns). The grid draws a number cell with no display
value as JavaScript writes it, with a hyphen.
"""
from __future__ import annotations

import re

import pyarrow as pa

MINUS = "\u2212"
HYPHEN_NUMBER = re.compile(r"(?<![\w.])-\d")   # "-0.65" in a text cell; "x-1" and "1-2" are words


def _read(data: bytes) -> pa.Table:
    return pa.ipc.open_stream(data).read_all()


def minus_problems(proto) -> tuple[list[str], int]:
    """(what is drawn with a hyphen, how many negative numbers were checked) for one st.dataframe proto
    (streamlit.proto.Dataframe_pb2.Dataframe)."""
    arrow = proto.arrow_data
    if not arrow.data:
        return [], 0
    data = _read(arrow.data)
    shown = _read(arrow.styler.display_values) if arrow.styler.display_values else None
    problems, checked = [], 0
    for name in data.column_names:
        col = data.column(name)
        values = col.to_pylist()
        if pa.types.is_integer(col.type) or pa.types.is_floating(col.type):
            texts = (shown.column(name).to_pylist() if shown is not None and name in shown.column_names
                     else [None] * len(values))
            for row, (v, text) in enumerate(zip(values, texts, strict=True)):
                if v is None or v >= 0:
                    continue
                checked += 1
                if text is None or not str(text).startswith(MINUS) or "-" in str(text):
                    problems.append(f"{name!r} row {row}: {v} is drawn "
                                    + (repr(text) if text is not None else "by the grid, with a hyphen"))
        elif pa.types.is_string(col.type) or pa.types.is_large_string(col.type):
            for row, v in enumerate(values):
                if v and HYPHEN_NUMBER.search(v):
                    problems.append(f"{name!r} row {row}: {v!r}")
                checked += bool(v and MINUS in v)
    return problems, checked


def sent_tables(frames) -> list:
    """The st.dataframe protos in the messages a browser received (binary websocket frames, each a
    ForwardMsg), read-only ones only: an editable table (st.data_editor) draws its cells with the
    grid's own number editor, which Styler text cannot reach (Streamlit applies a Styler to disabled
    columns only), so its cells show what a keyboard types."""
    found = []
    for delta in deltas(frames):
        if delta.WhichOneof("type") != "new_element":
            continue
        element = delta.new_element
        if element.WhichOneof("type") == "dataframe" and read_only(element.dataframe):
            found.append(element.dataframe)
    return found


def deltas(frames):
    """The page changes (ForwardMsg deltas) in the binary websocket frames a browser received."""
    from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

    for raw in frames:
        if not isinstance(raw, bytes):
            continue
        msg = ForwardMsg()
        try:
            msg.ParseFromString(raw)
        except Exception:   # not a ForwardMsg: nothing of ours
            continue
        if msg.WhichOneof("type") == "delta":
            yield msg.delta


def read_only(proto) -> bool:
    return proto.editing_mode == proto.EditingMode.READ_ONLY

"""Shareable links: widgets bound to the URL, and one visible line for every link value ignored.

Streamlit (>= 1.55) binds a widget to a query parameter with bind="query-params" and
silently drops a value it cannot use (?lr=abc on a slider). The wrappers here read the raw
value before the widget is drawn and notice when Streamlit dropped it, so the page can say
so right under the widget. A note stays until the student changes that widget.

Values the page parses itself (hidden=16,16, a matrix) report through `note`.
"""

from __future__ import annotations

from typing import Any

import streamlit as st

_NOTES = "_link_notes"  # session_state: {page: {key: (message, value shown when noted)}}


def page_id() -> str:
    """The running page's id: state that is not a widget's is kept per page with it, so two
    lessons may use the same short link key (w1, bend) without seeing each other's values."""
    from streamlit.runtime.scriptrunner import get_script_run_ctx

    ctx = get_script_run_ctx()
    return ctx.page_script_hash if ctx is not None else ""


def _notes() -> dict:
    return st.session_state.setdefault(_NOTES, {}).setdefault(page_id(), {})


def _same(raws: list[str], value: Any) -> bool:
    """Do the raw URL texts mean the widget's value (Streamlit drops values equal to defaults)?

    Multi-valued widgets (multiselect) travel as repeated parameters: ?show=relu&show=tanh.
    """
    if isinstance(value, (list, tuple)):
        return sorted(raws) == sorted(str(v) for v in value)
    raw = raws[-1]
    if isinstance(value, bool):
        return raw.strip().lower() == str(value).lower()
    if isinstance(value, (int, float)):
        try:
            return float(raw) == float(value)
        except ValueError:
            return False
    return raw == str(value)


def _safe(raw: str, limit: int = 40) -> str:
    """URL text for display: shortened, and unable to break out of inline code."""
    raw = raw.replace("`", "'").replace("\n", " ")
    return raw if len(raw) <= limit else raw[: limit - 1] + "…"


def note(key: str, message: str, value: Any = None) -> None:
    """Remember that a link value was ignored; `show_note(key)` prints it."""
    _notes()[key] = (message, value)


def ignored(key: str, raw: str, why: str) -> str:
    """The one-line message for an ignored link value."""
    return f"Ignored `{key}={_safe(raw)}` from the link: {why}."


def show_note(key: str, current: Any = None) -> None:
    """Print the note for `key`, unless the student has since changed the value."""
    notes = _notes()
    if key not in notes:
        return
    message, value = notes[key]
    if current is not None and value is not None and not _equal(current, value):
        del notes[key]
        return
    st.caption(f":orange[:material/link_off: {message}]")


def _equal(a: Any, b: Any) -> bool:
    try:
        return bool(a == b) if not hasattr(a, "shape") else bool((a == b).all())
    except (TypeError, ValueError):
        return False


def bound(widget, label: str, *args, key: str, **kwargs):
    """Draw `widget` (st.slider, st.selectbox, ...) bound to the URL parameter `key`.

    Returns the widget's value. If the link carried a value for `key` that Streamlit could
    not use, a one-line note appears under the widget until the value is changed.
    """
    raws = st.query_params.get_all(key)
    value = widget(label, *args, key=key, bind="query-params", **kwargs)
    dropped = key not in st.query_params or isinstance(value, (list, tuple))
    if raws and dropped and not _same(raws, value):
        shown = ", ".join(map(str, value)) if isinstance(value, (list, tuple)) else value
        note(key, ignored(key, "&".join(raws), f"using {shown} instead"), value)
    show_note(key, value)
    return value

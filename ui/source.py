"""Show the source of the lib function a page just ran: the code is part of the lesson."""

from __future__ import annotations

import functools
import inspect

import streamlit as st


@functools.cache
def _source(fn) -> tuple[str, str]:
    """(module.name, source) of a function: read from disk once per process, since
    inspect.getsource checks the file on every call (6-13 % of a rerun in the profiles)."""
    module = inspect.getmodule(fn)
    return f"{module.__name__ if module else ''}.{fn.__name__}", inspect.getsource(fn)


def show_source(*functions, label: str = "The code that computed this") -> None:
    """An expander with the source of each function, as the page really ran it."""
    with st.expander(label, icon=":material/code:"):
        for fn in functions:
            name, code = _source(fn)
            st.caption(f"`{name}`")
            st.code(code, language="python")

"""Show the source of the lib function a page just ran: the code is part of the lesson."""

from __future__ import annotations

import inspect

import streamlit as st


def show_source(*functions, label: str = "The code that computed this") -> None:
    """An expander with the source of each function, as the page really ran it."""
    with st.expander(label, icon=":material/code:"):
        for fn in functions:
            module = inspect.getmodule(fn)
            st.caption(f"`{module.__name__ if module else ''}.{fn.__name__}`")
            st.code(inspect.getsource(fn), language="python")

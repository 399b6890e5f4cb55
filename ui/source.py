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


def source_key(*functions) -> str:
    """The widget key of the expander that shows these functions (it holds whether it is open)."""
    return "source:" + ",".join(_source(fn)[0] for fn in functions)


def show_source(*functions, label: str = "The code that computed this", note: str | None = None) -> None:
    """An expander with the source of each function, as the page really ran it (and `note`, a teacher's
    word on how it is run and checked, file paths and all: kept off the student's screen until opened).

    Lazy (`on_change="rerun"`): the code is drawn only while the expander is open. A browser
    re-renders every element of a page on each run, drawn in a closed expander or not (about 0.35 ms
    an element, docs/PROFILE.md round 6), so closed code costs every slider move; opening it reruns
    the page (or its fragment) once."""
    box = st.expander(label, icon=":material/code:", key=source_key(*functions), on_change="rerun")
    if not box.open:
        return
    with box:
        if note:
            st.caption(note)
        for fn in functions:
            name, code = _source(fn)
            st.caption(f"`{name}`")
            st.code(code, language="python")

"""Secrets out of the browser's history: a teacher's `key` leaves the address bar without a Back that
brings it back.

Why. Streamlit 1.67 writes a query the script changes (`del st.query_params["key"]`) into the address bar
with `history.pushState` (its frontend's handlePageInfoChanged; only a widget's own URL sync and a history
navigation use `replaceState`). So the teacher's link `/class?code=X&key=K` stayed in the history under
the clean `/class?code=X` that was pushed on top of it, and Back showed the key again.

How. The page draws a tiny custom component (`st.components.v2`: it runs in the page itself, not in an
iframe) that takes the names out of the *current* history entry with `history.replaceState`, then tells
the server (a trigger). The server then drops them from `st.query_params`: Streamlit compares that query
with the address bar, finds them equal, and pushes nothing. If the script cannot run (no JavaScript), the
next run of the page drops them the old way (pushed: out of the address bar, though not out of history).
"""

from __future__ import annotations

import json
import secrets
from functools import cache, partial

import streamlit as st

NAME = "layerlab_forget"
_JS = r"""
export default function (component) {
  const { data, setTriggerValue } = component;
  if (!data) return;
  const { names, id } = JSON.parse(data);
  const url = new URL(window.location.href);
  let changed = false;
  for (const name of names) {
    if (url.searchParams.has(name)) { url.searchParams.delete(name); changed = true; }
  }
  // This entry, replaced: nothing is pushed, so Back never finds these names.
  if (changed) window.history.replaceState(window.history.state, '', url.toString());
  if (window.__layerLabForgot !== id) {
    window.__layerLabForgot = id;
    setTimeout(() => setTriggerValue('done', id), 0);
  }
}
"""
_ASKED = "_history_forget_asked"   # session: the names this session's page was asked to forget


@cache
def _component():
    return st.components.v2.component(NAME, js=_JS)


def _done(names: tuple[str, ...]) -> None:
    """The browser replaced its history entry: drop the names here too (Streamlit pushes nothing, the
    address bar already matching)."""
    for name in names:
        st.query_params.pop(name, None)
    st.session_state.pop(_ASKED, None)


def forget(*names: str) -> None:
    """Take `names` out of the address bar and out of the browser's history entry, once they have been
    read (call on every run: it draws nothing once they are gone)."""
    present = tuple(n for n in names if n in st.query_params)
    if not present:
        st.session_state.pop(_ASKED, None)
        return
    if st.session_state.get(_ASKED) == present:
        # Asked on an earlier run and still here: the browser did not answer. Drop them the pushed way.
        _done(present)
        return
    st.session_state[_ASKED] = present
    data = json.dumps({"names": list(present), "id": secrets.token_hex(8)})
    _component()(key=NAME, data=data, height=0, on_done_change=partial(_done, present))

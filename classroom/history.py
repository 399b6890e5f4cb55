"""Secrets out of the browser's history: a teacher's `key` leaves the address bar without a Back that
brings it back, and a student's `seat` enters only the one entry a reload reads.

Why. Streamlit 1.67 writes a query the script changes (`del st.query_params["key"]`) into the address bar
with `history.pushState` (its frontend's handlePageInfoChanged; only a widget's own URL sync and a history
navigation use `replaceState`). So the teacher's link `/class?code=X&key=K` stayed in the history under
the clean `/class?code=X` that was pushed on top of it, and Back showed the key again.

How. The page draws a tiny custom component (`st.components.v2`: it runs in the page itself, not in an
iframe) that takes the names out of the *current* history entry with `history.replaceState`, then tells
the server (a trigger). The server then drops them from `st.query_params`: Streamlit compares that query
with the address bar, finds them equal, and pushes nothing. If the script cannot run (no JavaScript), the
next run of the page drops them the old way (pushed: out of the address bar, though not out of history).
A student's seat is put into /trainer's entry the same way: `st.switch_page(..., query_params=...)` first
pushed the new query onto the page being left (`/class?class=X&seat=T`), then the new page.
Once a page keeps a name in one entry (a lesson's seat), a push to the same page with another query
replaces the entry instead: a lesson's step on the page it is on sets each control's value, and Streamlit
pushed an entry per query it sent (two a control, 49 for two steps of /recipe-card, past Chromium's cap
of 50), so Back walked the student through half-set steps before it left the page.
"""

from __future__ import annotations

import json
import secrets
from functools import cache, partial

import streamlit as st

NAME = "layerlab_history"
_JS = r"""
export default function (component) {
  const { data, setTriggerValue } = component;
  if (!data) return;
  const { put, drop, id, one, cookies } = JSON.parse(data);
  if (one && one.length) {
    // These names live in one entry only: before the app pushes a new entry (a page switch, a lesson's
    // next step), they leave the one it leaves; the new page puts them into its own.
    window.__layerLabOne = one;
    if (!window.__layerLabOneGuard) {
      window.__layerLabOneGuard = true;
      const push = window.history.pushState.bind(window.history);
      window.history.pushState = function (state, title, next) {
        const here = new URL(window.location.href);
        // The same page with another query (a lesson's next step on this page: Streamlit pushes once per
        // control the step sets, about 16 entries a step) replaces this entry: Back leaves the page.
        if (window.__layerLabOne && new URL(next, here).pathname === here.pathname)
          return window.history.replaceState(state, title, next);
        const kept = (window.__layerLabOne || []).filter((name) => here.searchParams.has(name));
        for (const name of kept) here.searchParams.delete(name);
        if (kept.length) window.history.replaceState(window.history.state, '', here.href);
        return push(state, title, next);
      };
    }
  }
  // A lesson's seat, for this browser's next visit to the class's join link (a session cookie, this site)
  for (const [name, value] of Object.entries(cookies || {}))
    document.cookie = `${name}=${encodeURIComponent(value)}; path=/; SameSite=Strict`;
  const url = new URL(window.location.href);
  for (const name of drop) url.searchParams.delete(name);
  for (const [name, value] of Object.entries(put)) url.searchParams.set(name, value);
  // This entry, replaced: nothing is pushed, so Back never finds what was dropped, and what was put is
  // in this entry alone (a reload reads it).
  if (url.href !== window.location.href) window.history.replaceState(window.history.state, '', url.href);
  if (window.__layerLabHistory !== id) {
    window.__layerLabHistory = id;
    setTimeout(() => setTriggerValue('done', id), 0);
  }
}
"""
_ASKED = "_history_asked"   # session: what this session's page was last asked to change in its entry


@cache
def _component():
    return st.components.v2.component(NAME, js=_JS)


def _apply(put: dict[str, str], drop: tuple[str, ...]) -> None:
    """The browser replaced its history entry: the same here (Streamlit then finds the address bar
    already matching, and pushes nothing)."""
    for name in drop:
        st.query_params.pop(name, None)
    for name, value in put.items():
        st.query_params[name] = value
    st.session_state.pop(_ASKED, None)


def _replace(put: dict[str, str], drop: tuple[str, ...], one: tuple[str, ...] = (),
             cookies: dict[str, str] | None = None) -> None:
    if not put and not drop:
        st.session_state.pop(_ASKED, None)
        return
    ask = (tuple(sorted(put.items())), drop)
    if st.session_state.get(_ASKED) == ask:
        # Asked on an earlier run and still not done: the browser did not answer. The pushed way, then.
        _apply(put, drop)
        return
    st.session_state[_ASKED] = ask
    data = json.dumps({"put": put, "drop": list(drop), "id": secrets.token_hex(8), "one": list(one),
                       "cookies": cookies or {}})
    _component()(key=NAME, data=data, height=0, on_done_change=partial(_apply, put, drop))


def forget(*names: str) -> None:
    """Take `names` out of the address bar and out of the browser's history entry, once they have been
    read (call on every run: it draws nothing once they are gone)."""
    _replace({}, tuple(n for n in names if n in st.query_params))


def put(one: bool = False, cookies: dict[str, str] | None = None, **params: str) -> None:
    """Write `params` into the address bar's current entry (a reload reads them), never into a new one
    (call on every run: it draws nothing once they are there). `one`: and keep them in that one entry: the
    page takes them out of an entry before the app pushes the next (a lesson's steps, issue 44: the seat was
    in about 15 entries per step), so only the entry the browser is on holds them. `cookies` are set with
    them (session cookies of this site: st.context.cookies reads them in the browser's next session)."""
    _replace({k: v for k, v in params.items() if st.query_params.get(k) != v}, (),
             tuple(params) if one else (), cookies)

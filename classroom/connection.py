"""The class store as every part of the class room reaches it: one Store per process (`store()`, where
LAYERLAB_DB or the secrets say), and how a page part lives through it being away (`away`) or through a row
no check foresaw (`guarded`). Every module calls `connection.store()` through this module, so a test that
swaps it swaps it for all.
"""

from __future__ import annotations

import contextlib
import functools
import logging

import streamlit as st

from classroom.text import AWAY
from store import Client, Store, StoreDown
from ui import state

LOOK_AGAIN = 5.0             # seconds between two looks at a store that is away


def store_url() -> str | None:
    """LAYERLAB_DB if set, else Streamlit's `[connections.layerlab] url` in .streamlit/secrets.toml, else
    None (the store's SQLite file under the home folder)."""
    import os

    if os.environ.get("LAYERLAB_DB"):
        return os.environ["LAYERLAB_DB"]
    with contextlib.suppress(Exception):   # no secrets file: nothing set
        return st.secrets["connections"]["layerlab"]["url"]
    return None


@st.cache_resource(show_spinner=False)
def store() -> Store:
    """One store per process (its connection pool is shared by the sessions). Making it connects to
    nothing: a database that is away at its first use is tried again at the next (store.Store._open)."""
    return Store(store_url())


def client() -> Client:
    """Who this page is, as the store counts joins, starts, saves and short links (issue 44): the address
    the request came from and the browser's XSRF cookie (Streamlit's, set on the first page load), each
    only as a digest. Streamlit names no address for a loopback connection: there the balancer deploy/serve
    runs (deploy/haproxy.cfg) names the browser's in X-Forwarded-For (its own, last: what a client sent
    itself is dropped there first); a page opened on this machine has none. Outside a server: none."""
    try:
        address = st.context.ip_address or ""
        forwarded = st.context.headers.get("X-Forwarded-For") or ""
        cookie = st.context.cookies.get("_streamlit_xsrf") or ""
    except Exception:   # no request behind this run (a test's script)
        return Client()
    if forwarded and not address:   # from this machine: the balancer, which says whose request it is
        address = forwarded.split(",")[-1].strip()
    return Client.of(address, cookie)


class away(contextlib.ContextDecorator):   # lower case: used as a decorator and a `with`, like suppress
    """How a page part lives through the class store being away: the StoreDown it raises (store/ turns
    every outage into one) becomes one line where the part was, and the rest of the page runs on.
    `look_again`: a small fragment looks at the store every LOOK_AGAIN s and reruns the page once it
    answers (a part in a `run_every` fragment needs none: its next run is the look). `line=None`: a part
    beside another that says it already (the snapshots beside the board) keeps quiet: one line a page."""

    def __init__(self, line: str | None = AWAY, look_again: bool = False):
        self.line, self.look_again = line, look_again

    def __enter__(self):
        return self

    def __exit__(self, kind, err, tb) -> bool:
        if not isinstance(err, StoreDown):
            return False
        if self.line:
            st.warning(self.line, icon=":material/cloud_off:")
        if self.look_again:
            look_again()
        return True


def look_again() -> None:
    """A small fragment that looks at the store every LOOK_AGAIN s and reruns the page once it answers."""
    state.watcher(_look_again, LOOK_AGAIN)


def _look_again() -> None:
    if store().ping():
        state.rerun_page("the class store answers again")


def guarded(what: str):
    """A part of a page that draws what the store holds: whatever fails inside it (a row no check foresaw)
    leaves one line in its place and the rest of the page drawn. The database away is not this part's to
    say: StoreDown goes on to the `away` round the live part or the page, which says it once. Streamlit's own
    rerun and stop (BaseException) pass through."""
    def wrap(draw):
        @functools.wraps(draw)
        def run(*args, **kwargs):
            try:
                return draw(*args, **kwargs)
            except StoreDown:   # the database away: one line for the whole live part, where `away` stands
                raise
            except Exception:
                logging.getLogger(__name__).exception("%s could not be drawn", what)
                st.caption(f":material/error: {what} could not be drawn just now; the rest of the page "
                           "works.")
                return None
        return run
    return wrap

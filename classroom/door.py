"""The way into a class: a student's join code and nickname (Join, and the floods it is kept from: so many
presses and wrong codes a minute), the teacher's key (read from the link once, kept in this session only,
removed from the address bar, checked by the store on every change), and the student link with its QR.
"""

from __future__ import annotations

import collections
import io
import threading
import time

import streamlit as st

from classroom import connection
from classroom.session import KEYS, LINK_MISSED, MISSES, TRIES
from store import ClassInfo, NoClass, StoreDown, StoreError, normal_code

# --- floods: join presses and join codes ------------------------------------------------------------
# Per page (session): at most JOIN_TRIES presses of Join and WRONG_CODES codes no class has (typed, or in a
# /class?code= link) a minute. A new tab is a new session, so per process there is a budget too: past
# WRONG_BUDGET wrong codes a minute the server is being guessed at, and a page that has already named a
# wrong code looks up no other until the minute is under budget again. A page's first code (the QR link's,
# typed off the board) is never refused; a guesser pays a new session for every further guess. A class
# makes a few typos a minute; a guessing client made 20 to 45 a second.
JOIN_TRIES, WRONG_CODES, WRONG_BUDGET = 10, 5, 60
_wrong: collections.deque[float] = collections.deque()   # this process's wrong codes (monotonic times)
_wrong_lock = threading.Lock()


def _recent(key: str, now: float) -> list[float]:
    kept = [t for t in st.session_state.get(key, ()) if now - t < 60.0]
    st.session_state[key] = kept
    return kept


def _wait_line(times: list[float], now: float) -> str:
    return f"wait {max(1, int(60.0 - (now - times[0])) + 1)} s, then try again."


def _guessing(now: float) -> bool:
    with _wrong_lock:
        while _wrong and now - _wrong[0] >= 60.0:
            _wrong.popleft()
        return len(_wrong) >= WRONG_BUDGET


def _may_look_up(now: float) -> None:
    """StoreError (one line) when this page may not look up another join code just now."""
    missed = _recent(MISSES, now)
    if len(missed) >= WRONG_CODES:
        raise StoreError(f"{WRONG_CODES} wrong join codes from this page in a minute: check the code on the "
                         f"board and {_wait_line(missed, now)}")
    if missed and _guessing(now):
        raise StoreError("Many wrong join codes reach this server just now: check the code on the board (or "
                         "open the class's link) and try again in a minute.")


def _missed(now: float) -> None:
    st.session_state.setdefault(MISSES, []).append(now)
    _guessing(now)          # the minute's count only: a guesser with a new page per guess grows nothing
    with _wrong_lock:
        _wrong.append(now)


def find(code: str) -> ClassInfo | None:
    """The class of a join code from a link (/class?code=), counted like a typed one when no class has
    it (once: the page's reruns with the same link are not new tries). StoreError when this page may not
    look up another; StoreDown when the store is away."""
    code = normal_code(code)
    if st.session_state.get(LINK_MISSED) == code:
        return None
    now = time.monotonic()
    _may_look_up(now)
    info = connection.store().get_class(code)
    if info is None:
        _missed(now)
        st.session_state[LINK_MISSED] = code
    return info


def join(code: str, nickname: str) -> str:
    """A student presses Join: a seat's token, or StoreError with one line (a refusal, a limit, the store
    away). The class's own limits (full, closed, seats a minute) are the store's, on every replica."""
    now = time.monotonic()
    tries = _recent(TRIES, now)
    if len(tries) >= JOIN_TRIES:
        raise StoreError(f"{JOIN_TRIES} tries to join from this page in a minute: {_wait_line(tries, now)}")
    _may_look_up(now)
    tries.append(now)
    try:
        return connection.store().join(code, nickname)
    except NoClass:
        _missed(now)
        raise
    except StoreDown:
        raise StoreError("The class store cannot be reached just now: press Join again in a "
                         "moment.") from None


# --- the teacher's key, the student link --------------------------------------------------------------
def take_key(code: str | None) -> None:
    """A teacher's link carries `key`: keep it in this session, and take it out of the address bar and out
    of the browser's history (classroom/history.py: a plain `del st.query_params` left it one Back away)."""
    from classroom import history

    key = st.query_params.get("key")
    if key is not None and code:
        st.session_state.setdefault(KEYS, {})[normal_code(code)] = key
    history.forget("key")


def key_for(code: str) -> str | None:
    return st.session_state.get(KEYS, {}).get(normal_code(code))


def is_teacher(code: str) -> bool:
    return connection.store().is_teacher(code, key_for(code))


def base_url() -> str:
    """Where students reach this app ('http://host:port'): the page's address, or the machine's network
    address when the teacher opened a loopback one (ui.address)."""
    from ui import address

    return address.base()[0]


@st.cache_data(max_entries=64, show_spinner=False)
def qr_png(link: str) -> bytes:
    """The student link as a QR code (segno), black on white, readable from the back of a room: drawn once
    per link and process (segno took a few ms on every run of the teacher's page, Next and Reveal too)."""
    import segno

    buf = io.BytesIO()
    segno.make(link, error="m").save(buf, kind="png", scale=10, border=2)
    return buf.getvalue()

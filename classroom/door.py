"""The way into a class: a student's join code and nickname (Join, and the floods it is kept from: so many
presses and wrong codes a minute), the teacher's key (read from the link once, kept in this session only,
removed from the address bar, checked by the store on every change), and the student link with its QR.
"""

from __future__ import annotations

import collections
import io
import threading
import time
from collections.abc import Callable
from typing import TypeVar

import streamlit as st

from classroom import connection
from classroom.session import KEYS, LINK_MISSED, MISSES, SPENT, TRIES
from store import ClassInfo, Client, NoClass, StoreDown, StoreError, normal_code

T = TypeVar("T")

# --- floods: join presses and join codes ------------------------------------------------------------
# Per page (session): at most JOIN_TRIES presses of Join and WRONG_CODES codes no class has (typed, or in a
# /class?code= link) a minute. A new tab is a new session, so per client (its address, connection.client)
# there is a budget too: past WRONG_BUDGET wrong codes a minute from one address that address is guessing,
# and a page of it that has already named a wrong code looks up no other until the minute is under budget
# again. A page's first code (the QR link's, typed off the board) is never refused; a guesser pays a new
# session for every further guess. A class makes a few typos a minute; a guessing client made 20 to 45 a
# second. The budget was the process's until issue 44: one guesser then locked out every student of the
# server who had mistyped once. The same limits hold for a saved lesson's code (`looked_up`): it holds its
# right answers.
JOIN_TRIES, WRONG_CODES, WRONG_BUDGET = 10, 5, 60
ADDRESSES = 10_000   # addresses whose wrong codes are remembered at once (the quietest are forgotten first)
_wrong: dict[str, collections.deque[float]] = {}   # per client address: its wrong codes (monotonic times)
_wrong_lock = threading.Lock()


def _recent(key: str, now: float) -> list[float]:
    kept = [t for t in st.session_state.get(key, ()) if now - t < 60.0]
    st.session_state[key] = kept
    return kept


def _wait_line(times: list[float], now: float) -> str:
    return f"wait {max(1, int(60.0 - (now - times[0])) + 1)} s, then try again."


def _guessing(now: float, who: str, add: bool = False) -> bool:
    """Is this address guessing (WRONG_BUDGET wrong codes in the last minute)? `add`: one more first."""
    with _wrong_lock:
        times = _wrong.pop(who, None) or collections.deque()
        while times and now - times[0] >= 60.0:
            times.popleft()
        if add:
            times.append(now)
        if times:
            _wrong[who] = times          # the newest last: the dict's order is its age
            while len(_wrong) > ADDRESSES:
                del _wrong[next(iter(_wrong))]
        return len(times) >= WRONG_BUDGET


def _may_look_up(now: float) -> None:
    """StoreError (one line) when this page may not look up another join code just now."""
    missed = _recent(MISSES, now)
    if len(missed) >= WRONG_CODES:
        raise StoreError(f"{WRONG_CODES} wrong codes from this page in a minute: check the code on the "
                         f"board and {_wait_line(missed, now)}")
    if missed and _guessing(now, connection.client().address):
        raise StoreError("Many wrong codes reach this server from your network just now: check the code on "
                         "the board (or open the class's link) and try again in a minute.")


def _missed(now: float) -> None:
    st.session_state.setdefault(MISSES, []).append(now)
    _guessing(now, connection.client().address, add=True)


def looked_up(look: Callable[[], T | None]) -> T | None:
    """What `look()` finds for a code a person typed or linked (a class's, a saved lesson's), under the
    limits above: StoreError when this page may not look up another just now, and None counted as a miss."""
    now = time.monotonic()
    _may_look_up(now)
    found = look()
    if found is None:
        _missed(now)
    return found


# --- what anyone may store: per page here, per address in the store (store.BUDGETS) -------------------------
PER_PAGE = {"start": 5, "save": 10, "link": 20, "draft": 30, "homework": 30,   # a minute, per page (session)
            "lost": 20}
WORDS = {"start": "starts", "save": "saves", "link": "short links", "draft": "changes kept for a reload",
         "homework": "homework answers", "lost": "presses of I'm lost"}


def spend(kind: str) -> Client:
    """One more start, save, short link, draft's change (classroom/draft.py) or press of I'm lost
    (classroom/lesson.py) from this page: StoreError
    (one line) past PER_PAGE[kind] a minute; else the client the store counts it for (its address's budget,
    store.Store.spend)."""
    now = time.monotonic()
    times = [t for t in st.session_state.setdefault(SPENT, {}).get(kind, ()) if now - t < 60.0]
    if len(times) >= PER_PAGE[kind]:
        raise StoreError(f"{PER_PAGE[kind]} {WORDS[kind]} from this page in a minute: "
                         f"{_wait_line(times, now)}")
    st.session_state[SPENT][kind] = [*times, now]
    return connection.client()


# Homework answers checked a minute from one address (this process): per page, spend("homework") counts
# them; a new tab is a new page, so an address has a budget too. A class of 30 behind one address checking an
# answer every 3 s each is 600 a minute.
ADDRESS_ANSWERS = 600
_answers: dict[str, collections.deque[float]] = {}


def answer_checked() -> None:
    """One more homework answer checked from this address: StoreError past ADDRESS_ANSWERS a minute (an
    address not known, a page opened on the server's machine, is counted per page only, as in the store)."""
    now, who = time.monotonic(), connection.client().address
    if not who:
        return
    with _wrong_lock:
        times = _answers.pop(who, None) or collections.deque()
        while times and now - times[0] >= 60.0:
            times.popleft()
        over = len(times) >= ADDRESS_ANSWERS
        if not over:
            times.append(now)
        _answers[who] = times           # the newest last: the dict's order is its age
        while len(_answers) > ADDRESSES:
            del _answers[next(iter(_answers))]
    if over:
        raise StoreError(f"{ADDRESS_ANSWERS} homework answers from your network in a minute: "
                         f"{_wait_line(list(times), now)}")


def find(code: str) -> ClassInfo | None:
    """The class of a join code from a link (/class?code=), counted like a typed one when no class has
    it (once: the page's reruns with the same link are not new tries). StoreError when this page may not
    look up another; StoreDown when the store is away."""
    code = normal_code(code)
    if st.session_state.get(LINK_MISSED) == code:
        return None
    info = looked_up(lambda: connection.store().get_class(code))
    if info is None:
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
        return connection.store().join(code, nickname, client=connection.client())
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
    if key is not None:   # asked only while it is there: a run without it leaves another's ask alone
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

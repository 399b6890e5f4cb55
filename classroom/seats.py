"""A student's seat, as /trainer in a class sees it: the challenge the page is in (`class` and `seat` in
its link; the last one told kept while the store is away), the teacher's pause read from the store and
watched, the seat telling the store it is here, and the banner that says all this.
"""

from __future__ import annotations

import contextlib
import time
from dataclasses import dataclass

import streamlit as st

from classroom import connection
from classroom.session import DRAWN_AWAY, JOINED, KNOWN, LESSON_VIEW, PAUSE_SEEN, SEAT_SEEN
from classroom.text import plain
from lib.challenge import PROBLEM_KEYS
from store import ClassInfo, StoreDown, normal_code
from ui import state

# A challenge may hide any trainer control but the class's data (locked and shown) and the weights.
NEVER_HIDDEN = (*PROBLEM_KEYS, "w")
PAUSE_LOOK = 2.0             # seconds between two looks at the class's pause switch from a playing page
# The watch's interval: under 3 s, so the banner's round trip (the store's read, the page's rerun) fits
# the 3 s a teacher is promised (at 3 s, 60 students on 2 replicas: p95 2.9 s, the slowest 3.01 s).
WATCH_EVERY = 2.5


@dataclass(frozen=True)
class Challenge:
    code: str
    seat: str
    nickname: str
    info: ClassInfo

    @property
    def problem(self) -> dict:
        return {k: self.info.problem.get(k) for k in PROBLEM_KEYS}

    @property
    def hide(self) -> set[str]:
        """The trainer controls the teacher hid for this class."""
        return set(self.info.problem.get("hide") or ()) - set(NEVER_HIDDEN)


def challenge() -> Challenge | None:
    """The class this /trainer is in (`class` and `seat` in its link), or None with one line saying why."""
    code, seat = st.query_params.get("class"), st.query_params.get("seat")
    if code and not seat and (seat := st.session_state.get(JOINED, {}).get(normal_code(code))):
        from classroom import history

        history.put(seat=seat)   # just joined: into this entry only, never one pushed on /class
    if not code and not seat:
        return None
    if code and normal_code(code) == st.session_state.get(LESSON_VIEW):   # a lesson's view, not its challenge
        return None
    if not code or not seat:
        st.warning("This link is missing its class or its seat: open the class link again to join. Training "
                   "on your own meanwhile.", icon=":material/link_off:")
        return None
    try:
        info = connection.store().get_class(code)
        who = connection.store().seat(code, seat) if info else None
    except StoreDown as err:   # away: the class this page was in stays (Submit says it waits), or train alone
        known = st.session_state.get(KNOWN)
        if known is not None and (known.code, known.seat) == (normal_code(code), seat):
            st.warning(str(err), icon=":material/cloud_off:")
            st.session_state[DRAWN_AWAY] = True   # the watch reruns the page once the store answers
            return known
        st.warning("The class store cannot be reached; training on your own meanwhile (this page joins the "
                   "class by itself when it is back).", icon=":material/cloud_off:")
        connection.look_again()
        return None
    if info is None or who is None:
        st.warning(f"No seat `{plain(seat[:8])}…` in a class `{plain(code)}`: open the class link again to "
                   "join. Training on your own meanwhile.", icon=":material/link_off:")
        return None
    st.session_state[KNOWN] = Challenge(info.code, seat, who.nickname, info)
    st.session_state[DRAWN_AWAY] = False
    return st.session_state[KNOWN]


def paused(ch: Challenge | None) -> bool:
    """Has the teacher paused the class? Read from the store (every replica sees it), at most every
    PAUSE_LOOK seconds per session."""
    if ch is None:
        return False
    now = time.monotonic()
    seen = st.session_state.get(PAUSE_SEEN)
    if seen is None or now - seen[0] >= PAUSE_LOOK:
        try:
            info = connection.store().get_class(ch.code)
            seen = (now, bool(info and info.paused), True)
        except StoreDown:   # away: as last seen (Submit says it is away when pressed)
            seen = (now, seen[1] if seen is not None else ch.info.paused, False)
        st.session_state[PAUSE_SEEN] = seen
    return seen[1]


def watch(ch: Challenge, was_paused: bool) -> None:
    """A small fragment on a student's page (run every WATCH_EVERY s): when the teacher pauses or resumes,
    the whole page follows within 3 s, playing or not; and when the page was drawn with the store away,
    it is drawn again once the store answers. Draws nothing."""
    seen = st.session_state.get(PAUSE_SEEN)
    if seen is not None:
        st.session_state[PAUSE_SEEN] = (-1e9, *seen[1:])   # a fresh look at the store, the last value kept
    if paused(ch) != was_paused or (st.session_state.get(DRAWN_AWAY) and st.session_state[PAUSE_SEEN][2]):
        state.rerun_page("the teacher paused or resumed the class, or the store answered again")


def here(ch: Challenge | None, playing: bool) -> None:
    """Tell the store this student is here (and playing), at most every 5 s."""
    if ch is None:
        return
    now = time.monotonic()
    if now - st.session_state.get(SEAT_SEEN, -1e9) >= 5.0:
        st.session_state[SEAT_SEEN] = now
        with contextlib.suppress(Exception):
            connection.store().seat(ch.code, ch.seat, playing=playing)


PAUSED = "PAUSED"


def paused_sign(words: str) -> None:
    """The class is paused, in type a room reads from the back: a warning box (an alert to a screen reader)
    whose first line is a large heading, then one line of what it means for this viewer. The same sign on
    the projector, a student's trainer and a student's board."""
    st.warning(f"# {PAUSED}\n\n{words}", icon=":material/pause_circle:")


def banner(ch: Challenge | None, is_paused: bool) -> None:
    if ch is None:
        return
    if is_paused:
        paused_sign("**Eyes up: your teacher paused the class.** Training and Submit wait until they resume; "
                    "what you trained stays on this page.")
    else:
        st.info(f"Class challenge `{ch.code}` as **{plain(ch.nickname)}**: the data is the class's (locked); "
                "the network is yours. Submit it to be scored on test points nobody sees.",
                icon=":material/groups:")

"""What one session (a browser tab) keeps for the class room: every st.session_state key of the challenge's
side, named once here and imported by the module that reads or writes it, and the key of "Lead a lesson"'s
picker, which the builder, its draft and the start box share. (classroom/lesson.py keeps its own three,
FOLLOWING, SEEN and PICK, which only it reads.)
"""

from __future__ import annotations

import streamlit as st

KEYS = "class_keys"          # {code: teacher's key}, never in a link after the first load
JOINED = "class_joined"      # {code: seat} of the classes this session joined (classroom/history.put)
SEAT_SEEN = "class_seat_seen"  # when this seat last told the store it was here (throttle)
KNOWN = "class_known"        # the Challenge this page was last told (kept while the store is away)
DRAWN_AWAY = "class_drawn_away"  # the page's last full run found the store away
PAUSE_SEEN = "class_pause_seen"  # (when, paused, whether that look reached the store)
LESSON_VIEW = "class_lesson_view"  # the lesson class whose trainer step is a view, not a challenge
TRIES = "class_join_tries"   # monotonic times of this page's Join presses (last minute)
MISSES = "class_wrong_codes"  # ... and of the wrong codes it named
SPENT = "class_spent"        # {kind: monotonic times} of this page's starts, saves and short links (a minute)
LINK_MISSED = "class_link_missed"   # the /class?code= this page already found no class for
RECEIPT = "class_receipt"    # the last Submit's receipt (store.Receipt), shown under the button
SUBMITTED_AT = "class_submitted_at"   # monotonic time of the last Submit sent (a replayed click is not)
START_PICK = "lesson_start_pick"  # (turn, built lesson offered): "Lead a lesson"'s picker, its key + the turn


def choose_own() -> None:
    """"Lead a lesson" offers the built lesson first, chosen (after Open, Import or a restored draft)."""
    st.session_state[START_PICK] = (st.session_state.get(START_PICK, (0, False))[0] + 1, True)


def pick_key(own_offered: bool) -> str:
    """"Lead a lesson"'s picker's key: a new one (a new widget, drawn at its first option, the built lesson)
    when the built lesson first appears and after choose_own(). Setting the pick in session state under one
    key left the browser's value in charge: one it sent late chose the first ready lesson again (CI, once,
    right after Save)."""
    turn, had = st.session_state.get(START_PICK, (0, False))
    turn += own_offered and not had
    st.session_state[START_PICK] = (turn, own_offered)
    return f"{START_PICK}_{turn}"

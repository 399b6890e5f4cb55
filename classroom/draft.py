"""The lesson being built, kept for a reload (issue 43 item 1): "Build a lesson of your own"
(classroom/build.py) keeps its steps in st.session_state, and a reload, or a laptop that slept and came back
as a new session, lost every unsaved step.

So the builder's lesson is kept in the class store as it changes (Store.keep_draft: one row per draft,
written over in place), and the page's address carries its code, `draft` (HOUSE's link keys: short,
lowercase), written into the address bar's current entry (classroom/history.py: no Back per change). A
reload of that tab, or that link, opens the builder with the title and steps restored and one line that
says so. The draft's code is like a saved lesson's: whoever holds the link sees the lesson, answers
included, so it is looked up under the same limits as a typed code (door.looked_up) and leaves the address
bar when a class starts (its code there is projected). A bad or unknown code says so in one line over an
empty builder. Writes are counted per page (door.spend) and a new draft per network (the store's budget of
saves); a student's /class never draws the builder with a class code, so nothing a student sees changes.
"""

from __future__ import annotations

import streamlit as st

from classroom import asking, build, connection, door, history, session, text
from lib import lessons
from store import CODE_ALPHABET, CODE_LENGTH, StoreDown, StoreError, normal_code

PARAM = "draft"                  # the link key: the draft's code
KEPT = "build_draft"             # (code, lesson): what the store holds for this page's builder
TRIED = "build_draft_tried"      # the link's code this session has tried to restore (once a session)
RESTORED = "build_draft_restored"  # the lesson as restored: its note stays while the lesson is unchanged
MISSED = "build_draft_missed"    # the one line about a link's draft that could not be restored
UNKEPT = "build_draft_unkept"    # the one line about a change the store did not keep
RESTORED_LINE = "Your unsaved lesson was restored."


def _now() -> lessons.Lesson | None:
    try:
        return build.lesson()
    except ValueError:   # no step yet: nothing to keep
        return None


def restore() -> None:
    """The link's draft into this session's builder: once a session, and only into an empty builder (this
    session's own lesson wins; its link is written over with its own code)."""
    ss = st.session_state
    raw = st.query_params.get(PARAM)
    if raw is None or ss.get(TRIED) == raw or ss.get(build.STEPS):
        return
    code = normal_code(raw)
    try:
        if len(code) != CODE_LENGTH or not set(code) <= set(CODE_ALPHABET):
            raise StoreError(f"“{raw[:12]}” is not the code of one.")
        found = door.looked_up(lambda: connection.store().load_draft(code, paths=asking.paths()))
        if found is None:
            raise StoreError(f"none is kept under {code} (a week after its last change it is gone).")
        found = asking.computed_lesson(found)
    except StoreDown:    # the store away: try again on the next run, the link kept
        ss[MISSED] = "Your unsaved lesson cannot be restored while the class store is away."
        return
    except StoreError as err:
        ss[TRIED] = raw
        ss[MISSED] = f"Your unsaved lesson could not be restored: {err}"
        return
    ss[TRIED] = raw
    ss.pop(MISSED, None)
    ss[build.STEPS] = list(found.steps)
    ss[build.TITLE] = ss[build.TITLE_KEPT] = found.title
    session.choose_own()                 # "Lead a lesson" offers it first, as after Open
    ss[KEPT] = ss[RESTORED] = (code, found)


def keep() -> None:
    """Restore the link's draft, then keep the builder's lesson as it is now (every change was made in a
    callback before this run, the title box's value too) and its code in the address bar. Call before
    anything reads the builder's lesson (lead.start_box lists it)."""
    restore()
    ss = st.session_state
    now, kept = _now(), ss.get(KEPT)
    if now is not None and (kept is None or kept[1] != now):
        try:
            code = connection.store().keep_draft(now, code=kept[0] if kept else None, paths=asking.paths(),
                                                 client=door.spend("draft"))
        except StoreError as err:   # refused, this page's writes used up, the store away: tried next run
            ss[UNKEPT] = f"This change is not kept for a reload yet: {err}"
        else:
            kept = ss[KEPT] = (code, now)
            ss.pop(UNKEPT, None)
            ss.pop(MISSED, None)
    if "key" in st.query_params:   # door.take_key takes the teacher's key out of this entry on this run
        return
    if now is not None and kept is not None:
        history.put(**{PARAM: kept[0]})
    elif PARAM in st.query_params and (kept is not None or ss.get(TRIED) == st.query_params.get(PARAM)):
        history.forget(PARAM)      # every step removed, or a code that names no draft: out of the link


def said() -> None:
    """The one line over the builder: restored, not restored, or a change not kept."""
    ss = st.session_state
    restored = ss.get(RESTORED)
    if restored is not None and restored[1] == _now():
        st.info(RESTORED_LINE, icon=":material/restore:")
    for key in (MISSED, UNKEPT):
        if ss.get(key):
            st.warning(text.plain(ss[key]), icon=":material/error:")


def started() -> None:
    """A class is starting on this page: its code goes up on the projector with the address bar, so the
    draft's code (its answers) leaves it. The session keeps the draft; ending the class puts it back."""
    st.query_params.pop(PARAM, None)

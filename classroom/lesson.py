"""A lesson as a class activity (issue 33), as a student's page sees it: the class follows the teacher
from view to view, answers a step's question before it sees the view, and sees its own answer beside the
truth on Reveal. The teacher's side is classroom/lead.py.

app.py calls `follow(page)` before it runs a page: when the link (`class`, `seat`) or this session names a
lesson class, the page gets a banner, a watch that moves it with the teacher, and, while the step's
question is open, the question in place of the page's live content.

The watch is a fragment every FOLLOW_EVERY s (in a container of its own: ui.state.watcher) that compares
the page with the lesson's state as this process shares it (Store.lesson_now: one read per class per
store.lessons.FRESH s, however many students), so sixty students polling cost the store ten reads a
second, not 120. When the teacher moved to another page,
the fragment switches the page to the new step itself (one run of the page, not a rerun that then
switches); to another step of the same page, it runs the page again and `follow` gives the page's
controls the step's values before they are drawn (through st.session_state: a key bound to a widget
cannot be written through st.query_params).
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import functools
import time

import streamlit as st

from classroom import connection, door, reveal, seats, session, text
from classroom.reveal import shown_answer
from engine import turns
from lib import lessons
from store import StoreDown, StoreError, normal_code
from ui import state

FOLLOWING = "lesson_following"   # session: (code, seat) of the lesson class this session follows
SEEN = "lesson_seen"             # session: (code, step) this page was last sent to
DRAWN = "lesson_drawn"           # session: (code, step) whose view this page drew last (None: a question)
PICK = "lesson_pick"             # session: the step a student chose in free mode
MARKED = "lesson_seat_marked"    # session: when this page last marked its seat seen (monotonic)
LAST = "lesson_last"             # session: (code, state, my answers) last read (kept through an outage)
MINE = "lesson_mine"             # session: (code, seat, version, my answers) as this page last read them
# The watch's interval: the teacher's move is in this process's shared state within store.lessons.FRESH
# (at once on the teacher's own replica), then on the page within this, then one run of the page: a Reveal
# on every screen within about a second (issue 44, bench/classroom.py --lesson, 30 students on 2 replicas:
# at 1.0 s and FRESH 0.5 s the slowest screen took 1.42 s; at 0.5/0.25 0.88-1.08 s; at 0.4/0.2 1.06-1.27 s,
# the extra looks queueing before the 30 runs a Reveal starts at once; at 0.35 with FRESH 0.1 and the
# front of the line, p50 0.50-0.84 s against 0.33-0.62 s at 0.5).
FOLLOW_EVERY = 0.5
SEAT_COOKIE = "layerlab_seat_"   # + a lesson class's code: the seat this browser joined it with
MARK_EVERY = 30.0                # seconds between two marks of a following seat as seen (a write)


def page_file(path: str) -> str:
    return f"pages/{path}.py"


def step_query(step: lessons.Step) -> dict[str, str | list[str]]:
    return lessons.parse_query(step.query)


# --- joining ---------------------------------------------------------------------------------------------
def land(code: str, seat: str) -> None:
    """Just joined (pages/class.py's join): a lesson class's student goes to the teacher's step; a
    challenge's to /trainer (nothing happens here). The seat stays in the session, off /class."""
    code = normal_code(code)
    try:
        ls = connection.store().lesson_state(code)
    except StoreDown:
        return
    if ls is None:
        return
    st.session_state[FOLLOWING] = (code, seat)
    step = ls.steps[ls.step]
    path = "trainer" if step.challenge else step.path
    st.session_state[SEEN] = (code, ls.step)
    st.switch_page(page_file(path), query_params={**step_query(step), "class": code})


def _who() -> tuple[str, str] | None:
    """(code, seat) this page follows: the link's, else (a page opened from the menu, no class in its
    link) the session's; /class?code= of a class this browser joined, its seat (the join link opened
    again, by Back or anew, lands on the step, not on the join form); None for a page not in a lesson
    class. A seat that is not the class's is refused by the store (follow runs the page as it is)."""
    code, seat = st.query_params.get("class"), st.query_params.get("seat")
    joined = st.session_state.get(session.JOINED, {})
    if code and not seat:   # a step this page switched to (the seat goes into its entry below), or Back
        seat = joined.get(normal_code(code))
        following = st.session_state.get(FOLLOWING)
        if not seat and following and following[0] == normal_code(code):
            seat = following[1]
    if code and seat:
        return normal_code(code), seat
    room = normal_code(st.query_params.get("code") or "")
    mine = joined.get(room) or st.context.cookies.get(SEAT_COOKIE + room)   # (the cookie: a new session)
    teacher = "key" in st.query_params or room in st.session_state.get(session.KEYS, {})
    if room and not code and mine and not teacher:
        return room, mine   # /class?code= of a class this browser joined (not its teacher's page)
    if code or room:
        return None
    return st.session_state.get(FOLLOWING)


@functools.lru_cache(maxsize=32)
def _links(path: str):
    """A page's LINKS table, read once per process (state.page_links executes the page file's top)."""
    return state.page_links(page_file(path))


def _set_views(path: str, step: lessons.Step) -> None:
    """The page's controls take the step's link values (same page, new step), in the run that draws them,
    before they are drawn: Streamlit seeds a bound widget from the link only on a page change, and a bound
    key cannot be written through st.query_params (StreamlitAPIException), so each value goes through
    st.session_state (a key the link leaves out: its default) and the widget writes the address bar. (Set
    from the watch's fragment, the values were lost: the browser's next run sent the old ones back.)"""
    links = _links(path)
    values = step_query(step)
    for link in links or ():
        if link.key in (state.HIDE, state.ROOM) or link.kind == "tabs":
            continue
        raw = values.get(link.key)
        raws = [] if raw is None else raw if isinstance(raw, list) else [raw]
        try:
            value = (tuple(link.from_text(r) for r in raws) if link.kind == "multi"
                     else link.from_text(raws[-1])) if raws else link.default
            now = links.value(link.key)   # a multiselect's state is a list, the link's value a tuple
            if (tuple(now) if link.kind == "multi" and isinstance(now, list) else now) == value:
                continue   # already so (a page change seeded it): a set costs two history entries
            links.forget(link.key)
            links.set(link.key, value)
        except ValueError:   # a value this page cannot take (its reason is the link's): the control starts
            st.session_state.pop(link.key, None)   # afresh; anything else is a fault and is not hidden


def _put_link(step: lessons.Step, code: str, seat: str) -> None:
    """The address bar as the step's link has it (a reload opens the step): every key a widget drawn on the
    last run does not hold is written here, among them class, seat, hide, and a bound control the page did
    not draw (a question in its place), which Streamlit would otherwise seed from a stale value when it is
    drawn again. A key bound to a drawn widget cannot be written (StreamlitAPIException): that widget
    writes it from the value _set_views gave it, or drops it if it is not drawn this run."""
    from streamlit.errors import StreamlitAPIException

    want = {**step_query(step), "class": code, "seat": seat}
    for key in set(st.query_params) | set(want):
        new = want.get(key)
        new = None if new is None else new if isinstance(new, list) else [new]
        if st.query_params.get_all(key) == (new or []):
            continue
        with contextlib.suppress(StreamlitAPIException):
            if new is None:
                del st.query_params[key]
            else:
                st.query_params[key] = new


def _follow_here(code: str, seat: str, want: int, ls, path_now: str) -> None:
    """The teacher's new step is on this page (or a free student chose one): its values, in this run."""
    step = ls.steps[want]
    _set_views(path_now, step)
    _put_link(step, code, seat)
    st.session_state[SEEN] = (code, want)


def _go(code: str, seat: str, want: int, ls) -> None:
    """Switch this student's page to step `want` on another page (its view and the class; the new page
    puts the seat into its own entry, history.put in follow, never into a pushed one): the new page seeds
    its bound controls from the link, as on any page change."""
    step = ls.steps[want]
    st.session_state[SEEN] = (code, want)
    st.switch_page(page_file(_path(step)), query_params={**step_query(step), "class": code})


def _path(step: lessons.Step) -> str:
    return "trainer" if step.challenge else step.path


def follow(path_now: str) -> bool:
    """Before a page runs (app.py): in a lesson class, the banner, the watch, and the step's question.
    True: run the page; False: its live content waits for Reveal (the question stands in its place)."""
    who = _who()
    if who is None:
        return _no_seat()
    code, seat = who
    try:
        ls = connection.store().lesson_now(code)
        mine = _mine(code, seat, ls) if ls is not None else None
    except StoreDown:
        st.warning(text.AWAY, icon=":material/cloud_off:")
        return _away(code, seat)
    if ls is None or mine is None:
        if st.session_state.get(FOLLOWING, (None,))[0] == code:
            st.session_state.pop(FOLLOWING, None)
        st.session_state.pop(LAST, None)
        return True
    st.session_state[FOLLOWING] = (code, seat)
    st.session_state[LAST] = (code, ls, mine.copy())
    _mark_seen(code, seat)
    want = _want(ls)
    if _path(ls.steps[want]) != path_now:
        _go(code, seat, want, ls)   # off the lesson's page: to the step's
    elif st.session_state.get(SEEN) != (code, want):
        _follow_here(code, seat, want, ls, path_now)   # the step changed on this page: its values, this run
        st.session_state[DRAWN] = (code, want)
    if "seat" not in st.query_params:
        from classroom import history

        # into this entry, out of it before the next is pushed; a cookie for the join link opened again
        history.put(one=True, cookies={SEAT_COOKIE + code: seat}, seat=seat)
    step = ls.steps[want]
    if step.path == "trainer" and not step.challenge:   # /trainer as the step's view: no Submit, its data
        st.session_state[session.LESSON_VIEW] = code
    else:
        st.session_state.pop(session.LESSON_VIEW, None)
    banner(ls, want, mine, seat)
    state.watcher(watch, FOLLOW_EVERY, code, ls.version, ls.paused, seat, path_now)
    if _question(code, seat, ls, want, mine):
        st.session_state[DRAWN] = None
        return False
    if st.session_state.get(DRAWN) != (code, want):   # its view's first drawing run since it was behind the
        _set_views(path_now, step)   # question: the step's values again (a run the browser asked for before
        st.session_state[DRAWN] = (code, want)   # it dropped the hidden controls brought old values back)
    return True


def _mine(code: str, seat: str, ls):
    """This seat's answers (Store.seat_answers), read again only when the lesson moved (a new version:
    Discuss, Delete, a clear of the lost hands) or this page wrote one: a Reveal's 30 page runs made 30
    reads of a row nothing had changed (17 % of a run's time, py-spy on the bench's replicas)."""
    got = st.session_state.get(MINE)
    if got is not None and got[:3] == (code, seat, ls.version):
        return got[3]
    mine = connection.store().seat_answers(code, seat)
    if mine is not None:
        st.session_state[MINE] = (code, seat, ls.version, mine)
    return mine


def _hidden(ls, i: int) -> bool:
    """Does step i's view wait for Reveal (a question not revealed yet)?"""
    return 0 <= i < len(ls.steps) and ls.steps[i].question is not None and i not in ls.revealed


def _no_seat() -> bool:
    """A page whose link names a class but no seat this session holds (a step's link copied without its
    seat): a lesson class's view waits for Reveal all the same (False), with a line on how to join."""
    code = st.query_params.get("class")
    if not code or st.query_params.get("seat"):
        return True
    try:
        ls = connection.store().lesson_now(normal_code(code))
    except StoreDown:   # not known: a lesson this page followed keeps its question up (_away); else runs
        last = st.session_state.get(LAST)
        ls = last[1] if last and last[0] == normal_code(code) else None
    if ls is None or not any(_hidden(ls, i) for i in range(len(ls.steps)) if ls.open_to_students(i)):
        return True
    st.info(f"**{text.plain(ls.title)}**: this step's question is still open. Join the class to answer it "
            f"(open /class?code={normal_code(code)}); the view opens after your teacher presses Reveal.",
            icon=":material/school:")
    return False


def _away(code: str, seat: str) -> bool:
    """The store away: the page as it last stood, if this page followed this lesson (its banner, and the
    question still up; Send says it was not sent), else the page runs (a challenge's trainer goes on)."""
    last = st.session_state.get(LAST)
    if not last or last[0] != code:
        return True
    _, ls, mine = last
    want = _want(ls)
    banner(ls, want, mine, seat)
    connection.look_again()   # the page comes back by itself once the store answers
    return not _question(code, seat, ls, want, mine)


# Marks run on one thread of their own, so a page never waits for them (on SQLite a write waits for
# another's write lock: a student's page took 19.6 s to draw behind another process's write).
_marker = concurrent.futures.ThreadPoolExecutor(max_workers=1, thread_name_prefix="lesson-seen")


def _mark(store, code: str, seat: str) -> None:
    with contextlib.suppress(StoreError):   # away, or the seat removed meanwhile: the next mark tries again
        store.seat(code, seat)


def _mark_seen(code: str, seat: str) -> None:
    """The seat is marked seen (the store's `last_seen`, a write) at most every MARK_EVERY s per page, on
    the marker's thread: the page draws without waiting for it."""
    now = time.monotonic()
    if now - st.session_state.get(MARKED, -1e9) >= MARK_EVERY:
        st.session_state[MARKED] = now
        _marker.submit(_mark, connection.store(), code, seat)


def _want(ls) -> int:
    """The step this student is on: the teacher's (paced), or the one chosen in free mode."""
    chosen = st.session_state.get(PICK)
    if ls.mode == "free" and isinstance(chosen, int) and ls.open_to_students(chosen):
        return chosen
    return ls.step


def watch(code: str, version: int, paused: bool = False, seat: str | None = None,
          path_now: str | None = None) -> None:
    """Every FOLLOW_EVERY s, against the lesson's state this process shares (no read of its own): the
    teacher moved -> this page switches to the new step itself (given its seat and page); revealed,
    paused, resumed or ended -> the whole page runs again."""
    try:
        now = connection.store().lesson_now(code)
    except StoreDown:
        return
    if now is not None and now.version < version:
        return   # this process's copy is older than the page: the page is ahead, nothing to follow
    moved = False
    if now is not None and seat and path_now:
        want = _want(now)
        if _path(now.steps[want]) != path_now:
            turns.hurry()
            _go(code, seat, want, now)   # straight from the fragment: one run of the new page
        moved = st.session_state.get(SEEN) != (code, want)   # on this page: follow() sets its values
    if moved or now is None or (now.version, now.paused) != (version, paused):
        turns.hurry()   # the class waits on this run: ahead of the line (engine/turns.py)
        state.rerun_page("the teacher moved the lesson: this page follows")


def banner(ls, i: int, mine: dict, seat: str | None = None) -> None:
    """The lesson, the step (its title said to a screen reader when the teacher moves on: a polite live
    region), the pause sign, I'm lost, and after Reveal this student's ✓ or ✗, large, and the room's
    answers."""
    step = ls.steps[i]
    lead = "your teacher leads" if ls.mode == "paced" else "free: move between the steps opened so far"
    if ls.paused:
        seats.paused_sign("**Eyes up: your teacher paused the class.** Answers wait until they resume.")
    reveal.big_line(f"Step {i + 1} of {len(ls.steps)}: {step.title}", size="1.25rem", live=True)
    st.caption(f"{text.plain(ls.title)} · {lead}")
    if seat is not None:   # a fragment: a press reruns the toggle alone, never the page's form or view
        st.session_state[f"{LOST_KEPT}{i}"] = i in getattr(mine, "lost", ())   # as the store keeps it
        st.fragment(lost)(ls.code, seat, i)
    q = step.question
    if q is not None and i in ls.revealed:
        revealed(q, ls.code, i, mine.get(i), getattr(mine, "first", {}).get(i) if i in ls.second else None)
    if ls.mode == "free" and ls.opened > 0:
        st.selectbox("Step", list(range(ls.opened + 1)), index=min(i, ls.opened), key="lesson_step_choice",
                     format_func=lambda k: f"{k + 1}. {ls.steps[k].title}", on_change=_picked,
                     help="Free mode: open any step your teacher has opened so far.")


LOST_FAILED = "lesson_lost_failed"   # session: why the last press of I'm lost was not kept (shown once)
LOST_KEPT = "lesson_lost_kept_"      # session, + a step: is this hand up there, as the store keeps it


def lost(code: str, seat: str, i: int) -> None:
    """I'm lost: a toggle on every step (pressed again, taken back); the room sees only how many. It shows
    the hand as the store keeps it (LOST_KEPT: written by each run of the page, a teacher's clear too, and
    by a press that was kept)."""
    key, kept = f"lesson_lost_{i}", st.session_state.get(f"{LOST_KEPT}{i}", False)
    if st.session_state.get(key) != kept:
        st.session_state[key] = kept
    st.toggle("I'm lost", key=key, on_change=_lost, args=(code, seat, i, key),
              help="Tells your teacher quietly: the room sees only how many are lost, never who.")
    if failed := st.session_state.pop(LOST_FAILED, None):
        st.error(f"Not sent: {text.plain(failed)}", icon=":material/error:")


def _lost(code: str, seat: str, i: int, key: str) -> None:
    want = bool(st.session_state.get(key))
    try:
        door.spend("lost")   # a page's presses a minute, as its other actions
        connection.store().set_lost(code, seat, i, want)
        st.session_state[f"{LOST_KEPT}{i}"] = want
        st.session_state.pop(MINE, None)   # the next run reads the hand as the store keeps it
    except StoreError as err:   # StoreDown too: the toggle shows what the store keeps
        st.session_state[LOST_FAILED] = str(err)


def revealed(q: lessons.Question, code: str, i: int, v, first=None) -> None:
    """After Reveal: this student's answer beside the truth, the ✓ or ✗ large and in its colour (their
    first vote's beside it for a question asked twice), and the room's answers as one sentence (issue 43
    item 5, issue 48 item 3)."""
    from ui import colors

    if v is None:
        words = "You did not answer."
    else:
        words = f"Your answer {shown_answer(q, v)}"
        words += "." if q.poll else f" · the answer {shown_answer(q, q.answer)}"
    if first is not None:
        words += f" (your first answer {shown_answer(q, first)})"
    right = None if v is None else lessons.is_right(q, v)
    if right is None:
        reveal.big_line(words, size="1.4rem")
    else:
        mark = f"{reveal.RIGHT_MARK} Right" if right else f"{reveal.WRONG_MARK} Not this time"
        reveal.big_line(f"{mark} · {words}", size="1.6rem", colour=colors.RIGHT if right else colors.WRONG)
    try:
        shown = connection.store().reveal_now(code, i)
    except StoreError:
        return
    if shown is not None:
        dist = shown.votes[-1]
        moved = f"{reveal.moved_words(shown.moved)}. " if shown.moved is not None else ""
        reveal.big_line(f"The room: {reveal.tally(dist)}. {moved}{reveal.sentence(q, dist)}", size="1rem",
                        live=True)


def _picked() -> None:
    st.session_state[PICK] = st.session_state.get("lesson_step_choice")   # kept across pages (not a widget)


def _question(code: str, seat: str, ls, here: int, mine: dict) -> bool:
    """While the step's question takes answers: the question and Send my answer, in place of the page's
    live content (True: the page waits)."""
    if ls.paused and ls.open_to_students(here) and _hidden(ls, here):   # eyes up: the view waits still
        st.caption(":material/visibility_off: The view opens after your teacher presses Reveal.")
        return True
    if not ls.taking_answers(here):
        return False
    q, again = ls.steps[here].question, ls.vote(here) == 2
    with st.container(border=True):
        if again:   # the second vote: their first answer beside the question (their own, never the right one)
            first = getattr(mine, "first", {}).get(here)
            st.markdown(f"**Discuss with your neighbour, then vote again.** {text.plain(q.text)}")
            st.info(f"Your first answer: {text.plain(shown_answer(q, first))}", icon=":material/history:")
        else:
            st.markdown(f"**Predict first.** {text.plain(q.text)}")
        v2 = "_2" if again else ""   # the second vote's form starts empty: its own keys
        with st.form(f"lesson_answer_{here}{v2}", border=False):
            was = mine.get(here)
            if q.kind == "choice":
                value = st.radio("Your answer", list(range(len(q.choices))),
                                 format_func=lambda k: text.plain(q.choices[k]),
                                 index=None if was is None else int(was), key=f"lesson_choice_{here}{v2}",
                                 help="Choose one; you can change it until your teacher reveals.")
            else:
                value = st.number_input(f"Your answer{f' ({q.unit})' if q.unit else ''}", value=was,
                                        format="%.2f", key=f"lesson_number_{here}{v2}",
                                        help="A number; you can change it until your teacher reveals.")
            go = st.form_submit_button("Send my answer", type="primary", icon=":material/send:")
        if go:
            try:
                kept = connection.store().answer(code, seat, here, value)   # committed before it returns
                mine[here] = kept   # (the page's copy of its answers too: the same object)
            except StoreDown as err:
                st.error(f"Not sent: {err}", icon=":material/cloud_off:")
            except StoreError as err:
                st.session_state.pop(MINE, None)   # the seat removed, say: the next run reads it afresh
                st.error(f"Not sent: {text.plain(str(err))}", icon=":material/error:")
        if (v := mine.get(here)) is not None:
            st.success(f"Your answer: {text.plain(shown_answer(q, v))} — you can change it until your "
                       "teacher reveals.", icon=":material/check_circle:")
    st.caption(":material/visibility_off: The view opens after your teacher presses Reveal.")
    return True

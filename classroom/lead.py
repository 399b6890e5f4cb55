"""A lesson as a class activity (issue 33), as the teacher leads it on /class: pick a ready lesson and
Start the lesson (the same join code, QR and teacher's key as a challenge); then Back and Next, paced or
free, Reveal, the room's answers as one chart (never who answered what unless the teacher shows names),
the record, the downloads, and the end. The student's side is classroom/lesson.py.
"""

from __future__ import annotations

import html
import json
from collections.abc import Callable

import streamlit as st

from classroom import asking, board, build, connection, door, draft, links, reveal, seats, session, text, top
from lib import lessons
from store import StoreError
from ui import fmt, state
from ui.nav import LESSONS


def ready() -> dict[str, lessons.Lesson]:
    """The ready lessons: the course, course/'s lesson files in teaching order (classroom.asking.course:
    read once per process by the loader an import goes through, each answer computed from its step's link).
    A file that does not load is named in one line, and the teacher's own lesson still starts."""
    try:
        return asking.course()
    except ValueError as err:
        st.error(text.plain(f"The ready lessons are away: {err}"), icon=":material/error:")
        return {}


def paths() -> set[str]:
    return {item.url_path for item in LESSONS}


def course_list(course: dict[str, lessons.Lesson]) -> str:
    """The course as a numbered Markdown list, one lesson a line that wraps in a narrow column: its title,
    minutes, questions, pages and what it builds on (earlier lessons, by number)."""
    number = {name: i + 1 for i, name in enumerate(course)}
    lines = []
    for name, one in course.items():
        pages = ", ".join(f"/{p}" for p in dict.fromkeys(s.path for s in one.steps))
        before = ", ".join(str(n) for n in sorted(number[b] for b in one.builds_on if b in number))
        asked = sum(s.question is not None for s in one.steps)
        minutes = f"{one.minutes} min, " if one.minutes else ""
        lines.append(f"{number[name]}. **{text.plain(one.title)}** ({minutes}{asked} questions): {pages}. "
                     + (f"Builds on {before}." if before else "Starts the course."))
    return "\n".join(lines)


def start_box() -> None:
    """'Lead a lesson': one of the ready lessons, then Start the lesson (a class of its own)."""
    with st.container(border=True):
        st.markdown("**Lead a lesson** (for the teacher)")
        st.caption("The class follows you from view to view, predicts before it sees, and sees its own "
                   "answers.")
        course = ready()
        with st.form("lesson_start", border=False):
            offered = {**build.own(), **course}   # the lesson built on this page first, if there is one
            number = {name: i + 1 for i, name in enumerate(course)}
            titles = {name: "Yours: " + one.title if name == build.OWN else
                      f"{number[name]}. {one.title} ({one.minutes} min)" for name, one in offered.items()}
            pick = st.selectbox("Lesson", list(titles), format_func=titles.get,
                                key=session.pick_key(build.OWN in offered), help="Yours (built below), or a "
                                "ready one: its right answers computed from each step's view.")
            go = st.form_submit_button("Start the lesson", type="primary", icon=":material/school:")
        with st.expander(f"The course: {len(course)} ready lessons in teaching order",
                         icon=":material/list:"):
            st.markdown(course_list(course))
            if course:   # each ready lesson as homework: one link, no class to start
                hw = st.selectbox("Homework link for", list(course), key="lesson_homework_pick",
                                  format_func=lambda n: f"{number[n]}. {course[n].title}",
                                  help="A ready lesson students go through alone, at their own pace.")
                links.homework_box(hw)
            st.caption("Each lesson's questions are predicted before the view opens; their right answers are "
                       "computed from each step's view. Add a lesson: put its lesson file in course/.")
        if go:
            try:
                code, key = connection.store().start_lesson(offered[pick], paths=paths(),
                                                            client=door.spend("start"))
            except StoreError as err:   # this page's or this network's starts used up (or the store away)
                st.error(text.plain(str(err)), icon=":material/error:")
                return
            st.session_state.setdefault(session.KEYS, {})[code] = key
            st.session_state["class_new_key"] = (code, key)
            st.query_params["code"] = code
            draft.started()
            state.rerun_page("the new lesson class's code and key")


COST = "lesson_cost"   # session: the teacher's action this run answers (its CPU noted for bench/lesson.py)


def note_cost() -> None:
    """With LAYERLAB_CLASS_STATS=<file> (bench/classroom.py --lesson), at the end of the teacher's /class
    run that answers Next, Back or Reveal: one JSON line with that run's CPU. Streamlit runs each rerun
    request on a new script thread, so the thread's CPU clock is the CPU of the click's run(s), its
    callbacks included."""
    import os
    import time

    what, path = st.session_state.pop(COST, None), os.environ.get("LAYERLAB_CLASS_STATS")
    if what and path:
        with open(path, "a") as f:
            f.write(json.dumps({"teacher": what, "cpu_s": round(time.thread_time(), 5), "pid": os.getpid()})
                    + "\n")


REVEAL = "The room's answers, the right one, and the view open on every screen; answers close."
REOPEN = "Reopen the question: answers can change again."
DISCUSS = "The class talks it over with a neighbour, then votes again; Reveal shows both votes side by side."
CONTROLS = "lesson_controls"   # the sidebar's container of the teacher's controls (drawn first there)
VIEW = "lesson_view"   # the step's view's container
VIEW_SIZE = (1000, 940)   # px: the step's view as a 1000 px wide screen shows it, scaled into its column
# The projected screen (issue 43 item 3): one 1366 x 768 screen with the sidebar open. The main column
# starts 2rem under the header (Streamlit's 6rem) and the page's title is one small line; the teacher's
# controls come first in the sidebar, above the app's menu (its blocks are a flex column: `order`).
_CSS = ("<style>[data-testid='stMainBlockContainer'] { padding-top: 2rem !important; }"
        "[data-testid='stMain'] [data-testid='stHeading'] h1 { font-size: 1.1rem !important;"
        " padding: 0 !important; }"
        f"[data-testid='stLayoutWrapper']:has(> .st-key-{CONTROLS}) {{ order: -1; }}"
        # the view's frame: a 1000 px wide page scaled to its column (0.53 without typed arithmetic)
        f".st-key-{VIEW} {{ container-type: inline-size; overflow: hidden;"
        f" aspect-ratio: {VIEW_SIZE[0]} / {VIEW_SIZE[1]}; min-height: 0; }}"
        f".st-key-{VIEW} iframe {{ width: {VIEW_SIZE[0]}px !important; height: {VIEW_SIZE[1]}px !important;"
        " transform-origin: 0 0; transform: scale(0.53);"
        f" transform: scale(calc(100cqw / {VIEW_SIZE[0]}px)); }}"
        "</style>")
VIEW_HEIGHT = 500   # px: the space the view takes while the question is open


def lead(code: str, ls, student: str = "", challenge: Callable[[], None] | None = None,
         first: Callable[[], None] | None = None) -> None:
    """The teacher's lesson: the projected screen in the main column (the code, then the step's view with
    its question, the count, the answers; at its top after each move), the teacher's controls and notes in
    the sidebar. `challenge`: the class challenge's board, chart, gallery and snapshots (pages/class.py);
    `first`: what the sidebar says before the controls (the teacher's key, just after Start)."""
    key = door.key_for(code)
    st.html(_CSS)
    top.at_top(f"{code} {ls.step} {ls.step in ls.revealed} {ls.paused}")
    with st.sidebar.container(key=CONTROLS):
        if first is not None:
            first()
        names = controls(code, key, ls)
    projected(code, ls, student, challenge, names)


def controls(code: str, key: str, ls) -> bool:
    """The teacher's own: Back, Next, Reveal, Pause within reach; the step's notes; free mode, names, the
    record and Manage (issue 43 items 3, 4, 7). True: names under the room's answers."""
    step = ls.steps[ls.step]
    st.markdown(f"**Lead the lesson** · step {ls.step + 1} of {len(ls.steps)}")
    if failed := st.session_state.pop(FAILED, None):   # a move's callback met the store away, or a refusal
        st.error(text.plain(failed), icon=":material/error:")
    c = st.columns(2)
    # Back, Next, Reveal and Discuss act in their callbacks, before this run draws the page: one run per
    # press, and each sets its step (or reveal, or vote) to a value, so a press run twice moves once.
    c[0].button("Back", key="lesson_back", icon=":material/arrow_back:", disabled=ls.step == 0,
                help="The class goes back one step with you.", on_click=_act,
                args=("back", "Not moved", "goto", code, key, ls.step - 1), width="stretch")
    c[1].button("Next", key="lesson_next", type="primary", icon=":material/arrow_forward:",
                disabled=ls.step >= len(ls.steps) - 1, help="Every student's screen goes to the next step.",
                on_click=_act, args=("next", "Not moved", "goto", code, key, ls.step + 1), width="stretch")
    if step.question is not None:
        revealed = ls.step in ls.revealed
        st.button("Hide the answers again" if revealed else "Reveal", key="lesson_reveal",
                  type="secondary" if revealed else "primary", icon=":material/visibility:",
                  help=REOPEN if revealed else REVEAL, on_click=_act, width="stretch",
                  args=("reveal", f"Not {'hidden' if revealed else 'revealed'}", "reveal", code, key, ls.step,
                        not revealed))
        if not revealed and ls.vote(ls.step) == 1:   # under Reveal, whole (in half the sidebar it was cut)
            st.button("Discuss with your neighbour", key="lesson_discuss", icon=":material/forum:",
                      help=DISCUSS, on_click=_act, width="stretch",
                      args=("discuss", "Not asked again", "discuss", code, key, ls.step))
    pause = st.toggle("Pause the class", value=ls.paused, key="lesson_pause",
                      help="Eyes up: every student's screen says so and answers wait until you resume.")
    if pause != ls.paused:
        connection.store().set_flag(code, key, "paused", pause)
        board.changed(code)
        state.rerun_page("the class paused or resumed")
    st.button("Clear the lost hands", key="lesson_lost_clear", icon=":material/back_hand:", on_click=_act,
              args=("lost", "Not cleared", "clear_lost", code, key, ls.step), width="stretch",
              help="Takes down every student's \"I'm lost\" on this step (the room's count goes to 0).")
    if step.note:   # the teacher's eyes only: never on the projected screen (issue 43 item 4)
        st.caption(f":material/sticky_note_2: **Your note:** {text.plain(step.note)}")
    free = st.toggle("Free mode", value=ls.mode == "free", key="lesson_free",
                     help="Off (paced): every student stays on your step. On: students move between the "
                          "steps opened so far.")
    if free != (ls.mode == "free"):
        connection.store().set_mode(code, key, "free" if free else "paced")
        board.changed(code)
    names = ls.show_names
    if step.question is not None:
        names = st.toggle("Show names", value=ls.show_names, key="lesson_names",
                          help="Under the chart, who answered what (off: nobody's answer is named).")
        if names != ls.show_names:
            connection.store().set_show_names(code, key, names)
    path = "trainer" if step.challenge else step.path
    st.link_button("Open this step in a new tab", f"/{path}" + (f"?{step.query}" if step.query else ""),
                   icon=":material/open_in_new:", width="stretch",
                   help="The step's view on its own, as the students see it after Reveal.")
    record(code, key)
    manage(code, key, ls)
    return names


def projected(code: str, ls, student: str, challenge: Callable[[], None] | None, names: bool) -> None:
    """What the room sees. At a first step without a question: the step's view beside the join code and
    QR, large. Otherwise a corner line (the step, the lesson, the code, a small QR), then the step: its
    question over the count (open) or the room's answers (revealed), beside its view; a challenge step
    shows the challenge's board, chart, gallery and snapshots."""
    step = ls.steps[ls.step]
    if ls.paused:
        seats.paused_sign("**Eyes up.** Answers wait until your teacher resumes.")
    q = step.question
    if ls.step == 0 and q is None and not step.challenge:
        left, right = st.columns([3, 2], gap="medium")
        with right:
            code_block(code, student, beside=True)
            st.fragment(hands_part, run_every=COUNT_EVERY)(code, ls.step)
        with left:
            st.markdown(f"### {heading(ls)}\n{text.plain(ls.title)}")
            view(step, ls.step)
        return
    corner(code, ls, student)
    if step.challenge and challenge is not None:
        st.fragment(hands_part, run_every=COUNT_EVERY)(code, ls.step)
        challenge()
        return
    left, right = st.columns([3, 2], gap="medium")   # the view at most 3/5 wide: its height fits the screen
    if q is None:
        with left:
            view(step, ls.step)
        right.caption("No question on this step: the view is open on every screen.")
        with right:
            st.fragment(hands_part, run_every=COUNT_EVERY)(code, ls.step)
        return
    with right:
        st.html(f'<p style="font-size:1.5rem;font-weight:600;line-height:1.3;margin:0">'
                f'{html.escape(q.text)}</p>')   # the question, large (escaped: a built lesson's words)
        if q.kind == "choice":
            st.markdown("  \n".join(f"**{chr(65 + i)}.** {text.plain(c)}" for i, c in enumerate(q.choices)))
        st.fragment(hands_part, run_every=COUNT_EVERY)(code, ls.step)   # above the answers: in sight
        st.fragment(answers_part, run_every=COUNT_EVERY)(code, ls.step, names)
    with left:
        if ls.step in ls.revealed:
            view(step, ls.step)
        else:
            st.html(f'<div style="height:{VIEW_HEIGHT - 40}px;display:flex;align-items:center;'
                    'justify-content:center;border:2px dashed #999;border-radius:8px;font-size:1.4rem;'
                    'text-align:center;padding:1em">Predict first: the view opens when the answers are '
                    'revealed.</div>')


def heading(ls) -> str:
    """ "Step 2 of 5: One weight moves" (Markdown, the title escaped)."""
    step = ls.steps[ls.step]
    return f"Step {ls.step + 1} of {len(ls.steps)}" + (f": {text.plain(step.title)}" if step.title else "")


def code_block(code: str, student: str, beside: bool = False) -> None:
    """The join code large and the student link's QR: a challenge's projector (side by side), and a
    lesson's first step (`beside` its view: one above the other)."""
    if beside:
        left = right = st.container()
    else:
        left, right = st.columns([3, 2], vertical_alignment="center")
    size = "clamp(40px,6vw,80px)" if beside else "clamp(48px,9vw,120px)"
    with left:
        st.html(f'<div style="font-size:{size};font-weight:700;letter-spacing:0.12em;'
                f'line-height:1.1">{code}</div>')   # our own code: six letters of CODE_ALPHABET
        st.markdown(f"Students open **{text.plain(student)}** (or scan the code) and pick a nickname.")
    with right:
        st.image(door.qr_png(student), width=200 if beside else 220, caption="The student link",
                 alt=f"QR code of the student link, {student}")   # a screen reader names it (axe: image-alt)


def corner(code: str, ls, student: str) -> None:
    """The step, the lesson and the way in, at the top; the QR small beside them."""
    a, b = st.columns([8, 1], vertical_alignment="center")
    a.markdown(f"### {heading(ls)}\n{text.plain(ls.title)} · join at **{text.plain(student)}** with the "
               f"code **{code}**")
    b.image(door.qr_png(student), width=80, alt=f"QR code of the student link, {student}")


def view(step, index: int) -> None:
    """The step's view as the room sees it (the page in its room view, `big=true`, embedded: no menu or
    header), at a projector's width scaled down into its column, in a frame that follows Next, Back and
    Reveal."""
    path = "trainer" if step.challenge else step.path
    src = f"/{path}?" + "&".join(p for p in (step.query, "big=true&embed=true") if p)
    with st.container(key=VIEW):
        st.iframe(src, height=VIEW_SIZE[1], tab_index=-1)


# The projector's count refreshes this often: an answer is counted within COUNT_EVERY s and one run (at
# 3 s the slowest of 240 answers took 2.97 s with 60 students on 2 replicas); the count is one query.
COUNT_EVERY = 2.0
FAILED = "lesson_failed"   # session: what a Back, Next or Reveal callback could not do (shown once)


def _act(what: str, failed: str, call: str, code: str, key: str, *args) -> None:
    """Back, Next, Reveal (or hide again), Discuss, Clear the lost hands (a callback): the store's `call`
    with the teacher's key, checked there; this run draws the teacher's view after it."""
    st.session_state[COST] = what
    try:
        getattr(connection.store(), call)(code, key, *args)
    except StoreError as err:   # StoreDown too: said once on the page this run draws
        st.session_state[FAILED] = f"{failed}: {err}"
        return
    board.changed(code)


@connection.away()
@connection.guarded("The room's answers")
def answers_part(code: str, step: int, names: bool) -> None:
    """While the question is open: how many answered (in the second vote once asked again), large (never
    who); after Reveal, how many were right, the chart and the sentence (classroom/reveal.py), both votes
    side by side for a question asked twice."""
    shown, ls = connection.store().step_reveal(code, step), connection.store().lesson_now(code)
    vote = ls.vote(step)
    if shown is None:
        n, joined = connection.store().answer_tally(code, step, vote)   # one query, however many seats
        if vote == 2:
            reveal.big_line("Second vote, after discussing:", size="1.4rem")
        reveal.big_line(f"{n} of {joined} answered", size="3rem", live=True)
        st.caption(f"{n} of {joined} students answered{' again' if vote == 2 else ''}. The answers show when "
                   "you press Reveal.")
        return
    q = ls.steps[step].question
    if len(shown.votes) == 2:
        reveal.show_votes(q, shown, key=f"lesson_votes_{step}", height=250)
    else:
        reveal.show(q, shown.votes[0], key=f"lesson_dist_{step}", height=250)
    if names:
        rows = connection.store().answers(code, door.key_for(code), step, len(shown.votes))
        st.dataframe([{"student": text.name_text(n), "answer": reveal.shown_answer(q, v)} for n, v in rows],
                     hide_index=True, width="stretch")


@connection.away(line=None)   # the answers' part beside it says the store is away, once
@connection.guarded("The lost hands")
def hands_part(code: str, step: int) -> None:
    """How many students' "I'm lost" are up on this step, never who (nothing while none is)."""
    if n := connection.store().lost_count(code, step):
        reveal.big_line(f"✋ {n} lost", size="1.6rem", live=True)


@connection.away()
@connection.guarded("The record")
def record(code: str, key: str) -> None:
    """The record's button in the sidebar: the record opens over the page, its 8 columns in full."""
    if st.button("The record of this lesson", icon=":material/table:", key="lesson_record", width="stretch",
                 help="Every question step and the class's homework: answered, share right, middle, spread."):
        record_dialog(code, key)


@st.dialog("The record of this lesson", width="large")
@connection.away()
@connection.guarded("The record")
def record_dialog(code: str, key: str) -> None:
    """Every question step: how many answered, the share right, the numbers' middle and spread; then the
    class's homework, a row per lesson and step (classroom/homework.py); and its homework link."""
    rows = []
    for r in connection.store().record(code, key) + connection.store().homework_record(code, key):
        sp = r.spread or {}
        rows.append({"lesson": f"homework: {r.homework}" if r.homework else "in class",
                     "step": str(r.step + 1), "title": r.title, "vote": str(r.vote),
                     "answered": str(r.answered),
                     "right": "–" if r.share_right is None else fmt.pct(r.share_right),
                     "median": fmt.num(sp["median"], 4) if sp else "–",
                     "spread (IQR)": fmt.num(sp["iqr"], 4) if sp else "–"})
    st.dataframe(rows, hide_index=True, width="stretch", column_config={
        "lesson": st.column_config.TextColumn(width="large"),
        **dict.fromkeys(("step", "vote", "answered"), st.column_config.TextColumn(width="small"))})
    if course := ready():   # homework for this class: its code filled in, the answers come to this record
        hw = st.selectbox("Homework link for this class", list(course), key="lesson_class_homework",
                          format_func=lambda n: course[n].title,
                          help="A ready lesson students go through alone; their answers come here.")
        links.homework_box(hw, code)


def export_csv(code: str, key: str) -> str:
    import pandas as pd

    cols = ("nickname", "step", "title", "vote", "answer", "right", "time", "homework")   # its lesson's title
    rows = connection.store().export_answers(code, key) + connection.store().export_homework(code, key)
    table = pd.DataFrame([{k: text.cell(r.get(k)) for k in cols} for r in rows], columns=list(cols))
    return table.to_csv(index=False)


def export_json(code: str, key: str) -> str:
    return json.dumps({"code": code, "answers": connection.store().export_answers(code, key),
                       "homework": connection.store().export_homework(code, key)}, sort_keys=True)


@connection.guarded("The list of students")
def seats_part(code: str, key: str) -> None:
    """Close joining once the class is in; remove a student, or every seat that never answered (a flood of
    joins, a tab opened twice): each checked against the key on the server."""
    info = connection.store().get_class(code)
    if info is None:
        return
    closed = st.toggle("Close joining", value=info.joining_closed, key="lesson_join_closed",
                       help="Once the class is in: nobody new can join; the students in it stay.")
    if closed != info.joining_closed:
        connection.store().set_flag(code, key, "joining_closed", closed)
    seats = {text.name_text(s.nickname): s.nickname for s in connection.store().seats(code, key)}
    c = st.columns([3, 2], vertical_alignment="bottom")
    who = c[0].selectbox("Remove a student", sorted(seats), index=None, placeholder="Choose a student",
                         key="lesson_remove_who", help="Their seat and their answers leave the class.")
    if who is not None and c[1].button(f"Remove {text.label(who)}", key="lesson_remove",
                                       icon=":material/person_remove:"):
        connection.store().remove(code, key, nickname=seats[who])
        state.rerun_page("a student removed from the lesson")
    if st.button("Remove every student who never answered", key="lesson_remove_silent",
                 icon=":material/group_remove:", help="Seats that answered no question: a flood of joins, "
                                                      "a tab opened twice. Whoever answered stays."):
        n = connection.store().remove_silent(code, key)
        st.caption(f"{n} seat{'s' if n != 1 else ''} removed.")


def manage(code: str, key: str, ls) -> None:
    """Downloads (built when pressed), delete answers, pause, end."""
    with st.expander("Manage the lesson", icon=":material/settings:"):
        c = st.columns(2)
        c[0].download_button("Download the answers (CSV)", lambda: export_csv(code, key),
                             file_name=f"lesson-{code}.csv", mime="text/csv", icon=":material/table:",
                             on_click="ignore", key="lesson_csv", help="One row per student and step.")
        c[1].download_button("Download the answers (JSON)", lambda: export_json(code, key),
                             file_name=f"lesson-{code}.json", mime="application/json", key="lesson_json",
                             icon=":material/download:", on_click="ignore", help="Every answer, as data.")
        seats_part(code, key)
        if st.button("Delete this step's answers", key="lesson_delete", icon=":material/delete:",
                     help="The class answers this step afresh."):
            n = connection.store().delete_answers(code, key, ls.step)
            st.caption(f"{n} answers deleted.")
        sure = st.checkbox("I am sure: end this lesson, delete its students and every answer",
                           key="lesson_end_sure", help="End deletes the class: tick this first.")
        if st.button("End the lesson", key="lesson_end", disabled=not sure, icon=":material/delete_forever:",
                     help="Everything of this class is deleted."):
            try:
                connection.store().end(code, key)
            except StoreError as err:
                st.error(text.plain(str(err)))
                return
            board.changed(code)
            st.query_params.clear()
            state.rerun_page("the lesson ended: back to the way in")

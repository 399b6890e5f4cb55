"""A lesson as a class activity (issue 33), as the teacher leads it on /class: pick a ready lesson and
Start the lesson (the same join code, QR and teacher's key as a challenge); then Back and Next, paced or
free, Reveal, the room's answers as one chart (never who answered what unless the teacher shows names),
the record, the downloads, and the end. The student's side is classroom/lesson.py.
"""

from __future__ import annotations

import itertools
import json

import streamlit as st

from classroom import board, build, connection, door, session, text
from classroom.lesson import shown_answer
from lib import lessons
from store import StoreError
from ui import colors, state
from ui.nav import LESSONS


@st.cache_resource(show_spinner=False)
def ready() -> dict[str, lessons.Lesson]:
    """The ready lessons (lib.lessons.READY), built once per process (their answers are computed)."""
    return {name: make() for name, make in lessons.READY.items()}


def paths() -> set[str]:
    return {item.url_path for item in LESSONS}


def start_box() -> None:
    """'Lead a lesson': one of the ready lessons, then Start the lesson (a class of its own)."""
    with st.container(border=True):
        st.markdown("**Lead a lesson** (for the teacher)")
        st.caption("The class follows you from view to view, predicts before it sees, and sees its own "
                   "answers.")
        with st.form("lesson_start", border=False):
            offered = {**build.own(), **ready()}   # the lesson built on this page first, if there is one
            titles = {name: ("Yours: " if name == build.OWN else "") + one.title
                      for name, one in offered.items()}
            pick = st.selectbox("Lesson", list(titles), format_func=titles.get, key=build.START_PICK,
                                help="Yours (built below), or a ready one: its right answers computed from "
                                     "each step's view.")
            go = st.form_submit_button("Start the lesson", type="primary", icon=":material/school:")
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


def lead(code: str, ls) -> None:
    """The teacher's lesson view, under the code and QR: the step, its link, Back / Next, paced or free,
    Reveal; the room's answers (live); the record; Manage."""
    key = door.key_for(code)
    step = ls.steps[ls.step]
    st.subheader(text.plain(ls.title))
    st.markdown(f"**Step {ls.step + 1} of {len(ls.steps)}: {text.plain(step.title)}**")
    if step.note:
        st.caption(text.plain(step.note))
    path = "trainer" if step.challenge else step.path
    view = f"{door.base_url()}/{path}" + (f"?{step.query}" if step.query else "")
    if failed := st.session_state.pop(FAILED, None):   # a move's callback met the store away, or a refusal
        st.error(text.plain(failed), icon=":material/error:")
    c = st.columns([1, 1, 2, 2])
    # Back, Next and Reveal act in their callbacks, before this run draws the page: one run per press, and
    # each sets its step (or reveal) to a value, so a press run twice (FIELD-NOTES) moves once.
    c[0].button("Back", key="lesson_back", icon=":material/arrow_back:", disabled=ls.step == 0,
                help="The class goes back one step with you.", on_click=_move,
                args=(code, key, ls.step - 1, "back"))
    c[1].button("Next", key="lesson_next", type="primary", icon=":material/arrow_forward:",
                disabled=ls.step >= len(ls.steps) - 1, help="Every student's screen goes to the next step.",
                on_click=_move, args=(code, key, ls.step + 1, "next"))
    c[2].link_button("Open this step on the projector", view, icon=":material/open_in_new:",
                     help="The step's view in a new tab, as the students see it after Reveal.")
    free = c[3].toggle("Free mode", value=ls.mode == "free", key="lesson_free",
                       help="Off (paced): every student stays on your step. On: students move between "
                            "the steps opened so far.")
    if free != (ls.mode == "free"):
        connection.store().set_mode(code, key, "free" if free else "paced")
        board.changed(code)
    q = step.question
    if q is not None:
        st.markdown(f"**The question:** {text.plain(q.text)}")
        revealed = ls.step in ls.revealed
        st.button("Hide the answers again" if revealed else "Reveal", key="lesson_reveal",
                  type="secondary" if revealed else "primary", icon=":material/visibility:",
                  help=REOPEN if revealed else REVEAL, on_click=_reveal,
                  args=(code, key, ls.step, not revealed))
        names = st.toggle("Show names", value=ls.show_names, key="lesson_names",
                          help="Under the chart, who answered what (off: nobody's answer is named).")
        if names != ls.show_names:
            connection.store().set_show_names(code, key, names)
        st.fragment(answers_part, run_every=COUNT_EVERY)(code, ls.step, names)
    record(code, key)
    manage(code, key, ls)


# The projector's count refreshes this often: an answer is counted within COUNT_EVERY s and one run (at
# 3 s the slowest of 240 answers took 2.97 s with 60 students on 2 replicas); the count is one query.
COUNT_EVERY = 2.0
FAILED = "lesson_failed"   # session: what a Back, Next or Reveal callback could not do (shown once)


def _move(code: str, key: str, step: int, what: str) -> None:
    """Back or Next (a callback): the class goes to `step`; this run draws the teacher's view there."""
    st.session_state[COST] = what
    try:
        connection.store().goto(code, key, step)
    except StoreError as err:   # StoreDown too: said once on the page this run draws
        st.session_state[FAILED] = f"Not moved: {err}"
        return
    board.changed(code)


def _reveal(code: str, key: str, step: int, revealed: bool) -> None:
    """Reveal, or hide the answers again (a callback)."""
    st.session_state[COST] = "reveal"
    try:
        connection.store().reveal(code, key, step, revealed)
    except StoreError as err:
        st.session_state[FAILED] = f"Not {'revealed' if revealed else 'hidden'}: {err}"
        return
    board.changed(code)


@connection.away()
@connection.guarded("The room's answers")
def answers_part(code: str, step: int, names: bool) -> None:
    """While the question is open: how many answered (never who); after Reveal, the distribution."""
    dist = connection.store().step_distribution(code, step)
    if dist is None:
        n, joined = connection.store().answer_tally(code, step)   # one query, however many seats
        st.metric("Answered", f"{n} of {joined}", help="Students who sent an answer to this step.")
        st.caption(f"{n} of {joined} students answered. The answers show when you press Reveal.")
        return
    q = connection.store().lesson_now(code).steps[step].question
    from ui import charts

    charts.show(distribution_figure(q, dist), key=f"lesson_dist_{step}")
    words = f"{dist.n} answer{'s' if dist.n != 1 else ''}."
    if q.answer is not None:
        words += f" The right answer: {shown_answer(q, q.answer)}."
    st.markdown(text.plain(words))
    if names:
        rows = connection.store().answers(code, door.key_for(code), step)
        st.dataframe([{"student": text.name_text(n), "answer": shown_answer(q, v)} for n, v in rows],
                     hide_index=True, width="stretch")


def distribution_figure(q: lessons.Question, dist: lessons.Distribution):
    """Bars per choice (the right one in the answer colour), or a histogram of numbers with the right
    answer marked; the right answer named in the title. Written as plotly's plain dict and sent unbuilt
    (ui.frozen): building a go.Figure and validating its updates and the answer's line cost more than the
    rest of the teacher's Reveal."""
    from ui.frozen import frozen_spec

    right = None if dist.right is None else shown_answer(q, dist.right)
    title = f"{dist.n} answers" + (f" · the answer: {right}" if right is not None else "")
    counts = list(dist.counts)
    # The house layout (ui.charts.figure), as plain data.
    xaxis = {"zeroline": True, "exponentformat": "power"}
    yaxis = {"title": {"text": "students"}, "zeroline": True, "exponentformat": "power",
             "rangemode": "tozero"}
    if max(counts or (0,)) <= 10:
        yaxis["dtick"] = 1
    layout = {"title": {"text": text.for_plotly(title)}, "height": 340,
              "margin": {"l": 10, "r": 10, "t": 40, "b": 10},
              "legend": {"orientation": "h", "yanchor": "bottom", "y": 1.0, "xanchor": "left", "x": 0.0},
              "hovermode": "closest", "font": {"size": 14}, "showlegend": False, "xaxis": xaxis,
              "yaxis": yaxis}
    data, texts = [], [str(n) for n in counts]
    if dist.kind == "choice":
        cols = [colors.GREEN if i == dist.right else colors.OFF for i in range(len(counts))]
        labels = [text.for_plotly(t + (" ✓" if i == dist.right else "")) for i, t in enumerate(dist.labels)]
        data.append({"type": "bar", "x": labels, "y": counts, "marker": {"color": cols}, "text": texts,
                     "textposition": "outside", "name": "answers",
                     "hovertemplate": "%{x}: %{y}<extra></extra>"})
    elif counts:
        e = dist.edges
        data.append({"type": "bar", "x": [(a + b) / 2 for a, b in itertools.pairwise(e)], "y": counts,
                     "width": [0.96 * (b - a) for a, b in itertools.pairwise(e)],
                     "marker": {"color": colors.BLUE}, "name": "answers", "text": texts,
                     "textposition": "outside",
                     "customdata": [f"{a:.3g} to {b:.3g}" for a, b in itertools.pairwise(e)],
                     "hovertemplate": "%{customdata}: %{y}<extra></extra>"})
        pad = 0.6 * (e[-1] - e[0]) / max(1, len(counts))   # the answer's line clear of the frame
        xaxis.update(range=[e[0] - pad, e[-1] + pad],
                     title={"text": "answers (each bar: a range of numbers)"})
        if dist.right is not None:   # what fig.add_vline makes, written out
            x = float(dist.right)
            layout["shapes"] = [{"type": "line", "x0": x, "x1": x, "xref": "x", "y0": 0, "y1": 1,
                                 "yref": "y domain", "line": {"color": colors.GREEN, "width": 3}}]
            layout["annotations"] = [{"text": text.for_plotly(f"the answer {right}"), "showarrow": False,
                                      "x": x, "xref": "x", "xanchor": "center", "y": 1, "yref": "y domain",
                                      "yanchor": "bottom"}]
    return frozen_spec({"data": data, "layout": layout})


@connection.away()
@connection.guarded("The record")
def record(code: str, key: str) -> None:
    """Every question step: how many answered, the share right, the numbers' middle and spread."""
    with st.expander("The record of this lesson", icon=":material/table:"):
        rows = []
        for r in connection.store().record(code, key):
            sp = r.spread or {}
            rows.append({"step": r.step + 1, "title": r.title, "answered": r.answered,
                         "right (%)": None if r.share_right is None else round(100 * r.share_right, 1),
                         "median": None if not sp else round(sp["median"], 4),
                         "spread (IQR)": None if not sp else round(sp["iqr"], 4)})
        st.dataframe(rows, hide_index=True, width="stretch")


def export_csv(code: str, key: str) -> str:
    import pandas as pd

    cols = ("nickname", "step", "title", "answer", "right", "time")
    rows = connection.store().export_answers(code, key)
    table = pd.DataFrame([{k: text.cell(r.get(k)) for k in cols} for r in rows], columns=list(cols))
    return table.to_csv(index=False)


def export_json(code: str, key: str) -> str:
    return json.dumps({"code": code, "answers": connection.store().export_answers(code, key)}, sort_keys=True)


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
        pause = st.toggle("Pause the class", value=ls.paused, key="lesson_pause",
                          help="Eyes up: every student's screen says so and answers wait until you resume.")
        if pause != ls.paused:
            connection.store().set_flag(code, key, "paused", pause)
            board.changed(code)
            state.rerun_page("the class paused or resumed")
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

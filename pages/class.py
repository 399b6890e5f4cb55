"""/class: a class challenge on one link. A teacher starts one and projects its board; a student joins
with the join code and a nickname and trains on /trainer in the class.

Links: `code` (the class), `key` (the teacher's, read once and removed from the address bar), `homework` (a
ready lesson's name or a saved lesson's code: that lesson alone, at a student's own pace).
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import streamlit as st

import engine.preload  # noqa: F401  (first: every module imported once before any page runs)
from classroom import board as class_board  # not `board`: this page's own board() draws it
from classroom import build, connection, door, draft, homework, lead, lesson, pictures, seats, session, text
from lib.challenge import DEFAULT_PROBLEM, evaluate, score_of
from lib.datasets import PROBLEMS
from store import StoreDown, StoreError, normal_code
from ui import charts, state
from ui import room as room_view  # not `room`: this page's own room() is the way in
from ui.source import show_source


def trainer_controls() -> dict[str, str]:
    """The trainer's controls a challenge may hide ({link key: label}), from its LINKS table; not the
    class's data (locked in a challenge)."""
    from lib.settings import table

    return {s.key: s.label for s in table()   # every control but hand-bound ones and the view tabs (hideable)
            if not s.hand and s.widget != "tabs" and s.key not in seats.NEVER_HIDDEN}


def start() -> None:
    """A teacher starts a challenge: the data from their trainer view (or the checkerboard), limits."""
    spec = st.session_state.get("trainer_spec")
    problem = class_board.problem_from_spec(spec) if spec is not None and spec.own is None else DEFAULT_PROBLEM
    with st.container(border=True):
        st.markdown("**Start a challenge** (for the teacher)")
        source = "your trainer view" if spec is not None and spec.own is None else \
            "the trainer's first view (open /trainer first to use your own)"
        st.caption(f"The class's data, from {source}: {class_board.describe_problem(problem)}.")
        with st.form("class_start", border=False):
            c1, c2, c3 = st.columns(3)
            max_params = c1.number_input("Most parameters (0: any)", 0, 100_000, 0, 10,
                                         help="A network larger than this is refused at Submit.")
            max_subs = c2.number_input("Submissions per student (0: any)", 0, 100, 5, 1,
                                       help="How many networks each student may submit.")
            minutes = c3.number_input("Closes in minutes (0: never)", 0, 24 * 60, 45, 5,
                                      help="After this, joining and submitting stop; the board stays.")
            controls = trainer_controls()
            hide = st.multiselect("Hide these trainer controls from the students", list(controls),
                                  format_func=controls.get, key="class_start_hide",
                                  help="Each student's trainer opens without them; their values (the "
                                       "trainer's defaults) still apply. The class's data is locked anyway.")
            go = st.form_submit_button("Start the challenge", type="primary", icon=":material/flag:")
        if go:
            if hide:
                problem = {**problem, "hide": sorted(hide)}
            try:
                code, key = connection.store().create_class(
                    problem, max_params=int(max_params) or None, max_submissions=int(max_subs) or None,
                    closes_at=datetime.now(UTC) + timedelta(minutes=int(minutes)) if minutes else None,
                    client=door.spend("start"))
            except StoreDown:
                raise
            except StoreError as err:   # this page's or this network's starts used up
                st.error(text.plain(str(err)), icon=":material/error:")
                return
            st.session_state.setdefault(session.KEYS, {})[code] = key
            st.session_state["class_new_key"] = (code, key)
            st.query_params["code"] = code
            draft.started()
            state.rerun_page("the new class's board and key")


def join(code: str = "") -> None:
    """A student joins: the join code (from the link or typed) and a nickname."""
    with st.container(border=True):
        st.markdown("**Join a class** (for a student)")
        with st.form("class_join", border=False):
            typed = st.text_input("Join code", value=code, max_chars=8, help="The 6 characters on the board.")
            nick = st.text_input("Your nickname", max_chars=40,
                                 help="Shown on the class board; at most 24 characters, unique in the class.")
            go = st.form_submit_button("Join", type="primary", icon=":material/login:")
        if go:
            try:
                token = door.join(typed, nick)   # this page's tries counted; the class's limits the store's
            except StoreError as err:   # may quote the nickname typed: shown as text, never as Markdown
                st.error(text.plain(str(err)), icon=":material/error:")
                return
            st.session_state.setdefault(session.JOINED, {})[normal_code(typed)] = token   # the seat: not pushed
            lesson.land(typed, token)   # a lesson class: to the teacher's step
            st.switch_page("pages/trainer.py", query_params={"class": normal_code(typed)})


def teacher(code: str) -> None:
    info = connection.store().get_class(code)
    from ui import address

    base, swapped = address.base()
    student = f"{base}/class?code={code}"
    if swapped:
        st.caption(":material/lan: " + address.LOOPBACK_NOTE.format(host=base.split("//", 1)[1]))
    new = st.session_state.pop("class_new_key", None)
    ls = connection.store().lesson_state(code)
    if ls is not None:   # a lesson class: the teacher leads it (classroom/lead.py), the challenge's board on
        lead.lead(code, ls, student, challenge=lambda: challenge_room(code),   # its challenge step, the key
                  first=lambda: key_note(base, code, new))                     # off the projected screen
        return
    key_note(base, code, new)
    sign = st.container()   # PAUSED, above the code, once the toggle below has said so
    lead.code_block(code, student)
    st.caption(class_board.describe_problem(info.problem) + ".")
    c = st.columns(3)
    hide = c[0].toggle("Hide nicknames", value=info.hide_names, key="class_hide",
                       help="Number the students on the board instead of naming them.")
    reveal = c[1].toggle("Reveal the private scores", value=info.revealed, key="class_reveal",
                         help="Show the hidden half's scores and rank by them (do this at the end).")
    pause = c[2].toggle("Pause the class", value=info.paused, key="class_pause",
                        help="Eyes up: every student's Play stops and Submit waits until you resume.")
    key = door.key_for(code)
    for flag, value, was in (("hide_names", hide, info.hide_names), ("revealed", reveal, info.revealed),
                             ("paused", pause, info.paused)):
        if value != was:
            connection.store().set_flag(code, key, flag, value)   # checked against the key on the server
            class_board.changed(code)
    if pause:
        with sign:
            seats.paused_sign("**Eyes up.** Every student's Play has stopped and Submit waits until you resume "
                              "(the switch below).")
    # The live parts are placed first but drawn after Manage: whatever they meet in the store, the teacher's
    # actions are on the page already (and each live part fails alone, as one line: connection.guarded).
    live = st.container()
    manage(code, info)
    with live:
        challenge_room(code)


def challenge_room(code: str) -> None:
    """The challenge's room: the board, the class chart and the gallery (live), then the snapshots; a
    challenge's projector and a lesson's challenge step alike."""
    st.fragment(live_view, run_every=3)(code)
    st.fragment(snapshots, run_every=3)(code)   # on the board's beat: its control comes with the first
    # submission, and its list grows


def key_note(base: str, code: str, new: tuple[str, str] | None) -> None:
    """Just started: the teacher's link with its key, shown only now."""
    if new and new[0] == code:
        st.warning("Keep your teacher's link: the key in it is shown only now, and only this browser holds "
                   "it. Open it away from the projector.", icon=":material/key:")
        with st.expander("Your teacher's link", icon=":material/key:"):
            st.code(f"{base}/class?code={code}&key={new[1]}", language=None, wrap_lines=True)
        # The live board reruns itself, never this part: without a run of the page the note stayed up.
        st.button("I have kept it: hide this", key="class_key_kept", icon=":material/visibility_off:",
                  help="Takes the key's note off the projected board; the link is not shown again.")


def manage(code: str, info) -> None:
    """The teacher's other actions: close or reopen, download, remove, end (each checked on the server).
    Close and end read nothing of the submissions; the rest reads them through guarded parts. Nothing here
    grows with the class on a click: the downloads are built when pressed, the lists come from the board's
    shared read."""
    key = door.key_for(code)
    with st.expander("Manage the class", icon=":material/settings:"):
        closed = info.closed()
        c1, c2 = st.columns(2)
        if c1.button("Reopen submissions" if closed else "Close submissions", key="class_close",
                     icon=":material/lock_open:" if closed else ":material/lock:",
                     help="Closed: nobody can join or submit; the board stays."):
            connection.store().set_open(code, key, closed)
            class_board.changed(code)
            state.rerun_page("the class opened or closed")
        with c2:
            downloads(code, key)
        remove(code, key, info)
        sure = st.checkbox("I am sure: delete this class, its students and every submission", key="class_end_sure")
        if st.button("End the class", key="class_end", disabled=not sure, icon=":material/delete_forever:",
                     help="Everything of this class is deleted. Classes older than 14 days are deleted anyway."):
            connection.store().end(code, key)
            class_board.changed(code)
            st.query_params.clear()
            state.rerun_page("the class ended: back to the way in")


def downloads(code: str, key: str) -> None:
    """Every submission (JSON) and the scores (CSV), each built only when its button is pressed (a callable:
    a click elsewhere costs nothing however large the class) and without a rerun of the page."""
    s = connection.store()
    st.download_button("Download every submission (JSON)", lambda: class_board.export_json(s, code, key),
                       file_name=f"class-{code}.json", mime="application/json", icon=":material/download:",
                       on_click="ignore", help="Each network with its settings, weights and both scores.")
    st.download_button("Download the scores (CSV)", lambda: class_board.export_csv(s, code, key),
                       file_name=f"class-{code}.csv", mime="text/csv", icon=":material/table:",
                       on_click="ignore", help="One row per submission.")
    st.download_button("Download the homework answers (CSV)", lambda: homework.export_csv(code, key),
                       file_name=f"homework-{code}.csv", mime="text/csv", icon=":material/home_work:",
                       on_click="ignore", help="Answers handed in with this class's code (/class?homework=).")


@connection.guarded("The list of students")
def remove(code: str, key: str, info) -> None:
    """Remove a student (and their submissions), or one of their submissions: a readable one by its score,
    an unreadable one as such. Names are shown as typed, never as Markdown: Streamlit 1.67 draws a select's
    options as text (seen in Chromium: `**b**` stays `**b**`) but a button's label as Markdown, so the
    button's is escaped (text.label)."""
    # Every seat, those who never submitted too: one read of nicknames (the weights and scores of a student's
    # submissions are read only once that student is chosen, below).
    names = sorted({text.name_text(seat.nickname) for seat in connection.store().seats(code, key)})
    who = st.selectbox("Remove a student, or one of their submissions", names, index=None,
                       placeholder="Choose a student", key="class_remove_who",
                       help="For a nickname that should not be on the board, or a network that should not.")
    if who is None:
        return
    if st.button(f"Remove {text.label(who)} and their submissions", key="class_remove",
                 icon=":material/person_remove:"):
        connection.store().remove(code, key, nickname=who)
        class_board.changed(code)
        state.rerun_page("a student removed from the board")
    what = class_board.score_name(info)
    scale, unit = (1.0, "") if what == "R²" else (100.0, " %")
    said = {}
    for s in class_board.submissions_now(code):             # read only once a student is chosen
        if text.name_text(s["nickname"]) != who:
            continue
        g = class_board.readable(s["public"], s["private"], s["n_params"], s["spec"], info)
        said[s["id"]] = (text.BAD if g is None else f"public {scale * g[0]:.1f}{unit}, {g[2]} parameters, "
                         f"{g[3].get('epoch', '?')} epochs")
    one = st.selectbox("One of their submissions", list(said), index=None, format_func=said.get,
                       placeholder="Choose a submission", key="class_remove_sub",
                       help="One network off the board (the student keeps their seat and their others).")
    if one is not None and st.button("Remove this submission", key="class_remove_one", icon=":material/delete:"):
        connection.store().remove(code, key, submission=one)
        class_board.changed(code)
        state.rerun_page("a submission removed from the board")


@connection.guarded("The board")
def board(code: str, compact: bool = False) -> None:
    """Joined, active and playing students, and the leaderboard (refreshed every 3 s; one read a second
    per class, table built, is shared by every viewer: classroom.board.board_table)."""
    info, counts, table = class_board.board_table(code)
    if info is None:
        st.caption("This class has ended.")
        return
    if compact and info.paused:   # a student's phone: the projector's sign
        seats.paused_sign("**Eyes up: your teacher paused the class.**")
    if compact:   # a student's phone: one line, the table first
        st.markdown(f"**{counts.joined}** joined · **{counts.active}** active in the last minute · "
                    f"**{counts.playing}** playing · **{counts.submissions}** submissions")
    else:         # the projector: numbers readable from the back
        m = st.columns(4)
        m[0].metric("Joined", counts.joined)
        m[1].metric("Active (last minute)", counts.active)
        m[2].metric("Playing", counts.playing)
        m[3].metric("Submissions", counts.submissions)
    if table is None:
        st.caption("No submissions yet: the board fills as students press Submit on /trainer.")
        return
    what = class_board.score_name(info)
    if not compact and room_view.on():   # the projector's large text: a table in the page's text size
        st.table(class_board.room_table(table, what), hide_index=True)
        return
    fmt = "%.3f" if what == "R²" else "%.1f %%"
    st.dataframe(class_board.for_viewer(table), hide_index=True, width="stretch", column_config={
        f"public {what}": st.column_config.NumberColumn(format=fmt),
        f"private {what}": st.column_config.NumberColumn(format=fmt)})


@connection.away()
def live_view(code: str) -> None:
    """The projector's live part, refreshed every 3 s as one: the board, the class chart, the gallery."""
    board(code)
    gallery(code)


@connection.guarded("The class chart and the gallery")
def gallery(code: str) -> None:
    """Every student's latest best boundary, small, in rank order (each map computed once per
    submission), and the class on one chart."""
    info, counts, rows = class_board.board_now(code)
    if info is None or not rows:
        return
    chart, reveal, (line, columns, table) = class_board.class_charts(code, info, counts.submissions)
    charts.show(chart, key="class_chart")
    st.caption("Every submission: a colour per bend, a marker per optimiser. A bigger network is not always a "
               "better test score.")
    charts.answer(line, columns, table)   # the chart's answer as text, for a screen reader too
    if info.revealed:   # over-fitting made visible: who was tuned to the half they were shown
        charts.show(reveal, key="class_reveal_chart")
        st.caption("On the dashed line a network did as well on the half nobody saw; under it, it was tuned to "
                   "the half it was shown.")
    cards = tuple((r.submission, (f"{r.rank}. " + (f"Student {i + 1}" if info.hide_names
                                                   else text.name_text(r.nickname)))[:28])
                  for i, r in enumerate(rows[:32])
                  if class_board.readable(r.public, r.private, r.n_params, r.spec, info))
    grid = pictures.gallery_grid(cards, class_board.dumps(info.problem))
    if grid is None:
        st.caption("A curve fit has no plane to draw: the board and the chart show every fit.")
        return
    st.markdown("**Every boundary**, in rank order")
    charts.show(grid, key="class_gallery", live=True)   # live: no mode bar


@connection.away(line=None)   # the board beside it says the store is away, once
@connection.guarded("The snapshots")
def snapshots(code: str) -> None:
    """Snapshots: the teacher stars up to three networks; they show large, side by side, each with its
    settings, the public test points and a ring round each it gets wrong (anonymised when names are)."""
    info, _, rows = class_board.board_now(code)
    if info is None or not rows:
        return
    names = {r.submission: f"{r.rank}. " + (f"Student {i + 1}" if info.hide_names
                                            else text.name_text(r.nickname))
             for i, r in enumerate(rows) if class_board.readable(r.public, r.private, r.n_params, r.spec, info)}
    kept = [s for s in st.session_state.get("class_stars", []) if s in names]   # a removed one goes
    if kept != st.session_state.get("class_stars", kept):
        st.session_state["class_stars"] = kept
    starred = st.multiselect("Snapshots: star up to three networks to show side by side", list(names),
                             max_selections=3, format_func=lambda s: names.get(s, "?"),
                             key="class_stars",
                             help="Each shows large, with its settings, the public test points and a ring "
                                  "round each one it gets wrong. Ask: what did these do differently?")
    if not starred:
        return
    problem_json = class_board.dumps(info.problem)
    by_id = {r.submission: r for r in rows}
    for col, sub in zip(st.columns(len(starred)), starred, strict=True):
        with col:
            try:
                drawn, X, y, wrong = pictures.snapshot_parts(sub, problem_json, code)
            except Exception:   # removed meanwhile, no longer fits, cannot be read: say so, draw nothing
                st.caption(f"{text.plain(names[sub])}: this network can no longer be drawn.")
                continue
            if drawn is None:
                st.caption("A curve fit has no plane to draw; its settings:")
            else:
                charts.show(pictures.snapshot_figure(drawn, X, y, wrong, info.problem, names[sub],
                                                     beside=len(starred)), key=f"class_snap_{sub}", live=True)
            ringed = f"{int(wrong.sum())} of {len(wrong)} public test points wrong (ringed)" \
                if info.problem.get("problem") != "regress" else f"{len(wrong)} public test points"
            st.markdown(pictures.settings_line(by_id[sub].spec) + f" · {ringed}")


def room(code: str) -> bool:
    """The teacher's room, or a student's way in (and the class's board when the link names one). True
    when the class is a lesson class: known only once the code was found (a try the door counts), so the
    page's title never tells a guessed code's kind."""
    try:
        info = door.find(code) if code else None
    except StoreDown:
        raise
    except StoreError as err:   # this page named too many wrong codes: one line, and the way in
        st.error(str(err), icon=":material/error:")
        code, info = "", None
    if code and info is None:
        st.error(f"No class has the code {text.plain(state.shown(code, 12))}: check it on the board.",
                 icon=":material/error:")   # shortened, as /?s= does: a link may carry 10,000 characters
    lesson_class = info is not None and is_lesson(code)
    if info is not None and door.is_teacher(code):
        teacher(code)
    else:
        if info is not None and door.key_for(code) is not None:   # a teacher's link, but a wrong or cut-off key
            st.warning(f"This teacher's key does not match class {code}: the teacher's controls are hidden.",
                       icon=":material/key_off:")
        st.markdown("One dataset for the whole class, test points nobody sees, and a board that scores every "
                    "network on them. The teacher starts a challenge and projects its code; each student "
                    "joins with a nickname, trains on the live trainer and presses **Submit**.")
        if info is not None:   # a student's link: join, then the class's board, live as on the projector
            join(code)
            if not lesson_class:   # a lesson class has no board: its steps are the pages
                st.subheader(f"The board of class {code}")
                st.fragment(connection.away()(board), run_every=3)(code, compact=True)
            with st.expander("Start a challenge of your own (for a teacher)", icon=":material/flag:"):
                start()
        else:
            draft.keep()   # the link's unsaved lesson restored, this one kept: before "Lead a lesson" lists it
            a, b = st.columns(2, gap="medium")
            with a:
                join("")
            with b:
                start()
                lead.start_box()
            draft.said()
            build.builder()
    return lesson_class


def is_lesson(code: str) -> bool:
    """The code names a lesson class (its steps are the pages; it has no board and scores nothing)."""
    try:
        return bool(code) and connection.store().lesson_now(code) is not None   # shared, read once a beat
    except StoreError:   # away or refused: the page says so below, as for any class
        return False


def homework_page() -> None:
    """/class?homework=...: a ready or saved lesson alone, at a student's own pace (classroom/homework.py)."""
    st.title("Homework")
    with connection.away(look_again=True):
        homework.page(str(st.query_params.get(homework.KEY) or ""))


if __name__ == "__main__" and homework.KEY in st.query_params:
    homework_page()
elif __name__ == "__main__":
    code = normal_code(st.query_params.get("code") or "")
    head = st.empty()   # the title, once the room knows its class's kind
    head.title("Class challenge")
    door.take_key(code)
    lesson_class = False   # (not `lesson`: that name is classroom.lesson on this page)
    with connection.away(look_again=True):   # the class store away: one line, and the page comes back by itself
        lesson_class = room(code)
    if lesson_class:
        head.title("Class lesson")
    if not lesson_class:   # how a challenge scores: nothing a lesson's room needs under its steps
        problems = ", ".join(p.label for p in PROBLEMS.values())
        st.caption(f"Any problem type works ({problems}): the score is accuracy for classes, R² for values.")
        show_source(evaluate, score_of, label="The code that scores every network, on the server")
    lead.note_cost()   # bench/classroom.py --lesson: the CPU of the teacher's Next or Reveal

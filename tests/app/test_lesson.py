"""A lesson as a class activity under AppTest (issue 33): the teacher starts the recipe-card lesson on
/class, a student joins and follows Next, the question hides the view until Reveal, Send my answer keeps
the answer, Reveal shows the room's answers with the right one, the student sees theirs beside the truth,
a paced student cannot leave, the CSV downloads, the lesson ends.

The student's pages run through tests/app/fixtures/lesson_page.py: AppTest runs app.py only on its first
run, so the hook app.py calls (classroom.lesson.follow) is called there, with st.switch_page recorded."""

from __future__ import annotations

import io
from pathlib import Path

import pandas as pd
import pytest
import streamlit as st
from streamlit.testing.v1 import AppTest

from classroom import connection, lead, session, text
from classroom import lesson as cl
from lib import lessons as L
from tests.app.conftest import figures, open_page, start_pick

PAGE = str(Path(__file__).parent / "fixtures" / "lesson_page.py")


def store():
    """The class store every page part reaches (connection.store())."""
    return connection.store()


def _text(at) -> str:
    """Every word on the page: Markdown, captions, alerts, and our st.html lines (their tags out)."""
    import html
    import re

    parts = [at.markdown, at.caption, at.error, at.warning, at.success, at.info]
    words = [el.value for part in parts for el in part]
    words += [html.unescape(re.sub(r"<[^>]+>", "", el.proto.body)) for el in at.get("html")]
    return " ".join(words)


@pytest.fixture
def switches(monkeypatch):
    """st.switch_page recorded: the page's URL path and link become the fixture page's, then it reruns."""
    went = []

    def switch(page, query_params=None):
        path = Path(str(page)).stem
        went.append((path, dict(query_params or {})))
        st.session_state["lesson_test_path"] = path
        st.query_params.from_dict(query_params or {})
        st.rerun()

    monkeypatch.setattr(st, "switch_page", switch)
    return went


def _link(at, key: str) -> list[str]:
    """A key's values in the page's address (AppTest keeps one as text, several as a list)."""
    v = at.query_params.get(key, [])
    return [v] if isinstance(v, str) else list(v)


def _student(code: str, seat: str, path: str = "recipe-card") -> AppTest:
    at = AppTest.from_file(PAGE, default_timeout=60)
    at.query_params["class"], at.query_params["seat"] = code, seat
    at.session_state["lesson_test_path"] = path
    return at.run()


def _teacher() -> tuple[AppTest, str, str]:
    at = open_page("class")
    start_pick(at).set_value("recipe-card")
    next(b for b in at.button if b.label == "Start the lesson").click().run()
    assert not at.exception
    code = at.query_params["code"]
    code = code[0] if isinstance(code, list) else code
    key = next(c.value for c in at.code if "key=" in c.value).split("key=")[1]
    return at, code, key


def test_the_teacher_leads_and_the_student_predicts_then_sees(switches):
    teacher, code, _ = _teacher()
    # a lesson's room is called one, and carries no challenge's scoring under its steps
    assert teacher.title[0].value == "Class lesson"
    assert not any("scores every network" in e.label for e in teacher.expander)
    ls = store().lesson_state(code)
    assert ls.title == lead.ready()["recipe-card"].title and ls.step == 0
    assert "Step 1 of 5" in _text(teacher) and teacher.button(key="lesson_back").disabled
    seat = store().join(code, "Ada *b*")
    ada = _student(code, seat)
    assert not ada.exception and "THE PAGE /recipe-card" in _text(ada)
    assert "Step 1 of 5: The card" in _text(ada) and "your teacher leads" in _text(ada)

    teacher.button(key="lesson_next").click().run()               # Next: the class moves
    assert store().lesson_state(code).step == 1 and "Step 2 of 5" in _text(teacher)
    assert "0 of 1 students answered" in _text(teacher) and "0 of 1 answered" in _text(teacher)
    ada.run()                                                      # the watch's rerun: the page follows
    step = store().lesson_state(code).steps[1]
    assert switches == [] and ada.session_state["w11"] == 1.5     # the same page: its values, in place
    assert _link(ada, "w11") == ["1.5"] and _link(ada, "class") == [code]
    assert _link(ada, "seat") == [seat]
    assert "Step 2 of 5: One weight moves" in _text(ada)
    assert "THE PAGE" not in _text(ada) and "opens after your teacher presses Reveal" in _text(ada)
    q = step.question
    ada.number_input(key="lesson_number_1").set_value(q.answer)
    next(b for b in ada.button if b.label == "Send my answer").click().run()
    assert store().seat_answers(code, seat) == {1: q.answer}     # kept before the acknowledgement
    assert "Your answer: 3" in _text(ada) and "until your teacher reveals" in _text(ada)
    bo = _student(code, store().join(code, "Bo"))
    bo.number_input(key="lesson_number_1").set_value(9.0)
    next(b for b in bo.button if b.label == "Send my answer").click().run()

    teacher.run()
    assert "2 of 2 students answered" in _text(teacher) and "Ada" not in _text(teacher)   # never who
    teacher.button(key="lesson_reveal").click().run()
    assert not teacher.exception
    fig = next(f for f in figures(teacher) if f["data"][0].get("name") == "answers")
    bars = dict(zip(fig["data"][0]["x"], fig["data"][0]["y"], strict=True))
    assert bars["3.5 ✓"] == 1 and sum(bars.values()) == 2 and "title" not in fig["layout"]
    assert "1 of 2 right" in _text(teacher) and "Ada" not in _text(teacher)   # no names yet
    assert "1 of 2 answered 3.5, the right answer; 1 answered 9." in _text(teacher)
    teacher.toggle(key="lesson_names").set_value(True).run()
    named = [d.value for d in teacher.dataframe if "student" in d.value.columns]
    assert named and sorted(named[0]["student"]) == ["Ada *b*", "Bo"]   # as typed, in a table

    ada.run()
    assert "THE PAGE /recipe-card" in _text(ada)                  # the view opens after Reveal
    assert "✓ Right · Your answer 3.5 · the answer 3.5" in _text(ada)
    assert "The room: 1 of 2 right. 1 of 2 answered 3.5, the right answer; 1 answered 9." in _text(ada)
    bo.run()
    assert "✗ Not this time · Your answer 9 · the answer 3.5" in _text(bo)


def test_a_paced_student_is_brought_back_and_free_mode_lets_them_choose(switches):
    code, key = store().start_lesson(lead.ready()["recipe-card"], paths=lead.paths())
    seat = store().join(code, "Cy")
    at = _student(code, seat, path="activations")                 # a page off the lesson
    assert switches[-1][0] == "recipe-card" and "THE PAGE /recipe-card" in _text(at)
    at.session_state["lesson_test_path"] = "home"                  # the student opens another page
    at.run()
    assert switches[-1][0] == "recipe-card" and "THE PAGE /recipe-card" in _text(at)
    store().goto(code, key, 2)
    store().set_mode(code, key, "free")
    at.run()
    assert "Step 3 of 5" in _text(at) and at.session_state["w11"] == 1.5   # step 3's values, in place
    at.selectbox(key="lesson_step_choice").set_value(0).run()
    at.run()
    assert "Step 1 of 5" in _text(at) and at.session_state["w11"] == 0.5   # step 1's values, in place


def test_a_page_out_of_tries_learns_nothing_of_a_codes_kind_from_the_title():
    """The title says "Class lesson" only once the door has found the code (a counted try): a page that
    spent its wrong-code tries sees the same "Class challenge" title for a lesson's code as for any."""
    import time

    code, _ = store().start_lesson(lead.ready()["recipe-card"], paths=lead.paths())
    student = open_page("class", {"code": code})
    assert student.title[0].value == "Class lesson"                   # found: a lesson class
    guesser = AppTest.from_file(str(Path(__file__).resolve().parents[2] / "app.py"), default_timeout=60)
    guesser.query_params["code"] = code
    guesser.session_state[session.MISSES] = [time.monotonic()] * 20  # this page's tries are spent
    guesser.run().switch_page("pages/class.py").run()
    assert not guesser.exception and guesser.title[0].value == "Class challenge"


def test_the_teacher_downloads_the_answers_and_ends_the_lesson():
    teacher, code, key = _teacher()
    store().goto(code, key, 1)
    seat = store().join(code, "=cmd()")
    store().answer(code, seat, 1, 2.5)
    csv = pd.read_csv(io.StringIO(lead.export_csv(code, key)))
    assert list(csv["nickname"]) == ["'=cmd()"] and list(csv["answer"]) == [2.5] and list(csv["step"]) == [2]
    assert '"answers"' in lead.export_json(code, key)
    teacher.run()
    assert teacher.button(key="lesson_end").disabled
    teacher.checkbox(key="lesson_end_sure").check().run()
    teacher.button(key="lesson_end").click().run()
    assert not teacher.exception and store().lesson_state(code) is None
    assert "Lead a lesson" in _text(teacher)                        # back to the way in


def test_answers_read_as_words():
    card, collapse = lead.ready()["recipe-card"].steps, lead.ready()["collapse"].steps
    assert cl.shown_answer(collapse[1].question, 0) == "Yes"        # a choice: its words
    assert cl.shown_answer(card[1].question, 2.5) == "2.5"


def test_a_trainer_step_is_a_view_and_the_challenge_step_is_the_class_challenge(switches):
    code, key = store().start_lesson(lead.ready()["checkerboard"], paths=lead.paths())
    seat = store().join(code, "Di")
    at = _student(code, seat, path="trainer")
    assert at.session_state[session.LESSON_VIEW] == code           # seats.challenge() leaves this page alone
    store().goto(code, key, 4)                                     # "Challenge: the best test accuracy"
    at.run()
    assert switches == [] and _link(at, "class") == [code] and _link(at, "seat") == [seat]   # in place
    assert _link(at, "hide") == [] and at.session_state["hidden"] == "8"   # the step's link: the defaults
    assert session.LESSON_VIEW not in at.session_state                   # /trainer is the class's challenge


def test_the_watch_follows_a_move_and_a_pause(monkeypatch):
    code, key = store().start_lesson(lead.ready()["recipe-card"], paths=lead.paths())
    ls = store().lesson_state(code)
    asked = []
    monkeypatch.setattr(cl.state, "rerun_page", asked.append)
    cl.watch(code, ls.version, ls.paused)
    assert asked == []                                               # nothing moved: nothing rerun
    store().set_flag(code, key, "paused", True)
    cl.watch(code, ls.version, ls.paused)
    assert len(asked) == 1                                           # the pause reaches the page
    store().goto(code, key, 1)
    cl.watch(code, ls.version, True)
    assert len(asked) == 2                                           # and so does Next


def _watch_page():
    """The student's watch fragment's body, run as a script (AppTest never ticks a run_every fragment)."""
    import streamlit as st

    from classroom import lesson as cl

    cl.watch(*st.session_state["lesson_test_watch"])


def test_the_watch_switches_to_another_page_itself_and_reruns_for_the_same_page(monkeypatch):
    """One run of the new page when the teacher moves to another page: the watch switches from the
    fragment with the step's link. A move within the page asks for one whole-page run instead, in which
    follow() gives the controls the step's values before they are drawn (issue 43, item 2: a switch to the
    same page wrote its bound keys through st.query_params, a StreamlitAPIException on every phone)."""
    built = L.Lesson("Two pages", (L.Step("recipe-card", "x1=2", "Card"),
                                   L.Step("recipe-card", "x1=3", "Card again"),
                                   L.Step("tax-bands", "income=25000", "Tax")))
    code, key = store().start_lesson(built, paths=lead.paths())
    seat = store().join(code, "Ed")
    ls = store().lesson_state(code)
    went, reruns = [], []

    def switch(page, query_params=None):
        went.append((Path(str(page)).stem, dict(query_params or {})))
        st.stop()   # as st.switch_page ends the run

    hurried = []   # each run a move asks for goes to the front of the process's line (engine/turns.py)
    monkeypatch.setattr(st, "switch_page", switch)
    monkeypatch.setattr(cl.state, "rerun_page", reruns.append)
    monkeypatch.setattr(cl.turns, "hurry", lambda: hurried.append(len(went) + len(reruns)))
    at = AppTest.from_function(_watch_page, default_timeout=30)
    at.session_state["lesson_test_watch"] = (code, ls.version, ls.paused, seat, "recipe-card")
    at.session_state[cl.SEEN] = (code, 0)
    at.run()
    assert not at.exception and went == [] and reruns == [] and hurried == []   # nothing moved: nothing
    store().goto(code, key, 1)                                     # Next, to the same page
    at.run()
    assert not at.exception and went == [] and len(reruns) == 1    # the page runs again: follow() sets x1
    store().goto(code, key, 2)                                     # Next, to another page
    at.session_state[cl.SEEN] = (code, 1)
    at.run()
    assert not at.exception and len(reruns) == 1 and len(went) == 1
    assert hurried == [0, 1]                                       # each hurried before it was asked for
    assert went[0] == ("tax-bands", {"income": "25000", "class": code})   # the seat: its own entry (issue 44)
    assert at.session_state[cl.SEEN] == (code, 2)


def test_a_step_value_a_page_cannot_take_starts_its_control_afresh_and_a_fault_is_not_hidden(monkeypatch):
    """classroom/lesson.py's _set_views: a ValueError (the value does not fit) clears the control; any
    other exception is a fault in the page's table or in lesson.py and propagates (it was swallowed)."""
    from lib.lessons import Step
    from ui import state

    class Faulty:
        def __init__(self, error):
            self.links = [state.slider("n", 1, 9, 3, 1, "N", "n")]
            self.error = error

        def __iter__(self):
            return iter(self.links)

        def forget(self, key):
            pass

        def value(self, key):
            return st.session_state.get(key)

        def set(self, key, value):
            raise self.error

    step = Step("recipe-card", "n=4", "A step")
    monkeypatch.setattr(cl, "_links", lambda path: Faulty(ValueError("does not fit")))
    st.session_state["n"] = 5
    cl._set_views("recipe-card", step)
    assert "n" not in st.session_state
    monkeypatch.setattr(cl, "_links", lambda path: Faulty(KeyError("a bug")))
    with pytest.raises(KeyError):
        cl._set_views("recipe-card", step)


def test_a_control_already_at_the_steps_value_is_left_alone_a_multiselect_too(monkeypatch):
    """_set_views sets only what differs: each set costs the browser two history entries. A multiselect's
    state is a list and the step's value a tuple, so /activations' "Bends to draw" was set again on every
    step (and every run that draws one) though it already held the step's bends."""
    from lib.lessons import Step
    from ui import state

    class Seen:
        def __init__(self, now):
            self.links = [state.multi("show", ["relu", "gelu", "silu"], ["relu"], "Bends", "b"),
                          state.slider("n", 1, 9, 3, 1, "N", "n")]
            self.now, self.sets = now, []

        def __iter__(self):
            return iter(self.links)

        def forget(self, key):
            pass

        def value(self, key):
            return self.now[key]

        def set(self, key, value):
            self.sets.append((key, value))

    step = Step("activations", "show=gelu&show=silu&n=4", "A step")
    for now, sets in (({"show": ["gelu", "silu"], "n": 4}, []),                       # as the widgets hold it
                      ({"show": ("gelu", "silu"), "n": 4}, []),
                      ({"show": ["relu"], "n": 4}, [("show", ("gelu", "silu"))]),      # another: set
                      ({"show": ["gelu", "silu"], "n": 3}, [("n", 4)])):
        seen = Seen(now)
        monkeypatch.setattr(cl, "_links", lambda path, seen=seen: seen)
        cl._set_views("activations", step)
        assert seen.sets == sets, now


def test_a_step_on_the_same_page_sets_its_bound_controls_through_the_session(switches):
    """The tax lesson's Next from "Tax at 25,000" to "Tax at 50,000": `income` is bound to its widget, so
    its new value goes through st.session_state (the widget writes the address bar), never through
    st.query_params; the keys no widget holds (hide, class, seat) are the step's link's."""
    lesson = lead.ready()["tax-bands"]
    code, key = store().start_lesson(lesson, paths=lead.paths())
    seat = store().join(code, "Flo")
    store().goto(code, key, 1)
    at = _student(code, seat, path="tax-bands")
    assert not at.exception and switches == []
    store().goto(code, key, 2)
    at.run()
    assert not at.exception and switches == [] and at.session_state["income"] == 50_000
    assert _link(at, "hide") == ["preset"] and _link(at, "seat") == [seat]
    store().set_mode(code, key, "free")                            # free: a student picks step 2 again
    at.run().selectbox(key="lesson_step_choice").set_value(1).run()
    assert not at.exception and switches == [] and at.session_state["income"] == 25_000


def test_a_joined_student_opening_the_join_link_again_lands_on_the_step(switches):
    """Issue 43, item 2: /class?code= of a lesson class this page has joined is the step, not the join form
    (Back on a phone after joining led there)."""
    code, _ = store().start_lesson(lead.ready()["recipe-card"], paths=lead.paths())
    seat = store().join(code, "Gus")
    at = AppTest.from_file(PAGE, default_timeout=60)
    at.query_params["code"] = code
    at.session_state["lesson_test_path"] = "class"
    at.session_state[session.JOINED] = {code: seat}
    at.run()
    assert not at.exception and switches[-1] == ("recipe-card", {**cl.step_query(
        store().lesson_state(code).steps[0]), "class": code})   # the seat: into the step's own entry
    stranger = AppTest.from_file(PAGE, default_timeout=60)          # a page that has not joined: the form
    stranger.query_params["code"] = code
    stranger.session_state["lesson_test_path"] = "class"
    stranger.run()
    assert len(switches) == 1 and "THE PAGE /class" in _text(stranger)


def test_lead_a_lesson_lists_the_course_in_teaching_order_with_minutes_and_what_each_builds_on():
    """The lesson-start box: the picker names each ready lesson by its place and minutes, and The course
    lists every lesson file of course/ (title, minutes, questions, pages, the earlier lessons it builds
    on)."""
    at = open_page("class")
    assert not at.exception
    course = lead.ready()
    assert len(course) >= 12
    options = start_pick(at).options
    assert options[:2] == [f"1. {course['recipe-card'].title} (12 min)",
                           f"2. {course['doubling'].title} (12 min)"]
    box = next(e for e in at.expander if e.label.startswith("The course: "))
    assert box.label == f"The course: {len(course)} ready lessons in teaching order"
    lines = next(m.value for m in box.markdown if m.value.startswith("1. ")).splitlines()
    assert [line.split(". ", 1)[0] for line in lines] == [str(i + 1) for i in range(len(course))]
    assert lines[0].endswith("(12 min, 4 questions): /recipe-card. Starts the course.")
    assert lines[3] == (f"4. **{text.plain(course['collapse'].title)}** (15 min, 6 questions): "
                        "/activations, /stacking. Builds on 1, 2.")


def test_a_students_answers_are_read_again_only_when_the_lesson_moved_or_the_page_wrote(switches,
                                                                                      monkeypatch):
    """classroom.lesson._mine: a page's runs share one read of the seat's answers per lesson version (a
    Reveal's 30 runs made 30 reads); a teacher's move, the page's own answer and its I'm lost read again."""
    code, key = store().start_lesson(lead.ready()["recipe-card"])
    seat = store().join(code, "Ada")
    step = next(i for i, s in enumerate(lead.ready()["recipe-card"].steps) if s.question)
    store().goto(code, key, step)
    reads = []
    real = type(store()).seat_answers
    monkeypatch.setattr(type(store()), "seat_answers", lambda self, *a: reads.append(a) or real(self, *a))
    at = _student(code, seat)
    n = len(reads)
    assert n >= 1 and not at.exception
    for _ in range(3):
        at.run()
    assert len(reads) == n, "a run with nothing changed read the seat's answers again"
    at.number_input(key=f"lesson_number_{step}").set_value(3.5)
    next(b for b in at.button if b.label == "Send my answer").click().run()
    assert "Your answer: 3\\.5" in _text(at)
    at.run()
    assert "Your answer: 3\\.5" in _text(at), "the page's own answer is in its copy"
    at.toggle(key=f"lesson_lost_{step}").set_value(True).run()
    at.run()
    assert at.toggle(key=f"lesson_lost_{step}").value, "the hand as the store keeps it, read again"
    n = len(reads)
    store().reveal(code, key, step)   # a new version: read again, once
    at.run()
    at.run()
    assert len(reads) == n + 1 and "Your answer 3.5" in _text(at)


def _quiet_blocks(node, parent=None, out=None) -> list:
    """(block, its parent) for every block that holds nothing: a fragment that draws nothing (the watch)."""
    out = [] if out is None else out
    for child in getattr(node, "children", {}).values():
        if getattr(child, "type", None) == "flex_container" and not getattr(child, "children", {}):
            out.append((child, node))
        _quiet_blocks(child, node, out)
    return out


def test_the_watch_sits_in_a_container_of_its_own_never_beside_the_question(switches):
    """A lesson student's watch (a fragment that draws nothing) is alone in a container of its own
    (ui.state.watcher). Beside the question, a whole-page run that now and then left the watch's empty block
    out let the browser move the question's box into its place, and the watch's next tick wrote over it: the
    question with no answer form under it (CI twice; 2 of 40 follows in Chromium, 0 of 120 in a container)."""
    teacher, code, _ = _teacher()
    seat = store().join(code, "Ada")
    teacher.button(key="lesson_next").click().run()               # a step with a question
    ada = _student(code, seat)
    assert not ada.exception and ada.number_input(key="lesson_number_1") is not None
    quiet = _quiet_blocks(ada._tree.children[0])
    assert quiet, "the watch's block is not on the page"
    for _block, parent in quiet:
        assert parent is not ada._tree.children[0] and len(parent.children) == 1, \
            "a fragment that draws nothing sits beside the page's own elements"


def test_a_run_with_the_last_steps_value_between_a_same_page_next_and_reveal_does_not_undo_the_step(
        switches):
    """The tax lesson's Next from "Three ramps" (income 0, its view drawn) to "Tax at one income" (25,000,
    behind its question). A run the browser asked for before it dropped the hidden control (the watch ticks
    every half second) sends that control's old value, which outranks the step's value in the session: the
    view then opened at Reveal on 0 and wrote income=0.0 into the address (once in a suite run, a phone of
    tests/e2e/test_lesson_phones.py). The run that first draws a step's view gives it the step's values."""
    from streamlit.proto.WidgetStates_pb2 import WidgetStates

    lesson = lead.ready()["tax-bands"]
    code, key = store().start_lesson(lesson, paths=lead.paths())
    seat = store().join(code, "Gus")
    at = _student(code, seat, path="tax-bands")
    assert not at.exception and at.number_input(key="income").value == 0
    kept = at.number_input(key="income")._widget_state   # what the browser holds until it drops the control
    store().goto(code, key, 1)
    at.run()
    assert not at.exception and not [n for n in at.number_input if n.key == "income"]   # behind the question
    stale = WidgetStates()
    stale.widgets.append(kept)
    at._run(stale)                                         # the tick that still carried income 0
    store().reveal(code, key, 1)
    at.run()
    assert not at.exception and at.number_input(key="income").value == 25_000
    assert _link(at, "income") == ["25000.0"] or _link(at, "income") == ["25000"], at.query_params

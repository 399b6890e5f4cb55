"""Nothing one student does breaks the lesson (issue 44), under AppTest: a lesson file with a 400-digit
number or a byte-order mark, a saved lesson's code guessed at, Save pressed past the page's budget, a join
flood the teacher clears, a step's link without its seat, the store away while a question is open, a page
drawn while another process holds SQLite's write lock, a 10,000-character join code, and −0."""

from __future__ import annotations

import sqlite3
import time

import pytest
import streamlit as st
from streamlit.testing.v1 import AppTest

from classroom import build as B
from classroom import connection, door, lead
from classroom import lesson as cl
from lib import lessons as L
from store import Store, StoreDown
from tests.app.conftest import open_page
from tests.app.test_lesson import (
    PAGE,
    _text,
    switches,  # noqa: F401 (a fixture, used by name)
)
from tests.app.test_lesson_build import (
    _add,
    _builder,
    _errors,
    _question,
    _steps,
    db,  # noqa: F401 (a fixture, used by name)
)
from ui import fmt


@pytest.fixture
def own(tmp_path, monkeypatch) -> Store:
    s = Store(f"sqlite:///{tmp_path / 'classes.sqlite3'}")
    monkeypatch.setattr(connection, "store", lambda: s)
    return s


# --- item 4 and 11: lesson files --------------------------------------------------------------------------
@pytest.mark.parametrize("data, why", [
    (_question("1" + "0" * 399), "finite number"),                 # OverflowError in lib.lessons._number
    (_question("-" + "9" * 4000), "finite number"),
], ids=["400 digits", "4000 digits"])
def test_a_file_with_a_number_no_float_holds_is_one_line_and_the_steps_stay(data, why):
    at = _add(_builder(), "/recipe-card?x1=7", "Mine")
    at.file_uploader(key=B.FILE).set_value(("lesson.json", data, "application/json")).run()
    assert not at.exception
    (line,) = _errors(at)
    assert line.startswith("Not imported") and why in line.replace("\\", ""), line
    assert [(s.query, s.title) for s in _steps(at)] == [("x1=7", "Mine")]


def test_whatever_a_file_makes_the_reader_meet_is_one_line_and_the_steps_stay(monkeypatch):
    def broken(*_):
        raise RecursionError("deep inside")

    monkeypatch.setattr(B.reader, "read_file", broken)
    at = _add(_builder(), "/recipe-card?x1=7", "Mine")
    at.file_uploader(key=B.FILE).set_value(("lesson.json", b"{}", "application/json")).run()
    assert not at.exception
    (line,) = _errors(at)
    assert "could not be read as a lesson" in line and len(_steps(at)) == 1


def test_a_lesson_file_saved_with_a_byte_order_mark_imports():
    ready = lead.ready()["recipe-card"]
    at = _builder()
    data = "\ufeff".encode() + L.dumps(ready).encode()          # as Windows Notepad may save it
    at.file_uploader(key=B.FILE).set_value(("lesson.json", data, "application/json")).run()
    assert not at.exception and _errors(at) == [] and _steps(at) == list(ready.steps)


# --- item 8 and 3: a saved lesson's code, and Save's budget -----------------------------------------------
def test_open_a_saved_lesson_by_code_has_the_doors_guessing_limits(db):  # noqa: F811
    code = db.save_lesson(lead.ready()["recipe-card"])
    at = _builder()
    for i in range(door.WRONG_CODES):                               # a guesser: one wrong code after another
        at.text_input(key=B.CODE).input(f"ZZZZ{i}Z")
        at.button(key="build_open").click().run()
        assert "No lesson is saved under the code" in _errors(at)[0].replace("\\", "")
    at.text_input(key=B.CODE).input(code)                           # even the right one waits now
    at.button(key="build_open").click().run()
    assert f"{door.WRONG_CODES} wrong codes from this page in a minute" in _errors(at)[0]
    assert _steps(at) == []
    other = _builder()                                              # a teacher's own page: opens at once
    other.text_input(key=B.CODE).input(code)
    other.button(key="build_open").click().run()
    assert _errors(other) == [] and _steps(other) == list(lead.ready()["recipe-card"].steps)


def test_save_has_a_budget_per_page(own):
    at = _add(_builder(), "/recipe-card?x1=7", "Mine")
    for i in range(door.PER_PAGE["save"]):
        at.text_input(key=B.TITLE).input(f"Lesson {i}")
        at.button(key="build_save").click().run()
        assert _errors(at) == [], i
    at.text_input(key=B.TITLE).input("One more")
    at.button(key="build_save").click().run()
    assert f"{door.PER_PAGE['save']} saves from this page in a minute" in _errors(at)[0]


# --- item 2: the teacher clears a flood, and closes joining -----------------------------------------------
def test_the_lessons_teacher_removes_a_student_the_silent_seats_and_closes_joining(own):
    code, key = own.start_lesson(lead.ready()["recipe-card"], paths=lead.paths())
    ada = own.join(code, "Ada")
    own.goto(code, key, 1)
    own.answer(code, ada, 1, 3.5)
    for i in range(6):
        own.join(code, f"flood {i}")
    at = open_page("class", {"code": code, "key": key})
    assert not at.exception
    at.selectbox(key="lesson_remove_who").select("flood 0").run()
    at.button(key="lesson_remove").click().run()
    assert "flood 0" not in {s.nickname for s in own.seats(code, key)}
    at.button(key="lesson_remove_silent").click().run()
    assert not at.exception and "5 seats removed" in _text(at)
    assert [s.nickname for s in own.seats(code, key)] == ["Ada"]
    at.toggle(key="lesson_join_closed").set_value(True).run()
    student = open_page("class", {"code": code})
    boxes = {t.label: t for t in student.text_input}
    boxes["Your nickname"].set_value("Late")
    student.button[0].click().run()
    assert "closed joining" in " ".join(e.value for e in student.error)


# --- item 5: no view before Reveal ------------------------------------------------------------------------
def _open_step(own, switches_seen):  # a lesson on its question step (step 2: "What is y₁ now?")
    code, key = own.start_lesson(lead.ready()["recipe-card"], paths=lead.paths())
    own.goto(code, key, 1)
    return code, key


def test_the_steps_link_without_a_seat_opens_no_view_before_reveal(own, switches):  # noqa: F811
    code, key = _open_step(own, switches)
    at = AppTest.from_file(PAGE, default_timeout=60)
    at.query_params["class"] = code                                  # the step's link, its seat cut off
    at.query_params["w11"] = "1.5"
    at.run()
    assert not at.exception and "THE PAGE" not in _text(at) and "Join the class" in _text(at)
    own.reveal(code, key, 1)
    at.run()
    assert "THE PAGE /recipe-card" in _text(at)


def test_the_store_away_keeps_the_question_up(own, switches, monkeypatch):  # noqa: F811
    code, _ = _open_step(own, switches)
    seat = own.join(code, "Ada")
    at = AppTest.from_file(PAGE, default_timeout=60)
    at.query_params["class"], at.query_params["seat"] = code, seat
    at.session_state["lesson_test_path"] = "recipe-card"
    at.run()
    assert "Predict first" in _text(at) and "THE PAGE" not in _text(at)

    def away(*_, **__):
        raise StoreDown()

    monkeypatch.setattr(own, "lesson_now", away)
    monkeypatch.setattr(own, "seat_answers", away)
    monkeypatch.setattr(own, "ping", lambda: False)
    at.run()
    assert not at.exception and "cannot be reached" in _text(at)
    assert "Predict first" in _text(at) and "THE PAGE" not in _text(at)


# --- item 10: a page draws without waiting for SQLite's write lock ----------------------------------------
def test_a_students_page_draws_while_another_process_holds_the_write_lock(own, switches):  # noqa: F811
    code, _ = _open_step(own, switches)
    seat = own.join(code, "Ada")
    held = sqlite3.connect(own.engine.url.database, timeout=1, isolation_level=None)
    held.execute("BEGIN IMMEDIATE")                                   # another process writing, slowly
    try:
        at = AppTest.from_file(PAGE, default_timeout=10)
        at.query_params["class"], at.query_params["seat"] = code, seat
        at.session_state["lesson_test_path"] = "recipe-card"
        t0 = time.monotonic()
        at.run()
        took = time.monotonic() - t0
    finally:
        held.execute("ROLLBACK")
        held.close()
    assert not at.exception and "Predict first" in _text(at) and took < 5.0, took


# --- item 11: a long join code, and −0 --------------------------------------------------------------------
def test_a_join_code_of_10000_characters_is_shown_shortened(own):
    at = open_page("class", {"code": "Z" * 10_000})
    line = " ".join(e.value for e in at.error)
    assert not at.exception and "No class has the code" in line and len(line) < 200, len(line)


def test_an_answer_of_minus_zero_is_zero():
    q = L.Question("number", "y?", answer=1.0)
    assert cl.shown_answer(q, -0.0) == "0"
    assert not cl.shown_answer(q, -0.00001).startswith(("-0", "\u22120"))   # never "−0", at any size
    assert cl.shown_answer(q, -2.5) == "\u22122.5" and cl.shown_answer(q, 1234.5) == fmt.num(1234.5, 4)
    assert st is not None

"""Homework without a teacher under AppTest (issue 45 item 6): /class?homework=<a ready lesson's name or a
saved lesson's code> opens the lesson alone; a question's step hides its view and its right answer until
the answer is checked, then says right or not with the right answer and shows the view; Back and Next, and
at the end n of m right. With a class's code and a nickname the answers reach the teacher's record and
downloads marked as homework; a bad field is one line beside it and nothing typed is lost."""

from __future__ import annotations

import html
import io
import re
import time

import pandas as pd

from classroom import asking, connection, lead, session
from classroom import homework as hw
from lib import lessons as L
from tests.app.conftest import open_page


def _words(at) -> str:
    parts = [at.markdown, at.caption, at.error, at.warning, at.success, at.info]
    words = [el.value for part in parts for el in part]
    words += [html.unescape(re.sub(r"<[^>]+>", "", el.proto.body)) for el in at.get("html")]
    return " ".join(words)


def _frames(at) -> list[str]:
    return [el.proto.src for el in at.get("iframe")]


def _answer(at, typed: str):
    at.text_input(key=f"{hw.ANSWER}{_step(at)}").input(typed)
    return next(b for b in at.button if b.label == "Check my answer").click().run()


def _step(at) -> int:
    return int(re.search(r"Step (\d+) of", _words(at)).group(1)) - 1


def _next(at):
    return at.button(key="homework_next").click().run()


def test_a_ready_lesson_steps_through_alone_the_answer_and_view_only_after_checking():
    at = open_page("class", {"homework": "recipe-card"})
    assert not at.exception and at.title[0].value == "Homework"
    assert "Step 1 of 5: The card" in _words(at) and at.button(key="homework_back").disabled
    assert _frames(at) == ["/recipe-card?mode=plain&nin=2&nout=2&x1=1&x2=2&w11=0.5&w12=-1&w21=1&w22=0.5&b1=0"
                           "&b2=0.5&hide=mode,nin,nout&big=true&embed=true"]   # no question: the view at once
    _next(at)
    assert "Step 2 of 5" in _words(at) and "Predict first" in _words(at)
    assert _frames(at) == [] and not at.get("link_button")        # the view waits for the answer
    assert "3.5" not in _words(at) and "3.5" not in str(at._tree)  # so does its right answer
    _answer(at, "three")                                          # not a number: one line, kept
    assert [e.value for e in at.error] == ["Write a number, like 2\\.5 or \\-3\\."]
    assert at.text_input(key=f"{hw.ANSWER}1").value == "three" and _frames(at) == []
    _answer(at, "3,5")                                            # a decimal comma is read
    assert "✓ Right · Your answer 3.5 · the answer 3.5" in _words(at) and not at.error
    assert len(_frames(at)) == 1 and "w11=1.5" in _frames(at)[0]
    _next(at)
    _answer(at, "1")
    assert "✗ Not this time · Your answer 1 · the answer 2.5" in _words(at)
    at.button(key="homework_back").click().run()                  # Back: the checked step as it was
    assert "✓ Right" in _words(at) and "Check my answer" not in [b.label for b in at.button]
    _next(at)
    _next(at)
    _next(at)
    assert at.button(key="homework_next").label == "See my score"
    _next(at)
    assert "1 of 4 right" in _words(at) and "2 questions not answered" in _words(at)
    table = at.table[0].value                                     # Markdown cells: every word escaped
    assert list(table["your answer"]) == ["3\\.5", "1", "–", "–"]
    assert list(table["right answer"]) == ["3\\.5", "2\\.5", "–", "–"]   # an open question's stays hidden
    at.button(key="homework_again").click().run()
    assert "Step 1 of 5" in _words(at)
    assert not at.exception


def test_a_class_code_and_a_nickname_hand_the_answers_in_to_the_teachers_record():
    code, key = connection.store().start_lesson(L.Lesson("Class lesson", (L.Step("recipe-card", "x1=1"),)))
    at = open_page("class", {"homework": "recipe-card"})
    _next(at)
    at.text_input(key=hw.NICK).input("=Ada")
    _answer(at, "3.5")                                           # a nickname without the class: one line
    assert [e.value for e in at.error] == ["Your class's code too \\(6 characters from your teacher\\), or "
                                           "clear your nickname\\."]
    assert at.text_input(key=f"{hw.ANSWER}1").value == "3.5" and _frames(at) == []
    at.text_input(key=hw.CODE).input("ZZZZZZ")
    _answer(at, "3.5")                                           # no such class: beside the code
    assert "No class has the code ZZZZZZ" in at.error[0].value and at.text_input(key=hw.NICK).value == "=Ada"
    at.text_input(key=hw.CODE).input(code.lower())
    at.text_input(key=hw.NICK).input("")
    _answer(at, "3.5")
    assert "Your nickname too" in at.error[0].value
    at.text_input(key=hw.NICK).input("=Ada")
    _answer(at, "3.5")
    assert not at.error and f"Handed in to class {code} as =Ada." in _words(at)
    _next(at)
    _answer(at, "0")
    rows = connection.store().export_homework(code, key)
    assert [(r["nickname"], r["step"], r["answer"], r["right"]) for r in rows] == [("=Ada", 2, 3.5, True),
                                                                                 ("=Ada", 3, 0.0, False)]
    csv = pd.read_csv(io.StringIO(lead.export_csv(code, key)))
    assert list(csv["nickname"]) == ["'=Ada", "'=Ada"] and set(csv["homework"]) == {lead.ready()[
        "recipe-card"].title}
    assert '"homework": [' in lead.export_json(code, key)
    teacher = open_page("class", {"code": code, "key": key})
    assert not [d for d in teacher.dataframe if "lesson" in d.value.columns]   # behind its button
    teacher.button(key="lesson_record").click().run()                         # ... over the page
    record = next(d.value for d in teacher.dataframe if "lesson" in d.value.columns)
    assert list(record["lesson"]) == [f"homework: {lead.ready()['recipe-card'].title}"] * 2
    assert list(record["answered"]) == ["1", "1"] and list(record["right"]) == ["100.0 %", "0.0 %"]


def test_a_saved_lesson_opens_by_its_code_and_a_link_naming_nothing_is_one_line():
    lesson = L.Lesson("My own", (L.Step("recipe-card", "x1=2&x2=0&w11=1&b1=0", "Mine",
                                        L.Question("number", "y1?", answer=99.0, ask="y", at=(("j", 1),))),))
    saved = connection.store().save_lesson(lesson)
    at = open_page("class", {"homework": saved.lower()})
    assert not at.exception and "My own" in _words(at)
    assert at.button(key="homework_next").label == "See my score"
    want = asking.computed(lesson.steps[0]).question.answer          # from the step's link, never the 99 kept
    assert want != 99.0
    _answer(at, str(want))
    assert "✓ Right" in _words(at)
    for bad in ("nothing", "ZZZZZZ", "<b>x</b>"):
        at = open_page("class", {"homework": bad})
        assert not at.exception and len(at.error) == 1 and "No ready or saved lesson" in at.error[0].value
        assert "<b>" not in at.error[0].value


def test_answers_a_minute_are_limited_per_page_and_the_answer_stays():
    at = open_page("class", {"homework": "recipe-card"})
    _next(at)
    at.session_state[session.SPENT] = {"homework": [time.monotonic()] * 30}
    _answer(at, "3.5")
    assert "30 homework answers from this page in a minute" in at.error[0].value
    assert at.text_input(key=f"{hw.ANSWER}1").value == "3.5" and _frames(at) == []


def test_the_teacher_gets_a_homework_link_beside_the_course_and_a_saved_lesson():
    at = open_page("class")
    assert any(c.value.endswith("/class?homework=recipe-card") for c in at.code)
    at.selectbox(key="lesson_homework_pick").set_value("collapse").run()
    assert any(c.value.endswith("/class?homework=collapse") for c in at.code)


def test_a_challenge_class_takes_homework_too_and_its_teacher_downloads_it():
    code, key = connection.store().create_class({"problem": "classify", "dataset": "ring"})
    at = open_page("class", {"homework": "recipe-card"})
    _next(at)
    at.text_input(key=hw.CODE).input(code)
    at.text_input(key=hw.NICK).input("+Bo")
    _answer(at, "2")
    assert not at.error and "✗ Not this time" in _words(at)
    csv = pd.read_csv(io.StringIO(hw.export_csv(code, key)))
    assert list(csv["nickname"]) == ["'+Bo"] and list(csv["answer"]) == [2.0]
    assert list(csv["right"]) == [False] and list(csv["homework"]) == [lead.ready()["recipe-card"].title]
    teacher = open_page("class", {"code": code, "key": key})
    assert "Download the homework answers (CSV)" in [b.label for b in teacher.get("download_button")]


def test_a_saved_lessons_words_are_shown_as_typed_never_as_markdown():
    evil = "![](//evil.example/p) <b>x</b>"
    lesson = L.Lesson(evil, (L.Step("activations", "bend=relu", evil,
                                    L.Question("choice", evil, (evil, "**No**"), answer=1)),))
    at = open_page("class", {"homework": connection.store().save_lesson(lesson)})
    shown = [m.value for m in at.markdown] + [r.options for r in at.radio] + [str(r.proto) for r in at.radio]
    assert "![](" not in " ".join(map(str, shown)) and "**No**" not in " ".join(map(str, shown))
    at.radio(key=f"{hw.ANSWER}0").set_value(1)
    next(b for b in at.button if b.label == "Check my answer").click().run()
    assert "✓ Right" in _words(at)
    at.button(key="homework_next").click().run()
    cells = at.table[0].value.to_string()
    assert "![](" not in cells and "\\!\\[\\]" in cells and not at.exception


def test_answers_a_minute_are_limited_per_address_too(monkeypatch):
    from classroom import door
    from store import Client

    monkeypatch.setattr(door, "ADDRESS_ANSWERS", 2)
    monkeypatch.setattr(door, "_answers", {})
    monkeypatch.setattr(connection, "client", lambda: Client.of("203.0.113.9", "one browser"))
    pages = [open_page("class", {"homework": "recipe-card"}) for _ in range(3)]   # three tabs, one address
    for at, typed in zip(pages, ("3.5", "1", "2"), strict=True):
        _next(at)
        _answer(at, typed)
    assert [bool(at.error) for at in pages] == [False, False, True]
    assert "2 homework answers from your network in a minute" in pages[2].error[0].value
    assert pages[2].text_input(key=f"{hw.ANSWER}1").value == "2" and _frames(pages[2]) == []


def test_the_step_is_in_the_address_so_a_reload_keeps_the_place_and_a_bad_one_is_one_line():
    at = open_page("class", {"homework": "recipe-card"})
    assert at.query_params["step"] == "1"
    _next(at)
    _next(at)
    assert _step(at) == 2 and at.query_params["step"] == "3"
    again = open_page("class", {"homework": "recipe-card", "step": "3"})   # the reload: a new session
    assert _step(again) == 2 and not again.exception
    for bad in ("0", "9", "two", "-1", "9" * 5000):   # 5,000 digits: Python's int() refuses them
        at = open_page("class", {"homework": "recipe-card", "step": bad})
        assert _step(at) == 0 and at.query_params["step"] == "1" and not at.exception
        said = _words(at).replace("\\", "")   # as Markdown escapes it
        assert f"step={bad[:12]} is not a step of this lesson (1 to 5): from the first." in said


def test_a_lesson_classs_teacher_gets_a_homework_link_with_the_code_filled_in_for_students():
    code, key = connection.store().start_lesson(L.Lesson("Class lesson", (L.Step("recipe-card", "x1=1"),)))
    teacher = open_page("class", {"code": code, "key": key})
    teacher.button(key="lesson_record").click().run()   # the record, over the page, ends with the link
    link = next(c.value for c in teacher.code if "homework=" in c.value)
    assert link.endswith(f"/class?homework=recipe-card&code={code}")
    teacher.session_state["lesson_class_homework"] = "collapse"   # (AppTest closes a dialog on a rerun)
    teacher.button(key="lesson_record").click().run()
    assert any(c.value.endswith(f"/class?homework=collapse&code={code}") for c in teacher.code)
    at = open_page("class", {"homework": "recipe-card", "code": code.lower()})
    assert at.text_input(key=hw.CODE).value == code
    _next(at)
    at.text_input(key=hw.NICK).input("Cy")
    _answer(at, "3.5")
    assert not at.error and f"Handed in to class {code} as Cy." in _words(at)

"""A teacher's own lesson gets computed answers (issue 45, item 2), under AppTest: in "Build a lesson of your
own", a step's question can ask about a quantity its page declares; the right answer is computed from the
step's own link and shown to the teacher before the lesson starts; a typed answer or a poll stays possible;
changing the step's link computes it again; a lesson file asking about a quantity gets its answers computed
(never taken from the file), and one naming a quantity the page does not declare is refused in one line
with the steps kept; and a student's page holds no right answer before Reveal."""

from __future__ import annotations

import json
import re

import pytest

from classroom import asking, connection, lead
from classroom import build as B
from lib import answers
from lib import lessons as L
from tests.app.test_lesson import _student, switches  # noqa: F401 (switches: a fixture, used by name)
from tests.app.test_lesson_build import _add, _builder, _errors, _picker, _shown, _steps, db  # noqa: F401 (a fixture)

CARD = "/recipe-card?mode=plain&nin=2&nout=2&x1=1&x2=2&w11=0.5&w12=-1&w21=1&w22=0.5&b1=0&b2=0.5"


def _values(path: str, query: str):
    links, _ = asking.declared(path)
    return asking.read_values(links, L.parse_query(query))


def _ask(at, name: str, **params):
    at.radio(key=B.KIND).set_value("ask").run()
    at.selectbox(key=asking.ASK).set_value(name).run()
    for k, v in params.items():
        box = next(w for kind in ("number_input", "selectbox") for w in getattr(at, kind)
                   if w.key == asking.AT + k)
        box.set_value(v).run()
    assert not at.exception
    return at


def _error(at) -> str:
    """The one error line on the page, as a reader sees it (Markdown's escapes taken off)."""
    (line,) = _errors(at)
    return re.sub(r"\\(.)", r"\1", line)


def _keep(at):
    at.button(key="build_keep").click().run()
    assert not at.exception
    return at


def test_a_question_about_the_page_is_answered_from_the_steps_own_link_before_the_lesson_starts():
    at = _ask(_add(_builder(), CARD, "Card"), "y", j=2)
    want = answers.recipe_output(_values("recipe-card", CARD.split("?")[1]), 2)
    assert want == pytest.approx(0.5)                           # 1·(−1) + 2·0.5 + 0.5
    assert "Right answer, computed from this step's link: **0.5\u00a0±\u00a00.05**" in _shown(at)
    assert at.text_area(key=B.TEXT).value.startswith("What is output y2")   # the quantity's own words
    (step,) = _steps(_keep(at))
    q = step.question
    assert (q.kind, q.ask, q.at, q.answer, q.tolerance) == ("number", "y", (("j", 2),), 0.5, 0.05)
    assert "right: 0.5\u00a0±\u00a00.05" in _shown(at)      # the steps' list tells the teacher too


def test_a_yes_or_no_quantity_and_the_teachers_own_words():
    at = _add(_builder(), "/activations?bend=identity", "Flat")
    at = _ask(at, "collapses")
    at.text_area(key=B.TEXT).input("Without a bend, is it still one straight line?").run()
    (step,) = _steps(_keep(at))
    assert step.question.choices == ("Yes", "No") and step.question.answer == 0
    assert step.question.text == "Without a bend, is it still one straight line?"


def test_a_typed_answer_and_a_poll_stay_possible():
    at = _keep(_ask(_add(_builder(), CARD), "params"))
    assert _steps(at)[0].question.answer == 6
    at.radio(key=B.KIND).set_value("number").run()
    at.text_area(key=B.TEXT).input("Guess y₁").run()
    at.number_input(key=B.ANSWER).set_value(7.0).run()
    q = _steps(_keep(at))[0].question
    assert (q.answer, q.ask, q.at) == (7.0, "", ())
    at.number_input(key=B.ANSWER).set_value(None).run()
    assert _steps(_keep(at))[0].question.poll


def test_changing_the_steps_link_computes_the_answer_again():
    at = _keep(_ask(_add(_builder(), CARD), "y", j=1))
    assert _steps(at)[0].question.answer == pytest.approx(2.5)
    at.text_input(key=asking.RELINK).input(CARD.replace("x1=1", "x1=3")).run()
    at.button(key="build_relink").click().run()
    assert not at.exception
    (step,) = _steps(at)
    assert "x1=3" in step.query and step.question.answer == pytest.approx(3.5)
    assert "right: 3.5\u00a0±\u00a00.05" in _shown(at)
    at.text_input(key=asking.RELINK).input("/tax-bands?income=1000").run()   # a page without this quantity
    at.button(key="build_relink").click().run()
    line = _error(at)
    assert line.startswith("Not changed:") and "declares no quantity 'y'" in line
    assert _steps(at) == [step]


def _file(question: dict, query: str = "nin=2&nout=2&x1=1&x2=2") -> bytes:
    return json.dumps({"format": L.FORMAT, "title": "Asked", "steps": [
        {"path": "recipe-card", "query": query, "question": {"kind": "number", "text": "y?", **question}}]}
    ).encode()


def test_an_imported_lesson_gets_its_answers_computed_and_an_unknown_quantity_is_refused():
    at = _builder()
    at.file_uploader(key=B.FILE).set_value(("a.json", _file({"ask": "y", "at": {"j": 1}, "answer": 999}),
                                            "application/json")).run()
    assert not at.exception and _errors(at) == []
    (step,) = _steps(at)
    want = answers.recipe_output(_values("recipe-card", step.query), 1)
    assert step.question.answer == pytest.approx(want) != 999
    at.file_uploader(key=B.FILE).set_value(("b.json", _file({"ask": "nope"}), "application/json")).run()
    line = _error(at)
    assert line.startswith("Not imported: Step 1: /recipe-card declares no quantity 'nope'"), line
    assert _steps(at) == [step]


@pytest.mark.usefixtures("switches")
def test_a_students_page_holds_no_computed_answer_before_reveal():
    at = _keep(_ask(_add(_builder(), CARD.replace("b2=0.5", "b2=0.437")), "y", j=2))
    built = L.Lesson("Asked", tuple(_steps(at)))
    assert built.steps[0].question.answer == pytest.approx(0.437)
    code, _ = connection.store().start_lesson(built, paths=lead.paths())
    ada = _student(code, connection.store().join(code, "Ada"))
    assert not ada.exception
    words = " ".join(el.value for part in (ada.markdown, ada.caption, ada.info, ada.metric) for el in part
                     if isinstance(el.value, str))
    assert "What is output y2" in words and "0.437" not in words


@pytest.mark.usefixtures("db")
def test_saved_and_opened_again_it_still_asks_about_the_page_on_both_stores():
    at = _keep(_ask(_add(_builder(), CARD), "y", j=2))
    at.button(key="build_save").click().run()
    code = next(c.value for c in at.code if len(c.value) == 6)
    other = _builder()
    other.text_input(key=B.CODE).input(code)
    other.button(key="build_open").click().run()
    assert _errors(other) == [] and _steps(other) == _steps(at)
    q = _steps(other)[0].question
    assert (q.ask, q.at, q.answer) == ("y", (("j", 2),), 0.5)
    _picker(other).set_value(0).run()                      # its editor shows the quantity asked
    assert other.radio(key=B.KIND).value == "ask" and other.selectbox(key=asking.ASK).value == "y"
    assert "computed from this step's link: **0.5\u00a0±\u00a00.05**" in _shown(other)

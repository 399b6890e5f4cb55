"""The ready lessons are lesson files (issue 45, item 3): every file of course/ loads through the loader an
imported lesson goes through, its questions name quantities their pages declare (lib/asks.py) and get
their answers computed from each step's link, its words' slots are filled from the link; a file that does
not load, or names a quantity its page does not declare, fails naming it; and the files ask what the
Python ready lessons (lib.lessons.READY) ask, with the same right answers."""

from __future__ import annotations

import shutil

import pytest

from classroom import asking
from lib import lesson_build as reader
from lib import lessons as L

ORDER = {   # the course in teaching order: each lesson's pages, and what each question asks about
    "recipe-card": ["recipe-card", "recipe-card:y", "recipe-card:y", "recipe-card:y", "recipe-card:params"],
    "collapse": ["activations", "activations:collapses", "activations:slope", "activations:collapses",
                 "activations:collapses"],
    "tax-bands": ["tax-bands", "tax-bands:tax", "tax-bands:tax", "tax-bands:tax", "tax-bands:marginal",
                  "tax-bands:effective"],
    "checkerboard": ["trainer:line", "trainer", "trainer:accuracy", "trainer:accuracy", "trainer"],
}


def test_every_ready_lesson_file_loads_strictly_in_teaching_order_and_asks_about_declared_quantities():
    course = asking.course()
    assert {name: [s.path + (f":{s.question.ask}" if s.question else "") for s in lesson.steps]
            for name, lesson in course.items()} == ORDER
    assert list(course) == list(ORDER)
    for lesson in course.values():
        for step in lesson.steps:
            q = step.question
            assert "{" not in step.note + (q.text if q else ""), step    # every slot filled from the link
            if q is not None:
                assert q.ask in asking.asks_of(step.path) and q.answer is not None


def test_a_file_that_does_not_load_fails_naming_it(tmp_path):
    for f in asking.COURSE.glob("*.json"):
        shutil.copy(f, tmp_path / f.name)
    assert reader.read_folder(tmp_path).keys() == asking.course().keys()
    (tmp_path / "05-broken.json").write_text('{"format": "layerlab-lesson/1", "title": "T", "steps": []}')
    with pytest.raises(ValueError, match=r"^05-broken\.json: a lesson has 1 to 30 steps, not 0$"):
        reader.read_folder(tmp_path)
    (tmp_path / "05-broken.json").unlink()
    (tmp_path / "05-recipe-card.json").write_text((asking.COURSE / "01-recipe-card.json").read_text())
    with pytest.raises(ValueError, match=r"^05-recipe-card\.json: a second lesson named recipe-card$"):
        reader.read_folder(tmp_path)


def test_a_question_about_a_quantity_its_page_does_not_declare_fails_naming_the_step():
    lesson = reader.read_folder(asking.COURSE)["tax-bands"]
    q = lesson.steps[1].question
    bad = L.Lesson(lesson.title, (lesson.steps[0], L.Step("tax-bands", lesson.steps[1].query,
                                                          question=L.Question("number", q.text, ask="y"))))
    with pytest.raises(ValueError, match=r"^step 2: /tax-bands declares no quantity 'y' to ask about$"):
        asking.computed_lesson(bad)


def _number(q: L.Question) -> float:
    """A right answer as a number: a number question's, or a choice's words ("40 %")."""
    return float(q.answer) if q.kind == "number" else float(q.choices[int(q.answer)].rstrip(" %"))


# (lesson, step of the Python ready lesson, step of its file) asking the same number
SAME = [("recipe-card", 1, 1), ("recipe-card", 2, 2), ("recipe-card", 3, 3),
        ("tax-bands", 1, 1), ("tax-bands", 2, 2), ("tax-bands", 3, 3), ("tax-bands", 4, 4)]


@pytest.mark.parametrize(("name", "py", "filed"), SAME)
def test_the_files_right_answers_are_the_python_ready_lessons(name, py, filed):
    """A file's step shows the view its Python ready lesson's step showed and asks the same number: the two
    right answers agree (the move lost nothing)."""
    p, f = L.READY[name]().steps[py], asking.course()[name].steps[filed]
    assert p.path == f.path and L.parse_query(p.query) == L.parse_query(f.query)
    assert _number(f.question) == pytest.approx(_number(p.question)), (p.question.text, f.question.text)

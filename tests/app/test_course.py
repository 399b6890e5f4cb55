"""The course (issue 45, items 3 and 4): the ready lessons are lesson files, course/ in teaching order. Every
file loads through the loader an imported lesson goes through, its questions name quantities their pages
declare (lib/asks.py) and get their answers computed from each step's link, its words' slots are filled
from the link; a file that does not load, or names a quantity its page does not declare, fails naming it.
The course: at least 12 lessons of 10 to 20 minutes, each with at least 3 questions to predict, every lesson
page visited, each lesson building only on earlier ones, every step's link one its page takes."""

from __future__ import annotations

import re
import shutil

import pytest

from classroom import asking
from lib import lesson_build as reader
from lib import lessons as L

ORDER = {   # the course in teaching order: each lesson's pages, and what each question asks about
    "recipe-card": ["recipe-card", "recipe-card:y", "recipe-card:y", "recipe-card:y", "recipe-card:params"],
    "doubling": ["recipe-card", *["recipe-card:y"] * 5],
    "batch": ["recipe-card:params", "recipe-card:y", "stacking:batch_out", "stacking:batch_out",
              "recipe-card:params"],
    "collapse": ["activations", "activations:collapses", "activations:slope", "activations:collapses",
                 "activations:collapses", "stacking:folds", "stacking:folds"],
    "tax-bands": ["tax-bands", "tax-bands:tax", "tax-bands:tax", "tax-bands:tax", "tax-bands:marginal",
                  "tax-bands:effective"],
    "ramps": ["tax-bands", *["tax-bands:ramps"] * 4],
    "depth": ["stacking:compound"] * 4,
    "one-step": ["stacking:prediction", "stacking:loss", "stacking:loss", "stacking:prediction",
                 "stacking:loss"],
    "checkerboard": ["trainer:line", "trainer", "trainer:accuracy", "trainer:accuracy", "trainer"],
    "learning-rate": ["trainer:diverges", "trainer:accuracy", "trainer:diverges", "trainer:accuracy"],
    "seed": ["trainer:accuracy"] * 4,
    "few-points": ["trainer:train_accuracy", "trainer:accuracy", "trainer:train_accuracy",
                   "trainer:accuracy"],
    "gpt2-params": ["gpt2-params:total", "gpt2-params:per_block", "gpt2-params:mlp_share",
                    "gpt2-params:memory", "gpt2-params:mlp_share"],
    "gpt2-mlp": ["gpt2-mlp:widen", "gpt2-mlp:on", "gpt2-mlp:output", "gpt2-mlp:near"],
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


def test_the_course_is_twelve_or_more_lessons_of_10_to_20_minutes_over_every_lesson_page():
    course = asking.course()
    assert len(course) >= 12
    seen: set[str] = set()
    for name, lesson in course.items():
        asked = [s.question for s in lesson.steps if s.question is not None]
        assert 10 <= lesson.minutes <= 20 and len(asked) >= 3, name            # predict, then see: 3 or more
        assert set(lesson.builds_on) <= seen, (name, lesson.builds_on)          # only on lessons before it
        titles = [s.title for s in lesson.steps]
        assert all(titles) and len(set(titles)) == len(titles), name
        assert L.loads(L.dumps(lesson), asking.paths()) == lesson       # a teacher can save and open it
        seen.add(name)
    assert {s.path for lesson in course.values() for s in lesson.steps} == asking.paths()
    challenges = [(name, i) for name, lesson in course.items()
                  for i, s in enumerate(lesson.steps) if s.challenge]
    assert challenges == [("checkerboard", 4)]


def test_each_steps_link_values_are_ones_its_page_accepts():
    """Every key is one of the page's link keys and every value parses as that key's control takes it (the
    step opens the intended view, not the page's defaults with a note); `hide` names keys."""
    for name, lesson in asking.course().items():
        for s in lesson.steps:
            links = asking.declared("trainer" if s.challenge else s.path)[0]
            for key, value in s.values.items():
                assert key in links.links, (name, s.path, key)
                for v in value if isinstance(value, list) else [value]:
                    if key == "hide":
                        assert set(v.split(",")) <= set(links.links), (name, s.path, v)
                    else:
                        links[key].from_text(v)      # raises ValueError for a value the page would drop


def test_each_computed_answer_is_marked_right_and_a_far_one_wrong():
    for name, lesson in asking.course().items():
        for s in lesson.steps:
            q = s.question
            if q is None:
                continue
            assert not q.poll and L.is_right(q, q.answer) is True, (name, s.title)
            wrong = (q.answer + 1) % len(q.choices) if q.kind == "choice" else q.answer + 10 * q.tolerance + 1
            assert L.is_right(q, wrong) is False, (name, s.title, wrong)


def test_every_question_gives_the_numbers_it_needs_and_writes_one_minus_sign():
    """"What is y₁ now?" needs w₂₁ while the view is hidden (lib.lessons.needed_numbers); a minus is −."""
    checked = 0
    for name, lesson in asking.course().items():
        for i, step in enumerate(lesson.steps):
            q = step.question
            words = " ".join([step.title, step.note, *((q.text, *q.choices) if q else ())])
            assert not re.search(r"(?<![\w.])-\d", words), words
            if L.needed_numbers(step):
                checked += 1
                assert L.missing_numbers(step) == [], (name, i + 1, q.text)
                assert L.answer_disagrees(step) is None, (name, i + 1)
    assert checked >= 8


def _logistic_regression_accuracy(Xtr, ytr, Xte, yte) -> float:
    """Logistic regression as scikit-learn fits it by default (L2 penalty, C = 1, an unpenalised
    intercept), solved by SciPy's L-BFGS on the exact loss and gradient: nothing of lib/ in it."""
    import numpy as np
    from scipy.optimize import minimize
    from scipy.special import expit, log_expit

    A = np.column_stack([Xtr, np.ones(len(Xtr))])
    s = 2.0 * ytr - 1.0                                                 # labels as -1, +1

    def loss(w):
        m = s * (A @ w)
        return -log_expit(m).sum() + 0.5 * w[:-1] @ w[:-1], A.T @ (-s * expit(-m)) + np.append(w[:-1], 0.0)

    w = minimize(loss, np.zeros(A.shape[1]), jac=True, method="L-BFGS-B", options={"gtol": 1e-10}).x
    return float(np.mean(((np.column_stack([Xte, np.ones(len(Xte))]) @ w) > 0) == yte))


def test_the_checkerboard_lessons_answers_agree_with_a_reference_that_knows_no_lib():
    """The checkerboard lesson, against SciPy's logistic regression on the same points (the lesson's seed and
    split): a line cannot split them ("No"), and eight units with no bend, one line after all, reach what
    the reference reaches within the question's tolerance; eight ReLU units do far better."""
    from lib import answers
    from lib.datasets import make_problem, split

    steps = asking.course()["checkerboard"].steps
    spec = answers.trainer_view(asking.read_values(asking.declared("trainer")[0], steps[3].values))
    X, y = make_problem(spec.problem, spec.dataset, spec.n, noise=spec.noise, seed=spec.seed,
                        cells=spec.cells)
    reference = 100 * _logistic_regression_accuracy(*split(X, y, train_share=spec.train, seed=spec.seed))
    assert steps[0].question.choices[steps[0].question.answer] == "No" and reference < 75
    no_bend, relu = steps[3].question, steps[2].question
    assert L.is_right(no_bend, reference), (no_bend.answer, reference)
    assert relu.answer >= reference + 25

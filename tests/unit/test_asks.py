"""lib/asks.py, the record a page declares what it can be asked with, and lib/answers.py's answers on links
worked by hand (the pages' own agreement is tests/app/test_asks.py)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from lib import answers, asks, lessons
from lib.asks import Ask, LinkValues, Param


def _number(**kw) -> Ask:
    return Ask("y", "What is y{j}?", "number", lambda v, j=1: v["k"] * j, **kw,
               params=(Param("j", "output", 1, 1, 4),))


def test_an_ask_makes_a_question_with_its_computed_answer_and_tolerance():
    a = _number(tolerance=0.05, rel=0.1, unit="£")
    q = a.question(LinkValues({"k": 2.5}), {"j": 3})
    assert q == lessons.Question("number", "What is y3?", answer=7.5, tolerance=0.75, unit="£", ask="y",
                                 at=(("j", 3),))
    assert a.question(LinkValues({"k": 0.1})).tolerance == 0.05        # the absolute floor
    assert a.question(LinkValues({"k": 2.0}), text="Predict it.").text == "Predict it."


def test_a_choice_ask_answers_with_a_choice_index():
    a = Ask("same", "Same?", "choice", lambda v: v["flag"], choices=asks.YES_NO)
    assert a.question(LinkValues({"flag": 1})) == lessons.Question("choice", "Same?", asks.YES_NO, answer=1,
                                                                   ask="same")


@pytest.mark.parametrize(("params", "says"), [
    ({"j": 5}, "output runs from 1 to 4"), ({"j": 1.5}, "output must be a whole number"),
    ({"j": "2"}, "output must be a number"), ({"j": True}, "output must be a number"),
    ({"k": 1}, "y takes no 'k'"), ({"j": math.nan}, "output must be a number"),
])
def test_a_bad_parameter_is_refused_in_one_line(params, says):
    with pytest.raises(ValueError, match=says):
        _number().answer(LinkValues({"k": 1.0}), params)


def test_a_choice_parameter_and_a_bad_declaration():
    p = Param("dtype", "stored as", "bf16", choices=("fp32", "bf16"))
    assert p.check("fp32") == "fp32"
    with pytest.raises(ValueError, match="stored as is one of fp32, bf16"):
        p.check("fp64")
    with pytest.raises(ValueError, match="number or choice"):
        Ask("a", "A?", "text", lambda v: 0)
    with pytest.raises(ValueError, match="a choice ask has choices"):
        Ask("a", "A?", "choice", lambda v: 0)
    with pytest.raises(ValueError, match="declared twice"):
        asks.declare(_number(), _number())


def test_an_answer_that_is_not_a_finite_number_is_refused():
    a = Ask("y", "Y?", "number", lambda v: math.inf)
    with pytest.raises(ValueError, match="not a finite number"):
        a.answer(LinkValues({"k": 0}))


def test_link_values_know_what_the_link_gave():
    v = LinkValues({"a": 1, "b": 2}, given=["a"])
    assert dict(v) == {"a": 1, "b": 2} and v.given == {"a"}


# --- answers on links worked by hand --------------------------------------------------------------------
def test_the_recipe_card_by_hand():
    v = {"nin": 2, "nout": 2, "x1": 1.0, "x2": 2.0, "w11": 0.5, "w12": -1.0, "w21": 1.0, "w22": 0.5,
         "b1": 0.0, "b2": 0.5}
    assert answers.recipe_output(v, 1) == pytest.approx(2.5)            # 1·0.5 + 2·1 + 0
    assert answers.recipe_output(v, 2) == pytest.approx(0.5)            # 1·(−1) + 2·0.5 + 0.5
    assert answers.recipe_params(v) == 6
    with pytest.raises(ValueError, match="outputs y1 to y2, not y3"):
        answers.recipe_output(v, 3)


def test_tax_by_hand_and_its_rates_in_percent():
    v = {"preset": "simple", "bands": None, "income": 50_000.0}         # 0 % to 10,000, 20 % to 40,000, 40 %
    assert answers.tax_at(v) == pytest.approx(0.2 * 30_000 + 0.4 * 10_000)
    assert answers.marginal_at(v) == pytest.approx(40.0)
    assert answers.effective_at(v) == pytest.approx(100 * 10_000 / 50_000)
    banded = {**v, "bands": (np.array([0.0, 20_000.0]), np.array([0.0, 0.5]))}
    assert answers.tax_at(banded) == pytest.approx(15_000.0)


def test_a_bend_at_x_and_a_stack_that_collapses_only_without_its_bend_or_with_every_unit_on():
    v = {"bend": "relu", "x": -1.5, "w1": np.array([[1.0, -1.0, 0.5]]), "b1": np.array([-0.5, -0.5, 1.0]),
         "w2": np.array([[1.0], [1.0], [-1.0]]), "b2": np.array([0.5])}
    assert (answers.bend_value(v), answers.bend_slope(v)) == (0.0, 0.0)
    assert answers.bend_slope({**v, "x": 2.0}) == 1.0
    assert answers.stack_collapses(v) == answers.NO
    assert answers.stack_collapses({**v, "bend": "identity"}) == answers.YES
    on = {**v, "w1": np.array([[1.0, 1.0, 1.0]]), "b1": np.array([5.0, 5.0, 5.0])}   # sums 2 to 8: all on
    assert answers.stack_collapses(on) == answers.YES and answers.stack_gap(on) < 1e-12


def test_a_trainer_question_is_about_two_classes_and_the_built_in_data():
    v = {"problem": "classes", "dataset": "checkerboard"}
    with pytest.raises(ValueError, match="two classes"):
        answers.trainer_view(v)
    with pytest.raises(ValueError, match="not points or weights"):
        answers.trainer_view({"problem": "classify", "pts": "0.1,0.2,1"})


def test_depth_compounds_and_a_batch_keeps_one_w_by_hand():
    assert answers.compound_size({"scale": 1.5, "depth": 10}) == pytest.approx(1.5 ** 10)
    assert answers.compound_size({"scale": 0.9, "depth": 0}) == 1.0
    assert answers.batch_outputs({"tokens": 5, "nout": 2}) == 10


def test_gpt2s_hidden_layer_is_four_times_wide_and_gelu_pushes_a_share_near_zero():
    assert answers.mlp_widen({}) == 4.0
    v = {"seed": 0, "init": "fan_in", "act": "gelu"}   # GPT-2's own 0.02 keeps z tiny: GELU halves it all
    few, many = answers.mlp_near_zero({**v, "near": 0.01}), answers.mlp_near_zero({**v, "near": 0.45})
    assert 0.0 < few < many < 100.0     # a looser "near zero" counts more of the hidden values


def test_a_trainer_reaches_every_training_point_with_few_points_and_a_wide_layer():
    from lib import settings

    spec = settings.spec_of({"dataset": "xor", "n": "30", "hidden": "16", "lr": "0.03", "twin": "false"})
    v = {k: getattr(spec, k) * s.per for k, s in settings.BY_KEY.items() if s.spec}   # as the page reads it
    train = answers.trainer_train_accuracy(v, 300)
    assert 0.0 <= answers.trainer_accuracy(v, 300) <= 100.0 and train == pytest.approx(100.0)


# --- a question about a declared quantity, in the lesson file ---------------------------------------------
def _step(**q) -> lessons.Step:
    return lessons.Step("recipe-card", "nin=2", "A card", lessons.Question("number", "What is y2?", **q))


def test_a_question_about_a_quantity_travels_in_the_lesson_file():
    built = lessons.Lesson("Asked", (_step(answer=0.5, tolerance=0.05, ask="y", at=(("j", 2),)),))
    text = lessons.dumps(built)
    assert '"ask": "y"' in text and '"at": {' in text
    assert lessons.loads(text) == built
    plain = lessons.Lesson("Typed", (_step(answer=0.5),))
    assert "ask" not in lessons.dumps(plain) and lessons.loads(lessons.dumps(plain)) == plain


@pytest.mark.parametrize(("question", "says"), [
    ({"ask": "Bad name"}, "not a quantity's name"),
    ({"ask": 3}, "not a quantity's name"),
    ({"at": {"j": 2}}, "parameters belong to a question about a quantity"),
    ({"ask": "y", "at": [2]}, "at must be an object of parameters"),
    ({"ask": "y", "at": {"j": True}}, "parameter j must be a number"),
    ({"ask": "y", "at": {"a": 1, "b": 2, "c": 3, "d": 4, "e": 5}}, "at most 4 parameters"),
    ({"ask": "y", "at": {"J!": 1}}, "not a parameter's name"),
    ({"ask": "y", "at": {"dtype": "x" * 40}}, "parameter dtype has 40 characters"),
])
def test_a_bad_ask_in_a_lesson_file_is_refused_in_one_line(question, says):
    d = {"format": lessons.FORMAT, "title": "T", "steps": [
        {"path": "recipe-card", "question": {"kind": "number", "text": "Q?", **question}}]}
    with pytest.raises(ValueError, match=says) as err:
        lessons.from_dict(d)
    assert str(err.value).startswith("step 1: its question: ") and "\n" not in str(err.value)

"""lib.challenge: hidden test points, their public and private halves, and the server's score."""

from __future__ import annotations

import numpy as np
import pytest

from lib.challenge import N_HIDDEN, evaluate, hidden_points, public_half, score_of
from lib.datasets import make_problem, split
from lib.train import TrainConfig, Trainer

CHECKER = {"problem": "classify", "dataset": "checkerboard", "k": 3, "n": 400, "noise": 0.0, "cells": 2,
           "seed": 0, "feat": ["x1", "x2"]}


def test_scores_by_hand():
    assert score_of("sigmoid", np.array([0.9, 0.2, 0.6, 0.4]), np.array([1, 0, 0, 0])) == 0.75
    P = np.array([[0.7, 0.2, 0.1], [0.1, 0.1, 0.8], [0.3, 0.4, 0.3]])
    assert score_of("softmax", P, np.array([0, 2, 0])) == pytest.approx(2 / 3)
    y = np.array([1.0, 2.0, 3.0, 4.0])
    assert score_of("linear", y, y) == 1.0
    assert score_of("linear", np.full(4, 2.5), y) == 0.0            # the mean: R² 0
    assert score_of("linear", np.array([2.0, 2.0, 3.0, 3.0]), y) == pytest.approx(1 - 2 / 5)


def test_the_hidden_points_follow_the_pattern_but_are_not_the_training_points():
    X, y = hidden_points(CHECKER, 12345)
    assert X.shape == (N_HIDDEN, 2) and set(np.unique(y)) == {0, 1}
    Xtrain, _ = make_problem("classify", "checkerboard", 400, seed=0, cells=2)
    assert not np.isin(X[:, 0], Xtrain[:, 0]).any()
    again, _ = hidden_points(CHECKER, 12345)
    np.testing.assert_array_equal(X, again)                          # every replica scores alike
    other, _ = hidden_points(CHECKER, 54321)
    assert not np.array_equal(X, other)


def test_public_and_private_halves_split_the_points_evenly_and_stably():
    m = public_half(400, 7)
    assert m.sum() == 200 and np.array_equal(m, public_half(400, 7))
    assert not np.array_equal(m, public_half(400, 8))


def _trained(epochs: int, hidden=(8,)) -> Trainer:
    X, y = make_problem("classify", "checkerboard", 400, seed=0, cells=2)
    Xtr, ytr, Xte, yte = split(X, y, 0.8, seed=0)
    t = Trainer(TrainConfig(hidden=hidden, lr=0.03, seed=0), Xtr, ytr, Xte, yte)
    t.step(epochs)
    return t


def test_a_trained_network_scores_well_and_an_untrained_one_near_chance():
    good = evaluate(_trained(300).to_dict(), CHECKER, 99)
    start = evaluate(_trained(0).to_dict(), CHECKER, 99)
    assert good[0] > 0.9 and good[1] > 0.9 and good[2] == 33
    assert start[0] < 0.75
    # The score is the network's own prediction on the hidden points, computed independently here.
    t = _trained(300)
    X, y = hidden_points(CHECKER, 99)
    pub = public_half(len(y), 99)
    assert good[0] == pytest.approx(np.mean((t.predict(X[pub]) > 0.5) == y[pub]))


def test_a_network_that_does_not_fit_the_challenge_is_refused_in_one_line():
    d = _trained(5).to_dict()
    with pytest.raises(ValueError, match="page is set to"):
        evaluate(d, {**CHECKER, "problem": "classes", "dataset": "spiral"}, 1)
    with pytest.raises(ValueError, match="input features"):
        evaluate(d, {**CHECKER, "feat": ["x1", "x2", "x1x2"]}, 1)
    bad = _trained(5).to_dict()
    bad["layers"][0]["W"][0][0] = float("nan")
    with pytest.raises(ValueError, match="not finite"):
        evaluate(bad, CHECKER, 1)
    with pytest.raises(ValueError, match="Layer Lab network"):
        evaluate({"format": "something else"}, CHECKER, 1)


def test_the_gallerys_map_is_libs_map_for_the_stored_weights():
    from lib.challenge import decision_map
    from lib.maps import limit_for, probability_map

    t = _trained(100)
    shade, limit = decision_map(t.to_dict(), CHECKER, res=32)
    X, _ = make_problem("classify", "checkerboard", 400, seed=0, cells=2)
    assert limit == limit_for(X)
    np.testing.assert_allclose(shade, probability_map(t.params, ["x1", "x2"], limit, "relu", 32), atol=1e-6)
    curve = {**CHECKER, "problem": "regress", "dataset": "sin(2x)", "feat": ["x1"]}
    assert decision_map(t.to_dict(), curve) is None          # a curve has no plane to draw


@pytest.mark.parametrize("epochs", [0, 300])
def test_a_snapshots_rings_are_the_public_points_the_network_gets_wrong(epochs):
    from lib.challenge import public_mistakes

    t = _trained(epochs)
    X, y, wrong = public_mistakes(t.to_dict(), CHECKER, 99)
    Xh, yh = hidden_points(CHECKER, 99)
    pub = public_half(len(yh), 99)
    assert np.array_equal(X, Xh[pub]) and np.array_equal(y, yh[pub]) and len(y) == N_HIDDEN // 2
    assert np.array_equal(wrong, (t.predict(X) > 0.5) != y)             # the trainer's own answers
    assert 1 - wrong.mean() == pytest.approx(evaluate(t.to_dict(), CHECKER, 99)[0])   # the public score


# --- what the class keeps is bounded, and what it reads back is checked (issue 32) ---------------------
HUGE = 2**63


def test_scores_kept_are_in_range_whatever_the_network():
    from lib.challenge import R2_FLOOR

    y = np.array([1.0, 2.0, 3.0, 4.0])
    assert score_of("linear", np.full(4, 1e30), y) == R2_FLOOR        # R² of about -1e60: kept at the floor
    for diverged in (np.array([np.inf] * 4), np.array([1.0, np.nan, 3.0, 4.0]), np.array([-np.inf, 2, 3, 4])):
        assert score_of("linear", diverged, y) == R2_FLOOR            # below every finite network, never 0
    assert score_of("linear", np.array([1.0, 2.0]), np.array([3.0, 3.0])) == 0.0   # a flat target: R² is 0
    assert 0.0 <= score_of("sigmoid", np.array([0.9]), np.array([1])) <= 1.0


def test_settings_are_kept_bounded_and_plain():
    from lib.challenge import settings
    from lib.train import MAX_EPOCH

    cfg = TrainConfig(hidden=(np.int64(8),), lr=np.float64(0.03))
    kept = settings(cfg, HUGE)
    assert kept["epoch"] == MAX_EPOCH and kept["hidden"] == [8] and type(kept["hidden"][0]) is int
    assert type(kept["lr"]) is float and settings(cfg, -5)["epoch"] == 0


@pytest.mark.parametrize(("public", "private", "n_params", "spec"), [
    (0.9, 0.8, 33, {"epoch": HUGE}),
    (float("nan"), 0.8, 33, {}),
    (0.9, float("inf"), 33, {}),
    ("0.9", 0.8, 33, {}),
    (None, 0.8, 33, {}),
    (0.9, 0.8, HUGE, {}),
    (0.9, 0.8, True, {}),
    (0.9, 0.8, 33, None),
    (0.9, 0.8, 33, ["hidden"]),
    (0.9, 0.8, 33, {"act": "wobble"}),
    (0.9, 0.8, 33, {"hidden": [HUGE]}),
    (0.9, 0.8, 33, {"hidden": "8"}),
    (0.9, 0.8, 33, {"lr": float("inf")}),
    (0.9, 0.8, 33, {"opt": ["adam"]}),
], ids=lambda v: str(v)[:20])
def test_a_stored_row_that_submit_would_not_keep_is_unreadable(public, private, n_params, spec):
    from lib.challenge import read_submission

    with pytest.raises(ValueError):
        read_submission(public, private, n_params, spec, "sigmoid")


def test_a_readable_row_comes_back_plain_and_in_range_with_only_its_settings():
    from lib.challenge import R2_FLOOR, read_submission

    assert read_submission(0.9, None, 33, {"hidden": [8], "epoch": 7, "colour": "red"}, "sigmoid") == \
        (0.9, None, 33, {"hidden": [8], "epoch": 7})
    assert read_submission(-5.0, 2.0, 0, {}, "linear") == (R2_FLOOR, 1.0, 0, {})    # old R² below the floor

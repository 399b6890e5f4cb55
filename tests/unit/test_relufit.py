"""lib.relufit: exact recovery of a known sum of ramps, least-squares optimality, the error
falling as units are added, learned knots never worse than even ones, the slope as derivative."""

from __future__ import annotations

import numpy as np
import pytest

from lib.relufit import (
    HI,
    LO,
    TARGETS,
    error_table,
    even_knots,
    fit_relus,
    fit_table,
    fit_target,
    learn_knots,
    relu_features,
    relu_sum,
    relu_sum_slope,
)

RNG = np.random.default_rng(11)


def test_features_worked_example():
    # x = 1: [1, ReLU(1 - (-1)), ReLU(1 - 0), ReLU(1 - 2)] = [1, 2, 1, 0]
    np.testing.assert_array_equal(relu_features([1.0], [-1.0, 0.0, 2.0]), [[1.0, 2.0, 1.0, 0.0]])
    assert relu_features(np.zeros(7), [0.5, 1.0]).shape == (7, 3)


def test_even_knots():
    np.testing.assert_allclose(even_knots(4), [-3.0, -1.5, 0.0, 1.5])
    with pytest.raises(ValueError):
        even_knots(0)


def test_a_sum_of_ramps_is_recovered_exactly():
    x = np.linspace(LO, HI, 301)
    knots = even_knots(6)
    w = RNG.normal(size=6)
    y = relu_sum(x, knots, w, 0.7)
    fit = fit_relus(x, y, knots)
    np.testing.assert_allclose(fit.weights, w, atol=1e-10)
    assert fit.bias == pytest.approx(0.7, abs=1e-10)
    assert fit.rmse < 1e-12
    np.testing.assert_allclose(fit.bias + fit.ramps.sum(axis=1), fit.y_hat, atol=1e-12)


def test_least_squares_residual_is_orthogonal_to_every_ramp():
    # The normal equations, checked directly: no small change of any weight can lower the error.
    x = np.linspace(LO, HI, 401)
    fit = fit_relus(x, np.sin(2 * x), even_knots(7))
    F = relu_features(x, fit.knots)
    np.testing.assert_allclose(F.T @ (fit.y_hat - fit.y), 0.0, atol=1e-9)


def test_abs_is_exact_once_a_knot_lands_on_zero():
    assert fit_target("abs", 2).rmse < 1e-12     # knots -3, 0
    assert fit_target("abs", 3).rmse > 0.1       # knots -3, -1, 1 miss the kink


@pytest.mark.parametrize("name", list(TARGETS))
def test_error_never_rises_when_knots_are_added_to_the_same_set(name):
    # Doubling even knots keeps the old ones, so the old fit is still available: the error
    # cannot rise. For curves without a kink on the grid it must strictly fall.
    table = error_table(name, [1, 2, 4, 8, 16, 32])
    rmse = table["rmse"].to_numpy()
    assert np.all(np.diff(rmse) <= 1e-12), rmse
    if name in ("sin", "square", "bump"):
        assert rmse[-1] < rmse[1] / 30
    if name == "step":
        assert rmse[-1] < rmse[0] / 2


@pytest.mark.parametrize("name", list(TARGETS))
def test_error_falls_overall_as_units_grow(name):
    table = error_table(name, range(1, 21))
    assert table["rmse"].iloc[-1] < table["rmse"].iloc[0]
    assert table["units"].tolist() == list(range(1, 21))
    assert (table["max_error"] >= table["rmse"] - 1e-12).all()


def test_square_error_quarters_per_doubling():
    # A smooth curve with curvature c has piecewise-linear error ~ c h^2: halving h quarters it.
    r = error_table("square", [8, 16, 32])["rmse"].to_numpy()
    assert r[0] / r[1] == pytest.approx(4.0, rel=0.1)
    assert r[1] / r[2] == pytest.approx(4.0, rel=0.1)


@pytest.mark.parametrize("name", list(TARGETS))
@pytest.mark.parametrize("units", [1, 3, 6])
def test_learned_knots_are_never_worse(name, units):
    assert fit_target(name, units, "learned").rmse <= fit_target(name, units, "even").rmse + 1e-12


def test_learned_knots_help_where_the_curve_is_flat_in_places():
    even, learned = fit_target("bump", 4, "even"), fit_target("bump", 4, "learned")
    assert learned.rmse < 0.5 * even.rmse
    assert learned.knots[0] == LO                       # the straight-line ramp stays put
    assert np.all((learned.knots >= LO) & (learned.knots <= HI))


def test_learn_knots_on_one_unit_is_the_line_fit():
    x = np.linspace(LO, HI, 101)
    a = learn_knots(x, 2 * x + 1, 1)
    assert a.rmse < 1e-12 and a.weights[0] == pytest.approx(2.0)


def test_unknown_mode_is_refused():
    with pytest.raises(ValueError):
        fit_target("sin", 3, "random")


def test_slope_is_the_central_difference():
    knots, w = even_knots(5), RNG.normal(size=5)
    x = np.linspace(LO + 0.05, HI - 0.05, 97)
    x = x[np.min(np.abs(x[:, None] - knots), axis=1) > 1e-3]
    h = 1e-6
    numeric = (relu_sum(x + h, knots, w, 0.3) - relu_sum(x - h, knots, w, 0.3)) / (2 * h)
    np.testing.assert_allclose(relu_sum_slope(x, knots, w), numeric, atol=1e-6)


@pytest.mark.parametrize("name", list(TARGETS))
def test_targets_are_finite_on_the_range(name):
    x = np.linspace(LO, HI, 601)
    assert np.isfinite(TARGETS[name].fn(x)).all()


@pytest.mark.parametrize("mode", ["even", "learned"])
def test_fit_table_is_the_fits_one_by_one(mode):
    table = fit_table("bump", mode, max_units=5)
    assert len(table) == 5
    for k, fit in enumerate(table, start=1):
        one = fit_target("bump", k, mode)
        assert fit.knots.shape == (k,)
        np.testing.assert_allclose(fit.y_hat, one.y_hat, atol=1e-9)


@pytest.mark.parametrize("name", list(TARGETS))
def test_outline_and_ramp_path_draw_the_fit_exactly(name):
    fit = fit_target(name, 7, "learned")
    xs, ys = fit.outline()
    assert xs[0] == LO and xs[-1] == HI and np.all(np.diff(xs) > 0)
    # straight lines between the outline's points are the fit everywhere on the grid
    np.testing.assert_allclose(np.interp(fit.x, xs, ys), fit.y_hat, atol=1e-9)
    px, py = fit.ramp_path()
    assert px.shape == py.shape == (2 + 3 * 7,)
    for j in range(7):  # each ramp is the segment from its knot (at 0) to the right end
        seg = slice(1 + 3 * j, 4 + 3 * j)
        assert px[seg].tolist() == [fit.knots[j], HI, fit.knots[j]]
        np.testing.assert_allclose(py[seg][1], fit.ramps[-1, j], atol=1e-12)
        assert py[seg][0] == py[seg][2] == 0.0

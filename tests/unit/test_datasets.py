"""Datasets, the train/test split, own-data validation and the Playground's extra features."""

from __future__ import annotations

import numpy as np
import pytest

from lib.datasets import (
    BUMP_WIDTH,
    BUMPS,
    CLASSES_MAX,
    CLASSES_MIN,
    CURVES,
    DATASET_INFO,
    DATASETS,
    DEFAULT_CELLS,
    DOMAIN,
    MAX_POINTS,
    NOISE_SCALE,
    PROBLEMS,
    SPIRAL_TURNS,
    VALUE_LIMIT,
    VALUE_NOISE,
    dims,
    make_dataset,
    make_problem,
    split,
    validate_points,
)
from lib.features import FEATURES, expand

NAMES = sorted(DATASETS)


def test_the_link_keys_are_the_table_keys():
    assert set(DATASETS) == {"checkerboard", "ring", "xor", "spiral", "moons", "gaussians"}
    assert set(DATASET_INFO) == set(DATASETS)
    assert all(isinstance(v, str) and v and "\n" not in v for v in DATASET_INFO.values())


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("n", [2, 7, 400])
def test_shape_dtype_labels_and_domain(name, n):
    X, y = make_dataset(name, n, seed=3)
    assert X.shape == (n, 2) and X.dtype == np.float64
    assert y.shape == (n,) and y.dtype.kind == "i"
    assert set(np.unique(y)) <= {0, 1}
    assert np.all(np.abs(X) <= DOMAIN + 1e-12), "noise-free points lie in the square"
    if n >= 7:
        assert set(np.unique(y)) == {0, 1}


@pytest.mark.parametrize("name", NAMES)
def test_deterministic_by_seed(name):
    X1, y1 = make_dataset(name, 300, noise=0.2, seed=11)
    X2, y2 = make_dataset(name, 300, noise=0.2, seed=11)
    X3, _ = make_dataset(name, 300, noise=0.2, seed=12)
    np.testing.assert_array_equal(X1, X2)
    np.testing.assert_array_equal(y1, y2)
    assert not np.allclose(X1, X3)


@pytest.mark.parametrize("name", NAMES)
def test_classes_are_balanced(name):
    _, y = make_dataset(name, 401, seed=0)
    counts = np.bincount(y, minlength=2)
    if name in ("xor",):  # labels follow the uniformly drawn positions
        assert abs(counts[0] - counts[1]) < 60
    else:
        assert abs(counts[0] - counts[1]) <= 1


@pytest.mark.parametrize("cells", [1, 2, 3, 5])
def test_checkerboard_labels_follow_the_cells(cells):
    X, y = make_dataset("checkerboard", 1000, seed=4, cells=cells)
    # Independent rule: the cell index from the position, parity of column + row.
    width = 2 * DOMAIN / cells
    col = np.minimum(((X[:, 0] + DOMAIN) // width).astype(int), cells - 1)
    row = np.minimum(((X[:, 1] + DOMAIN) // width).astype(int), cells - 1)
    np.testing.assert_array_equal(y, (col + row) % 2)
    per_cell = np.bincount(row * cells + col, minlength=cells * cells)
    assert per_cell.max() - per_cell.min() <= 1, "every cell gets the same number of points"


def test_checkerboard_default_cells():
    X, y = make_dataset("checkerboard", 200, seed=0)
    X2, y2 = make_dataset("checkerboard", 200, seed=0, cells=DEFAULT_CELLS)
    np.testing.assert_array_equal(X, X2)
    np.testing.assert_array_equal(y, y2)


def test_ring_geometry():
    X, y = make_dataset("ring", 600, seed=1)
    r = np.hypot(X[:, 0], X[:, 1])
    assert r[y == 1].max() <= 0.5 * DOMAIN + 1e-12          # the inner disc is class 1
    assert r[y == 0].min() >= 0.7 * DOMAIN - 1e-12          # the ring around it is class 0
    assert r[y == 0].max() <= DOMAIN + 1e-12


def test_xor_and_gaussians_geometry():
    X, y = make_dataset("xor", 500, seed=2)
    np.testing.assert_array_equal(y, (X[:, 0] * X[:, 1] > 0).astype(int))
    assert np.abs(X).min() >= 0.05 * DOMAIN - 1e-12         # the gap around the axes
    X, y = make_dataset("gaussians", 500, seed=2)
    assert X[y == 1].mean(axis=0).min() > 0.3 * DOMAIN and X[y == 0].mean(axis=0).max() < -0.3 * DOMAIN


def test_spiral_and_moons_lie_where_they_should():
    X, y = make_dataset("spiral", 500, seed=5)
    r = np.hypot(X[:, 0], X[:, 1])
    assert r.max() <= DOMAIN + 1e-12
    # Arm k at radius r has angle 1.75 turns * r / D + k pi: rotate arm 1 back by pi and both agree.
    angle = np.arctan2(X[:, 1], X[:, 0]) - np.pi * y
    expected = 1.75 * 2 * np.pi * r / DOMAIN
    np.testing.assert_allclose(np.cos(angle - expected), 1.0, atol=1e-9)
    X, y = make_dataset("moons", 500, seed=5)
    assert np.abs(X[:, 0]).max() <= DOMAIN + 1e-12 and np.abs(X[:, 1]).max() <= 0.5 * DOMAIN + 1e-12


def test_noise_moves_points_not_labels():
    X0, y0 = make_dataset("ring", 4000, noise=0.0, seed=9)
    X1, y1 = make_dataset("ring", 4000, noise=0.4, seed=9)
    np.testing.assert_array_equal(y0, y1)
    jitter = X1 - X0
    np.testing.assert_allclose(jitter.std(), 0.4 * NOISE_SCALE, rtol=0.05)
    assert abs(jitter.mean()) < 0.05


@pytest.mark.parametrize(("kwargs", "word"), [
    ({"name": "circle", "n": 10}, "unknown dataset"),
    ({"name": "ring", "n": 1}, "at least 2"),
    ({"name": "ring", "n": 10, "noise": 1.5}, "noise"),
    ({"name": "ring", "n": 10, "noise": -0.1}, "noise"),
    ({"name": "checkerboard", "n": 10, "cells": 0}, "cell"),
])
def test_make_dataset_rejects_bad_arguments(kwargs, word):
    with pytest.raises(ValueError, match=word):
        make_dataset(**kwargs)


def test_split_is_stratified_disjoint_and_deterministic():
    X, y = make_dataset("moons", 203, seed=0)
    X[:, 0] += np.arange(203) * 1e-9  # make every row unique, to track rows through the split
    Xtr, ytr, Xte, yte = split(X, y, train_share=0.75, seed=4)
    assert len(Xtr) + len(Xte) == 203
    for label in (0, 1):
        total = int(np.sum(y == label))
        assert int(np.sum(ytr == label)) == round(0.75 * total)
    rows = {tuple(r) for r in X}
    tr, te = {tuple(r) for r in Xtr}, {tuple(r) for r in Xte}
    assert tr | te == rows and not tr & te
    # Each row keeps its label.
    lookup = {tuple(r): int(v) for r, v in zip(X, y, strict=True)}
    assert all(lookup[tuple(r)] == v for r, v in zip(Xtr, ytr, strict=True))
    again = split(X, y, train_share=0.75, seed=4)
    for a, b in zip((Xtr, ytr, Xte, yte), again, strict=True):
        np.testing.assert_array_equal(a, b)


def test_split_edge_shares():
    X, y = make_dataset("xor", 50, seed=0)
    Xtr, ytr, Xte, yte = split(X, y, train_share=1.0)
    assert len(Xtr) == 50 and Xte.shape == (0, 2) and yte.shape == (0,)
    Xtr, ytr, _, _ = split(X, y, train_share=0.01)
    assert set(ytr) == {0, 1}, "at least one point of each class stays for training"
    with pytest.raises(ValueError):
        split(X, y, train_share=0.0)


@pytest.mark.parametrize(("X", "y", "word"), [
    ([[0.0, 1.0], [1.0, 0.0]], [0, 1], None),
    ([[0.0, 1.0], [1.0, 0.0]], [0.0, 1.0], None),
    ([[0.0, np.nan], [1.0, 0.0]], [0, 1], "finite"),
    ([[0.0, np.inf], [1.0, 0.0]], [0, 1], "finite"),
    ([[0.0, 1.0, 2.0], [1.0, 0.0, 2.0]], [0, 1], "2 coordinates"),
    ([0.0, 1.0], [0, 1], "2 coordinates"),
    ([[0.0, 1.0], [1.0, 0.0]], [0, 2], "0 or 1"),
    ([[0.0, 1.0], [1.0, 0.0]], [0.5, 1], "0 or 1"),
    ([[0.0, 1.0], [1.0, 0.0]], [1, 1], "same label"),
    ([[0.0, 1.0], [1.0, 0.0]], [1], "one label per point"),
    ([["a", "b"], [1.0, 0.0]], [0, 1], "numbers"),
    (np.zeros((0, 2)), [], "no points"),
])
def test_validate_points(X, y, word):
    reason = validate_points(X, y)
    if word is None:
        assert reason is None
    else:
        assert word in reason and "\n" not in reason


def test_validate_points_limit():
    X, y = make_dataset("ring", 301, seed=0)
    assert validate_points(X, y, max_points=301) is None
    assert "more than the limit of 300" in validate_points(X, y, max_points=300)


def test_features_match_their_formulas_in_the_order_given():
    assert list(FEATURES) == ["x1", "x2", "x1sq", "x2sq", "x1x2", "sin1", "sin2"]
    X = np.array([[2.0, -3.0], [0.5, 0.25]])
    F = expand(X, ["sin2", "x1x2", "x1", "x2sq", "x1sq", "x2", "sin1"])
    expected = np.array([
        [np.sin(-3.0), -6.0, 2.0, 9.0, 4.0, -3.0, np.sin(2.0)],
        [np.sin(0.25), 0.125, 0.5, 0.0625, 0.25, 0.25, np.sin(0.5)],
    ])
    np.testing.assert_allclose(F, expected, atol=1e-15)
    assert [FEATURES[k].label for k in ("x1", "x1sq", "x1x2", "sin2")] == ["x₁", "x₁²", "x₁x₂", "sin x₂"]


def test_expand_rejects_unknown_or_no_features():
    X = np.zeros((3, 2))
    with pytest.raises(ValueError, match="unknown feature"):
        expand(X, ["x1", "cos1"])
    with pytest.raises(ValueError):
        expand(X, [])
    assert expand(X, ["x1"]).shape == (3, 1)


# --- the trainer's three problem types ----------------------------------------------------------

PROBLEM_SETS = [(p, name) for p in ("classes", "regress") for name in PROBLEMS[p].sets]


def test_problems_registry():
    assert list(PROBLEMS) == ["classify", "classes", "regress"]
    assert {p.name: p.head for p in PROBLEMS.values()} == {"classify": "sigmoid", "classes": "softmax",
                                                           "regress": "linear"}
    assert PROBLEMS["classify"].sets is DATASETS and PROBLEMS["classify"].info is DATASET_INFO
    assert list(PROBLEMS["classes"].sets) == ["spiral", "blobs", "checkerboard"]
    assert list(PROBLEMS["regress"].sets) == ["plane", "gaussmix", *CURVES]
    for p in PROBLEMS.values():
        assert set(p.info) == set(p.sets)
        assert all(isinstance(v, str) and v and "\n" not in v for v in p.info.values())
    assert all(c.name == key and c.latex for key, c in CURVES.items())


@pytest.mark.parametrize(("problem", "name"), PROBLEM_SETS)
@pytest.mark.parametrize("n", [2, 11, 400])
def test_problem_shapes_dtypes_and_domain(problem, name, n):
    for k in ((CLASSES_MIN, 4, CLASSES_MAX) if problem == "classes" else (3,)):
        X, y = make_problem(problem, name, n, seed=3, k=k)
        assert X.shape == (n, dims(problem, name)) and X.dtype == np.float64
        assert y.shape == (n,) and np.isfinite(y).all()
        assert np.all(np.abs(X) <= DOMAIN + 1e-12), "noise-free points lie in the square"
        if problem == "classes":
            assert y.dtype.kind == "i" and set(np.unique(y)) <= set(range(k))
            if n >= 11:
                assert set(np.unique(y)) == set(range(k))
            assert np.bincount(y, minlength=k).max() - np.bincount(y, minlength=k).min() <= 1
        else:
            assert y.dtype == np.float64 and np.abs(y).max() <= VALUE_LIMIT


@pytest.mark.parametrize(("problem", "name"), PROBLEM_SETS)
def test_problems_are_deterministic_by_seed(problem, name):
    a = make_problem(problem, name, 200, noise=0.2, seed=5)
    b = make_problem(problem, name, 200, noise=0.2, seed=5)
    c = make_problem(problem, name, 200, noise=0.2, seed=6)
    for u, v in zip(a, b, strict=True):
        np.testing.assert_array_equal(u, v)
    assert not np.allclose(a[0], c[0])


def test_classify_through_make_problem_is_make_dataset():
    for u, v in zip(make_problem("classify", "ring", 100, noise=0.1, seed=2, k=5),
                    make_dataset("ring", 100, noise=0.1, seed=2), strict=True):
        np.testing.assert_array_equal(u, v)


@pytest.mark.parametrize("k", [3, 4, 5])
def test_k_spiral_arms_follow_their_angle(k):
    X, y = make_problem("classes", "spiral", 500, seed=1, k=k)
    r = np.hypot(X[:, 0], X[:, 1])
    # Arm j at radius r has angle SPIRAL_TURNS turns * r / D + j / k of a circle.
    angle = np.arctan2(X[:, 1], X[:, 0]) - 2 * np.pi * y / k
    np.testing.assert_allclose(np.cos(angle - SPIRAL_TURNS * 2 * np.pi * r / DOMAIN), 1.0, atol=1e-9)


@pytest.mark.parametrize("k", [3, 4, 5])
def test_k_colour_checkerboard_is_a_latin_square(k):
    X, y = make_problem("classes", "checkerboard", 1000, seed=4, k=k)
    width = 2 * DOMAIN / k
    col = np.minimum(((X[:, 0] + DOMAIN) // width).astype(int), k - 1)
    row = np.minimum(((X[:, 1] + DOMAIN) // width).astype(int), k - 1)
    np.testing.assert_array_equal(y, (col + row) % k)
    for line in range(k):                                     # every row and column holds every colour
        assert set(y[row == line]) == set(range(k)) == set(y[col == line])


def test_blobs_sit_around_the_centre():
    X, y = make_problem("classes", "blobs", 900, seed=0, k=3)
    for j in range(3):
        a = 2 * np.pi * j / 3 + np.pi / 2
        np.testing.assert_allclose(X[y == j].mean(axis=0), 0.5 * DOMAIN * np.array([np.cos(a), np.sin(a)]),
                                   atol=0.1)


def test_regression_values_follow_their_formulas():
    X, y = make_problem("regress", "plane", 300, seed=0)
    np.testing.assert_allclose(y, (X[:, 0] + X[:, 1]) / (2 * DOMAIN))
    X, y = make_problem("regress", "gaussmix", 300, seed=0)
    expected = sum(s * np.exp(-((X[:, 0] - cx) ** 2 + (X[:, 1] - cy) ** 2) / (2 * BUMP_WIDTH**2))
                   for cx, cy, s in BUMPS)
    np.testing.assert_allclose(y, expected)
    centre = np.array([[BUMPS[0][0], BUMPS[0][1]]])
    assert gaussmix_at(centre) == pytest.approx(1.0, abs=0.01)  # a bump's top is about 1
    x = np.linspace(-DOMAIN, DOMAIN, 7)
    for name, f in (("sin(2x)", np.sin(2 * x)), ("sin(x)", np.sin(x)), ("abs(x)", np.abs(x)),
                    ("x^2/3", x * x / 3), ("sign(x)", np.sign(x))):
        np.testing.assert_allclose(CURVES[name].fn(x), f)
        X, y = make_problem("regress", name, 200, seed=1)
        np.testing.assert_allclose(y, CURVES[name].fn(X[:, 0]))


def gaussmix_at(P):
    return sum(s * np.exp(-((P[:, 0] - cx) ** 2 + (P[:, 1] - cy) ** 2) / (2 * BUMP_WIDTH**2))
               for cx, cy, s in BUMPS)[0]


def test_regression_noise_moves_values_not_points():
    X0, y0 = make_problem("regress", "sin(x)", 2000, noise=0.0, seed=9)
    X1, y1 = make_problem("regress", "sin(x)", 2000, noise=0.4, seed=9)
    np.testing.assert_array_equal(X0, X1)
    np.testing.assert_allclose((y1 - y0).std(), 0.4 * VALUE_NOISE, rtol=0.05)
    X0, y0 = make_problem("classes", "blobs", 2000, noise=0.0, seed=9)
    X1, y1 = make_problem("classes", "blobs", 2000, noise=0.4, seed=9)
    np.testing.assert_array_equal(y0, y1)
    np.testing.assert_allclose((X1 - X0).std(), 0.4 * NOISE_SCALE, rtol=0.05)


@pytest.mark.parametrize(("kwargs", "word"), [
    ({"problem": "cluster", "name": "blobs", "n": 10}, "unknown problem type"),
    ({"problem": "classes", "name": "ring", "n": 10}, "unknown classes dataset"),
    ({"problem": "regress", "name": "sin(3x)", "n": 10}, "unknown regress dataset"),
    ({"problem": "classes", "name": "blobs", "n": 10, "k": 2}, "3 to 5"),
    ({"problem": "classes", "name": "blobs", "n": 10, "k": 6}, "3 to 5"),
    ({"problem": "regress", "name": "plane", "n": 1}, "2 to 2,000"),
    ({"problem": "regress", "name": "plane", "n": 2001}, "2 to 2,000"),
    ({"problem": "classify", "name": "ring", "n": 2001}, "2 to 2,000"),
    ({"problem": "classify", "name": "blobs", "n": 10}, "unknown classify dataset"),
    ({"problem": "regress", "name": "plane", "n": 10, "noise": 2.0}, "noise"),
])
def test_make_problem_rejects_bad_arguments(kwargs, word):
    with pytest.raises(ValueError, match=word):
        make_problem(**kwargs)


def test_split_without_strata_keeps_float_values():
    X, y = make_problem("regress", "gaussmix", 101, seed=0)
    Xtr, ytr, Xte, yte = split(X, y, train_share=0.8, seed=1, stratify=False)
    assert len(Xtr) == round(0.8 * 101) and len(Xte) == 101 - len(Xtr)
    assert ytr.dtype == np.float64
    both = np.concatenate([ytr, yte])
    np.testing.assert_array_equal(np.sort(both), np.sort(y))
    lookup = {tuple(r): v for r, v in zip(X, y, strict=True)}
    assert all(lookup[tuple(r)] == v for r, v in zip(Xtr, ytr, strict=True))
    assert len(split(X[:1], y[:1], train_share=0.5, stratify=False)[0]) == 1  # one point stays for training


@pytest.mark.parametrize(("problem", "X", "y", "k", "word"), [
    ("classes", [[0.0, 1.0], [1.0, 0.0], [2.0, 2.0]], [0, 1, 2], 3, None),
    ("classes", [[0.0, 1.0], [1.0, 0.0]], [0, 3], 3, "from 0 to 2"),
    ("classes", [[0.0, 1.0], [1.0, 0.0]], [0, 3], 4, None),
    ("classes", [[0.0, 1.0], [1.0, 0.0]], [0.5, 1], 3, "whole numbers"),
    ("classes", [[0.0, 1.0], [1.0, 0.0]], [-1, 1], 3, "whole numbers"),
    ("classes", [[0.0, 1.0], [1.0, 0.0]], [2, 2], 3, "at least two classes"),
    ("classes", [[0.0, np.nan], [1.0, 0.0]], [0, 1], 3, "finite"),
    ("regress", [[0.0, 1.0], [1.0, 0.0]], [0.25, -3.5], None, None),
    ("regress", [[0.0], [1.0]], [0.25, -3.5], None, None),    # a curve: x and its value
    ("regress", [[0.0, 1.0], [1.0, 0.0]], [0.25, np.inf], None, "values are missing or not finite"),
    ("regress", [[0.0, 1.0], [1.0, 0.0]], [0.25, 11.0], None, "between -10 and 10"),
    ("regress", [[0.0, 1.0], [1.0, 0.0]], [0.25], None, "one value per point"),
    ("regress", [[0.0, 1.0, 2.0]], [0.25], None, "2 coordinates"),
    ("classify", [[0.0], [1.0]], [0, 1], None, "2 coordinates"),
    ("shapes", [[0.0, 1.0]], [0], None, "unknown problem type"),
])
def test_validate_points_per_problem(problem, X, y, k, word):
    reason = validate_points(X, y, problem=problem, k=k)
    if word is None:
        assert reason is None
    else:
        assert word in reason and "\n" not in reason


def test_validate_points_cap_is_the_datasets_cap():
    X, y = make_problem("regress", "plane", MAX_POINTS, seed=0)
    assert validate_points(X, y, problem="regress") is None
    X = np.vstack([X, X[:1]])
    reason = validate_points(X, np.append(y, 0.0), problem="regress")
    assert f"more than the limit of {MAX_POINTS:,}" in reason


def test_a_curve_takes_only_the_features_of_x1():
    X, _ = make_problem("regress", "sin(x)", 20, seed=0)                     # (20, 1)
    one = [k for k, f in FEATURES.items() if f.inputs == 1]
    assert one == ["x1", "x1sq", "sin1"]
    np.testing.assert_allclose(expand(X, one), np.column_stack([X[:, 0], X[:, 0] ** 2, np.sin(X[:, 0])]))
    with pytest.raises(ValueError, match="only x₁; x₁x₂ needs x₂"):
        expand(X, ["x1", "x1x2"])


def test_validate_points_can_keep_points_on_the_plane():
    X = [[0.0, 1.0], [1.0, -3.5], [2.0, 2.0]]
    assert validate_points(X, [0, 1, 0]) is None
    reason = validate_points(X, [0, 1, 0], limit=DOMAIN)
    assert reason == "the point (1, -3.5) lies outside the plane, which runs from -3 to 3"
    assert validate_points([[0.5], [-3.0]], [0.1, 0.2], problem="regress", limit=DOMAIN) is None

"""The plotting grid and the linear regions of a ReLU network."""

from __future__ import annotations

from math import comb

import numpy as np
import pytest

from lib.mlp import forward, init_params
from lib.regions import grid, region_ids

RNG = np.random.default_rng(2)


def test_grid_order_matches_a_heatmap():
    xs, ys, XY = grid(2.0, res=5)
    np.testing.assert_allclose(xs, [-2, -1, 0, 1, 2])
    np.testing.assert_allclose(ys, xs)
    assert XY.shape == (25, 2)
    # Row i * res + j is (xs[j], ys[i]): reshaping a value per point gives z[y, x].
    for i in range(5):
        for j in range(5):
            np.testing.assert_array_equal(XY[i * 5 + j], [xs[j], ys[i]])
    values = XY[:, 0] + 10 * XY[:, 1]
    np.testing.assert_allclose(values.reshape(5, 5)[3, 1], xs[1] + 10 * ys[3])
    with pytest.raises(ValueError):
        grid(1.0, res=1)


def test_two_units_on_the_axes_make_four_quadrants():
    # Unit 1 is on right of the x2 axis, unit 2 above the x1 axis: four on/off patterns.
    params = [(np.eye(2), np.zeros(2)), (np.ones((2, 1)), np.zeros(1))]
    X = np.array([[1, 1], [2, 3], [-1, 1], [-1, -1], [1, -1], [-5, 4.0]])
    ids, count = region_ids(params, X, "relu")
    assert count == 4
    assert ids[0] == ids[1] and ids[2] == ids[5]
    assert len({ids[0], ids[2], ids[3], ids[4]}) == 4
    assert sorted(set(ids)) == [0, 1, 2, 3]


def test_no_hidden_layer_is_one_region():
    ids, count = region_ids(init_params([2, 1], 0), RNG.normal(size=(10, 2)), "relu")
    assert count == 1 and np.all(ids == 0)


@pytest.mark.parametrize("hidden", [[5], [4, 3]])
def test_same_id_means_same_pattern_and_the_network_is_linear_there(hidden):
    params = init_params([2, *hidden, 1], seed=4)
    for _, b in params[:-1]:
        b[:] = RNG.normal(size=b.shape)  # spread the fold lines over the grid
    _, _, XY = grid(3.0, res=60)
    ids, count = region_ids(params, XY, "relu")
    assert ids.shape == (len(XY),) and ids.min() == 0 and ids.max() == count - 1
    _, cache = forward(params, XY, "relu")
    pattern = np.concatenate([z > 0 for z in cache["z"]], axis=1)
    for r in range(count):
        inside = ids == r
        assert (pattern[inside] == pattern[inside][0]).all()
        assert not (pattern[~inside] == pattern[inside][0]).all(axis=1).any()
        # Independent check of "piecewise linear": a plane fits the logit exactly in each region.
        pts = XY[inside]
        if len(pts) >= 4:
            design = np.column_stack([pts, np.ones(len(pts))])
            coef, *_ = np.linalg.lstsq(design, cache["logit"][inside], rcond=None)
            np.testing.assert_allclose(design @ coef, cache["logit"][inside], atol=1e-9)
    if len(hidden) == 1:
        u = hidden[0]
        assert count <= 1 + u + comb(u, 2)  # u lines cut the plane into at most this many pieces


def test_another_bend_changes_later_layers_only():
    params = init_params([2, 3, 3, 1], seed=1)
    X = RNG.normal(size=(200, 2))
    ids_relu, _ = region_ids(params, X, "relu")
    ids_id, _ = region_ids(params, X, "identity")
    # The first layer's pattern is the same either way; the second layer sees different inputs.
    first = X @ params[0][0] + params[0][1] > 0
    for ids in (ids_relu, ids_id):
        for r in np.unique(ids):
            assert (first[ids == r] == first[ids == r][0]).all()


def test_region_ids_number_patterns_as_the_rows_of_np_unique():
    # The packed-bits labelling must give the same ids as the plain np.unique over on/off rows.
    from lib.mlp import hidden_pre

    for sizes in ([2, 3, 1], [2, 8, 1], [2, 12, 9, 1]):
        params = init_params(sizes, seed=7)
        X = RNG.normal(0, 3, size=(2000, 2))
        on = np.concatenate(hidden_pre(params, X, "relu"), axis=1) > 0
        _, want = np.unique(on, axis=0, return_inverse=True)
        ids, count = region_ids(params, X, "relu")
        np.testing.assert_array_equal(ids, want.reshape(-1))
        assert count == len(np.unique(on, axis=0))

"""lib.maps: the trainer's maps over the plane, against lib.mlp computed point by point."""

from __future__ import annotations

import numpy as np

from lib.activations import ACTIVATIONS
from lib.datasets import DOMAIN
from lib.features import expand
from lib.maps import collapse, fold_lines, limit_for, plane_inputs, probability_map, unit_maps
from lib.mlp import forward, hidden_pre, init_params, predict_proba
from lib.regions import grid


def test_limit_is_the_house_square_grown_to_fit_own_points():
    assert limit_for(np.zeros((0, 2))) == round(1.2 * DOMAIN, 3)
    assert limit_for(np.array([[1.0, -2.0]])) == round(1.2 * DOMAIN, 3)
    assert limit_for(np.array([[10.0, -2.0]])) == 10.5


def test_probability_map_is_the_network_on_the_grid_rows_y():
    params = init_params([4, 5, 1], seed=3)
    names = ["x1", "x2", "x1sq", "sin2"]
    P = probability_map(params, names, 3.0, "tanh", res=7)
    assert P.shape == (7, 7) and P.dtype == np.float32
    xs, ys, XY = grid(3.0, 7)
    want = predict_proba(params, expand(XY, names), "tanh").reshape(7, 7)
    np.testing.assert_allclose(P, want, rtol=1e-6)
    # row i is y = ys[i], column j is x = xs[j]
    one = predict_proba(params, expand(np.array([[xs[2], ys[5]]]), names), "tanh")[0]
    np.testing.assert_allclose(P[5, 2], one, rtol=1e-6)


def test_unit_maps_are_each_units_output_after_the_bend():
    params = init_params([2, 6, 4, 1], seed=1)
    H = unit_maps(params, ["x1", "x2"], 2.0, "gelu", layer=1, units=3, res=9)
    assert H.shape == (3, 9, 9)
    _, _, F = plane_inputs(2.0, ["x1", "x2"], 9)
    Z = hidden_pre(params, F, "gelu")[1]                                       # (81, 4)
    np.testing.assert_allclose(H, ACTIVATIONS["gelu"].fn(Z[:, :3]).T.reshape(3, 9, 9), rtol=1e-6)
    # the same as the hidden activations the forward pass caches
    _, cache = forward(params, F, "gelu")
    np.testing.assert_allclose(H[2].ravel(), cache["h"][2][:, 2], rtol=1e-6)


def test_collapse_is_one_layer_and_the_gap_is_rounding_error():
    params = init_params([2, 8, 8, 1], seed=0)
    W, b, gap = collapse(params, ["x1", "x2"], 3.6)
    (W1, b1), (W2, b2), (W3, b3) = params
    np.testing.assert_allclose(W, W1 @ W2 @ W3)
    np.testing.assert_allclose(b, (b1 @ W2 + b2) @ W3 + b3)
    assert 0 <= gap < 1e-12


def test_fold_lines_lie_where_each_units_sum_is_zero():
    params = init_params([2, 5, 1], seed=4)
    W, b = params[0]
    for j, seg in enumerate(fold_lines(params, 3.6)):
        if seg is None:
            continue
        assert seg.shape == (2, 2)
        np.testing.assert_allclose(seg @ W[:, j] + b[j], 0, atol=1e-9)
        assert np.all(np.abs(seg) <= 3.6 + 1e-9)


def test_confusion_counts_true_against_predicted():
    from lib.maps import confusion

    C = confusion([0, 0, 1, 1, 1, 2], [0, 1, 1, 1, 0, 2], k=3)
    np.testing.assert_array_equal(C, [[1, 1, 0], [1, 2, 0], [0, 0, 1]])
    assert C.sum() == 6 and np.trace(C) == 4


def test_class_map_and_shade_pick_the_class_and_its_confidence():
    from lib.maps import class_map, class_shade

    params = init_params([2, 5, 3], seed=2, head="softmax")
    P = class_map(params, ["x1", "x2"], 3.0, "relu", res=6)
    assert P.shape == (6, 6, 3)
    np.testing.assert_allclose(P.sum(axis=-1), 1.0, rtol=1e-5)
    z = class_shade(np.array([[1 / 3, 1 / 3, 1 / 3], [0.0, 0.0, 1.0], [0.1, 0.8, 0.1], [np.nan, 0, 0]]))
    assert 0 <= z[0] < 1 / 3 and z[0] < 0.02          # unsure: class 0's palest
    assert 2 / 3 < z[1] < 1 and z[1] > 0.98           # sure of class 2: its fullest
    assert 1 / 3 < z[2] < 2 / 3                        # class 1
    assert np.isfinite(z).all()
    d = class_shade(np.array([[0.2, 0.5, 0.3]]), discrete=True)
    np.testing.assert_allclose(d, (1 + 0.99) / 3, rtol=1e-6)


def test_value_map_shade_and_curve_fit_are_the_linear_network():
    from lib.maps import curve_fit, value_map, value_shade, value_span
    from lib.mlp import output_parts

    params = init_params([2, 4, 1], seed=5, head="linear")
    V = value_map(params, ["x1", "x2"], 2.0, "tanh", res=5)
    _, _, XY = grid(2.0, 5)
    np.testing.assert_allclose(V.ravel(), predict_proba(params, XY, "tanh", "linear"), rtol=1e-5)
    assert value_span([0.0, -3.0, 1.0]) == 3.0 and value_span([]) == 1.0
    np.testing.assert_allclose(value_shade([-3.0, 0.0, 1.5, 9.0, np.nan], 3.0), [0, 0.5, 0.75, 1, 0.5])
    p1 = init_params([2, 6, 1], seed=1, head="linear")
    x = np.linspace(-3, 3, 11)
    y, parts, bias = curve_fit(p1, ["x1", "x1sq"], x, "relu")
    F = expand(np.column_stack([x, np.zeros_like(x)]), ["x1", "x1sq"])
    np.testing.assert_allclose(y, predict_proba(p1, F, "relu", "linear"), rtol=1e-9)
    np.testing.assert_allclose(parts.sum(axis=1) + bias, y, rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(parts, output_parts(p1, F, "relu")[0])
    y0, none, b0 = curve_fit(init_params([1, 1], seed=0, head="linear"), ["x1"], x, "relu")
    assert none is None and b0 == 0.0 and y0.shape == (11,)


def test_boundary_cells_mark_where_the_class_changes_and_nowhere_else():
    from lib.maps import boundary_cells, labels_of

    P = np.array([[0.1, 0.2, 0.9],
                  [0.3, 0.6, 0.8],
                  [0.4, 0.45, 0.49]])
    labels = labels_of(P)
    assert labels.tolist() == [[0, 0, 1], [0, 1, 1], [0, 0, 0]]
    edge = boundary_cells(labels)
    # a cell is on the boundary when its right or upper neighbour (next row) has another class
    assert edge.tolist() == [[False, True, False],
                             [True, True, True],
                             [False, False, False]]
    assert not boundary_cells(np.zeros((4, 4), int)).any()          # one class: no boundary
    k3 = np.zeros((2, 2, 3))
    k3[0, 0, 2] = k3[0, 1, 0] = k3[1, 0, 2] = k3[1, 1, 1] = 1.0
    assert labels_of(k3).tolist() == [[2, 0], [2, 1]]
    assert labels_of(np.array([[np.nan, 0.7]])).tolist() == [[0, 1]]   # non-finite: class 0


def test_prediction_map_and_its_shading_follow_the_head():
    """One entry per head, each the same as the map and shade written for it, and the shading in [0, 1]."""
    from lib.maps import class_map, class_shade, prediction_map, shading, value_map, value_shade

    names, limit = ("x1", "x2"), 3.0
    heads = (("sigmoid", 1, probability_map), ("softmax", 3, class_map), ("linear", 1, value_map))
    for head, n_out, made in heads:
        params = init_params([2, 5, n_out], seed=3, head=head)
        raw = prediction_map(head, params, names, limit, "relu", 20)
        np.testing.assert_array_equal(raw, made(params, names, limit, "relu", 20))
        for discrete in (False, True):
            shade = shading(head, raw, discrete, span=2.0)
            assert shade.shape == (20, 20) and np.all((shade >= 0) & (shade <= 1))
    P = np.array([[0.2, 0.5], [0.51, 0.9]], dtype=np.float32)
    np.testing.assert_array_equal(shading("sigmoid", P), P)                       # P itself
    np.testing.assert_array_equal(shading("sigmoid", P, discrete=True), [[0, 0], [1, 1]])   # the class picked
    V = np.array([[-4.0, -1.0], [0.0, 1.0]])
    np.testing.assert_array_equal(shading("linear", V, span=2.0), value_shade(V, 2.0))
    np.testing.assert_allclose(shading("linear", V, span=2.0), [[0.0, 0.25], [0.5, 0.75]])
    K = np.random.default_rng(0).dirichlet(np.ones(3), size=(4, 4))
    np.testing.assert_array_equal(shading("softmax", K, True), class_shade(K, True))

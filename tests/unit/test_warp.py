"""lib.warp: the grid over the plane as a hidden layer sees it, against hidden layers computed by hand."""

from __future__ import annotations

import numpy as np
import pytest

from lib.mlp import init_params
from lib.warp import grid_lines, on_axes, warp

PLAIN = ["x1", "x2"]


def _affine_residual(G: np.ndarray, H: np.ndarray) -> float:
    """Largest distance between H and the best affine image G @ A + c of the grid (least squares)."""
    X = np.column_stack([G.reshape(-1, 2), np.ones(G.size // 2)])              # (m, 3)
    Y = H.reshape(-1, 2)
    coef, *_ = np.linalg.lstsq(X, Y, rcond=None)                                # (3, 2): A over c
    return float(np.abs(X @ coef - Y).max())


def test_grid_lines_cover_the_square_horizontal_then_vertical():
    G = grid_lines(3.0, n_lines=13, n_samples=60)
    assert G.shape == (26, 60, 2)
    assert G.min() == -3.0 and G.max() == 3.0
    horizontal, vertical = G[:13], G[13:]
    assert np.all(horizontal[:, :, 1] == horizontal[:, :1, 1])                 # x2 fixed along a line
    assert np.all(vertical[:, :, 0] == vertical[:, :1, 0])                     # x1 fixed along a line
    np.testing.assert_allclose(horizontal[:, 0, 1], np.linspace(-3, 3, 13))
    np.testing.assert_allclose(vertical[6, :, 1], np.linspace(-3, 3, 60))


@pytest.mark.parametrize("sizes, layer", [([2, 5, 1], 1), ([2, 6, 4, 1], 2), ([2, 3, 3, 3, 3], 3)])
def test_without_a_bend_the_grid_is_an_affine_image_of_itself(sizes, layer):
    params = init_params(sizes, seed=7, head="softmax" if sizes[-1] > 1 else "sigmoid")
    G = grid_lines(3.6)
    H = warp(params, "identity", PLAIN, G, layer, (1, 3))
    assert _affine_residual(G, H) < 1e-9
    # The same fit is far off with ReLU: the check can tell a folded grid from a sheared one.
    assert _affine_residual(G, warp(params, "relu", PLAIN, G, layer, (1, 3))) > 1e-2


def test_with_relu_every_coordinate_is_at_least_zero_and_some_fold_onto_an_axis():
    params = init_params([2, 8, 8, 1], seed=3)
    G = grid_lines(3.6)
    for layer in (1, 2):
        H = warp(params, "relu", PLAIN, G, layer, (2, 5))
        assert H.min() >= 0.0
        x0, y0, both = on_axes(H)
        assert max(x0, y0) > 0.05 and both <= min(x0, y0)
    x0, y0, both = on_axes(warp(params, "identity", PLAIN, G, 1, (2, 5)))
    assert x0 == y0 == both == 0.0                                             # a shear folds nothing


def test_warped_points_are_the_hidden_layer_by_hand():
    params = init_params([2, 4, 1], seed=11)
    (W, b), _ = params
    X = np.random.default_rng(0).uniform(-3, 3, size=(50, 2))
    H = warp(params, "relu", PLAIN, X, 1, (4, 2))
    by_hand = np.maximum(0.0, X @ W + b)                                       # (50, 4)
    np.testing.assert_allclose(H, by_hand[:, [3, 1]], rtol=1e-12, atol=1e-12)


def test_layer_two_goes_through_both_layers():
    params = init_params([2, 5, 3, 1], seed=2)
    (W1, b1), (W2, b2), _ = params
    X = np.random.default_rng(1).uniform(-3, 3, size=(40, 2))
    H = warp(params, "relu", PLAIN, X, 2, (1, 3))
    by_hand = np.maximum(0.0, np.maximum(0.0, X @ W1 + b1) @ W2 + b2)          # (40, 3)
    np.testing.assert_allclose(H, by_hand[:, [0, 2]], rtol=1e-12, atol=1e-12)
    # Layer 1 matters: the same layer 2 after another first layer lands elsewhere.
    other = [(W1 * -1.0, b1), (W2, b2), params[2]]
    assert np.abs(warp(other, "relu", PLAIN, X, 2, (1, 3)) - H).max() > 1e-3


def test_features_are_applied_first_and_a_curve_is_one_input():
    params = init_params([3, 4, 1], seed=5)
    (W, b), _ = params
    x = np.linspace(-2, 2, 30)[:, None]                                        # a curve: x1 alone
    H = warp(params, "tanh", ["x1", "x1sq", "sin1"], x, 1, (1, 2))
    F = np.column_stack([x[:, 0], x[:, 0] ** 2, np.sin(x[:, 0])])
    np.testing.assert_allclose(H, np.tanh(F @ W + b)[:, :2], rtol=1e-12)
    # x1² bends the line before the layer: without a bend its image is still not a straight line.
    line = warp(init_params([1, 4, 1], seed=5), "identity", ["x1"], x, 1, (1, 2))           # (30, 2)
    bent = warp(init_params([2, 4, 1], seed=5), "identity", ["x1", "x1sq"], x, 1, (1, 2))
    assert np.linalg.matrix_rank(line - line[0], tol=1e-9) == 1                # on one straight line
    assert np.linalg.matrix_rank(bent - bent[0], tol=1e-9) == 2


@pytest.mark.parametrize("layer, units, needle", [(3, (1, 2), "2 hidden layers"), (0, (1, 2), "2 hidden"),
                                                  (1, (1, 9), "layer 1 has 4 units"),
                                                  (2, (0, 1), "layer 2 has 3 units")])
def test_a_layer_or_unit_the_network_does_not_have_is_refused(layer, units, needle):
    params = init_params([2, 4, 3, 1], seed=0)
    with pytest.raises(ValueError, match=needle):
        warp(params, "relu", PLAIN, np.zeros((1, 2)), layer, units)

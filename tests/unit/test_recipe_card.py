"""lib.recipe: the seed examples as computed values, and the layer's algebra checked independently."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from lib.layers import collapse, linear, param_count
from lib.recipe import (
    MAX_SIZE,
    MINI_B1,
    MINI_B2,
    MINI_W1,
    MINI_W2,
    MINI_X,
    SEED_B,
    SEED_W,
    SEED_X,
    batch_inputs,
    default_layer,
    dot_terms,
    init_layer,
    mini_network,
    scaled_parts,
    squared_error,
    squared_error_grad,
)
from pages.recipe_card.card import dot_text
from pages.stacking.code import py_vec, vec
from ui.expr import sig, val
from ui.fmt import MINUS as M

RNG = np.random.default_rng(3)


def test_seed_000_recipe_card():
    x, W, b = default_layer(3, 2)
    np.testing.assert_array_equal(x, [1.0, 0.5, -1.0])
    np.testing.assert_array_equal(W, [[0.8, -0.5], [0.3, 0.9], [-0.6, 0.4]])
    np.testing.assert_array_equal(b, [0.1, -0.2])
    # y1 = 1.0*0.8 + 0.5*0.3 + (-1.0)(-0.6) + 0.1 = 1.65 ; y2 = -0.5 + 0.45 - 0.4 - 0.2 = -0.65
    np.testing.assert_allclose(linear(x, W, b), [1.65, -0.65], atol=1e-15)
    assert param_count(3, 2) == 8  # 3 x 2 weights + 2 biases


def test_each_output_is_a_column_dotted_with_x_plus_its_bias():
    x, W, b = default_layer(5, 4)
    y = linear(x, W, b)
    for j in range(4):  # a neuron is a column of W, summed by hand
        assert y[j] == pytest.approx(sum(x[i] * W[i, j] for i in range(5)) + b[j], abs=1e-12)
    np.testing.assert_allclose(dot_terms(x, W).sum(axis=0) + b, y, atol=1e-12)


def test_default_layer_grows_without_changing_the_seed_corner():
    x8, W8, b8 = default_layer()
    assert W8.shape == (MAX_SIZE, MAX_SIZE) and x8.shape == b8.shape == (MAX_SIZE,)
    np.testing.assert_array_equal(W8[:3, :2], SEED_W)
    np.testing.assert_array_equal(x8[:3], SEED_X)
    np.testing.assert_array_equal(b8[:2], SEED_B)
    x, W, b = default_layer(4, 5)
    np.testing.assert_array_equal(W, W8[:4, :5])
    np.testing.assert_array_equal(x, x8[:4])
    np.testing.assert_array_equal(b, b8[:5])
    # Every default sits on a slider step of 0.1 inside the slider's range.
    for a in (x8, W8, b8):
        np.testing.assert_allclose(a * 10, np.round(a * 10), atol=1e-9)
        assert np.abs(a).max() <= 1.0
    assert not np.signbit(W8[W8 == 0]).any()  # no "-0.0" on a slider


@pytest.mark.parametrize(("n_in", "n_out"), [(0, 2), (3, 9), (9, 1)])
def test_sizes_outside_the_range_are_refused(n_in, n_out):
    with pytest.raises(ValueError):
        default_layer(n_in, n_out)
    with pytest.raises(ValueError):
        init_layer(n_in, n_out, "zero")


def test_init_layer_zero_and_random():
    W, b = init_layer(4, 3, "zero")
    assert W.shape == (4, 3) and b.shape == (3,) and not W.any() and not b.any()
    W1, b1 = init_layer(4, 3, "random", seed=1)
    W2, _ = init_layer(4, 3, "random", seed=2)
    assert W1.shape == (4, 3) and b1.shape == (3,)
    assert np.abs(W1).max() <= 1.0 and np.abs(b1).max() <= 0.5
    np.testing.assert_allclose(W1 * 10, np.round(W1 * 10), atol=1e-9)
    assert not np.array_equal(W1, W2)
    np.testing.assert_array_equal(W1, init_layer(4, 3, "random", seed=1)[0])  # reproducible
    with pytest.raises(ValueError):
        init_layer(2, 2, "ones")


def test_doubling_the_input_doubles_the_input_part_but_not_the_bias():
    x, W, b = default_layer(3, 2)
    part1, bias1, y1 = scaled_parts(x, W, b, 1.0)
    np.testing.assert_allclose(y1, [1.65, -0.65], atol=1e-12)
    part2, bias2, y2 = scaled_parts(x, W, b, 2.0)
    np.testing.assert_allclose(part1, [1.55, -0.45], atol=1e-12)  # y - b
    np.testing.assert_allclose(part2, 2 * part1, atol=1e-12)
    np.testing.assert_array_equal(bias1, bias2)
    np.testing.assert_allclose(y2, [3.2, -1.1], atol=1e-12)  # not 2 * [1.65, -0.65]
    # Linearity in general: f(a u + c v) - b = a (f(u) - b) + c (f(v) - b).
    u, v = RNG.normal(size=3), RNG.normal(size=3)
    lhs = linear(3 * u - 2 * v, W, b) - b
    np.testing.assert_allclose(lhs, 3 * (linear(u, W, b) - b) - 2 * (linear(v, W, b) - b), atol=1e-12)


def test_a_batch_is_rows_through_the_same_weights():
    x, W, b = default_layer(3, 2)
    X = batch_inputs(x, 5)
    assert X.shape == (5, 3)
    np.testing.assert_array_equal(X[0], x)
    Y = linear(X, W, b)
    assert Y.shape == (5, 2)
    for t in range(5):
        np.testing.assert_allclose(Y[t], X[t] @ W + b, atol=1e-12)
    assert batch_inputs(x, 1).shape == (1, 3)
    np.testing.assert_array_equal(batch_inputs(x, 8)[:5], X)  # more tokens keep the first rows


def test_seed_002_mini_network():
    z1, h1, z2, y_hat = mini_network(MINI_X, MINI_W1, MINI_B1, MINI_W2, MINI_B2)
    # neuron 1: 0.5 - 2 + 1.5 + 0.1 = 0.1 ; neuron 2: -1 + 0 - 1.5 = -2.5 -> ReLU 0
    np.testing.assert_allclose(z1, [0.1, -2.5], atol=1e-12)
    np.testing.assert_allclose(h1, [0.1, 0.0], atol=1e-12)
    np.testing.assert_allclose(y_hat, [0.1], atol=1e-12)  # 1 * 0.1 + 2 * 0 + 0
    np.testing.assert_allclose(z2, y_hat)


def test_mini_network_without_relu_is_one_layer():
    z1, h1, z2, y_hat = mini_network(MINI_X, MINI_W1, MINI_B1, MINI_W2, MINI_B2, "identity")
    np.testing.assert_allclose(h1, z1)
    np.testing.assert_allclose(z2, [0.1 * 1 + (-2.5) * 2], atol=1e-12)  # -4.9
    np.testing.assert_allclose(y_hat, z2)
    W, b = collapse(MINI_W1, MINI_B1, MINI_W2, MINI_B2)
    np.testing.assert_allclose(linear(MINI_X, W, b), y_hat, atol=1e-12)


@pytest.mark.ref
def test_mini_network_against_torch():
    torch = pytest.importorskip("torch")
    W1, b1, W2, b2 = RNG.normal(size=(3, 2)), RNG.normal(size=2), RNG.normal(size=(2, 1)), RNG.normal(size=1)
    x = RNG.normal(size=3)
    net = torch.nn.Sequential(torch.nn.Linear(3, 2), torch.nn.ReLU(), torch.nn.Linear(2, 1), torch.nn.ReLU())
    with torch.no_grad():
        net[0].weight.copy_(torch.tensor(W1.T)), net[0].bias.copy_(torch.tensor(b1))
        net[2].weight.copy_(torch.tensor(W2.T)), net[2].bias.copy_(torch.tensor(b2))
        want = net(torch.tensor(x, dtype=torch.float32)).double().numpy()
    np.testing.assert_allclose(mini_network(x, W1, b1, W2, b2)[3], want, atol=1e-5)


def test_squared_error_and_its_slope():
    assert squared_error(0.1, 1.0) == pytest.approx(0.81)
    assert squared_error_grad(0.1, 1.0) == pytest.approx(-1.8)
    y_hat, y, h = RNG.normal(size=6), RNG.normal(size=6), 1e-6
    numeric = (squared_error(y_hat + h, y) - squared_error(y_hat - h, y)) / (2 * h)
    np.testing.assert_allclose(squared_error_grad(y_hat, y), numeric, rtol=1e-6, atol=1e-8)


def test_the_arithmetic_is_written_as_the_seed_writes_it():
    x, W, b = default_layer(3, 2)
    y = linear(x, W, b)
    assert dot_text(x, W[:, 0], b[0]) == f"1.0 × 0.8 + 0.5 × 0.3 + ({M}1.0) × ({M}0.6) + 0.1"
    assert val(y[0]) == "1.65" and val(y[1]) == f"{M}0.65"
    assert val(-0.0) == "0.0" and val(2) == "2.0" and val(0.0282475) == "0.028"
    # float noise never reaches the screen
    assert val(2.4299999999999997) == "2.43" and val(0.9999999999999999) == "1.0"
    assert vec([0.1, -0.0]) == "[0.1, 0.0]"
    assert py_vec([1.65, -0.65]) == "[1.65, -0.65]"  # code keeps the minus Python reads


@pytest.mark.parametrize(("v", "figures", "want"), [
    (1.5**10, 4, "57.67"), (0.0282475, 4, "0.02825"), (0.0282475, 3, "0.0282"),
    (3325.26, 4, "3325"), (123456.7, 4, "123,457"), (1.5**40, 4, "1.106 × 10⁷"), (0.5**40, 3, "9.09 × 10⁻¹³"),
])
def test_sizes_that_grow_or_vanish_never_use_e_notation(v, figures, want):
    assert sig(v, figures) == want


def test_network_diagram_lines_are_the_matrix_cells():
    from ui import charts
    from ui.diagram import network_figure

    fig = network_figure([MINI_W1, MINI_W2], [["x1", "x2", "x3"], ["n1", "n2"], ["y"]],
                         names=["w", "w′"])
    lines = [t for t in fig.data if t.customdata is not None]
    assert len(lines) == 3 * 2 + 2 * 1  # one line per weight, both layers
    seen = {}
    for t in lines:
        i, j, w = np.asarray(t.customdata)[0]
        layer = MINI_W1 if t.name.startswith("w") and "′" not in t.name else MINI_W2
        assert w == layer[int(i) - 1, int(j) - 1]
        want = charts.POSITIVE if w > 0 else charts.NEGATIVE if w < 0 else charts.OFF
        assert t.line.color == want
        seen[t.name] = (abs(w), t.line.width)
    assert "w₃₁" in seen and "w′₂₁" in seen  # names as the seed writes them
    by_size = sorted(seen.values())
    assert all(a[1] <= b[1] for a, b in itertools.pairwise(by_size))  # thicker = bigger


def test_figures_built_without_validation_are_valid_plotly():
    """ui.diagram skips plotly's validators for speed; here every property is checked once."""
    import plotly.graph_objects as go

    from ui.diagram import cells_figure, network_figure

    x, W, b = default_layer(4, 3)
    figs = [network_figure([W], [list("abcd"), list("ABC")], node_values=[x, linear(x, W, b)]),
            network_figure([MINI_W1, MINI_W2], [["x1", "x2", "x3"], ["h1", "h2"], ["y"]], names=["w", "w′"]),
            cells_figure(W, row_labels=list("abcd"), col_labels=list("ABC"))]
    for fig in figs:
        go.Figure(fig.to_dict())  # raises ValueError on any misspelt or misplaced property
    text = figs[2].data[0].text
    assert text[2][0] == f"{M}0.6" and "-0.00" not in str(text)  # ui.fmt's numbers in the cells

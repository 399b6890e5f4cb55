"""Linear layers: the seed's worked examples, counts, and the collapse of two layers."""

from __future__ import annotations

import numpy as np
import pytest

from lib.activations import ACTIVATIONS
from lib.layers import collapse, largest_gap, linear, param_count, swiglu, two_layer

RNG = np.random.default_rng(7)


def test_recipe_card_example():
    x = np.array([1.0, 0.5, -1.0])
    W = np.array([[0.8, -0.5], [0.3, 0.9], [-0.6, 0.4]])
    b = np.array([0.1, -0.2])
    # y1 = 1.0*0.8 + 0.5*0.3 + (-1.0)(-0.6) + 0.1 = 1.65
    # y2 = 1.0*(-0.5) + 0.5*0.9 + (-1.0)(0.4) - 0.2 = -0.65
    np.testing.assert_allclose(linear(x, W, b), [1.65, -0.65], atol=1e-15)


def test_linear_batches_rows_independently():
    W, b = RNG.normal(size=(3, 2)), RNG.normal(size=2)
    X = RNG.normal(size=(5, 3))
    Y = linear(X, W, b)
    assert Y.shape == (5, 2)
    for i in range(5):
        np.testing.assert_allclose(Y[i], linear(X[i], W, b))
    np.testing.assert_allclose(linear(X, W), X @ W)


@pytest.mark.parametrize(("n_in", "n_out", "bias", "count"), [
    (3, 2, True, 8), (768, 3072, True, 2_362_368), (3072, 768, True, 2_360_064),
    (768, 2304, True, 1_771_776), (768, 768, True, 590_592), (4096, 14336, False, 58_720_256),
])
def test_param_count(n_in, n_out, bias, count):
    assert param_count(n_in, n_out, bias) == count


def test_param_count_rejects_negative_sizes():
    with pytest.raises(ValueError):
        param_count(-1, 3)


def test_collapse_equals_the_stack_on_random_matrices():
    for _ in range(20):
        n_in, n_hid, n_out = RNG.integers(1, 9, size=3)
        W1, b1 = RNG.normal(size=(n_in, n_hid)), RNG.normal(size=n_hid)
        W2, b2 = RNG.normal(size=(n_hid, n_out)), RNG.normal(size=n_out)
        X = RNG.normal(size=(11, n_in))
        W, b = collapse(W1, b1, W2, b2)
        assert W.shape == (n_in, n_out) and b.shape == (n_out,)
        np.testing.assert_allclose(linear(X, W, b), linear(linear(X, W1, b1), W2, b2), atol=1e-12)
        _, _, y = two_layer(X, W1, b1, W2, b2, ACTIVATIONS["identity"])
        np.testing.assert_allclose(y, linear(X, W, b), atol=1e-12)


def test_two_layer_with_relu_is_the_seed_mini_network():
    # Seed 002: x = [1, 2, 3]; neuron 1 weights [0.5, -1, 0.5], bias 0.1 -> 0.1;
    # neuron 2 weights [-1, 0, -0.5], bias 0 -> -2.5 -> ReLU 0; layer 2 weights [1, 2].
    W1 = np.array([[0.5, -1.0], [-1.0, 0.0], [0.5, -0.5]])
    z, h, y = two_layer(np.array([[1.0, 2.0, 3.0]]), W1, [0.1, 0.0], [[1.0], [2.0]], [0.0],
                        ACTIVATIONS["relu"])
    np.testing.assert_allclose(z, [[0.1, -2.5]], atol=1e-15)
    np.testing.assert_allclose(h, [[0.1, 0.0]], atol=1e-15)
    np.testing.assert_allclose(y, [[0.1]], atol=1e-15)


def test_swiglu_against_a_direct_loop():
    X = RNG.normal(size=(4, 3))
    Wg, Wu, Wd = RNG.normal(size=(3, 5)), RNG.normal(size=(3, 5)), RNG.normal(size=(5, 3))
    gate, up, y = swiglu(X, Wg, Wu, Wd)
    for i in range(4):
        for k in range(3):
            acc = 0.0
            for j in range(5):
                a = sum(X[i, m] * Wg[m, j] for m in range(3))
                u = sum(X[i, m] * Wu[m, j] for m in range(3))
                acc += a / (1 + np.exp(-a)) * u * Wd[j, k]
            assert y[i, k] == pytest.approx(acc, rel=1e-12)
    assert gate.shape == up.shape == (4, 5)


def test_largest_gap():
    assert largest_gap([0, 1, 2], [0, 5, 1], [0, 1, 1]) == (4.0, 1.0)

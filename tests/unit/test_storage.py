"""lib.storage: GPT-2's (in, out) and PyTorch's (out, in) are the same layer, transposed."""

from __future__ import annotations

import numpy as np
import pytest

from lib.layers import linear
from lib.storage import from_torch, linear_torch, to_torch

RNG = np.random.default_rng(11)


def test_seed_example_in_both_layouts():
    W = np.array([[0.8, -0.5], [0.3, 0.9], [-0.6, 0.4]])  # (3, 2): GPT-2
    weight = to_torch(W)
    np.testing.assert_array_equal(weight, [[0.8, 0.3, -0.6], [-0.5, 0.9, 0.4]])  # (2, 3)
    np.testing.assert_array_equal(from_torch(weight), W)
    x, b = np.array([1.0, 0.5, -1.0]), np.array([0.1, -0.2])
    np.testing.assert_allclose(linear_torch(x, weight, b), [1.65, -0.65], atol=1e-15)
    np.testing.assert_allclose(linear_torch(x, weight, b), linear(x, W, b), atol=1e-15)


def test_to_torch_copies():
    W = RNG.normal(size=(3, 2))
    weight = to_torch(W)
    weight[0, 0] = 99.0
    assert W[0, 0] != 99.0


@pytest.mark.ref
def test_against_torch_nn_linear():
    torch = pytest.importorskip("torch")
    W, b, X = RNG.normal(size=(4, 3)), RNG.normal(size=3), RNG.normal(size=(5, 4))
    layer = torch.nn.Linear(4, 3).double()
    assert tuple(layer.weight.shape) == to_torch(W).shape == (3, 4)
    with torch.no_grad():
        layer.weight.copy_(torch.tensor(to_torch(W)))
        layer.bias.copy_(torch.tensor(b))
        want = layer(torch.tensor(X)).numpy()
    np.testing.assert_allclose(linear_torch(X, to_torch(W), b), want, atol=1e-12)
    np.testing.assert_allclose(linear(X, W, b), want, atol=1e-12)

"""The reference MLP: a worked example, gradients against central differences and PyTorch, collapse."""

from __future__ import annotations

import math
import zlib

import numpy as np
import pytest

from lib.activations import ACTIVATIONS
from lib.mlp import (
    BIAS_INIT,
    augmented_views,
    bce,
    collapse_params,
    flatten,
    forward,
    hidden_pre,
    init_params,
    layer_views,
    loss_and_grads,
    param_total,
    predict_proba,
)

RNG = np.random.default_rng(5)
DEPTHS = {"no hidden layer": [3, 1], "one hidden layer": [3, 5, 1], "two hidden layers": [3, 4, 3, 1]}


def test_init_is_deterministic_and_he_scaled():
    a, b = init_params([2, 8, 1], seed=4), init_params([2, 8, 1], seed=4)
    c = init_params([2, 8, 1], seed=5)
    assert [(W.shape, v.shape) for W, v in a] == [((2, 8), (8,)), ((8, 1), (1,))]
    for (W1, b1), (W2, b2) in zip(a, b, strict=True):
        np.testing.assert_array_equal(W1, W2)
        np.testing.assert_array_equal(b1, b2)
    assert not np.allclose(a[0][0], c[0][0])
    np.testing.assert_array_equal(a[0][1], BIAS_INIT)   # hidden biases start small and positive
    np.testing.assert_array_equal(a[1][1], 0.0)         # the output bias starts at 0
    big = init_params([400, 300, 1], seed=0)[0][0]
    np.testing.assert_allclose(big.std(), math.sqrt(2 / 400), rtol=0.02)
    assert abs(big.mean()) < 0.002


@pytest.mark.parametrize("sizes", [[2], [2, 0, 1], [2, 3], []])
def test_init_rejects_bad_sizes(sizes):
    with pytest.raises(ValueError):
        init_params(sizes, 0)


def test_flat_layout_views_write_through():
    sizes = [2, 3, 1]
    assert param_total(sizes) == (2 + 1) * 3 + (3 + 1) * 1 == 13
    flat = np.arange(13.0)
    (W1, b1), (W2, b2) = layer_views(flat, sizes)
    # Layer 1 is [W1.T | b1], one row per unit: unit j's weights, then its bias.
    np.testing.assert_array_equal(W1, [[0, 3, 6], [1, 4, 7]])
    np.testing.assert_array_equal(b1, [2, 5, 8])
    np.testing.assert_array_equal(W2[:, 0], [9, 10, 11])
    np.testing.assert_array_equal(b2, [12])
    W1[1, 2] = -1.0
    assert flat[7] == -1.0
    A = augmented_views(flat, sizes)
    assert A[0].shape == (3, 3) and A[1].shape == (1, 4)
    np.testing.assert_array_equal(flatten(layer_views(flat, sizes)), flat)


def test_worked_example_by_hand():
    # Two inputs, two ReLU units, one output:
    #   z = x W1 + b1 = (1, 2) [[1, -1], [1, 1]] + (0, -4) = (3, -3);  h = ReLU(z) = (3, 0)
    #   logit = h W2 + b2 = 3 * 0.5 + 0 * 2 - 1 = 0.5;  p = 1 / (1 + e^-0.5) = 0.6224593312...
    params = [(np.array([[1.0, -1.0], [1.0, 1.0]]), np.array([0.0, -4.0])),
              (np.array([[0.5], [2.0]]), np.array([-1.0]))]
    X = np.array([[1.0, 2.0]])
    p, cache = forward(params, X, "relu")
    np.testing.assert_allclose(cache["z"][0], [[3.0, -3.0]])
    np.testing.assert_allclose(cache["h"][1], [[3.0, 0.0]])
    np.testing.assert_allclose(p, [0.6224593312018546], rtol=1e-15)
    # Label 1: loss = -log p = log(1 + e^-0.5) = 0.4740769841801067.
    loss, grads = loss_and_grads(params, X, np.array([1]), "relu")
    assert loss == pytest.approx(0.4740769841801067, rel=1e-15)
    # dloss/dlogit = p - 1; dW2 = h^T (p - 1); dW1 only through the unit that is on.
    d = 0.6224593312018546 - 1
    np.testing.assert_allclose(grads[1][0][:, 0], [3 * d, 0.0], rtol=1e-14)
    np.testing.assert_allclose(grads[1][1], [d], rtol=1e-14)
    np.testing.assert_allclose(grads[0][0], [[0.5 * d, 0.0], [1.0 * d, 0.0]], rtol=1e-14)
    np.testing.assert_allclose(grads[0][1], [0.5 * d, 0.0], rtol=1e-14)


def test_cross_entropy_is_stable_for_huge_logits():
    assert bce(np.array([1000.0]), np.array([0])) == pytest.approx(1000.0)
    assert bce(np.array([-1000.0]), np.array([0])) == 0.0
    assert bce(np.array([1000.0]), np.array([1])) == 0.0
    assert bce(np.array([0.0, 0.0]), np.array([0, 1])) == pytest.approx(math.log(2))


def _flat_loss(flat, sizes, X, y, act, l2):
    return loss_and_grads(layer_views(flat, sizes), X, y, act, l2)[0]


@pytest.mark.parametrize("act", sorted(ACTIVATIONS))
@pytest.mark.parametrize("depth", sorted(DEPTHS))
@pytest.mark.parametrize("l2", [0.0, 0.3])
def test_gradients_match_central_differences(act, depth, l2):
    sizes = DEPTHS[depth]
    rng = np.random.default_rng(zlib.crc32(f"{act} {depth} {l2}".encode()))
    X = rng.normal(size=(12, 3))
    y = rng.integers(0, 2, size=12)
    flat = flatten(init_params(sizes, seed=3))
    flat += rng.normal(scale=0.3, size=flat.shape)  # move biases off their initial constant
    _, grads = loss_and_grads(layer_views(flat, sizes), X, y, act, l2)
    analytic = flatten(grads)
    h = 1e-6
    numeric = np.empty_like(flat)
    for i in range(flat.size):
        up, down = flat.copy(), flat.copy()
        up[i] += h
        down[i] -= h
        numeric[i] = (_flat_loss(up, sizes, X, y, act, l2) - _flat_loss(down, sizes, X, y, act, l2)) / (2 * h)
    np.testing.assert_allclose(analytic, numeric, rtol=1e-6, atol=1e-8)


def test_l2_penalises_weights_not_biases():
    params = init_params([2, 3, 1], seed=1)
    X, y = RNG.normal(size=(5, 2)), np.array([0, 1, 1, 0, 1])
    base, g0 = loss_and_grads(params, X, y, "tanh", 0.0)
    pen, g1 = loss_and_grads(params, X, y, "tanh", 0.5)
    squares = sum(float(np.sum(W**2)) for W, _ in params)
    assert pen - base == pytest.approx(0.25 * squares, rel=1e-12)
    for (dW0, db0), (dW1, db1), (W, _) in zip(g0, g1, params, strict=True):
        np.testing.assert_allclose(dW1 - dW0, 0.5 * W, atol=1e-15)
        np.testing.assert_array_equal(db1, db0)


@pytest.mark.ref
@pytest.mark.parametrize("act", ["relu", "tanh", "gelu", "silu", "sigmoid", "gelu_tanh"])
@pytest.mark.parametrize("depth", sorted(DEPTHS))
def test_loss_and_gradients_match_pytorch_autograd(act, depth):
    torch = pytest.importorskip("torch")
    torch.set_num_threads(1)  # tiny tensors: threads only wait for each other on a shared machine
    sizes = DEPTHS[depth]
    X = RNG.normal(size=(20, 3))
    y = RNG.integers(0, 2, size=20)
    params = init_params(sizes, seed=7)
    loss, grads = loss_and_grads(params, X, y, act, l2=0.1)
    ts = [(torch.tensor(np.array(W), requires_grad=True), torch.tensor(np.array(b), requires_grad=True))
          for W, b in params]
    F = torch.nn.functional
    bends = {"relu": torch.relu, "tanh": torch.tanh, "sigmoid": torch.sigmoid, "silu": F.silu, "gelu": F.gelu,
             "gelu_tanh": lambda z: F.gelu(z, approximate="tanh")}
    h = torch.tensor(X)
    for W, b in ts[:-1]:
        h = bends[act](h @ W + b)
    logit = (h @ ts[-1][0] + ts[-1][1])[:, 0]
    tloss = torch.nn.functional.binary_cross_entropy_with_logits(logit, torch.tensor(y, dtype=torch.float64))
    tloss = tloss + 0.05 * sum((W**2).sum() for W, _ in ts)
    tloss.backward()
    assert loss == pytest.approx(tloss.item(), rel=1e-13)
    for (dW, db), (W, b) in zip(grads, ts, strict=True):
        np.testing.assert_allclose(dW, W.grad.numpy(), rtol=1e-11, atol=1e-14)
        np.testing.assert_allclose(db, b.grad.numpy(), rtol=1e-11, atol=1e-14)


@pytest.mark.parametrize("depth", sorted(DEPTHS))
def test_collapse_is_the_network_without_bends(depth):
    sizes = DEPTHS[depth]
    params = init_params(sizes, seed=2)
    X = RNG.normal(size=(30, 3))
    W, b = collapse_params(params)
    assert W.shape == (3, 1) and b.shape == (1,)
    _, cache = forward(params, X, "identity")
    np.testing.assert_allclose(X @ W[:, 0] + b[0], cache["logit"], atol=1e-12)


def test_hidden_pre_and_predict_proba():
    params = init_params([2, 4, 3, 1], seed=3)
    X = RNG.normal(size=(6, 2))
    z = hidden_pre(params, X, "tanh")
    assert [a.shape for a in z] == [(6, 4), (6, 3)]
    np.testing.assert_allclose(z[0], X @ params[0][0] + params[0][1])
    np.testing.assert_allclose(z[1], np.tanh(z[0]) @ params[1][0] + params[1][1])
    p = predict_proba(params, X, "tanh")
    logit = np.tanh(z[1]) @ params[2][0][:, 0] + params[2][1][0]
    np.testing.assert_allclose(p, 1 / (1 + np.exp(-logit)))
    assert hidden_pre(init_params([2, 1], 0), X, "relu") == []


def test_unknown_activation():
    with pytest.raises(ValueError, match="unknown activation"):
        forward(init_params([2, 2, 1], 0), np.zeros((1, 2)), "swish")

"""The softmax and linear heads and the L1 penalty: worked examples, gradients against central
differences and PyTorch autograd, the fast path against the reference, and bad input."""

from __future__ import annotations

import math
import zlib

import numpy as np
import pytest

from lib.activations import ACTIVATIONS
from lib.mlp import (
    HEADS,
    augmented_views,
    collapse_params,
    cross_entropy,
    flatten,
    forward,
    init_params,
    layer_views,
    loss_and_grads,
    mse,
    output_parts,
    param_total,
    predict_proba,
)
from lib.train import Workspace, compile_pass, kernel, targets

RNG = np.random.default_rng(11)
# (sizes, head): every depth, both new heads, and the sigmoid head for the L1 checks.
NETS = {
    "softmax, no hidden layer": ([3, 4], "softmax"),
    "softmax, one hidden layer": ([3, 5, 3], "softmax"),
    "softmax, two hidden layers": ([3, 4, 3, 5], "softmax"),
    "linear, no hidden layer": ([3, 1], "linear"),
    "linear, one hidden layer": ([3, 5, 1], "linear"),
    "linear, two hidden layers": ([3, 4, 3, 1], "linear"),
    "sigmoid, one hidden layer": ([3, 5, 1], "sigmoid"),
}


def labels(head, n, k, rng):
    if head == "softmax":
        return rng.integers(0, k, size=n)
    if head == "sigmoid":
        return rng.integers(0, 2, size=n)
    return rng.normal(size=n)


# --- worked examples -------------------------------------------------------------------------------

def test_softmax_worked_example_by_hand():
    # No hidden layer, 2 inputs, 3 classes: logits = x W + b = (1, 2) W + b = (1, 0, -1) here.
    W = np.array([[1.0, 0.0, 1.0], [0.0, 0.0, -1.0]])
    b = np.array([0.0, 0.0, 0.0])
    X = np.array([[1.0, 2.0]])
    p, cache = forward([(W, b)], X, "relu", head="softmax")
    e = np.exp([1.0, 0.0, -1.0])
    np.testing.assert_allclose(cache["logit"], [[1.0, 0.0, -1.0]])
    np.testing.assert_allclose(p, [e / e.sum()], rtol=1e-15)  # (0.665, 0.245, 0.090)
    # Label 2: loss = -log p_2 = log(e + 1 + 1/e) + 1 = 2.4076059644443806
    loss, grads = loss_and_grads([(W, b)], X, np.array([2]), "relu", head="softmax")
    assert loss == pytest.approx(2.4076059644443806, rel=1e-15)
    d = e / e.sum() - np.array([0.0, 0.0, 1.0])              # dloss/dlogits = p - one-hot
    np.testing.assert_allclose(grads[0][1], d, rtol=1e-14)
    np.testing.assert_allclose(grads[0][0], np.outer([1.0, 2.0], d), rtol=1e-14)


def test_linear_worked_example_by_hand():
    # One ReLU unit: z = 2x - 1; out = 3 ReLU(z) + 0.5. At x = 1: z = 1, out = 3.5; at x = 0: out = 0.5.
    params = [(np.array([[2.0]]), np.array([-1.0])), (np.array([[3.0]]), np.array([0.5]))]
    X = np.array([[1.0], [0.0]])
    y = np.array([2.5, 1.5])
    p, _ = forward(params, X, "relu", head="linear")
    np.testing.assert_allclose(p, [3.5, 0.5])
    # errors (1, -1): MSE = 1; dloss/dout = 2 (out - y) / n = (1, -1)
    loss, grads = loss_and_grads(params, X, y, "relu", head="linear")
    assert loss == 1.0
    np.testing.assert_allclose(grads[1][0], [[1.0 * 1]])     # h = (1, 0): only the first point
    np.testing.assert_allclose(grads[1][1], [0.0])
    np.testing.assert_allclose(grads[0][0], [[3.0 * 1 * 1]])  # w_out * relu' * x
    np.testing.assert_allclose(grads[0][1], [3.0])


def test_l1_adds_l1_times_abs_weights_and_its_gradient_is_zero_at_zero():
    params = init_params([2, 3, 1], seed=1)
    params[0][0][0, 1] = 0.0                                  # one weight exactly at zero
    X, y = RNG.normal(size=(6, 2)), np.array([0, 1, 1, 0, 1, 0])
    base, g0 = loss_and_grads(params, X, y, "tanh")
    pen, g1 = loss_and_grads(params, X, y, "tanh", l1=0.2)
    assert pen - base == pytest.approx(0.2 * sum(float(np.abs(W).sum()) for W, _ in params), rel=1e-12)
    for (dW0, db0), (dW1, db1), (W, _) in zip(g0, g1, params, strict=True):
        np.testing.assert_allclose(dW1 - dW0, 0.2 * np.sign(W), atol=1e-15)
        np.testing.assert_array_equal(db1, db0)               # biases are not penalised
    assert g1[0][0][0, 1] == g0[0][0][0, 1]                   # the subgradient at 0 is 0


def test_losses_are_stable_for_huge_logits():
    assert cross_entropy(np.array([[1000.0, 0.0, -1000.0]]), np.array([0])) == 0.0
    assert cross_entropy(np.array([[1000.0, 0.0, -1000.0]]), np.array([2])) == pytest.approx(2000.0)
    assert cross_entropy(np.zeros((2, 4)), np.array([0, 3])) == pytest.approx(math.log(4))
    assert mse(np.array([1.0, 3.0]), np.array([0.0, 1.0])) == 2.5


def test_predict_shapes_and_collapse_for_k_outputs():
    params = init_params([2, 6, 4], seed=0, head="softmax")
    X = RNG.normal(size=(7, 2))
    P = predict_proba(params, X, "relu", head="softmax")
    assert P.shape == (7, 4)
    np.testing.assert_allclose(P.sum(axis=1), 1.0, rtol=1e-14)
    W, b = collapse_params(params)
    assert W.shape == (2, 4) and b.shape == (4,)
    np.testing.assert_allclose(forward(params, X, "identity", "softmax")[1]["logit"], X @ W + b, atol=1e-12)
    lin = init_params([2, 6, 1], seed=0, head="linear")
    assert predict_proba(lin, X, "relu", head="linear").shape == (7,)


@pytest.mark.parametrize(("sizes", "head", "word"), [
    ([2, 3], "sigmoid", "exactly 1 output"),
    ([2, 4, 3], "linear", "exactly 1 output"),
    ([2, 4, 1], "softmax", "at least 2 outputs"),
    ([2, 4, 1], "tanh", "unknown head"),
])
def test_heads_refuse_the_wrong_number_of_outputs(sizes, head, word):
    with pytest.raises(ValueError, match=word):
        init_params(sizes, 0, head=head)
    params = init_params(sizes, 0, head="softmax" if sizes[-1] > 1 else "sigmoid")
    with pytest.raises(ValueError, match=word):
        forward(params, np.zeros((1, 2)), "relu", head=head)


def test_softmax_labels_must_be_classes():
    params = init_params([2, 3], 0, head="softmax")
    for bad in ([0, 3], [-1, 0], [0.5, 1]):
        with pytest.raises(ValueError, match="whole numbers from 0 to 2"):
            loss_and_grads(params, np.zeros((2, 2)), np.array(bad), "relu", head="softmax")


def test_init_keeps_the_sigmoid_stream_and_ends_in_k():
    # The same seed draws the same numbers in the same order: a k-output network's hidden layer is
    # the two-class network's.
    two, three = init_params([2, 8, 1], seed=3), init_params([2, 8, 3], seed=3, head="softmax")
    np.testing.assert_array_equal(two[0][0], three[0][0])
    assert three[1][0].shape == (8, 3) and (three[1][1] == 0).all()
    assert set(HEADS) == {"sigmoid", "softmax", "linear"}


# --- gradients ---------------------------------------------------------------------------------------

def _flat_loss(flat, sizes, X, y, act, head, l2, l1):
    return loss_and_grads(layer_views(flat, sizes), X, y, act, l2, head=head, l1=l1)[0]


@pytest.mark.parametrize("act", sorted(ACTIVATIONS))
@pytest.mark.parametrize("net", sorted(NETS))
def test_gradients_match_central_differences(act, net):
    sizes, head = NETS[net]
    rng = np.random.default_rng(zlib.crc32(f"{act} {net}".encode()))
    X = rng.normal(size=(12, 3))
    y = labels(head, 12, sizes[-1], rng)
    flat = flatten(init_params(sizes, seed=3, head=head))
    flat += rng.normal(scale=0.3, size=flat.shape)  # move biases off their constant, weights away from 0
    l2, l1 = 0.2, 0.1
    _, grads = loss_and_grads(layer_views(flat, sizes), X, y, act, l2, head=head, l1=l1)
    h = 1e-6
    numeric = np.empty_like(flat)
    for i in range(flat.size):
        up, down = flat.copy(), flat.copy()
        up[i] += h
        down[i] -= h
        numeric[i] = (_flat_loss(up, sizes, X, y, act, head, l2, l1)
                      - _flat_loss(down, sizes, X, y, act, head, l2, l1)) / (2 * h)
    np.testing.assert_allclose(flatten(grads), numeric, rtol=1e-6, atol=1e-8)


def torch_bends(torch):
    F = torch.nn.functional
    return {"identity": lambda z: z, "relu": torch.relu, "tanh": torch.tanh, "sigmoid": torch.sigmoid,
            "silu": F.silu, "gelu": F.gelu, "gelu_tanh": lambda z: F.gelu(z, approximate="tanh"),
            "leaky_relu": F.leaky_relu, "elu": F.elu, "mish": F.mish, "sine": torch.sin,
            "softplus": lambda z: F.softplus(z, threshold=1e9)}  # PyTorch turns linear above 20 by default


def torch_loss(torch, ts, X, y, act, head, l2=0.0, l1=0.0):
    """The same network and loss written with PyTorch's own layers and losses."""
    F = torch.nn.functional
    h = torch.tensor(X)
    for W, b in ts[:-1]:
        h = torch_bends(torch)[act](h @ W + b)
    out = h @ ts[-1][0] + ts[-1][1]
    if head == "softmax":
        loss = F.cross_entropy(out, torch.tensor(y, dtype=torch.long))
    elif head == "linear":
        loss = F.mse_loss(out[:, 0], torch.tensor(y, dtype=torch.float64))
    else:
        loss = F.binary_cross_entropy_with_logits(out[:, 0], torch.tensor(y, dtype=torch.float64))
    return loss + 0.5 * l2 * sum((W**2).sum() for W, _ in ts) + l1 * sum(W.abs().sum() for W, _ in ts)


@pytest.mark.ref
def test_every_bend_has_a_pytorch_twin():
    torch = pytest.importorskip("torch")
    torch.set_num_threads(1)  # tiny tensors: threads only wait for each other on a shared machine
    assert set(torch_bends(torch)) == set(ACTIVATIONS)
    z = np.linspace(-6, 6, 241)
    for name, f in torch_bends(torch).items():
        np.testing.assert_allclose(ACTIVATIONS[name].fn(z), f(torch.tensor(z)).numpy(), rtol=1e-13,
                                   atol=1e-15)


@pytest.mark.ref
@pytest.mark.parametrize("act", sorted(ACTIVATIONS))
@pytest.mark.parametrize("net", sorted(NETS))
def test_loss_and_gradients_match_pytorch_autograd(act, net):
    torch = pytest.importorskip("torch")
    torch.set_num_threads(1)  # tiny tensors: threads only wait for each other on a shared machine
    sizes, head = NETS[net]
    rng = np.random.default_rng(zlib.crc32(f"torch {act} {net}".encode()))
    X = rng.normal(size=(20, 3))
    y = labels(head, 20, sizes[-1], rng)
    params = init_params(sizes, seed=7, head=head)
    loss, grads = loss_and_grads(params, X, y, act, l2=0.1, head=head, l1=0.05)
    ts = [(torch.tensor(np.array(W), requires_grad=True), torch.tensor(np.array(b), requires_grad=True))
          for W, b in params]
    tloss = torch_loss(torch, ts, X, y, act, head, l2=0.1, l1=0.05)
    tloss.backward()
    assert loss == pytest.approx(tloss.item(), rel=1e-13)
    for (dW, db), (W, b) in zip(grads, ts, strict=True):
        np.testing.assert_allclose(dW, W.grad.numpy(), rtol=1e-11, atol=1e-14)
        np.testing.assert_allclose(db, b.grad.numpy(), rtol=1e-11, atol=1e-14)


# --- the fast path is the reference maths ----------------------------------------------------------

def load(sizes, head, X, y):
    m = len(X)
    ws = Workspace(sizes, m, head)
    ws.load(np.vstack([X.T, np.ones((1, m))]), targets(y, head, sizes[-1]))
    return ws


@pytest.mark.parametrize("act", sorted(ACTIVATIONS))
@pytest.mark.parametrize(("head", "sizes"), [
    ("linear", [3, 1]), ("linear", [3, 6, 1]), ("linear", [3, 5, 4, 1]),
    ("softmax", [3, 3]), ("softmax", [3, 6, 4]), ("softmax", [3, 5, 4, 3]),
])
def test_kernel_equals_reference_loss_and_gradients(act, head, sizes):
    m = 37
    X = RNG.normal(size=(m, 3))
    y = labels(head, m, sizes[-1], RNG)
    flat = flatten(init_params(sizes, seed=1, head=head)) + RNG.normal(scale=0.2, size=param_total(sizes))
    ws = load(sizes, head, X, y)
    g = np.zeros_like(flat)
    total = kernel(ws, augmented_views(flat, sizes), augmented_views(g, sizes), act, with_loss=True)
    loss, grads = loss_and_grads(layer_views(flat, sizes), X, y, act, head=head)
    assert total / m == pytest.approx(loss, rel=1e-13)
    np.testing.assert_allclose(g / (ws.factor * m), flatten(grads), rtol=1e-11, atol=1e-15)
    g2 = np.zeros_like(flat)
    check = kernel(ws, augmented_views(flat, sizes), augmented_views(g2, sizes), act)
    assert math.isfinite(check)
    np.testing.assert_array_equal(g2, g)                     # the cheap check changes nothing else
    run = compile_pass(ws, augmented_views(flat, sizes), augmented_views(g2, sizes), act)
    assert run(True) == total
    np.testing.assert_array_equal(g2, g)


def test_softmax_kernel_survives_huge_logits_and_flags_infinite_ones():
    sizes = [2, 3, 3]
    params = init_params(sizes, seed=0, head="softmax")
    params[1][0][:] = [[1e3, 0.0, -1e3]] * 3                  # logits of thousands: exp would overflow
    X = np.array([[1.0, 2.0], [2.0, 1.0], [-1.0, 0.5], [3.0, 3.0]])
    y = np.array([0, 1, 2, 0])
    flat = flatten(params)
    ws = load(sizes, "softmax", X, y)
    g = np.zeros_like(flat)
    total = kernel(ws, augmented_views(flat, sizes), augmented_views(g, sizes), "relu", with_loss=True)
    loss, grads = loss_and_grads(layer_views(flat, sizes), X, y, "relu", head="softmax")
    assert math.isfinite(total) and total / 4 == pytest.approx(loss, rel=1e-12)
    np.testing.assert_allclose(g / 4, flatten(grads), rtol=1e-12, atol=1e-12)
    flat[-4] = np.inf                                         # an infinite output weight
    with np.errstate(all="ignore"):
        assert not math.isfinite(kernel(ws, augmented_views(flat, sizes), augmented_views(g, sizes), "relu"))


def test_output_parts_are_the_ramps_that_add_up_to_the_output():
    params = init_params([1, 4, 1], seed=2, head="linear")
    x = np.linspace(-3, 3, 13)[:, None]
    parts, bias = output_parts(params, x, "relu")
    assert parts.shape == (13, 4)
    np.testing.assert_allclose(parts.sum(axis=1) + bias, forward(params, x, "relu", "linear")[0], atol=1e-14)
    W1, b1 = params[0]
    np.testing.assert_allclose(parts[:, 2], np.maximum(x[:, 0] * W1[0, 2] + b1[2], 0) * params[1][0][2, 0])
    deep = init_params([2, 3, 5, 1], seed=0)
    X = RNG.normal(size=(6, 2))
    parts, bias = output_parts(deep, X, "tanh")
    assert parts.shape == (6, 5)
    np.testing.assert_allclose(parts.sum(axis=1) + bias, forward(deep, X, "tanh")[1]["logit"], atol=1e-14)
    for bad in (init_params([2, 1], 0), init_params([2, 3, 3], 0, head="softmax")):
        with pytest.raises(ValueError, match="exactly 1 output"):
            output_parts(bad, X, "relu")

"""Optimisers: a hand-worked step each, the textbook formulas, and PyTorch's optimisers step for step."""

from __future__ import annotations

import numpy as np
import pytest

from lib.optim import OPTIMIZERS, Adam, Momentum, make_optimizer

RNG = np.random.default_rng(3)


def test_table_keys():
    assert set(OPTIMIZERS) == {"sgd", "momentum", "adam"}
    assert all(OPTIMIZERS[k].name == k for k in OPTIMIZERS)
    with pytest.raises(ValueError, match="unknown optimiser"):
        make_optimizer("rmsprop", 3, 0.1)


def test_sgd_one_step_by_hand():
    w = np.array([1.0, -2.0])
    opt = make_optimizer("sgd", 2, lr=0.1)
    g = np.array([0.5, 4.0])
    opt.step(w, g)
    np.testing.assert_allclose(w, [1.0 - 0.05, -2.0 - 0.4])
    np.testing.assert_array_equal(g, [0.5, 4.0])  # the caller's gradient is left alone


def test_momentum_two_steps_by_hand():
    w = np.array([0.0])
    opt = Momentum(1, lr=0.1, mu=0.9)
    opt.step(w, np.array([1.0]))         # v = 1;             w = -0.1
    opt.step(w, np.array([1.0]))         # v = 0.9 + 1 = 1.9; w = -0.1 - 0.19 = -0.29
    np.testing.assert_allclose(w, [-0.29], rtol=1e-15)


def test_adam_first_step_moves_each_weight_by_lr():
    # After one step m_hat = g and v_hat = g², so the step is lr * g / (|g| + eps): lr times the sign.
    w = np.zeros(3)
    opt = Adam(3, lr=0.01)
    opt.step(w, np.array([3.0, -0.002, 50.0]))
    np.testing.assert_allclose(w, [-0.01, 0.01, -0.01], rtol=1e-5)


def test_adam_matches_the_textbook_formula():
    w = RNG.normal(size=6)
    ref = w.copy()
    m = np.zeros(6)
    v = np.zeros(6)
    opt = Adam(6, lr=0.05)
    for t in range(1, 40):
        g = RNG.normal(size=6) * 10 ** RNG.uniform(-3, 2)
        opt.step(w, g)
        m = 0.9 * m + 0.1 * g
        v = 0.999 * v + 0.001 * g * g
        ref = ref - 0.05 * (m / (1 - 0.9**t)) / (np.sqrt(v / (1 - 0.999**t)) + 1e-8)
    np.testing.assert_allclose(w, ref, rtol=1e-12)


@pytest.mark.parametrize("name", sorted(OPTIMIZERS))
def test_scale_is_the_same_as_a_scaled_gradient(name):
    a = RNG.normal(size=5)
    b = a.copy()
    oa, ob = make_optimizer(name, 5, 0.02), make_optimizer(name, 5, 0.02)
    for _ in range(10):
        g = RNG.normal(size=5)
        oa.step(a, g * 0.125)
        ob.g[:] = g                       # the trainer's way: write the buffer, pass the scale
        ob.step(b, None, scale=0.125)
    np.testing.assert_allclose(a, b, rtol=1e-13)


@pytest.mark.ref
@pytest.mark.parametrize("name", sorted(OPTIMIZERS))
def test_matches_pytorch_step_for_step(name):
    torch = pytest.importorskip("torch")
    torch.set_num_threads(1)  # tiny tensors: threads only wait for each other on a shared machine
    w0 = RNG.normal(size=7)
    grads = [RNG.normal(size=7) for _ in range(25)]
    w = w0.copy()
    opt = make_optimizer(name, 7, lr=0.03)
    tw = torch.tensor(w0.copy(), requires_grad=True)
    topt = {"sgd": lambda p: torch.optim.SGD(p, lr=0.03),
            "momentum": lambda p: torch.optim.SGD(p, lr=0.03, momentum=0.9),
            "adam": lambda p: torch.optim.Adam(p, lr=0.03)}[name]([tw])
    for g in grads:
        opt.step(w, g)
        tw.grad = torch.tensor(g)
        topt.step()
    np.testing.assert_allclose(w, tw.detach().numpy(), rtol=1e-12, atol=1e-14)

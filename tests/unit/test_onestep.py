"""lib.onestep: one step of learning on /stacking's mini network, written out."""

from __future__ import annotations

import numpy as np
import pytest

from lib.mlp import loss_and_grads
from lib.onestep import NAMES, central, explain, loss_of, step, steps
from lib.recipe import MINI_B1, MINI_B2, MINI_W1, MINI_W2, MINI_X

SEED = {"W1": MINI_W1, "b1": MINI_B1, "W2": MINI_W2, "b2": MINI_B2}


def test_the_seeds_numbers_are_exact():
    e = explain(MINI_X, MINI_W1, MINI_B1, MINI_W2, MINI_B2, 1.0)
    assert e.z1.tolist() == pytest.approx([0.1, -2.5]) and e.h1.tolist() == pytest.approx([0.1, 0.0])
    assert e.y_hat == pytest.approx(0.1) and e.loss == pytest.approx(0.81)
    assert e.grads["b2"][0] == pytest.approx(-1.8)                       # 2(0.1 - 1) * ReLU'(z') = -1.8
    assert e.grads["W1"][2, 0] == pytest.approx(-1.8 * 1.0 * 1.0 * 3.0)  # -1.8 w'11 ReLU'(z1) x3 = -5.4
    assert e.grads["W1"][2, 0] == pytest.approx(-5.4)
    assert e.dead == [1]                                                  # neuron 2: sum -2.5, switched off
    assert not e.grads["W1"][:, 1].any() and e.grads["b1"][1] == 0.0     # its four gradients are 0


def _random_net(rng):
    return {"W1": rng.normal(size=(3, 2)), "b1": rng.normal(size=2), "W2": rng.normal(size=(2, 1)),
            "b2": rng.normal(size=1)}


def test_the_explained_gradients_equal_central_differences():
    rng = np.random.default_rng(0)
    cases = [(SEED, MINI_X, 1.0, "relu")] + [
        (_random_net(rng), rng.normal(size=3), float(rng.normal()), bend)
        for bend in ("relu", "gelu", "tanh", "identity") for _ in range(50)]
    for params, x, y, bend in cases:
        e = explain(x, *(params[n] for n in NAMES), y, bend)
        num = central(params, x, y, bend)
        for n in NAMES:
            np.testing.assert_allclose(e.grads[n], num[n], rtol=1e-7, atol=1e-7)


def test_they_equal_lib_mlps_gradients_where_both_networks_agree():
    """An output neuron that is on passes its sum through ReLU unchanged: then the mini network is lib.mlp's
    linear head, whose loss is half the squared error (lib.mlp's convention), so its gradients are half."""
    rng = np.random.default_rng(1)
    checked = 0
    for _ in range(100):
        p, x, y = _random_net(rng), rng.normal(size=3), float(rng.normal())
        e = explain(x, *(p[n] for n in NAMES), y)
        if e.z2 <= 0:
            continue
        loss, g = loss_and_grads([(p["W1"], p["b1"]), (p["W2"], p["b2"])], x[None, :], np.array([y]), "relu",
                                 head="linear")
        scale = e.loss / loss                                             # 2 with lib.mlp's 1/2
        for (dW, db), (a, b) in zip(g, (("W1", "b1"), ("W2", "b2")), strict=True):
            np.testing.assert_allclose(e.grads[a], scale * dW, atol=1e-12)
            np.testing.assert_allclose(e.grads[b], scale * db, atol=1e-12)
        checked += 1
    assert checked >= 20


def test_k_steps_equal_plain_gradient_descent_and_lower_the_loss():
    lr, k = 0.05, 25
    after, losses = steps(SEED, MINI_X, 1.0, lr, k)
    p = {n: np.array(v, float) for n, v in SEED.items()}
    for _ in range(k):                      # plain descent written here, by central differences
        g = central(p, MINI_X, 1.0)
        p = {n: p[n] - lr * g[n] for n in NAMES}
    for n in NAMES:
        np.testing.assert_allclose(after[n], p[n], atol=1e-6)
    assert len(losses) == k + 1 and losses[0] == pytest.approx(0.81) and losses[-1] < 0.01
    assert losses[-1] == pytest.approx(loss_of(after, MINI_X, 1.0))
    one = step(SEED, MINI_X, 1.0, lr)
    assert one["b2"][0] == pytest.approx(0.0 - lr * -1.8)
    assert np.array_equal(one["W1"][:, 1], MINI_W1[:, 1])                 # the dead neuron did not move


def test_steps_stop_before_the_loss_blows_up():
    after, losses = steps(SEED, MINI_X, 5.0, 0.5, 500, "identity")   # no bend, a large rate: it diverges
    assert 1 <= len(losses) < 10 and np.isfinite(losses).all()
    assert all(np.isfinite(v).all() for v in after.values())

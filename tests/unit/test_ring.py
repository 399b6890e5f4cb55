"""lib.ring: with ReLU the 2 -> 3 -> 1 net carves the disc out of the ring; without it, it
cannot (nor can any straight line); gradients against central differences; chart geometry."""

from __future__ import annotations

import numpy as np
import pytest

from lib.layers import collapse, linear
from lib.regions import grid, line_in_box
from lib.ring import (
    BOX,
    HAND,
    R_DISC,
    R_RING,
    RingNet,
    accuracy,
    best_line_accuracy,
    forward,
    line_distance,
    loss_and_grads,
    make_ring,
    predict,
    train_ring,
)

X, Y = make_ring(600, seed=3)


def test_make_ring_is_balanced_and_in_its_radii():
    r = np.linalg.norm(X, axis=1)
    assert X.shape == (600, 2) and Y.shape == (600,)
    assert (Y == 1).sum() == (Y == 0).sum() == 300
    assert r[Y == 1].max() <= R_DISC
    assert r[Y == 0].min() >= R_RING[0] and r[Y == 0].max() <= R_RING[1]
    np.testing.assert_array_equal(make_ring(600, seed=3)[0], X)  # deterministic


def test_hand_made_worked_example():
    # At the centre every unit is off (z = -2 each), so the output is b2 = 3.
    z, h, out = forward(HAND, np.zeros((1, 2)))
    np.testing.assert_allclose(z, [[-2.0, -2.0, -2.0]])
    np.testing.assert_allclose(h, [[0.0, 0.0, 0.0]])
    np.testing.assert_allclose(out, [3.0])
    # At (0, 2), straight up: unit 1 is 4 * 2 - 2 = 6, the others are off: 3 - 6 = -3.
    np.testing.assert_allclose(forward(HAND, [[0.0, 2.0]])[2], [-3.0])


def test_hand_made_net_classifies_the_ring_only_with_relu():
    assert accuracy(HAND, X, Y) == 1.0
    assert accuracy(HAND, X, Y, bend=False) <= 0.75
    W, b = collapse(HAND.W1, HAND.b1, HAND.W2, HAND.b2)
    np.testing.assert_allclose(W, 0.0, atol=1e-12)     # the three ramps cancel exactly
    assert line_distance(W[:, 0], b[0]) == float("inf")


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_trained_net_classifies_the_ring_with_relu_and_not_without(seed):
    net, history = train_ring(X, Y, seed=seed)
    assert history[-1] < history[0] / 10
    assert accuracy(net, X, Y) >= 0.98
    assert accuracy(net, X, Y, bend=False) <= 0.75
    # A fresh sample from the same shapes: it learned the ring, not the points.
    X2, Y2 = make_ring(600, seed=99)
    assert accuracy(net, X2, Y2) >= 0.95


def test_no_straight_line_separates_disc_from_ring():
    best = best_line_accuracy(X, Y)
    assert 0.6 <= best <= 0.75
    net, _ = train_ring(X, Y, seed=0)
    assert accuracy(net, X, Y, bend=False) <= best + 1e-12  # the collapsed net is one such line


def test_best_line_finds_a_separable_split():
    Xs = np.array([[-2.0, 0.1], [-1.0, -0.3], [1.0, 0.2], [2.5, -0.1]])
    assert best_line_accuracy(Xs, np.array([0, 0, 1, 1])) == 1.0
    assert best_line_accuracy(Xs, np.array([1, 1, 0, 0])) == 1.0
    # XOR of four corners: one line gets at most three of the four right
    Xx = np.array([[-1.0, -1.0], [1.0, 1.0], [-1.0, 1.0], [1.0, -1.0]])
    assert best_line_accuracy(Xx, np.array([0, 0, 1, 1])) == 0.75


def test_without_the_bend_the_net_is_the_collapsed_single_layer():
    rng = np.random.default_rng(0)
    net = RingNet(rng.normal(size=(2, 3)), rng.normal(size=3), rng.normal(size=(3, 1)), rng.normal(size=1))
    W, b = collapse(net.W1, net.b1, net.W2, net.b2)
    np.testing.assert_allclose(forward(net, X, bend=False)[2], linear(X, W, b)[:, 0], atol=1e-12)
    np.testing.assert_array_equal(predict(net, X, bend=False), (linear(X, W, b)[:, 0] > 0).astype(int))


@pytest.mark.parametrize("bend", [True, False])
def test_gradients_match_central_differences(bend):
    rng = np.random.default_rng(5)
    net = RingNet(rng.normal(size=(2, 3)), rng.normal(size=3), rng.normal(size=(3, 1)), rng.normal(size=1))
    Xs, ys = X[::20], Y[::20]
    _, grads = loss_and_grads(net, Xs, ys, bend)
    eps = 1e-6
    for p, g in zip(net.params(), grads, strict=True):
        assert g.shape == p.shape
        for idx in np.ndindex(p.shape):
            old = p[idx]
            p[idx] = old + eps
            up = loss_and_grads(net, Xs, ys, bend)[0]
            p[idx] = old - eps
            down = loss_and_grads(net, Xs, ys, bend)[0]
            p[idx] = old
            assert g[idx] == pytest.approx((up - down) / (2 * eps), abs=1e-7)


def test_loss_is_binary_cross_entropy():
    net = HAND
    out = forward(net, X)[2]
    p = 1 / (1 + np.exp(-out))
    p = np.clip(p, 1e-300, 1 - 1e-16)
    ref = -np.mean(Y * np.log(p) + (1 - Y) * np.log(1 - p))
    assert loss_and_grads(net, X, Y)[0] == pytest.approx(ref, rel=1e-6)


def test_grid_covers_the_box():
    axis, _, pts = grid(BOX, 5)
    assert axis[0] == -BOX and axis[-1] == BOX
    assert pts.shape == (25, 2)
    np.testing.assert_array_equal(pts[:5, 1], -BOX)  # x1 varies fastest: one row of the heatmap


def test_line_in_box():
    seg = line_in_box([1.0, 1.0], -1.0, BOX)  # x1 + x2 = 1
    assert seg.shape == (2, 2)
    np.testing.assert_allclose(seg @ [1.0, 1.0], 1.0)
    assert np.all(np.abs(seg) <= BOX + 1e-9)
    assert np.isclose(np.abs(seg), BOX).any(axis=1).all()  # both ends on the box edge
    np.testing.assert_allclose(sorted(line_in_box([0.0, 2.0], -1.0, BOX)[:, 0]), [-BOX, BOX])  # x2 = 0.5
    assert line_in_box([1.0, 0.0], -10.0, BOX) is None  # x1 = 10 misses the box
    assert line_in_box([0.0, 0.0], 1.0, BOX) is None
    assert line_distance([3.0, 4.0], 10.0) == pytest.approx(2.0)

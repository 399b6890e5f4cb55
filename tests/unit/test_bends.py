"""lib.bends: the activations lesson's numbers, worked by hand and checked against plain loops."""

from __future__ import annotations

import math

import numpy as np
import pytest

from lib import bends
from lib.activations import ACTIVATIONS

# The lesson's starting network: one input, three hidden units, one output.
W1 = np.array([[1.0, -1.0, 0.5]])     # (1, 3)
B1 = np.array([-0.5, -0.5, 1.0])      # (3,)
W2 = np.array([[1.0], [1.0], [-1.0]])  # (3, 1)
B2 = np.array([0.5])                  # (1,)


def test_kinks_are_where_each_units_sum_crosses_zero():
    # x - 0.5 = 0 at 0.5; -x - 0.5 = 0 at -0.5; 0.5 x + 1 = 0 at -2
    assert bends.kinks(W1, B1).tolist() == [-2.0, -0.5, 0.5]
    # a unit with no weight never crosses; one that crosses outside the span is left out
    assert bends.kinks([[0.0, 1.0]], [1.0, -5.0]).tolist() == []
    assert bends.kinks([[0.0, 2.0]], [1.0, -1.0]).tolist() == [0.5]


def test_follow_one_input_by_hand():
    f = bends.follow(-2.0, W1, B1, W2, B2, ACTIVATIONS["relu"])
    assert f.z.tolist() == [-2.5, 1.5, 0.0]          # x W1 + b1
    assert f.h.tolist() == [0.0, 1.5, 0.0]           # ReLU
    assert f.y == 2.0                                # 1.5 * 1 + 0.5
    # W = W1 W2 = 1 - 1 - 0.5 = -0.5; b = b1 W2 + b2 = -0.5 - 0.5 - 1 + 0.5 = -1.5
    assert f.W.tolist() == [[-0.5]] and f.b.tolist() == [-1.5]
    assert f.y_one == pytest.approx(-0.5)            # -0.5 * -2 - 1.5


@pytest.mark.parametrize("name", ACTIVATIONS)
def test_depth_against_a_plain_loop(name):
    act = ACTIVATIONS[name]
    d = bends.depth(W1, B1, W2, B2, act, n=61)
    assert d.x[0] == bends.INPUTS[0] and d.x[-1] == bends.INPUTS[1] and d.units == 3
    for x, y in zip(d.x[::10], d.net[::10], strict=True):
        hidden = [act.fn(np.array(x * W1[0, j] + B1[j])) for j in range(3)]
        assert y == pytest.approx(sum(float(h) * W2[j, 0] for j, h in enumerate(hidden)) + B2[0], abs=1e-12)
    np.testing.assert_allclose(d.one, d.x * d.W[0, 0] + d.b[0], atol=1e-12)
    assert d.kinks.tolist() == [-2.0, -0.5, 0.5]
    np.testing.assert_allclose(d.kink_y, [bends.follow(k, W1, B1, W2, B2, act).y for k in d.kinks])
    assert d.gap == pytest.approx(np.abs(d.net - d.one).max())
    i = int(np.flatnonzero(d.x == d.where)[0])
    assert abs(d.net[i] - d.one[i]) == pytest.approx(d.gap)


def test_without_a_bend_the_network_is_its_collapse():
    d = bends.depth(W1, B1, W2, B2, ACTIVATIONS["identity"])
    assert d.gap < 1e-12
    d = bends.depth(W1, B1, W2, B2, ACTIVATIONS["relu"])
    assert d.gap > 0.5


def test_gelu_approximation_gap():
    g = bends.approximation_gap("gelu", "gelu_tanh")
    assert g.x[0] == bends.GELU_SPAN[0] and g.x[-1] == bends.GELU_SPAN[1]
    assert 1e-5 < g.gap < 1e-3
    assert g.gap == pytest.approx(np.abs(g.diff).max())
    assert 10.0 ** g.decade <= g.gap < 10.0 ** (g.decade + 1)
    x = np.array([g.where])
    assert abs(ACTIVATIONS["gelu"].fn(x) - ACTIVATIONS["gelu_tanh"].fn(x))[0] == pytest.approx(g.gap)


def test_decade():
    assert bends.decade(4.7e-4) == -4
    assert bends.decade(3.6e-15) == -15
    assert bends.decade(-250.0) == 2
    assert bends.decade(0.0) == 0 and bends.decade(math.inf) == 0


def test_curves_and_slopes():
    x, c = bends.curves(["relu", "tanh"], 2.0, n=5)
    assert x.tolist() == [-2.0, -1.0, 0.0, 1.0, 2.0]
    assert c["relu"][0].tolist() == [0.0, 0.0, 0.0, 1.0, 2.0] and c["relu"][1] is None
    _, c = bends.curves(["relu"], 2.0, n=5, slopes=True)
    assert c["relu"][1].tolist() == [0.0, 0.0, 0.0, 1.0, 1.0]


def test_swiglu_curves_by_hand():
    x, gate, up, out = bends.swiglu_curves(1.0, 2.0, n=3, span=(-1.0, 1.0))
    assert x.tolist() == [-1.0, 0.0, 1.0]
    silu1 = 1 / (1 + math.exp(-1))
    np.testing.assert_allclose(gate, [-1 + silu1, 0.0, silu1])  # SiLU(-1) = -1 * sigmoid(-1)
    np.testing.assert_allclose(up, [-2.0, 0.0, 2.0])
    np.testing.assert_allclose(out, gate * up)

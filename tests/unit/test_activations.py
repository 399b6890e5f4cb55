"""Every bend: values at known points, derivatives against central differences."""

from __future__ import annotations

import math

import numpy as np
import pytest

from lib.activations import ACTIVATIONS

XS = np.array([-3.0, -1.3, -0.2, 0.4, 1.0, 2.7])
# Away from ReLU's kink, where the derivative is not defined.


@pytest.mark.parametrize("name", ACTIVATIONS)
def test_derivative_matches_central_differences(name):
    act, h = ACTIVATIONS[name], 1e-6
    numeric = (act.fn(XS + h) - act.fn(XS - h)) / (2 * h)
    np.testing.assert_allclose(act.grad(XS), numeric, rtol=1e-6, atol=1e-8)


@pytest.mark.parametrize("name", ACTIVATIONS)
def test_elementwise_shape_and_finite_far_out(name):
    act = ACTIVATIONS[name]
    x = np.linspace(-800, 800, 12).reshape(3, 4)  # far enough to overflow a naive exp
    with np.errstate(all="raise"):
        y, g = act.fn(x), act.grad(x)
    assert y.shape == g.shape == (3, 4)
    assert np.isfinite(y).all() and np.isfinite(g).all()


def test_known_values():
    A = ACTIVATIONS
    assert A["relu"].fn(np.array([-2.0, 0.0, 3.5])).tolist() == [0.0, 0.0, 3.5]
    assert A["relu"].grad(np.array([-1.0, 0.0, 2.0])).tolist() == [0.0, 0.0, 1.0]
    assert A["identity"].fn(np.array([-2.5])).tolist() == [-2.5]
    assert A["sigmoid"].fn(np.array([0.0]))[0] == 0.5
    assert A["tanh"].fn(np.array([0.0]))[0] == 0.0
    # SiLU(1) = 1 / (1 + e^-1)
    assert A["silu"].fn(np.array([1.0]))[0] == pytest.approx(1 / (1 + math.exp(-1)), rel=1e-15)
    # GELU(1) = Phi(1) = 0.8413447460685429 (standard normal table)
    assert A["gelu"].fn(np.array([1.0]))[0] == pytest.approx(0.8413447460685429, rel=1e-15)
    # the smallest value of SiLU is about -0.2785 at x = -1.2785 (the dip below zero)
    x = np.linspace(-3, 0, 300001)
    assert A["silu"].fn(x).min() == pytest.approx(-0.27846454, abs=1e-8)


def test_gelu_exact_against_math_erf():
    xs = np.linspace(-6, 6, 241)
    expected = [x * 0.5 * (1 + math.erf(x / math.sqrt(2))) for x in xs]
    np.testing.assert_allclose(ACTIVATIONS["gelu"].fn(xs), expected, rtol=1e-14, atol=1e-16)


def test_gelu_tanh_is_close_to_exact_but_not_equal():
    xs = np.linspace(-6, 6, 2401)
    gap = np.abs(ACTIVATIONS["gelu"].fn(xs) - ACTIVATIONS["gelu_tanh"].fn(xs))
    assert 1e-5 < gap.max() < 1e-3


def test_table_keys_are_the_link_values():
    assert list(ACTIVATIONS) == ["identity", "relu", "gelu", "gelu_tanh", "silu", "sigmoid", "tanh",
                                 "leaky_relu", "elu", "softplus", "mish", "sine"]
    for key, act in ACTIVATIONS.items():
        assert act.name == key and act.used_in and act.latex

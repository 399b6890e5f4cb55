"""Activation functions ("bends"): each value sits beside its derivative.

ACTIVATIONS maps a short name (also the URL value) to an Activation record, so
pages build their selectors from the keys and tests parametrise over them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from scipy.special import erf, expit

_SQRT2 = np.sqrt(2.0)
_SQRT_2_OVER_PI = np.sqrt(2.0 / np.pi)
_INV_SQRT_2PI = 1.0 / np.sqrt(2.0 * np.pi)
_GELU_C = 0.044715  # the cubic coefficient of GELU's tanh approximation


@dataclass(frozen=True)
class Activation:
    name: str                                 # key in ACTIVATIONS and in links
    label: str                                # what a menu shows
    fn: Callable[[np.ndarray], np.ndarray]    # f(x), elementwise
    grad: Callable[[np.ndarray], np.ndarray]  # f'(x), elementwise, at the same x
    latex: str                                # the formula, for st.latex
    used_in: str                              # where it is used and why, one line


def _identity(x):
    return np.asarray(x, dtype=float).copy()


def _identity_grad(x):
    return np.ones_like(np.asarray(x, dtype=float))


def _relu(x):
    return np.maximum(x, 0.0)


def _relu_grad(x):
    # The kink at 0 gets slope 0, as in PyTorch.
    return (np.asarray(x) > 0).astype(float)


def _phi(x):
    """Standard normal density (clipped where it is 0 in float64 anyway, so exp cannot underflow)."""
    x = np.clip(x, -37.0, 37.0)
    return _INV_SQRT_2PI * np.exp(-0.5 * np.square(x))


def _Phi(x):
    """Standard normal cumulative distribution, via erf."""
    return 0.5 * (1.0 + erf(np.asarray(x, dtype=float) / _SQRT2))


def _gelu(x):
    x = np.asarray(x, dtype=float)
    return x * _Phi(x)


def _gelu_grad(x):
    x = np.asarray(x, dtype=float)
    return _Phi(x) + x * _phi(x)


def _gelu_tanh(x):
    x = np.asarray(x, dtype=float)
    return 0.5 * x * (1.0 + np.tanh(_SQRT_2_OVER_PI * (x + _GELU_C * x**3)))


def _gelu_tanh_grad(x):
    x = np.asarray(x, dtype=float)
    t = np.tanh(_SQRT_2_OVER_PI * (x + _GELU_C * x**3))
    dt = (1.0 - t * t) * _SQRT_2_OVER_PI * (1.0 + 3.0 * _GELU_C * x * x)
    return 0.5 * (1.0 + t) + 0.5 * x * dt


def _sigmoid(x):
    return expit(np.asarray(x, dtype=float))  # stable for large |x|


def _sigmoid_grad(x):
    s = expit(np.asarray(x, dtype=float))
    return s * (1.0 - s)


def _silu(x):
    x = np.asarray(x, dtype=float)
    return x * expit(x)


def _silu_grad(x):
    x = np.asarray(x, dtype=float)
    s = expit(x)
    return s * (1.0 + x * (1.0 - s))


def _tanh(x):
    return np.tanh(np.asarray(x, dtype=float))


def _tanh_grad(x):
    t = np.tanh(np.asarray(x, dtype=float))
    return 1.0 - t * t


ACTIVATIONS: dict[str, Activation] = {
    a.name: a
    for a in (
        Activation(
            "identity", "Identity (no bend)", _identity, _identity_grad,
            r"f(x) = x",
            "No bend at all: stacked layers collapse into one linear layer.",
        ),
        Activation(
            "relu", "ReLU", _relu, _relu_grad,
            r"\operatorname{ReLU}(x) = \max(0, x)",
            "The original Transformer (2017) and most CNNs: cheap, but a unit "
            "stuck below zero gets no gradient and can die.",
        ),
        Activation(
            "gelu", "GELU (exact)", _gelu, _gelu_grad,
            r"\operatorname{GELU}(x) = x\,\Phi(x) = \tfrac{x}{2}\left(1 + "
            r"\operatorname{erf}\!\left(\tfrac{x}{\sqrt{2}}\right)\right)",
            "GPT-2, GPT-3 and BERT: a smooth ReLU that lets a little negative "
            "signal through near zero, which trains better.",
        ),
        Activation(
            "gelu_tanh", "GELU (tanh approximation)", _gelu_tanh, _gelu_tanh_grad,
            r"\tfrac{x}{2}\left(1 + \tanh\!\left(\sqrt{2/\pi}\,"
            r"(x + 0.044715\,x^3)\right)\right)",
            "What GPT-2's original code computes: erf was slow on 2018 "
            "hardware, and this curve is within a thousandth of it.",
        ),
        Activation(
            "silu", "SiLU (Swish)", _silu, _silu_grad,
            r"\operatorname{SiLU}(x) = x\,\sigma(x) = \frac{x}{1 + e^{-x}}",
            "Llama, Mistral and Qwen, as the gate inside SwiGLU: smooth, with "
            "a small dip below zero that helps gradients flow.",
        ),
        Activation(
            "sigmoid", "Sigmoid", _sigmoid, _sigmoid_grad,
            r"\sigma(x) = \frac{1}{1 + e^{-x}}",
            "Early networks and today's output probabilities: it saturates at "
            "both ends, so deep stacks of it learn slowly.",
        ),
        Activation(
            "tanh", "Tanh", _tanh, _tanh_grad,
            r"\tanh(x) = \frac{e^{x} - e^{-x}}{e^{x} + e^{-x}}",
            "Classic RNNs and LSTMs: a zero-centred sigmoid, also saturating.",
        ),
    )
}

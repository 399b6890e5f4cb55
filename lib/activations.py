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


LEAKY_SLOPE = 0.01  # leaky ReLU's slope below zero, PyTorch's default


def _leaky_relu(x):
    x = np.asarray(x, dtype=float)
    return np.where(x > 0, x, LEAKY_SLOPE * x)


def _leaky_relu_grad(x):
    # At 0 the slope is the small one, as in PyTorch.
    return np.where(np.asarray(x) > 0, 1.0, LEAKY_SLOPE)


EXP_FLOOR = -700.0  # e^-700 is 1e-304: below it e^x is 0 for every purpose here, and exp would underflow


def _elu(x):
    x = np.asarray(x, dtype=float)
    return np.where(x > 0, x, np.expm1(np.clip(x, EXP_FLOOR, 0.0)))  # clip: no overflow on the unused side


def _elu_grad(x):
    # exp(min(x, 0)): e^x below zero, 1 above, and 1 at 0 from either side.
    return np.exp(np.clip(np.asarray(x, dtype=float), EXP_FLOOR, 0.0))


def _softplus(x):
    # log(1 + e^x) = max(x, 0) + log(1 + e^-|x|): stable for large |x| either way.
    x = np.asarray(x, dtype=float)
    return np.maximum(x, 0.0) + np.log1p(np.exp(np.maximum(-np.abs(x), EXP_FLOOR)))


def _softplus_grad(x):
    return expit(np.asarray(x, dtype=float))  # the slope of softplus is the sigmoid


def _mish(x):
    x = np.asarray(x, dtype=float)
    return x * np.tanh(_softplus(x))


def _mish_grad(x):
    # d/dx x tanh(sp(x)) = tanh(sp) + x (1 - tanh(sp)²) sigma(x), with sp' = sigma.
    x = np.asarray(x, dtype=float)
    t = np.tanh(_softplus(x))
    with np.errstate(under="ignore"):  # far below zero t² is below the smallest float: 0 is right
        return t + x * (1.0 - t * t) * expit(x)


def _sine(x):
    return np.sin(np.asarray(x, dtype=float))


def _sine_grad(x):
    return np.cos(np.asarray(x, dtype=float))


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
            "gelu", "GELU (exact, erf)", _gelu, _gelu_grad,
            # two lines: on one it was wider than its column in big=true (a scrolling box, issue 35)
            r"\begin{aligned}\operatorname{GELU}(x) &= x\,\Phi(x) \\ &= \tfrac{x}{2}\left(1 + "
            r"\operatorname{erf}\!\left(\tfrac{x}{\sqrt{2}}\right)\right)\end{aligned}",
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
        Activation(
            "leaky_relu", "Leaky ReLU", _leaky_relu, _leaky_relu_grad,
            r"\operatorname{LeakyReLU}(x) = \max(0.01\,x,\ x)",
            "ReLU with a slope of 0.01 below zero, so no unit dies for good; GAN discriminators "
            "and the YOLO detectors use it (with slopes of 0.1 to 0.2).",
        ),
        Activation(
            "elu", "ELU", _elu, _elu_grad,
            r"\operatorname{ELU}(x) = \begin{cases} x & x > 0 \\ e^{x} - 1 & x \le 0 \end{cases}",
            "Clevert et al. (2015): smooth below zero down to -1, which pulls mean outputs "
            "towards zero; graph attention networks (GAT) use it.",
        ),
        Activation(
            "softplus", "Softplus", _softplus, _softplus_grad,
            r"\operatorname{softplus}(x) = \ln\left(1 + e^{x}\right)",
            "A smooth ReLU whose slope is the sigmoid; used where an output must stay positive, "
            "such as a predicted standard deviation or rate.",
        ),
        Activation(
            "mish", "Mish", _mish, _mish_grad,
            r"\operatorname{Mish}(x) = x \tanh\left(\operatorname{softplus}(x)\right)",
            "Misra (2019): smooth, with a small dip below zero like SiLU; the YOLOv4 detector's "
            "backbone uses it.",
        ),
        Activation(
            "sine", "Sine", _sine, _sine_grad,
            r"f(x) = \sin x",
            "SIREN (Sitzmann et al., 2020): periodic units that fit images, sound and shapes as "
            "functions of their coordinates; it never saturates and never goes flat for good.",
        ),
    )
}

"""Optimisers on one flat parameter vector: SGD, momentum, Adam, as PyTorch defines them.

Each optimiser updates ``w`` in place from a gradient ``g`` (both 1-D, same length) and
allocates nothing per step: at a few dozen parameters the cost of a step is the number of
NumPy calls, so each update is a handful of in-place ufuncs on preallocated buffers.
``scale`` multiplies the gradient first; the trainer passes 1/batch there so it can hand
over a summed, not averaged, gradient without an extra pass.
"""

from __future__ import annotations

import numpy as np


class SGD:
    """w <- w - lr * g."""

    name = "sgd"

    def __init__(self, size, lr=0.03):
        self.lr = float(lr)
        self.t = 0

    def step(self, w, g, scale=1.0):
        self.t += 1
        g *= self.lr * scale
        w -= g


class Momentum:
    """Heavy ball, PyTorch's form: v <- mu v + g; w <- w - lr v."""

    name = "momentum"

    def __init__(self, size, lr=0.03, mu=0.9):
        self.lr, self.mu = float(lr), float(mu)
        self.v = np.zeros(size)
        self.t = 0

    def step(self, w, g, scale=1.0):
        self.t += 1
        if scale != 1.0:
            g *= scale
        if self.t == 1:  # PyTorch starts the velocity at the first gradient
            self.v[:] = g
        else:
            self.v *= self.mu
            self.v += g
        np.multiply(self.v, self.lr, out=g)
        w -= g


class Adam:
    """Adam (Kingma and Ba, 2015) with PyTorch's defaults and bias correction.

    m <- b1 m + (1 - b1) g;  v <- b2 v + (1 - b2) g²;
    w <- w - lr / (1 - b1^t) * m / (sqrt(v / (1 - b2^t)) + eps).
    """

    name = "adam"

    def __init__(self, size, lr=0.03, beta1=0.9, beta2=0.999, eps=1e-8):
        self.lr, self.beta1, self.beta2, self.eps = float(lr), float(beta1), float(beta2), float(eps)
        self.size = int(size)
        # m and v side by side, so one multiply-add updates both: mv <- B * mv + C * [g, g²].
        self.mv = np.zeros(2 * self.size)                                      # (2P,)
        self.gg = np.zeros(2 * self.size)                                      # (2P,) [g, g²]
        self.B = np.repeat([self.beta1, self.beta2], self.size)                # (2P,)
        self.C = np.empty(2 * self.size)                                       # (2P,)
        self._scale = None
        self.tmp = np.empty(self.size)                                         # (P,)
        self.t = 0

    def _set_scale(self, scale):
        # Fold the gradient's scale into C: (1 - b1) * s * g and (1 - b2) * s² * g².
        self.C[:self.size] = (1.0 - self.beta1) * scale
        self.C[self.size:] = (1.0 - self.beta2) * scale * scale
        self._scale = scale

    def step(self, w, g, scale=1.0):
        if scale != self._scale:
            self._set_scale(scale)
        self.t += 1
        P, gg, mv, tmp = self.size, self.gg, self.mv, self.tmp
        gg[:P] = g
        np.square(g, out=gg[P:])
        gg *= self.C
        mv *= self.B
        mv += gg
        bc1 = 1.0 - self.beta1 ** self.t
        bc2 = 1.0 - self.beta2 ** self.t
        # lr/bc1 * m / (sqrt(v)/sqrt(bc2) + eps) = (lr sqrt(bc2)/bc1) * m / (sqrt(v) + eps sqrt(bc2))
        np.sqrt(mv[P:], out=tmp)
        tmp += self.eps * bc2 ** 0.5
        np.divide(mv[:P], tmp, out=tmp)
        tmp *= self.lr * bc2 ** 0.5 / bc1
        w -= tmp


OPTIMIZERS: dict[str, type] = {"sgd": SGD, "momentum": Momentum, "adam": Adam}

OPTIMIZER_INFO: dict[str, str] = {
    "sgd": "Plain gradient descent: a step of lr times the gradient.",
    "momentum": "Gradient descent with a running velocity (0.9): rolls through flat stretches.",
    "adam": "Adam: a per-weight step size from running averages of the gradient and its square.",
}


def make_optimizer(name, size, lr):
    """A fresh optimiser (zero moments) for a flat vector of `size` parameters."""
    if name not in OPTIMIZERS:
        raise ValueError(f"unknown optimiser {name!r}; choose one of {', '.join(OPTIMIZERS)}")
    return OPTIMIZERS[name](size, lr=lr)

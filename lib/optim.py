"""Optimisers on one flat parameter vector: SGD, momentum, Adam, as PyTorch defines them.

Each optimiser owns a gradient buffer ``g`` (1-D, one number per parameter) that the
trainer's backward pass writes into, and updates the weights ``w`` in place with no
allocation: at a few dozen parameters the cost of a step is the number of NumPy calls,
so each update is a handful of in-place ufuncs on preallocated buffers. ``scale``
multiplies the gradient first; the trainer hands over a summed gradient and
scale = 1/batch, which Adam folds into its constants at no cost.
"""

from __future__ import annotations

import numpy as np


class Optimizer:
    """Shared plumbing: the gradient buffer and the step counter."""

    name = ""

    def __init__(self, size, lr):
        self.size = int(size)
        self.lr = float(lr)
        self.g = np.zeros(self.size)                                           # (P,) gradient in
        self.t = 0                                                             # steps taken

    def step(self, w, g=None, scale=1.0):
        """Update w (P,) in place from the gradient g (P,) (default: the buffer self.g) times scale."""
        if g is not None and g is not self.g:
            self.g[:] = g  # never scribble on the caller's array
        self.t += 1
        self._update(w, self.g, float(scale))


class SGD(Optimizer):
    """w <- w - lr * g."""

    name = "sgd"

    def _update(self, w, g, scale):
        g *= self.lr * scale
        w -= g


class Momentum(Optimizer):
    """Heavy ball, PyTorch's form: v <- mu v + g (v = g on the first step); w <- w - lr v."""

    name = "momentum"

    def __init__(self, size, lr, mu=0.9):
        super().__init__(size, lr)
        self.mu = float(mu)
        self.v = np.zeros(self.size)                                           # (P,) velocity

    def _update(self, w, g, scale):
        if scale != 1.0:
            g *= scale
        if self.t == 1:
            self.v[:] = g
        else:
            self.v *= self.mu
            self.v += g
        np.multiply(self.v, self.lr, out=g)
        w -= g


class Adam(Optimizer):
    """Adam (Kingma and Ba, 2015) with PyTorch's defaults and bias correction.

    m <- b1 m + (1 - b1) g;   v <- b2 v + (1 - b2) g²;
    w <- w - lr / (1 - b1^t) * m / (sqrt(v / (1 - b2^t)) + eps).
    """

    name = "adam"

    def __init__(self, size, lr, beta1=0.9, beta2=0.999, eps=1e-8):
        super().__init__(size, lr)
        self.beta1, self.beta2, self.eps = float(beta1), float(beta2), float(eps)
        P = self.size
        # m and v side by side, so one multiply and one add update both: mv <- B mv + C [g, g²].
        self.mv = np.zeros(2 * P)                                              # (2P,) [m, v]
        self.gg = np.zeros(2 * P)                                              # (2P,) [g, g²]
        self.B = np.repeat([self.beta1, self.beta2], P)                        # (2P,)
        self.C = np.empty(2 * P)                                               # (2P,)
        self.tmp = np.empty(P)                                                 # (P,)
        self._scale = None
        self._views()

    def _views(self):
        P = self.size
        self.g, self.g2 = self.gg[:P], self.gg[P:]                             # the backward pass writes g
        self.m, self.v = self.mv[:P], self.mv[P:]

    def __getstate__(self):  # g, g2, m, v are views: a copy must view its own buffers
        return {k: v for k, v in self.__dict__.items() if k not in ("g", "g2", "m", "v")}

    def __setstate__(self, state):
        self.__dict__.update(state)
        self._views()

    def _update(self, w, g, scale):
        gg, mv, tmp = self.gg, self.mv, self.tmp
        if scale != self._scale:
            # Fold the gradient's scale s into C: (1 - b1) s g and (1 - b2) s² g².
            P = self.size
            self.C[:P] = (1.0 - self.beta1) * scale
            self.C[P:] = (1.0 - self.beta2) * scale * scale
            self._scale = scale
        np.square(g, self.g2)  # out= positionally: NumPy parses it faster than the keyword
        gg *= self.C
        mv *= self.B
        mv += gg
        bc1 = 1.0 - self.beta1 ** self.t
        root_bc2 = (1.0 - self.beta2 ** self.t) ** 0.5
        # lr/bc1 * m / (sqrt(v)/sqrt(bc2) + eps) = (lr sqrt(bc2) / bc1) * m / (sqrt(v) + eps sqrt(bc2))
        np.sqrt(self.v, tmp)
        tmp += self.eps * root_bc2
        np.divide(self.m, tmp, tmp)
        tmp *= self.lr * root_bc2 / bc1
        w -= tmp


OPTIMIZERS: dict[str, type] = {"sgd": SGD, "momentum": Momentum, "adam": Adam}
OPT_NAMES = {"sgd": "SGD", "momentum": "SGD with momentum", "adam": "Adam"}   # what a menu shows

def make_optimizer(name, size, lr):
    """A fresh optimiser (zero moments) for a flat vector of `size` parameters."""
    if name not in OPTIMIZERS:
        raise ValueError(f"unknown optimiser {name!r}; choose one of {', '.join(OPTIMIZERS)}")
    return OPTIMIZERS[name](size, lr)


class L1Orthant:
    """An L1 penalty l1 * sum|w| that leaves weights at exactly zero, for any optimiser (OWL-QN's rule).

    The subgradient l1 * sign(w) alone makes a small weight hop across zero at every step
    and never rest there. Andrew and Gao (2007, "Scalable training of L1-regularized
    log-linear models") instead hand the optimiser a pseudo-gradient and keep each step inside
    the weight's orthant:

    - where w != 0: g + l1 * sign(w), the ordinary gradient of the penalised loss;
    - where w == 0: g moved towards 0 by l1 (g - l1 if g > l1, g + l1 if g < -l1, else 0):
      the penalty's one-sided slopes, so a weight stays at 0 while |g| <= l1;
    - after the step, a weight that crossed zero, or moved off zero against its pseudo-
      gradient, is set to exactly 0.

    Call ``pseudo_gradient(w, g, l1)`` before the optimiser's step and ``clip(w)`` after it.
    `mask` (P,) is 1 where the penalty applies (weights) and 0 where it does not (biases).
    """

    def __init__(self, mask):
        self.mask = np.asarray(mask, dtype=float)                              # (P,)
        self.xi = np.zeros_like(self.mask)                                     # (P,) the orthant: -1, 0, +1
        self.tmp = np.empty_like(self.mask)                                    # (P,)
        self.penalised = self.mask != 0                                        # (P,) bool

    def pseudo_gradient(self, w, g, l1):
        """Turn the gradient g (P,) of the unpenalised loss into the pseudo-gradient, in place."""
        xi, tmp = self.xi, self.tmp
        np.sign(w, out=xi)
        xi *= self.mask                                                        # 0 for biases and zero weights
        np.multiply(xi, l1, out=tmp)
        g += tmp                                                               # + l1 sign(w)
        at_zero = np.flatnonzero(self.penalised & (w == 0.0))
        if at_zero.size:
            gz = g[at_zero]
            pg = gz - np.clip(gz, -l1, l1)                                     # shrunk towards 0 by l1
            g[at_zero] = pg
            xi[at_zero] = -np.sign(pg)                                         # where a step may go

    def clip(self, w):
        """After the step: weights (P,) outside their orthant become exactly 0."""
        np.sign(w, out=self.tmp)
        w[self.penalised & (self.tmp != self.xi)] = 0.0

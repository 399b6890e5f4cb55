"""One step of gradient descent on /stacking's mini network, written out: forward, the chain rule for
every parameter with its factors, central differences beside it, and k steps.

The network is lib.recipe.mini_network's: y_hat = f(f(x W1 + b1) W2 + b2), the bend f after both layers,
loss (y_hat - y)^2 on one example. lib.mlp's loss_and_grads cannot serve here: its heads (sigmoid,
softmax, linear) have no bend on the output and average a batch; this network bends its output and
the page needs each factor of the chain rule, not only the product. The forward pass is shared
(mini_network); the test checks these gradients against lib.mlp's where the two networks agree (an
output neuron that is on, so its ReLU passes the sum unchanged, and a linear head).

Shapes: x (3,), W1 (3, 2), b1 (2,), W2 (2, 1), b2 (1,); in general n_in, n_hid and one output.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from lib.activations import ACTIVATIONS
from lib.recipe import mini_network

NAMES = ("W1", "b1", "W2", "b2")
BLOWUP = 1e6    # a loss past this (or not finite) ends the steps: the rate is too large


@dataclass(frozen=True)
class Explained:
    """Every number of one forward and backward pass."""

    z1: np.ndarray      # (n_hid,) each hidden neuron's sum
    h1: np.ndarray      # (n_hid,) after the bend
    z2: float           # the output neuron's sum
    y_hat: float        # after the bend
    loss: float         # (y_hat - y)^2
    dy: float           # dloss/dy_hat = 2 (y_hat - y)
    slope2: float       # f'(z2): the output bend's slope
    delta2: float       # dloss/dz2 = dy * f'(z2)
    slope1: np.ndarray  # (n_hid,) f'(z1)
    delta1: np.ndarray  # (n_hid,) dloss/dz1_j = delta2 * W2[j] * f'(z1_j)
    grads: dict         # name -> array shaped like the parameter

    @property
    def dead(self) -> list[int]:
        """Hidden neurons that pass no gradient for this input (their bend is flat at their sum)."""
        return [j for j, s in enumerate(self.slope1) if s == 0.0]


def explain(x, W1, b1, W2, b2, y: float, bend: str = "relu") -> Explained:
    """Forward and backward through the mini network, every factor kept."""
    x, W1, b1 = np.asarray(x, float), np.asarray(W1, float), np.asarray(b1, float)
    W2, b2 = np.asarray(W2, float), np.asarray(b2, float)
    z1, h1, z2, y_hat = mini_network(x, W1, b1, W2, b2, bend)
    grad = ACTIVATIONS[bend].grad
    dy = 2.0 * (float(y_hat[0]) - float(y))
    slope2 = float(grad(z2)[0])
    delta2 = dy * slope2
    slope1 = np.asarray(grad(z1), dtype=float)             # (n_hid,)
    delta1 = delta2 * W2[:, 0] * slope1                    # (n_hid,)
    grads = {"W1": np.outer(x, delta1), "b1": delta1.copy(),
             "W2": (delta2 * h1)[:, None], "b2": np.array([delta2])}
    return Explained(z1, h1, float(z2[0]), float(y_hat[0]), (float(y_hat[0]) - float(y)) ** 2, dy, slope2,
                     delta2, slope1, delta1, grads)


def loss_of(params: dict, x, y: float, bend: str = "relu") -> float:
    _, _, _, y_hat = mini_network(np.asarray(x, float), *(params[n] for n in NAMES), bend)
    return float((y_hat[0] - y) ** 2)


def central(params: dict, x, y: float, bend: str = "relu", eps: float = 1e-6) -> dict:
    """Each parameter's gradient estimated by central differences: (L(p + eps) - L(p - eps)) / 2 eps."""
    out = {}
    for name in NAMES:
        P = np.asarray(params[name], dtype=float)
        g = np.zeros_like(P)
        for idx in np.ndindex(P.shape):
            up = {k: np.array(v, dtype=float) for k, v in params.items()}
            down = {k: np.array(v, dtype=float) for k, v in params.items()}
            up[name][idx] += eps
            down[name][idx] -= eps
            g[idx] = (loss_of(up, x, y, bend) - loss_of(down, x, y, bend)) / (2 * eps)
        out[name] = g
    return out


def step(params: dict, x, y: float, lr: float, bend: str = "relu") -> dict:
    """One step of gradient descent: every parameter minus lr times its gradient."""
    e = explain(x, *(params[n] for n in NAMES), y, bend)
    return {n: np.asarray(params[n], float) - lr * e.grads[n] for n in NAMES}


def steps(params: dict, x, y: float, lr: float, k: int, bend: str = "relu") -> tuple[dict, list[float]]:
    """k steps from `params`: the parameters after them and the loss before each and after the last
    (k + 1 numbers). A step whose loss blows up (past BLOWUP, or not finite) is not taken and the steps
    end there: fewer than k + 1 losses say so."""
    p = {n: np.asarray(params[n], float) for n in NAMES}
    losses = [loss_of(p, x, y, bend)]
    with np.errstate(all="ignore"):
        for _ in range(int(k)):
            nxt = step(p, x, y, lr, bend)
            loss = loss_of(nxt, x, y, bend)
            if not (np.isfinite(loss) and loss <= BLOWUP and all(np.isfinite(v).all() for v in nxt.values())):
                break
            p = nxt
            losses.append(loss)
    return p, losses

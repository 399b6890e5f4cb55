"""The ring network: 2 inputs -> 3 ReLU units -> 1 output, an inner disc against an outer ring.

Each hidden unit is a ramp over the plane, ReLU(x . w_j + b_j): zero on one side of its fold
line x . w_j + b_j = 0, rising steadily on the other. The output adds the three ramps with
weights W2 and a bias; where that sum is above 0 the network says "inner disc". Three ramps
that rise outwards in three directions, subtracted from a constant, leave a closed region
around the centre: the ring is carved out of the plane.

Switch the bend off and the same weights are two linear layers, which collapse to one
(lib.layers.collapse): one straight boundary, and no straight line separates a disc from a
ring around it (`best_line_accuracy` measures how close one can get).

Everything is NumPy; the training run below is this file's own (plain gradient descent with
Adam on mean binary cross-entropy), independent of the trainer lesson's lib.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy.special import expit

INNER, OUTER = 1, 0          # class labels: the disc is class 1 (blue), the ring class 0 (amber)
R_DISC = 1.0                 # inner points lie within this radius
R_RING = (2.0, 3.0)          # outer points lie between these radii
BOX = 3.4                    # charts show [-BOX, BOX]^2


@dataclass(frozen=True)
class RingNet:
    W1: np.ndarray   # (2, 3) column j is hidden unit j's input weights
    b1: np.ndarray   # (3,)
    W2: np.ndarray   # (3, 1) how much each ramp counts in the output
    b2: np.ndarray   # (1,)

    def params(self) -> list[np.ndarray]:
        return [self.W1, self.b1, self.W2, self.b2]


# Hand-made: three ramps facing up, lower left and lower right (steepness 4, and about 4.03 for
# the two lower ones), each switching on about 0.5 from the centre, so inside the triangle their
# fold lines make nothing is on. The output starts at +3 and subtracts the ramps: it stays above 0
# out to between about 1.25 (facing a ramp) and 1.75 (between two), which is between the disc
# (r <= 1) and the ring (r >= 2). The numbers are short decimals, so a link carries them exactly.
# Because the three directions add to zero, W1 @ W2 = 0: without the bend this net is a constant.
HAND = RingNet(
    W1=np.array([[0.0, -3.5, 3.5],
                 [4.0, -2.0, -2.0]]),                                # (2, 3)
    b1=np.full(3, -2.0),                                             # (3,)
    W2=-np.ones((3, 1)),                                             # (3, 1)
    b2=np.array([3.0]),                                              # (1,)
)


def make_ring(n: int = 300, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """Half the points uniform in the disc r <= R_DISC (class 1), half in the ring R_RING (class 0).

    Returns X (n, 2) and y (n,) int in {0, 1}.
    """
    rng = np.random.default_rng(seed)
    n_in = n // 2
    n_out = n - n_in
    # Uniform in area: radius from the square root of a uniform number.
    r_in = R_DISC * np.sqrt(rng.uniform(0.0, 1.0, n_in))                  # (n_in,)
    r_out = np.sqrt(rng.uniform(R_RING[0] ** 2, R_RING[1] ** 2, n_out))   # (n_out,)
    angle = rng.uniform(0.0, 2.0 * np.pi, n)                              # (n,)
    r = np.concatenate([r_in, r_out])                                     # (n,)
    X = np.stack([r * np.cos(angle), r * np.sin(angle)], axis=1)          # (n, 2)
    y = np.concatenate([np.full(n_in, INNER), np.full(n_out, OUTER)])     # (n,)
    return X, y


# --- forward beside backward ----------------------------------------------------------------

def forward(net: RingNet, X, bend: bool = True):
    """The network on points X (n, 2).

    Returns z (n, 3) the hidden sums, h (n, 3) the ramps (h = z without the bend), and the
    output logit (n,): above 0 means "inner disc".
    """
    z = np.asarray(X, dtype=float) @ net.W1 + net.b1          # (n, 3)
    h = np.maximum(z, 0.0) if bend else z                     # (n, 3)
    out = (h @ net.W2 + net.b2)[:, 0]                         # (n,)
    return z, h, out


def loss_and_grads(net: RingNet, X, y, bend: bool = True):
    """Mean binary cross-entropy of sigmoid(logit) against y, and its gradient for every weight.

    Returns (loss, [dW1 (2, 3), db1 (3,), dW2 (3, 1), db2 (1,)]).
    """
    X, y = np.asarray(X, dtype=float), np.asarray(y, dtype=float)
    z, h, out = forward(net, X, bend)
    n = X.shape[0]
    # BCE from the logit, written so large |logit| cannot overflow.
    loss = float(np.mean(np.logaddexp(0.0, out) - y * out))
    d_out = (expit(out) - y)[:, None] / n                     # (n, 1)
    dW2 = h.T @ d_out                                         # (3, 1)
    db2 = d_out.sum(axis=0)                                   # (1,)
    d_h = d_out @ net.W2.T                                    # (n, 3)
    d_z = d_h * (z > 0) if bend else d_h                      # (n, 3): ReLU' is 0 at the kink
    dW1 = X.T @ d_z                                           # (2, 3)
    db1 = d_z.sum(axis=0)                                     # (3,)
    return loss, [dW1, db1, dW2, db2]


def predict(net: RingNet, X, bend: bool = True) -> np.ndarray:
    """Class per point, (n,) int: 1 (inner disc) where the logit is above 0."""
    return (forward(net, X, bend)[2] > 0).astype(int)


def accuracy(net: RingNet, X, y, bend: bool = True) -> float:
    """Fraction of points classified correctly."""
    return float(np.mean(predict(net, X, bend) == np.asarray(y)))


def train_ring(X, y, seed: int = 0, steps: int = 600, lr: float = 0.08,
               restarts: int = 3) -> tuple[RingNet, list[float]]:
    """A quick full-batch training run (Adam) of the 2 -> 3 -> 1 ReLU network.

    Three units is the fewest that can close a region in the plane, and from some starts
    gradient descent leaves a unit dead; so it trains from `restarts` seeds and keeps the
    run with the lowest final loss. Deterministic for a given seed.

    Returns the trained net and that run's loss curve (one value per step).
    """
    best: tuple[float, RingNet, list[float]] | None = None
    for r in range(restarts):
        rng = np.random.default_rng(seed * 1000 + r)
        params = [rng.normal(0.0, 1.0, (2, 3)),               # (2, 3) He-like scale for 2 inputs
                  rng.uniform(0.1, 0.5, 3),                    # (3,) small positive: units start alive
                  rng.normal(0.0, 0.8, (3, 1)),                # (3, 1)
                  np.zeros(1)]                                 # (1,)
        m = [np.zeros_like(p) for p in params]
        v = [np.zeros_like(p) for p in params]
        history = []
        for t in range(1, steps + 1):
            loss, grads = loss_and_grads(RingNet(*params), X, y)
            history.append(loss)
            for i, g in enumerate(grads):
                m[i] = 0.9 * m[i] + 0.1 * g
                v[i] = 0.999 * v[i] + 0.001 * g * g
                m_hat, v_hat = m[i] / (1 - 0.9 ** t), v[i] / (1 - 0.999 ** t)
                params[i] = params[i] - lr * m_hat / (np.sqrt(v_hat) + 1e-8)
        final = loss_and_grads(RingNet(*params), X, y)[0]
        if best is None or final < best[0]:
            best = (final, RingNet(*params), history)
    return best[1], best[2]


# --- geometry for the charts ----------------------------------------------------------------

def line_distance(w, b: float) -> float:
    """Distance from the centre to the line x . w + b = 0 (inf when w is zero)."""
    norm = float(np.linalg.norm(w))
    return abs(float(b)) / norm if norm > 1e-12 else float("inf")


def best_line_accuracy(X, y, n_angles: int = 720) -> float:
    """The best accuracy any straight boundary reaches on (X, y), by brute force.

    For each of n_angles directions, sort the points along it and try every cut between
    neighbours, with either side as class 1. An independent measure of what the bendless
    network could reach with any weights at all.
    """
    X, y = np.asarray(X, dtype=float), np.asarray(y)
    n = len(y)
    best = 0.0
    for a in np.linspace(0.0, np.pi, n_angles, endpoint=False):   # the other half is the flip
        proj = X @ np.array([np.cos(a), np.sin(a)])               # (n,)
        ys = y[np.argsort(proj, kind="stable")]                   # (n,)
        # Points at or below the cut called class 0, above it class 1: correct counts per cut.
        zeros_below = np.concatenate([[0], np.cumsum(ys == 0)])   # (n + 1,)
        ones_above = np.concatenate([[0], np.cumsum(ys[::-1] == 1)])[::-1]  # (n + 1,)
        correct = zeros_below + ones_above                        # (n + 1,)
        best = max(best, correct.max() / n, (n - correct.min()) / n)
    return float(best)

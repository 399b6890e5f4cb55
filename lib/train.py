"""Training loop for the live trainer: a Trainer holds a network, its optimiser and history.

The page calls ``run_for(seconds)`` several times a second; each call trains as many whole
epochs as fit. A loss that stops being finite ends training for good (until ``reset``)
with the last finite weights kept.

One Trainer trains one of three heads (lib.mlp.HEADS): ``sigmoid`` for two classes,
``softmax`` for k classes, ``linear`` for a value per point; ``metrics()`` reports what fits
the head (accuracy for classes, R² and mean absolute error for values, the loss for all).
``twin(**changes)`` builds a second Trainer on the same data from the same initial weights.
"""

from __future__ import annotations

import base64
import json
import math
import time
from dataclasses import asdict, dataclass, fields

import numpy as np
from scipy.special import expit

from lib.activations import ACTIVATIONS, EXP_FLOOR, LEAKY_SLOPE
from lib.mlp import (
    HEADS,
    augmented_views,
    flatten,
    forward,
    init_params,
    layer_views,
    param_total,
    predict_proba,
    weight_mask,
)
from lib.optim import OPTIMIZERS, L1Orthant, make_optimizer

MAX_LINK_PARAMS = 400  # weights in a share link: 400 float32 numbers are about 2,100 URL characters
MAX_CLASSES = 10       # softmax outputs a Trainer accepts (the page offers 3 to 5)
MAX_FILE_PARAMS = 20_000   # parameters a weights file may hold (6 layers of 32 units are about 5,500)
MAX_FILE_BYTES = 2_000_000  # JSON text of a weights file (20,000 numbers at 25 characters each, and some)
FORMAT = "layer-lab-mlp/1"  # to_dict's format tag; files without head, l1 or classes are two-class files
# What a weights file may say, field by field (the page makes far less; a file is anyone's text, and what it
# says travels on to the page's controls, the class store and the board, so every field is bounded here).
FILE_LAYERS = 8            # hidden layers (the page builds up to 6)
FILE_UNITS = 256           # units in one hidden layer (the page builds up to 32; MAX_FILE_PARAMS caps all)
MAX_EPOCH = 10**9          # an hour at 20,000 epochs a second is 72 million
MAX_SEED = 2**32 - 1       # NumPy's seeds
MAX_RATE = 100.0           # learning rate (the page offers up to 10)
MAX_PENALTY = 100.0        # L1 and L2 (the page offers up to 10)
MAX_BATCH = 100_000        # points per step (0: all; a class's data has at most a few thousand)
NAME_CHARS = 32            # a bend's, an optimiser's or a head's name

# What each head's network is, in the words a message to a student uses.
HEAD_WORDS = {"sigmoid": "two classes", "softmax": "several classes", "linear": "a value per point"}


@dataclass
class TrainConfig:
    hidden: tuple[int, ...] = (8,)   # units per hidden layer; () = no hidden layer (a linear model)
    act: str = "relu"                # the bend after every hidden layer, a key of ACTIVATIONS
    opt: str = "adam"                # a key of OPTIMIZERS
    lr: float = 0.03                 # learning rate
    batch: int = 0                   # points per step; 0 = full batch (one step per epoch)
    l2: float = 0.0                  # weight of the penalty 0.5 * l2 * sum(W**2)
    seed: int = 0                    # initial weights and mini-batch order
    head: str = "sigmoid"            # a key of lib.mlp.HEADS: sigmoid, softmax or linear
    l1: float = 0.0                  # weight of the penalty l1 * sum(|W|) (see Trainer: exact zeros)
    classes: int = 0                 # softmax outputs; 0 = 1 + the largest label (ignored by other heads)


def check_config(cfg):
    """Raise ValueError with a one-line reason if cfg cannot be trained."""
    if any(int(u) < 1 for u in cfg.hidden):
        raise ValueError("every hidden layer needs at least 1 unit")
    if cfg.act not in ACTIVATIONS:
        raise ValueError(f"unknown activation {cfg.act!r}")
    if cfg.opt not in OPTIMIZERS:
        raise ValueError(f"unknown optimiser {cfg.opt!r}")
    if not (math.isfinite(cfg.lr) and cfg.lr > 0):
        raise ValueError("the learning rate must be a positive number")
    if int(cfg.batch) < 0:
        raise ValueError("the batch size must be 0 (full batch) or more")
    if not (math.isfinite(cfg.l2) and cfg.l2 >= 0):
        raise ValueError("L2 must be a number >= 0")
    if not (math.isfinite(cfg.l1) and cfg.l1 >= 0):
        raise ValueError("L1 must be a number >= 0")
    if cfg.head not in HEADS:
        raise ValueError(f"unknown head {cfg.head!r}; choose one of {', '.join(HEADS)}")
    if cfg.head == "softmax" and not (cfg.classes == 0 or 2 <= cfg.classes <= MAX_CLASSES):
        raise ValueError(f"a softmax network needs 2 to {MAX_CLASSES} classes")


def metric_keys(head):
    """The names metrics() and history carry for this head, "epoch" first."""
    if head == "linear":
        return ("epoch", "train_loss", "test_loss", "train_r2", "test_r2", "train_mae", "test_mae")
    return HISTORY_KEYS


def targets(y, head, k=1):
    """Labels as the fast path wants them, one point per column.

    Returns
    -------
    sigmoid: (1, m) s = 1 - 2y (+1 for class 0, -1 for class 1); softmax: (k, m) one-hot;
    linear: (1, m) the targets y
    """
    y = np.asarray(y, dtype=float).reshape(-1)
    if head == "sigmoid":
        return (1.0 - 2.0 * y)[None, :]                                        # (1, m)
    if head == "softmax":
        return (np.arange(k)[:, None] == y[None, :].astype(int)).astype(float)  # (k, m)
    return y[None, :].copy()                                                   # (1, m)


# --- the fast path -------------------------------------------------------------------------
# At 400 points and 33 weights the arithmetic is nothing; what costs is the number of NumPy
# calls and allocations. So the engine keeps every array of a pass preallocated, writes
# with out=, lays activations out as (units, points) so each layer is one contiguous matmul
# with the bias folded in (a row of ones under every layer's input), and writes ReLU's 0/1
# mask straight into a float buffer (ReLU(z) = z * mask, and the mask is also its slope).
# Measured on the 2-8-1 network with 400 points: about 14 NumPy calls and 12 us per forward
# and backward, 9 calls and 4 us per Adam step. lib.mlp is the readable reference; tests
# hold the two equal.

# The output pass leaves FACTOR[head] times the gradient summed over the points in G (the
# optimiser's scale takes 1 / (FACTOR * m) at no cost): sigmoid's t is 2 (p - y), softmax's
# P - Y, linear's out - y, half of d(out - y)²/dout.
FACTOR = {"sigmoid": 2.0, "softmax": 1.0, "linear": 0.5}


class Workspace:
    """Preallocated buffers for a pass over m points through a network of the given widths.

    Attributes
    ----------
    XT : (n_in + 1, m) the input, one point per column, with a row of ones at the bottom
    s : the targets (see `targets`): sigmoid (1, m) 1 - 2y; softmax (k, m) one-hot; linear (1, m) y
    Z : per hidden layer, (units, m) sums before the bend
    H : per hidden layer, (units + 1, m) after the bend, with a row of ones at the bottom
    D : per hidden layer, (units, m) the bend's derivative at Z
    z : (n_out, m) the last layer's sums
    t : (n_out, m) FACTOR[head] * dloss/dz per point
    factor : FACTOR[head]
    """

    def __init__(self, sizes, m, head="sigmoid"):
        self.m = m = int(m)
        self.head = head
        self.factor = FACTOR[head]
        k = self.k = int(sizes[-1])
        self.XT = np.ones((sizes[0] + 1, m))                                   # (n_in + 1, m)
        self.s = np.empty((k if head == "softmax" else 1, m))                  # (k or 1, m)
        self.s2 = np.empty((1, m))                                             # (1, m) 2 s (sigmoid)
        hidden = sizes[1:-1]
        self.Z = [np.empty((u, m)) for u in hidden]                            # (u, m) each
        self.H = [np.ones((u + 1, m)) for u in hidden]                         # (u + 1, m) each
        self.D = [np.empty((u, m)) for u in hidden]                            # (u, m) each
        self.dH = [np.empty((u, m)) for u in hidden]                           # (u, m) each
        self.z = np.empty((k, m))                                              # (k, m) logits
        self.L = np.empty((1, m))                                              # (1, m) scratch
        self.R = np.empty((1, m))                                              # (1, m) scratch
        self.ones = np.ones(m)                                                 # (m,) a sum as a dot product
        # XT * t, one input row times dloss/dlogit per point; its last row (ones times t) is t itself.
        self.XTt = np.empty_like(self.XT)                                      # (n_in + 1, m)
        if k > 1:
            self.T = np.empty((k, m))                                          # (k, m) t for k outputs
            self.E = np.empty((k, m))                                          # (k, m) shifted logits, exp
            self.ones_k = np.ones(k)                                           # (k,)
        self._views()

    def _views(self):
        self.Hv = [H[:-1] for H in self.H]                                     # (u, m) views: the bent part
        self.t = self.XTt[-1:] if self.k == 1 else self.T                      # (n_out, m)

    def __getstate__(self):  # copies and pickles rebuild the views into their own buffers
        return {k: v for k, v in self.__dict__.items() if k not in ("Hv", "t")}

    def __setstate__(self, state):
        self.__dict__.update(state)
        self._views()

    def load(self, XT, s):
        """Copy data in: XT (n_in + 1, m) with its ones row, s the targets (see `targets`)."""
        self.XT[:] = XT
        self.s[:] = s
        if self.head == "sigmoid":
            np.multiply(s, 2.0, out=self.s2)


def _bend(name, f, Z, Hv, D):
    """Hv = f(Z) and D = f'(Z), in place; returns D, or None for the identity (nothing to multiply).

    The forward and the derivative sit together because each reuses the other's work.
    """
    if name == "relu":
        np.greater(Z, 0.0, out=D)                                              # ReLU' = 1 where z > 0
        np.multiply(Z, D, out=Hv)                                              # ReLU(z) = z * ReLU'(z)
        return D
    if name == "identity":
        np.copyto(Hv, Z)
        return None
    if name == "tanh":
        np.tanh(Z, out=Hv)
        np.square(Hv, out=D)
        np.subtract(1.0, D, out=D)                                             # tanh' = 1 - tanh²
        return D
    if name == "sigmoid":
        expit(Z, out=Hv)
        np.subtract(1.0, Hv, out=D)
        D *= Hv                                                                # sigma' = sigma (1 - sigma)
        return D
    if name == "leaky_relu":
        np.greater(Z, 0.0, out=D)
        D *= 1.0 - LEAKY_SLOPE
        D += LEAKY_SLOPE                                                       # 1 above zero, the slope below
        np.multiply(Z, D, out=Hv)                                              # leaky(z) = z * leaky'(z)
        return D
    if name == "elu":
        np.clip(Z, EXP_FLOOR, 0.0, out=D)
        np.expm1(D, out=Hv)                                                    # e^z - 1 below zero, 0 above
        np.add(Hv, 1.0, out=D)                                                 # ELU' = e^min(z, 0)
        np.maximum(Hv, Z, out=Hv)                                              # z above zero (e^z - 1 >= z)
        return D
    if name == "softplus":  # max(z, 0) + log(1 + e^-|z|), as lib.activations
        np.abs(Z, out=Hv)
        np.negative(Hv, out=Hv)
        np.maximum(Hv, EXP_FLOOR, out=Hv)                                      # exp's slow subnormal road
        np.exp(Hv, out=Hv)
        np.log1p(Hv, out=Hv)
        np.maximum(Z, 0.0, out=D)
        Hv += D
        expit(Z, out=D)                                                        # softplus' = sigma
        return D
    if name == "sine":
        np.sin(Z, out=Hv)
        np.cos(Z, out=D)
        return D
    Hv[:] = f.fn(Z)
    D[:] = f.grad(Z)
    return D


def _output_sigmoid(ws, with_loss):
    """From the logits ws.z, fill ws.t = 2 (p - y) (dloss/dlogit, times 2); return the check value.

    with_loss: the summed cross-entropy; without: the sum of the logits, which is finite exactly
    when every logit is (the cheap test that training has not blown up).
    """
    z, t, s = ws.z, ws.t, ws.s
    if with_loss:
        # Each point's cross-entropy is log(1 + e) with e = exp(s z); their sum is the log of
        # the product of the (1 + e), and from the same 1 + e, 2 (p - y) = 2s - 2s / (1 + e).
        # Two cheap calls instead of a log per point; accurate to about 1e-16 per point. The
        # product overflows only when the mean loss passes 709 / n: then the exact slow road.
        L, R = ws.L, ws.R
        np.multiply(z, s, out=L)
        np.exp(L, out=L)
        np.add(L, 1.0, out=R)                                                  # (1, m) 1 + e
        product = float(np.multiply.reduce(R[0]))
        if 0.0 < product < math.inf:
            check = math.log(product)
        else:
            check = float(np.logaddexp(0.0, z * s).sum())
        np.divide(ws.s2, R, out=L)
        np.subtract(ws.s2, L, out=t)                                           # (1, m) 2 (p - y)
        return check
    # p - y = (tanh(z / 2) + 1) / 2 - y = (tanh(z / 2) + s) / 2: one transcendental call, no overflow.
    np.multiply(z, 0.5, out=t)
    np.tanh(t, out=t)
    np.add(t, s, out=t)                                                        # (1, m) 2 (p - y)
    return float(np.dot(z[0], ws.ones))


def _output_softmax(ws, with_loss):
    """From the logits ws.z (k, m), fill ws.t = P - Y; return the summed cross-entropy or a check value.

    The logits are shifted by their column maximum first, so exp never overflows (and floored at
    EXP_FLOOR, so it never underflows either: P is off by at most k e^-700, nothing); the check
    value (without the loss) is the sum of the softmax denominators, each in [1, k], finite
    exactly when every logit is.
    """
    z, E, S, t, Y = ws.z, ws.E, ws.L, ws.t, ws.s
    np.maximum.reduce(z, 0, None, ws.R[0])                                     # (m,) each point's max logit
    np.subtract(z, ws.R, out=E)                                                # (k, m) logits - max <= 0
    if with_loss:
        picked = float(np.vdot(E, Y))  # sum over points of the true class's shifted logit
    # Below -700, e^x is 0 for every purpose but exp turns 30 times slower (subnormal results), and a
    # network trained for long is sure of most points: floor the exponents first.
    np.maximum(E, EXP_FLOOR, out=E)
    np.exp(E, out=E)
    np.dot(ws.ones_k, E, out=S[0])                                             # (m,) softmax denominators
    np.divide(E, S, out=t)                                                     # (k, m) P
    np.subtract(t, Y, out=t)                                                   # (k, m) P - Y
    if with_loss:  # CE = log(sum exp(z - max)) - (z_y - max), summed over points
        np.log(S, out=S)
        return float(np.dot(S[0], ws.ones)) - picked
    return float(np.dot(S[0], ws.ones))


def _output_linear(ws, with_loss):
    """From the outputs ws.z (1, m), fill ws.t = out - y; return the summed squared error or its sum."""
    t = ws.t
    np.subtract(ws.z, ws.s, out=t)                                             # (1, m) out - y
    if with_loss:
        return float(np.dot(t[0], t[0]))
    return float(np.dot(t[0], ws.ones))


_OUTPUTS = {"sigmoid": _output_sigmoid, "softmax": _output_softmax, "linear": _output_linear}


def kernel(ws, A, G, act, with_loss=False):
    """One forward and backward pass over the workspace's points; the summed gradient goes into G.

    Parameters
    ----------
    ws : Workspace, data loaded (its head decides the output and the loss)
    A : list of (n_out, n_in + 1) views [W.T | b] into the weights (lib.mlp.augmented_views)
    G : list of the same shapes, views into the gradient buffer; receives
        ws.factor * sum over points of dloss_i/dparams (the factor and the 1/m are left to
        the optimiser's scale, which costs nothing there)
    act : str, a key of ACTIVATIONS
    with_loss : bool
        True: return the summed loss (cross-entropy, or squared error for the linear head).
        False: return a sum that is finite exactly when every output is, the cheap check
        that training has not blown up.

    Notes
    -----
    np.dot rather than np.matmul (or @): at these sizes its dispatch is measurably cheaper.
    """
    f = ACTIVATIONS[act]
    inp = ws.XT
    D = []
    last = len(A) - 1
    for k in range(last):
        np.dot(A[k], inp, out=ws.Z[k])                                         # (u, m)
        D.append(_bend(act, f, ws.Z[k], ws.Hv[k], ws.D[k]))
        inp = ws.H[k]                                                          # (u + 1, m)
    np.dot(A[last], inp, out=ws.z)                                             # (n_out, m) logits
    check = _OUTPUTS[ws.head](ws, with_loss)
    t = ws.t                                                                   # (n_out, m) factor * dloss/dz
    np.dot(t, inp.T, out=G[last])                                              # (n_out, u + 1)
    one_out = ws.k == 1
    if last == 1 and D[0] is not None and one_out:
        # One hidden layer: G1[j] = w_j * sum_i D[j, i] t_i x_i, so scale the 2 input rows by t
        # (the ones row times t is t, already in place) rather than the 8 hidden rows, and
        # multiply by the weights w_j once at the end.
        np.multiply(ws.XT[:-1], t, out=ws.XTt[:-1])                            # (n_in, m)
        np.dot(D[0], ws.XTt.T, out=G[0])                                       # (u, n_in + 1)
        G[0] *= A[1][0, :-1, None]
        return check
    delta = t
    for k in range(last - 1, -1, -1):
        dH = ws.dH[k]
        if k == last - 1 and one_out:  # from a single output unit: an outer product, cheaper as a broadcast
            np.multiply(A[last][0, :-1, None], delta, out=dH)                  # (u, m)
        else:
            np.dot(A[k + 1][:, :-1].T, delta, out=dH)                          # (u, m) back through W
        if D[k] is not None:
            dH *= D[k]                                                         # through the bend
        delta = dH
        np.dot(delta, (ws.XT if k == 0 else ws.H[k - 1]).T, out=G[k])          # (u, n_in + 1)
    return check


def compile_pass(ws, A, G, act):
    """kernel(ws, A, G, act, with_loss) as a function of with_loss alone, specialised where it pays.

    For one ReLU hidden layer and two classes (the page's default network) every array, view and function is
    bound once into a closure, so a pass is 13 or 14 NumPy calls and almost no Python; the
    generic kernel's loop, lookups and dispatch cost as much again as a few of those calls.
    Other networks get the generic kernel's steps with every view made once (_compile_generic).
    Tests hold them all equal.
    """
    if not (len(A) == 2 and act == "relu" and ws.head == "sigmoid"):
        return _compile_generic(ws, A, G, act)
    A1, A2 = A
    G1, G2 = G
    XT, Z, D, Hv, H, z, t, s, s2, L, R = (ws.XT, ws.Z[0], ws.D[0], ws.Hv[0], ws.H[0], ws.z, ws.t, ws.s,
                                          ws.s2, ws.L, ws.R)
    w = A2[0, :-1, None]                                                       # (u, 1) output weights
    HT, XTin, XTt_in, XTtT, ones, R0 = H.T, XT[:-1], ws.XTt[:-1], ws.XTt.T, ws.ones, R[0]
    dot, mul, exp, tanh, add, divide, subtract, greater = (np.dot, np.multiply, np.exp, np.tanh, np.add,
                                                           np.divide, np.subtract, np.greater)
    prod, log, inf = np.multiply.reduce, math.log, math.inf

    def run(with_loss=False):
        # out= goes positionally (the third argument): NumPy parses it faster than the keyword.
        dot(A1, XT, Z)                                                         # (u, m)
        greater(Z, 0.0, D)                                                     # ReLU'
        mul(Z, D, Hv)                                                          # ReLU
        dot(A2, H, z)                                                          # (1, m) logits
        if with_loss:  # as _output
            mul(z, s, L)
            exp(L, L)
            add(L, 1.0, R)
            product = float(prod(R0))
            check = log(product) if 0.0 < product < inf else float(np.logaddexp(0.0, z * s).sum())
            divide(s2, R, L)
            subtract(s2, L, t)
        else:
            check = float(dot(z[0], ones))
            mul(z, 0.5, t)
            tanh(t, t)
            add(t, s, t)
        dot(t, HT, G2)                                                         # (1, u + 1)
        mul(XTin, t, XTt_in)                                                   # (n_in, m)
        dot(D, XTtT, G1)                                                       # (u, n_in + 1)
        mul(G1, w, G1)
        return check

    return run


def _compile_generic(ws, A, G, act):
    """kernel(ws, A, G, act, with_loss) with its views, buffers and functions bound once.

    The same calls in the same order as kernel (so the same numbers); what goes is the Python
    around them (index lookups, view making, branches), about a fifth of a 2-16-16-3 pass.
    """
    f = ACTIVATIONS[act]
    last = len(A) - 1
    one_out = ws.k == 1
    if last == 1 and act != "identity" and one_out:  # kernel's one-hidden-layer shortcut
        return lambda with_loss=False: kernel(ws, A, G, act, with_loss)
    inputs = [ws.XT, *ws.H]                                                    # layer k reads inputs[k]
    fwd = [(A[k], inputs[k], ws.Z[k], ws.Hv[k], ws.D[k]) for k in range(last)]
    inp_last, inp_last_T, z, t = inputs[last], inputs[last].T, ws.z, ws.t
    A_last, G_last = A[last], G[last]
    bwd = []
    for k in range(last - 1, -1, -1):
        back = A[last][0, :-1, None] if (k == last - 1 and one_out) else A[k + 1][:, :-1].T  # (u, 1), (u, v)
        bwd.append((k == last - 1 and one_out, back, ws.dH[k], act != "identity", ws.D[k], inputs[k].T, G[k]))
    output = _OUTPUTS[ws.head]
    dot, mul = np.dot, np.multiply

    def run(with_loss=False):
        for Ak, inp, Zk, Hvk, Dk in fwd:
            dot(Ak, inp, Zk)                                                   # (u, m)
            _bend(act, f, Zk, Hvk, Dk)
        dot(A_last, inp_last, z)                                               # (n_out, m)
        check = output(ws, with_loss)
        dot(t, inp_last_T, G_last)                                             # (n_out, u + 1)
        delta = t
        for outer, back, dH, bent, Dk, inT, Gk in bwd:
            if outer:
                mul(back, delta, dH)                                           # (u, m)
            else:
                dot(back, delta, dH)                                           # (u, m)
            if bent:
                dH *= Dk
            delta = dH
            dot(delta, inT, Gk)                                                # (u, n_in + 1)
        return check

    return run


HISTORY_KEYS = ("epoch", "train_loss", "test_loss", "train_acc", "test_acc")


def _record_every(epoch):
    """History thinning: every epoch up to 100, then every 10th up to 1,000, every 100th beyond ..."""
    return 1 if epoch < 100 else 10 ** (len(str(epoch)) - 2)


def _check_labels(y, head, k, where):
    """Raise ValueError unless the labels y (n,) fit the head (k = softmax outputs)."""
    if not np.isfinite(y).all():
        raise ValueError(f"some {where} targets are not finite numbers")
    if head == "sigmoid" and not np.isin(y, (0.0, 1.0)).all():
        raise ValueError(f"{where} labels must be 0 or 1 for two classes")
    if head == "softmax" and not (np.array_equal(y, np.round(y)) and (y >= 0).all() and (y < k).all()):
        raise ValueError(f"{where} labels must be whole numbers from 0 to {k - 1}")


class Trainer:
    """A network being trained on fixed data.

    Parameters
    ----------
    cfg : TrainConfig (its head decides what the labels are)
    Xtr : ndarray of shape (n_tr, d), features already expanded
    ytr : ndarray of shape (n_tr,): labels 0 and 1 (sigmoid), ints 0..k-1 (softmax) or values (linear)
    Xte : ndarray of shape (n_te, d), may have 0 rows
    yte : ndarray of shape (n_te,)
    start : ndarray of shape (P,), optional
        Initial weights in lib.mlp's flat layout (what reset returns to); None = init_params of cfg.seed.

    Attributes
    ----------
    sizes : list of int, [d, *hidden, n_out]; n_out is cfg.classes for softmax, else 1
    params : list of (W, b), views into the flat weight vector (they change as it trains)
    epoch : int, whole epochs trained
    keys : tuple of str, metric_keys(cfg.head): the names of metrics() and history
    history : dict of lists, keys `keys`; thinned (every epoch to 100, every 10th to
        1,000, ...) but always ending with the latest epoch
    diverged : str or None, the reason training stopped for good
    start_note : str, one line on where the initial weights came from (see twin)

    Notes
    -----
    L1 and exact zeros. The penalty l1 * sum|w| has the subgradient l1 * sign(w), and a plain
    step with it makes a weight hop back and forth across zero rather than stop there. So the
    trainer steps as OWL-QN does (Andrew and Gao, 2007), with any optimiser: the gradient
    handed to the optimiser is the pseudo-gradient (g + l1 sign(w) where w != 0; at w = 0,
    g shrunk towards 0 by l1, i.e. 0 when |g| <= l1, the data too weak to pull the weight out),
    and after the step every weight that crossed zero, or left zero against that
    pseudo-gradient, is set to exactly 0. lib.mlp.loss_and_grads still reports l1 * sign(w).
    """

    def __init__(self, cfg, Xtr, ytr, Xte, yte, start=None):
        cfg = TrainConfig(**asdict(cfg))
        cfg.hidden = tuple(int(u) for u in cfg.hidden)
        cfg.lr, cfg.l2, cfg.l1 = float(cfg.lr), float(cfg.l2), float(cfg.l1)
        cfg.batch, cfg.classes = int(cfg.batch), int(cfg.classes)
        check_config(cfg)
        self.Xtr = np.ascontiguousarray(Xtr, dtype=float)                      # (n_tr, d)
        if self.Xtr.ndim != 2 or len(self.Xtr) == 0:
            raise ValueError("need a 2-D array with at least one training point")
        self.ytr = np.asarray(ytr, dtype=float).reshape(-1)                    # (n_tr,)
        self.Xte = np.ascontiguousarray(Xte, dtype=float).reshape(-1, self.Xtr.shape[1])  # (n_te, d)
        self.yte = np.asarray(yte, dtype=float).reshape(-1)                    # (n_te,)
        if len(self.Xtr) != len(self.ytr) or len(self.Xte) != len(self.yte):
            raise ValueError("need one label per point")
        head = cfg.head
        if head == "softmax":
            if cfg.classes == 0:
                seen = np.concatenate([self.ytr, self.yte])
                cfg.classes = max(2, int(np.nanmax(seen)) + 1 if np.isfinite(seen).all() else 2)
                check_config(cfg)
            k = cfg.classes
        else:
            cfg.classes, k = 0, 1
        _check_labels(self.ytr, head, k, "training")
        _check_labels(self.yte, head, k, "test")
        self.cfg = cfg
        self.keys = metric_keys(head)
        self.sizes = [self.Xtr.shape[1], *cfg.hidden, k]
        n = len(self.Xtr)
        self._XT = np.vstack([self.Xtr.T, np.ones((1, n))])                    # (d + 1, n) ones for the bias
        self._s = targets(self.ytr, head, k)                                   # (k or 1, n)
        self._s2 = 2.0 * self._s                                               # sigmoid's 2 s
        self._full = Workspace(self.sizes, n, head)
        self._full.load(self._XT, self._s)
        self._test = None  # the test points in a workspace of their own, for metrics
        if len(self.Xte):
            self._test = Workspace(self.sizes, len(self.Xte), head)
            self._test.load(np.vstack([self.Xte.T, np.ones((1, len(self.Xte)))]), targets(self.yte, head, k))
        self._batches = {}
        self._passes = {}
        self._start = None
        if start is not None:
            start = np.array(start, dtype=float).reshape(-1)                   # (P,)
            if start.size != param_total(self.sizes) or not np.isfinite(start).all():
                raise ValueError(f"the initial weights must be {param_total(self.sizes)} finite numbers")
            self._start = start
        self.start_note = ("the initial weights given" if start is not None else
                           f"the initial weights drawn from seed {cfg.seed}")
        self.reset()

    # --- state -----------------------------------------------------------------------------
    def __getstate__(self):
        """Copies and pickles keep the data; views and compiled passes are rebuilt on the copy's buffers."""
        return {k: v for k, v in self.__dict__.items() if k not in ("params", "_A", "_G", "_passes")}

    def __setstate__(self, state):
        self.__dict__.update(state)
        self.params = layer_views(self.flat, self.sizes)
        self._A = augmented_views(self.flat, self.sizes)
        self._G = augmented_views(self.opt.g, self.sizes)
        self._passes = {}

    def initial_weights(self):
        """(P,) the weights reset() returns to (a copy)."""
        if self._start is not None:
            return self._start.copy()
        return flatten(init_params(self.sizes, self.cfg.seed, head=self.cfg.head))  # (P,)

    def reset(self):
        """Back to epoch 0 with the initial weights (of cfg.seed, or `start`) and a fresh optimiser."""
        self.flat = self.initial_weights()                                     # (P,)
        self.params = layer_views(self.flat, self.sizes)
        self._A = augmented_views(self.flat, self.sizes)
        self._l2mask = weight_mask(self.sizes)                                 # (P,) 1: weight, 0: bias
        self._tmp = np.empty_like(self.flat)
        self.rng = np.random.default_rng(self.cfg.seed)
        self.epoch = 0
        self._restart()

    def _restart(self):
        """Fresh optimiser, backup and history at the current weights and epoch."""
        self._new_optimizer()
        self._backup = self.flat.copy()                                        # (P,) last finite weights
        self._backup_epoch = self.epoch
        self.diverged = None
        self._version = getattr(self, "_version", 0) + 1
        self._cache = None
        self.history = {k: [] for k in self.keys}
        self._record()

    def _new_optimizer(self):
        self.opt = make_optimizer(self.cfg.opt, self.flat.size, self.cfg.lr)
        self._G = augmented_views(self.opt.g, self.sizes)                      # gradient views, as _A
        self._l1 = L1Orthant(self._l2mask)
        self._passes = {}

    def set_hparams(self, **changes):
        """Change opt, lr, batch, l2, l1 or act, keeping the weights; a new optimiser has fresh moments."""
        allowed = {"opt", "lr", "batch", "l2", "l1", "act"}
        bad = set(changes) - allowed
        if bad:
            raise ValueError(f"cannot change {sorted(bad)[0]!r} without a new network")
        new = TrainConfig(**{**asdict(self.cfg), **changes})
        new.hidden = self.cfg.hidden
        new.lr, new.l2, new.l1, new.batch = float(new.lr), float(new.l2), float(new.l1), int(new.batch)
        check_config(new)
        old, self.cfg = self.cfg, new
        if new.opt != old.opt:
            self._new_optimizer()
        self.opt.lr = new.lr
        if new.act != old.act:
            self._passes = {}
        if (new.act, new.l2, new.l1) != (old.act, old.l2, old.l1):  # the loss changed: re-measure this epoch
            self._version += 1
            self._record_latest()

    def set_data(self, Xtr, ytr, Xte, yte):
        """New points for the same network: the weights, the optimiser's moments, the epoch and the
        history are kept (points placed by hand join a run that goes on, as in ConvNetJS).

        Xtr (n_tr, d), ytr (n_tr,), Xte (n_te, d), yte (n_te,): d and the labels' kind as before.
        Raises ValueError (nothing changed) if they do not fit this network.
        """
        other = Trainer(self.cfg, Xtr, ytr, Xte, yte, start=self.flat)   # checks shapes and labels
        if other.sizes != self.sizes:
            raise ValueError(f"the points have {other.sizes[0]} inputs; this network takes {self.sizes[0]}")
        for name in ("Xtr", "ytr", "Xte", "yte", "_XT", "_s", "_s2", "_full", "_test"):
            setattr(self, name, getattr(other, name))
        self._batches, self._passes = {}, {}
        self._version += 1
        self._cache = None
        self._record_latest()

    def twin(self, **changes):
        """A second Trainer on the same data and head, from the same initial weights where shapes allow.

        Parameters
        ----------
        **changes : any of hidden, act, opt, lr, batch, l2, l1 (the rest stays as in self.cfg)

        Returns
        -------
        Trainer at epoch 0, its `start_note` saying what it shares. Its reset() returns to
        the same start.

        Notes
        -----
        The start is self.initial_weights() (what self.reset() returns to), not the weights
        trained so far. Same layer widths: the twin starts from exactly those weights. Other
        widths: the twin draws its own weights from the same seed, then, when both networks have
        a hidden layer, copies the first hidden layer's units they both have (units 1..min(u, u'),
        each with its input weights and bias: the same first fold lines); layers behind it
        cannot be shared, since their inputs differ. If either network has no hidden layer,
        nothing is copied and the twin's start is its own draw from the seed.
        """
        allowed = {"hidden", "act", "opt", "lr", "batch", "l2", "l1"}
        bad = set(changes) - allowed
        if bad:
            raise ValueError(f"a twin differs only in {', '.join(sorted(allowed))}; not {sorted(bad)[0]!r}")
        cfg = TrainConfig(**{**asdict(self.cfg), **changes})
        cfg.hidden = tuple(int(u) for u in cfg.hidden)
        sizes = [self.sizes[0], *cfg.hidden, self.sizes[-1]]
        mine = self.initial_weights()                                          # (P,)
        if sizes == self.sizes:
            start, note = mine, "the same initial weights"
        else:
            start = flatten(init_params(sizes, cfg.seed, head=cfg.head))       # (P',)
            if cfg.hidden and self.cfg.hidden:
                shared = min(cfg.hidden[0], self.cfg.hidden[0])
                augmented_views(start, sizes)[0][:shared] = augmented_views(mine, self.sizes)[0][:shared]
                units = f"units 1-{shared}" if shared > 1 else "unit 1"
                note = (f"the same first-layer {units}; its other weights drawn from seed {cfg.seed} "
                        "(the layer widths differ)")
            else:
                note = f"its own weights drawn from seed {cfg.seed} (no hidden layer to share)"
        t = Trainer(cfg, self.Xtr, self.ytr, self.Xte, self.yte, start=start)
        t.start_note = note
        return t

    # --- training --------------------------------------------------------------------------
    def _diverge(self):
        """Restore the last finite weights and stop for good (until reset)."""
        self.flat[:] = self._backup
        self.epoch = self._backup_epoch
        self._version += 1
        self._cache = None
        self.diverged = (f"the loss stopped being a finite number after epoch {self.epoch:,} "
                         f"(the steps were too large); the weights of epoch {self.epoch:,} are kept")

    def _pass(self, ws):
        """The compiled forward and backward pass for this workspace (see compile_pass).

        It binds the weight and gradient buffers and the bend, so _new_optimizer (every reset
        and optimiser change) and a change of bend empty the cache.
        """
        run = self._passes.get(id(ws))  # workspaces live as long as the trainer: ids stay unique
        if run is None:
            run = self._passes[id(ws)] = compile_pass(ws, self._A, self._G, self.cfg.act)
        return run

    def _batch_workspace(self, m):
        if m not in self._batches:
            self._batches[m] = Workspace(self.sizes, m, self.cfg.head)
        return self._batches[m]

    def _train(self, epochs):
        """The hot loop: whole epochs until done or diverged; returns epochs done."""
        n = len(self.Xtr)
        bs = n if self.cfg.batch <= 0 else min(int(self.cfg.batch), n)
        opt, flat, backup = self.opt, self.flat, self._backup
        l2, l2mask, tmp, g = self.cfg.l2, self._l2mask, self._tmp, self.opt.g
        l1, owl = self.cfg.l1, self._l1
        factor = FACTOR[self.cfg.head]
        history_epochs = self.history["epoch"]
        full = self._pass(self._full) if bs == n else None
        start = self.epoch
        with np.errstate(all="ignore"):  # overflow is detected below and handled, not warned about
            for _ in range(int(epochs)):
                if self.diverged:
                    break
                if self.epoch % _record_every(self.epoch) == 0 and history_epochs[-1] != self.epoch:
                    self._record()
                    if self.diverged:
                        break
                if full is not None:
                    steps = ((full, n),)
                else:
                    order = self.rng.permutation(n)
                    steps = (self._load_batch(order[i:i + bs]) for i in range(0, n, bs))
                for run, m in steps:
                    if not math.isfinite(run()):
                        self._diverge()
                        return self.epoch - start
                    scale = 1.0 / (factor * m)  # the pass leaves factor * the gradient summed over the batch
                    if l2 or l1:
                        g *= scale
                        scale = 1.0
                    if l2:
                        np.multiply(flat, l2mask, out=tmp)
                        tmp *= l2
                        g += tmp
                    np.copyto(backup, flat)
                    self._backup_epoch = self.epoch
                    if l1:
                        owl.pseudo_gradient(flat, g, l1)
                        opt.step(flat, None, scale)
                        owl.clip(flat)
                    else:
                        opt.step(flat, None, scale)
                self.epoch += 1
                self._version += 1
        return self.epoch - start

    def _load_batch(self, idx):
        """Copy the points idx into the workspace for their batch size; returns (its pass, size)."""
        ws = self._batch_workspace(len(idx))
        np.take(self._XT, idx, axis=1, out=ws.XT)
        np.take(self._s, idx, axis=1, out=ws.s)
        if self.cfg.head == "sigmoid":
            np.take(self._s2, idx, axis=1, out=ws.s2)
        return self._pass(ws), len(idx)

    def step(self, epochs=1):
        """Train whole epochs; returns how many were done (fewer if training diverged)."""
        start = self.epoch
        self._train(epochs)
        self._record_latest()
        return max(0, self.epoch - start)

    def run_for(self, seconds, max_epochs=None):
        """Train as many whole epochs as fit in `seconds` (at most max_epochs); returns epochs done.

        The clock is read once per chunk of epochs, sized from the speed measured so far.
        """
        begin, start = self.epoch, time.perf_counter()
        end = start + float(seconds)
        done, chunk = 0, 8
        while not self.diverged and (max_epochs is None or done < max_epochs):
            k = chunk if max_epochs is None else min(chunk, max_epochs - done)
            got = self._train(k)
            done += got
            now = time.perf_counter()
            if got < k or now >= end:
                break
            per = (now - start) / done
            chunk = max(1, min(4 * chunk, int(0.5 * (end - now) / per)))
        self._record_latest()
        return max(0, self.epoch - begin)

    # --- metrics ---------------------------------------------------------------------------
    def _penalty(self):
        w = self.flat * self._l2mask                                           # (P,) weights, biases zeroed
        return 0.5 * self.cfg.l2 * float(np.dot(w, w)) + self.cfg.l1 * float(np.abs(w).sum())

    def _evaluate(self, ws, y):
        """{"loss", and "acc" or "r2" and "mae"} on the points loaded in ws (nan without points).

        One pass of the fast path with the loss (its gradient, written into the optimiser's buffer,
        is overwritten by the next step's pass); the outputs are left in ws.z. A test holds these
        numbers to lib.mlp's.
        """
        head = self.cfg.head
        if ws is None:
            names = ("loss", "r2", "mae") if head == "linear" else ("loss", "acc")
            return dict.fromkeys(names, float("nan"))
        with np.errstate(all="ignore"):
            total = self._pass(ws)(True)
            z = ws.z                                                           # (n_out, m) the outputs
            out = {"loss": total / ws.m + self._penalty()}
            if head == "sigmoid":
                out["acc"] = float(np.mean((z[0] > 0) == (y > 0.5)))
            elif head == "softmax":
                out["acc"] = float(np.mean(np.argmax(z, axis=0) == y))
            else:
                out["r2"] = r_squared(z[0], y)
                out["mae"] = float(np.mean(np.abs(z[0] - y)))
        return out

    def metrics(self):
        """Latest numbers, keys `self.keys`: epoch, train_loss, test_loss and, by head, train_acc, test_acc
        (sigmoid, softmax) or train_r2, test_r2, train_mae, test_mae (linear); nan without test points."""
        if self._cache is None or self._cache[0] != self._version:
            m = {"epoch": self.epoch}
            for split, ws, y in (("train", self._full, self.ytr), ("test", self._test, self.yte)):
                m.update({f"{split}_{k}": v for k, v in self._evaluate(ws, y).items()})
            self._cache = (self._version, {k: m[k] for k in self.keys})
        return dict(self._cache[1])

    def _record(self):
        """Append the current metrics to the history; a non-finite loss here means the last step diverged."""
        m = self.metrics()
        if not math.isfinite(m["train_loss"]) and not self.diverged:
            self._diverge()
            m = self.metrics()
            while self.history["epoch"] and self.history["epoch"][-1] >= self.epoch:
                for k in self.keys:
                    self.history[k].pop()
        for k in self.keys:
            self.history[k].append(m[k])
        self._recorded = self._version

    def _record_latest(self):
        """Make the history end with the current weights' numbers (replacing a stale entry for this epoch)."""
        if self.history["epoch"] and self.history["epoch"][-1] == self.epoch:
            if self._recorded == self._version:
                return
            for k in self.keys:
                self.history[k].pop()
        self._record()

    def predict(self, X, act=None):
        """The prediction at each row of X (n, d); `act` swaps the bend but keeps the weights.

        Returns
        -------
        sigmoid: (n,) P(class 1); softmax: (n, k) class probabilities, rows sum to 1; linear: (n,) values
        """
        with np.errstate(all="ignore"):
            return predict_proba(self.params, np.asarray(X, dtype=float), act or self.cfg.act, self.cfg.head)

    def confusion(self, which="train"):
        """(k, k) int counts: row = true class, column = predicted class, on "train" or "test" points.

        k is 2 for the sigmoid head, cfg.classes for softmax; a linear head has no classes (ValueError).
        """
        if self.cfg.head == "linear":
            raise ValueError("a network that predicts values has no confusion matrix")
        X, y = (self.Xtr, self.ytr) if which == "train" else (self.Xte, self.yte)
        k = self.sizes[-1] if self.cfg.head == "softmax" else 2
        with np.errstate(all="ignore"):
            logit = forward(self.params, X, self.cfg.act, self.cfg.head)[1]["logit"]  # (n, k) or (n,)
        guess = np.argmax(logit, axis=1) if logit.ndim == 2 else (logit > 0).astype(int)  # (n,)
        return np.bincount(y.astype(int) * k + guess, minlength=k * k).reshape(k, k)

    # --- export ----------------------------------------------------------------------------
    def to_dict(self):
        """JSON-able: the configuration (head, l1, classes too), the epoch and the weights with shapes."""
        return {
            "format": FORMAT,
            "config": {**asdict(self.cfg), "hidden": list(self.cfg.hidden)},
            "sizes": list(self.sizes),
            "epoch": int(self.epoch),
            "layers": [{"W": W.tolist(), "b": b.tolist(), "W_shape": list(W.shape), "b_shape": list(b.shape)}
                       for W, b in self.params],
        }

    @classmethod
    def from_dict(cls, d, Xtr, ytr, Xte, yte, head=None):
        """A Trainer with saved configuration and weights; ValueError with a one-line reason if unusable.

        d is to_dict's dict or its JSON text; head, if given, is the head the page expects
        (a file for another problem type is refused). The checks are check_export's, plus
        the data: its number of features and its labels must fit the network.
        """
        d, cfg = read_export(d, head=head, n_in=np.shape(Xtr)[1] if np.ndim(Xtr) == 2 else None)
        try:
            t = cls(cfg, Xtr, ytr, Xte, yte)
        except ValueError as e:
            raise ValueError(f"the file's network does not fit these points: {e}") from None
        for (W, b), layer in zip(t.params, d["layers"], strict=True):
            W[:], b[:] = np.asarray(layer["W"], dtype=float), np.asarray(layer["b"], dtype=float)
        t.epoch = max(0, int(d.get("epoch", 0)))
        t._restart()
        return t

    def encode_weights(self):
        """The weights as URL-safe text, or None above MAX_LINK_PARAMS parameters.

        float32, base64 (RFC 4648 URL alphabet, no padding); a softmax network's text starts with
        "s<k>." and a linear one's with "l.", so a link cannot load weights into the wrong head
        (two-class text has no prefix, as links made before the heads existed).
        """
        if self.flat.size > MAX_LINK_PARAMS:
            return None
        raw = self.flat.astype("<f4").tobytes()
        body = base64.urlsafe_b64encode(raw).decode("ascii").rstrip("=")
        return _head_tag(self.cfg.head, self.sizes[-1]) + body

    def load_weights(self, text):
        """Load weights from encode_weights' text; ValueError with a one-line reason, nothing loaded."""
        if not isinstance(text, str) or not text:
            raise ValueError("the weights text is empty")
        # a tag and MAX_LINK_PARAMS float32s (4 bytes each) in base64
        if len(text) > 8 + -(-4 * 4 * MAX_LINK_PARAMS // 3):
            raise ValueError(f"the weights text is longer than {MAX_LINK_PARAMS:,} numbers")
        tag, dot, body = text.rpartition(".")
        tag = tag + dot
        mine = _head_tag(self.cfg.head, self.sizes[-1])
        if tag != mine:
            raise ValueError(f"the link's weights are for {_tag_words(tag)}; this network is for "
                             f"{_tag_words(mine)}")
        try:
            raw = base64.b64decode(body + "=" * (-len(body) % 4), altchars=b"-_", validate=True)
        except (ValueError, TypeError):
            raise ValueError("the weights text is not valid base64") from None
        P = self.flat.size
        if len(raw) != 4 * P:
            raise ValueError(f"the link holds {len(raw) // 4} numbers, this network has {P} "
                             f"(layer sizes {'-'.join(map(str, self.sizes))})")
        w = np.frombuffer(raw, dtype="<f4").astype(float)                      # (P,)
        if not np.isfinite(w).all():
            raise ValueError("the link's weights are not all finite numbers")
        self.flat[:] = w
        self._restart()


def r_squared(p, y):
    """Coefficient of determination 1 - sum (y - p)² / sum (y - mean y)²; nan if y does not vary."""
    y = np.asarray(y, dtype=float)
    ss_tot = float(np.sum((y - y.mean()) ** 2)) if len(y) else 0.0
    if not ss_tot > 0:
        return float("nan")
    return 1.0 - float(np.sum((y - p) ** 2)) / ss_tot


def _head_tag(head, n_out):
    return {"sigmoid": "", "softmax": f"s{n_out}.", "linear": "l."}[head]


def _tag_words(tag):
    if tag == "":
        return "two classes"
    if tag == "l.":
        return "a value per point"
    if tag[:1] == "s" and tag[1:-1].isdigit():
        return f"{tag[1:-1]} classes"
    return "an unknown kind of network"


def check_export(d, head=None, n_in=None, max_params=MAX_FILE_PARAMS):
    """Check a weights file (to_dict's format, as a dict or JSON text) before anything is loaded.

    Parameters
    ----------
    d : dict, or str / bytes of JSON
    head : str, optional
        The head the page expects; a file for another problem type is refused.
    n_in : int, optional
        The number of input features the page feeds the network.
    max_params : int
        The most weights and biases a file may hold.

    Returns
    -------
    TrainConfig, the file's configuration (its classes filled in for softmax)

    Raises
    ------
    ValueError
        With one line a student can act on: not JSON, not a Layer Lab network, another problem type,
        too big, a layer of the wrong shape, numbers that are not finite, and so on.
    """
    return read_export(d, head, n_in, max_params)[1]


def read_export(d, head=None, n_in=None, max_params=MAX_FILE_PARAMS):
    """check_export's work; returns (the dict, its TrainConfig)."""
    if isinstance(d, bytes | bytearray | str):
        if len(d) > MAX_FILE_BYTES:
            raise ValueError(f"the file is larger than {MAX_FILE_BYTES // 1_000_000} MB; a Layer Lab network "
                             "file is much smaller")
        try:
            d = json.loads(d)
        except (ValueError, UnicodeDecodeError, RecursionError):
            raise ValueError("the file is not JSON text (download the weights from this page "
                             "to get one)") from None
    try:
        if not isinstance(d, dict) or d.get("format") != FORMAT:
            raise ValueError(f"not a Layer Lab network (format {FORMAT!r} expected)")
        cfg = _file_config(d["config"])
        check_config(cfg)
        if head is not None and cfg.head != head:
            raise ValueError(f"this file holds a network for {HEAD_WORDS[cfg.head]}; the page is set to "
                             f"{HEAD_WORDS.get(head, head)}: switch the problem type first")
        n_out = cfg.classes if cfg.head == "softmax" else 1
        if cfg.head == "softmax" and n_out < 2:
            raise ValueError("the file's softmax network does not say how many classes it has")
        layers = d["layers"]
        layer1 = layers[0] if isinstance(layers, list) and layers else None
        first = layer1.get("W") if isinstance(layer1, dict) else None
        file_in = len(first) if isinstance(first, list) and first else None  # rows of W1: input features
        sizes = [file_in if file_in is not None else (n_in or 0), *cfg.hidden, n_out]
        if param_total(sizes) > max_params:
            raise ValueError(f"the network has {param_total(sizes):,} parameters, more than the "
                             f"{max_params:,} a file may hold")
        if not isinstance(layers, list) or len(layers) != len(cfg.hidden) + 1:
            raise ValueError(f"expected {len(cfg.hidden) + 1} layers, got "
                             f"{len(layers) if isinstance(layers, list) else 'none'}")
        if n_in is not None and file_in is not None and file_in != n_in:
            raise ValueError(f"layer 1 has the wrong shape: the network reads {file_in} input features, "
                             f"the page feeds {n_in} (choose the same features)")
        for k, (layer, a, b) in enumerate(zip(layers, sizes[:-1], sizes[1:], strict=True)):
            try:
                Wn = np.asarray(layer["W"], dtype=float)
                bn = np.asarray(layer["b"], dtype=float)
            except (TypeError, ValueError):
                raise ValueError(f"malformed network file: layer {k + 1} holds something "
                                 "other than numbers") from None
            if Wn.shape != (a, b) or bn.shape != (b,):
                raise ValueError(f"layer {k + 1} has shape {Wn.shape}/{bn.shape}, the network needs "
                                 f"{(a, b)}/{(b,)}")
            if not (np.isfinite(Wn).all() and np.isfinite(bn).all()):
                raise ValueError(f"layer {k + 1} has weights that are not finite numbers")
        if "sizes" in d and d["sizes"] != sizes:
            raise ValueError("the file's sizes do not match its layers")
        _whole(d.get("epoch", 0), "the epoch", 0, MAX_EPOCH)
        return d, cfg
    except ValueError:
        raise
    except RecursionError:
        raise ValueError("malformed network file (nested too deeply)") from None
    except (KeyError, TypeError, AttributeError, OverflowError, IndexError) as e:
        raise ValueError(f"malformed network file ({type(e).__name__}: {str(e)[:80]})") from None


def _whole(v, what, lo, hi):
    """A whole number from a file, lo <= v <= hi; ValueError naming `what` otherwise."""
    if isinstance(v, bool) or not isinstance(v, int | np.integer) or not lo <= v <= hi:
        raise ValueError(f"{what} is not a whole number from {lo:,} to {hi:,}")
    return int(v)


def _real(v, what, lo, hi, low_open=False):
    """A number from a file, lo <= v <= hi (lo < v with low_open); ValueError naming `what` otherwise."""
    ok = not isinstance(v, bool) and isinstance(v, int | float | np.integer | np.floating)
    if ok:
        v = float(v)
        ok = math.isfinite(v) and (lo < v if low_open else lo <= v) and v <= hi
    if not ok:
        raise ValueError(f"{what} is not a number {'above' if low_open else 'from'} {lo:g} "
                         f"{'and at most' if low_open else 'to'} {hi:g}")
    return v


def _name(v, what, known):
    if not isinstance(v, str) or len(v) > NAME_CHARS or v not in known:
        shown = repr(v[:NAME_CHARS]) if isinstance(v, str) else "not a name"
        raise ValueError(f"unknown {what} {shown}; choose one of {', '.join(known)}")
    return v


def _file_config(raw):
    """A file's config, every field bounded (FILE_LAYERS ... NAME_CHARS): the TrainConfig, or ValueError
    with one line naming the field."""
    names = {f.name for f in fields(TrainConfig)}
    if not isinstance(raw, dict) or set(raw) - names:
        raise ValueError("the config has unknown fields")
    cfg = TrainConfig()
    hidden = raw.get("hidden", list(cfg.hidden))
    if not isinstance(hidden, list | tuple) or len(hidden) > FILE_LAYERS:
        raise ValueError(f"the hidden layers are not a list of at most {FILE_LAYERS} layers")
    cfg.hidden = tuple(_whole(u, f"hidden layer {i + 1}'s units", 1, FILE_UNITS)
                       for i, u in enumerate(hidden))
    cfg.act = _name(raw.get("act", cfg.act), "activation", ACTIVATIONS)
    cfg.opt = _name(raw.get("opt", cfg.opt), "optimiser", OPTIMIZERS)
    cfg.head = _name(raw.get("head", cfg.head), "head", HEADS)
    cfg.lr = _real(raw.get("lr", cfg.lr), "the learning rate", 0.0, MAX_RATE, low_open=True)
    cfg.l1 = _real(raw.get("l1", cfg.l1), "L1", 0.0, MAX_PENALTY)
    cfg.l2 = _real(raw.get("l2", cfg.l2), "L2", 0.0, MAX_PENALTY)
    cfg.batch = _whole(raw.get("batch", cfg.batch), "the batch size", 0, MAX_BATCH)
    cfg.seed = _whole(raw.get("seed", cfg.seed), "the seed", 0, MAX_SEED)
    cfg.classes = _whole(raw.get("classes", cfg.classes), "the number of classes", 0, MAX_CLASSES)
    return cfg

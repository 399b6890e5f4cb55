"""A small multilayer perceptron for two classes, forward and backward written by hand.

Layers are ``h = act(h_prev @ W + b)``; the last layer has one unit and a sigmoid, and the
loss is the mean binary cross-entropy plus ``0.5 * l2 * sum(W**2)`` over the weights
(biases are not penalised). This file is the plain, readable reference; lib.train runs
the same maths with preallocated buffers for speed, and a test holds the two equal.

Parameters are a list of (W, b) per layer: W (n_in, n_out), b (n_out,). A network's
``sizes`` are its layer widths, e.g. [2, 8, 1]; [2, 1] has no hidden layer.
"""

from __future__ import annotations

from itertools import pairwise

import numpy as np
from scipy.special import expit

from lib.activations import ACTIVATIONS, Activation

BIAS_INIT = 0.1  # small positive hidden biases: a ReLU unit starts "on" for most points


def _act(act):
    """An Activation from its name (or itself)."""
    if isinstance(act, Activation):
        return act
    if act not in ACTIVATIONS:
        raise ValueError(f"unknown activation {act!r}; choose one of {', '.join(ACTIVATIONS)}")
    return ACTIVATIONS[act]


def sizes_of(params):
    """Layer widths [n_in, hidden..., 1] of a parameter list."""
    return [params[0][0].shape[0]] + [W.shape[1] for W, _ in params]


def param_total(sizes):
    """Number of learned numbers (weights and biases) of a network with these widths."""
    return sum((a + 1) * b for a, b in pairwise(sizes))


def layer_views(flat, sizes):
    """(W, b) views into one flat parameter vector.

    Layer k occupies (n_in + 1) * n_out consecutive numbers laid out as the matrix
    ``A = [W.T | b]`` of shape (n_out, n_in + 1): one row per unit, its weights then its bias
    (PyTorch's nn.Linear weight with the bias as one more column). The trainer multiplies
    A by the layer's input with a row of ones under it, so one matmul adds the bias too.
    Writing to the returned W or b writes into `flat`.

    Returns
    -------
    list of (W (n_in, n_out), b (n_out,)), strided views into flat
    """
    return [(A[:, :-1].T, A[:, -1]) for A in augmented_views(flat, sizes)]


def augmented_views(flat, sizes):
    """The matrices [W.T | b], each (n_out, n_in + 1), as views into flat (see layer_views)."""
    out, o = [], 0
    for a, b in pairwise(sizes):
        out.append(flat[o:o + (a + 1) * b].reshape(b, a + 1))                 # (n_out, n_in + 1)
        o += (a + 1) * b
    return out


def flatten(params):
    """The parameters (or gradients) as one vector, in the layout of layer_views."""
    return np.concatenate([np.column_stack([np.asarray(W).T, np.asarray(b)]).ravel() for W, b in params])


def init_params(sizes, seed, bias=None):
    """Initial weights: He-scaled normal weights, small positive hidden biases.

    Parameters
    ----------
    sizes : sequence of int
        Layer widths, e.g. [2, 8, 1]; the last must be 1.
    seed : int
        The same seed gives the same weights.
    bias : float, optional
        Initial bias of every hidden unit (None = BIAS_INIT) (the output bias starts at 0). All-zero biases
        leave every ReLU fold line through the origin, and some seeds then get stuck.

    Returns
    -------
    list of (W (n_in, n_out), b (n_out,)), views into one flat float64 vector
    """
    sizes = [int(s) for s in sizes]
    if len(sizes) < 2 or min(sizes) < 1 or sizes[-1] != 1:
        raise ValueError("sizes must be [n_in, hidden..., 1] with every width >= 1")
    bias = BIAS_INIT if bias is None else float(bias)
    rng = np.random.default_rng(seed)
    flat = np.empty(param_total(sizes))
    params = layer_views(flat, sizes)
    for k, (W, b) in enumerate(params):
        W[:] = rng.normal(0.0, np.sqrt(2.0 / W.shape[0]), size=W.shape)         # He: keeps ReLU sums' scale
        b[:] = bias if k < len(params) - 1 else 0.0
    return params


def forward(params, X, act):
    """P(class 1) for each row of X.

    Parameters
    ----------
    params : list of (W, b)
    X : ndarray of shape (n, n_in)
    act : str or Activation, the bend after every hidden layer

    Returns
    -------
    p : ndarray of shape (n,)
    cache : dict with "h" (the input and each layer's output after the bend, list of (n, width)),
        "z" (each hidden layer's sums before the bend) and "logit" (n,)
    """
    f = _act(act)
    h = [np.asarray(X, dtype=float)]
    zs = []
    for W, b in params[:-1]:
        zs.append(h[-1] @ W + b)                                               # (n, width)
        h.append(f.fn(zs[-1]))                                                 # (n, width)
    W, b = params[-1]
    logit = (h[-1] @ W + b)[:, 0]                                              # (n,)
    return expit(logit), {"h": h, "z": zs, "logit": logit}


def bce(logit, y):
    """Mean binary cross-entropy from logits, stable for any size: mean softplus(-(2y - 1) * logit)."""
    return float(np.mean(np.logaddexp(0.0, (1.0 - 2.0 * np.asarray(y)) * logit)))


def loss_and_grads(params, X, y, act, l2=0.0):
    """Loss and its gradient with respect to every W and b (backpropagation).

    Parameters
    ----------
    params : list of (W, b)
    X : ndarray of shape (n, n_in)
    y : ndarray of shape (n,), labels 0 and 1
    act : str or Activation
    l2 : float
        Weight of the penalty 0.5 * l2 * sum of squared weights.

    Returns
    -------
    loss : float
    grads : list of (dW, db), shapes as params
    """
    f = _act(act)
    y = np.asarray(y, dtype=float)
    p, cache = forward(params, X, f)
    n = len(y)
    loss = bce(cache["logit"], y) + 0.5 * l2 * sum(float(np.sum(W * W)) for W, _ in params)
    delta = ((p - y) / n)[:, None]                                             # (n, 1) dloss/dlogit
    grads = []
    for k in range(len(params) - 1, -1, -1):
        W, _ = params[k]
        h_in = cache["h"][k]                                                   # (n, n_in)
        grads.append((h_in.T @ delta + l2 * W, delta.sum(axis=0)))             # dW (n_in, n_out), db (n_out,)
        if k > 0:
            delta = (delta @ W.T) * f.grad(cache["z"][k - 1])                  # (n, n_in) through the bend
    return loss, grads[::-1]


def predict_proba(params, X, act):
    """P(class 1) for each row of X (n, n_in) -> (n,)."""
    return forward(params, X, act)[0]


def hidden_pre(params, X, act="relu"):
    """Each hidden layer's sums before the bend: a list of (n, width) arrays (empty without hidden layers).

    The first layer's sums do not depend on the bend; later layers' do, through `act`.
    """
    return forward(params, X, act)[1]["z"]


def collapse_params(params):
    """The whole network with identity bends as one linear layer.

    Without bends, (x W1 + b1) W2 + b2 = x (W1 W2) + (b1 W2 + b2), and so on for every
    layer: the result is what the trained weights draw when the bend is switched off.

    Returns
    -------
    W : ndarray of shape (n_in, 1)
    b : ndarray of shape (1,)
    """
    W, b = np.asarray(params[0][0], dtype=float), np.asarray(params[0][1], dtype=float)
    for W_k, b_k in params[1:]:
        W, b = W @ W_k, b @ W_k + b_k                                          # (n_in, n_out), (n_out,)
    return W, b

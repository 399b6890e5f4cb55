"""A small multilayer perceptron, forward and backward written by hand, with three heads.

Layers are ``h = act(h_prev @ W + b)``; the last layer has no bend, and a *head* turns its
outputs into a prediction and a loss:

- ``"sigmoid"`` (the default, two classes): one output, p = sigmoid(logit) = P(class 1),
  mean binary cross-entropy; labels y in {0, 1}.
- ``"softmax"`` (k >= 2 classes): k outputs, p = softmax(logits), rows sum to 1, mean
  cross-entropy; labels y int in 0..k-1.
- ``"linear"`` (regression): one output, the value itself, mean squared error
  mean((p - y)^2) as torch.nn.MSELoss; targets y float.

Penalties on the weights (biases are never penalised): ``0.5 * l2 * sum(W**2)`` and
``l1 * sum(|W|)``, whose gradient is ``l1 * sign(W)`` (0 at W = 0). This file is the plain,
readable reference; lib.train runs the same maths with preallocated buffers for speed, and
tests hold the two equal.

Parameters are a list of (W, b) per layer: W (n_in, n_out), b (n_out,). A network's
``sizes`` are its layer widths, e.g. [2, 8, 1]; [2, 1] has no hidden layer; [2, 16, 16, 3]
ends in 3 softmax outputs.
"""

from __future__ import annotations

from itertools import pairwise

import numpy as np
from scipy.special import expit

from lib.activations import ACTIVATIONS, Activation

BIAS_INIT = 0.1  # small positive hidden biases: a ReLU unit starts "on" for most points

HEADS: dict[str, str] = {
    "sigmoid": "Two classes: one output, a sigmoid, mean binary cross-entropy.",
    "softmax": "k classes: k outputs, a softmax, mean cross-entropy.",
    "linear": "A value per point: one output as it is, mean squared error.",
}


def _act(act):
    """An Activation from its name (or itself)."""
    if isinstance(act, Activation):
        return act
    if act not in ACTIVATIONS:
        raise ValueError(f"unknown activation {act!r}; choose one of {', '.join(ACTIVATIONS)}")
    return ACTIVATIONS[act]


def check_head(head, n_out):
    """Raise ValueError unless `head` is a key of HEADS that fits a last layer of n_out units."""
    if head not in HEADS:
        raise ValueError(f"unknown head {head!r}; choose one of {', '.join(HEADS)}")
    if head == "softmax" and n_out < 2:
        raise ValueError("a softmax head needs at least 2 outputs (one per class)")
    if head != "softmax" and n_out != 1:
        raise ValueError(f"a {head} head has exactly 1 output; got {n_out}")


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


def weight_mask(sizes):
    """(P,) 1.0 where the flat vector holds a weight, 0.0 where it holds a bias (the penalties' reach)."""
    return flatten([(np.ones((a, b)), np.zeros(b)) for a, b in pairwise(sizes)])


def init_params(sizes, seed, bias=None, head="sigmoid"):
    """Initial weights: He-scaled normal weights, small positive hidden biases.

    Parameters
    ----------
    sizes : sequence of int
        Layer widths, e.g. [2, 8, 1]; the last is 1 for the sigmoid and linear heads and
        k >= 2 for softmax, e.g. [2, 16, 16, 3].
    seed : int
        The same seed gives the same weights.
    bias : float, optional
        Initial bias of every hidden unit (None = BIAS_INIT) (the output bias starts at 0). All-zero biases
        leave every ReLU fold line through the origin, and some seeds then get stuck.
    head : str
        The head the last layer feeds (a key of HEADS); it decides how many outputs are allowed.

    Returns
    -------
    list of (W (n_in, n_out), b (n_out,)), views into one flat float64 vector
    """
    sizes = [int(s) for s in sizes]
    if len(sizes) < 2 or min(sizes) < 1:
        raise ValueError("sizes must be [n_in, hidden..., n_out] with every width >= 1")
    check_head(head, sizes[-1])
    bias = BIAS_INIT if bias is None else float(bias)
    rng = np.random.default_rng(seed)
    flat = np.empty(param_total(sizes))
    params = layer_views(flat, sizes)
    for k, (W, b) in enumerate(params):
        W[:] = rng.normal(0.0, np.sqrt(2.0 / W.shape[0]), size=W.shape)         # He: keeps ReLU sums' scale
        b[:] = bias if k < len(params) - 1 else 0.0
    return params


# --- heads: output, loss and dloss/doutput side by side -------------------------------------------

def bce(logit, y):
    """Mean binary cross-entropy from logits, stable for any size: mean softplus(-(2y - 1) * logit)."""
    return float(np.mean(np.logaddexp(0.0, (1.0 - 2.0 * np.asarray(y)) * logit)))


def log_softmax(logits):
    """log softmax of each row of logits (n, k), stable for any size: shifted by the row maximum."""
    shifted = logits - logits.max(axis=1, keepdims=True)                       # (n, k) <= 0
    return shifted - np.log(np.exp(shifted).sum(axis=1, keepdims=True))      # (n, k)


def cross_entropy(logits, y):
    """Mean cross-entropy of int labels y (n,) under softmax(logits (n, k)), stable for any size."""
    y = np.asarray(y, dtype=int)
    return float(-np.mean(log_softmax(logits)[np.arange(len(y)), y]))


def mse(out, y):
    """Mean squared error mean((out - y)^2), as torch.nn.MSELoss (no factor 1/2)."""
    d = np.asarray(out, dtype=float) - np.asarray(y, dtype=float)
    return float(np.mean(d * d))


def _labels(y, head, n_out):
    """y as the head wants it, checked: floats 0/1, ints in 0..k-1, or finite floats."""
    if head == "softmax":
        yi = np.asarray(y).astype(int)
        if yi.size and (yi.min() < 0 or yi.max() >= n_out or not np.array_equal(yi, y)):
            raise ValueError(f"softmax labels must be whole numbers from 0 to {n_out - 1}")
        return yi
    return np.asarray(y, dtype=float)


def head_output(logit, head):
    """The prediction from the last layer's sums (n, n_out): P(class 1) (n,), P (n, k) or values (n,)."""
    if head == "softmax":
        e = np.exp(logit - logit.max(axis=1, keepdims=True))                   # (n, k) shifted: no overflow
        return e / e.sum(axis=1, keepdims=True)                                # (n, k) rows sum to 1
    if head == "sigmoid":
        return expit(logit[:, 0])                                              # (n,)
    return logit[:, 0].copy()                                                  # (n,)


def head_loss(logit, y, head):
    """Mean loss of the head over the points (no penalties). logit (n, n_out)."""
    if head == "softmax":
        return cross_entropy(logit, y)
    if head == "sigmoid":
        return bce(logit[:, 0], y)
    return mse(logit[:, 0], y)


def head_delta(p, y, head):
    """dloss/dlogit (n, n_out) of the mean loss, from the prediction p of head_output."""
    n = len(y)
    if head == "softmax":
        d = p.copy()                                                           # (n, k)
        d[np.arange(n), y] -= 1.0                                              # softmax - one-hot
        return d / n
    if head == "sigmoid":
        return ((p - y) / n)[:, None]                                          # (n, 1)
    return (2.0 * (p - y) / n)[:, None]                                        # (n, 1) d(p - y)^2 = 2 (p - y)


def penalty(params, l2=0.0, l1=0.0):
    """0.5 * l2 * sum(W**2) + l1 * sum(|W|) over the weights (biases excluded)."""
    total = 0.0
    if l2:
        total += 0.5 * l2 * sum(float(np.sum(W * W)) for W, _ in params)
    if l1:
        total += l1 * sum(float(np.sum(np.abs(W))) for W, _ in params)
    return total


# --- forward and backward ---------------------------------------------------------------------------

def forward(params, X, act, head="sigmoid"):
    """The prediction for each row of X.

    Parameters
    ----------
    params : list of (W, b)
    X : ndarray of shape (n, n_in)
    act : str or Activation, the bend after every hidden layer
    head : str, a key of HEADS

    Returns
    -------
    p : ndarray: sigmoid (n,) P(class 1); softmax (n, k) class probabilities, rows sum to 1;
        linear (n,) the values
    cache : dict with "h" (the input and each layer's output after the bend, list of (n, width)),
        "z" (each hidden layer's sums before the bend) and "logit" (the last layer's sums:
        (n,) for the one-output heads, (n, k) for softmax)
    """
    f = _act(act)
    check_head(head, params[-1][0].shape[1])
    h = [np.asarray(X, dtype=float)]
    zs = []
    for W, b in params[:-1]:
        zs.append(h[-1] @ W + b)                                               # (n, width)
        h.append(f.fn(zs[-1]))                                                 # (n, width)
    W, b = params[-1]
    out = h[-1] @ W + b                                                        # (n, n_out)
    logit = out if head == "softmax" else out[:, 0]                            # (n, k) or (n,)
    return head_output(out, head), {"h": h, "z": zs, "logit": logit}


def backward(params, X, y, act, head="sigmoid"):
    """Backpropagation's deltas: for every layer, dloss/dz of the mean loss at each point and unit.

    Returns
    -------
    p : the prediction, as forward's
    cache : forward's cache
    deltas : list of (n, width) arrays, one per layer (the last is dloss/dlogit); row i is point i's
        share: the gradient of layer k is sum_i outer(h_k[i], deltas[k][i]), so a point's own
        gradient (its loss alone) is n times its row's
    """
    f = _act(act)
    y = _labels(y, head, params[-1][0].shape[1])
    p, cache = forward(params, X, f, head)
    delta = head_delta(p, y, head)                                             # (n, n_out) dloss/dlogit
    deltas = [delta]
    for k in range(len(params) - 1, 0, -1):
        delta = (delta @ params[k][0].T) * f.grad(cache["z"][k - 1])          # (n, n_in) through the bend
        deltas.append(delta)
    return p, cache, deltas[::-1]


def loss_and_grads(params, X, y, act, l2=0.0, head="sigmoid", l1=0.0):
    """Loss and its gradient with respect to every W and b (backpropagation).

    Parameters
    ----------
    params : list of (W, b)
    X : ndarray of shape (n, n_in)
    y : ndarray of shape (n,): labels 0 and 1 (sigmoid), ints 0..k-1 (softmax) or float targets (linear)
    act : str or Activation
    l2 : float
        Weight of the penalty 0.5 * l2 * sum of squared weights.
    head : str, a key of HEADS
    l1 : float
        Weight of the penalty l1 * sum of |weights|; its gradient is l1 * sign(w), 0 at w = 0.

    Returns
    -------
    loss : float, the head's mean loss plus the penalties
    grads : list of (dW, db), shapes as params
    """
    f = _act(act)
    y = _labels(y, head, params[-1][0].shape[1])
    _, cache, deltas = backward(params, X, y, f, head)
    logit = cache["logit"] if head == "softmax" else cache["logit"][:, None]  # (n, n_out)
    loss = head_loss(logit, y, head) + penalty(params, l2, l1)
    grads = []
    for (W, _), h_in, delta in zip(params, cache["h"], deltas, strict=True):
        dW = h_in.T @ delta + l2 * W                                           # (n_in, n_out)
        if l1:
            dW += l1 * np.sign(W)                                              # sign(0) = 0
        grads.append((dW, delta.sum(axis=0)))                                  # db (n_out,)
    return loss, grads


def point_losses(params, X, y, act, head="sigmoid"):
    """Each point's own loss (n,), whose mean is the head's loss: the worst-fit point is their argmax."""
    y = _labels(y, head, params[-1][0].shape[1])
    logit = forward(params, X, act, head)[1]["logit"]
    if head == "softmax":
        return -log_softmax(logit)[np.arange(len(y)), np.asarray(y, dtype=int)]
    if head == "sigmoid":
        return np.logaddexp(0.0, (1.0 - 2.0 * np.asarray(y, dtype=float)) * logit)
    d = logit - np.asarray(y, dtype=float)
    return d * d


def follow(params, x, y, act, head="sigmoid"):
    """One point through the network and back, every number of it (its loss alone, no penalties).

    Returns a dict: "z" and "h" (each hidden layer's sums and outputs, lists of (width,)), "out" (the
    last layer's sums (n_out,)), "p" (the prediction), "loss", "delta" (each layer's dloss/dz, list of
    (width,), the last is dloss/dlogit), "grads" (this point's (dW, db) per layer) and "passes"
    (per hidden layer, bool (width,): did the unit pass any gradient back, f'(z) != 0).
    """
    f = _act(act)
    X = np.asarray(x, dtype=float).reshape(1, -1)
    y1 = np.asarray([y])
    p, cache, deltas = backward(params, X, y1, f, head)
    grads = [(np.outer(h[0], d[0]), d[0].copy()) for h, d in zip(cache["h"], deltas, strict=True)]
    return {"z": [z[0] for z in cache["z"]], "h": [h[0] for h in cache["h"][1:]],
            "out": np.atleast_1d(cache["logit"][0]), "p": p[0],
            "loss": float(point_losses(params, X, y1, f, head)[0]),
            "delta": [d[0] for d in deltas], "grads": grads,
            "passes": [f.grad(z[0]) != 0 for z in cache["z"]]}


def step_sizes(params, grads, lr: float) -> list[tuple[float, float]]:
    """Per layer, how far one plain gradient step at rate lr moves its weights and biases (the norm of
    lr · (dW, db)) and the size of its weights (the norm of W): [(move, size), ...]."""
    return [(lr * float(np.sqrt(np.sum(dW * dW) + np.sum(db * db))), float(np.linalg.norm(W)))
            for (W, _), (dW, db) in zip(params, grads, strict=True)]


def predict_proba(params, X, act, head="sigmoid"):
    """The prediction for each row of X (n, n_in): P(class 1) (n,), P (n, k) or values (n,)."""
    return forward(params, X, act, head)[0]


def hidden_pre(params, X, act="relu"):
    """Each hidden layer's sums before the bend: a list of (n, width) arrays (empty without hidden layers).

    The first layer's sums do not depend on the bend; later layers' do, through `act`.
    """
    f = _act(act)
    h, zs = np.asarray(X, dtype=float), []
    for W, b in params[:-1]:
        zs.append(h @ W + b)                                                   # (n, width)
        h = f.fn(zs[-1])                                                       # (n, width)
    return zs


def output_parts(params, X, act):
    """Each last-hidden unit's share of a one-output network's output: the ramps a curve is built from.

    out = parts.sum(axis=1) + bias, where parts[:, j] = act(z_j) * w_j for hidden unit j of the
    last hidden layer and its weight w_j into the output (for the linear head, out is the value;
    for sigmoid, the logit).

    Returns
    -------
    parts : ndarray of shape (n, units)
    bias : float, the output bias
    """
    if len(params) < 2 or params[-1][0].shape[1] != 1:
        raise ValueError("output parts need a hidden layer and exactly 1 output")
    f = _act(act)
    z = hidden_pre(params, X, f)[-1]                                           # (n, units)
    W, b = params[-1]
    return f.fn(z) * W[:, 0], float(b[0])                                      # (n, units)


def collapse_params(params):
    """The whole network with identity bends as one linear layer.

    Without bends, (x W1 + b1) W2 + b2 = x (W1 W2) + (b1 W2 + b2), and so on for every
    layer: the result is what the trained weights draw when the bend is switched off.

    Returns
    -------
    W : ndarray of shape (n_in, n_out)
    b : ndarray of shape (n_out,)
    """
    W, b = np.asarray(params[0][0], dtype=float), np.asarray(params[0][1], dtype=float)
    for W_k, b_k in params[1:]:
        W, b = W @ W_k, b @ W_k + b_k                                          # (n_in, n_out), (n_out,)
    return W, b

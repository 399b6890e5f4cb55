"""Training loop for the live trainer: a Trainer holds a network, its optimiser and history.

The page calls ``run_for(seconds)`` several times a second; each call trains as many whole
epochs as fit. A loss that stops being finite ends training for good (until ``reset``)
with the last finite weights kept.
"""

from __future__ import annotations

import base64
import math
import time
from dataclasses import asdict, dataclass, fields

import numpy as np
from scipy.special import expit

from lib.activations import ACTIVATIONS
from lib.mlp import (
    augmented_views,
    bce,
    flatten,
    forward,
    init_params,
    layer_views,
    param_total,
    predict_proba,
)
from lib.optim import OPTIMIZERS, make_optimizer

MAX_LINK_PARAMS = 400  # weights in a share link: 400 float32 numbers are about 2,100 URL characters


@dataclass
class TrainConfig:
    hidden: tuple[int, ...] = (8,)   # units per hidden layer; () = no hidden layer (a linear classifier)
    act: str = "relu"                # the bend after every hidden layer, a key of ACTIVATIONS
    opt: str = "adam"                # a key of OPTIMIZERS
    lr: float = 0.03                 # learning rate
    batch: int = 0                   # points per step; 0 = full batch (one step per epoch)
    l2: float = 0.0                  # weight of the penalty 0.5 * l2 * sum(W**2)
    seed: int = 0                    # initial weights and mini-batch order


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


# --- the fast path -------------------------------------------------------------------------
# At 400 points and 33 weights the arithmetic is nothing; what costs is the number of NumPy
# calls and allocations. So the engine keeps every array of a pass preallocated, writes
# with out=, lays activations out as (units, points) so each layer is one contiguous matmul
# with the bias folded in (a row of ones under every layer's input), and writes ReLU's 0/1
# mask straight into a float buffer (ReLU(z) = z * mask, and the mask is also its slope).
# Measured on the 2-8-1 network with 400 points: about 14 NumPy calls and 12 us per forward
# and backward, 9 calls and 4 us per Adam step. lib.mlp is the readable reference; tests
# hold the two equal.


class Workspace:
    """Preallocated buffers for a pass over m points through a network of the given widths.

    Attributes
    ----------
    XT : (n_in + 1, m) the input, one point per column, with a row of ones at the bottom
    s : (1, m) 1 - 2y: +1 for class 0, -1 for class 1
    Z : per hidden layer, (units, m) sums before the bend
    H : per hidden layer, (units + 1, m) after the bend, with a row of ones at the bottom
    D : per hidden layer, (units, m) the bend's derivative at Z
    """

    def __init__(self, sizes, m):
        self.m = m = int(m)
        self.XT = np.ones((sizes[0] + 1, m))                                   # (n_in + 1, m)
        self.s = np.empty((1, m))                                              # (1, m)
        self.s2 = np.empty((1, m))                                             # (1, m) 2 s
        hidden = sizes[1:-1]
        self.Z = [np.empty((u, m)) for u in hidden]                            # (u, m) each
        self.H = [np.ones((u + 1, m)) for u in hidden]                         # (u + 1, m) each
        self.D = [np.empty((u, m)) for u in hidden]                            # (u, m) each
        self.dH = [np.empty((u, m)) for u in hidden]                           # (u, m) each
        self.z = np.empty((1, m))                                              # (1, m) logits
        self.L = np.empty((1, m))                                              # (1, m) scratch
        self.R = np.empty((1, m))                                              # (1, m) scratch
        self.ones = np.ones(m)                                                 # (m,) a sum as a dot product
        # XT * t, one input row times dloss/dlogit per point; its last row (ones times t) is t itself.
        self.XTt = np.empty_like(self.XT)                                      # (n_in + 1, m)
        self._views()

    def _views(self):
        self.Hv = [H[:-1] for H in self.H]                                     # (u, m) views: the bent part
        self.t = self.XTt[-1:]                                                 # (1, m) 2 (p - y)

    def __getstate__(self):  # copies and pickles rebuild the views into their own buffers
        return {k: v for k, v in self.__dict__.items() if k not in ("Hv", "t")}

    def __setstate__(self, state):
        self.__dict__.update(state)
        self._views()

    def load(self, XT, s):
        """Copy data in: XT (n_in + 1, m) with its ones row, s (1, m)."""
        self.XT[:] = XT
        self.s[:] = s
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
    Hv[:] = f.fn(Z)
    D[:] = f.grad(Z)
    return D


def _output(ws, with_loss):
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


def kernel(ws, A, G, act, with_loss=False):
    """One forward and backward pass over the workspace's points; the summed gradient goes into G.

    Parameters
    ----------
    ws : Workspace, data loaded
    A : list of (n_out, n_in + 1) views [W.T | b] into the weights (lib.mlp.augmented_views)
    G : list of the same shapes, views into the gradient buffer; receives
        2 * sum over points of dloss_i/dparams (the factor 2 and the 1/m are left to the
        optimiser's scale, which costs nothing there)
    act : str, a key of ACTIVATIONS
    with_loss : bool
        True: return the summed cross-entropy. False: return the sum of the logits, which
        is finite exactly when every logit is, the cheap check that training has not blown up.

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
    np.dot(A[last], inp, out=ws.z)                                             # (1, m) logits
    check = _output(ws, with_loss)
    t = ws.t                                                                   # (1, m) dloss/dlogit, times 2
    np.dot(t, inp.T, out=G[last])                                              # (1, u + 1)
    if last == 1 and D[0] is not None:
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
        if k == last - 1:  # from the single output unit: an outer product, cheaper as a broadcast
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

    For one ReLU hidden layer (the page's default network) every array, view and function is
    bound once into a closure, so a pass is 13 or 14 NumPy calls and almost no Python; the
    generic kernel's loop, lookups and dispatch cost as much again as a few of those calls.
    Other networks get the generic kernel. Tests hold the two equal.
    """
    if not (len(A) == 2 and act == "relu"):
        return lambda with_loss=False: kernel(ws, A, G, act, with_loss)
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


HISTORY_KEYS = ("epoch", "train_loss", "test_loss", "train_acc", "test_acc")


def _record_every(epoch):
    """History thinning: every epoch up to 100, then every 10th up to 1,000, every 100th beyond ..."""
    return 1 if epoch < 100 else 10 ** (len(str(epoch)) - 2)


class Trainer:
    """A network being trained on fixed data.

    Parameters
    ----------
    cfg : TrainConfig
    Xtr : ndarray of shape (n_tr, d), features already expanded
    ytr : ndarray of shape (n_tr,), labels 0 and 1
    Xte : ndarray of shape (n_te, d), may have 0 rows
    yte : ndarray of shape (n_te,)

    Attributes
    ----------
    params : list of (W, b), views into the flat weight vector (they change as it trains)
    epoch : int, whole epochs trained
    history : dict of lists, keys HISTORY_KEYS; thinned (every epoch to 100, every 10th to
        1,000, ...) but always ending with the latest epoch
    diverged : str or None, the reason training stopped for good
    """

    def __init__(self, cfg, Xtr, ytr, Xte, yte):
        cfg = TrainConfig(**asdict(cfg))
        cfg.hidden = tuple(int(u) for u in cfg.hidden)
        check_config(cfg)
        self.cfg = cfg
        self.Xtr = np.ascontiguousarray(Xtr, dtype=float)                      # (n_tr, d)
        if self.Xtr.ndim != 2 or len(self.Xtr) == 0:
            raise ValueError("need a 2-D array with at least one training point")
        self.ytr = np.asarray(ytr, dtype=float).reshape(-1)                    # (n_tr,)
        self.Xte = np.ascontiguousarray(Xte, dtype=float).reshape(-1, self.Xtr.shape[1])  # (n_te, d)
        self.yte = np.asarray(yte, dtype=float).reshape(-1)                    # (n_te,)
        if len(self.Xtr) != len(self.ytr) or len(self.Xte) != len(self.yte):
            raise ValueError("need one label per point")
        self.sizes = [self.Xtr.shape[1], *cfg.hidden, 1]
        n = len(self.Xtr)
        self._XT = np.vstack([self.Xtr.T, np.ones((1, n))])                    # (d + 1, n) ones for the bias
        self._s = (1.0 - 2.0 * self.ytr)[None, :]                              # (1, n)
        self._s2 = 2.0 * self._s                                               # (1, n)
        self._full = Workspace(self.sizes, n)
        self._full.load(self._XT, self._s)
        self._batches = {}
        self._passes = {}
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

    def reset(self):
        """Back to epoch 0 with the initial weights of cfg.seed and a fresh optimiser."""
        self.flat = flatten(init_params(self.sizes, self.cfg.seed))            # (P,)
        self.params = layer_views(self.flat, self.sizes)
        self._A = augmented_views(self.flat, self.sizes)
        self._l2mask = flatten([(np.ones_like(W), np.zeros_like(b)) for W, b in self.params])  # (P,)
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
        self.history = {k: [] for k in HISTORY_KEYS}
        self._record()

    def _new_optimizer(self):
        self.opt = make_optimizer(self.cfg.opt, self.flat.size, self.cfg.lr)
        self._G = augmented_views(self.opt.g, self.sizes)                      # gradient views, as _A
        self._passes = {}

    def set_hparams(self, **changes):
        """Change opt, lr, batch, l2 or act, keeping the weights; a new optimiser has fresh moments."""
        allowed = {"opt", "lr", "batch", "l2", "act"}
        bad = set(changes) - allowed
        if bad:
            raise ValueError(f"cannot change {sorted(bad)[0]!r} without a new network")
        new = TrainConfig(**{**asdict(self.cfg), **changes})
        new.hidden = self.cfg.hidden
        new.lr, new.l2, new.batch = float(new.lr), float(new.l2), int(new.batch)
        check_config(new)
        old, self.cfg = self.cfg, new
        if new.opt != old.opt:
            self._new_optimizer()
        self.opt.lr = new.lr
        if new.act != old.act:
            self._passes = {}
        if (new.act, new.l2) != (old.act, old.l2):  # the loss itself changed: re-measure this epoch
            self._version += 1
            self._record_latest()

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
            self._batches[m] = Workspace(self.sizes, m)
        return self._batches[m]

    def _train(self, epochs):
        """The hot loop: whole epochs until done or diverged; returns epochs done."""
        n = len(self.Xtr)
        bs = n if self.cfg.batch <= 0 else min(int(self.cfg.batch), n)
        opt, flat, backup = self.opt, self.flat, self._backup
        l2, l2mask, tmp, g = self.cfg.l2, self._l2mask, self._tmp, self.opt.g
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
                    scale = 0.5 / m  # the pass leaves 2 * the gradient summed over the batch
                    if l2:
                        g *= scale
                        np.multiply(flat, l2mask, out=tmp)
                        tmp *= l2
                        g += tmp
                        scale = 1.0
                    np.copyto(backup, flat)
                    self._backup_epoch = self.epoch
                    opt.step(flat, None, scale)
                self.epoch += 1
                self._version += 1
        return self.epoch - start

    def _load_batch(self, idx):
        """Copy the points idx into the workspace for their batch size; returns (its pass, size)."""
        ws = self._batch_workspace(len(idx))
        np.take(self._XT, idx, axis=1, out=ws.XT)
        np.take(self._s, idx, axis=1, out=ws.s)
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
    def _evaluate(self, X, y):
        if len(X) == 0:
            return float("nan"), float("nan")
        with np.errstate(all="ignore"):
            _, cache = forward(self.params, X, self.cfg.act)
            penalty = 0.5 * self.cfg.l2 * float(np.dot(self.flat * self._l2mask, self.flat))
            loss = bce(cache["logit"], y) + penalty
        return loss, float(np.mean((cache["logit"] > 0) == (y > 0.5)))

    def metrics(self):
        """Latest numbers: epoch, train_loss, test_loss, train_acc, test_acc (nan without test points)."""
        if self._cache is None or self._cache[0] != self._version:
            tr_loss, tr_acc = self._evaluate(self.Xtr, self.ytr)
            te_loss, te_acc = self._evaluate(self.Xte, self.yte)
            self._cache = (self._version, {"epoch": self.epoch, "train_loss": tr_loss, "test_loss": te_loss,
                                           "train_acc": tr_acc, "test_acc": te_acc})
        return dict(self._cache[1])

    def _record(self):
        """Append the current metrics to the history; a non-finite loss here means the last step diverged."""
        m = self.metrics()
        if not math.isfinite(m["train_loss"]) and not self.diverged:
            self._diverge()
            m = self.metrics()
            while self.history["epoch"] and self.history["epoch"][-1] >= self.epoch:
                for k in HISTORY_KEYS:
                    self.history[k].pop()
        for k in HISTORY_KEYS:
            self.history[k].append(m[k])
        self._recorded = self._version

    def _record_latest(self):
        """Make the history end with the current weights' numbers (replacing a stale entry for this epoch)."""
        if self.history["epoch"] and self.history["epoch"][-1] == self.epoch:
            if self._recorded == self._version:
                return
            for k in HISTORY_KEYS:
                self.history[k].pop()
        self._record()

    def predict(self, X, act=None):
        """P(class 1) at each row of X (n, d); `act` swaps the bend but keeps the weights."""
        with np.errstate(all="ignore"):
            return predict_proba(self.params, np.asarray(X, dtype=float), act or self.cfg.act)

    # --- export ----------------------------------------------------------------------------
    def to_dict(self):
        """JSON-able: the configuration, the epoch and the weights with their shapes."""
        return {
            "format": "layer-lab-mlp/1",
            "config": {**asdict(self.cfg), "hidden": list(self.cfg.hidden)},
            "sizes": list(self.sizes),
            "epoch": int(self.epoch),
            "layers": [{"W": W.tolist(), "b": b.tolist(), "W_shape": list(W.shape), "b_shape": list(b.shape)}
                       for W, b in self.params],
        }

    @classmethod
    def from_dict(cls, d, Xtr, ytr, Xte, yte):
        """A Trainer with saved configuration and weights; ValueError with a one-line reason if unusable."""
        try:
            if not isinstance(d, dict) or d.get("format") != "layer-lab-mlp/1":
                raise ValueError("not a Layer Lab network (format 'layer-lab-mlp/1' expected)")
            raw = d["config"]
            names = {f.name for f in fields(TrainConfig)}
            if not isinstance(raw, dict) or set(raw) - names:
                raise ValueError("the config has unknown fields")
            cfg = TrainConfig(**raw)
            try:
                cfg.hidden = tuple(int(u) for u in cfg.hidden)
                cfg.lr, cfg.l2 = float(cfg.lr), float(cfg.l2)
                cfg.batch, cfg.seed = int(cfg.batch), int(cfg.seed)
            except (TypeError, ValueError):
                raise ValueError("the config holds a value of the wrong type") from None
            t = cls(cfg, Xtr, ytr, Xte, yte)
            layers = d["layers"]
            if not isinstance(layers, list) or len(layers) != len(t.params):
                raise ValueError(f"expected {len(t.params)} layers, got "
                                 f"{len(layers) if isinstance(layers, list) else 'none'}")
            for k, ((W, b), layer) in enumerate(zip(t.params, layers, strict=True)):
                try:
                    Wn = np.asarray(layer["W"], dtype=float)
                    bn = np.asarray(layer["b"], dtype=float)
                except (TypeError, ValueError):
                    raise ValueError(f"malformed network file: layer {k + 1} holds something "
                                     "other than numbers") from None
                if Wn.shape != W.shape or bn.shape != b.shape:
                    raise ValueError(f"layer {k + 1} has shape {Wn.shape}/{bn.shape}, the network needs "
                                     f"{W.shape}/{b.shape}")
                if not (np.isfinite(Wn).all() and np.isfinite(bn).all()):
                    raise ValueError(f"layer {k + 1} has weights that are not finite numbers")
                W[:], b[:] = Wn, bn
            try:
                t.epoch = max(0, int(d.get("epoch", 0)))
            except (TypeError, ValueError):
                raise ValueError("the epoch is not a whole number") from None
            t._restart()
            return t
        except ValueError:
            raise
        except (KeyError, TypeError, AttributeError, OverflowError) as e:
            raise ValueError(f"malformed network file ({type(e).__name__}: {e})") from None

    def encode_weights(self):
        """The weights as URL-safe text (float32, base64), or None above MAX_LINK_PARAMS parameters."""
        if self.flat.size > MAX_LINK_PARAMS:
            return None
        raw = self.flat.astype("<f4").tobytes()
        return base64.urlsafe_b64encode(raw).decode("ascii").rstrip("=")

    def load_weights(self, text):
        """Load weights from encode_weights' text; ValueError with a one-line reason, nothing loaded."""
        if not isinstance(text, str) or not text:
            raise ValueError("the weights text is empty")
        try:
            raw = base64.b64decode(text + "=" * (-len(text) % 4), altchars=b"-_", validate=True)
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


def n_params(cfg, n_in):
    """Parameters of the network cfg describes, on n_in input features."""
    return param_total([n_in, *cfg.hidden, 1])

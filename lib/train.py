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

from lib.activations import ACTIVATIONS
from lib.mlp import (
    bce,
    flatten,
    forward,
    init_params,
    layer_views,
    loss_and_grads,
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
    """

    def __init__(self, cfg, Xtr, ytr, Xte, yte):
        cfg = TrainConfig(**asdict(cfg))
        cfg.hidden = tuple(int(u) for u in cfg.hidden)
        check_config(cfg)
        self.cfg = cfg
        self.Xtr = np.ascontiguousarray(Xtr, dtype=float)                      # (n_tr, d)
        self.ytr = np.asarray(ytr, dtype=float).reshape(-1)                    # (n_tr,)
        self.Xte = np.ascontiguousarray(Xte, dtype=float).reshape(-1, self.Xtr.shape[1])  # (n_te, d)
        self.yte = np.asarray(yte, dtype=float).reshape(-1)                    # (n_te,)
        if len(self.Xtr) == 0 or len(self.Xtr) != len(self.ytr) or len(self.Xte) != len(self.yte):
            raise ValueError("need at least one training point and one label per point")
        self.sizes = [self.Xtr.shape[1], *cfg.hidden, 1]
        self.reset()

    # --- state -----------------------------------------------------------------------------
    def reset(self):
        """Back to epoch 0 with the initial weights of cfg.seed and a fresh optimiser."""
        self.flat = flatten(init_params(self.sizes, self.cfg.seed))            # (P,)
        self.params = layer_views(self.flat, self.sizes)
        self._backup = self.flat.copy()                                        # (P,) last finite weights
        self.opt = make_optimizer(self.cfg.opt, self.flat.size, self.cfg.lr)
        self.rng = np.random.default_rng(self.cfg.seed)
        self.epoch = 0
        self.diverged = None
        self.history = {k: [] for k in HISTORY_KEYS}
        self._record(self.metrics())

    def set_hparams(self, **changes):
        """Change opt, lr, batch, l2 or act and keep the weights; a new optimiser starts fresh."""
        allowed = {"opt", "lr", "batch", "l2", "act"}
        bad = set(changes) - allowed
        if bad:
            raise ValueError(f"cannot change {sorted(bad)[0]!r} without a new network")
        new = TrainConfig(**{**asdict(self.cfg), **changes})
        new.hidden = self.cfg.hidden
        check_config(new)
        if new.opt != self.cfg.opt:
            self.opt = make_optimizer(new.opt, self.flat.size, new.lr)
        self.opt.lr = float(new.lr)
        self.cfg = new

    # --- training --------------------------------------------------------------------------
    def _epoch(self):
        """One epoch; returns False (and restores the last finite weights) if the loss is not finite."""
        n = len(self.Xtr)
        bs = n if self.cfg.batch <= 0 else min(int(self.cfg.batch), n)
        order = np.arange(n) if bs == n else self.rng.permutation(n)
        for start in range(0, n, bs):
            idx = order[start:start + bs]
            loss, grads = loss_and_grads(self.params, self.Xtr[idx], self.ytr[idx], self.cfg.act, self.cfg.l2)
            if not math.isfinite(loss):
                return self._diverge(loss)
            g = flatten(grads)                                                 # (P,)
            self._backup[:] = self.flat
            self.opt.step(self.flat, g)
        return True

    def _diverge(self, loss):
        self.flat[:] = self._backup
        self.diverged = (f"training stopped at epoch {self.epoch:,}: the loss became {loss} "
                         "(the learning rate is too large); the last finite weights are kept")
        return False

    def step(self, epochs=1):
        """Train whole epochs; returns how many were done (fewer if training diverged)."""
        done = 0
        for _ in range(int(epochs)):
            if self.diverged:
                break
            if not self._epoch():
                break
            self.epoch += 1
            done += 1
            m = self._metrics_now()
            if m is None:
                break
            if self.epoch % _record_every(self.epoch) == 0:
                self._record(m)
        self._record_latest()
        return done

    def run_for(self, seconds, max_epochs=None):
        """Train as many whole epochs as fit in `seconds` (at most max_epochs); returns epochs done."""
        end = time.perf_counter() + float(seconds)
        done, chunk = 0, 1
        while not self.diverged and (max_epochs is None or done < max_epochs):
            k = chunk if max_epochs is None else min(chunk, max_epochs - done)
            t0 = time.perf_counter()
            got = self.step(k)
            done += got
            now = time.perf_counter()
            if got < k or now >= end:
                break
            per = (now - t0) / max(got, 1)
            chunk = max(1, min(4 * chunk, int(0.25 * (end - now) / max(per, 1e-9))))
        return done

    # --- metrics ---------------------------------------------------------------------------
    def _metrics_now(self):
        """Metrics of the current weights; None (and training stopped) if the loss is not finite."""
        m = self.metrics()
        if not math.isfinite(m["train_loss"]):
            self._diverge(m["train_loss"])
            self.epoch -= 1
            return None
        return m

    def _evaluate(self, X, y):
        if len(X) == 0:
            return float("nan"), float("nan")
        p, cache = forward(self.params, X, self.cfg.act)
        loss = bce(cache["logit"], y) + 0.5 * self.cfg.l2 * sum(float(np.sum(W * W)) for W, _ in self.params)
        return loss, float(np.mean((p > 0.5) == (y > 0.5)))

    def metrics(self):
        """Latest numbers: epoch, train_loss, test_loss, train_acc, test_acc (nan without test points)."""
        tr_loss, tr_acc = self._evaluate(self.Xtr, self.ytr)
        te_loss, te_acc = self._evaluate(self.Xte, self.yte)
        return {"epoch": self.epoch, "train_loss": tr_loss, "test_loss": te_loss,
                "train_acc": tr_acc, "test_acc": te_acc}

    def _record(self, m):
        for k in HISTORY_KEYS:
            self.history[k].append(m[k])

    def _record_latest(self):
        if self.history["epoch"][-1] != self.epoch:
            self._record(self.metrics())

    def predict(self, X, act=None):
        """P(class 1) at each row of X (n, d); `act` swaps the bend but keeps the weights."""
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
            cfg.hidden = tuple(int(u) for u in cfg.hidden)
            cfg.lr, cfg.l2 = float(cfg.lr), float(cfg.l2)
            cfg.batch, cfg.seed = int(cfg.batch), int(cfg.seed)
            t = cls(cfg, Xtr, ytr, Xte, yte)
            layers = d["layers"]
            if not isinstance(layers, list) or len(layers) != len(t.params):
                raise ValueError(f"expected {len(t.params)} layers, got "
                                 f"{len(layers) if isinstance(layers, list) else 'none'}")
            for k, ((W, b), layer) in enumerate(zip(t.params, layers, strict=True)):
                Wn = np.asarray(layer["W"], dtype=float)
                bn = np.asarray(layer["b"], dtype=float)
                if Wn.shape != W.shape or bn.shape != b.shape:
                    raise ValueError(f"layer {k + 1} has shape {Wn.shape}/{bn.shape}, the network needs "
                                     f"{W.shape}/{b.shape}")
                if not (np.isfinite(Wn).all() and np.isfinite(bn).all()):
                    raise ValueError(f"layer {k + 1} has weights that are not finite numbers")
                W[:], b[:] = Wn, bn
            t.epoch = max(0, int(d.get("epoch", 0)))
            t._restart_history()
            return t
        except ValueError:
            raise
        except (KeyError, TypeError, AttributeError, OverflowError) as e:
            raise ValueError(f"malformed network file ({type(e).__name__}: {e})") from None

    def _restart_history(self):
        self._backup[:] = self.flat
        self.opt = make_optimizer(self.cfg.opt, self.flat.size, self.cfg.lr)
        self.history = {k: [] for k in HISTORY_KEYS}
        self._record(self.metrics())

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
            raw = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
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
        self.diverged = None
        self._restart_history()


def n_params(cfg, n_in):
    """Parameters of the network cfg describes, on n_in input features."""
    return param_total([n_in, *cfg.hidden, 1])

"""The right answers to what each page can be asked (lib/asks.py), computed from a step's link values.

Each function takes the page's link values as its LINKS parse them (`lib.asks.LinkValues`: every key, the
link's value or the declared default) and calls only what lib already computes for that page: the page
and the answer share one formula. A link the page shows something else for (another problem type, points
placed by hand) is a ValueError, one line a teacher can act on. Pure: NumPy and lib only.

Numbers are in the unit the question names (percent as 0 to 100); a yes-or-no answer is the index of
lib.asks.YES_NO's choice (0 yes, 1 no).
"""

from __future__ import annotations

import functools
from collections.abc import Mapping

import numpy as np

from lib.activations import ACTIVATIONS
from lib.asks import LinkValues

YES, NO = 0, 1


def _yes(flag: bool) -> int:
    return YES if flag else NO


# --- /recipe-card: y = xW + b -------------------------------------------------------------------
def card(values: Mapping, prefix: str = "") -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The card's layer: x (nin,), W (nin, nout), b (nout,), from the keys x1.., w11.., b1.. (with a
    prefix for another page's copy of them)."""
    nin, nout = int(values["nin"]), int(values["nout"])
    x = np.array([float(values[f"{prefix}x{i + 1}"]) for i in range(nin)])                      # (nin,)
    W = np.array([[float(values[f"{prefix}w{i + 1}{j + 1}"]) for j in range(nout)]
                  for i in range(nin)])                                                       # (nin, nout)
    b = np.array([float(values[f"{prefix}b{j + 1}"]) for j in range(nout)])                      # (nout,)
    return x, W, b


def recipe_output(values: LinkValues, j: int = 1) -> float:
    """Output y_j of the card, y = xW + b (lib.layers.linear)."""
    from lib.layers import linear

    x, W, b = card(values)
    if not 1 <= j <= W.shape[1]:
        raise ValueError(f"this card has outputs y1 to y{W.shape[1]}, not y{j}")
    return float(linear(x, W, b)[j - 1])


def recipe_params(values: LinkValues) -> int:
    """The layer's parameters, every weight and bias (lib.layers.param_count)."""
    from lib.layers import param_count

    return param_count(int(values["nin"]), int(values["nout"]))


# --- /stacking: the mini network 3 -> 2 -> 1 and its steps of learning ----------------------------
def _mini(values: Mapping) -> tuple[np.ndarray, dict, float, str]:
    """The mini network's input x (3,), its starting parameters, the target and the bend."""
    x = np.array([float(values[f"mx{i + 1}"]) for i in range(3)])                                 # (3,)
    start = {"W1": np.array([[float(values[f"mw{i + 1}{j + 1}"]) for j in range(2)] for i in range(3)]),
             "b1": np.array([float(values[f"mb{j + 1}"]) for j in range(2)]),
             "W2": np.array([[float(values[f"pw{i + 1}1"])] for i in range(2)]),
             "b2": np.array([float(values["pb1"])])}
    return x, start, float(values["target"]), "relu" if values["relu"] else "identity"


def mini_after(values: Mapping) -> tuple[dict, list[float], np.ndarray, float, str]:
    """The mini network after the link's `steps` steps at its rate (lib.onestep.steps): the parameters,
    the losses (before each step and after the last), x, the target and the bend."""
    from lib.onestep import steps

    x, start, target, bend = _mini(values)
    now, losses = steps(start, x, target, float(values["lr"]), int(values["steps"]), bend)
    return now, losses, x, target, bend


def mini_prediction(values: LinkValues) -> float:
    """The prediction y-hat of the network as the page shows it, after the link's steps."""
    from lib.recipe import mini_network

    now, _, x, _, bend = mini_after(values)
    return float(mini_network(x, now["W1"], now["b1"], now["W2"], now["b2"], bend)[3][0])


def mini_loss(values: LinkValues) -> float:
    """The loss (y-hat - y)^2 after the link's steps (the last of lib.onestep.steps' losses)."""
    return float(mini_after(values)[1][-1])


FOLD_BOX = 5.0   # the mini network's inputs run from -5 to 5 (its sliders)


def mini_folds(values: LinkValues, n: int = 9) -> int:
    """Does the network, as it stands after the link's steps, fold into the one layer x(WW') + (bW' + b')
    (lib.layers.collapse) for every input in the sliders' box? Checked on an n x n x n grid of inputs."""
    from lib.layers import collapse, linear
    from lib.recipe import mini_network

    now, _, _, _, bend = mini_after(values)
    axis = np.linspace(-FOLD_BOX, FOLD_BOX, n)                                            # (n,)
    X = np.stack(np.meshgrid(axis, axis, axis), axis=-1).reshape(-1, 3)                    # (n³, 3)
    *_, y = mini_network(X, now["W1"], now["b1"], now["W2"], now["b2"], bend)              # (n³, 1)
    W, b = collapse(now["W1"], now["b1"], now["W2"], now["b2"])                             # (3, 1), (1,)
    one = linear(X, W, b)                                                                  # (n³, 1)
    return _yes(float(np.abs(y - one).max()) <= 1e-9 * max(1.0, float(np.abs(one).max())))


def compound_size(values: LinkValues) -> float:
    """How many times larger the numbers are after `depth` layers that each scale them by `scale`:
    scale ** depth (lib.depth.compound's last entry)."""
    from lib.depth import compound

    return float(compound(float(values["scale"]), int(values["depth"]))[-1])


def batch_outputs(values: LinkValues) -> int:
    """How many numbers Y = XW + b holds for the link's batch: tokens rows of nout outputs, one W."""
    return int(values["tokens"]) * int(values["nout"])


# --- /activations: a bend, and two layers with or without it -----------------------------------
def bend_value(values: LinkValues) -> float:
    """The link's bend at the link's x, f(x) (lib.activations)."""
    return float(ACTIVATIONS[values["bend"]].fn(np.array([float(values["x"])]))[0])


def bend_slope(values: LinkValues) -> float:
    """The link's bend's slope at the link's x, f'(x): what backpropagation multiplies by there."""
    return float(ACTIVATIONS[values["bend"]].grad(np.array([float(values["x"])]))[0])


def stack_depth(values: Mapping):
    """lib.bends.depth of the link's network: W1 (1, h), b1 (h,), W2 (h, 1), b2 (1,), its bend."""
    from lib import bends

    W1, b1 = np.atleast_2d(values["w1"]), np.asarray(values["b1"], dtype=float).reshape(-1)
    W2, b2 = np.asarray(values["w2"], dtype=float), np.asarray(values["b2"], dtype=float).reshape(-1)
    return bends.depth(W1, b1, W2.reshape(-1, 1), b2, ACTIVATIONS[values["bend"]])


def stack_collapses(values: LinkValues) -> int:
    """Is the two-layer network the single layer x(W1W2) + (b1W2 + b2) for every x drawn (lib.bends)?"""
    from lib import bends

    return _yes(bends.collapses(stack_depth(values)))


def stack_gap(values: LinkValues) -> float:
    """How far the network and the single layer it would collapse to part, at most, for x drawn."""
    return float(stack_depth(values).gap)


# --- /tax-bands: a sum of ramps -----------------------------------------------------------------
def schedule(values: Mapping) -> tuple[np.ndarray, np.ndarray]:
    """The schedule in force, the link's bands or else its preset's: thresholds (k,), rates (k,) in 0..1."""
    from lib import tax

    if values.get("bands") is not None:
        t, r = values["bands"]
        return np.asarray(t, dtype=float), np.asarray(r, dtype=float)
    preset = tax.PRESETS[values["preset"]]
    return np.asarray(preset.thresholds, dtype=float), preset.rates


def tax_at(values: LinkValues) -> float:
    """The tax at the link's income (lib.tax.relu_tax)."""
    from lib.tax import relu_tax

    return float(relu_tax(float(values["income"]), *schedule(values)))


def marginal_at(values: LinkValues) -> float:
    """The marginal rate at the link's income, in percent (lib.tax.marginal_rate)."""
    from lib.tax import marginal_rate

    return 100.0 * float(marginal_rate(float(values["income"]), *schedule(values)))


def effective_at(values: LinkValues) -> float:
    """The effective rate, tax / income, at the link's income, in percent (lib.tax.effective_rate)."""
    from lib.tax import effective_rate

    return 100.0 * float(effective_rate(float(values["income"]), *schedule(values)))


@functools.lru_cache(maxsize=16)
def _fits(target: str, mode: str) -> tuple:
    from lib.relufit import fit_table

    return fit_table(target, mode)


def ramp_errors(values: Mapping) -> np.ndarray:
    """The root-mean-square error of the link's curve with 1, 2, ... 20 ramps (lib.relufit.fit_table)."""
    return np.array([f.rmse for f in _fits(values["target"], values["knots"])])


def ramps_needed(values: LinkValues, error: float = 0.05) -> int:
    """The fewest ramps whose sum follows the link's curve within `error` (root-mean-square)."""
    rmse = ramp_errors(values)                                                           # (20,)
    hit = np.flatnonzero(rmse <= error)
    if not hit.size:
        raise ValueError(f"no number of ramps up to {rmse.size} gets within {error:g}")
    return int(hit[0]) + 1


# --- /gpt2-params: a transformer's parameters -------------------------------------------------------
def gpt2_config(values: LinkValues):
    """The configuration the page shows: its preset's fields, each replaced by the link's where the link
    gives it; the preset's own while they do not make a model (lib.transformer.validate), as the page."""
    from lib.transformer import LINK_KEYS, PRESETS, TransformerConfig, validate

    base = PRESETS[values["preset"]]
    given = getattr(values, "given", frozenset(values))
    fields = {attr: values[key] if key in given else getattr(base, attr) for attr, key in LINK_KEYS.items()}
    cfg = TransformerConfig(**{a: int(v) if isinstance(v, float) and v.is_integer() else v
                               for a, v in fields.items()})
    return base if validate(cfg) else cfg


@functools.lru_cache(maxsize=64)
def _totals(cfg):
    from lib.transformer import totals

    return totals(cfg)


def gpt2_total(values: LinkValues) -> int:
    """Every parameter of the model, as Hugging Face counts them (lib.transformer.totals)."""
    return _totals(gpt2_config(values)).total


def gpt2_per_block(values: LinkValues) -> int:
    """The parameters of one transformer block."""
    return _totals(gpt2_config(values)).per_block


def gpt2_mlp_share(values: LinkValues) -> float:
    """The share of the model in its blocks' MLPs, in percent."""
    t = _totals(gpt2_config(values))
    return 100.0 * t.mlp / t.total


def gpt2_memory(values: LinkValues, dtype: str = "bf16") -> float:
    """Gigabytes (10⁹ bytes) to hold the weights in `dtype` (lib.transformer.memory_bytes)."""
    from lib.transformer import memory_bytes

    return memory_bytes(gpt2_total(values), dtype) / 1e9


# --- /gpt2-mlp: widen, bend, narrow ---------------------------------------------------------------
def mlp_steps(values: Mapping):
    """lib.ffn.ffn of the link's tokens and weights (the biases only when the link switches them on)."""
    from lib import ffn

    b1, b2 = (values["b1"], values["b2"]) if values["bias"] else (None, None)
    return ffn.ffn(values["x"], values["w1"], values["w2"], b1, b2, values["act"])


def mlp_on(values: LinkValues) -> int:
    """How many hidden values of the table are on, z > 0 (lib.ffn.units_on)."""
    from lib import ffn

    return int(ffn.units_on(mlp_steps(values).pre).sum())


def mlp_output(values: LinkValues, feature: int = 1) -> float:
    """Output feature `feature` of the link's token `tok`, y = GELU(x W1 + b1) W2 + b2."""
    out = mlp_steps(values).out                                                          # (tokens, d)
    if not 1 <= feature <= out.shape[1]:
        raise ValueError(f"the block's outputs are d1 to d{out.shape[1]}")
    return float(out[int(values["tok"]) - 1, feature - 1])


def mlp_widen(values: LinkValues) -> float:
    """How many times as many numbers GPT-2's hidden layer holds per token as its input: d_ff / d_model."""
    from lib.ffn import GPT2_D, GPT2_D_FF

    return GPT2_D_FF / GPT2_D


@functools.lru_cache(maxsize=16)
def _real_bend(seed: int, init: str, act: str, ratio: float) -> dict:
    from lib import ffn

    W1, W2 = ffn.random_block(seed=seed, init=init)
    return ffn.bend_summary(ffn.real_tokens(seed), W1, W2, act, ratio)


def mlp_near_zero(values: LinkValues) -> float:
    """The share, in percent, of the full-size block's hidden values that GELU pushes near zero (|GELU(z)|
    under the link's `near` share of |z|; lib.ffn.bend_summary of the link's seed and weight scale)."""
    bend = _real_bend(int(values["seed"]), values["init"], values["act"], float(values["near"]))
    return 100.0 * bend["near_share"]


# --- /trainer: two classes, trained as the page trains them -------------------------------------------
EPOCHS = 300      # what "trained" means when a question does not say
NOT_ASKED = ("pts", "w", "only")   # link keys a trainer question does not follow (points, weights by hand)


def trainer_view(values: Mapping):
    """The link's two-class run as lib.settings' frozen Spec (the page's own): every `spec` setting from the
    link values, the cells only for the checkerboard, the inputs in the order the page feeds them.
    ValueError for a view a question cannot be computed for."""
    from dataclasses import replace

    from lib import settings
    from lib.features import FEATURES

    if values["problem"] != "classify":
        raise ValueError("a trainer question is about two classes (problem=classify)")
    if any(values.get(k) for k in NOT_ASKED):
        raise ValueError("a trainer question follows the built-in data and fresh weights, not points or "
                         "weights in the link")
    spec = settings.Spec(**{k: values[k] / s.per if s.per != 1 else values[k]
                            for k, s in settings.BY_KEY.items() if s.spec and k in values})
    feat = tuple(f for f in FEATURES if f in spec.feat) or settings.BY_KEY["feat"].default
    return replace(spec, feat=tuple(feat), cells=spec.cells if spec.dataset == "checkerboard" else None)


def _points(spec):
    from lib.datasets import make_problem

    return make_problem(spec.problem, spec.dataset, spec.n, noise=spec.noise, seed=spec.seed, k=spec.k,
                        cells=spec.cells)


@functools.lru_cache(maxsize=64)
def _trained(spec, epochs: int) -> tuple[dict, str | None]:
    """The run after `epochs` whole epochs from the seed's weights: its metrics and why it stopped."""
    from lib.datasets import split
    from lib.features import expand
    from lib.train import Trainer

    X, y = _points(spec)
    Xtr, ytr, Xte, yte = split(X, y, train_share=spec.train, seed=spec.seed, stratify=True)
    t = Trainer(spec.config(), expand(Xtr, list(spec.feat)), ytr, expand(Xte, list(spec.feat)), yte)
    t.step(int(epochs))
    return t.metrics(), t.diverged


def trainer_accuracy(values: LinkValues, epochs: int = EPOCHS) -> float:
    """Test accuracy, in percent, after `epochs` epochs from the link's seed (lib.train.Trainer)."""
    return 100.0 * float(_trained(trainer_view(values), int(epochs))[0]["test_acc"])


def trainer_train_accuracy(values: LinkValues, epochs: int = EPOCHS) -> float:
    """Accuracy on the training points, in percent, after `epochs` epochs from the link's seed."""
    return 100.0 * float(_trained(trainer_view(values), int(epochs))[0]["train_acc"])


def trainer_diverges(values: LinkValues, epochs: int = EPOCHS) -> int:
    """Does training stop with a loss that is no longer a number within `epochs` epochs?"""
    return _yes(_trained(trainer_view(values), int(epochs))[1] is not None)


def line_splits(values: LinkValues) -> int:
    """Can one straight line put every point of the link's data on its own class's side? (lib.ring's best
    line, every direction and cut tried, reaches 100 %.)"""
    from lib.ring import best_line_accuracy

    X, y = _points(trainer_view(values))
    return _yes(best_line_accuracy(X, y) >= 1.0)

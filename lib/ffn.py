"""GPT-2's feed-forward (MLP) block: x -> W1 (+b1) -> GELU -> W2 (+b2), every step kept.

Also what a student needs to check a hand-worked example against it (a parser for pasted
tables and a cell-by-cell comparison), and the facts the full-size block shows: tokens go
through it independently, GELU squashes part of the hidden layer towards zero, and without
GELU the two matrices are one.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

import numpy as np
from scipy.optimize import brentq

from lib.activations import ACTIVATIONS, Activation
from lib.layers import collapse, linear, param_count
from lib.transformer import PRESETS

GELUS = ("gelu", "gelu_tanh")  # the two GELUs GPT-2 checkpoints are run with (exact, tanh)

# Seed 004's worked example: the inputs (these are given, not computed).
SEED_X = np.array([            # (5, 3): five tokens after LayerNorm, three features each
    [1.40, -1.52, 0.12],
    [-1.15, 1.29, -0.14],
    [0.71, 0.70, -1.41],
    [1.31, -1.14, -0.17],
    [-0.16, 0.91, -0.75],
])
SEED_W1 = np.array([           # (3, 6): widen three features to six hidden units
    [0.4, -0.2, 0.1, 0.6, -0.5, 0.3],
    [-0.1, 0.8, -0.4, 0.2, 0.7, -0.6],
    [0.5, 0.3, 0.9, -0.2, 0.1, 0.4],
])
SEED_W2 = np.array([           # (6, 3): narrow back to three
    [0.2, -0.4, 0.5],
    [-0.3, 0.6, 0.1],
    [0.7, -0.2, -0.5],
    [0.1, 0.3, 0.8],
    [-0.6, 0.5, 0.2],
    [0.4, -0.1, 0.3],
])

# The tables seed 004 printed as its hand-worked answer. They contain arithmetic slips ON
# PURPOSE: they are what a student might paste into the checker, never values to display.
SEED_HAND = {
    "pre": np.array([          # (5, 6): x W1, before GELU
        [0.772, -1.460, 0.856, 0.512, -1.752, 1.428],
        [-0.644, 1.219, -0.757, -0.404, 1.463, -1.180],
        [-0.492, 0.118, -1.478, -0.566, -0.006, -0.891],
        [0.551, -1.228, 0.438, 0.575, -1.471, 1.012],
        [-0.529, 0.536, -1.055, 0.236, 0.640, -0.903],
    ]),
    "post": np.array([         # (5, 6): after GELU
        [0.603, -0.106, 0.689, 0.357, -0.070, 1.319],
        [-0.167, 1.082, -0.170, -0.139, 1.354, -0.141],
        [-0.153, 0.064, -0.103, -0.161, -0.003, -0.167],
        [0.391, -0.135, 0.293, 0.414, -0.105, 0.854],
        [-0.158, 0.378, -0.154, 0.140, 0.473, -0.165],
    ]),
    "out": np.array([          # (5, 3): GELU output times W2
        [1.228, -0.564, 0.583],
        [-0.810, 1.420, -0.561],
        [-0.210, 0.117, -0.015],
        [0.836, -0.351, 0.390],
        [-0.339, 0.563, -0.140],
    ]),
}
TABLES = ("pre", "post", "out")  # the three intermediate tables, in the order they are computed


# --- the block ---------------------------------------------------------------------------

@dataclass(frozen=True)
class FFNSteps:
    """Every intermediate of one pass through the block (n tokens, d features, d_ff hidden)."""

    x: np.ndarray     # (n, d)     the tokens going in
    pre: np.ndarray   # (n, d_ff)  x W1 + b1, before the bend
    post: np.ndarray  # (n, d_ff)  GELU(pre)
    out: np.ndarray   # (n, d)     post W2 + b2, what the block adds to the residual stream


def gelu_act(name: str = "gelu") -> Activation:
    """The GELU variant by its link value: 'gelu' (exact, erf) or 'gelu_tanh' (GPT-2's code)."""
    if name not in GELUS:
        raise ValueError(f"unknown GELU variant {name!r}; use one of {GELUS}")
    return ACTIVATIONS[name]


def ffn(x, W1, W2, b1=None, b2=None, act: str = "gelu") -> FFNSteps:
    """Run the MLP block and keep every step.

    Parameters
    ----------
    x : array of shape (n, d)
        One row per token (GPT-2 feeds the LayerNorm of the residual stream).
    W1 : array of shape (d, d_ff)
        c_fc, the widening matrix (GPT-2 small: 768 x 3,072).
    W2 : array of shape (d_ff, d)
        c_proj, the narrowing matrix.
    b1 : array of shape (d_ff,), optional
    b2 : array of shape (d,), optional
    act : "gelu" or "gelu_tanh"

    Returns
    -------
    FFNSteps with pre, post of shape (n, d_ff) and out of shape (n, d).
    """
    x = np.atleast_2d(np.asarray(x, dtype=float))  # (n, d)
    pre = linear(x, W1, b1)                         # (n, d_ff)
    post = gelu_act(act).fn(pre)                    # (n, d_ff)
    return FFNSteps(x, pre, post, linear(post, W2, b2))  # out: (n, d)


def gate(pre, act: str = "gelu") -> np.ndarray:
    """The share of each hidden value GELU lets through, GELU(z) / z (Φ(z) for exact GELU).

    At z = 0 the ratio's limit is 1/2. Same shape as `pre`.
    """
    z = np.asarray(pre, dtype=float)
    safe = np.where(z == 0.0, 1.0, z)
    return np.where(z == 0.0, 0.5, gelu_act(act).fn(safe) / safe)


def units_on(pre) -> np.ndarray:
    """Which hidden units are "on": z > 0, where GELU passes more than half of z (bool, same shape)."""
    return np.asarray(pre, dtype=float) > 0.0


# --- checking a hand-worked example ---------------------------------------------------------

_NUMBER_SPLIT = re.compile(r"[\s,;]+")
_ROW_GROUP = re.compile(r"\[([^\[\]]*)\]")     # an innermost [ ... ]: one row
_NAME_PREFIX = re.compile(r"^\s*[A-Za-z_][A-Za-z0-9_]*\s*=")  # "ffn_output =" before the list
_MAX_CHARS = 20_000  # a pasted table is a few hundred characters; refuse pasted novels
_MAX_CELLS = 10_000


def _number(cell: str, i: int, j: int) -> float:
    try:
        v = float(cell)
    except ValueError:
        # Only harmless characters go back on screen (the message is shown as markdown).
        shown = re.sub(r"[^A-Za-z0-9.+\-]", "?", cell)
        shown = shown if len(shown) <= 12 else shown[:11] + "…"
        raise ValueError(f"row {i + 1}, column {j + 1}: '{shown}' is not a number") from None
    if not math.isfinite(v):
        raise ValueError(f"row {i + 1}, column {j + 1}: '{cell}' is not a finite number")
    return v


def parse_table(text: str) -> np.ndarray:
    """Read a pasted table into a matrix, without ever evaluating the text.

    Accepts the seed's Python-list form (``[[0.772, -1.460], [-0.644, 1.219]]``, optionally
    after ``name =`` and with ``#`` comments) or plain rows, one per line, numbers split by
    spaces, commas or semicolons. Unicode minus signs (from web pages) count as minus.

    Returns
    -------
    array of shape (rows, cols)

    Raises
    ------
    ValueError with a one-line reason a student can act on.
    """
    text = str(text)
    if len(text) > _MAX_CHARS:
        raise ValueError(f"too long ({len(text):,} characters); paste one table")
    text = text.replace("\u2212", "-").replace("\u2013", "-")
    lines = [line.split("#", 1)[0] for line in text.splitlines()]
    text = "\n".join(lines)
    if "[" in text or "]" in text:
        body = _NAME_PREFIX.sub("", text, count=1)
        rows = _ROW_GROUP.findall(body)
        stray = _ROW_GROUP.sub("", body)
        if not rows or re.fullmatch(r"[\s\[\],]*", stray) is None or body.count("[") != body.count("]"):
            raise ValueError("brackets do not match the form [[a, b, ...], [c, d, ...]]")
    else:
        rows = [line for line in text.splitlines() if line.strip()]
    if not rows:
        raise ValueError("no numbers found")
    cells = [[c for c in _NUMBER_SPLIT.split(r.strip()) if c] for r in rows]
    cells = [r for r in cells if r]
    if not cells:
        raise ValueError("no numbers found")
    width = len(cells[0])
    for i, r in enumerate(cells):
        if len(r) != width:
            raise ValueError(f"row {i + 1} has {len(r)} numbers but row 1 has {width}")
    if len(cells) * width > _MAX_CELLS:
        raise ValueError(f"{len(cells)} × {width} is too big for a hand-worked table")
    return np.array([[_number(c, i, j) for j, c in enumerate(r)] for i, r in enumerate(cells)])


@dataclass(frozen=True)
class Check:
    """One hand-worked table compared with lib's, cell by cell."""

    hand: np.ndarray     # (r, c) what the student wrote
    true: np.ndarray     # (r, c) what lib computes from the inputs
    diff: np.ndarray     # (r, c) hand - true
    wrong: np.ndarray    # (r, c) bool: |diff| > tol
    slip: np.ndarray     # (r, c) bool: wrong AND the step redone on the student's own previous
                         #          table disagrees too, so the error was made in this step
    tol: float

    @property
    def n_wrong(self) -> int:
        return int(self.wrong.sum())

    @property
    def n_slips(self) -> int:
        return int(self.slip.sum())

    @property
    def worst(self) -> tuple[float, int, int]:
        """(largest |diff|, its row, its column), 0-based."""
        i, j = np.unravel_index(int(np.argmax(np.abs(self.diff))), self.diff.shape)
        return float(abs(self.diff[i, j])), int(i), int(j)


def _off(diff, tol: float) -> np.ndarray:
    # A hair of slack so a slip of exactly `tol` (1.219 vs 1.220 at tol 0.001) is not decided
    # by binary rounding of the decimals.
    return np.abs(diff) > tol + 1e-9


def check_table(hand, true, tol: float = 1e-3, redone=None) -> Check:
    """Compare a hand-worked table with the computed one.

    Parameters
    ----------
    hand, true : arrays of the same shape (r, c)
    tol : a cell is wrong when |hand - true| > tol. 0.001 suits 3-decimal tables: it allows
        the last digit's rounding plus the rounding carried from an earlier rounded table.
    redone : array of shape (r, c), optional
        This step applied to the student's own previous table. A wrong cell that also
        disagrees with it is a slip made in this step; one that agrees carries an earlier slip.

    Raises
    ------
    ValueError if the shapes differ, naming both.
    """
    hand, true = np.asarray(hand, dtype=float), np.asarray(true, dtype=float)
    if hand.shape != true.shape:
        raise ValueError(f"expected {shape_text(true.shape)} numbers, got {shape_text(hand.shape)}")
    if tol < 0 or not math.isfinite(tol):
        raise ValueError("the tolerance must be a finite number >= 0")
    diff = hand - true                                        # (r, c)
    wrong = _off(diff, tol)
    slip = wrong if redone is None else wrong & _off(hand - np.asarray(redone, dtype=float), tol)
    return Check(hand, true, diff, wrong, slip, float(tol))


def check_steps(hand: dict, x, W1, W2, b1=None, b2=None, act: str = "gelu", tol: float = 1e-3) -> dict:
    """Check whichever of the student's tables ('pre', 'post', 'out') are given.

    Each table is compared with lib's value, and, when the student's previous table is
    given and has the right shape, with this step redone on it (see `check_table`).
    Returns {name: Check}; a table of the wrong shape raises ValueError naming the table.
    """
    steps = ffn(x, W1, W2, b1, b2, act)
    redo = {
        "pre": lambda: None,
        "post": lambda: gelu_act(act).fn(hand["pre"]),
        "out": lambda: linear(hand["post"], W2, b2),
    }
    prev = {"pre": None, "post": "pre", "out": "post"}
    out = {}
    for name in TABLES:
        if hand.get(name) is None:
            continue
        true = getattr(steps, name)
        p = prev[name]
        usable = p is not None and hand.get(p) is not None and np.shape(hand[p]) == getattr(steps, p).shape
        try:
            out[name] = check_table(hand[name], true, tol, redo[name]() if usable else None)
        except ValueError as err:
            raise ValueError(f"{name}: {err}") from None
    return out


def shape_text(shape) -> str:
    """(5, 6) -> '5 × 6' (as ui.fmt.shape writes shapes)."""
    return " × ".join(str(s) for s in shape)


def format_table(M, digits: int = 3) -> str:
    """A matrix in the seed's Python-list form, one row a line: what `parse_table` reads back.

    Plain ASCII (a hyphen for minus), because students paste it into code and back.
    """
    M = np.atleast_2d(np.asarray(M, dtype=float))
    rows = ["[" + ", ".join(f"{round(float(v), digits) + 0.0: .{digits}f}" for v in row) + "]" for row in M]
    return "[" + ",\n ".join(rows) + "]"


# --- the real size -----------------------------------------------------------------------------

GPT2 = PRESETS["gpt2"]            # GPT-2 small, from its published config (one table for all pages)
GPT2_D, GPT2_D_FF = GPT2.d_model, GPT2.d_ff   # 768 and the MLP's 4 x 768 = 3,072 middle
INITS = ("gpt2", "fan_in")        # link values of the weight scales below


def init_std(init: str, fan_in: int) -> float:
    """Standard deviation of random weights.

    'gpt2': 0.02 for every matrix, as GPT-2's initialisation (it further divides c_proj's by
    sqrt(2 * n_layer), which this single block leaves out). 'fan_in': 1 / sqrt(fan_in), which
    keeps each layer's output about as large as its input.
    """
    if init == "gpt2":
        return 0.02
    if init == "fan_in":
        return 1.0 / math.sqrt(fan_in)
    raise ValueError(f"unknown init {init!r}; use one of {INITS}")


def random_block(d: int = GPT2_D, d_ff: int = GPT2_D_FF, seed: int = 0, init: str = "gpt2"):
    """Random W1 (d, d_ff) and W2 (d_ff, d), zero biases as at GPT-2's initialisation."""
    rng = np.random.default_rng(seed)
    W1 = rng.normal(0.0, init_std(init, d), size=(d, d_ff))      # (d, d_ff)
    W2 = rng.normal(0.0, init_std(init, d_ff), size=(d_ff, d))   # (d_ff, d)
    return W1, W2


def layer_normed_tokens(n: int, d: int = GPT2_D, seed: int = 0) -> np.ndarray:
    """n random tokens scaled like LayerNorm's output (each row mean 0, variance 1): (n, d)."""
    x = np.random.default_rng(seed).normal(size=(n, d))          # (n, d)
    x = x - x.mean(axis=1, keepdims=True)
    return x / x.std(axis=1, keepdims=True)


def row_changes(x, i: int, new_row, W1, W2, b1=None, b2=None, act: str = "gelu") -> np.ndarray:
    """Replace token i's row and report how much each output row moved.

    Returns
    -------
    array of shape (n,): max |change| in each token's output row. Tokens do not talk to each
    other inside the MLP (that is attention's job), so only entry i can be non-zero.
    """
    x = np.array(x, dtype=float)                   # (n, d), a copy
    before = ffn(x, W1, W2, b1, b2, act).out       # (n, d)
    x[i] = new_row
    after = ffn(x, W1, W2, b1, b2, act).out        # (n, d)
    return np.max(np.abs(after - before), axis=1)  # (n,)


def near_zero(pre, post, ratio: float = 0.1) -> np.ndarray:
    """Hidden values GELU pushed near zero: |GELU(z)| < ratio * |z| (bool, same shape).

    For exact GELU that is Φ(z) < ratio: z below `near_zero_cutoff(ratio)`.
    """
    return np.abs(np.asarray(post, dtype=float)) < ratio * np.abs(np.asarray(pre, dtype=float))


def near_zero_cutoff(ratio: float = 0.1, act: str = "gelu") -> float:
    """The z below which GELU keeps less than `ratio` of z (0 < ratio < 0.5)."""
    if not 0.0 < ratio < 0.5:
        raise ValueError("ratio must lie strictly between 0 and 0.5")
    return float(brentq(lambda t: gate(t, act) - ratio, -40.0, -1e-12, xtol=1e-12))


def collapse_gap(x, W1, W2, b1=None, b2=None, act: str = "gelu") -> dict:
    """Compare the block with and without its GELU against the single collapsed matrix.

    Returns a dict: 'linear_gap' = max |(x W1 + b1) W2 + b2 - (x W + b)| (rounding only),
    'gelu_gap' = max |FFN(x) - (x W + b)| (what the bend adds), 'W' the collapsed (d, d)
    matrix, and the parameter counts of the two matrices and of the one.
    """
    W1, W2 = np.asarray(W1, dtype=float), np.asarray(W2, dtype=float)
    d, d_ff = W1.shape
    b1 = np.zeros(d_ff) if b1 is None else np.asarray(b1, dtype=float)
    b2 = np.zeros(W2.shape[1]) if b2 is None else np.asarray(b2, dtype=float)
    W, b = collapse(W1, b1, W2, b2)                        # (d, d_out), (d_out,)
    one = linear(x, W, b)                                  # (n, d_out)
    two = linear(linear(x, W1, b1), W2, b2)                # (n, d_out), no bend
    bent = ffn(x, W1, W2, b1, b2, act).out                 # (n, d_out)
    return {
        "linear_gap": float(np.max(np.abs(two - one))),
        "gelu_gap": float(np.max(np.abs(bent - one))),
        "W": W,
        "two_params": param_count(d, d_ff, False) + param_count(d_ff, W2.shape[1], False),
        "one_params": param_count(d, W2.shape[1], False),
    }


# --- the real size, as the page shows it -------------------------------------------------------

REAL_TOKENS = 8  # a handful of tokens: enough to see rows move on their own


def real_tokens(seed: int, n: int = REAL_TOKENS) -> np.ndarray:
    """The full-size block's input tokens for a seed: (n, 768); seed + 1, not the weights' stream."""
    return layer_normed_tokens(n, seed=seed + 1)


def fresh_token(seed: int) -> np.ndarray:
    """The row that replaces a poked token: (768,); seed + 2, a stream of its own."""
    return layer_normed_tokens(1, seed=seed + 2)[0]


def bend_summary(x, W1, W2, act: str = "gelu", ratio: float = 0.1, bins: int = 60) -> dict:
    """What GELU does to a full-size hidden layer, for a histogram and three numbers.

    Returns a dict: 'shapes' of x, pre, post, out; 'near_share' (share of hidden values with
    |GELU(z)| < ratio |z|), 'neg_share' (z < 0), 'pre_std' (spread of z), 'cutoff' (the z below
    which GELU keeps less than `ratio`), and the histogram: 'edges' (bins + 1,), 'counts' (bins,)
    of every z and 'near_counts' (bins,) of those pushed near zero.
    """
    steps = ffn(x, W1, W2, act=act)
    near = near_zero(steps.pre, steps.post, ratio)                # (n, d_ff) bool
    lim = float(np.max(np.abs(steps.pre)))
    edges = np.linspace(-lim, lim, bins + 1)                      # (bins + 1,)
    counts, _ = np.histogram(steps.pre, edges)                    # (bins,)
    near_counts, _ = np.histogram(steps.pre[near], edges)         # (bins,)
    return {
        "shapes": {k: getattr(steps, k).shape for k in ("x", "pre", "post", "out")},
        "near_share": float(near.mean()), "neg_share": float((steps.pre < 0).mean()),
        "cutoff": near_zero_cutoff(ratio, act), "edges": edges,
        "counts": counts, "near_counts": near_counts, "pre_std": float(steps.pre.std()),
    }

"""Where a transformer's parameters live: one config, one row per weight group, exact counts.

`count_params(cfg)` equals `model.num_parameters()` of the Hugging Face causal-LM built
from the same configuration (tied embeddings counted once); the unit tests build every
preset and a set of custom configurations on PyTorch's meta device and compare.

Two storage conventions for the same linear layer: the maths (and GPT-2's checkpoint,
which uses a "Conv1D") writes y = x W with W of shape (n_in, n_out); PyTorch's nn.Linear
(and Llama's checkpoint) stores W transposed, (n_out, n_in), and computes x Wᵀ.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, fields
from typing import NamedTuple

import pandas as pd

MLPS = ("gelu", "swiglu")          # GPT-2's linear-GELU-linear, or Llama's gated SiLU
NORMS = ("layernorm", "rmsnorm")   # LayerNorm has a scale and a shift; RMSNorm a scale only
LINK_KEYS = {  # TransformerConfig field -> its link key on /gpt2-params, in the order the page draws them
    "d_model": "d", "n_layer": "layers", "n_head": "heads", "n_kv_head": "kv", "d_ff": "ff",
    "vocab_size": "vocab", "n_positions": "pos", "mlp": "mlp", "norm": "norm",
    "qkv_bias": "qkvbias", "bias": "bias", "tie_embeddings": "tie",
}


@dataclass(frozen=True)
class TransformerConfig:
    """A decoder-only transformer, as far as its parameter count is concerned.

    The defaults are GPT-2 small.
    """

    vocab_size: int = 50257      # tokens: rows of the embedding table (and of an untied lm_head)
    n_positions: int = 1024      # rows of a learned position table; 0 = none (RoPE models)
    d_model: int = 768           # numbers per token between blocks (the residual stream)
    n_layer: int = 12            # transformer blocks, each with its own weights
    n_head: int = 12             # query heads; each sees d_model / n_head numbers
    n_kv_head: int = 12          # key/value heads; fewer than n_head is grouped-query attention
    d_ff: int = 3072             # the MLP's hidden width (each of gate and up for SwiGLU)
    mlp: str = "gelu"            # "gelu": up, GELU, down; "swiglu": SiLU(gate) * up, then down
    bias: bool = True            # biases on the attention output and MLP linear layers
    qkv_bias: bool = True        # biases on the query, key and value projections (Qwen2 keeps only these)
    norm: str = "layernorm"      # "layernorm" (weight and bias) or "rmsnorm" (weight only)
    tie_embeddings: bool = True  # lm_head reuses the token embedding matrix, so it costs nothing

    @property
    def head_dim(self) -> int:
        """Numbers per attention head (d_model / n_head; validate() checks it divides)."""
        return self.d_model // self.n_head

    @property
    def kv_dim(self) -> int:
        """Width of the key (and of the value) projection: n_kv_head * head_dim."""
        return self.n_kv_head * self.head_dim


# Each preset from the config.json of its published checkpoint on the Hugging Face hub
# (openai-community/gpt2*, meta-llama/Meta-Llama-3-8B, meta-llama/Llama-3.2-1B,
# mistralai/Mistral-7B-v0.1, Qwen/Qwen2.5-0.5B). Counts: model.num_parameters(), exact.
_GPT2 = dict(vocab_size=50257, n_positions=1024, mlp="gelu", bias=True, qkv_bias=True,
             norm="layernorm", tie_embeddings=True)
_LLAMA = dict(n_positions=0, mlp="swiglu", bias=False, qkv_bias=False, norm="rmsnorm")
PRESETS: dict[str, TransformerConfig] = {
    # 124,439,808
    "gpt2": TransformerConfig(**_GPT2, d_model=768, n_layer=12, n_head=12, n_kv_head=12, d_ff=3072),
    # 354,823,168
    "gpt2-medium": TransformerConfig(**_GPT2, d_model=1024, n_layer=24, n_head=16, n_kv_head=16,
                                     d_ff=4096),
    # 774,030,080
    "gpt2-large": TransformerConfig(**_GPT2, d_model=1280, n_layer=36, n_head=20, n_kv_head=20,
                                    d_ff=5120),
    # 1,557,611,200
    "gpt2-xl": TransformerConfig(**_GPT2, d_model=1600, n_layer=48, n_head=25, n_kv_head=25, d_ff=6400),
    # 8,030,261,248
    "llama-3-8b": TransformerConfig(**_LLAMA, vocab_size=128256, d_model=4096, n_layer=32, n_head=32,
                                    n_kv_head=8, d_ff=14336, tie_embeddings=False),
    # 1,235,814,400
    "llama-3.2-1b": TransformerConfig(**_LLAMA, vocab_size=128256, d_model=2048, n_layer=16, n_head=32,
                                      n_kv_head=8, d_ff=8192, tie_embeddings=True),
    # 7,241,732,096
    "mistral-7b": TransformerConfig(**_LLAMA, vocab_size=32000, d_model=4096, n_layer=32, n_head=32,
                                    n_kv_head=8, d_ff=14336, tie_embeddings=False),
    # 494,032,768: Llama's layout plus biases on q, k and v
    "qwen2.5-0.5b": TransformerConfig(**{**_LLAMA, "qkv_bias": True}, vocab_size=151936, d_model=896,
                                      n_layer=24, n_head=14, n_kv_head=2, d_ff=4864,
                                      tie_embeddings=True),
}

# What a student calls each preset (the URL keeps the key).
PRESET_NAMES: dict[str, str] = {
    "gpt2": "GPT-2 small", "gpt2-medium": "GPT-2 medium", "gpt2-large": "GPT-2 large",
    "gpt2-xl": "GPT-2 XL", "llama-3-8b": "Llama 3 8B", "llama-3.2-1b": "Llama 3.2 1B",
    "mistral-7b": "Mistral 7B", "qwen2.5-0.5b": "Qwen2.5 0.5B",
}
assert set(PRESET_NAMES) == set(PRESETS)

# Sizes beyond these are typing slips, not models (the largest real vocabularies are
# ~256k tokens, the widest models ~20k numbers per token, the deepest ~128 blocks).
LIMITS: dict[str, tuple[int, int]] = {
    "vocab_size": (1, 1_048_576),
    "n_positions": (0, 1_048_576),
    "d_model": (1, 65_536),
    "n_layer": (1, 1_024),
    "n_head": (1, 1_024),
    "n_kv_head": (1, 1_024),
    "d_ff": (1, 262_144),
}


class Problem(NamedTuple):
    field: str    # the TransformerConfig field at fault
    message: str  # one line, for a student


def validate(cfg: TransformerConfig) -> list[Problem]:
    """Everything that stops `cfg` from being a buildable model; empty when it is fine."""
    problems = []
    for name, (lo, hi) in LIMITS.items():
        v = getattr(cfg, name)
        if isinstance(v, bool) or not isinstance(v, int):
            problems.append(Problem(name, f"must be a whole number, not {v!r}"))
        elif v < lo:
            why = "a transformer needs at least one block" if name == "n_layer" else f"must be at least {lo}"
            problems.append(Problem(name, f"{why}, not {v:,}"))
        elif v > hi:
            problems.append(Problem(name, f"{v:,} is beyond any real model (at most {hi:,} here)"))
    if cfg.mlp not in MLPS:
        problems.append(Problem("mlp", f"{cfg.mlp!r} is not one of {', '.join(MLPS)}"))
    if cfg.norm not in NORMS:
        problems.append(Problem("norm", f"{cfg.norm!r} is not one of {', '.join(NORMS)}"))
    bad = {p.field for p in problems}
    if not bad & {"d_model", "n_head"} and cfg.d_model % cfg.n_head:
        problems.append(Problem(
            "n_head", f"{cfg.d_model:,} numbers per token cannot be split evenly into {cfg.n_head} heads"))
    if not bad & {"n_head", "n_kv_head"} and cfg.n_head % cfg.n_kv_head:
        problems.append(Problem(
            "n_kv_head", f"{cfg.n_head} query heads cannot share {cfg.n_kv_head} key/value heads evenly "
                         "(it must divide the number of heads)"))
    return problems


def _linear(n_in: int, n_out: int, bias: bool) -> dict:
    """A linear layer's row fields: shape in both conventions, weights, biases."""
    return dict(shape=(n_in, n_out), shape_torch=(n_out, n_in), weights=n_in * n_out,
                biases=n_out if bias else 0, kind="linear")


def _norm(cfg: TransformerConfig) -> dict:
    d = cfg.d_model
    return dict(shape=(d,), shape_torch=(d,), weights=d, biases=d if cfg.norm == "layernorm" else 0,
                kind="norm")


def weight_groups(cfg: TransformerConfig) -> list[dict]:
    """One dict per weight group, in checkpoint order; block rows describe one block."""
    d, v, f = cfg.d_model, cfg.vocab_size, cfg.d_ff
    gpt = cfg.mlp == "gelu"  # GPT-2's checkpoint names; SwiGLU models use Llama's
    blk = "h.{i}." if gpt else "model.layers.{i}."
    table = dict(shape=(v, d), shape_torch=(v, d), weights=v * d, biases=0, kind="embedding")
    rows = [dict(section="embeddings", group="embedding", name="wte" if gpt else "embed_tokens",
                 tensor="wte" if gpt else "model.embed_tokens",
                 role="token embedding: one row of d_model numbers per token", **table)]
    if cfg.n_positions:
        rows.append(dict(section="embeddings", group="embedding", name="wpe" if gpt else "embed_positions",
                         tensor="wpe" if gpt else "model.embed_positions",
                         role="learned position embedding: one row per position",
                         shape=(cfg.n_positions, d), shape_torch=(cfg.n_positions, d),
                         weights=cfg.n_positions * d, biases=0, kind="embedding"))
    ln1 = dict(group="norm", name="ln_1" if gpt else "input_layernorm",
               tensor=blk + ("ln_1" if gpt else "input_layernorm"),
               role=f"{'LayerNorm' if cfg.norm == 'layernorm' else 'RMSNorm'} before attention", **_norm(cfg))
    ln2 = dict(group="norm", name="ln_2" if gpt else "post_attention_layernorm",
               tensor=blk + ("ln_2" if gpt else "post_attention_layernorm"),
               role=f"{'LayerNorm' if cfg.norm == 'layernorm' else 'RMSNorm'} before the MLP", **_norm(cfg))
    if gpt:
        # Q, K and V in one matrix: d_model queries, then n_kv_head heads each of keys and values.
        attn = [dict(group="attention", name="c_attn", tensor=blk + "attn.c_attn",
                     role="Q, K, V for all heads together", **_linear(d, d + 2 * cfg.kv_dim, cfg.qkv_bias)),
                dict(group="attention", name="c_proj", tensor=blk + "attn.c_proj",
                     role="attention output: heads back to d_model", **_linear(d, d, cfg.bias))]
        mlp = [dict(group="mlp", name="c_fc", tensor=blk + "mlp.c_fc",
                    role="MLP up: widen each token", **_linear(d, f, cfg.bias)),
               dict(group="mlp", name="mlp c_proj", tensor=blk + "mlp.c_proj",
                    role="MLP down: back to d_model", **_linear(f, d, cfg.bias))]
        block = [ln1, *attn, ln2, *mlp]
    else:
        sa = blk + "self_attn."
        attn = [dict(group="attention", name="q_proj", tensor=sa + "q_proj", role="queries, all heads",
                     **_linear(d, d, cfg.qkv_bias)),
                dict(group="attention", name="k_proj", tensor=sa + "k_proj",
                     role="keys, shared by groups of query heads", **_linear(d, cfg.kv_dim, cfg.qkv_bias)),
                dict(group="attention", name="v_proj", tensor=sa + "v_proj",
                     role="values, shared like the keys", **_linear(d, cfg.kv_dim, cfg.qkv_bias)),
                dict(group="attention", name="o_proj", tensor=sa + "o_proj",
                     role="attention output: heads back to d_model", **_linear(d, d, cfg.bias))]
        mlp = [dict(group="mlp", name="gate_proj", tensor=blk + "mlp.gate_proj",
                    role="MLP gate: SiLU of it switches the up branch", **_linear(d, f, cfg.bias)),
               dict(group="mlp", name="up_proj", tensor=blk + "mlp.up_proj",
                    role="MLP up: the branch the gate lets through", **_linear(d, f, cfg.bias)),
               dict(group="mlp", name="down_proj", tensor=blk + "mlp.down_proj",
                    role="MLP down: back to d_model", **_linear(f, d, cfg.bias))]
        block = [ln1, *attn, ln2, *mlp]
    rows += [dict(section="block", **r) for r in block]
    rows.append(dict(section="final", group="norm", name="ln_f" if gpt else "norm",
                     tensor="ln_f" if gpt else "model.norm", role="final norm before the output",
                     **_norm(cfg)))
    head = _linear(d, v, False)  # no model here has an output bias
    if cfg.tie_embeddings:
        # The same tensor as the token embedding: Hugging Face counts a shared parameter once.
        head.update(weights=0, kind="tied")
    rows.append(dict(section="final", group="head", name="lm_head", tensor="lm_head",
                     role="output: a score per token" + (" (tied: reuses the embedding, counted once)"
                                                        if cfg.tie_embeddings else ""), **head))
    return rows


def param_table(cfg: TransformerConfig) -> pd.DataFrame:
    """One row per weight group, in checkpoint order, with every count that adds up to the total.

    Parameters
    ----------
    cfg : TransformerConfig
        Must pass `validate` (a ValueError names the problems otherwise).

    Returns
    -------
    DataFrame with one row per weight group and the columns
        section      "embeddings", "block" (one row per group of a block) or "final"
        group        "embedding", "attention", "mlp", "norm" or "head"
        name         the short name in the checkpoint (c_attn, q_proj, ln_f, ...)
        tensor       the checkpoint's tensor prefix; {i} is the block index
        role         what the group does, one line
        kind         "embedding", "linear", "norm" or "tied" (no numbers of its own)
        shape        the weight's shape as y = x W uses it, (n_in, n_out); (rows, d) for
                     tables, (d,) for norms
        shape_torch  as nn.Linear stores it, (n_out, n_in)
        weights, biases   numbers in one copy of the group
        per_copy     weights + biases
        copies       n_layer for block rows, else 1
        params       per_copy * copies
        share        params / the model's total
    """
    problems = validate(cfg)
    if problems:
        raise ValueError("; ".join(f"{p.field}: {p.message}" for p in problems))
    df = pd.DataFrame(weight_groups(cfg))
    df["per_copy"] = df["weights"] + df["biases"]
    df["copies"] = [cfg.n_layer if s == "block" else 1 for s in df["section"]]
    df["params"] = df["per_copy"] * df["copies"]
    df["share"] = df["params"] / df["params"].sum()
    cols = ["section", "group", "name", "tensor", "role", "kind", "shape", "shape_torch",
            "weights", "biases", "per_copy", "copies", "params", "share"]
    return df[cols]


def count_params(cfg: TransformerConfig) -> int:
    """The model's parameter count, as Hugging Face's model.num_parameters() reports it."""
    return int(param_table(cfg)["params"].sum())


@dataclass(frozen=True)
class Totals:
    """Sums over param_table's rows that the lesson talks about."""

    total: int       # the whole model
    embeddings: int  # token (and position) tables
    per_block: int   # one transformer block
    blocks: int      # all blocks
    attention: int   # attention layers, all blocks
    mlp: int         # MLP layers, all blocks
    norms: int       # every norm's scale (and shift)
    head: int        # an untied lm_head; 0 when tied
    linear: int      # the linear layers inside the blocks (attention + MLP)

    @property
    def linear_share(self) -> float:
        return self.linear / self.total

    @property
    def block_norms(self) -> int:
        """The blocks' own norms: with `linear` they make up `blocks`."""
        return self.blocks - self.linear


def totals(cfg: TransformerConfig) -> Totals:
    """The sums the lesson quotes: per block, all blocks, linear layers, embeddings, ..."""
    t = param_table(cfg)
    by = t.groupby("group")["params"].sum()
    blocks = t[t["section"] == "block"]
    return Totals(
        total=int(t["params"].sum()),
        embeddings=int(by.get("embedding", 0)),
        per_block=int(blocks["per_copy"].sum()),
        blocks=int(blocks["params"].sum()),
        attention=int(by.get("attention", 0)),
        mlp=int(by.get("mlp", 0)),
        norms=int(by.get("norm", 0)),
        head=int(by.get("head", 0)),
        linear=int(blocks.loc[blocks["kind"] == "linear", "params"].sum()),
    )


def mlp_collapse(cfg: TransformerConfig) -> tuple[int, int]:
    """Weights in one block's MLP matrices, and in the one d_model x d_model matrix they would
    collapse to without the bend between them (biases aside).

    Only true for the GELU MLP: SwiGLU multiplies two branches, which stays non-linear
    (quadratic) even without SiLU.
    """
    n_mats = 2 if cfg.mlp == "gelu" else 3
    return n_mats * cfg.d_model * cfg.d_ff, cfg.d_model * cfg.d_model


# Bytes per stored number. int4 packs two numbers into a byte.
DTYPE_BYTES: dict[str, float] = {"fp32": 4.0, "bf16": 2.0, "int8": 1.0, "int4": 0.5}


def memory_bytes(count: int, dtype: str) -> int:
    """Bytes to hold `count` numbers in `dtype` (weights only: no activations, no optimiser)."""
    return math.ceil(count * DTYPE_BYTES[dtype])


def memory_table(count: int) -> pd.DataFrame:
    """Memory for `count` parameters at every dtype in DTYPE_BYTES: bytes, GB (1e9), GiB (2**30)."""
    rows = [dict(dtype=k, bits=int(8 * b), bytes=memory_bytes(count, k)) for k, b in DTYPE_BYTES.items()]
    df = pd.DataFrame(rows)
    df["GB"] = df["bytes"] / 1e9
    df["GiB"] = df["bytes"] / 2**30
    return df


def presets_table(configs: dict[str, TransformerConfig] | None = None) -> pd.DataFrame:
    """Configurations side by side (every preset by default): settings, total, where it goes.

    One row per configuration, "preset" holding its name: the TransformerConfig fields, then
    params, per_block, the sums embeddings, attention, mlp_params, norms, head (they add up to
    params), the shares embedding_share and linear_share, and bf16_GB (weights in bf16, 1e9 bytes).
    """
    rows = []
    for name, cfg in (PRESETS if configs is None else configs).items():
        t = totals(cfg)
        rows.append(dict(preset=name, **{f.name: getattr(cfg, f.name) for f in fields(cfg)},
                         params=t.total, per_block=t.per_block, embeddings=t.embeddings,
                         attention=t.attention, mlp_params=t.mlp, norms=t.norms, head=t.head,
                         embedding_share=t.embeddings / t.total, linear_share=t.linear_share,
                         bf16_GB=memory_bytes(t.total, "bf16") / 1e9))
    return pd.DataFrame(rows)


def matching_preset(cfg: TransformerConfig) -> str | None:
    """The preset whose configuration is exactly `cfg`, if any."""
    return next((k for k, p in PRESETS.items() if p == cfg), None)

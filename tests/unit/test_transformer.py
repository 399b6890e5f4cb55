"""lib.transformer: counts equal Hugging Face's, to the parameter, for presets and custom configs.

Models are built on PyTorch's meta device: shapes only, no memory, nothing downloaded.
Each count is also checked against a closed form written here, independently of lib.
"""

from __future__ import annotations

import re
from dataclasses import fields, replace

import numpy as np
import pytest

from lib.transformer import (
    DTYPE_BYTES,
    PRESET_NAMES,
    PRESETS,
    TransformerConfig,
    count_params,
    matching_preset,
    memory_bytes,
    memory_table,
    mlp_collapse,
    param_table,
    presets_table,
    totals,
    validate,
)

try:   # the Hugging Face cross-checks (marked `ref`) need them; every other test here runs without
    import torch
    import transformers
except ImportError:
    torch = transformers = None

# Published counts (model.num_parameters() of each checkpoint, tied embeddings once).
PUBLISHED = {
    "gpt2": 124_439_808,
    "gpt2-medium": 354_823_168,
    "gpt2-large": 774_030_080,
    "gpt2-xl": 1_557_611_200,
    "llama-3-8b": 8_030_261_248,
    "llama-3.2-1b": 1_235_814_400,
    "mistral-7b": 7_241_732_096,
    "qwen2.5-0.5b": 494_032_768,
}


# --- an independent implementation: the closed form, written out here --------------------

def closed_form(c: TransformerConfig) -> int:
    """Parameters of a decoder-only transformer, by formula (not lib's row-by-row table)."""
    d, h, kv, f, V, L = c.d_model, c.n_head, c.n_kv_head, c.d_ff, c.vocab_size, c.n_layer
    qkv_out = d + 2 * kv * (d // h)                   # queries, then keys and values for kv heads
    attn = d * qkv_out + d * d                        # Q, K, V and the output projection
    attn += qkv_out * c.qkv_bias + d * c.bias
    if c.mlp == "gelu":
        mlp = 2 * d * f + (f + d) * c.bias            # up, down
    else:
        mlp = 3 * d * f + (2 * f + d) * c.bias        # gate, up, down
    norm = d * (2 if c.norm == "layernorm" else 1)    # scale (and shift)
    block = attn + mlp + 2 * norm
    embed = V * d + c.n_positions * d
    head = 0 if c.tie_embeddings else V * d
    return embed + L * block + norm + head


# --- the same configuration as a Hugging Face model -----------------------------------------

def hf_config(c: TransformerConfig):
    """The Hugging Face config that builds `c`, or None if no stock architecture has its mix."""
    T = transformers
    common = dict(vocab_size=c.vocab_size, tie_word_embeddings=c.tie_embeddings,
                  bos_token_id=0, eos_token_id=0, pad_token_id=None)
    llama_like = dict(hidden_size=c.d_model, num_hidden_layers=c.n_layer,
                      num_attention_heads=c.n_head, num_key_value_heads=c.n_kv_head,
                      intermediate_size=c.d_ff, **common)
    gpt_like = dict(n_positions=c.n_positions, n_embd=c.d_model, n_layer=c.n_layer, n_head=c.n_head,
                    n_inner=c.d_ff, **common)
    if c.mlp == "gelu" and c.norm == "layernorm":
        if c.n_positions and c.bias and c.qkv_bias:
            if c.n_kv_head == c.n_head:
                return T.GPT2Config(**gpt_like)
            if c.n_kv_head == 1:
                return T.GPTBigCodeConfig(multi_query=True, **gpt_like)
        if not c.n_positions and c.bias == c.qkv_bias:
            return T.Starcoder2Config(use_bias=c.bias, **llama_like)
    if c.mlp == "swiglu" and c.norm == "rmsnorm" and not c.n_positions:
        if c.bias == c.qkv_bias:
            return T.LlamaConfig(attention_bias=c.bias, mlp_bias=c.bias, **llama_like)
        if c.qkv_bias:
            return T.Qwen2Config(**llama_like)
    return None


def hf_model(config):
    with torch.device("meta"):  # shapes only: nothing allocated, nothing downloaded
        return transformers.AutoModelForCausalLM.from_config(config)


PRESET_HF = {  # the class each checkpoint's config.json names
    "gpt2": "GPT2Config", "gpt2-medium": "GPT2Config", "gpt2-large": "GPT2Config",
    "gpt2-xl": "GPT2Config", "llama-3-8b": "LlamaConfig", "llama-3.2-1b": "LlamaConfig",
    "mistral-7b": "MistralConfig", "qwen2.5-0.5b": "Qwen2Config",
}


def preset_hf_config(name: str):
    c = PRESETS[name]
    config = hf_config(c)
    if PRESET_HF[name] == "MistralConfig":
        config = transformers.MistralConfig(**{k: getattr(config, k) for k in (
            "vocab_size", "hidden_size", "num_hidden_layers", "num_attention_heads",
            "num_key_value_heads", "intermediate_size", "tie_word_embeddings")})
    assert type(config).__name__ == PRESET_HF[name]
    return config


# --- presets ---------------------------------------------------------------------------------

def test_presets_are_the_published_ones():
    assert list(PRESETS) == list(PUBLISHED)


@pytest.mark.parametrize("name", list(PRESETS))
def test_preset_count_is_published_and_closed_form(name):
    assert validate(PRESETS[name]) == []
    assert count_params(PRESETS[name]) == PUBLISHED[name]
    assert closed_form(PRESETS[name]) == PUBLISHED[name]


@pytest.mark.ref
@pytest.mark.parametrize("name", list(PRESETS))
def test_preset_count_equals_hugging_face(name):
    model = hf_model(preset_hf_config(name))
    assert model.num_parameters() == count_params(PRESETS[name])


def _hf_groups(model) -> dict[str, tuple[int, ...]]:
    """HF's parameters grouped as lib's table rows: {tensor prefix with {i}: weight shape}."""
    out = {}
    for name, p in model.named_parameters():  # a tied lm_head is not listed (shared tensor)
        name = re.sub(r"^transformer\.", "", name)  # GPT-2's own checkpoint has no prefix
        name = re.sub(r"\.\d+\.", ".{i}.", name)
        module, _, kind = name.rpartition(".")
        if kind == "weight":
            out[module] = tuple(p.shape)
    return out


@pytest.mark.ref
@pytest.mark.parametrize("name", ["gpt2", "llama-3-8b", "qwen2.5-0.5b"])
def test_table_names_and_shapes_are_the_checkpoints(name):
    """Every row is a tensor in the real model, with the shape the checkpoint stores."""
    cfg = PRESETS[name]
    t = param_table(cfg)
    hf = _hf_groups(hf_model(preset_hf_config(name)))
    own = t[t["kind"] != "tied"]
    assert set(own["tensor"]) == set(hf)
    conv1d = cfg.mlp == "gelu"  # GPT-2 stores (in, out); nn.Linear stores (out, in)
    for row in own.itertuples():
        stored = row.shape if conv1d or row.kind != "linear" else row.shape_torch
        assert hf[row.tensor] == tuple(stored), row.tensor


# --- custom configurations -------------------------------------------------------------------

def _random_configs(n: int, seed: int) -> list[TransformerConfig]:
    """Small random configs covering every switch: positions, norms, biases, GQA, MLP, tying."""
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(n):
        head_dim = int(rng.choice([8, 16, 32]))
        n_head = int(rng.choice([1, 2, 4, 6, 8]))
        divisors = [k for k in range(1, n_head + 1) if n_head % k == 0]
        out.append(TransformerConfig(
            vocab_size=int(rng.integers(10, 3000)),
            n_positions=int(rng.choice([0, int(rng.integers(1, 600))])),
            d_model=head_dim * n_head,
            n_layer=int(rng.integers(1, 5)),
            n_head=n_head,
            n_kv_head=int(rng.choice(divisors)),
            d_ff=int(rng.integers(1, 400)),
            mlp=str(rng.choice(["gelu", "swiglu"])),
            bias=bool(rng.integers(2)),
            qkv_bias=bool(rng.integers(2)),
            norm=str(rng.choice(["layernorm", "rmsnorm"])),
            tie_embeddings=bool(rng.integers(2)),
        ))
    return out


HAND_PICKED = [
    # GPT-2 style, untied head
    TransformerConfig(vocab_size=500, n_positions=64, d_model=96, n_layer=3, n_head=6, n_kv_head=6,
                      d_ff=200, tie_embeddings=False),
    # GPT-2 style with multi-query attention (GPTBigCode / SantaCoder)
    TransformerConfig(vocab_size=700, n_positions=32, d_model=64, n_layer=2, n_head=8, n_kv_head=1,
                      d_ff=256),
    # LayerNorm + GELU without a position table, GQA, no biases (Starcoder2 style)
    TransformerConfig(vocab_size=300, n_positions=0, d_model=128, n_layer=2, n_head=8, n_kv_head=2,
                      d_ff=512, bias=False, qkv_bias=False, tie_embeddings=False),
    # ... and with biases
    TransformerConfig(vocab_size=300, n_positions=0, d_model=128, n_layer=2, n_head=8, n_kv_head=4,
                      d_ff=512, bias=True, qkv_bias=True, tie_embeddings=True),
    # Llama style with every bias on, tied
    TransformerConfig(vocab_size=1000, n_positions=0, d_model=256, n_layer=2, n_head=8, n_kv_head=2,
                      d_ff=1024, mlp="swiglu", norm="rmsnorm", bias=True, qkv_bias=True),
    # Llama style, multi-head (no GQA), untied, no biases
    TransformerConfig(vocab_size=1000, n_positions=0, d_model=256, n_layer=3, n_head=4, n_kv_head=4,
                      d_ff=688, mlp="swiglu", norm="rmsnorm", bias=False, qkv_bias=False,
                      tie_embeddings=False),
    # Qwen2 style: q/k/v biases only, multi-query
    TransformerConfig(vocab_size=900, n_positions=0, d_model=192, n_layer=2, n_head=6, n_kv_head=1,
                      d_ff=500, mlp="swiglu", norm="rmsnorm", bias=False, qkv_bias=True,
                      tie_embeddings=False),
]
CUSTOM = HAND_PICKED + _random_configs(60, seed=5)
# Without the references the `ref` tests are skipped (tests/conftest.py): one stand-in keeps them collected.
BUILDABLE = [c for c in CUSTOM if hf_config(c) is not None] if transformers else CUSTOM[:1]


@pytest.mark.ref
def test_the_custom_set_covers_every_switch_and_every_hf_class():
    assert len(BUILDABLE) >= 12
    used = {type(hf_config(c)).__name__ for c in BUILDABLE}
    assert used == {"GPT2Config", "GPTBigCodeConfig", "Starcoder2Config", "LlamaConfig", "Qwen2Config"}
    for f in ("mlp", "norm", "bias", "qkv_bias", "tie_embeddings"):
        assert len({getattr(c, f) for c in BUILDABLE}) == 2, f
    assert {c.n_positions > 0 for c in BUILDABLE} == {True, False}
    assert any(1 < c.n_kv_head < c.n_head for c in BUILDABLE)  # grouped-query attention


@pytest.mark.ref
@pytest.mark.parametrize("cfg", BUILDABLE, ids=lambda c: f"{c.mlp}-{c.norm}-kv{c.n_kv_head}of{c.n_head}")
def test_custom_count_equals_hugging_face(cfg):
    assert count_params(cfg) == hf_model(hf_config(cfg)).num_parameters()


@pytest.mark.parametrize("cfg", CUSTOM)
def test_custom_count_equals_closed_form(cfg):
    """Includes mixes no stock HF class builds (RMSNorm with GELU, learned positions with SwiGLU)."""
    assert validate(cfg) == []
    assert count_params(cfg) == closed_form(cfg)


def test_each_switch_moves_the_count_by_its_own_formula():
    g = PRESETS["gpt2"]
    d, f, V = g.d_model, g.d_ff, g.vocab_size
    assert count_params(replace(g, tie_embeddings=False)) - count_params(g) == V * d
    assert count_params(g) - count_params(replace(g, n_positions=0)) == 1024 * d
    assert count_params(g) - count_params(replace(g, norm="rmsnorm")) == (2 * 12 + 1) * d
    assert count_params(g) - count_params(replace(g, bias=False)) == 12 * (d + f + d)
    assert count_params(g) - count_params(replace(g, qkv_bias=False)) == 12 * 3 * d
    # 4 kv heads of 64 instead of 12: K and V shrink from 768 to 256 columns each
    assert count_params(g) - count_params(replace(g, n_kv_head=4)) == 12 * 2 * (768 - 256) * (d + 1)
    assert count_params(replace(g, mlp="swiglu")) - count_params(g) == 12 * (d * f + f)


# --- the seed's rows, and the table's own sums ------------------------------------------------

def test_gpt2_small_block_rows_are_the_seeds():
    t = param_table(PRESETS["gpt2"]).set_index("name")
    assert t.loc["c_attn", "shape"] == (768, 2304) and t.loc["c_attn", "per_copy"] == 1_771_776
    assert t.loc["c_proj", "shape"] == (768, 768) and t.loc["c_proj", "per_copy"] == 590_592
    assert t.loc["c_fc", "shape"] == (768, 3072) and t.loc["c_fc", "per_copy"] == 2_362_368
    assert t.loc["mlp c_proj", "shape"] == (3072, 768) and t.loc["mlp c_proj", "per_copy"] == 2_360_064
    assert t.loc["c_fc", "shape_torch"] == (3072, 768)
    assert t.loc["wte", "params"] == 50257 * 768 == 38_597_376
    assert t.loc["lm_head", "params"] == 0 and t.loc["lm_head", "kind"] == "tied"
    assert (t.loc[t["section"] == "block", "copies"] == 12).all()
    # 12 blocks of 7,087,872 + wte 38,597,376 + wpe 786,432 + ln_f 1,536 = 124,439,808, from the table
    block = t.loc[t["section"] == "block", "per_copy"].sum()
    assert block == 7_087_872
    assert t.loc["wpe", "params"] == 786_432 and t.loc["ln_f", "params"] == 1_536
    assert t["params"].sum() == 12 * block + 38_597_376 + 786_432 + 1_536 == 124_439_808


def test_the_total_the_page_shows_is_the_count_the_cross_check_tests():
    """/gpt2-params shows totals(cfg).total; the Hugging Face cross-check (ref) tests count_params."""
    for cfg in [*PRESETS.values(), *CUSTOM]:
        assert totals(cfg).total == count_params(cfg)


def test_table_columns_add_up():
    for cfg in [*PRESETS.values(), *CUSTOM[:10]]:
        t = param_table(cfg)
        assert (t["per_copy"] == t["weights"] + t["biases"]).all()
        assert (t["params"] == t["per_copy"] * t["copies"]).all()
        assert t["share"].sum() == pytest.approx(1.0)
        lin = t[t["kind"] == "linear"]
        assert (lin["weights"] == [a * b for a, b in lin["shape"]]).all()
        assert all(s == tuple(reversed(st)) for s, st in zip(lin["shape"], lin["shape_torch"], strict=True))


def test_totals_gpt2_small():
    t = totals(PRESETS["gpt2"])
    assert t.per_block == 7_087_872 and t.blocks == 12 * 7_087_872
    assert t.linear == 12 * (1_771_776 + 590_592 + 2_362_368 + 2_360_064) == 85_017_600
    assert t.linear_share > 2 / 3  # the seed's "more than two thirds"
    assert t.embeddings == 38_597_376 + 786_432 and t.head == 0
    assert t.norms == (2 * 12 + 1) * 2 * 768
    assert t.embeddings + t.attention + t.mlp + t.norms + t.head == t.total == 124_439_808
    # The blocks' linear layers and their own norms make up the blocks (the page says both).
    assert t.block_norms == 12 * 2 * 2 * 768 == 36_864
    assert t.linear + t.block_norms == t.blocks == 85_054_464


@pytest.mark.parametrize("name", list(PRESETS))
def test_every_preset_has_a_name_a_student_reads(name):
    assert PRESET_NAMES[name] and PRESET_NAMES[name] != name
    assert len(set(PRESET_NAMES.values())) == len(PRESETS)
    t = totals(PRESETS[name])
    assert t.linear + t.block_norms == t.blocks


def test_totals_llama_3_8b_untied_head():
    t = totals(PRESETS["llama-3-8b"])
    assert t.head == 128256 * 4096 == t.embeddings
    assert t.per_block == 2 * 4096 * 4096 + 2 * 4096 * 1024 + 3 * 4096 * 14336 + 2 * 4096


def test_mlp_collapse_gpt2_small():
    assert mlp_collapse(PRESETS["gpt2"]) == (4_718_592, 589_824)


def test_memory():
    assert memory_bytes(124_439_808, "fp32") == 497_759_232
    assert memory_bytes(124_439_808, "bf16") == 248_879_616
    assert memory_bytes(3, "int4") == 2  # half bytes round up: a stored number cannot be split
    m = memory_table(8_030_261_248).set_index("dtype")
    assert list(m.index) == list(DTYPE_BYTES) == ["fp32", "bf16", "int8", "int4"]
    assert m.loc["bf16", "bytes"] == 16_060_522_496
    assert m.loc["int8", "GB"] == pytest.approx(8.030261248)
    assert m.loc["int4", "GiB"] == pytest.approx(4_015_130_624 / 1024**3)


def test_presets_table_side_by_side():
    p = presets_table().set_index("preset")
    assert list(p.index) == list(PRESETS)
    assert p.loc["llama-3-8b", "params"] == 8_030_261_248
    assert p.loc["mistral-7b", "n_kv_head"] == 8
    assert {f.name for f in fields(TransformerConfig)} <= set(p.columns)


def test_presets_table_with_own_configs():
    mine = replace(PRESETS["gpt2"], n_layer=6)
    p = presets_table({"mine": mine, "gpt2": PRESETS["gpt2"]}).set_index("preset")
    assert p.loc["mine", "params"] == 124_439_808 - 6 * 7_087_872
    sums = p[["embeddings", "attention", "mlp_params", "norms", "head"]].sum(axis=1)
    assert (sums == p["params"]).all()


def test_matching_preset():
    assert matching_preset(PRESETS["mistral-7b"]) == "mistral-7b"
    assert matching_preset(replace(PRESETS["gpt2"], n_layer=11)) is None
    assert matching_preset(TransformerConfig()) == "gpt2"  # the defaults are GPT-2 small


# --- bad configurations -----------------------------------------------------------------------

@pytest.mark.parametrize(("changes", "field"), [
    (dict(n_head=10, n_kv_head=10), "n_head"),    # 768 / 10 is not whole
    (dict(n_kv_head=5), "n_kv_head"),             # 12 heads in 5 groups
    (dict(n_kv_head=24), "n_kv_head"),            # more kv heads than heads
    (dict(n_layer=0), "n_layer"),
    (dict(vocab_size=10**9), "vocab_size"),
    (dict(d_model=0), "d_model"),
    (dict(d_ff=-1), "d_ff"),
    (dict(n_positions=-1), "n_positions"),
    (dict(mlp="relu"), "mlp"),
    (dict(norm="batchnorm"), "norm"),
    (dict(n_layer=2.5), "n_layer"),
    (dict(n_head=True), "n_head"),
])
def test_validate_names_the_field(changes, field):
    cfg = replace(PRESETS["gpt2"], **changes)
    problems = validate(cfg)
    assert [p.field for p in problems] == [field]
    assert problems[0].message and "\n" not in problems[0].message
    with pytest.raises(ValueError, match=field):
        param_table(cfg)


def test_validate_does_not_divide_by_a_bad_field():
    problems = validate(replace(PRESETS["gpt2"], n_head=0, n_kv_head=0))
    assert {p.field for p in problems} == {"n_head", "n_kv_head"}

"""Widgets, tables and charts for /gpt2-params: a transformer's configuration in, views out.

Every configuration field is a widget bound to the URL. Its default is the chosen preset's
value, so a link holds only the preset and the fields a student moved away from it
(`?preset=llama-3-8b&layers=16`). Picking a preset writes all of its values into the widgets.
"""

from __future__ import annotations

from dataclasses import dataclass, fields

import pandas as pd
import plotly.graph_objects as go
import streamlit as st

from lib.transformer import MLPS, NORMS, PRESETS, TransformerConfig, matching_preset
from ui import charts, links
from ui.links import bound


@dataclass(frozen=True)
class Field:
    attr: str     # the TransformerConfig field
    key: str      # the URL key
    label: str
    help: str


FIELDS: list[Field] = [
    Field("d_model", "d", "Width (d_model)",
          "Width of the residual stream: every token is this many numbers between blocks."),
    Field("n_layer", "layers", "Blocks (layers)", "How many transformer blocks, each with its own weights."),
    Field("n_head", "heads", "Attention heads", "Query heads; each head works on d_model / heads numbers."),
    Field("n_kv_head", "kv", "Key/value heads",
          "Fewer than the heads is grouped-query attention: groups of query heads share keys and values."),
    Field("d_ff", "ff", "MLP width (d_ff)",
          f"The MLP's hidden width; GPT-2 uses {PRESETS['gpt2'].d_ff // PRESETS['gpt2'].d_model} × d_model."),
    Field("vocab_size", "vocab", "Vocabulary (tokens)", "Rows of the token embedding table."),
    Field("n_positions", "pos", "Position table (0 = none)",
          f"Rows of a learned position table (GPT-2: {PRESETS['gpt2'].n_positions:,}). "
          "Llama-style models use RoPE instead: 0."),
    Field("mlp", "mlp", "MLP", "gelu: up, GELU, down (GPT-2). swiglu: SiLU(gate) × up, then down (Llama)."),
    Field("norm", "norm", "Norm", "layernorm learns a scale and a shift per number; rmsnorm only a scale."),
    Field("qkv_bias", "qkvbias", "q, k, v biases", "A bias on the query, key and value projections."),
    Field("bias", "bias", "Other linear biases",
          "A bias on the attention output and on every MLP layer (GPT-2 has them, Llama does not)."),
    Field("tie_embeddings", "tie", "Tied lm_head",
          "The output layer reuses the token embedding matrix, so it adds no parameters."),
]
BY_ATTR = {f.attr: f for f in FIELDS}
assert {f.attr for f in FIELDS} == {f.name for f in fields(TransformerConfig)}

# Slider bounds: wide enough for every preset and for the biggest open models, fixed so
# the widgets keep their identity (Streamlit resets a slider whose min, max or step change).
SLIDERS = {"d_model": (64, 16384, 64), "n_layer": (0, 128, 1), "n_head": (1, 128, 1),
           "n_kv_head": (1, 128, 1), "d_ff": (64, 65536, 64)}

GROUP_COLORS = {"embedding": charts.GREEN, "attention": charts.BLUE, "mlp": charts.ORANGE,
                "norm": charts.GREY, "head": charts.PURPLE}
GROUP_LABELS = {"embedding": "embeddings", "attention": "attention", "mlp": "MLP", "norm": "norms",
                "head": "output head"}


def load_preset(name: str | None = None) -> None:
    """Write a preset's values into every configuration widget (a widget callback)."""
    cfg = PRESETS[name or st.session_state["preset"]]
    for f in FIELDS:
        st.session_state[f.key] = getattr(cfg, f.attr)


def config_controls(base: TransformerConfig) -> tuple[TransformerConfig, dict]:
    """Draw one bound widget per configuration field, defaulting to `base`'s values.

    Returns the configuration as set (not yet validated) and, per field, an empty slot
    under its widget where the page can write a one-line message about that field.
    """
    slots, values = {}, {}

    def widget(f: Field, col):
        default = getattr(base, f.attr)
        with col:
            if f.attr in SLIDERS:
                lo, hi, step = SLIDERS[f.attr]
                v = bound(st.slider, f.label, lo, hi, default, step, key=f.key, help=f.help,
                          format="localized")
            elif f.attr in ("vocab_size", "n_positions"):
                raw = st.query_params.get(f.key)
                v = bound(st.number_input, f.label, min_value=0 if f.attr == "n_positions" else 1,
                          value=default, step=1, format="%d", key=f.key, help=f.help)
                if raw is not None and f.key in st.query_params and not _same_number(raw, v):
                    # Streamlit rounds ?pos=1.5 to 1 and rewrites the link without a word: say so.
                    links.note(f.key, links.ignored(f.key, raw, f"using {v} instead"), v)
                    links.show_note(f.key, v)
            elif f.attr in ("mlp", "norm"):
                opts = list(MLPS if f.attr == "mlp" else NORMS)
                v = bound(st.radio, f.label, opts, index=opts.index(default), horizontal=True,
                          key=f.key, help=f.help)
            else:
                v = bound(st.toggle, f.label, default, key=f.key, help=f.help)
            slots[f.attr] = st.empty()
        # A link can carry 1.5 into an integer field: keep it, so validate() names the field.
        values[f.attr] = int(v) if isinstance(v, float) and v.is_integer() else v

    # Sizes on the left, table sizes and switches on the right: two columns stay readable
    # from a phone (stacked) to a projector.
    left, right = st.columns(2, gap="large")
    for f in FIELDS[:5]:
        widget(f, left)
    for f in FIELDS[5:]:
        widget(f, right)
    return TransformerConfig(**values), slots


def describe(cfg: TransformerConfig, preset: str) -> str:
    """'**gpt2** as published ...' or 'custom from **gpt2**: layers 12 → 6 (that is ...)'."""
    changed = differences(cfg, PRESETS[preset])
    if not changed:
        return f"**{preset}** as published in its config.json"
    same = matching_preset(cfg)
    return f"custom from **{preset}**: " + ", ".join(changed) + (f" (that is **{same}**)" if same else "")


def _same_number(raw: str, v) -> bool:
    try:
        return float(raw) == float(v)
    except ValueError:
        return False


def differences(cfg: TransformerConfig, base: TransformerConfig) -> list[str]:
    """'layers 32 → 16' for every field where cfg differs from base."""
    out = []
    for f in FIELDS:
        a, b = getattr(base, f.attr), getattr(cfg, f.attr)
        if a != b:
            fmt = (lambda v: f"{v:,}") if isinstance(a, int) and not isinstance(a, bool) else str
            out.append(f"{f.key} {fmt(a)} → {fmt(b)}")
    return out


def shape_text(s: tuple) -> str:
    return " × ".join(f"{n:,}" for n in s)


def table_view(t: pd.DataFrame) -> None:
    """param_table's rows as a readable dataframe: names, both shapes, counts, share."""
    view = pd.DataFrame({
        "name": t["name"],
        "W as in y = xW (in × out)": t["shape"].map(shape_text),
        "nn.Linear stores (out × in)": t["shape_torch"].map(shape_text),
        "one copy": t["per_copy"],
        "copies": t["copies"],
        "all copies": t["params"],
        "share": 100 * t["share"],
        "weights": t["weights"],
        "biases": t["biases"],
        "tensor": t["tensor"],
        "what it does": t["role"],
    })
    n = "%,d"
    st.dataframe(
        view, hide_index=True, width="stretch", row_height=36,
        height=38 + 36 * len(view),  # every row visible: nothing to scroll to on a projector
        column_config={
            "name": st.column_config.TextColumn("name", pinned=True, width="medium",
                                                help="The group's name in the checkpoint."),
            "tensor": st.column_config.TextColumn(
                "checkpoint tensor", help="Prefix of the tensor names in the checkpoint; {i} is the block."),
            "what it does": st.column_config.TextColumn("what it does", width="large"),
            "W as in y = xW (in × out)": st.column_config.TextColumn(
                "shape, x W (in × out)", help="As the maths and GPT-2's Conv1D checkpoint store it."),
            "nn.Linear stores (out × in)": st.column_config.TextColumn(
                "shape, nn.Linear (out × in)",
                help="As PyTorch's nn.Linear and Llama's checkpoint store it."),
            "weights": st.column_config.NumberColumn("weights", format=n, help="In one copy."),
            "biases": st.column_config.NumberColumn("biases", format=n, help="In one copy."),
            "one copy": st.column_config.NumberColumn("one copy", format=n, help="Weights + biases."),
            "copies": st.column_config.NumberColumn("copies", format="× %d",
                                                    help="One per block for block rows."),
            "all copies": st.column_config.NumberColumn("all copies", format=n,
                                                        help="One copy × copies: adds up to the total."),
            "share": st.column_config.ProgressColumn("share", format="%.1f%%", min_value=0.0, max_value=100.0,
                                                     help="Of all the model's parameters.", width="small"),
        },
    )


def sum_markdown(t: pd.DataFrame, n_layer: int, per_block: int, total: int) -> str:
    """The total as a sum of the table's rows: wte + wpe + n_layer × (one block) + ln_f (+ lm_head)."""
    def term(r) -> str:
        return f"{r.params:,} ({r.name})".replace("_", "\\_")  # no underscore pairs read as italics

    terms = [term(r) for r in t.itertuples() if r.section == "embeddings" and r.params]
    terms.append(f"{n_layer} × {per_block:,} (one block)")
    terms += [term(r) for r in t.itertuples() if r.section == "final" and r.params]
    return f"**{total:,}** = " + " + ".join(terms)


def treemap_figure(t: pd.DataFrame, n_layer: int) -> go.Figure:
    """Where the parameters live: model > embeddings | blocks > attention | MLP | norms > groups."""
    ids, labels, parents, values, colors = [], [], [], [], []
    total = int(t["params"].sum())

    def add(i, label, parent, value, color):
        ids.append(i)
        labels.append(label)
        parents.append(parent)
        values.append(int(value))
        colors.append(color)

    add("model", "the model", "", total, "rgba(0,0,0,0)")
    own = t[t["params"] > 0]
    sections = {"embeddings": "embeddings", "block": f"{n_layer} blocks", "final": "after the blocks"}
    for sec, label in sections.items():
        rows = own[own["section"] == sec]
        if rows.empty:
            continue
        add(sec, label, "model", rows["params"].sum(), charts.GREY)
        if sec == "block":
            for g, grows in rows.groupby("group", sort=False):
                add(f"block/{g}", GROUP_LABELS[g], sec, grows["params"].sum(), GROUP_COLORS[g])
                for r in grows.itertuples():
                    add(f"block/{g}/{r.name}", r.name, f"block/{g}", r.params, GROUP_COLORS[g])
        else:
            for r in rows.itertuples():
                add(f"{sec}/{r.name}", r.name, sec, r.params, GROUP_COLORS[r.group])
    fig = charts.figure(height=460)
    fig.add_trace(go.Treemap(
        ids=ids, labels=labels, parents=parents, values=values, branchvalues="total",
        marker=dict(colors=colors, line=dict(width=1, color="white")),
        textinfo="label+value+percent root", texttemplate="%{label}<br>%{value:,}<br>%{percentRoot:.1%}",
        hovertemplate="%{label}<br>%{value:,} parameters<br>%{percentRoot:.2%} of the model<extra></extra>",
        tiling=dict(pad=2), pathbar=dict(visible=True), root=dict(color="rgba(0,0,0,0)"),
        textfont=dict(size=15), insidetextfont=dict(color="white"),
    ))
    fig.update_layout(margin=dict(l=0, r=0, t=30, b=0))
    return fig


def presets_figure(p: pd.DataFrame) -> go.Figure:
    """Each preset's parameters split by where they live, as shares of its own total."""
    fig = charts.figure(x_title="share of the model's parameters", height=110 + 40 * len(p))
    for g, col in [("embedding", "embeddings"), ("attention", "attention"), ("mlp", "mlp_params"),
                   ("norm", "norms"), ("head", "head")]:
        fig.add_trace(go.Bar(
            y=p["preset"], x=p[col] / p["params"], name=GROUP_LABELS[g], orientation="h",
            marker_color=GROUP_COLORS[g], customdata=p[col],
            hovertemplate="%{y}: %{customdata:,} in " + GROUP_LABELS[g] + " (%{x:.1%})<extra></extra>",
        ))
    fig.update_layout(barmode="stack", legend=dict(traceorder="normal"))
    fig.update_xaxes(tickformat=".0%", range=[0, 1.03], tickvals=[0, 0.2, 0.4, 0.6, 0.8, 1.0], zeroline=False)
    fig.update_yaxes(autorange="reversed", zeroline=False)
    return fig


def presets_view(p: pd.DataFrame) -> None:
    """presets_table as a readable dataframe."""
    view = p[["preset", "params", "d_model", "n_layer", "n_head", "n_kv_head", "d_ff", "vocab_size",
              "n_positions", "mlp", "norm", "tie_embeddings", "per_block", "embedding_share", "linear_share",
              "bf16_GB"]]
    n = "%,d"
    st.dataframe(
        view, hide_index=True, width="stretch",
        column_config={
            "preset": st.column_config.TextColumn("preset", pinned=True),
            "params": st.column_config.NumberColumn("parameters", format=n),
            "d_model": st.column_config.NumberColumn("d", format=n, help="d_model"),
            "n_layer": st.column_config.NumberColumn("layers", format=n),
            "n_head": st.column_config.NumberColumn("heads", format=n),
            "n_kv_head": st.column_config.NumberColumn("kv", format=n, help="key/value heads"),
            "d_ff": st.column_config.NumberColumn("ff", format=n, help="MLP width"),
            "vocab_size": st.column_config.NumberColumn("vocab", format=n),
            "n_positions": st.column_config.NumberColumn("pos", format=n, help="learned positions"),
            "tie_embeddings": st.column_config.CheckboxColumn("tied"),
            "per_block": st.column_config.NumberColumn("one block", format=n),
            "embedding_share": st.column_config.NumberColumn("embeddings", format="percent",
                                                             help="Share of the model in the input tables."),
            "linear_share": st.column_config.NumberColumn("linear layers", format="percent",
                                                          help="Share in the blocks' linear layers."),
            "bf16_GB": st.column_config.NumberColumn("bf16 GB", format="%.2f",
                                                     help="Weights in bf16, 10⁹ bytes."),
        },
    )


def memory_view(m: pd.DataFrame) -> None:
    st.dataframe(
        m, hide_index=True, width="stretch",
        column_config={
            "dtype": st.column_config.TextColumn("stored as"),
            "bits": st.column_config.NumberColumn("bits per number", format="%d"),
            "bytes": st.column_config.NumberColumn("bytes", format="%,d"),
            "GB": st.column_config.NumberColumn("GB (10⁹ bytes)", format="%.2f"),
            "GiB": st.column_config.NumberColumn("GiB (2³⁰ bytes)", format="%.2f"),
        },
    )

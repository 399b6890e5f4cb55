"""Tables and charts for /gpt2-params: a transformer's configuration in, views out.

The page declares its link keys (ui.state); here are the views of what lib.transformer counts.
Every builder is cached by the configuration (a frozen dataclass), so dragging a slider back to a
value it had costs nothing, and a figure that did not change is the same go.Figure object (never
mutate what these return).
"""

from __future__ import annotations

import pandas as pd
import plotly.graph_objects as go
import pyarrow as pa
import streamlit as st

from lib.transformer import (
    PRESET_NAMES,
    PRESETS,
    TransformerConfig,
    matching_preset,
    memory_table,
    param_table,
    totals,
)
from ui import colors, fmt
from ui.frozen import freezes

# Where the parameters live: one category colour each (ui.colors: never a sign or class colour).
GROUP_COLORS = {"embedding": colors.INDIGO, "attention": colors.TEAL, "mlp": colors.WINE,
                "norm": colors.SAND, "head": colors.MAUVE}
# Text on the boxes: white on the dark colours, ink on the light ones.
_TEXT_ON = {colors.INDIGO: "white", colors.TEAL: colors.ON, colors.WINE: "white",
            colors.SAND: colors.ON, colors.MAUVE: "white", colors.OFF: colors.ON}
GROUP_LABELS = {"embedding": "embeddings", "attention": "attention", "mlp": "MLP", "norm": "norms",
                "head": "output head"}
FONT = dict(size=14)  # chart text readable from the back row (>= 12 px everywhere)


def name(cfg: TransformerConfig, preset: str) -> str:
    """What the page calls the model: 'Llama 3 8B', or 'your model (from Llama 3 8B)'."""
    same = matching_preset(cfg)
    if same is not None:
        return PRESET_NAMES[same]
    return f"your model (from {PRESET_NAMES[preset]})"


def share(v: float) -> str:
    """A share of the model, one decimal: '68.3 %', and 'under 0.1 %' rather than a bare 0.0 %."""
    return "under 0.1 %" if 0 < v < 0.0005 else fmt.pct(v)


def differences(cfg: TransformerConfig, base: TransformerConfig, keys: dict[str, str]) -> list[str]:
    """'layers 32 → 16' for every field where cfg differs from base (`keys`: field -> link key)."""
    def say(v) -> str:
        return fmt.count(v) if isinstance(v, int) and not isinstance(v, bool) else str(v)

    out = []
    for attr, key in keys.items():
        a, b = getattr(base, attr), getattr(cfg, attr)
        if a != b:
            out.append(f"{key} {say(a)} → {say(b)}")
    return out


@st.cache_resource(show_spinner=False, max_entries=64)
def counted(cfg: TransformerConfig):
    """param_table and totals of one configuration (pure: cached by its value, shared: read only)."""
    return param_table(cfg), totals(cfg)


@st.cache_resource(show_spinner=False, max_entries=64)
def table_facts(cfg: TransformerConfig) -> dict:
    """What the page says about the table, worked out once per configuration: the total as a sum
    of its rows ('sum'), linear layers per block ('n_linear'), lm_head's shape ('head_shape')."""
    t, tot = counted(cfg)
    return {"sum": sum_markdown(t, cfg.n_layer, tot.per_block, tot.total),
            "n_linear": int(((t["section"] == "block") & (t["kind"] == "linear")).sum()),
            "head_shape": tuple(t.set_index("name").loc["lm_head", "shape"])}


def sum_markdown(t: pd.DataFrame, n_layer: int, per_block: int, total: int) -> str:
    """The total as a sum of the table's rows: wte + wpe + n_layer × (one block) + ln_f (+ lm_head)."""
    def term(r) -> str:
        return f"{fmt.count(r.params)} ({r.name})".replace("_", "\\_")  # no underscore pairs as italics

    terms = [term(r) for r in t.itertuples() if r.section == "embeddings" and r.params]
    terms.append(f"{n_layer} × {fmt.count(per_block)} (one block)")
    terms += [term(r) for r in t.itertuples() if r.section == "final" and r.params]
    return f"**{fmt.count(total)}** = " + " + ".join(terms)


def arrow(df: pd.DataFrame) -> pa.Table:
    """A DataFrame as the Arrow table st.dataframe sends: converted once, not on every rerun."""
    return pa.Table.from_pandas(df, preserve_index=False)


@st.cache_resource(show_spinner=False, max_entries=64)
def _table_frame(cfg: TransformerConfig) -> pa.Table:
    t, _ = counted(cfg)
    return arrow(pd.DataFrame({
        "name": t["name"],
        "W as in y = xW (in × out)": t["shape"].map(fmt.shape),
        "nn.Linear stores (out × in)": t["shape_torch"].map(fmt.shape),
        "one copy": t["per_copy"],
        "copies": t["copies"],
        "all copies": t["params"],
        "share": (100 * t["share"]).round(1) + 0.0,  # one precision for every share on the page
        "weights": t["weights"],
        "biases": t["biases"],
        "tensor": t["tensor"],
        "what it does": t["role"],
    }))


def table_view(cfg: TransformerConfig) -> None:
    """param_table's rows as a readable dataframe: names, both shapes, counts, share."""
    view = _table_frame(cfg)
    n = "%,d"
    st.dataframe(
        view, hide_index=True, width="stretch", row_height=36,
        height=38 + 36 * view.num_rows,  # every row visible: nothing to scroll to on a projector
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
            "share": st.column_config.ProgressColumn(
                "share", format="%.1f %%", min_value=0.0, max_value=100.0,
                help="Of all the model's parameters.", width="small"),
        },
    )


@st.cache_resource(show_spinner=False, max_entries=64)
@freezes
def treemap_figure(cfg: TransformerConfig) -> go.Figure:
    """Where the parameters live: model > embeddings | blocks > attention | MLP | norms > groups."""
    t, _ = counted(cfg)
    ids, labels, parents, values, fills = [], [], [], [], []
    total = int(t["params"].sum())

    def add(i, label, parent, value, color):
        ids.append(i)
        labels.append(label)
        parents.append(parent)
        values.append(int(value))
        fills.append(color)

    add("model", "the model", "", total, "rgba(0,0,0,0)")
    own = t[t["params"] > 0]
    sections = {"embeddings": "embeddings", "block": f"{cfg.n_layer} blocks", "final": "after the blocks"}
    for sec, label in sections.items():
        rows = own[own["section"] == sec]
        if rows.empty:
            continue
        add(sec, label, "model", rows["params"].sum(), colors.OFF)
        if sec == "block":
            for g, grows in rows.groupby("group", sort=False):
                add(f"block/{g}", GROUP_LABELS[g], sec, grows["params"].sum(), GROUP_COLORS[g])
                for r in grows.itertuples():
                    add(f"block/{g}/{r.name}", r.name, f"block/{g}", r.params, GROUP_COLORS[r.group])
        else:
            for r in rows.itertuples():
                add(f"{sec}/{r.name}", r.name, sec, r.params, GROUP_COLORS[r.group])
    ink = [_TEXT_ON.get(c, colors.ON) for c in fills]
    # One dict, validated once (go.Figure(dict) is several times cheaper than add_trace + update_*).
    return go.Figure({
        "data": [{
            "type": "treemap", "ids": ids, "labels": labels, "parents": parents, "values": values,
            "branchvalues": "total",
            "marker": {"colors": fills, "line": {"width": 1, "color": "white"}},
            "texttemplate": "%{label}<br>%{value:,}<br>%{percentRoot:.1%}",
            "hovertemplate": ("%{label}<br>%{value:,} parameters<br>%{percentRoot:.1%} of the model"
                              "<extra></extra>"),
            "tiling": {"pad": 2}, "pathbar": {"visible": True, "textfont": {"size": 13}},
            "root": {"color": "rgba(0,0,0,0)"},
            "textfont": {"size": 15}, "insidetextfont": {"size": 15, "color": ink},
        }],
        # A box too small for 12 px text shows its name on hover only (plotly would shrink it).
        "layout": {"height": 440, "margin": {"l": 0, "r": 0, "t": 30, "b": 0}, "font": FONT,
                   "uniformtext": {"minsize": 12, "mode": "hide"}},
    })


@st.cache_resource(show_spinner=False, max_entries=16)
def presets_frame(custom: TransformerConfig | None = None) -> pd.DataFrame:
    """Every preset, and first the student's own configuration when it is not a preset (read only)."""
    from lib.transformer import presets_table

    p = presets_table({"your model": custom, **PRESETS} if custom else None)
    p["preset"] = [PRESET_NAMES.get(k, k) for k in p["preset"]]
    for c in ("embedding_share", "linear_share"):
        p[c] = (100 * p[c]).round(1) + 0.0  # percent, one decimal, as every share on the page
    p["bf16_GB"] = p["bf16_GB"].round(2) + 0.0
    return p


@st.cache_resource(show_spinner=False, max_entries=16)
@freezes
def presets_figure(custom: TransformerConfig | None = None) -> go.Figure:
    """Each preset's parameters split by where they live, as shares of its own total."""
    p = presets_frame(custom)
    data = []
    for g, col in [("embedding", "embeddings"), ("attention", "attention"), ("mlp", "mlp_params"),
                   ("norm", "norms"), ("head", "head")]:
        data.append({
            "type": "bar", "y": list(p["preset"]), "x": (p[col] / p["params"]).to_numpy(),
            "name": GROUP_LABELS[g], "orientation": "h", "marker": {"color": GROUP_COLORS[g]},
            "customdata": p[col].to_numpy(),
            "hovertemplate": "%{y}: %{customdata:,} in " + GROUP_LABELS[g] + " (%{x:.1%})<extra></extra>",
        })
    return go.Figure({"data": data, "layout": {
        "barmode": "stack", "height": 130 + 40 * len(p), "font": FONT,
        "margin": {"l": 10, "r": 10, "t": 10, "b": 10},
        "legend": {"orientation": "h", "yanchor": "bottom", "y": 1.0, "xanchor": "left", "x": 0.0,
                   "traceorder": "normal", "font": {"size": 13}},
        "xaxis": {"title": {"text": "share of the model's parameters"}, "tickformat": ".0%",
                  "range": [0, 1.03], "tickvals": [0, 0.2, 0.4, 0.6, 0.8, 1.0], "zeroline": False,
                  "tickfont": {"size": 13}},
        "yaxis": {"autorange": "reversed", "zeroline": False, "tickfont": {"size": 13}},
    }})


def presets_view(custom: TransformerConfig | None = None) -> None:
    """presets_table as a readable dataframe."""
    st.dataframe(_presets_arrow(custom), hide_index=True, width="stretch", column_config=_PRESET_COLUMNS)


@st.cache_resource(show_spinner=False, max_entries=16)
def _presets_arrow(custom: TransformerConfig | None = None) -> pa.Table:
    p = presets_frame(custom)
    return arrow(p[["preset", "params", "d_model", "n_layer", "n_head", "n_kv_head", "d_ff", "vocab_size",
                    "n_positions", "mlp", "norm", "tie_embeddings", "per_block", "embedding_share",
                    "linear_share", "bf16_GB"]])


_N = "%,d"
_PRESET_COLUMNS = {
    "preset": st.column_config.TextColumn("model", pinned=True),
    "params": st.column_config.NumberColumn("parameters", format=_N),
    "d_model": st.column_config.NumberColumn("d", format=_N, help="d_model"),
    "n_layer": st.column_config.NumberColumn("layers", format=_N),
    "n_head": st.column_config.NumberColumn("heads", format=_N),
    "n_kv_head": st.column_config.NumberColumn("kv", format=_N, help="key/value heads"),
    "d_ff": st.column_config.NumberColumn("ff", format=_N, help="MLP width"),
    "vocab_size": st.column_config.NumberColumn("vocab", format=_N),
    "n_positions": st.column_config.NumberColumn("pos", format=_N, help="learned positions"),
    "tie_embeddings": st.column_config.CheckboxColumn("tied"),
    "per_block": st.column_config.NumberColumn("one block", format=_N),
    "embedding_share": st.column_config.NumberColumn("embeddings", format="%.1f %%",
                                                     help="Share of the model in the input tables."),
    "linear_share": st.column_config.NumberColumn("linear layers", format="%.1f %%",
                                                  help="Share in the blocks' linear layers."),
    "bf16_GB": st.column_config.NumberColumn("bf16 GB", format="%.2f",
                                             help="Weights in bf16, 10⁹ bytes."),
}


@st.cache_resource(show_spinner=False, max_entries=64)
def _memory_arrow(total: int) -> pa.Table:
    return arrow(fmt.frame(memory_table(total), 2))


def memory_view(total: int) -> None:
    """memory_table of `total` parameters as a readable dataframe."""
    st.dataframe(
        _memory_arrow(total), hide_index=True, width="stretch",
        column_config={
            "dtype": st.column_config.TextColumn("stored as"),
            "bits": st.column_config.NumberColumn("bits per number", format="%d"),
            "bytes": st.column_config.NumberColumn("bytes", format="%,d"),
            "GB": st.column_config.NumberColumn("GB (10⁹ bytes)", format="%.2f"),
            "GiB": st.column_config.NumberColumn("GiB (2³⁰ bytes)", format="%.2f"),
        },
    )

"""Tables and charts for /gpt2-params: a transformer's configuration in, views out.

The page declares its link keys (ui.state); here are the views of what lib.transformer counts.
Every builder is cached by the configuration (a frozen dataclass), so dragging a slider back to a
value it had costs nothing, and a figure that did not change is the same go.Figure object (never
mutate what these return).
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pandas as pd
import plotly.graph_objects as go
import pyarrow as pa
import streamlit as st

from lib.transformer import (
    PRESET_NAMES,
    Totals,
    TransformerConfig,
    matching_preset,
    memory_bytes,
    memory_table,
    mlp_collapse,
    param_table,
    totals,
)
from pages.gpt2_params import treemap
from pages.gpt2_params.treemap import FONT, GROUP_COLORS, GROUP_LABELS
from ui import fmt, tables
from ui.frozen import frozen_spec


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


@dataclasses.dataclass(frozen=True)
class View:
    """Everything /gpt2-params shows of one configuration, made once (one cache lookup a rerun)."""

    totals: Totals
    facts: dict          # table_facts
    table: pa.Table      # the parameter table as sent
    treemap: go.Figure
    memory: pa.Table     # memory_table of the total, as sent
    custom: TransformerConfig | None  # the configuration when it is not a preset (joins the presets)
    presets: pa.Table
    presets_figure: go.Figure
    collapse: tuple[int, int]  # lib.transformer.mlp_collapse


@st.cache_resource(show_spinner=False, max_entries=64)
def view(cfg: TransformerConfig) -> View:
    """The page's numbers, tables and figures of one configuration (shared: read only)."""
    _, tot = counted(cfg)
    custom = None if matching_preset(cfg) else cfg
    return View(tot, table_facts(cfg), _table_frame(cfg), treemap_figure(cfg), _memory_arrow(tot.total),
                custom, _presets_arrow(custom), presets_figure(custom), mlp_collapse(cfg))


@st.cache_resource(show_spinner=False, max_entries=64)
def rows(cfg: TransformerConfig) -> tuple[dict, ...]:
    """param_table's rows as plain dicts (read only): the views below walk them without pandas,
    which costs 10-100x less per row on a configuration seen for the first time (every new slider
    value is one)."""
    t, _ = counted(cfg)
    return tuple(t.to_dict("records"))


@st.cache_resource(show_spinner=False, max_entries=64)
def table_facts(cfg: TransformerConfig) -> dict:
    """What the page says about the table, worked out once per configuration: the total as a sum
    of its rows ('sum'), linear layers per block ('n_linear'), lm_head's shape ('head_shape')."""
    rs = rows(cfg)
    _, tot = counted(cfg)
    return {"sum": sum_markdown(rs, cfg.n_layer, tot.per_block, tot.total),
            "n_linear": sum(r["section"] == "block" and r["kind"] == "linear" for r in rs),
            "head_shape": tuple(next(r["shape"] for r in rs if r["name"] == "lm_head"))}


def sum_markdown(t, n_layer: int, per_block: int, total: int) -> str:
    """The total as a sum of the table's rows: wte + wpe + n_layer × (one block) + ln_f (+ lm_head).

    t : param_table's rows, as a DataFrame or as dicts (`rows`)
    """
    rs = t.to_dict("records") if isinstance(t, pd.DataFrame) else t

    def term(r) -> str:
        return f"{fmt.count(r['params'])} ({r['name']})".replace("_", "\\_")  # no underscore pairs as italics

    terms = [term(r) for r in rs if r["section"] == "embeddings" and r["params"]]
    terms.append(f"{n_layer} × {fmt.count(per_block)} (one block)")
    terms += [term(r) for r in rs if r["section"] == "final" and r["params"]]
    return f"**{fmt.count(total)}** = " + " + ".join(terms)


def _shares(values) -> list[float]:
    """Fractions as percent with one decimal (numpy's rounding, as every share on the page), no −0.0."""
    return (np.round(100 * np.asarray(values, dtype=float), 1) + 0.0).tolist()


def arrow(df: pd.DataFrame) -> pa.Table:
    """A DataFrame as the Arrow table st.dataframe sends: converted once, not on every rerun, and
    without pandas' own schema note (a third of a small table's bytes, read by nobody here)."""
    return pa.Table.from_pandas(df, preserve_index=False).replace_schema_metadata(None)


@st.cache_resource(show_spinner=False, max_entries=64)
def _table_frame(cfg: TransformerConfig) -> pa.Table:
    rs = rows(cfg)

    def col(k):
        return [r[k] for r in rs]

    return pa.table({
        "name": col("name"),
        "W as in y = xW (in × out)": [fmt.shape(r["shape"]) for r in rs],
        "nn.Linear stores (out × in)": [fmt.shape(r["shape_torch"]) for r in rs],
        "one copy": pa.array(col("per_copy"), pa.int64()),
        "copies": pa.array(col("copies"), pa.int64()),
        "all copies": pa.array(col("params"), pa.int64()),
        "share": pa.array(_shares(col("share")), pa.float64()),  # one precision for every share on the page
        "weights": pa.array(col("weights"), pa.int64()),
        "biases": pa.array(col("biases"), pa.int64()),
        "tensor": col("tensor"),
        "what it does": col("role"),
    })


# Two views of one table, each narrow enough for a projector's 1366 px beside the sidebar (one view of
# all eleven columns needed sideways scrolling): the numbers, then what each row is.
TABLE_NUMBERS = ["name", "W as in y = xW (in × out)", "nn.Linear stores (out × in)", "one copy", "copies",
                 "all copies", "share"]
TABLE_WORDS = ["name", "what it does", "weights", "biases", "tensor"]


def table_view(cfg: TransformerConfig, table: pa.Table | None = None) -> None:
    """param_table's rows as two readable dataframes: both shapes, counts and share; then what each row
    does, its weights and biases, and its checkpoint tensor."""
    view = _table_frame(cfg) if table is None else table
    for order in (TABLE_NUMBERS, TABLE_WORDS):
        if order is TABLE_WORDS:
            st.markdown("**What each row is**, with its weights and biases (one copy) and its tensor's "
                        "name in the checkpoint:")
        tables.grid(   # each view sends its own columns only (two whole copies cost 10 KB a move)
            view.select(order), "The parameter table: " + ("counts" if order is TABLE_NUMBERS else "what each row is"),
            width="stretch", row_height=36,
            height=38 + 36 * view.num_rows,  # every row visible: nothing to scroll to on a projector
            column_config=_TABLE_COLUMNS,
        )


_N = "%,d"
_TABLE_COLUMNS = {
    "name": st.column_config.TextColumn("name", pinned=True, width=110,
                                        help="The group's name in the checkpoint."),
    "tensor": st.column_config.TextColumn(
        "checkpoint tensor", help="Prefix of the tensor names in the checkpoint; {i} is the block."),
    "what it does": st.column_config.TextColumn("what it does", width="large"),
    "W as in y = xW (in × out)": st.column_config.TextColumn(
        "shape, x W (in × out)", help="As the maths and GPT-2's Conv1D checkpoint store it."),
    "nn.Linear stores (out × in)": st.column_config.TextColumn(
        "shape, nn.Linear (out × in)",
        help="As PyTorch's nn.Linear and Llama's checkpoint store it."),
    "weights": st.column_config.NumberColumn("weights", format=_N, help="In one copy."),
    "biases": st.column_config.NumberColumn("biases", format=_N, help="In one copy."),
    "one copy": st.column_config.NumberColumn("one copy", format=_N, help="Weights + biases."),
    "copies": st.column_config.NumberColumn("copies", format="× %d",
                                            help="One per block for block rows."),
    "all copies": st.column_config.NumberColumn("all copies", format=_N,
                                                help="One copy × copies: adds up to the total."),
    "share": st.column_config.ProgressColumn(
        "share", format="%.1f %%", min_value=0.0, max_value=100.0,
        help="Of all the model's parameters.", width="small"),
}


@st.cache_resource(show_spinner=False, max_entries=64)
def treemap_figure(cfg: TransformerConfig, room: bool = False) -> go.Figure:
    """Where the parameters live: model > embeddings | blocks > attention | MLP | norms > groups."""
    return frozen_spec(treemap_spec(cfg, room))


def treemap_spec(cfg: TransformerConfig, room: bool = False) -> dict:
    """treemap_figure's figure as one dict (a test builds it validated): pages/gpt2_params/treemap.py."""
    return treemap.treemap_spec(cfg, rows(cfg), room)


_PRESET_COLS = ["preset", "params", "d_model", "n_layer", "n_head", "n_kv_head", "d_ff", "vocab_size",
                "n_positions", "mlp", "norm", "tie_embeddings", "per_block", "embedding_share",
                "linear_share", "bf16_GB"]


def _readable(p: pd.DataFrame) -> pd.DataFrame:
    """presets_table's rows as the page shows them: display names, shares in percent with one
    decimal (as every share on the page), GB with two."""
    p = p.copy()
    p["preset"] = [PRESET_NAMES.get(k, k) for k in p["preset"]]
    for c in ("embedding_share", "linear_share"):
        p[c] = (100 * p[c]).round(1) + 0.0
    p["bf16_GB"] = p["bf16_GB"].round(2) + 0.0
    return p


@st.cache_resource(show_spinner=False, max_entries=1)
def _presets_only() -> tuple[pd.DataFrame, pa.Table]:
    """Every preset's row, worked out once per process (the lesson adds the student's own above)."""
    from lib.transformer import presets_table

    p = _readable(presets_table())
    return p, arrow(p[_PRESET_COLS])


@st.cache_resource(show_spinner=False, max_entries=64)
def custom_row(custom: TransformerConfig) -> dict:
    """presets_table's row of one configuration, as the page shows it (see `_readable`), from the
    totals the page already holds: presets_table itself would count the model again. A unit test
    keeps the two equal."""
    _, t = counted(custom)
    return dict(preset="your model", **dataclasses.asdict(custom), params=t.total, per_block=t.per_block,
                embeddings=t.embeddings, attention=t.attention, mlp_params=t.mlp, norms=t.norms,
                head=t.head, embedding_share=_shares([t.embeddings / t.total])[0],
                linear_share=_shares([t.linear_share])[0],
                bf16_GB=float(np.round(memory_bytes(t.total, "bf16") / 1e9, 2)) + 0.0)


def presets_frame(custom: TransformerConfig | None = None) -> pd.DataFrame:
    """Every preset, and first the student's own configuration when it is not a preset (read only)."""
    p, _ = _presets_only()
    if custom is None:
        return p
    return pd.concat([pd.DataFrame([custom_row(custom)]).astype(p.dtypes.to_dict()), p], ignore_index=True)


@st.cache_resource(show_spinner=False, max_entries=64)
def presets_figure(custom: TransformerConfig | None = None) -> go.Figure:
    """Each preset's parameters split by where they live, as shares of its own total."""
    return frozen_spec(presets_spec(custom))


def presets_spec(custom: TransformerConfig | None = None) -> dict:
    """presets_figure's figure as one dict (a test builds it validated)."""
    p, _ = _presets_only()
    row = custom_row(custom) if custom is not None else None

    def column(c) -> list:
        return ([row[c]] if row else []) + p[c].tolist()

    names, total = column("preset"), np.array(column("params"))
    data = []
    for g, col in [("embedding", "embeddings"), ("attention", "attention"), ("mlp", "mlp_params"),
                   ("norm", "norms"), ("head", "head")]:
        n = np.array(column(col))  # int64, as the frame's column
        data.append({
            "type": "bar", "y": names, "x": n / total,
            "name": GROUP_LABELS[g], "orientation": "h", "marker": {"color": GROUP_COLORS[g]},
            "customdata": n,
            "hovertemplate": "%{y}: %{customdata:,} in " + GROUP_LABELS[g] + " (%{x:.1%})<extra></extra>",
        })
    return {"data": data, "layout": {
        "barmode": "stack", "height": 130 + 40 * len(names), "font": FONT,
        "margin": {"l": 10, "r": 10, "t": 10, "b": 10},
        "legend": {"orientation": "h", "yanchor": "bottom", "y": 1.0, "xanchor": "left", "x": 0.0,
                   "traceorder": "normal", "font": {"size": 13}},
        "xaxis": {"title": {"text": "share of the model's parameters"}, "tickformat": ".0%",
                  "range": [0, 1.03], "tickvals": [0, 0.2, 0.4, 0.6, 0.8, 1.0], "zeroline": False,
                  "tickfont": {"size": 13}},
        "yaxis": {"autorange": "reversed", "zeroline": False, "tickfont": {"size": 13}},
    }}


# Two views of one table, each fitting a projector's 1366 px (one of sixteen columns scrolled sideways).
PRESET_SHAPES = ["preset", "d_model", "n_layer", "n_head", "n_kv_head", "d_ff", "vocab_size", "n_positions",
                 "mlp", "norm", "tie_embeddings"]
PRESET_COUNTS = ["preset", "params", "per_block", "embedding_share", "linear_share", "bf16_GB"]


def presets_view(custom: TransformerConfig | None = None, table: pa.Table | None = None) -> None:
    """presets_table as two readable dataframes: each model's shape, then its counts."""
    data = _presets_arrow(custom) if table is None else table
    for order in (PRESET_SHAPES, PRESET_COUNTS):
        tables.grid(data.select(order), "The models' " + ("shapes" if order is PRESET_SHAPES else "counts"),
                    width="stretch", column_config=_PRESET_COLUMNS)


@st.cache_resource(show_spinner=False, max_entries=64)
def _presets_arrow(custom: TransformerConfig | None = None) -> pa.Table:
    _, table = _presets_only()
    if custom is None:
        return table
    row = custom_row(custom)
    return pa.concat_tables([pa.Table.from_pylist([{c: row[c] for c in _PRESET_COLS}], schema=table.schema),
                             table])


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
    m = memory_table(total)
    return pa.table({c: np.round(m[c].to_numpy(), 2) + 0.0 if m[c].dtype.kind == "f" else m[c].to_numpy()
                     for c in m.columns})  # fmt.frame's rounding, without a pandas round trip


def memory_view(total: int, table: pa.Table | None = None) -> None:
    """memory_table of `total` parameters as a readable dataframe."""
    tables.grid(_memory_arrow(total) if table is None else table, "Memory for the parameters, by number type",
                width="stretch", column_config=_MEMORY_COLUMNS)


_MEMORY_COLUMNS = {
    "dtype": st.column_config.TextColumn("stored as"),
    "bits": st.column_config.NumberColumn("bits per number", format="%d"),
    "bytes": st.column_config.NumberColumn("bytes", format="%,d"),
    "GB": st.column_config.NumberColumn("GB (10⁹ bytes)", format="%.2f"),
    "GiB": st.column_config.NumberColumn("GiB (2³⁰ bytes)", format="%.2f"),
}

"""GPT-2's parameters: where every one of its numbers lives, beside Llama, Mistral and Qwen."""

import streamlit as st

from lib.transformer import (
    PRESETS,
    count_params,
    matching_preset,
    memory_table,
    mlp_collapse,
    param_table,
    presets_table,
    totals,
    validate,
    weight_groups,
)
from ui import charts
from ui import params as ui
from ui.links import bound
from ui.source import show_source

LAST_VALID = "gpt2params_last_valid"  # session_state: the last configuration that made a model


@st.cache_data(show_spinner=False)
def _table(cfg):
    return param_table(cfg), totals(cfg)


@st.cache_data(show_spinner=False)
def _presets(custom=None):
    """Every preset, and first the student's own configuration when it is not a preset."""
    return presets_table({"your model": custom, **PRESETS} if custom else None)


st.title("GPT-2's parameters")
st.markdown(
    f"Students hear *{count_params(PRESETS['gpt2']) / 1e6:.0f} million parameters*. Here is where every "
    "one of them lives: each "
    "weight matrix, bias and norm of the model, by the name it has in the published checkpoint, "
    "counted exactly. Pick a model, or move any slider to design your own."
)

# --- 1. The configuration -------------------------------------------------------------
st.header("Pick a model")
top = st.columns([3, 2], vertical_alignment="bottom")
with top[0]:
    preset = bound(st.selectbox, "Preset", list(PRESETS), key="preset", on_change=ui.load_preset,
                   help="A published model's configuration: picking one sets every control below.")
back, status = top[1].empty(), st.empty()
base = PRESETS[preset]
with st.container(border=True):
    cfg, slots = ui.config_controls(base)

problems = validate(cfg)
for p in problems:
    f = ui.BY_ATTR[p.field]
    slots[p.field].caption(f":red[:material/error: **{f.label}**: {p.message}.]")
if not problems:
    st.session_state[LAST_VALID] = cfg
shown = st.session_state.get(LAST_VALID, base) if problems else cfg


if cfg == base:
    status.markdown(f":green-badge[:material/check: preset] {ui.describe(cfg, preset)}.")
else:
    status.markdown(f":orange-badge[:material/tune: custom] {ui.describe(cfg, preset).removeprefix('custom ')}.")
    back.button(f"Back to {preset}", on_click=ui.load_preset, args=(preset,), icon=":material/restart_alt:",
                help="Set every control to the preset's values.", width="stretch")

if problems:
    fields = ", ".join(f"**{ui.BY_ATTR[p.field].label}**" for p in problems)
    st.warning(f"Not a model yet: fix {fields} above. Until then everything below shows the last "
               f"valid configuration, {ui.describe(shown, preset)}.", icon=":material/warning:")

table, tot = _table(shown)

# --- 2. The headline ------------------------------------------------------------------
st.header("How many numbers")
row1, row2 = st.columns(2), st.columns(2)
row1[0].metric("Parameters", f"{tot.total:,}",
               help="Equal to Hugging Face's model.num_parameters() for the same configuration.")
row1[1].metric("In one block", f"{tot.per_block:,}", help="Attention, MLP and two norms of one block.")
row2[0].metric(f"In all {shown.n_layer} blocks", f"{tot.blocks:,}", f"{tot.blocks / tot.total:.1%} of the model",
               delta_color="off", delta_arrow="off")
row2[1].metric("In the embeddings", f"{tot.embeddings:,}", f"{tot.embeddings / tot.total:.1%} of the model",
               delta_color="off", delta_arrow="off")
st.markdown("Every row of the table below, added up: " + ui.sum_markdown(table, shown.n_layer, tot.per_block,
                                                                          tot.total))

# --- 3. The table ---------------------------------------------------------------------
st.header("Where every number lives")
gpt_names = shown.mlp == "gelu"
st.markdown(
    "One row per weight group, named as in the checkpoint. Rows whose tensor has `{i}` in its name "
    "exist once in every block, so *all copies* is one copy times the number of blocks. The two shape "
    "columns are the same matrix stored two ways. The maths writes **y = xW** with W of shape "
    "(in × out), "
    + ("and GPT-2's checkpoint stores it that way (its layers are `Conv1D`). PyTorch's `nn.Linear` "
       "stores the transpose, (out × in), and computes x Wᵀ."
       if gpt_names else
       "as GPT-2's `Conv1D` layers store it. This checkpoint uses PyTorch's `nn.Linear`, which stores "
       "the transpose, (out × in), and computes x Wᵀ.")
)
ui.table_view(table)
if shown.tie_embeddings:
    head = table.set_index("name").loc["lm_head"]
    st.caption(
        f":material/link: The output layer (lm_head) needs a {ui.shape_text(head['shape'])} matrix. "
        "With tied embeddings it is the token embedding table read the other way round, so it "
        "costs nothing: Hugging Face counts a shared tensor once.")

st.subheader("The picture")
st.caption("Area is parameter count. Click a box to zoom in, the bar at the top to zoom out.")
charts.show(ui.treemap_figure(table, shown.n_layer))

# --- 4. The lesson's facts, computed ----------------------------------------------------
st.header("Two facts, checked")
share = tot.linear_share
n_linear = int(((table["section"] == "block") & (table["kind"] == "linear")).sum())
verdict = "more than two thirds" if share > 2 / 3 else "less than two thirds"
st.markdown(
    f"**Linear layers dominate.** The {n_linear} linear layers in each block "
    f"(attention and MLP) hold **{tot.linear:,}** of the **{tot.total:,}** parameters: "
    f"**{share:.1%}**, {verdict} of the model. The rest is mostly the embedding table "
    f"({tot.embeddings / tot.total:.1%}); the norms hold only {tot.norms:,}."
)
two, one = mlp_collapse(shown)
d, ff = shown.d_model, shown.d_ff
if shown.mlp == "gelu":
    st.markdown(
        f"**The bend is what the MLP's width buys.** Each block's MLP has two matrices, "
        f"{d:,} × {ff:,} and {ff:,} × {d:,}: **{two:,}** weights. Without the GELU between them they "
        f"would multiply into one {d:,} × {d:,} matrix, **{one:,}** weights, {two / one:.0f} times "
        f"fewer, and the {ff:,}-wide middle would add nothing (see *Bends* for the proof)."
    )
else:
    st.markdown(
        f"**SwiGLU does not collapse.** This MLP has three matrices ({two:,} weights per block). "
        "Take the SiLU away and the gate branch still *multiplies* the up branch: the product of two "
        "linear maps of x is quadratic in x, not linear, so unlike GPT-2's MLP it does not shrink to one "
        f"{d:,} × {d:,} matrix ({one:,} weights)."
    )

# --- 5. Memory ------------------------------------------------------------------------
st.header("Memory to hold the weights")
mem = memory_table(tot.total)
bf16 = mem.set_index("dtype").loc["bf16"]
st.markdown(
    f"Each parameter is one stored number. In **bf16**, the usual format for running a model, "
    f"these {tot.total:,} numbers take **{bf16['GB']:.2f} GB**. Quantising to 8 or 4 bits shrinks "
    "them further, at some cost in accuracy. This is the weights alone: running the model also needs "
    "memory for activations and the attention cache, and training needs gradients and optimiser "
    "state on top."
)
ui.memory_view(mem)

# --- 6. Presets side by side ------------------------------------------------------------
st.header("All presets side by side")
p = _presets(None if matching_preset(shown) else shown)
st.markdown(
    "The same sums for every preset"
    + (", with *your model* (the configuration above) on top" if not matching_preset(shown) else "")
    + ". The bigger the model, the smaller the share of its embedding table: the vocabulary grows "
    "slowly while the blocks grow with d_model², times the number of blocks."
)
ui.presets_view(p)
st.caption("Where each preset's parameters live, as shares of its own total. Hover a bar for the count.")
charts.show(ui.presets_figure(p))


show_source(weight_groups, param_table)

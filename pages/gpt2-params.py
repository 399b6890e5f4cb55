"""GPT-2's parameters: where every one of its numbers lives, beside Llama, Mistral and Qwen."""

import streamlit as st

import engine.preload  # noqa: F401  (first: every module imported once before any page runs)
from lib import answers, asks
from lib.transformer import (
    DTYPE_BYTES,
    LINK_KEYS,
    MLPS,
    NORMS,
    PRESET_NAMES,
    PRESETS,
    TransformerConfig,
    matching_preset,
    param_table,
    validate,
    weight_groups,
)
from pages.gpt2_params import treemap
from pages.gpt2_params import views as ui
from ui import charts, fmt, room, state
from ui.source import show_source

G = PRESETS["gpt2"]  # the declared defaults; every field's default on a run is the chosen preset's
FIELDS = LINK_KEYS  # TransformerConfig field -> its link key, in the order the controls are drawn
BOTH = "`true`/`false` (the preset's)"  # a field's default on a run is the chosen preset's value


def _whole(lo: int):
    """A whole-number box's link value: a fraction is cut to a whole number, as Streamlit does."""
    return lambda raw: int(state.parse_number(raw, lo))


LINKS = state.Links(
    state.select("preset", PRESETS, "gpt2", "Model",
                 "A published model's configuration: picking one sets every field under "
                 "Change the architecture.", names=PRESET_NAMES, meaning="The published model to start from"),
    state.slider("d", 64, 16384, G.d_model, 64, "Width (d_model)",
                 "Width of the residual stream: every token is this many numbers between blocks.",
                 number_format="localized", meaning="d_model, numbers per token",
                 values="64 to 16,384, steps of 64 (the preset's)"),
    state.slider("layers", 0, 128, G.n_layer, 1, "Blocks (layers)",
                 "How many transformer blocks, each with its own weights.", number_format="localized",
                 meaning="Transformer blocks", values="0 to 128 (the preset's)"),
    state.slider("heads", 1, 128, G.n_head, 1, "Attention heads",
                 "Query heads; each head works on d_model / heads numbers.", number_format="localized",
                 meaning="Query heads", values="1 to 128 (the preset's)"),
    state.slider("kv", 1, 128, G.n_kv_head, 1, "Key/value heads",
                 "Fewer than the heads is grouped-query attention: groups of query heads share keys "
                 "and values.", number_format="localized", meaning="Key/value heads", values="1 to 128 (the preset's)"),
    state.slider("ff", 64, 65536, G.d_ff, 64, "MLP width (d_ff)",
                 f"The MLP's hidden width; GPT-2 uses {G.d_ff // G.d_model} × d_model.",
                 number_format="localized", meaning="d_ff, the MLP's hidden width",
                 values="64 to 65,536, steps of 64 (the preset's)"),
    state.number("vocab", 1, None, G.vocab_size, 1, "Vocabulary (tokens)",
                 "Rows of the token embedding table.", number_format="%d", parse=_whole(1),
                 meaning="Tokens in the vocabulary", values="a whole number >= 1 (the preset's)"),
    state.number("pos", 0, None, G.n_positions, 1, "Position table (0 = none)",
                 f"Rows of a learned position table (GPT-2: {fmt.count(G.n_positions)}). "
                 "Llama-style models use RoPE instead: 0.", number_format="%d", parse=_whole(0),
                 meaning="Rows of the learned position table, 0 for none",
                 values="a whole number >= 0 (the preset's)"),
    state.select("mlp", MLPS, G.mlp, "MLP", "gelu: up, GELU, down (GPT-2). "
                 "swiglu: SiLU(gate) × up, then down (Llama).", kind="radio", horizontal=True,
                 meaning="The MLP's kind", values="`gelu`, `swiglu` (the preset's)"),
    state.select("norm", NORMS, G.norm, "Norm", "layernorm learns a scale and a shift per number; "
                 "rmsnorm only a scale.", kind="radio", horizontal=True, meaning="The norm's kind",
                 values="`layernorm`, `rmsnorm` (the preset's)"),
    state.toggle("qkvbias", G.qkv_bias, "q, k, v biases", "A bias on the query, key and value projections.",
                 meaning="Biases on q, k and v", values=BOTH),
    state.toggle("bias", G.bias, "Other linear biases",
                 "A bias on the attention output and on every MLP layer (GPT-2 has them, Llama does not).",
                 meaning="Biases on the other linear layers", values=BOTH),
    state.toggle("tie", G.tie_embeddings, "Tied lm_head",
                 "The output layer reuses the token embedding matrix, so it adds no parameters.",
                 meaning="The output layer reuses the token embedding", values=BOTH),
)
ASKS = asks.declare(  # what a lesson can ask about this page (lib/asks.py)
    asks.Ask("total", "How many parameters does the model have?", "number", answers.gpt2_total, rel=0.02),
    asks.Ask("mlp_share", "What share of the model's parameters sits in its blocks' MLPs?", "number",
             answers.gpt2_mlp_share, unit="%", tolerance=2.0),
    asks.Ask("per_block", "How many parameters does one block hold?", "number", answers.gpt2_per_block,
             rel=0.02),
    asks.Ask("memory", "How many GB (10⁹ bytes) do the weights take, stored as {dtype}?", "number",
             answers.gpt2_memory, unit="GB", tolerance=0.01, rel=0.05,
             params=(asks.Param("dtype", "stored as", "bf16", choices=tuple(DTYPE_BYTES)),)),
)


def _heads_moved(before: int) -> None:
    """Key/value heads follow the heads while they were equal (no grouping, as GPT-2): moving the heads
    from 12 to 16 makes 16 of each. Set apart by the student (grouped-query attention), they stay."""
    if LINKS.value("kv") == before:
        LINKS.set("kv", LINKS.value("heads"))


def load_preset(name: str | None = None) -> None:
    """Write a preset's values into every field (a widget callback)."""
    cfg = PRESETS[name or st.session_state["preset"]]
    for attr, key in FIELDS.items():
        LINKS.set(key, getattr(cfg, attr))


def configuration():
    """The chosen preset, the configuration the fields hold (drawn lower down) and the one shown:
    the same, or the last valid one while the fields do not make a model."""
    preset = LINKS.value("preset")
    base = PRESETS[preset]
    values = {attr: LINKS.value(key, default=getattr(base, attr)) for attr, key in FIELDS.items()}
    # A link can carry 1.5 into a slider: keep it, so validate() names the field.
    cfg = TransformerConfig(**{a: int(v) if isinstance(v, float) and v.is_integer() else v
                               for a, v in values.items()})
    problems = validate(cfg)
    # While the fields do not make a model, the numbers are the preset's: a link shows what it shows to
    # everyone who opens it, whatever each session moved before.
    shown = cfg if not problems else base
    return preset, base, cfg, problems, shown


def describe(cfg: TransformerConfig, preset: str) -> str:
    """'**GPT-2 small** as published ...' or 'custom from **GPT-2 small**: layers 12 → 6 (...)'."""
    changed = ui.differences(cfg, PRESETS[preset], FIELDS)
    if not changed:
        return f"**{PRESET_NAMES[preset]}** as published in its config.json"
    same = matching_preset(cfg)
    return (f"custom from **{PRESET_NAMES[preset]}**: " + ", ".join(changed)
            + (f" (that is **{PRESET_NAMES[same]}**)" if same else ""))


def _model_line(preset, base, cfg) -> None:
    """The preset's box and what the fields make of it: the preset as published, or custom from it."""
    LINKS.widget("preset", on_change=load_preset)
    if cfg == base:
        st.markdown(f":green-badge[:material/check: preset] {describe(cfg, preset)}.")
    else:
        st.markdown(f":orange-badge[:material/tune: custom] {describe(cfg, preset).removeprefix('custom ')}.")
        st.button(f"Back to {PRESET_NAMES[preset]}", on_click=load_preset, args=(preset,),
                  icon=":material/restart_alt:", help="Set every field to the preset's values.")


def _totals(shown, tot) -> list[tuple[str, int, str | None, str | None]]:
    """The page's totals: (label, count, share of the model or None, help or None)."""
    rest = tot.total - tot.blocks - tot.embeddings
    return [("Parameters", tot.total, None,
             "Equal to Hugging Face's model.num_parameters() for the same configuration."),
            ("In one block", tot.per_block, None, "Attention, MLP and two norms of one block."),
            (f"In all {shown.n_layer} blocks", tot.blocks, ui.share(tot.blocks / tot.total), None),
            ("In the embeddings", tot.embeddings, ui.share(tot.embeddings / tot.total), None),
            ("After the blocks", rest, ui.share(rest / tot.total),
             "The final norm, and the output layer unless it is tied to the embedding.")]


TREEMAP_NAME = "Where the parameters live: a treemap, area is parameter count"


def _boxes_in_words(rows, total: int) -> None:
    """The room's treemap in one line: every box's share (a phone's narrow chart leaves some unlabelled),
    then the boxes too small to draw, with their counts."""
    drawn = [f"{w} {ui.share(n / total)}" for w, n, big in treemap.boxes(rows) if big]
    small = [f"{w} ({fmt.count(n)}, {ui.share(n / total)})" for w, n, big in treemap.boxes(rows) if not big]
    st.caption("The boxes: " + "; ".join(drawn) + "."
               + (" Too small to draw at this size: " + "; ".join(small) + "." if small else ""))


def section_model(preset, base, cfg, problems, shown, v: ui.View) -> None:
    """The idea first: the model, its total, and the picture of where the parameters live. In the room
    view (issue 43 item 9) the five totals stand in one row and the treemap takes the whole width under
    them, every box labelled, all on a 1366 x 768 screen."""
    totals = _totals(shown, v.totals)
    if room.on():
        _model_line(preset, base, cfg)
        row = st.container(horizontal=True, gap="small")   # one row at 1366 px, Llama 3 8B's too
        for label, n, share, why in totals:
            row.metric(label, fmt.count(n), share, delta_color="off", delta_arrow="off", help=why, width="content")
        charts.show(ui.treemap_figure(shown, room=True), key="gpt2_treemap", name=TREEMAP_NAME)
        _boxes_in_words(ui.rows(shown), v.totals.total)
    else:
        left, right = st.columns([2, 3], gap="large")
        with left:
            _model_line(preset, base, cfg)
            for label, n, _, why in totals[:2]:
                st.metric(label, fmt.count(n), help=why)
        with right:
            st.markdown("**Where the parameters live**: area is parameter count. Click a box to zoom in, "
                        "the bar at the top to zoom out.")
            charts.show(v.treemap, key="gpt2_treemap", name=TREEMAP_NAME)
        for col, (label, n, share, why) in zip(st.columns(3), totals[2:], strict=True):
            col.metric(label, fmt.count(n), share, delta_color="off", delta_arrow="off", help=why)
    # One slot, drawn with or without its warning: an element that comes and goes here would move every
    # control below it, and the browser would remount the slider a student is moving (focus lost).
    slot = st.empty()
    if problems:
        fields = ", ".join(f"**{LINKS[FIELDS[p.field]].label}**" for p in problems)
        slot.warning(f"Not a model yet: fix {fields} under *Change the architecture*. Until then every number "
                   f"shows the preset it starts from, {describe(shown, preset)}.", icon=":material/warning:")


def section_architecture(base, problems) -> None:
    """Every field of the configuration, defaulting to the preset's values."""
    st.header("Change the architecture")
    st.markdown("Move any field to design your own model: everything above and below follows. "
                "Sizes first, then table sizes, kinds and switches (side by side on a wide screen).")
    said = {p.field: p.message for p in problems}
    left, right = st.columns(2, gap="large")
    for i, (attr, key) in enumerate(FIELDS.items()):
        # Each field in a box of its own: a note that comes or goes under one field moves no other control
        # (a moved control is remounted by the browser, and the slider a student is moving loses the focus).
        with left if i < 5 else right, st.container():
            raw = st.query_params.get(key)
            extra = {"on_change": _heads_moved, "args": (LINKS.value("heads", default=base.n_head),)} \
                if key == "heads" else {}
            v = LINKS.widget(key, default=getattr(base, attr), **extra)
            if LINKS[key].kind == "number" and raw is not None and key in st.query_params \
                    and raw != str(v):
                try:
                    fraction = float(raw) != v
                except ValueError:
                    fraction = False
                if fraction:  # Streamlit cuts ?pos=1.5 to 1 and rewrites the link without a word: say so
                    LINKS.ignored(key, raw, "not a whole number", v)
                    LINKS.show_note(key, v)
            if attr in said:
                st.caption(f":red[:material/error: **{LINKS[key].label}**: {said[attr]}.]")


def section_table(shown, v: ui.View) -> None:
    st.header("Where every number lives")
    facts = v.facts
    gpt_names = shown.mlp == "gelu"
    st.markdown(  # two paragraphs, one element (each element sent costs the server a wake-up)
        "Every row of the table, added up: " + facts["sum"] + "\n\n"
        "One row per weight group, named as in the checkpoint (the file of trained weights). Rows whose "
        "tensor has `{i}` in its name exist once in every block, so *all copies* is one copy times the "
        "number of blocks. The two shape columns are the same matrix stored two ways. The maths writes **y = xW** with W of shape "
        "(in × out), "
        + ("and GPT-2's checkpoint stores it that way (its layers are `Conv1D`). PyTorch's `nn.Linear` "
           "stores the transpose, (out × in), and computes x Wᵀ."
           if gpt_names else
           "as GPT-2's `Conv1D` layers store it. This checkpoint uses PyTorch's `nn.Linear`, which stores "
           "the transpose, (out × in), and computes x Wᵀ.")
    )
    ui.table_view(shown, v.table)
    if shown.tie_embeddings:
        st.caption(
            f":material/link: The output layer (lm_head) needs a {fmt.shape(facts['head_shape'])} matrix. "
            "With tied embeddings it is the token embedding table read the other way round, so it "
            "costs nothing: Hugging Face counts a shared tensor once.")


def section_facts(shown, v: ui.View) -> None:
    st.header("Two facts, checked")
    tot = v.totals
    n_linear = v.facts["n_linear"]
    share = tot.linear_share
    verdict = "more than two thirds" if share > 2 / 3 else "less than two thirds"
    linear = (
        f"**Linear layers dominate.** The {n_linear} linear layers of each block (attention and MLP), "
        f"{shown.n_layer} times over, hold **{fmt.count(tot.linear)}** parameters: **{fmt.pct(share)}** of the "
        f"model, {verdict}. With the blocks' norms ({fmt.count(tot.block_norms)}) they make up the "
        f"{fmt.count(tot.blocks)} in the blocks; the rest is mostly the embedding table."
    )
    two, one = v.collapse
    d, ff = fmt.count(shown.d_model), fmt.count(shown.d_ff)
    if shown.mlp == "gelu":
        bend = (
            f"**The bend is what the MLP's width buys.** Each block's MLP has two matrices, "
            f"{d} × {ff} and {ff} × {d}: **{fmt.count(two)}** weights. Without the GELU between them they "
            f"would multiply into one {d} × {d} matrix, **{fmt.count(one)}** weights, "
            f"{fmt.num(two / one, 1)} times fewer, and the {ff}-wide middle would add nothing (see *Bends* for the proof)."
        )
    else:
        bend = (
            f"**SwiGLU does not collapse.** This MLP has three matrices ({fmt.count(two)} weights per block). "
            "Take the SiLU away and the gate branch still *multiplies* the up branch: the product of two "
            "linear maps of x is quadratic in x, not linear, so unlike GPT-2's MLP it does not shrink to one "
            f"{d} × {d} matrix ({fmt.count(one)} weights)."
        )
    st.markdown(linear + "\n\n" + bend)  # two paragraphs, one element


def section_memory(shown, v: ui.View) -> None:
    st.subheader("Memory to hold the weights")
    tot = v.totals
    bf16_gb = v.memory.column("GB")[v.memory.column("dtype").to_pylist().index("bf16")].as_py()
    st.markdown(
        f"Each parameter is one stored number. In **bf16**, the usual format for running a model, "
        f"they take **{fmt.fixed(bf16_gb, 2)} GB**. Quantising to 8 or 4 bits shrinks them further, at "
        "some cost in accuracy. This is the weights alone: running the model also needs memory for "
        "activations and the attention cache, and training needs gradients and optimiser state on top."
    )
    ui.memory_view(tot.total, v.memory)


def section_presets(shown, v: ui.View) -> None:
    st.subheader("All models side by side")
    custom = v.custom
    st.markdown(
        "The same sums for every preset"
        + (", with *your model* (the configuration above) on top" if custom else "")
        + ". The bigger the model, the smaller the share of its embedding table: the vocabulary grows "
        "slowly while the blocks grow with d_model², times the number of blocks."
    )
    ui.presets_view(custom, v.presets)
    st.markdown("**Where each model's parameters live**, as shares of its own total. Hover a bar for the count.")
    charts.show(v.presets_figure, key="gpt2_presets", name="Where each model's parameters live: bars of "
                "shares of its own total, one per preset")


@st.fragment
def lesson() -> None:
    """Every section that follows the configuration, as one fragment: a field moved reruns it,
    not the code below it, which never changes."""
    preset, base, cfg, problems, shown = configuration()
    v = ui.view(shown)
    title = ui.name(shown, preset)
    st.title(f"{title[0].upper() + title[1:]}: where every parameter lives")
    room.intro("Each weight matrix, bias and norm of the model, by the name it has in the published "
                "checkpoint, counted exactly as Hugging Face counts them. Pick a model, or change its "
                "architecture below.")
    section_model(preset, base, cfg, problems, shown, v)
    section_architecture(base, problems)
    section_table(shown, v)
    section_facts(shown, v)
    st.header("Going further")
    section_memory(shown, v)
    section_presets(shown, v)


if __name__ == "__main__":
    lesson()
    show_source(weight_groups, param_table)

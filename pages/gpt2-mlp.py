"""GPT-2's MLP (feed-forward) block, step by step: widen, bend, narrow, and the same at full size."""

import numpy as np
import streamlit as st

import engine.preload  # noqa: F401  (first: every module imported once before any page runs)
from lib import answers, asks, ffn
from pages.gpt2_mlp import views as view
from ui import fmt, room, state, tables
from ui.source import show_source

N_TOK, D = ffn.SEED_X.shape                                    # 5 tokens, 3 features
D_FF = ffn.SEED_W1.shape[1]                                    # 6 hidden units
G = ffn.GPT2                                                   # GPT-2 small's configuration
TOKENS = tuple(f"t{i + 1}" for i in range(N_TOK))
FEATURES = tuple(f"d{j + 1}" for j in range(D))
HIDDEN = tuple(f"h{j + 1}" for j in range(D_FF))
LABELS = {"x": TOKENS, "pre": HIDDEN, "post": HIDDEN, "out": FEATURES}
SHAPES = {"pre": (N_TOK, D_FF), "post": (N_TOK, D_FF), "out": (N_TOK, D)}
TITLES = {"pre": f"z, before GELU ({fmt.shape(SHAPES['pre'])})", "post": f"GELU(z) ({fmt.shape(SHAPES['post'])})",
          "out": f"y, the output ({fmt.shape(SHAPES['out'])})"}


def _hand_table(shape):
    """A pasted hand-worked table: blank is no table; otherwise a table of `shape` (ValueError why)."""
    def parse(text: str):
        if not str(text).strip():
            return None
        M = ffn.parse_table(text)                              # (rows, cols)
        if M.shape != tuple(shape):
            raise ValueError(f"expected {fmt.shape(shape)} numbers, got {fmt.shape(M.shape)}")
        return M
    return parse


def _hand_text(M) -> str:
    return "" if M is None else ffn.format_table(M)


LINKS = state.Links(
    state.select("act", ffn.GELUS, "gelu", "GELU", "Exact: x·Φ(x), with erf. Tanh approximation: the "
                 "formula GPT-2's own code uses.", names={"gelu": "exact (erf)", "gelu_tanh": "tanh approximation"},
                 meaning="Which GELU bends the hidden layer"),
    state.toggle("bias", False, "Add biases b₁, b₂", "GPT-2's MLP has biases; the worked example has none.",
                 meaning="Show and use the biases b₁, b₂"),
    state.matrix("x", ffn.SEED_X, "x", "One row per token (GPT-2 feeds the block its LayerNorm output).",
                 meaning="The tokens going in (5 × 3)", values="rows split by `;`, numbers by `,` (seed 004's)"),
    state.matrix("w1", ffn.SEED_W1, "W₁", "Column j holds hidden unit j's weights.",
                 meaning="W₁, widening (3 × 6)", values="as `x`"),
    state.matrix("b1", np.zeros(D_FF), "b₁", "One bias per hidden unit.", meaning="b₁ (6 numbers)",
                 values="numbers split by `,` (zeros)"),
    state.matrix("w2", ffn.SEED_W2, "W₂", "Column k holds output feature k's weights.",
                 meaning="W₂, narrowing (6 × 3)", values="as `x`"),
    state.matrix("b2", np.zeros(D), "b₂", "One bias per output feature.", meaning="b₂ (3 numbers)",
                 values="numbers split by `,` (zeros)"),
    state.select("tok", range(1, N_TOK + 1), 1, "Token to follow",
                 "The token whose arithmetic and path this section spells out.", meaning="The token followed"),
    state.toggle("check", False, "Check tables I worked out by hand",
                 "Paste your z, GELU and y tables and see which cells differ from the computed ones.",
                 meaning="Open the checker"),
    state.number("tol", 0.0, 1.0, 0.001, 0.0005, "Tolerance",
                 "Largest difference still counted right; 0.001 allows rounding to 3 decimals.",
                 number_format="%.4f", meaning="The checker's tolerance"),
    *[state.text(name, None, TITLES[name], f"Your {TITLES[name]} table, one row per token.",
                 parse=_hand_table(SHAPES[name]), fmt=_hand_text, group="`pre`, `post`, `out`",
                 meaning="Hand-worked tables to check: z, GELU(z), y",
                 values="a Python list `[[0.772, -1.46, ...], ...]` or rows of numbers (none)")
      for name in ffn.TABLES],
    state.number("seed", 0, 9999, 0, 1, "Random seed",
                 "Which random weights and tokens; the same seed gives the same numbers.",
                 meaning="The full-size block's random weights and tokens"),
    state.select("init", ffn.INITS, "gpt2", "How large the random weights are",
                 "GPT-2's: standard deviation 0.02, as at GPT-2's initialisation. 1/√inputs: keeps z about "
                 "as large as x.", names={"gpt2": "GPT-2's (standard deviation 0.02)",
                                          "fan_in": "1/√inputs (fan-in)"},
                 meaning="The random weights' scale"),
    state.slider("near", 0.01, 0.45, 0.10, 0.01, "Counts as near zero when GELU keeps under",
                 "A hidden value counts as pushed near zero when |GELU(z)| is under this share of |z|.",
                 number_format="percent", meaning="The share of z under which GELU(z) counts as near zero"),
    state.slider("poke", 1, ffn.REAL_TOKENS, 3, 1, "Token to change",
                 "Give this token a fresh random row and see which output rows move.",
                 meaning="The full-size token given a fresh row"),
)
MATRICES = ("x", "w1", "b1", "w2", "b2")
ASKS = asks.declare(  # what a lesson can ask about this page (lib/asks.py)
    asks.Ask("on", f"How many of the {N_TOK * D_FF} hidden values z are on (z > 0)?", "number", answers.mlp_on),
    asks.Ask("output", "What is output d{feature} of the token followed, y = GELU(x W₁) W₂?", "number",
             answers.mlp_output, tolerance=0.01, params=(asks.Param("feature", "output feature", 1, 1, D),)),
    asks.Ask("widen", "How many times as many numbers does GPT-2's hidden layer hold per token as goes in?",
             "number", answers.mlp_widen, tolerance=0.1),
    asks.Ask("near", "What share of the full-size block's hidden values does GELU push near zero?", "number",
             answers.mlp_near_zero, unit="%", tolerance=5.0),
)


def _reset_all():
    for k in MATRICES:
        LINKS.forget(k)


def _p(v: float) -> str:
    """A factor in a written-out sum, as typed; negatives in brackets, with a true minus."""
    s = fmt.num(v, 6)
    return f"({s})" if v < 0 else s


def _matrix(M, rows, cols, caption: str) -> None:
    """A computed matrix with its name and shape above it (a plotly title would sit on the labels)."""
    st.markdown(f"**{caption}** · shape {fmt.shape(M.shape)}")
    view.show(view.matrix_figure(M, tuple(rows), tuple(cols)), name=f"{caption}: a matrix of cells, shape "
              f"{fmt.shape(M.shape)}")


def section_controls() -> tuple[str, bool]:
    """What changes every step below: the GELU, the biases, and a way back to the example."""
    c1, c2, c3 = st.columns([2, 2, 2], vertical_alignment="bottom")
    with c1:
        act = LINKS.widget("act")
    with c2:
        use_bias = LINKS.widget("bias")
    with c3:
        st.button("Reset matrices", on_click=_reset_all, icon=":material/restart_alt:", width="stretch",
                  help="Back to the worked example's numbers.")
    return act, use_bias


def section_block(act: str, use_bias: bool):
    """Widen, bend, narrow: the editors in each step and every result computed from all of them."""
    plus1, plus2 = (" + b₁", " + b₂") if use_bias else ("", "")
    # Each result needs every matrix: draw the editors, keep a slot for each result, fill them last.
    st.header(f"1. Widen: z = x W₁{plus1}")
    st.markdown(f"Each token's {D} numbers become {D_FF}: hidden unit j adds up the token's features "
                "weighted by column j of W₁.")
    a, b = st.columns([2, 3])
    with a:
        x = LINKS.widget("x", row_labels=TOKENS, col_labels=FEATURES)
    with b:
        W1 = LINKS.widget("w1", row_labels=FEATURES, col_labels=HIDDEN, number_format="%.1f")
        b1 = LINKS.widget("b1", row_labels=["b₁"], col_labels=HIDDEN, number_format="%.1f") if use_bias else None
    slot_pre = st.container()

    st.header("2. Bend: h = GELU(z)")
    st.markdown("GELU goes over every hidden number on its own. A positive z passes almost "
                "unchanged; a negative z is squashed towards zero, and a very negative one to "
                "nearly nothing. A unit whose z is positive is **on** for this token.")
    st.latex(ffn.gelu_act(act).latex)
    slot_post, slot_curve = st.columns([1, 1])

    st.header(f"3. Narrow: y = h W₂{plus2}")
    st.markdown(f"From {D_FF} numbers back to {D}: each output feature adds up the bent hidden units "
                "weighted by a column of W₂. This y is added to the token's residual stream (the token's running "
                "vector of numbers, which every block reads and adds its result to).")
    a, slot_out = st.columns([2, 3])
    with a:
        W2 = LINKS.widget("w2", row_labels=HIDDEN, col_labels=FEATURES, number_format="%.1f")
        b2 = LINKS.widget("b2", row_labels=["b₂"], col_labels=FEATURES, number_format="%.1f") if use_bias else None

    steps = ffn.ffn(x, W1, W2, b1, b2, act)   # pre, post (5, 6); out (5, 3)
    finite = all(np.isfinite(getattr(steps, k)).all() for k in ffn.TABLES)
    if not finite:
        st.warning("Some results overflow (they pass 1.8 × 10³⁰⁸, the largest number the computer "
                   "holds): make the matrices' entries smaller.", icon=":material/warning:")
    with slot_pre:
        _matrix(steps.pre, TOKENS, HIDDEN, f"z = x W₁{plus1}, before GELU")
    with slot_post:
        _matrix(steps.post, TOKENS, HIDDEN, "h = GELU(z)")
        on = ffn.units_on(steps.pre)
        st.markdown(f"{int(on.sum())} of {on.size} hidden values are on (z > 0); "
                    f"the other {on.size - int(on.sum())} are squashed towards zero.")
    with slot_curve:
        st.markdown("**Every z of the table on the GELU curve**: on (z > 0) filled ink, off hollow grey")
        view.show(view.bend_figure(steps.pre, steps.post, act))
    with slot_out:
        _matrix(steps.out, TOKENS, FEATURES, f"y = h W₂{plus2}, the block's output")
    st.caption(f"Shapes: x {fmt.shape(steps.x.shape)} · W₁ {fmt.shape(W1.shape)} → z {fmt.shape(steps.pre.shape)} "
               f"→ GELU → h {fmt.shape(steps.post.shape)} · W₂ {fmt.shape(W2.shape)} → y {fmt.shape(steps.out.shape)}.")
    show_source(ffn.ffn)
    return steps, finite, (x, W1, W2, b1, b2)


def section_glance(steps, W1, W2) -> None:
    """The block at a glance, before its tables: widen, bend, narrow as one picture of the first token
    (its own section below follows any token)."""
    i = 0
    left, right = st.columns([3, 2], vertical_alignment="center")
    with left:
        view.show(view.block_figure(steps.x[i], W1, steps.post[i], W2, steps.out[i], tuple(FEATURES),
                                    tuple(HIDDEN)), name="The MLP block at a glance: the first token widened, "
                  "bent by GELU and narrowed back, as a network diagram")
    with right:
        on = ffn.units_on(steps.pre[i])
        st.markdown(
            f"**Token {i + 1}, through the block.** Its {D} numbers on the left fan out to {D_FF} hidden units "
            f"(**widen**, one line per weight of W₁: blue positive, vermillion negative). Each hidden circle "
            f"shows its value after GELU (**bend**): {int(on.sum())} of {D_FF} are on. Then {D_FF} lines per "
            f"output come back to {D} (**narrow**, W₂): y = "
            f"({', '.join(fmt.fixed(v, 2) for v in steps.out[i])}), on the right.")
        st.caption("The tables below are every number of this picture, for all the tokens; edit any of them.")


@st.fragment
def section_token(steps, W1, b1, act: str) -> None:
    """One token's path, with the picker beside it: only this section reruns when it moves."""
    st.header("One token's path")
    pick, words = st.columns([1, 3], vertical_alignment="bottom")
    with pick:
        tok = LINKS.widget("tok")
    i = tok - 1
    with words:
        st.markdown(f"Token {tok} on its own: its {D_FF} hidden values before and after the bend. "
                    "The other tokens never touch it.")
    terms = " + ".join(f"{_p(v)} × {_p(w)}" for v, w in zip(steps.x[i], W1[:, 0], strict=True))
    bias = f" + {_p(b1[0])}" if b1 is not None else ""
    st.markdown(f"**One cell by hand**: token {tok}, unit h1 is row {tok} of x times column 1 of W₁: "
                f"{terms}{bias} = **{fmt.fixed(steps.pre[i, 0], 3)}**. The other {steps.pre.size - 1} cells "
                "of z are the same sum with another row of x or another column of W₁.")
    gate = ffn.gate(steps.pre[i], act)                          # (6,)
    on_i = ffn.units_on(steps.pre[i])                           # (6,)
    left, right = st.columns([3, 2])
    with left:
        view.show(view.path_figure(steps.pre[i], steps.post[i], HIDDEN), live=True)
    with right:
        table = {"unit": HIDDEN, "z": steps.pre[i], "kept": np.round(100 * gate, 1) + 0.0,  # percent, 1 decimal
                 "GELU(z)": steps.post[i], "on": ["on" if o else "off" for o in on_i]}
        tables.signed(table, fixed_digits=True, only=["z", "GELU(z)"], width="stretch",
                      caption="Each hidden unit on the path: its sum z, the share GELU keeps, GELU(z), on or off",
                      column_config={   # fits 2/5 of 1366 px and a phone
            "unit": st.column_config.TextColumn("unit", width=45),
            "on": st.column_config.TextColumn("on", width=40),
            "z": st.column_config.Column("z", help="before GELU"),
            "kept": st.column_config.ProgressColumn("share kept", min_value=0.0, max_value=100.0,
                                                    format="%.1f %%", help="GELU(z) / z"),
            "GELU(z)": st.column_config.Column("GELU(z)"),
        })
    names = ", ".join(h for h, o in zip(HIDDEN, on_i, strict=True) if o) or "none"
    st.markdown(
        f"Token {tok} goes in as ({', '.join(fmt.fixed(v, 2) for v in steps.x[i])}) and comes out as "
        f"({', '.join(fmt.fixed(v, 3) for v in steps.out[i])}). Units on: **{names}**. "
        "GELU keeps the share Φ(z) of each z: more than half when z > 0, less when z < 0, "
        "so the units that are off hardly reach W₂."
    )


def _prefill():
    for name in ffn.TABLES:
        LINKS.set(name, ffn.SEED_HAND[name])


def _clear():
    for name in ffn.TABLES:
        st.session_state[name] = ""


@st.fragment
def section_check(inputs, finite: bool, act: str) -> None:
    """Seed 004's checker: paste hand-worked tables, see the slips cell by cell."""
    st.header("Check a worked example")
    if not LINKS.widget("check"):
        return
    x, W1, W2, b1, b2 = inputs
    st.markdown(
        "Paste a table as a Python list, `[[0.772, -1.460, ...], ...]`, or as plain rows of "
        "numbers. Each is compared with the table computed from the matrices above. A cell is "
        "**wrong** when it is off by more than the tolerance: wine if the slip happened in that "
        "step (redoing the step on your own previous table gives a different number too), "
        "sand if it only carries a slip from an earlier table. Under a wrong cell: the computed value."
    )
    a, b, c = st.columns([2, 2, 2], vertical_alignment="bottom")
    with a:
        tol = LINKS.widget("tol")
    with b:
        st.button("Load the seed's hand-worked tables", on_click=_prefill, icon=":material/content_paste:",
                  width="stretch", help="The tables printed in the worked example, slips and all.")
    with c:
        st.button("Clear the tables", on_click=_clear, icon=":material/backspace:", width="stretch",
                  help="Empty all three text boxes.")
    hand, slots = {}, {}
    for name in ffn.TABLES:
        a, slots[name] = st.columns([2, 3])
        with a:
            text = st.text_area(TITLES[name], key=name, bind="query-params", help=LINKS[name].help, height=170,
                                placeholder="[[0.772, -1.460, ...],\n [-0.644, 1.219, ...], ...]\n"
                                            "or plain rows of numbers")
            hand[name], why = LINKS.accept(name, text or "")
            if why is not None:
                tail = "; still checking the last good table." if hand[name] is not None else "."
                st.error(f"{TITLES[name]}: {why}{tail}", icon=":material/error:")
    # Overflowing results cannot be compared (NaN differences would pass as right).
    checks = ffn.check_steps(hand, x, W1, W2, b1, b2, act, tol) if finite else {}
    for name in ffn.TABLES:
        with slots[name]:
            if name not in checks:
                st.caption("Paste a table to check it against the computed one.")
                continue
            ck = checks[name]
            if ck.n_wrong == 0:
                st.success(f"All {ck.wrong.size} cells within {fmt.num(tol, 4)}.", icon=":material/check_circle:")
            else:
                worst, r, k = ck.worst
                st.warning(f"{ck.n_wrong} of {ck.wrong.size} cells off by more than {fmt.num(tol, 4)} "
                           f"({ck.n_slips} new in this step); the largest, {fmt.num(worst, 4)}, at "
                           f"{TOKENS[r]}, {LABELS[name][k]}.", icon=":material/rule:")
            view.show(view.check_figure(ck, TOKENS, LABELS[name]), name="Your cells against the computed ones: "
                      "a grid of right and wrong cells")


@st.fragment
def section_real_size(act: str) -> None:
    """The same block at GPT-2 small's size; its seed and weight scale change only this section."""
    st.header(f"The real size: {fmt.count(G.d_model)} → {fmt.count(G.d_ff)} → {fmt.count(G.d_model)}")
    st.markdown(
        f"GPT-2 small runs the same block with {fmt.count(G.d_model)} features and {fmt.count(G.d_ff)} hidden "
        f"units, in each of its {G.n_layer} layers. Here with random weights, scaled as at GPT-2's "
        "initialisation, and a few random tokens scaled like LayerNorm's output."
    )
    a, b = st.columns(2)
    with a:
        seed = int(LINKS.widget("seed"))
    with b:
        init = LINKS.widget("init")
    bend = view.real_bend(seed, init, act, 0.10)
    sh = bend["shapes"]
    left, right = st.columns([1, 1])
    with left:
        rows = [("x, the tokens", sh["x"]), ("W₁ (c_fc)", bend["W1"]), ("z = x W₁", sh["pre"]),
                ("h = GELU(z)", sh["post"]), ("W₂ (c_proj)", bend["W2"]), ("y = h W₂", sh["out"])]
        st.markdown("| array | shape |\n|---|---|\n" + "\n".join(f"| {n} | {fmt.shape(s)} |" for n, s in rows))
    with right:
        st.markdown(
            f"Each of the {sh['x'][0]} tokens is widened from {fmt.count(sh['x'][1])} numbers to "
            f"{fmt.count(sh['pre'][1])} ({fmt.num(sh['pre'][1] / sh['x'][1])} times as many), bent, and "
            f"narrowed back to {fmt.count(sh['out'][1])}. The names in brackets are the weights' names in "
            "GPT-2's checkpoint; there each matrix also has a bias, zero at initialisation, so left out here."
        )
    part_near_zero(seed, init, act)
    part_tokens(seed, init, act)
    part_collapse(seed, init, act)


@st.fragment
def part_near_zero(seed: int, init: str, act: str) -> None:
    head = st.empty()   # the heading says what is measured, so it is written once the numbers are in
    ratio = float(LINKS.widget("near"))
    bend = view.real_bend(seed, init, act, ratio)
    head.subheader(f"GELU shrinks {fmt.pct(bend['neg_share'])} of the hidden values and pushes "
                   f"{fmt.pct(bend['near_share'])} near zero")
    sh = bend["shapes"]
    m1, m2, m3 = st.columns(3)
    m1.metric("Pushed near zero", fmt.pct(bend["near_share"]),
              help=f"|GELU(z)| under {fmt.pct(ratio, 0)} of |z|, that is z below {fmt.fixed(bend['cutoff'], 2)}")
    m2.metric("Negative before GELU", fmt.pct(bend["neg_share"]), help="z < 0: GELU shrinks these")
    m3.metric("Spread of z", fmt.fixed(bend["pre_std"], 3), help="standard deviation of the hidden values")
    view.show(view.histogram_figure(bend["edges"], bend["counts"], bend["near_counts"], bend["cutoff"], ratio),
              live=True)
    st.markdown(
        f"All {fmt.count(sh['pre'][0] * sh['pre'][1])} hidden values of the {sh['pre'][0]} tokens: ink bars "
        f"kept (mostly), grey bars pushed near zero, where |GELU(z)| is under {fmt.pct(ratio, 0)} of |z|, "
        f"left of the dashed line at z = {fmt.fixed(bend['cutoff'], 2)}. The larger the spread of z, the more "
        "units a token switches firmly off: try the 1/√inputs weight scale.")


@st.fragment
def part_tokens(seed: int, init: str, act: str) -> None:
    st.subheader("Every token goes through on its own")
    poke = int(LINKS.widget("poke"))
    changes = view.real_changes(seed, init, poke - 1, act)
    others = np.delete(changes, poke - 1)
    view.show(view.change_figure(changes, poke - 1), live=True)
    st.markdown(
        f"Token {poke} (the coloured bar) got a fresh input row: its output row moved by up to "
        f"**{fmt.num(changes[poke - 1])}**, every other output row by **{fmt.num(float(others.max()))}**. "
        "The MLP never mixes tokens; that is attention's job."
    )


def part_collapse(seed: int, init: str, act: str) -> None:
    st.subheader(f"Without the GELU, the block is one {fmt.shape((G.d_model, G.d_model))} matrix")
    col = view.real_collapse(seed, init, act)
    m1, m2 = st.columns(2)
    m1.metric("Weights in W₁ and W₂", fmt.count(col["two_params"]))
    m2.metric(f"Weights in W₁W₂ ({fmt.shape(col['W_shape'])})", fmt.count(col["one_params"]))
    m3, m4 = st.columns(2)
    gap, _, rounding = fmt.gap(col["linear_gap"]).partition(", ")  # "3.6 × 10⁻¹⁵", "below rounding error"
    m3.metric("Largest gap, no GELU", gap, rounding or None, delta_color="off", delta_arrow="off",
              help="max |(x W₁) W₂ − x (W₁W₂)| over all outputs: rounding error only")
    m4.metric("Largest gap, with GELU", fmt.num(col["gelu_gap"]),
              help="max |GELU(x W₁) W₂ − x (W₁W₂)|: what the bend changes")
    st.markdown(
        "Without the bend the two matrices give the same outputs as the single matrix W₁W₂, up to "
        f"rounding, and W₁W₂ has {fmt.pct(col['one_params'] / col['two_params'])} as many weights. With GELU "
        f"the outputs part ways with it: the bend is what the {fmt.count(G.d_ff)} hidden units are for."
    )
    show_source(ffn.collapse_gap)


if __name__ == "__main__":
    st.title("GPT-2's MLP block, step by step")
    room.intro(
        "After attention has let the tokens exchange information, every GPT-2 block sends each "
        "token on its own through a small two-layer network, the **MLP** (or *feed-forward*) block: "
        "**widen** with W₁, **bend** every number with GELU, **narrow** back with W₂. Below, "
        f"{N_TOK} tokens of {D} features each go through a block with {D_FF} hidden units. Every "
        "matrix is editable, and every number after it is computed live from them."
    )
    act, use_bias = section_controls()
    glance = st.container()   # filled once the block is computed from the editors below
    steps, finite, inputs = section_block(act, use_bias)
    if finite:   # an overflow is said once, under the editors
        with glance:
            section_glance(steps, inputs[1], inputs[2])
    section_token(steps, inputs[1], inputs[3], act)
    section_check(inputs, finite, act)
    section_real_size(act)

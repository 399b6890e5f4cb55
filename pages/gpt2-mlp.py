"""GPT-2's MLP (feed-forward) block, step by step: widen, bend, narrow, and the same at full size."""

import numpy as np
import pandas as pd
import streamlit as st

from lib import ffn
from ui import charts, ffn_view
from ui.links import bound
from ui.matrix import matrix_input, reset_matrix
from ui.source import show_source

N_TOK, D = ffn.SEED_X.shape                                    # 5 tokens, 3 features
D_FF = ffn.SEED_W1.shape[1]                                    # 6 hidden units

st.title("GPT-2's MLP block, step by step")
st.markdown(
    "After attention has let the tokens exchange information, every GPT-2 block sends each "
    "token on its own through a small two-layer network, the **MLP** (or *feed-forward*) block: "
    "**widen** with W₁, **bend** every number with GELU, **narrow** back with W₂. Below, "
    f"{N_TOK} tokens of {D} features each go through a block with {D_FF} hidden units. Every "
    "matrix is editable, and every number after it is computed live from them."
)

TOKENS = [f"t{i + 1}" for i in range(N_TOK)]
FEATURES = [f"d{j + 1}" for j in range(D)]
HIDDEN = [f"h{j + 1}" for j in range(D_FF)]
LABELS = {"x": TOKENS, "pre": HIDDEN, "post": HIDDEN, "out": FEATURES}


def _reset_all():
    for k in ("x", "w1", "b1", "w2", "b2"):
        reset_matrix(k)


def _shape(M) -> str:
    return f"{M.shape[0]} × {M.shape[1]}"


def _p(v: float) -> str:
    """A factor in a written-out sum, as typed (no rounding); negatives in brackets, true minus."""
    s = f"{abs(v):.6g}"
    return f"(−{s})" if v < 0 else s


def _matrix(M, rows, cols, caption: str) -> None:
    """A computed matrix with its name and shape above it (a plotly title would sit on the labels)."""
    st.markdown(f"**{caption}** · shape {_shape(M)}")
    fig = charts.matrix_figure(M, row_labels=rows, col_labels=cols, fmt=".3f")
    fig.update_traces(textfont=dict(size=13))
    charts.show(fig)


c1, c2, c3, c4 = st.columns([2, 2, 2, 2], vertical_alignment="bottom")
with c1:
    act_name = bound(st.selectbox, "GELU", list(ffn.GELUS), key="act",
                     help="gelu: the exact x·Φ(x), with erf; gelu_tanh: the tanh formula GPT-2's own code uses.")
with c2:
    tok = bound(st.selectbox, "Follow token", list(range(1, N_TOK + 1)), key="tok",
                help="The token whose arithmetic and path are spelled out below.")
with c3:
    use_bias = bound(st.toggle, "Add biases b₁, b₂", False, key="bias",
                     help="GPT-2's MLP has biases; the worked example has none (all zero).")
with c4:
    st.button("Reset matrices", on_click=_reset_all, icon=":material/restart_alt:", width="stretch",
              help="Back to the worked example's numbers.")
act = ffn.gelu_act(act_name)
i = tok - 1

# The editors come first in each step and the results after them, but every result needs
# all the matrices: draw the editors, keep a slot for each result, fill the slots at the end.
st.header("1. Widen: z = x W₁" + (" + b₁" if use_bias else ""))
st.markdown(f"Each token's {D} numbers become {D_FF}: hidden unit j adds up the token's features "
            "weighted by column j of W₁.")
a, b = st.columns([2, 3])
with a:
    x = matrix_input("x", ffn.SEED_X, key="x", row_labels=TOKENS, col_labels=FEATURES,
                     help="one row per token (GPT-2 feeds the block its LayerNorm output)")
with b:
    W1 = matrix_input("W₁", ffn.SEED_W1, key="w1", row_labels=FEATURES, col_labels=HIDDEN, fmt="%.1f",
                      help="column j holds hidden unit j's weights")
    b1 = (matrix_input("b₁", np.zeros(D_FF), key="b1", row_labels=["b₁"], col_labels=HIDDEN, fmt="%.1f",
                       help="one bias per hidden unit") if use_bias else None)
slot_pre, slot_sum = st.columns([3, 2])

st.header("2. Bend: h = GELU(z)")
st.markdown("GELU goes over every hidden number on its own. A positive z passes almost "
            "unchanged; a negative z is squashed towards zero, and a very negative one to "
            "nearly nothing. A unit whose z is positive is **on** for this token.")
st.latex(act.latex)
slot_post, slot_curve = st.columns([1, 1])

st.header("3. Narrow: y = h W₂" + (" + b₂" if use_bias else ""))
st.markdown(f"From {D_FF} numbers back to {D}: each output feature adds up the bent hidden units "
            "weighted by a column of W₂. This y is added to the token's residual stream.")
a, slot_out = st.columns([2, 3])
with a:
    W2 = matrix_input("W₂", ffn.SEED_W2, key="w2", row_labels=HIDDEN, col_labels=FEATURES, fmt="%.1f",
                      help="column k holds output feature k's weights")
    b2 = (matrix_input("b₂", np.zeros(D), key="b2", row_labels=["b₂"], col_labels=FEATURES, fmt="%.1f",
                       help="one bias per output feature") if use_bias else None)

steps = ffn.ffn(x, W1, W2, b1, b2, act_name)   # pre, post (5, 6); out (5, 3)
finite = all(np.isfinite(getattr(steps, k)).all() for k in ffn.TABLES)
if not finite:
    st.warning("Some results overflow (they pass 1.8 × 10³⁰⁸, the largest number the computer "
               "holds): make the matrices' entries smaller.", icon=":material/warning:")
with slot_pre:
    _matrix(steps.pre, TOKENS, HIDDEN, "z = x W₁" + (" + b₁" if use_bias else "") + ", before GELU")
with slot_sum:
    terms = " + ".join(f"{_p(v)} × {_p(w)}" for v, w in zip(x[i], W1[:, 0], strict=True))
    bias = f" + {_p(b1[0])}" if use_bias else ""
    st.markdown(f"**One cell by hand**: token {tok}, unit h1 is row {tok} of x times column 1 of W₁:")
    st.markdown(f"{terms}{bias} = **{steps.pre[i, 0]:.3f}**")
    st.caption(f"The other {steps.pre.size - 1} cells are the same sum with another row of x or "
               "another column of W₁.")
with slot_post:
    _matrix(steps.post, TOKENS, HIDDEN, "h = GELU(z)")
    on = ffn.units_on(steps.pre)
    st.caption(f"{int(on.sum())} of {on.size} hidden values are on (z > 0); "
               f"the other {on.size - int(on.sum())} are squashed towards zero.")
with slot_curve:
    st.markdown(f"**Every z of the table on the GELU curve**, token {tok} ringed")
    charts.show(ffn_view.bend_figure(steps.pre, steps.post, act_name, i))
with slot_out:
    _matrix(steps.out, TOKENS, FEATURES, "y = h W₂" + (" + b₂" if use_bias else "") + ", the block's output")
st.caption(f"Shapes: x {_shape(steps.x)} · W₁ {_shape(W1)} → z {_shape(steps.pre)} → GELU → "
           f"h {_shape(steps.post)} · W₂ {_shape(W2)} → y {_shape(steps.out)}.")
show_source(ffn.ffn)

# --- One token's path ------------------------------------------------------------------------
st.header("One token's path")
st.markdown(f"Token {tok} (pick another under *Follow token* at the top) on its own: its {D_FF} "
            "hidden values before and after the bend. The other tokens never touch it.")
gate = ffn.gate(steps.pre[i], act_name)                      # (6,)
on_i = ffn.units_on(steps.pre[i])                            # (6,)
left, right = st.columns([3, 2])
with left:
    charts.show(ffn_view.path_figure(steps.pre[i], steps.post[i], HIDDEN))
with right:
    table = pd.DataFrame({
        "unit": HIDDEN, "z": steps.pre[i], "kept": gate, "GELU(z)": steps.post[i],
        "on": ["on" if o else "off" for o in on_i],
    })
    st.dataframe(table, hide_index=True, width="stretch", column_config={
        "z": st.column_config.NumberColumn("z", format="%.3f", help="before GELU"),
        "kept": st.column_config.ProgressColumn("share kept", min_value=0.0, max_value=1.0,
                                                format="percent", help="GELU(z) / z"),
        "GELU(z)": st.column_config.NumberColumn("GELU(z)", format="%.3f"),
    })
names = ", ".join(h for h, o in zip(HIDDEN, on_i, strict=True) if o) or "none"
st.markdown(
    f"Token {tok} goes in as ({', '.join(f'{v:.2f}' for v in steps.x[i])}) and comes out as "
    f"({', '.join(f'{v:.3f}' for v in steps.out[i])}). Units on: **{names}**. "
    "GELU keeps the share Φ(z) of each z: more than half when z > 0, less when z < 0, "
    "so the units that are off hardly reach W₂."
)

# --- Check a worked example ----------------------------------------------------------------
st.header("Check a worked example")
checking = bound(st.toggle, "Check tables I worked out by hand", False, key="check",
                 help="Paste your z, GELU and y tables and see which cells differ from the computed ones.")
if checking:
    def _prefill():
        for name in ffn.TABLES:
            st.session_state[name] = ffn_view.format_table(ffn.SEED_HAND[name])

    def _clear():
        for name in ffn.TABLES:
            st.session_state[name] = ""

    st.markdown(
        "Paste a table as a Python list, `[[0.772, -1.460, ...], ...]`, or as plain rows of "
        "numbers. Each is compared with the table computed from the matrices above. A cell is "
        "**wrong** when it is off by more than the tolerance: red if the slip happened in that "
        "step (redoing the step on your own previous table gives a different number too), "
        "amber if it only carries a slip from an earlier table. Under a wrong cell: the computed value."
    )
    a, b, c = st.columns([2, 2, 2], vertical_alignment="bottom")
    with a:
        tol = bound(st.number_input, "Tolerance", 0.0, 1.0, 0.001, 0.0005, key="tol", format="%.4f",
                    help="Largest difference still counted right; 0.001 allows rounding to 3 decimals.")
    with b:
        st.button("Load the seed's hand-worked tables", on_click=_prefill, icon=":material/content_paste:",
                  width="stretch", help="The tables printed in the worked example, slips and all.")
    with c:
        st.button("Clear the tables", on_click=_clear, icon=":material/backspace:", width="stretch",
                  help="Empty all three text boxes.")
    titles = {"pre": f"z, before GELU ({_shape(steps.pre)})", "post": f"GELU(z) ({_shape(steps.post)})",
              "out": f"y, the output ({_shape(steps.out)})"}
    hand, slots = {}, {}
    for name in ffn.TABLES:
        a, slots[name] = st.columns([2, 3])
        with a:
            hand[name] = ffn_view.table_input(titles[name], name, getattr(steps, name).shape,
                                              help=f"Your {titles[name]} table, one row per token.")
    # Overflowing results cannot be compared (NaN differences would pass as right).
    checks = ffn.check_steps(hand, x, W1, W2, b1, b2, act_name, tol) if finite else {}
    for name in ffn.TABLES:
        with slots[name]:
            if name not in checks:
                st.caption("Paste a table to check it against the computed one.")
                continue
            ck = checks[name]
            if ck.n_wrong == 0:
                st.success(f"All {ck.wrong.size} cells within {tol:g}.", icon=":material/check_circle:")
            else:
                worst, r, k = ck.worst
                st.warning(f"{ck.n_wrong} of {ck.wrong.size} cells off by more than {tol:g} "
                         f"({ck.n_slips} new in this step); the largest, {worst:.4g}, at "
                         f"{TOKENS[r]}, {LABELS[name][k]}.", icon=":material/rule:")
            charts.show(ffn_view.check_figure(ck, TOKENS, LABELS[name]))

# --- The real size ---------------------------------------------------------------------------
G = ffn.GPT2  # GPT-2 small's configuration
st.header(f"The real size: {G.d_model:,} → {G.d_ff:,} → {G.d_model:,}")
st.markdown(
    f"GPT-2 small runs the same block with {G.d_model:,} features and {G.d_ff:,} hidden units, in "
    f"each of its {G.n_layer} layers. Here with random weights, scaled as at GPT-2's initialisation, and a few "
    "random tokens scaled like LayerNorm's output."
)
a, b, c, d = st.columns(4)
with a:
    seed = bound(st.number_input, "Random seed", 0, 9999, 0, 1, key="seed",
                 help="Which random weights and tokens; the same seed gives the same numbers.")
with b:
    init = bound(st.selectbox, "Weight scale", list(ffn.INITS), key="init",
                 help="gpt2: standard deviation 0.02, as GPT-2; fan_in: 1/√(inputs), which keeps z about as large as x.")
with c:
    poke = bound(st.slider, "Token to change", 1, ffn_view.REAL_TOKENS, 3, 1, key="poke",
                 help="Give this token a fresh random row and see which output rows move.")
with d:
    ratio = bound(st.slider, "Near zero: GELU keeps less than", 0.01, 0.45, 0.10, 0.01, key="near",
                  help="A hidden value counts as pushed near zero when |GELU(z)| < this share of |z|.")

bend = ffn_view.real_bend(int(seed), init, act_name, float(ratio))
sh = bend["shapes"]

left, right = st.columns([1, 1])
with left:
    rows = [("x, the tokens", sh["x"]), ("W₁ (c_fc)", bend["W1"]), ("z = x W₁", sh["pre"]),
            ("h = GELU(z)", sh["post"]), ("W₂ (c_proj)", bend["W2"]), ("y = h W₂", sh["out"])]
    st.markdown("| array | shape |\n|---|---|\n" + "\n".join(
        f"| {name} | {r:,} × {c:,} |" for name, (r, c) in rows))
with right:
    st.markdown(
        f"Each of the {sh['x'][0]} tokens is widened from {sh['x'][1]:,} numbers to "
        f"{sh['pre'][1]:,} ({sh['pre'][1] / sh['x'][1]:g} times as many), bent, and narrowed "
        f"back to {sh['out'][1]:,}. The names in brackets are the weights' names in GPT-2's "
        "checkpoint; there each matrix also has a bias, zero at initialisation, so left out here."
    )

st.subheader("GELU pushes part of the hidden layer near zero")
m1, m2, m3 = st.columns(3)
m1.metric("Pushed near zero", f"{bend['near_share']:.1%}",
          help=f"|GELU(z)| < {ratio:.2f}·|z|, that is z below {bend['cutoff']:.2f}")
m2.metric("Negative before GELU", f"{bend['neg_share']:.1%}", help="z < 0: GELU shrinks these")
m3.metric("Spread of z", f"{bend['pre_std']:.3f}", help="standard deviation of the hidden values")
charts.show(ffn_view.histogram_figure(bend["edges"], bend["counts"], bend["near_counts"],
                                      bend["cutoff"], ratio))
st.caption(f"All {sh['pre'][0] * sh['pre'][1]:,} hidden values of the {sh['pre'][0]} tokens. A value "
           f"counts as pushed near zero when |GELU(z)| < {ratio:.2f} · |z|, which happens left of the "
           f"dashed line, z < {bend['cutoff']:.2f}. The larger the spread of z, the more units a token "
           "switches firmly off: try the fan_in weight scale.")

st.subheader("Every token goes through on its own")
changes = ffn_view.real_changes(int(seed), init, poke - 1, act_name)
others = np.delete(changes, poke - 1)
charts.show(ffn_view.change_figure(changes, poke - 1))
st.markdown(
    f"Token {poke} got a fresh input row: its output row moved by up to **{changes[poke - 1]:.3g}**, "
    f"every other output row by **{float(others.max()):.3g}**. The MLP never mixes tokens; "
    "that is attention's job."
)

st.subheader(f"Without the GELU, the block is one {G.d_model:,} × {G.d_model:,} matrix")
col = ffn_view.real_collapse(int(seed), init, act_name)
m1, m2, m3, m4 = st.columns(4)
m1.metric("Weights in W₁ and W₂", f"{col['two_params']:,}")
m2.metric(f"Weights in W₁W₂ ({col['W_shape'][0]} × {col['W_shape'][1]})", f"{col['one_params']:,}")
m3.metric("Largest gap, no GELU", f"{col['linear_gap']:.1e}",
          help="max |(x W₁) W₂ − x (W₁W₂)| over all outputs: rounding error only")
m4.metric("Largest gap, with GELU", f"{col['gelu_gap']:.3g}",
          help="max |GELU(x W₁) W₂ − x (W₁W₂)|: what the bend changes")
st.markdown(
    "Without the bend the two matrices give the same outputs as the single matrix W₁W₂, up to "
    f"rounding, and W₁W₂ has {col['one_params'] / col['two_params']:.1%} as many weights. With GELU "
    f"the outputs part ways with it: the bend is what the {G.d_ff:,} hidden units are for."
)
show_source(ffn.collapse_gap)

"""A layer is a matrix: the recipe card y = xW + b, live, from one neuron to GPT-2's storage."""

import numpy as np
import pandas as pd
import plotly.graph_objects as go
import streamlit as st

from lib.depth import compound, random_stack
from lib.layers import collapse, linear, param_count
from lib.recipe import (
    MAX_SIZE,
    MINI_B1,
    MINI_B2,
    MINI_W1,
    MINI_W2,
    MINI_X,
    batch_inputs,
    default_layer,
    dot_terms,
    init_layer,
    mini_network,
    scaled_parts,
    squared_error,
    squared_error_grad,
)
from lib.storage import linear_torch, to_torch
from ui import charts
from ui.diagram import network_figure
from ui.expr import dot_latex, dot_text, par, plus, short, terms_text
from ui.links import bound
from ui.slider_grid import FIT, cell_key, grid_columns, slider_grid, slider_row, sub
from ui.source import show_source

FRUITS = ["apple", "banana", "mango", "strawberry", "kiwi", "peach", "blueberry", "pineapple"]
SMOOTHIES = ["Sunrise", "Jungle", "Berry", "Tropic", "Morning", "Pink", "Purple", "Zing"]
X_RANGE, W_RANGE, B_RANGE = (-3.0, 3.0), (-2.0, 2.0), (-2.0, 2.0)
STEP = 0.1

st.title("A layer is a matrix")
st.markdown(
    "A layer of a neural network takes a row of numbers **x** and returns a new row "
    "**y = xW + b**. Each output is one *neuron*: a column of the weight matrix **W**, "
    "dotted with the input, plus its own bias. Every number below is live: move a slider "
    "and everything that depends on it moves too."
)

# Sizes (section 5) decide the shape of the card (section 1), so section 5's controls run
# first and are drawn into their own place further down the page.
s1, s2, s3, s4, s5 = (st.container() for _ in range(5))

with s1:
    st.header("1. The recipe card")
    mode = bound(st.radio, "Labels", ["story", "plain"], key="mode", horizontal=True,
                 help="story: fruits, smoothies and yoghurt; plain: x, y and b.")
story = mode == "story"
# The words of the lesson in either mode: (story, plain).
FRUIT = "fruit" if story else "input"
SMOOTHIE = "smoothie" if story else "output"

# --- 5. Sizes (controls) --------------------------------------------------------------------
with s5:
    st.header(f"5. Any size: more {FRUIT}s, more {SMOOTHIE}s")
    st.markdown(
        f"Nothing about a layer needs three {FRUIT}s and two {SMOOTHIE}s. Change the sizes: "
        "the card, the diagram and the parameter count above all follow. Re-fill the card "
        "with random numbers or zeros."
    )
    c1, c2 = st.columns(2)
    with c1:
        nin = bound(st.slider, f"Inputs n_in ({FRUIT}s)", 1, MAX_SIZE, 3, key="nin",
                    help="How many numbers go in: the rows of W.")
    with c2:
        nout = bound(st.slider, f"Outputs n_out ({SMOOTHIE}s, neurons)", 1, MAX_SIZE, 2, key="nout",
                     help="How many neurons, one output each: the columns of W.")


def _fill(how: str) -> None:
    """Write new numbers into the card's sliders (bound widgets take values via session_state)."""
    n_i, n_o = st.session_state["nin"], st.session_state["nout"]
    x0, W0, b0 = default_layer(n_i, n_o)
    if how == "start":
        W, b = W0, b0
        for i in range(n_i):
            st.session_state[cell_key("x", i + 1)] = float(x0[i])
    else:
        count = st.session_state.get("recipe_fills", 0) + 1  # a new draw on every click
        st.session_state["recipe_fills"] = count
        W, b = init_layer(n_i, n_o, how, seed=count)
    for i in range(n_i):
        for j in range(n_o):
            st.session_state[cell_key("w", i + 1, j + 1)] = float(W[i, j])
    for j in range(n_o):
        st.session_state[cell_key("b", j + 1)] = float(b[j])


with s5:
    f1, f2, f3 = st.columns(3)
    f1.button("Random weights", on_click=_fill, args=("random",), icon=":material/casino:",
              width="stretch", help="Fill W and b with random tenths (W in -1..1, b in -0.5..0.5).")
    f2.button("All zeros", on_click=_fill, args=("zero",), icon=":material/exposure_zero:",
              width="stretch", help="Set every weight and bias to 0: every output becomes 0.")
    f3.button("Starting numbers", on_click=_fill, args=("start",), icon=":material/restart_alt:",
              width="stretch", help="Back to the seed example (and fixed numbers beyond it).")

# --- 1. The recipe card ---------------------------------------------------------------------
with s1:
    in_names = FRUITS[:nin] if story else [sub(f"x{i + 1}") for i in range(nin)]
    out_names = SMOOTHIES[:nout] if story else [sub(f"y{j + 1}") for j in range(nout)]
    bias_name = "yoghurt" if story else "bias b"
    if story:
        st.markdown(
            "A smoothie bar's recipe card: each **row** is a fruit, each **column** a smoothie, "
            "and a cell says how much of that fruit goes into that smoothie. **x** is today's "
            "fruit, **b** a fixed scoop of yoghurt per smoothie. (A negative amount is fine: "
            "this is maths, not a kitchen.)"
        )
    else:
        st.markdown("Each **row** of W belongs to one input, each **column** to one output neuron.")

    x_def, W_def, b_def = default_layer(nin, nout)
    x = np.empty(nin)  # (nin,) filled by the first column of the grid

    def _x_slider(i: int) -> None:
        key = cell_key("x", i + 1)
        label = f"{in_names[i]} ({sub(key)})" if story else in_names[i]
        x[i] = bound(st.slider, label, *X_RANGE, float(x_def[i]), STEP, key=key, format="%.2f",
                     persist_state="page", help=f"Input {i + 1}: how much {in_names[i]} there is.")

    W = slider_grid(W_def, prefix="w", lo=W_RANGE[0], hi=W_RANGE[1], step=STEP,
                    help="One weight: how much this input counts towards this output.",
                    col_labels=[f"**{n}**" for n in out_names], lead=_x_slider,
                    lead_title="**input x**", lead_width=1.3)  # (nin, nout)
    b = slider_row(b_def, prefix="b", lo=B_RANGE[0], hi=B_RANGE[1], step=STEP,
                   lead=f"**{bias_name}**", lead_width=1.3,
                   help="One bias per output, added after the dot product.")  # (nout,)
    y = linear(x, W, b)  # (nout,)
    cols = grid_columns([1.3] + [1.0] * nout)  # lined up under the grid
    cols[0].markdown("**= output y**")
    for j in range(nout):
        if nout + 1 <= FIT:
            cols[j + 1].metric(out_names[j], short(y[j]))
        else:  # a metric's big digits do not fit a shrunk column: name and number, smaller
            cols[j + 1].markdown(f"{out_names[j]}  \n**{short(y[j])}**")
    st.caption("W has one row per input and one column per output: "
               f"{nin} × {nout}. Column j of W, dotted with x, plus bias j, is output j.")

# --- 2. The network diagram -----------------------------------------------------------------
with s2:
    st.header("2. The same numbers as a network")
    st.markdown(
        "Each input is a circle on the left, each neuron a circle on the right, with its "
        "output written inside. Every line is **one weight**, one cell of W: blue positive, "
        "red negative, thicker for bigger. Hover a line: it names its cell."
    )
    d1, d2 = st.columns([3, 2])
    with d1:
        charts.show(network_figure([W], [in_names, out_names], node_values=[x, y]), key="rc_diagram")
    with d2:
        charts.show(charts.matrix_figure(W, row_labels=in_names, col_labels=out_names,
                                         title=f"W ({nin} × {nout})"), key="rc_wcells")
        st.caption("The same W as cells: hover a cell and its twin line on the left.")

# --- 3. The arithmetic ----------------------------------------------------------------------
with s3:
    st.header("3. The arithmetic, written out")
    st.markdown("Every output is a dot product: the inputs times one column of W, plus one bias.")
    for j in range(nout):
        # Markdown, not LaTeX: a long sum wraps on a phone instead of running off the edge.
        st.markdown(f"**{out_names[j]}** = {dot_text(x, W[:, j], b[j])} = **{short(y[j])}**")
    st.markdown("The **parameters** (numbers the layer learns) are every weight plus every bias:")
    n_params = param_count(nin, nout)
    st.latex(rf"n_{{\text{{in}}}} \times n_{{\text{{out}}}} + n_{{\text{{out}}}} = "
             rf"{nin} \times {nout} + {nout} = {n_params}")
    m1, m2, m3 = st.columns(3, wrap=False)
    m1.metric("weights", f"{nin} × {nout} = {param_count(nin, nout, bias=False)}")
    m2.metric("biases", f"{nout}")
    m3.metric("parameters", f"{n_params}")
    show_source(linear, param_count)

# --- 4. Linearity ---------------------------------------------------------------------------
with s4:
    st.header(f"4. Double the {FRUIT}")
    st.markdown(
        f"A layer is *linear* in its input: multiply the {FRUIT}s by k and the {FRUIT} part xW "
        f"of every {SMOOTHIE} is multiplied by k. The {bias_name} does not change."
    )
    times = bound(st.slider, "Multiply the input by k", 0.0, 3.0, 2.0, 0.5, key="times",
                  help=f"k: scale every input by the same factor (2 = double the {FRUIT}s).")
    part1, bias, y1 = scaled_parts(x, W, b, 1.0)   # (nout,) each
    partk, _, yk = scaled_parts(x, W, b, times)    # (nout,) each
    fig = charts.figure(y_title="output", height=340)
    groups = [f"{n} · x" for n in out_names] + [f"{n} · {short(times)}x" for n in out_names]
    order = [g for j in range(nout) for g in (groups[j], groups[nout + j])]
    part = dict(zip(groups, [*part1, *partk], strict=True))
    fig.add_trace(go.Bar(x=order, y=[part[g] for g in order], name=f"{FRUIT} part xW",
                         marker_color=charts.ORANGE,
                         hovertemplate=f"%{{x}}<br>{FRUIT} part %{{y:.3f}}<extra></extra>"))
    fig.add_trace(go.Bar(x=order, y=[bias[j] for j in range(nout) for _ in (0, 1)],
                         name=f"{bias_name} (b)", marker_color=charts.GREY,
                         hovertemplate="%{x}<br>bias %{y:.3f}<extra></extra>"))
    fig.update_layout(barmode="relative")
    charts.show(fig, key="rc_linearity")
    table = pd.DataFrame({
        "output": out_names,
        f"{FRUIT} part xW": part1,
        f"{FRUIT} part with {short(times)}x": partk,
        "bias b": bias,
        "y with x": y1,
        f"y with {short(times)}x": yk,
    })
    st.dataframe(table, hide_index=True, width="stretch",
                 column_config={c: st.column_config.NumberColumn(format="%.3f")
                                for c in table.columns[1:]})
    st.caption(f"The {FRUIT} part is exactly {short(times)} times as big; y is not, because the "
               "bias stays put. With no bias, a layer would scale all the way through.")

# --- 5. Sizes (what follows them) -----------------------------------------------------------
with s5:
    z1_, z2_ = st.columns([3, 2], vertical_alignment="center")
    with z1_:
        charts.show(network_figure([W], [in_names, out_names], node_values=[x, y],
                                   height=int(60 + 40 * max(nin, nout, 2))), key="rc_sizes")
    with z2_:
        st.latex(rf"{nin} \times {nout} + {nout} = {param_count(nin, nout)}")
        st.markdown(f"**{param_count(nin, nout)} parameters**: {nin * nout} weights (lines) "
                    f"and {nout} biases (one per neuron).")
        st.caption("The card above has the new shape too: set any of its numbers there.")

# --- 6. Many tokens at once -----------------------------------------------------------------
st.header("6. Many tokens at once")
st.markdown(
    "A language model runs the same layer on every token. Stack the tokens as rows of a "
    "matrix X: one multiplication handles them all, each row on its own, with the **same W**."
)
tokens = bound(st.slider, "Tokens in the batch", 1, 8, 5, key="tokens",
               help="How many rows go through the layer together; row 1 is the x above.")
X = batch_inputs(x, tokens)   # (tokens, nin)
Y = linear(X, W, b)           # (tokens, nout)
t1, t2 = st.columns(2)
rows = [f"token {t + 1}" for t in range(tokens)]
with t1:
    st.markdown(f"**X**, {tokens} × {nin}")
    st.dataframe(pd.DataFrame(X, index=rows, columns=in_names).style.format("{:.1f}"),
                 width="stretch")
with t2:
    st.markdown(f"**Y = XW + b**, {tokens} × {nout}")
    st.dataframe(pd.DataFrame(Y, index=rows, columns=out_names).style.format("{:.3f}"),
                 width="stretch")
shapes = pd.DataFrame({
    "tensor": ["x (input)", "W (weights)", "out"],
    "one token": [f"[1, {nin}]", f"[{nin}, {nout}]", f"[1, {nout}]"],
    f"{tokens} tokens": [f"[{tokens}, {nin}]", f"[{nin}, {nout}]", f"[{tokens}, {nout}]"],
})
st.dataframe(shapes, hide_index=True, width="stretch")
same = bool(np.allclose(Y[0], y))
st.caption(
    f"W stays [{nin}, {nout}] however many tokens come: the layer keeps one set of weights. "
    f"Row 1 of Y {'equals' if same else 'differs from'} the y above; the token count never "
    "changes, only the feature count."
)

# --- 7. Storage conventions -----------------------------------------------------------------
st.header("7. How GPT-2 and PyTorch store the same layer")
st.markdown(
    "GPT-2's original code stores W as **in × out** and computes xW + b. PyTorch's `nn.Linear` "
    "stores its `weight` as **out × in** and computes xWᵀ + b. Same numbers, transposed: the "
    "classic shape bug when porting weights."
)
weight = to_torch(W)                     # (nout, nin)
y_gpt2 = linear(x, W, b)                 # (nout,)
y_torch = linear_torch(x, weight, b)     # (nout,)


def _py(M, indent: int = 13) -> str:
    """A matrix as a Python literal, one row per line, rows lined up under the first."""
    rows = [", ".join(short(v) for v in row) for row in np.atleast_2d(M)]
    return "[" + (",\n" + " " * (indent + 1)).join(f"[{r}]" for r in rows) + "]"


def _vec(v) -> str:
    return "[" + ", ".join(short(a) for a in v) + "]"


g1, g2 = st.columns(2)
with g1:
    st.markdown(f"**GPT-2 Conv1D**: W is {nin} × {nout} (in × out)")
    charts.show(charts.matrix_figure(W, row_labels=in_names, col_labels=out_names), key="rc_gpt2w")
with g2:
    st.markdown(f"**nn.Linear**: weight is {nout} × {nin} (out × in)")
    charts.show(charts.matrix_figure(weight, row_labels=out_names, col_labels=in_names),
                key="rc_torchw")
code_gpt2, code_torch = st.tabs(["GPT-2 style (NumPy)", "PyTorch nn.Linear"])
code_gpt2.code(
    f"# weight stored (n_in, n_out) = ({nin}, {nout})\n"
    f"W = np.array({_py(W)})\n"
    f"b = np.array({_vec(b)})\n"
    f"x = np.array({_vec(x)})\n"
    f"x @ W + b\n"
    f"# {_vec(y_gpt2)}",
    language="python",
)
code_torch.code(
    f"# weight stored (n_out, n_in) = ({nout}, {nin})\n"
    f"layer = nn.Linear({nin}, {nout})\n"
    "with torch.no_grad():\n"
    f"    layer.weight.copy_(torch.tensor(\n"
    f"        {_py(weight, 8)}))\n"
    f"    layer.bias.copy_(torch.tensor({_vec(b)}))\n"
    f"layer(torch.tensor({_vec(x)}))\n"
    f"# {_vec(y_torch)}: x @ weight.T + bias",
    language="python",
)
match = bool(np.allclose(y_gpt2, y_torch))
st.caption(f"Both give y = {_vec(y_gpt2)}: {'identical' if match else 'DIFFERENT'} outputs, "
           "only the storage is transposed. Loading GPT-2 weights into nn.Linear takes one `.T`.")
show_source(to_torch, linear_torch)

# --- 8. The mini network --------------------------------------------------------------------
st.header("8. A mini network: 3\u00a0→\u00a02\u00a0→\u00a01")
st.markdown(
    "Stack a second layer after the first: its input is the first layer's output. Inside every "
    "neuron, four steps: multiply each input by its weight, add them up, add the bias, then "
    "**ReLU** (keep positives, turn negatives into 0). Layer two's weights wear a prime, w′."
)
k1, k2 = st.columns(2)
with k1:
    relu_on = bound(st.toggle, "ReLU after each neuron", True, key="relu",
                    help="Switch the bend off: then both layers are plain weighted sums.")
with k2:
    target = bound(st.slider, "Target y (what the output should be)", -5.0, 5.0, 1.0, STEP,
                   key="target", format="%.2f", help="The right answer; the loss measures the miss.")
MINI_KEYS = ("mx", "mw", "mb", "pw", "pb")
from_link = any(k.startswith(MINI_KEYS) for k in st.query_params)  # open it to show what the link set
with st.expander("Change the mini network's numbers", icon=":material/tune:", expanded=from_link):
    st.markdown("**Input x** (three features of one token)")
    mx = slider_row(MINI_X, prefix="mx", lo=-5.0, hi=5.0, step=STEP,
                    help="One input feature of the mini network.")  # (3,)
    st.markdown("**Layer 1: W** (rows: inputs; columns: neurons) **and b**")
    mW1 = slider_grid(MINI_W1, prefix="mw", lo=-3.0, hi=3.0, step=STEP,
                      help="Layer-1 weight from input i to neuron j.",
                      row_labels=[sub(f"x{i + 1}") for i in range(3)],
                      col_labels=["**neuron 1**", "**neuron 2**"])  # (3, 2)
    mb1 = slider_row(MINI_B1, prefix="mb", lo=-3.0, hi=3.0, step=STEP, lead="**b**",
                     help="Layer-1 bias of neuron j.")  # (2,)
    st.markdown("**Layer 2: W′ and b′** (one neuron, fed by the two outputs of layer 1)")
    mW2 = slider_grid(MINI_W2, prefix="pw", lo=-3.0, hi=3.0, step=STEP,
                      help="Layer-2 weight from layer-1 neuron i.",
                      row_labels=["out₁", "out₂"], col_labels=["**ŷ**"])  # (2, 1)
    mb2 = slider_row(MINI_B2, prefix="pb", lo=-3.0, hi=3.0, step=STEP, lead="**b′**",
                     help="Layer-2 bias.")  # (1,)

bend = "relu" if relu_on else "identity"
z1, h1, z2, y_hat = mini_network(mx, mW1, mb1, mW2, mb2, bend)  # (2,), (2,), (1,), (1,)
charts.show(network_figure([mW1, mW2], [[sub(f"x{i + 1}") for i in range(3)],
                                         ["neuron 1", "neuron 2"], ["ŷ"]],
                           node_values=[mx, h1, y_hat], names=["w", "w′"], height=300),
            key="rc_mini")
after = "after ReLU" if relu_on else "output (no ReLU)"
terms = dot_terms(mx, mW1)  # (3, 2)
neurons = pd.DataFrame({
    "neuron": [1, 2],
    "weights": [_vec(mW1[:, j]) for j in range(2)],
    "bias": [short(mb1[j]) for j in range(2)],
    "weighted sum": [f"{plus([par(t) for t in terms[:, j]] + [par(mb1[j])])} = {short(z1[j])}"
                     for j in range(2)],
    after: [short(h1[j]) for j in range(2)],
})
st.dataframe(neurons, hide_index=True, width="stretch")
st.markdown(f"So layer 1's output row is **{_vec(h1)}**, and the network's output is "
            f"**ŷ = {short(y_hat[0])}**.")

st.subheader("The whole network is one equation")
r = r"\operatorname{ReLU}" if relu_on else ""


def _neuron_tex(j: int) -> str:
    inner = plus([*terms_text(mx, mW1[:, j], r" \cdot "), par(mb1[j])])
    return rf"{r}\left({inner}\right)"


# One neuron per line, so the equation fits a projector and (nearly) a phone.
st.latex(
    rf"\begin{{aligned}}\hat y = {r}\Bigl(\,& {par(mW2[0, 0])} \cdot {_neuron_tex(0)} \\ "
    rf"+\,& {par(mW2[1, 0])} \cdot {_neuron_tex(1)} \\ "
    rf"+\,& {par(mb2[0])}\,\Bigr) = {short(y_hat[0])}\end{{aligned}}"
)
if not relu_on:
    Wc, bc = collapse(mW1, mb1, mW2, mb2)  # (3, 1), (1,)
    st.latex(dot_latex(r"\hat y = x(W W') + (bW' + b')", mx, Wc[:, 0], bc[0], float(linear(mx, Wc, bc)[0])))
    st.info("Without ReLU the two layers fold into **one** layer, x(WW′) + (bW′ + b′): three "
            "weights and a bias. The second layer bought nothing.", icon=":material/layers_clear:")
loss = float(squared_error(y_hat, target)[0])
grad = float(squared_error_grad(y_hat, target)[0])
l1, l2, l3 = st.columns(3, wrap=False)
l1.metric("prediction ŷ", short(y_hat[0]))
l2.metric("loss (ŷ − y)²", short(loss, 4))
l3.metric("slope 2(ŷ − y)", short(grad))
st.caption(f"The loss is ({short(y_hat[0])} − {short(target)})² = {short(loss, 4)}. Training "
           "turns every weight and bias so the loss shrinks; the slope says which way ŷ must move.")
show_source(mini_network, squared_error, squared_error_grad)

# --- 9. Depth -------------------------------------------------------------------------------
st.header("9. Why depth needs care")
st.markdown(
    "Every layer multiplies. If each layer makes the numbers a little bigger (or smaller), "
    "k layers make them that factor to the power k. Below, the arithmetic and a real stack "
    "of random matrices, built so each one scales sizes by the same factor on average."
)
e1, e2 = st.columns(2)
with e1:
    scale = bound(st.slider, "Scale per layer", 0.5, 2.0, 1.5, 0.05, key="scale", format="%.2f",
                  help="How much one layer multiplies the size of the numbers.")
    width = bound(st.select_slider, "Width of each random layer", [8, 16, 32, 64, 128, 256],
                  value=64, key="width", help="Each random matrix is width × width.")
with e2:
    depth = bound(st.slider, "Depth (layers)", 1, 40, 10, key="depth",
                  help="How many layers are stacked.")
    seed = bound(st.slider, "Random seed", 0, 20, 0, key="seed",
                 help="Draw a different set of random matrices.")


@st.cache_data(max_entries=64)
def _stack(scale: float, depth: int, width: int, seed: int) -> np.ndarray:
    return random_stack(scale, depth, width=width, seed=seed)  # (depth + 1,)


k = np.arange(depth + 1)         # (depth + 1,)
sizes = compound(scale, depth)   # (depth + 1,)
measured = _stack(scale, depth, width, seed)  # (depth + 1,)
ref_hi, ref_lo = compound(1.5, depth), compound(0.7, depth)  # seed 002's two examples
mine, measured_name = f"{short(scale, 2)}^k (arithmetic)", f"random {width}-wide layers (measured)"
series = {mine: sizes, measured_name: measured}
colors = {mine: charts.BLUE, measured_name: charts.ORANGE, "1.5^k": charts.GREY, "0.7^k": charts.SKY}
for name, ref, s_ref in (("1.5^k", ref_hi, 1.5), ("0.7^k", ref_lo, 0.7)):
    if not np.isclose(scale, s_ref):  # the same line twice would hide one of them
        series[name] = ref
fig = charts.line_figure(k, series, x_title="layers k",
                         y_title="size of the activations (× the input's)",
                         dashed=["1.5^k", "0.7^k"], colors=colors, height=380)
fig.update_traces(mode="lines+markers", selector=dict(name=measured_name))
fig.update_yaxes(type="log", dtick=1)  # one tick per power of ten
charts.show(fig, key="rc_depth")
q1, q2 = st.columns(2, wrap=False)
q1.metric(f"{short(scale, 2)}^{depth}", f"{sizes[-1]:.4g}")
q2.metric(f"measured after {depth} layers", f"{measured[-1]:.4g}")
st.markdown(
    f"For comparison, over {depth} layers: a scale of 1.5 per layer (grows a little) gives "
    f"**{ref_hi[-1]:.4g}×**; 0.7 (shrinks a little) gives **{ref_lo[-1]:.3g}×**, almost zero."
)
st.caption(
    "Numbers that blow up or vanish make training unstable, and a real GPT stacks dozens of "
    "layers. That is what layer normalisation is built to control: it rescales each token's "
    "numbers after every block."
)
show_source(compound, random_stack)

"""Bends: ReLU, GELU, SiLU, and why two linear layers without one are only one layer."""

import numpy as np
import streamlit as st

from lib.activations import ACTIVATIONS
from lib.layers import collapse, largest_gap, linear, swiglu, two_layer
from ui import charts
from ui.links import bound
from ui.matrix import matrix_input, reset_matrix
from ui.source import show_source
from ui.tex import bmatrix, num

NAMES = list(ACTIVATIONS)
BENDS = [n for n in NAMES if n != "identity"]

st.title("Bends: ReLU, GELU, SiLU")
st.markdown(
    "A linear layer can only stretch, turn and shift. Put two of them in a row and you get "
    "one linear layer again. The fix is a fixed, elementwise **bend** between them, called "
    "an *activation function*. Here are the ones real models use."
)

# --- 1. The gallery -------------------------------------------------------------------
st.header("The bends side by side")
c1, c2, c3 = st.columns([3, 1, 1], vertical_alignment="bottom")
with c1:
    shown = bound(st.multiselect, "Bends to draw", NAMES, default=["relu", "gelu", "silu"], key="show",
                  help="Pick any of the activation functions in the table below.")
with c2:
    xmax = bound(st.slider, "Range ±", 1.0, 10.0, 4.0, 0.5, key="xmax",
                 help="Draw each curve from -range to +range.")
with c3:
    deriv = bound(st.toggle, "Slopes too", False, key="deriv",
                  help="Also draw each bend's derivative f'(x) (dashed): what backprop multiplies by.")

x = np.linspace(-xmax, xmax, 401)  # (401,)
series, dashed, colors = {}, [], {}
for name in shown:
    act, color = ACTIVATIONS[name], charts.SERIES[NAMES.index(name) % len(charts.SERIES)]
    series[act.label] = act.fn(x)
    colors[act.label] = color
    if deriv:
        series[f"{act.label}: slope"] = act.grad(x)
        colors[f"{act.label}: slope"] = color
        dashed.append(f"{act.label}: slope")
if series:
    charts.show(charts.line_figure(x, series, x_title="x", y_title="f(x)", dashed=dashed,
                                   colors=colors, height=380))
else:
    st.info("Pick at least one bend to draw.")

for name in shown:
    act = ACTIVATIONS[name]
    with st.container(border=True):
        a, b = st.columns([2, 3], vertical_alignment="center")
        a.latex(act.latex)
        b.markdown(f"**{act.label}**: {act.used_in}")

# --- 2. GELU exact vs tanh ------------------------------------------------------------
st.header("GELU: exact or approximated?")
exact, approx = ACTIVATIONS["gelu"], ACTIVATIONS["gelu_tanh"]
xs = np.linspace(-6.0, 6.0, 2401)
gap, where = largest_gap(xs, exact.fn(xs), approx.fn(xs))
st.markdown(
    "GELU multiplies x by Φ(x), the chance that a standard normal number is below x. "
    "Computing Φ needs erf, which GPT-2's authors replaced with a tanh formula. "
    f"Over -6 to 6 the two never differ by more than **{gap:.2e}** (largest at x = {where:.2f}): "
    "far smaller than anything a network can notice, which is why checkpoints trained with "
    "one run fine with the other."
)
fig = charts.line_figure(xs, {"GELU exact − tanh approximation": exact.fn(xs) - approx.fn(xs)},
                         x_title="x", y_title="difference", height=260)
fig.update_yaxes(exponentformat="e")
charts.show(fig)

# --- 3. Why depth needs a bend ----------------------------------------------------------
st.header("Why depth needs a bend")
st.markdown(
    "A tiny network: one input x, three hidden units, one output, "
    "**y = f(x W₁ + b₁) W₂ + b₂**. Edit any weight. Switch the bend to *Identity* and the "
    "whole network becomes one straight line, the single layer **x (W₁W₂) + (b₁W₂ + b₂)**."
)
DEFAULTS = {
    "w1": np.array([[1.0, -1.0, 0.5]]),   # (1, 3): one input, three hidden units
    "b1": np.array([-0.5, -0.5, 1.0]),    # (3,)
    "w2": np.array([[1.0], [1.0], [-1.0]]),  # (3, 1)
    "b2": np.array([0.5]),                # (1,)
}


def _reset_weights():
    for k in DEFAULTS:
        reset_matrix(k)


left, right = st.columns([2, 3])
with left:
    bend = bound(st.selectbox, "Bend between the layers", NAMES, index=NAMES.index("relu"), key="bend",
                 help="Identity means no bend: the two layers collapse into one.")
    hidden = [f"h{j + 1}" for j in range(3)]
    W1 = matrix_input("W₁", DEFAULTS["w1"], key="w1", row_labels=["x"], col_labels=hidden,
                      help="input → hidden weights, one column per hidden unit")
    b1 = matrix_input("b₁", DEFAULTS["b1"], key="b1", row_labels=["bias"], col_labels=hidden,
                      help="one bias per hidden unit")
    W2 = matrix_input("W₂", DEFAULTS["w2"], key="w2", row_labels=hidden, col_labels=["y"],
                      help="hidden → output weights")
    b2 = matrix_input("b₂", DEFAULTS["b2"], key="b2", row_labels=["bias"], col_labels=["y"],
                      help="the output's bias")
    st.button("Reset weights", on_click=_reset_weights, icon=":material/restart_alt:",
              help="Back to the starting weights.")

act = ACTIVATIONS[bend]
grid = np.linspace(-3.0, 3.0, 601)[:, None]       # (601, 1)
_, _, y_net = two_layer(grid, W1, b1, W2, b2, act)  # (601, 1)
W, b = collapse(W1, b1, W2, b2)                    # (1, 1), (1,)
y_one = linear(grid, W, b)                         # (601, 1)
gap, where = largest_gap(grid[:, 0], y_net[:, 0], y_one[:, 0])
with right:
    fig = charts.line_figure(
        grid[:, 0], {f"network with {act.label}": y_net[:, 0],
                     "the collapsed single layer": y_one[:, 0]},
        x_title="input x", y_title="output y", dashed=["the collapsed single layer"],
        colors={f"network with {act.label}": charts.BLUE,
                "the collapsed single layer": charts.VERMILLION}, height=380)
    charts.show(fig)
    if bend == "identity":
        st.success(f"Identical: the largest difference over x in [-3, 3] is {gap:.1e}, "
                   "rounding error. Three hidden units bought nothing.",
                   icon=":material/check_circle:")
    else:
        st.info(f"With the bend they part ways: up to {gap:.3g} apart (at x = {where:.2f}). "
                "Each hidden unit adds a bend where its sum crosses zero.",
                icon=":material/call_split:")

probe = bound(st.slider, "Follow one input x", -3.0, 3.0, 1.0, 0.1, key="x",
              help="Push one number through both versions and compare every step.")
z, h, y = two_layer(np.array([[probe]]), W1, b1, W2, b2, act)  # (1, 3), (1, 3), (1, 1)
y1 = linear(np.array([[probe]]), W, b)                           # (1, 1)
through_net, through_one = st.columns(2)
with through_net:
    st.markdown(f"**Through the network** ({act.label})")
    st.latex(
        r"\begin{aligned}"
        rf"z &= xW_1 + b_1 = {bmatrix(z)} \\"
        rf"h &= f(z) = {bmatrix(h)} \\"
        rf"y &= hW_2 + b_2 = {num(y[0, 0])}"
        r"\end{aligned}"
    )
with through_one:
    st.markdown("**Through the collapsed single layer**")
    st.latex(
        r"\begin{aligned}"
        rf"W &= W_1W_2 = {bmatrix(W)} \\"
        rf"b &= b_1W_2 + b_2 = {bmatrix(b)} \\"
        rf"y &= xW + b = {num(y1[0, 0])}"
        r"\end{aligned}"
    )
show_source(two_layer, collapse)

# --- 4. SwiGLU ------------------------------------------------------------------------
st.header("SwiGLU: a bend that gates")
st.markdown(
    "Llama, Mistral and Qwen replace GPT-2's *linear, GELU, linear* with **SwiGLU**: two "
    "parallel linear branches, one bent by SiLU, multiplied together, then projected down. "
    "The SiLU branch acts as a soft switch on the other branch."
)
st.graphviz_chart(
    """digraph { rankdir=LR; bgcolor="transparent"; node [shape=box, style=rounded, fontname=Helvetica];
    x -> gate [label="x W_gate"]; x -> up [label="x W_up"];
    gate [label="SiLU"]; up [label="linear branch"]; mul [label="×", shape=circle];
    gate -> mul; up -> mul; mul -> y [label="· W_down"]; }""",
    width="stretch",
)
g1, g2 = st.columns(2)
with g1:
    wg = bound(st.slider, "Gate weight", -3.0, 3.0, 1.0, 0.1, key="wg",
               help="W_gate for a one-number input: how sharply the SiLU switch turns on.")
with g2:
    wu = bound(st.slider, "Linear-branch weight", -3.0, 3.0, 1.0, 0.1, key="wu",
               help="W_up for a one-number input: the value that the gate lets through.")
xg = np.linspace(-4.0, 4.0, 401)[:, None]  # (401, 1)
gate, up, out = swiglu(xg, [[wg]], [[wu]], [[1.0]])
charts.show(charts.line_figure(
    xg[:, 0], {"SiLU(x·W_gate)": gate[:, 0], "x·W_up": up[:, 0], "product (W_down = 1)": out[:, 0]},
    x_title="x", y_title="value", dashed=["SiLU(x·W_gate)", "x·W_up"], height=320))
show_source(swiglu)

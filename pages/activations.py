"""Bends: why two linear layers without one are only one layer, and the bends real models use.

Sections: the two-layer network beside the single layer it collapses to (the idea, live, at the
top), the bends side by side, then "Going further": GELU's tanh approximation and SwiGLU.
Every bend offered comes from lib.activations.ACTIVATIONS; every number from lib.bends.
"""

import numpy as np
import plotly.graph_objects as go
import streamlit as st

import engine.preload  # noqa: F401  (first: every module imported once before any page runs)
from lib import answers, asks, bends
from lib.activations import ACTIVATIONS
from lib.layers import collapse, swiglu, two_layer
from ui import charts, colors, fmt, room, state
from ui.frozen import freezes
from ui.source import show_source
from ui.tex import bmatrix
from ui.tex import num as tex_num

NAMES = {k: a.label for k, a in ACTIVATIONS.items()}  # what a menu shows; the URL keeps the key
START = {  # the starting network: one input, three hidden units, one output
    "w1": [[1.0, -1.0, 0.5]],       # (1, 3)
    "b1": [-0.5, -0.5, 1.0],        # (3,)
    "w2": [[1.0], [1.0], [-1.0]],   # (3, 1)
    "b2": [0.5],                    # (1,)
}
LO, HI = bends.INPUTS

LINKS = state.Links(
    state.select("bend", ACTIVATIONS, "relu", "Bend between the layers",
                 "Identity means no bend: the two layers collapse into one.", names=NAMES,
                 meaning="the bend in the two-layer network"),
    state.slider("x", LO, HI, 1.0, 0.1, "Input x to follow",
                 "Push one number through both versions and compare every step; it is marked on the chart.",
                 meaning="the input followed through the network"),
    state.matrix("w1", START["w1"], "W₁", "input → hidden weights, one column per hidden unit",
                 group="`w1`, `b1`, `w2`, `b2`",
                 meaning="the network's weights and biases: " + ", ".join(
                     f"{k} {fmt.shape(np.shape(v))}" for k, v in START.items()),
                 values="rows split by `;`, numbers by `,` (" + ", ".join(
                     f"`{state.format_matrix(v)}`" for v in START.values()) + ")"),
    state.matrix("b1", START["b1"], "b₁", "one bias per hidden unit",
                 group="`w1`, `b1`, `w2`, `b2`"),
    state.matrix("w2", START["w2"], "W₂", "hidden → output weights", group="`w1`, `b1`, `w2`, `b2`"),
    state.matrix("b2", START["b2"], "b₂", "the output's bias", group="`w1`, `b1`, `w2`, `b2`"),
    state.multi("show", ACTIVATIONS, ["relu", "gelu", "silu"], "Bends to draw",
                "Pick any of the bends; each one's formula and use are listed under the chart.",
                names=NAMES, meaning="the bends drawn side by side"),
    state.slider("xmax", 1.0, 10.0, 4.0, 0.5, "Range ±", "Draw each curve from −range to +range.",
                 meaning="the gallery's x range"),
    state.toggle("deriv", False, "Slopes too",
                 "Also draw each bend's derivative f′(x) (dashed): what backprop multiplies by.",
                 meaning="also draw the slopes"),
    state.slider("wg", -3.0, 3.0, 1.0, 0.1, "Gate weight",
                 "W_gate for a one-number input: how sharply the SiLU switch turns on.",
                 meaning="SwiGLU's gate weight"),
    state.slider("wu", -3.0, 3.0, 1.0, 0.1, "Linear-branch weight",
                 "W_up for a one-number input: the value that the gate lets through.",
                 meaning="SwiGLU's linear-branch weight"),
)

ASKS = asks.declare(  # what a lesson can ask about this page (lib/asks.py)
    asks.Ask("value", "What is the bend's value f(x) at the x followed?", "number", answers.bend_value,
             tolerance=0.01),
    asks.Ask("slope", "What is the bend's slope f′(x) at the x followed?", "number", answers.bend_slope,
             tolerance=0.01),
    asks.Ask("collapses", f"Is the network the single layer x(W₁W₂) + (b₁W₂ + b₂) for every x from "
             f"{fmt.num(LO)} to {fmt.num(HI)}?", "choice", answers.stack_collapses, choices=asks.YES_NO),
)


# --- figures: built once per input (st.cache_resource hands back the same go.Figure) ----------
# ReLU, GELU and SiLU keep their colour everywhere (ui.colors.BEND); any other bend takes the next colour
# no shown bend holds.
PINNED = colors.BEND


def bend_colors(shown) -> dict[str, str]:
    """A colour for each bend in `shown` (at most len(colors.CATEGORY)): pinned ones first, never two alike."""
    taken = {PINNED[n] for n in shown if n in PINNED}
    free = iter(c for c in colors.CATEGORY if c not in taken)
    return {n: PINNED[n] if n in PINNED else next(free) for n in shown}


def _readable(fig: go.Figure) -> go.Figure:
    """Text a back row and a phone can read: 14 px words, 13 px ticks and legend."""
    fig.update_layout(font=dict(size=14), title_font=dict(size=16), legend=dict(font=dict(size=13)), hoverlabel=dict(font_size=13))
    fig.update_xaxes(tickfont=dict(size=13), title_font=dict(size=14))
    fig.update_yaxes(tickfont=dict(size=13), title_font=dict(size=14))
    return fig


@st.cache_resource(max_entries=256, show_spinner=False)
@freezes
def _depth_figure(bend: str, w1: tuple, b1: tuple, w2: tuple, b2: tuple, x: float) -> go.Figure:
    act = ACTIVATIONS[bend]
    W1, B1, W2, B2 = (np.array(a) for a in (w1, b1, w2, b2))
    d = bends.depth(W1, B1, W2, B2, act)
    f = bends.follow(x, W1, B1, W2, B2, act)
    net, one = f"network with {act.label}", "the collapsed single layer"
    ink = bend_colors((bend,))[bend]   # the bend's own colour, as in the gallery
    fig = charts.line_figure(d.x, {net: d.net, one: d.one}, x_title="input x", y_title="output y",
                             dashed=[one], colors={net: ink, one: colors.OFF}, height=420)
    if bend != "identity" and d.kinks.size:
        fig.add_trace(go.Scatter(
            x=d.kinks, y=d.kink_y, mode="markers", name="a hidden unit's sum crosses 0",
            marker=dict(symbol="circle-open", size=13, color=ink, line=dict(width=2.5)),
            hovertemplate="a unit bends here<br>x = %{x:.2f}<extra></extra>"))
    fig.add_trace(go.Scatter(
        x=[f.x, f.x], y=[f.y, f.y_one], mode="markers", name=f"x = {fmt.num(f.x, 2)}, followed below",
        marker=dict(symbol="diamond", size=13, color=[ink, colors.OFF],
                    line=dict(width=1.5, color=colors.ON)),
        hovertemplate="x = %{x:.2f}<br>y = %{y:.3f}<extra></extra>"))
    fig.add_vline(x=f.x, line=dict(color=colors.OFF, width=1, dash="dot"))
    fig.update_xaxes(range=[LO, HI])
    fig.update_layout(meta="depth")
    return _readable(fig)


@st.cache_resource(max_entries=256, show_spinner=False)
@freezes
def _gallery_figure(shown: tuple, xmax: float, slopes: bool) -> go.Figure:
    x, curves = bends.curves(shown, xmax, slopes=slopes)
    series, dashed, tint = {}, [], {}
    ink = bend_colors(shown)   # never two alike; ReLU, GELU and SiLU as in every chart
    for name in shown:
        label, (f, df) = ACTIVATIONS[name].label, curves[name]
        series[label], tint[label] = f, ink[name]
        if df is not None:
            series[f"{label}: slope"], tint[f"{label}: slope"] = df, ink[name]
            dashed.append(f"{label}: slope")
    height = 400 + 22 * max(0, len(series) - 4)  # room for a legend that wraps on a phone
    fig = charts.line_figure(x, series, x_title="x", y_title="f(x)", dashed=dashed, colors=tint, height=height)
    fig.update_layout(meta="gallery")
    return _readable(fig)


@st.cache_resource(show_spinner=False)
@freezes
def _gelu_figure() -> tuple[go.Figure, bends.Gap]:
    g = bends.approximation_gap("gelu", "gelu_tanh")
    unit = fmt.power(10.0**g.decade).removeprefix("1 × ")
    fig = charts.line_figure(g.x, {"exact − tanh approximation": g.diff / 10.0**g.decade},
                             title=f"GELU exact − tanh approximation, in units of {unit}",
                             x_title="x", y_title="difference", height=300,
                             colors={"exact − tanh approximation": PINNED["gelu"]})
    fig.update_layout(meta="gelu", showlegend=False)
    return _readable(fig), g


@st.cache_resource(max_entries=512, show_spinner=False)
@freezes
def _swiglu_figure(wg: float, wu: float) -> go.Figure:
    x, gate, up, out = bends.swiglu_curves(wg, wu)
    names = ("SiLU(x·W_gate)", "x·W_up", "product (W_down = 1)")
    fig = charts.line_figure(x, dict(zip(names, (gate, up, out), strict=True)), x_title="x",
                             y_title="value", dashed=names[:2], height=340,
                             colors=dict(zip(names, (PINNED["silu"], colors.OLIVE, colors.ON), strict=True)))
    fig.update_layout(meta="swiglu")
    return _readable(fig)


def _key(M) -> tuple:
    return tuple(map(tuple, np.atleast_2d(M).tolist()))


# --- 1. Why depth needs a bend (the idea, live) ----------------------------------------------
def depth_section():
    """The weights change the whole section (a full rerun); the bend and the followed x change only
    the picture and its steps, a fragment that reruns alone."""
    units = np.shape(START["w1"])[1]
    st.header("Why depth needs a bend")
    st.markdown(
        f"A tiny network: one input x, {fmt.count(units)} hidden units, one output, "
        "**y = f(x W₁ + b₁) W₂ + b₂**. Switch the bend to *Identity* and the whole network becomes one "
        "straight line, the single layer **x (W₁W₂) + (b₁W₂ + b₂)**."
    )
    folded = set(START) <= LINKS.hidden()   # the room view, or a lesson's step: no weights to edit here
    picture, weights = (st.container(), st.container()) if folded else st.columns([3, 2], gap="large")
    with weights:
        if not folded:
            st.markdown("**The weights** (edit any cell)")
        hidden = [f"h{j + 1}" for j in range(units)]
        W1 = LINKS.widget("w1", row_labels=["x"], col_labels=hidden)
        b1 = LINKS.widget("b1", row_labels=["bias"], col_labels=hidden)
        left, right = (weights, weights) if folded else st.columns(2)
        with left:
            W2 = LINKS.widget("w2", row_labels=hidden, col_labels=["y"])
        with right:
            b2 = LINKS.widget("b2", row_labels=["bias"], col_labels=["y"])
        if not folded:
            st.button("Reset weights", on_click=_reset_weights, icon=":material/restart_alt:",
                      help="Back to the starting weights.")
    with picture:
        depth_live(W1, b1, W2, b2)
    show_source(two_layer, collapse)


@st.fragment
def depth_live(W1, b1, W2, b2):
    with st.container(key="depth_live"):
        c1, c2 = st.columns(2)
        with c1:
            bend = LINKS.widget("bend")
        with c2:
            x = LINKS.widget("x")
        act = ACTIVATIONS[bend]
        d = bends.depth(W1, b1, W2, b2, act)
        charts.show(_depth_figure(bend, _key(W1), tuple(b1.tolist()), _key(W2), tuple(b2.tolist()),
                                  float(x)))
        span = f"x from {fmt.num(LO)} to {fmt.num(HI)}"
        if bends.collapses(d):   # always without a bend; with one, when every unit stays on for every x
            st.success(f"Identical: the largest difference for {span} is {fmt.gap(d.gap)}. "
                       f"The {fmt.count(d.units)} hidden units bought nothing.", icon=":material/check_circle:")
        else:
            where = ", ".join(fmt.num(k, 2) for k in d.kinks)
            bent = f" Each hidden unit bends where its sum crosses zero (circles): x = {where}." if where else ""
            st.info(f"With the bend they part ways: up to {fmt.num(d.gap)} apart "
                    f"(at x = {fmt.num(d.where, 2)}).{bent}", icon=":material/call_split:")
        f = bends.follow(x, W1, b1, W2, b2, act)
        at = np.array([float(x)])
        st.markdown(f"**{act.label} itself at x = {fmt.num(float(x), 2)}**: f(x) = {fmt.num(float(act.fn(at)[0]), 4)}, "
                    f"its slope f′(x) = {fmt.num(float(act.grad(at)[0]), 4)} (what backpropagation multiplies by "
                    "there).")
        st.markdown(f"**x = {fmt.num(f.x, 2)} through the network** with {act.label}")
        st.latex(
            r"\begin{aligned}"
            rf"z &= xW_1 + b_1 = {bmatrix(f.z)} \\"
            rf"h &= f(z) = {bmatrix(f.h)} \\"
            rf"y &= hW_2 + b_2 = {tex_num(f.y)}"
            r"\end{aligned}"
        )
        st.markdown(f"**x = {fmt.num(f.x, 2)} through the collapsed single layer**")
        st.latex(
            r"\begin{aligned}"
            rf"W &= W_1W_2 = {bmatrix(f.W)} \\"
            rf"b &= b_1W_2 + b_2 = {bmatrix(f.b)} \\"
            rf"y &= xW + b = {tex_num(f.y_one)}"
            r"\end{aligned}"
        )


def _reset_weights():
    for key in START:
        LINKS.forget(key)


# --- 2. The bends side by side ----------------------------------------------------------------
def gallery_section():
    st.header("The bends side by side")
    shown = LINKS.widget("show")
    most = len(colors.CATEGORY)
    if len(shown) > most:
        st.caption(f"Drawing the first {fmt.count(most)}: more lines than that are hard to tell apart.")
        shown = shown[:most]
    gallery_chart(tuple(shown))
    for name in shown:
        act = ACTIVATIONS[name]
        with st.container(border=True):
            a, b = st.columns([2, 3], vertical_alignment="center")
            a.latex(r"\small " + act.latex)
            b.markdown(f"**{act.label}**: {act.used_in}")


@st.fragment
def gallery_chart(shown: tuple):
    """The range and the slopes change only this chart: they rerun alone."""
    with st.container(key="gallery_chart"):
        _gallery_chart(shown)


def _gallery_chart(shown: tuple):
    c1, c2 = st.columns([3, 1], vertical_alignment="bottom")
    with c1:
        xmax = LINKS.widget("xmax")
    with c2:
        slopes = LINKS.widget("deriv")
    if shown:
        charts.show(_gallery_figure(shown, float(xmax), bool(slopes)))
    else:
        st.info("Pick at least one bend to draw.")


# --- 3. Going further --------------------------------------------------------------------------
def gelu_section():
    st.subheader("GELU: exact or approximated?")
    exact, approx = ACTIVATIONS["gelu"], ACTIVATIONS["gelu_tanh"]
    fig, g = _gelu_figure()
    st.markdown(
        f"{exact.label} multiplies x by Φ(x), the chance that a standard normal number is below x. "
        "Computing Φ needs erf, which GPT-2's authors replaced with a tanh formula, "
        f"{approx.label}. For x from {fmt.num(g.x[0])} to {fmt.num(g.x[-1])} the two never differ by more "
        f"than **{fmt.power(g.gap)}** (largest at x = {fmt.num(g.where, 2)}): far smaller than anything "
        "a network can notice, which is why checkpoints trained with one run fine with the other."
    )
    charts.show(fig)


def swiglu_section():
    st.subheader("SwiGLU: a bend that gates")
    st.markdown(
        "Llama, Mistral and Qwen replace GPT-2's *linear, GELU, linear* with **SwiGLU**: two "
        "parallel linear branches, one bent by SiLU, multiplied together, then projected down. "
        "The SiLU branch acts as a soft switch on the other branch."
    )
    st.graphviz_chart(
        # Top to bottom (issue 34: drawn left to right, a phone shrank it until its labels were 5 px)
        """digraph { rankdir=TB; bgcolor="transparent"; node [shape=box, style=rounded, fontname=Helvetica];
        x -> gate [label="x W_gate"]; x -> up [label="x W_up"];
        gate [label="SiLU"]; up [label="linear branch"]; mul [label="×", shape=circle];
        gate -> mul; up -> mul; mul -> y [label="· W_down"]; }""",
        width="content",
    )
    swiglu_live()
    show_source(swiglu)


@st.fragment
def swiglu_live():
    """The two weights change only this chart: they rerun alone."""
    with st.container(key="swiglu_live"):
        g1, g2 = st.columns(2)
        with g1:
            wg = LINKS.widget("wg")
        with g2:
            wu = LINKS.widget("wu")
        charts.show(_swiglu_figure(float(wg), float(wu)))


if __name__ == "__main__":
    st.title("Bends: ReLU, GELU, SiLU")
    room.intro(
        "A linear layer can only stretch, turn and shift, and two of them in a row are one linear "
        "layer again. A fixed, elementwise **bend** between them (an *activation function*) is what "
        "makes depth worth having: take it away below and watch the network fold into a straight line."
    )
    depth_section()
    gallery_section()
    st.header("Going further")
    gelu_section()
    swiglu_section()

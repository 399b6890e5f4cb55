"""Stacking layers: a mini network 3 → 2 → 1, why depth needs care, many tokens at once, storage.

The second lesson of the old /recipe-card (its sections 6 to 9). Its link keys are the ones they
had there, and old /recipe-card links carrying them are forwarded here. The layer that the tokens
and the storage sections use is the recipe card's, read from the same link keys (nin, nout, x1..,
w11.., b1..); the page link back to /recipe-card carries them.
"""

import numpy as np
import pandas as pd
import streamlit as st

import engine.preload  # noqa: F401  (first: every module imported once before any page runs)
from lib import answers, asks
from lib.depth import compound, random_stack
from lib.layers import collapse, linear
from lib.onestep import central, explain, steps
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
    mini_network,
    squared_error,
    squared_error_grad,
)
from lib.storage import linear_torch, to_torch
from pages.stacking import figures
from pages.stacking.code import agrees, change, py_matrix, py_vec, vec
from ui import charts, fmt, room, state, tables
from ui.expr import par, plus, sig, tex, val
from ui.slider_grid import cell_key, cells, slider_grid, slider_row, sub
from ui.source import show_source

FRUITS = ["apple", "banana", "mango", "strawberry", "kiwi", "peach", "blueberry", "pineapple"]
SMOOTHIES = ["Sunrise", "Jungle", "Berry", "Tropic", "Morning", "Pink", "Purple", "Zing"]
X0, W0, B0 = default_layer()  # (8,), (8, 8), (8,)
RECIPE = "pages/recipe-card.py"
MINI = ("mx", "mw", "mb", "pw", "pb")
LRS = (0.001, 0.003, 0.01, 0.03, 0.05, 0.1, 0.2, 0.3, 0.5)
MAX_STEPS = 500

LINKS = state.Links(
    # The mini network.
    state.toggle("relu", True, "ReLU after each neuron", "Switch the bend off: then both layers are plain "
                 "weighted sums.", meaning="The bend after each neuron of the mini network"),
    state.slider("target", -5.0, 5.0, 1.0, 0.1, "Target y (what the output should be)",
                 "The right answer; the loss measures the miss.", number_format="%.1f",
                 meaning="The mini network's target y"),
    cells("mx", MINI_X, -5.0, 5.0, 0.1, help="One input feature of the mini network.",
          name="x", meaning="Mini network: input x_i"),
    cells("mw", MINI_W1, -3.0, 3.0, 0.1, help="Layer-1 weight from input i to neuron j.",
          name="w", meaning="Mini network: layer-1 weight W_ij (input i, neuron j)"),
    cells("mb", MINI_B1, -3.0, 3.0, 0.1, help="Layer-1 bias of neuron j.",
          name="b", meaning="Mini network: layer-1 bias b_j"),
    cells("pw", MINI_W2, -3.0, 3.0, 0.1, help="Layer-2 weight from layer-1 neuron i.",
          name="w′", meaning="Mini network: layer-2 weight W′_i1"),
    cells("pb", MINI_B2, -3.0, 3.0, 0.1, help="Layer-2 bias.", name="b′", meaning="Mini network: layer-2 bias b′"),
    state.select_slider("lr", LRS, 0.05, "Learning rate", "How far one step moves every weight against its "
                        "gradient: new = old − rate × gradient.", meaning="The mini network's learning rate"),
    state.number("steps", 0, MAX_STEPS, 0, 1, "Steps taken", "Gradient-descent steps from the starting numbers "
                 "set above; the diagram and the equation show the network after them.",
                 meaning="Steps of gradient descent taken from the mini network's starting numbers",
                 values=f"0 to {MAX_STEPS} (`0`)"),
    # Depth.
    state.slider("scale", 0.5, 2.0, 1.5, 0.05, "Scale per layer", "How much one layer multiplies the size "
                 "of the numbers.", number_format="%.2f", meaning="Depth: the scale per layer"),
    state.select_slider("width", [8, 16, 32, 64, 128, 256], 64, "Width of each random layer",
                        "Each random matrix is width × width.", meaning="Depth: units per random layer"),
    state.slider("depth", 1, 40, 10, 1, "Depth (layers)", "How many layers are stacked.",
                 meaning="Depth: how many layers"),
    state.slider("seed", 0, 20, 0, 1, "Random seed", "Draw a different set of random matrices.",
                 meaning="Depth: the random matrices' seed"),
    # Many tokens.
    state.slider("tokens", 1, 8, 5, 1, "Tokens in the batch", "How many rows go through the layer "
                 "together; row 1 is the card's x.", meaning="Tokens in the batch"),
    # The recipe card's layer, set on /recipe-card (no controls here).
    state.select("mode", ["story", "plain"], "story", "Labels", "Words of the recipe card.", kind="radio",
                 meaning="The recipe card's words (set on /recipe-card)"),
    state.slider("nin", 1, MAX_SIZE, 3, 1, "Inputs n_in", "The card's inputs.",
                 meaning="The recipe card's inputs (set on /recipe-card)"),
    state.slider("nout", 1, MAX_SIZE, 2, 1, "Outputs n_out", "The card's outputs.",
                 meaning="The recipe card's outputs (set on /recipe-card)"),
    cells("x", X0, -3.0, 3.0, 0.1, help="The card's input.", meaning="The recipe card's x_i (set there)"),
    cells("w", W0, -2.0, 2.0, 0.1, help="The card's weight.", meaning="The recipe card's W_ij (set there)"),
    cells("b", B0, -2.0, 2.0, 0.1, help="The card's bias.", meaning="The recipe card's b_j (set there)"),
)
ASKS = asks.declare(  # what a lesson can ask about this page (lib/asks.py)
    asks.Ask("prediction", "What does the mini network predict, ŷ, after the steps taken?", "number",
             answers.mini_prediction, tolerance=0.05),
    asks.Ask("loss", "What is the loss (ŷ − y)² after the steps taken?", "number", answers.mini_loss,
             tolerance=0.05, rel=0.05),
    asks.Ask("folds", "Do the two layers fold into one layer, ŷ = x(WW′) + (bW′ + b′), for every input?",
             "choice", answers.mini_folds, choices=asks.YES_NO),
    asks.Ask("compound", "How many times larger are the numbers after the layers, each scaling them by the "
             "scale per layer?", "number", answers.compound_size, tolerance=0.01, rel=0.1),
    asks.Ask("batch_out", "How many numbers come out of Y = XW + b for the whole batch of tokens?", "number",
             answers.batch_outputs),
)
CARD_KEYS = ["mode", "nin", "nout", *[k for k in LINKS.links if k[0] in "xwb" and k[1:].isdigit()]]


def card():
    """The recipe card's layer, as its link says: x (nin,), W (nin, nout), b (nout,), names."""
    story = LINKS.value("mode") == "story"
    nin, nout = int(LINKS.value("nin")), int(LINKS.value("nout"))
    x = np.array([float(LINKS.value(cell_key("x", i + 1))) for i in range(nin)])       # (nin,)
    W = np.array([[float(LINKS.value(cell_key("w", i + 1, j + 1))) for j in range(nout)]
                  for i in range(nin)])                                               # (nin, nout)
    b = np.array([float(LINKS.value(cell_key("b", j + 1))) for j in range(nout)])       # (nout,)
    ins = FRUITS[:nin] if story else [sub(f"x{i + 1}") for i in range(nin)]
    outs = SMOOTHIES[:nout] if story else [sub(f"y{j + 1}") for j in range(nout)]
    return x, W, b, ins, outs


def _card_query() -> dict[str, str]:
    return {k: st.query_params[k] for k in CARD_KEYS if k in st.query_params}


# --- 1. The mini network -----------------------------------------------------------------------
@st.fragment
def mini() -> None:
    sizes = [MINI_X.size, MINI_W1.shape[1], MINI_W2.shape[1]]  # 3 -> 2 -> 1
    st.header("A mini network: " + "\u00a0→\u00a0".join(map(str, sizes)))
    st.markdown(
        "Stack a second layer after the first: its input is the first layer's output. Inside every "
        "neuron, four steps: multiply each input by its weight, add them up, add the bias, then **ReLU** "
        "(keep positives, turn negatives into 0). Layer two's weights wear a prime, w′.")
    k1, k2 = st.columns(2)
    with k1:
        relu_on = LINKS.widget("relu")
    with k2:
        target = LINKS.widget("target")
    from_link = any(k.startswith(MINI) for k in st.query_params)  # open it to show what the link set
    with st.expander("Change the mini network's numbers", icon=":material/tune:", expanded=from_link):
        st.markdown("**Input x** (three features of one token)")
        mx = slider_row(LINKS, "mx", 3)  # (3,)
        st.markdown("**Layer 1: W** (rows: inputs; columns: neurons) **and b**")
        mW1 = slider_grid(LINKS, "mw", 3, 2, row_labels=[sub(f"x{i + 1}") for i in range(3)],
                          col_labels=["**neuron 1**", "**neuron 2**"])  # (3, 2)
        mb1 = slider_row(LINKS, "mb", 2, lead="**b**")  # (2,)
        st.markdown("**Layer 2: W′ and b′** (one neuron, fed by the two outputs of layer 1)")
        mW2 = slider_grid(LINKS, "pw", 2, 1, row_labels=["out₁", "out₂"], col_labels=["**ŷ**"])  # (2, 1)
        mb2 = slider_row(LINKS, "pb", 1, lead="**b′**")  # (1,)
    bend = "relu" if relu_on else "identity"
    # The sliders hold the starting numbers; after k steps of learning (below) the network is lib's.
    k, lr = int(LINKS.value("steps")), float(LINKS.value("lr"))
    start = {"W1": mW1, "b1": mb1, "W2": mW2, "b2": mb2}
    now, losses = steps(start, mx, float(target), lr, k, bend)
    mW1, mb1, mW2, mb2 = now["W1"], now["b1"], now["W2"], now["b2"]
    if len(losses) - 1 < k:
        st.error(f"The loss blew up at step {len(losses)}: the rate {fmt.num(lr, 3)} is too large for this "
                 f"network. Showing it after the {len(losses) - 1} steps before; lower the rate.",
                 icon=":material/warning:")
    if k:
        st.caption(f":material/school: After {fmt.count(k)} step{'s' if k > 1 else ''} of learning (below): the "
                   "diagram, the table and the equation show the network as it has learnt; the sliders keep "
                   "its starting numbers.")
    z1, h1, _z2, y_hat = mini_network(mx, mW1, mb1, mW2, mb2, bend)  # (2,), (2,), (1,), (1,)
    loss = float(squared_error(y_hat, target)[0])
    grad = float(squared_error_grad(y_hat, target)[0])
    left, right = st.columns([3, 2], gap="large")
    with left:
        charts.show(figures.mini_diagram(mW1, mW2, mx, h1, y_hat), key="st_mini",
                    name="The mini network as a diagram: inputs, hidden units and output, a line per weight")
        st.caption("Lines are weights: blue positive, vermillion negative, grey dotted zero; "
                   "the circles hold each neuron's output.")
    with right:
        l1, l2 = st.columns(2, wrap=False)
        l1.metric("prediction ŷ", val(y_hat[0]))
        l2.metric("loss (ŷ − y)²", fmt.num(loss, 4, keep=1))
        st.metric("slope 2(ŷ − y)", val(grad))
        st.caption(f"The loss is ({val(y_hat[0])} − {val(target)})². Training turns every weight and bias "
                   "so the loss shrinks; the slope says which way ŷ must move.")
    neurons_table(mx, mW1, mb1, z1, h1, relu_on)
    st.markdown(f"So layer 1's output row is **{vec(h1)}**, and that row is layer 2's input.")

    one_equation(mx, (mW1, mb1, mW2, mb2), h1, y_hat, relu_on)
    one_step(mx, now, float(target), bend, losses)


def neurons_table(mx, W1, b1, z1, h1, relu_on: bool) -> None:
    """Layer 1's two neurons as a table (weights, bias, the weighted sum, the value after the bend), each
    sum written out below it as text: a table cell does not wrap, and the long sums made the table scroll
    sideways on a phone, past the column the answer is read from."""
    after = "after ReLU" if relu_on else "output (no ReLU)"
    terms = dot_terms(mx, W1)  # (3, 2)
    neurons = pd.DataFrame({
        "neuron": [1, 2],
        "weights": [vec(W1[:, j]) for j in range(2)],
        "bias": [val(b1[j]) for j in range(2)],
        "sum": [val(z1[j]) for j in range(2)],
        after: [val(h1[j]) for j in range(2)],
    })
    tables.grid(neurons, "Each hidden neuron: its output, weighted sum, weights and bias", width="stretch",
                column_order=["neuron", after, "sum", "weights", "bias"],
                column_config={"sum": st.column_config.TextColumn(
                    "sum", help="The weighted sum: each input times its weight, plus the bias")})
    st.markdown("  \n".join(  # one element: each line a neuron's weighted sum, written out
        f"Neuron {j + 1}: {plus([par(t) for t in terms[:, j]] + [par(b1[j])])} = **{val(z1[j])}**"
        for j in range(2)))


def one_equation(mx, params, h1, y_hat, relu_on: bool) -> None:
    """The whole mini network as one equation, with this run's numbers; without ReLU, the single layer
    it folds into."""
    mW1, mb1, mW2, mb2 = params
    st.subheader("The whole network is one equation")
    r = r"\operatorname{ReLU}" if relu_on else ""
    h = [tex(par(v)) for v in h1]
    # Short lines, so the equation fits a phone: the symbols, then this run's numbers.
    st.latex(
        rf"\begin{{aligned}}\hat y &= {r}\bigl(w'_{{11}}\,h_1 + w'_{{21}}\,h_2 + b'\bigr) \\ "
        rf"&= {r}\bigl({tex(par(mW2[0, 0]))} \cdot {h[0]} + {tex(par(mW2[1, 0]))} \cdot {h[1]} "
        rf"+ {tex(par(mb2[0]))}\bigr) \\ &= {tex(val(y_hat[0]))}\end{{aligned}}")
    st.caption(f"h₁ and h₂ are layer 1's outputs{' after ReLU' if relu_on else ''}, from the table above.")
    if not relu_on:
        Wc, bc = collapse(mW1, mb1, mW2, mb2)  # (3, 1), (1,)
        terms_c = [rf"{tex(par(a))} \cdot {tex(par(w))}" for a, w in zip(mx, Wc[:, 0], strict=True)]
        st.latex(rf"\begin{{aligned}}\hat y &= x(WW') + (bW' + b') \\ &= {plus(terms_c[:2])} \\ "
                 rf"&\quad + {plus([*terms_c[2:], tex(par(bc[0]))])} \\ "
                 rf"&= {tex(val(linear(mx, Wc, bc)[0]))}\end{{aligned}}")
        st.info("Without ReLU the two layers fold into **one** layer, x(WW′) + (bW′ + b′): three weights "
                "and a bias. The second layer bought nothing.", icon=":material/layers_clear:")


def _step_by(k: int) -> None:
    LINKS.set("steps", 0 if k == 0 else min(MAX_STEPS, int(LINKS.value("steps")) + k))


def one_step(x, p: dict, y: float, bend: str, losses: list[float]) -> None:
    """One step of learning, written out: the forward numbers, the chain rule for all 11 parameters with
    this run's numbers, central differences beside them, the dead neuron named, and steps."""
    st.subheader("One step of learning, written out")
    st.markdown("The loss sits outside every layer, yet it decides how every weight inside them moves, all "
                "at once: the **chain rule** carries its slope back through each layer. Each line below is one "
                "parameter's gradient, as the product of the factors on its path, with this network's numbers.")
    e = explain(x, p["W1"], p["b1"], p["W2"], p["b2"], y, bend)
    num = central(p, x, y, bend)
    f = r"\operatorname{ReLU}'" if bend == "relu" else "f'"
    n = tex
    # Short rows (the symbols, then the numbers), so every line fits a phone.
    st.latex(rf"\begin{{aligned}}\hat y &= {n(val(e.y_hat))} \\ "
             rf"L &= (\hat y - y)^2 = ({n(val(e.y_hat))} - {n(par(y))})^2 = {n(fmt.num(e.loss, 4, keep=1))} \\ "
             rf"\delta' = \tfrac{{\partial L}}{{\partial z'}} &= 2(\hat y - y)\,{f}(z') \\ "
             rf"&= {n(par(e.dy))} \cdot {n(val(e.slope2))} = {n(val(e.delta2))}\end{{aligned}}")
    lines = [(r"b'", r"\delta'", f"{n(val(e.delta2))}", e.grads["b2"][0], num["b2"][0])]
    for j in range(2):
        lines.append((rf"w'_{{{j + 1}1}}", rf"\delta' h_{j + 1}", rf"{n(par(e.delta2))} \cdot {n(par(e.h1[j]))}",
                      e.grads["W2"][j, 0], num["W2"][j, 0]))
    for j in range(2):
        path = rf"\delta' w'_{{{j + 1}1}}\,{f}(z_{j + 1})"
        nums = rf"{n(par(e.delta2))} \cdot {n(par(p['W2'][j, 0]))} \cdot {n(val(e.slope1[j]))}"
        lines.append((rf"b_{j + 1}", path, nums, e.grads["b1"][j], num["b1"][j]))
        for i in range(3):
            lines.append((rf"W_{{{i + 1}{j + 1}}}", rf"{path}\,x_{i + 1}", rf"{nums} \cdot {n(par(x[i]))}",
                          e.grads["W1"][i, j], num["W1"][i, j]))
    rows = [rf"\tfrac{{\partial L}}{{\partial {name}}} &= {path}"
            + ("" if numbers == n(val(g)) else f" \\\\ &= {numbers}") + f" = {n(val(g))}"
            for name, path, numbers, g, _ in lines]
    st.latex(r"\begin{aligned}" + r" \\ ".join(rows) + r"\end{aligned}")
    worst = max(abs(g - c) for *_, g, c in lines)
    st.caption(f"Each gradient beside its central-difference estimate (L(p + ε) − L(p − ε)) / 2ε with "
               f"ε = 10⁻⁶, nudging one parameter at a time: every one of the 11 {agrees(worst, 0.0)} or better.")
    table = pd.DataFrame({"parameter": [re_name(name) for name, *_ in lines],
                          "chain rule": [val(g) for *_, g, _ in lines],
                          "central difference": [fmt.num(c, 6, keep=1) for *_, c in lines],
                          "how close": [agrees(g, c) for *_, g, c in lines]})
    tables.grid(table, "Each parameter's gradient: the chain rule against the central difference",
                width="stretch", height="content")   # all 11 rows, no inner scroll
    for j in e.dead:
        st.warning(f"**Neuron {j + 1} is switched off for this input.** Its sum is {val(e.z1[j])}, so ReLU′ = 0, "
                   f"and its four parameters ({', '.join(re_name(f'W_{{{i}{j + 1}}}') for i in (1, 2, 3))}, "
                   f"{re_name(f'b_{j + 1}')}) get gradient 0: nothing it "
                   "holds can learn from this input. Change x or its weights until its sum is above 0, and its "
                   "gradients appear.", icon=":material/power_off:")
    step_controls(losses)


def step_controls(losses: list[float]) -> None:
    """The rate, the step buttons, the steps taken and the loss they reached."""
    c1, c2, c3, c4 = st.columns([2, 1, 1, 1], vertical_alignment="bottom")
    with c1:
        LINKS.widget("lr")
    c2.button("One step", icon=":material/skip_next:", on_click=_step_by, args=(1,), key="st_one_step",
              help="Move every parameter once: new = old − rate × gradient.", width="stretch")
    c3.button("Ten steps", icon=":material/fast_forward:", on_click=_step_by, args=(10,), key="st_ten_steps",
              help="Ten steps in a row.", width="stretch")
    c4.button("Back to the start", icon=":material/restart_alt:", on_click=_step_by, args=(0,),
              key="st_step_reset", help="Steps to 0: the starting numbers set by the sliders.", width="stretch")
    left, right = st.columns([1, 2], vertical_alignment="center")
    with left:
        LINKS.widget("steps")
        st.metric("loss now", fmt.num(losses[-1], 4, keep=1),
                  delta=None if len(losses) < 2 else change(losses[-1] - losses[0], 4, keep=1),
                  delta_color="inverse", help="The loss after the steps taken, and its change since the start.")
    with right:
        charts.show(figures.loss_figure(tuple(losses)), key="st_loss_steps")


def re_name(tex_name: str) -> str:
    """A parameter's LaTeX name as plain text for the table: W_{31} -> W₃₁, w'_{11} -> w′₁₁."""
    sub = str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉")
    base, _, idx = tex_name.replace("'", "′").partition("_")
    return base + idx.strip("{}").translate(sub)


# --- 2. Depth ----------------------------------------------------------------------------------
@st.fragment
def depth_section() -> None:
    st.header("Why depth needs care")
    st.markdown(
        "Every layer multiplies. If each layer makes the numbers a little bigger (or smaller), k layers "
        "make them that factor to the power k. Below, the arithmetic and a real stack of random "
        "matrices, built so each one scales sizes by the same factor on average.")
    e1, e2 = st.columns(2)
    with e1:
        scale = LINKS.widget("scale")
        width = LINKS.widget("width")
    with e2:
        depth = LINKS.widget("depth")
        seed = LINKS.widget("seed")
    sizes = compound(scale, depth)                 # (depth + 1,)
    measured = figures.stack(scale, depth, width, seed)   # (depth + 1,)
    ref_hi, ref_lo = compound(figures.REF_UP, depth), compound(figures.REF_DOWN, depth)
    charts.show(figures.depth_figure(scale, depth, width, seed), key="st_depth")
    q1, q2 = st.columns(2, wrap=False)
    q1.metric(f"{fmt.num(scale, 2)}^{depth}", sig(sizes[-1], 4))
    q2.metric(f"measured after {depth} layers", sig(measured[-1], 4))
    st.markdown(
        f"For comparison, over {depth} layers: a scale of {fmt.num(figures.REF_UP)} per layer (grows a little) gives "
        f"**{sig(ref_hi[-1], 4)}×**; {fmt.num(figures.REF_DOWN)} (shrinks a little) gives **{sig(ref_lo[-1], 3)}×**, "
        "almost zero.")
    st.caption(
        f"Indigo: the arithmetic; teal dots: measured; dashed: {fmt.num(figures.REF_UP)} and {fmt.num(figures.REF_DOWN)} "
        "per layer. Numbers that blow up "
        "or vanish make training unstable, and a real GPT stacks dozens of layers. That is what layer "
        "normalisation is built to control: it rescales each token's numbers after every block.")


# --- 3. Many tokens ----------------------------------------------------------------------------
@st.fragment
def tokens_section() -> None:
    x, W, b, ins, outs = card()
    nin, nout = W.shape
    st.header("Many tokens at once")
    st.markdown(
        "A language model runs the same layer on every token. Stack the tokens as rows of a matrix X: one "
        "multiplication handles them all, each row on its own, with the **same W** (the recipe card's).")
    tokens = LINKS.widget("tokens")
    X = batch_inputs(x, tokens)   # (tokens, nin)
    Y = linear(X, W, b)           # (tokens, nout)
    t1, t2 = st.columns(2)
    rows = [f"token {t + 1}" for t in range(tokens)]
    with t1:
        st.markdown(f"**X**, {fmt.shape(tokens, nin)}")
        tables.signed({c: X[:, j] for j, c in enumerate(ins)}, rows=rows, width="stretch",
                      caption="X: the inputs, one row per token")
    with t2:
        st.markdown(f"**Y = XW + b**, {fmt.shape(tokens, nout)}")
        tables.signed({c: Y[:, j] for j, c in enumerate(outs)}, rows=rows, width="stretch",
                      caption="Y = XW + b: the outputs, one row per token")
    shapes = pd.DataFrame({
        "tensor": ["x (input)", "W (weights)", "out"],
        "one token": [f"[1, {nin}]", f"[{nin}, {nout}]", f"[1, {nout}]"],
        f"{tokens} tokens": [f"[{tokens}, {nin}]", f"[{nin}, {nout}]", f"[{tokens}, {nout}]"],
    })
    tables.grid(shapes, "Each tensor's shape for one token and for the batch", width="stretch")
    same = bool(np.allclose(Y[0], linear(x, W, b)))
    st.caption(
        f"W stays [{nin}, {nout}] however many tokens come: the layer keeps one set of weights. Row 1 of Y "
        f"{'equals' if same else 'differs from'} the card's y; the token count never changes, only the "
        "feature count.")


# --- 4. Storage --------------------------------------------------------------------------------
def storage() -> None:
    x, W, b, ins, outs = card()
    nin, nout = W.shape
    st.header("How GPT-2 and PyTorch store the same layer")
    st.markdown(
        "GPT-2's original code stores W as **in × out** and computes xW + b. PyTorch's `nn.Linear` stores "
        "its `weight` as **out × in** and computes xWᵀ + b. Same numbers, transposed: the classic shape bug "
        "when porting weights.")
    weight = to_torch(W)                     # (nout, nin)
    y_gpt2 = linear(x, W, b)                 # (nout,)
    y_torch = linear_torch(x, weight, b)     # (nout,)
    g1, g2 = st.columns(2)
    with g1:
        st.markdown(f"**GPT-2 Conv1D**: W is {fmt.shape(nin, nout)} (in × out)")
        charts.show(figures.matrix_cells(W, tuple(ins), tuple(outs)), key="st_gpt2w",
                    name=f"GPT-2 Conv1D's W as cells, {fmt.shape(nin, nout)}")
    with g2:
        st.markdown(f"**nn.Linear**: weight is {fmt.shape(nout, nin)} (out × in)")
        charts.show(figures.matrix_cells(weight, tuple(outs), tuple(ins)), key="st_torchw",
                    name=f"nn.Linear's weight as cells, {fmt.shape(nout, nin)}")
    code_gpt2, code_torch = st.tabs(["GPT-2 style (NumPy)", "PyTorch nn.Linear"])
    code_gpt2.code(
        f"# weight stored (n_in, n_out) = ({nin}, {nout})\n"
        f"W = np.array({py_matrix(W)})\n"
        f"b = np.array({py_vec(b)})\n"
        f"x = np.array({py_vec(x)})\n"
        f"x @ W + b\n"
        f"# {py_vec(y_gpt2)}",
        language="python",
    )
    code_torch.code(
        f"# weight stored (n_out, n_in) = ({nout}, {nin})\n"
        f"layer = nn.Linear({nin}, {nout})\n"
        "with torch.no_grad():\n"
        f"    layer.weight.copy_(torch.tensor(\n"
        f"        {py_matrix(weight, 8)}))\n"
        f"    layer.bias.copy_(torch.tensor({py_vec(b)}))\n"
        f"layer(torch.tensor({py_vec(x)}))\n"
        f"# {py_vec(y_torch)}: x @ weight.T + bias",
        language="python",
    )
    match = bool(np.allclose(y_gpt2, y_torch))
    st.caption(f"Both give y = {vec(y_gpt2)}: {'identical' if match else 'different'} outputs, only the "
               "storage is transposed. Loading GPT-2 weights into nn.Linear takes one `.T`. Cells: blue "
               "positive, vermillion negative.")
    show_source(to_torch, linear_torch)


if __name__ == "__main__":
    st.title("Stacking layers")
    room.intro(
        "A network is layers in a row, each feeding the next. Between them sits a bend (ReLU): without it, "
        "two layers are only one. Move a number and follow it through.")
    mini()
    show_source(mini_network, squared_error, squared_error_grad)  # outside the fragment: not re-sent
    depth_section()
    show_source(compound, random_stack)
    st.header("Going further")
    st.page_link(RECIPE, label="Change the layer used below on the recipe card", icon=":material/grid_on:",
                 query_params=_card_query())
    tokens_section()
    storage()

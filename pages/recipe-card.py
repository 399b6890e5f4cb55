"""A layer is a matrix: the recipe card y = xW + b, live: the card, the network it draws, its sums.

The second half of the old page (many tokens, storage, the mini network, depth) is /stacking
(pages/stacking.py). An old /recipe-card link that carries one of its keys (?depth=20, ?mw11=...)
is forwarded there with its whole query, so the link still opens what it showed.
"""


import numpy as np
import streamlit as st

import engine.preload  # noqa: F401  (first: every module imported once before any page runs)
from lib import answers, asks
from lib.layers import linear, param_count
from lib.recipe import MAX_SIZE, default_layer, init_layer, scaled_parts
from pages.recipe_card import card
from pages.recipe_card.card import Layer, dot_text
from pages.recipe_card.card import bars as _bars  # noqa: F401  (tests build it validated through the page)
from pages.recipe_card.grid import apply_grid, cell_editor, fresh_grids
from ui import charts, fmt, room, state, tables
from ui.expr import val
from ui.slider_grid import cell_key, cells, grid_columns, slider_grid, slider_row, sub
from ui.source import show_source

FRUITS = ["apple", "banana", "mango", "strawberry", "kiwi", "peach", "blueberry", "pineapple"]
SMOOTHIES = ["Sunrise", "Jungle", "Berry", "Tropic", "Morning", "Pink", "Purple", "Zing"]
X0, W0, B0 = default_layer()  # (8,), (8, 8), (8,): every cell's starting number
SLIDER_ROWS, SLIDER_COLS = 4, 2  # a card up to 4 x 2 is edited with sliders; a bigger one as a grid
STACKING = "pages/stacking.py"

LINKS = state.Links(
    state.select("mode", ["story", "plain"], "story", "Labels",
                 "story: fruits, smoothies and yoghurt; plain: x, y and b.", kind="radio", horizontal=True,
                 meaning="Words on the card: `story` (fruits, smoothies, yoghurt) or `plain` (x, y, b)"),
    state.slider("nin", 1, MAX_SIZE, 3, 1, "Inputs n_in", "How many numbers go in: the rows of W.",
                 meaning="Inputs n_in: the rows of W"),
    state.slider("nout", 1, MAX_SIZE, 2, 1, "Outputs n_out", "How many neurons, one output each: the "
                 "columns of W.", meaning="Outputs n_out (neurons): the columns of W"),
    cells("x", X0, -3.0, 3.0, 0.1, help="One input: how much of it goes in.", hand=True,
          meaning="Input x_i (a value beyond the current size waits for its cell)"),
    cells("w", W0, -2.0, 2.0, 0.1, help="One weight: how much this input counts towards this output.",
          hand=True, meaning="Weight W_ij: row i (input), column j (output)"),
    cells("b", B0, -2.0, 2.0, 0.1, help="One bias per output, added after the dot product.", hand=True,
          meaning="Bias b_j of output j"),
    state.slider("times", 0.0, 3.0, 2.0, 0.5, "Multiply the input by k",
                 "k: scale every input by the same factor (2 = double the input).",
                 meaning="k in “multiply the input by k” (linearity)"),
)

# What a lesson can ask about this page (lib/asks.py), the answer computed from a step's link values.
ASKS = asks.declare(
    asks.Ask("y", "What is output y{j}: the inputs times column {j} of W, plus the bias b{j}?", "number",
             answers.recipe_output, tolerance=0.05, params=(asks.Param("j", "output", 1, 1, MAX_SIZE),)),
    asks.Ask("params", "How many parameters (weights and biases) does this layer have?", "number",
             answers.recipe_params),
)


def _forward_moved_links() -> None:
    """Keys of the old page's second half open /stacking, with the link's whole query."""
    if not st.query_params:
        return
    if any(k in card.MOVED for k in st.query_params):
        st.switch_page(STACKING, query_params={k: st.query_params.get_all(k) for k in st.query_params})


def _grids(story: bool, nin: int, nout: int, ins: list, outs: list) -> list[dict]:
    """A big card's two grids (inputs with their weights; the biases), or none for a small card."""
    if nin <= SLIDER_ROWS and nout <= SLIDER_COLS:
        return []
    name = f"card_{'story' if story else 'plain'}_{nin}x{nout}"
    return [
        dict(name=name, columns=["input x", *outs], rows=ins,
             keys=[[cell_key("x", i + 1), *[cell_key("w", i + 1, j + 1) for j in range(nout)]]
                   for i in range(nin)]),
        dict(name=name + "_b", columns=outs, rows=["yoghurt" if story else "bias b"],
             keys=[[cell_key("b", j + 1) for j in range(nout)]]),
    ]


def the_layer() -> Layer:
    """Read once, before the sections: every section draws the same card."""
    story = LINKS.value("mode") == "story"
    nin, nout = int(LINKS.value("nin")), int(LINKS.value("nout"))
    ins = FRUITS[:nin] if story else [sub(f"x{i + 1}") for i in range(nin)]
    outs = SMOOTHIES[:nout] if story else [sub(f"y{j + 1}") for j in range(nout)]
    for grid in _grids(story, nin, nout, ins, outs):
        apply_grid(LINKS, **grid)  # what was typed into the grid, before anything reads the cells
    x = np.array([float(LINKS.value(cell_key("x", i + 1))) for i in range(nin)])       # (nin,)
    W = np.array([[float(LINKS.value(cell_key("w", i + 1, j + 1))) for j in range(nout)]
                  for i in range(nin)])                                               # (nin, nout)
    b = np.array([float(LINKS.value(cell_key("b", j + 1))) for j in range(nout)])       # (nout,)
    return Layer(x, W, b, story, ins, outs)


def card_query(layer: Layer) -> dict[str, str]:
    """The card's link values that differ from the defaults (for the link to /stacking)."""
    nin, nout = layer.W.shape
    keys = ["mode", "nin", "nout", *[cell_key("x", i + 1) for i in range(nin)],
            *[cell_key("w", i + 1, j + 1) for i in range(nin) for j in range(nout)],
            *[cell_key("b", j + 1) for j in range(nout)]]
    out = {}
    for k in keys:
        v = LINKS.value(k)
        if v != LINKS[k].default:  # plain numbers and words: a value equal to the default stays out
            out[k] = LINKS[k].to_text(v)
    return out


def _fill(how: str) -> None:
    """New numbers on the card (a button's on_click): random tenths, zeros, or the starting numbers."""
    nin, nout = int(LINKS.value("nin")), int(LINKS.value("nout"))
    if how == "start":
        W, b = W0[:nin, :nout], B0[:nout]
        for i in range(nin):
            LINKS.set(cell_key("x", i + 1), float(X0[i]))
    else:
        count = st.session_state.get("recipe_fills", 0) + 1  # a new draw on every click
        st.session_state["recipe_fills"] = count
        W, b = init_layer(nin, nout, how, seed=count)
    for i in range(nin):
        for j in range(nout):
            LINKS.set(cell_key("w", i + 1, j + 1), float(W[i, j]))
    for j in range(nout):
        LINKS.set(cell_key("b", j + 1), float(b[j]))
    fresh_grids()


# --- 1. The recipe card ------------------------------------------------------------------------
def _sliders(layer: Layer) -> None:
    """A small card: one slider per number, in the card's own shape."""
    nin, nout = layer.W.shape

    def x_slider(i: int) -> None:
        key = cell_key("x", i + 1)
        label = f"{layer.ins[i]} ({sub(key)})" if layer.story else layer.ins[i]
        LINKS.widget(key, label="\u2002" + label, help=f"Input {i + 1}: how much {layer.ins[i]} goes in.")

    slider_grid(LINKS, "w", nin, nout, col_labels=[f"**{n}**" for n in layer.outs], lead=x_slider,
                lead_title="**input x**", lead_width=1.3)
    slider_row(LINKS, "b", nout, lead=f"**{layer.bias}**", lead_width=1.3)
    cols = grid_columns([1.3] + [1.0] * nout)  # lined up under the grid
    cols[0].markdown("**= output y**")
    for j in range(nout):
        cols[j + 1].metric(layer.outs[j], val(layer.y[j]))


def _grid(layer: Layer) -> None:
    """A big card: one grid (inputs down, the input x and then one column per output across)."""
    nin, nout = layer.W.shape
    for grid in _grids(layer.story, nin, nout, layer.ins, layer.outs):
        cell_editor(LINKS, **grid)
    tables.signed({o: [y] for o, y in zip(layer.outs, layer.y, strict=True)}, rows=["= output y"],
                  width="stretch", caption="The outputs y = xW + b")


def _framed() -> bool:
    """The page in the projector's frame (classroom/lead.py `view`: embed=true in the room view): a picture
    for the room, nobody's hand on it. There the fill buttons were cut to "R…/A…/S…" and the card's
    sliders scrolled their second column out of the frame (three columns at 1.6 times the size)."""
    return bool(st.context.is_embedded) and room.on()


def _card_hidden(nin: int, nout: int) -> bool:
    """The link folds the card's numbers away (hide=all, or the room's view), or the projector frames the
    page (`_framed`): nothing on it to edit, the card as a table to read."""
    if _framed():
        return True
    hidden = LINKS.hidden()
    return all(cell_key("w", i + 1, j + 1) in hidden for i in range(nin) for j in range(nout))


def _card_table(layer: Layer) -> None:
    """The card as a table to read, for a link that hides its controls: the inputs and their weights,
    the biases, and the outputs, in the card's own shape."""
    nin, _nout = layer.W.shape
    rows = [[val(layer.x[i])] + [val(w) for w in layer.W[i]] for i in range(nin)]
    rows.append([""] + [val(b) for b in layer.b])
    rows.append([""] + [f"**{val(y)}**" for y in layer.y])
    head = ["", "input x", *list(layer.outs)]
    names = [*list(layer.ins), layer.bias, "= output y"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    lines += ["| " + " | ".join([f"**{n}**", *r]) + " |" for n, r in zip(names, rows, strict=True)]
    st.markdown("\n".join(lines))


def _fill_buttons() -> None:
    f1, f2, f3 = st.columns(3)
    f1.button("Random weights", on_click=_fill, args=("random",), icon=":material/casino:",
              width="stretch", help="Fill W and b with random tenths (W in −1..1, b in −0.5..0.5).")
    f2.button("All zeros", on_click=_fill, args=("zero",), icon=":material/exposure_zero:",
              width="stretch", help="Set every weight and bias to 0: every output becomes 0.")
    f3.button("Starting numbers", on_click=_fill, args=("start",), icon=":material/restart_alt:",
              width="stretch", help="Back to the seed example (and fixed numbers beyond it).")


def recipe_card(layer: Layer) -> None:
    nin, nout = layer.W.shape
    st.header("The recipe card")
    big = bool(_grids(layer.story, nin, nout, layer.ins, layer.outs))
    # A small card sits beside its network; a big one takes the full width (a grid needs it), with
    # the network and W below it.
    left, right = (st.container(), st.columns([3, 2], gap="large")) if big else st.columns([3, 2], gap="large")
    with left:
        if layer.story:
            st.markdown(
                "A smoothie bar's recipe card: each **row** is a fruit, each **column** a smoothie, a cell "
                "how much of that fruit goes in. **x** is today's fruit, **b** a scoop of yoghurt per "
                "smoothie. (Negative amounts are fine: this is maths, not a kitchen.)")
        else:
            st.markdown("Each **row** of W belongs to one input, each **column** to one output neuron.")
        if _card_hidden(nin, nout):   # a link for the room (hide=all, big=true): the card as numbers
            _card_table(layer)
        elif big:
            _grid(layer)
        else:
            _sliders(layer)
        if not _card_hidden(nin, nout):
            _fill_buttons()
        # The card's size and words under it: the card and its answer come first on the first screen.
        t1, t2, t3 = st.columns([1.2, 1, 1])
        with t1:
            LINKS.widget("mode")
        with t2:
            LINKS.widget("nin", label=f"n_in ({layer.fruit}s)")
        with t3:
            LINKS.widget("nout", label=f"n_out ({layer.smoothie}s)")
    ins, outs = tuple(layer.ins), tuple(layer.outs)
    net, cells_at = (right[0], right[1]) if big else (right, right)
    with net:
        charts.show(card.diagram(layer.W, layer.x, layer.y, ins, outs), key="rc_diagram",
                    name=f"The recipe card as a network: each {layer.fruit} an input, each "
                    f"{layer.smoothie} an output, a line per weight")
        st.markdown(f"The same numbers as a network: each {layer.fruit} a circle on the left, each neuron a "
                    "circle on the right with its output inside. Every line is **one weight**, one cell of "
                    "W: blue positive, vermillion negative, thicker for bigger. Hover a line: it names its "
                    "cell.")
        _outputs_as_text(layer)
    with cells_at:
        charts.show(card.cells(layer.W, ins, outs), key="rc_wcells",
                    name=f"W as cells, {fmt.shape(nin, nout)}: one row per {layer.fruit}, one column per "
                    f"{layer.smoothie}")
        st.caption(f"W as cells, {fmt.shape(nin, nout)}: one row per {layer.fruit}, one column per "
                   f"{layer.smoothie}, in the same colours.")


def _outputs_as_text(layer: Layer) -> None:
    """The network's answer in words and a table (issue 35 item 2): each output y = xW + b."""
    part = layer.x @ layer.W                                              # (nout,) the input part xW
    charts.answer(
        "Outputs y = xW + b: " + ", ".join(f"{n} {val(y)}" for n, y in zip(layer.outs, layer.y, strict=True))
        + ".",
        [layer.smoothie, f"{layer.fruit} part xW", layer.bias, "output y"],
        [[n, val(p), val(b), val(y)] for n, p, b, y in zip(layer.outs, part, layer.b, layer.y, strict=True)])


# --- 2. The arithmetic -------------------------------------------------------------------------
def arithmetic(layer: Layer) -> None:
    nin, nout = layer.W.shape
    st.header("The arithmetic, written out")
    st.markdown(f"Every {layer.smoothie} is a dot product: the {layer.fruit}s times one column of W, "
                f"plus one {layer.bias}.")
    for j in range(nout):
        # Markdown, not LaTeX: a long sum wraps on a phone instead of running off the edge.
        st.markdown(f"**{layer.outs[j]}** = {dot_text(layer.x, layer.W[:, j], layer.b[j])} "
                    f"= **{val(layer.y[j])}**")
    st.markdown("The **parameters** (numbers the layer learns) are every weight plus every bias, "
                r"$n_{\text{in}} \times n_{\text{out}} + n_{\text{out}}$:")
    m1, m2, m3 = st.columns(3)  # they stack on a phone rather than cut "8 × 8 = 64" short
    m1.metric("weights", f"{fmt.shape(nin, nout)} = {fmt.count(param_count(nin, nout, bias=False))}")
    m2.metric("biases", fmt.count(nout))
    m3.metric("parameters", fmt.count(param_count(nin, nout)))
    st.caption(f"Nothing about a layer needs three {layer.fruit}s and two {layer.smoothie}s: change the "
               "sizes at the top of the card, and the card, the network and these counts follow.")
    show_source(linear, param_count)


# --- 3. Linearity ------------------------------------------------------------------------------
@st.fragment
def linearity(layer: Layer) -> None:
    x, W, b = layer.x, layer.W, layer.b
    st.header(f"Double the {layer.fruit}")
    st.markdown(
        f"A layer is *linear* in its input: multiply the {layer.fruit}s by k and the {layer.fruit} part xW "
        f"of every {layer.smoothie} is multiplied by k. The {layer.bias} does not change.")
    times = LINKS.widget("times", help=f"k: scale every input by the same factor (2 = double the "
                                       f"{layer.fruit}s).")
    k = val(times)
    part1, bias, y1 = scaled_parts(x, W, b, 1.0)   # (nout,) each
    partk, _, yk = scaled_parts(x, W, b, times)    # (nout,) each
    nout = len(layer.outs)
    order = [g for n in layer.outs for g in (f"{n} · x", f"{n} · {k}x")]
    parts = [v for j in range(nout) for v in (part1[j], partk[j])]
    biases = [bias[j] for j in range(nout) for _ in (0, 1)]
    charts.show(card.bars(tuple(order), tuple(np.round(parts, 6)), tuple(np.round(biases, 6)), layer.fruit,
                      layer.bias), key="rc_linearity")
    table = {
        "output": list(layer.outs),
        f"{layer.fruit} part xW": part1,
        f"{layer.fruit} part with {k}x": partk,
        "bias b": bias,
        "y with x": y1,
        f"y with {k}x": yk,
    }
    # Short headers, the answers first: six columns fit a phone's 420 px with nothing scrolled out of
    # sight (each header's help gives its full name).
    part, part_k = f"{layer.fruit} part xW", f"{layer.fruit} part with {k}x"
    short = {"y with x": ("y", "y = xW + b"), f"y with {k}x": (f"y at {k}x", f"y with {k}x: {k}·xW + b"),
             part: ("xW", f"The {part}."), part_k: (f"xW at {k}x", f"The {part_k}: {k} times xW."),
             "bias b": ("b", f"The {layer.bias}: the same at any k.")}
    tables.signed(table, width="stretch", column_order=["output", *short], caption=f"Each output y with x and with {k}x, "
                  f"its {layer.fruit} part xW and its bias b",
                  column_config={c: st.column_config.Column(label, help=help) for c, (label, help) in short.items()})
    st.caption(f"Blue (positive) or vermillion (negative): the {layer.fruit} part, exactly {k} times as big; "
               f"sand: the {layer.bias}, which "
               "stays put, so y is not. With no bias, a layer would scale all the way through.")


def going_further(layer: Layer) -> None:
    st.header("Going further")
    st.markdown("Stack two of these layers with a bend between them, run one on many tokens at once, "
                "store it the way GPT-2 and PyTorch do, and see what depth does to the numbers:")
    st.page_link(STACKING, label="Stacking layers: the next lesson, with this card's layer",
                 icon=":material/stacks:", query_params=card_query(layer))


@st.fragment
def lesson() -> None:
    """Every section reads the card, so they rerun together, as one fragment (the title above does
    not); the linearity section's own slider reruns that section alone (a fragment inside)."""
    layer = the_layer()
    recipe_card(layer)
    arithmetic(layer)
    linearity(layer)
    going_further(layer)


if __name__ == "__main__":
    _forward_moved_links()
    st.title("A layer is a matrix")
    room.intro(
        "A layer of a neural network takes a row of numbers **x** and returns a new row **y = xW + b**: "
        "each output is one *neuron*, a column of the weight matrix **W** dotted with the input, plus "
        "its own bias. Move any number on the card: the network beside it follows.")
    lesson()

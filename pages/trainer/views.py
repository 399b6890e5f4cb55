"""The pieces of the sections under the live trainer (pages/trainer.py's tabs): the bend's two pictures and
the single layer its network collapses to, the unit maps and the linear regions, the warped plane's layer
and units, and the figure cache the sections share. Each reads the session's run (pages/trainer/run.py) and draws
from the weights as they stand.
"""

from __future__ import annotations

import plotly.graph_objects as go
import streamlit as st

from lib.activations import ACTIVATIONS
from lib.features import FEATURES
from lib.maps import UNIT_RES, unit_maps
from lib.mlp import collapse_params, step_sizes
from lib.regions import region_ids
from lib.warp import on_axes
from pages.trainer import charts as tc
from pages.trainer import inside_charts as ic
from pages.trainer import run as tr
from pages.trainer.links import ACTS, LINKS, OPT_NAMES, parse_units
from pages.trainer.live import curve_chart, edge_cells, is_curve, look, plane
from ui import charts, fmt, state, tables, tex
from ui.frozen import frozen
from ui.light import Light

WARP_LINES, WARP_SAMPLES = 13, 60   # the grid over the square: lines each way, points along each


def sendable(fig: go.Figure) -> go.Figure:
    """A finished figure ready to be sent again and again: a Light one as it is (its sent dict is made
    once), any other frozen (ui.frozen)."""
    if isinstance(fig, Light):
        fig.to_dict()  # the sent dict, now: a figure shared by sessions is then only read
        return fig
    return frozen(fig)


def weighted_sum(weights, names, bias: float) -> str:
    """w1·x₁ − w2·x₂ + b, each sign written once: 1.51·x₁ − 0.628·x₂ − 0.507 (any number of inputs)."""
    text = ""
    for v, name in [*zip(weights, names, strict=True), (bias, "")]:
        minus = fmt.num(v).startswith(fmt.MINUS)
        sign = (fmt.MINUS if minus else "") if not text else (f" {fmt.MINUS} " if minus else " + ")
        text += f"{sign}{fmt.num(abs(v))}{'·' + name if name else ''}"
    return text


def bend_pictures_other(spec: tr.Spec, run: tr.Run, bend: str, figs: dict, xs, ys) -> None:
    """The bend on and off for k classes and for values: the same two pictures; the printed single
    layer is written for two classes only."""
    key = tr.weights_key(run)
    d = run.data
    left, right = st.columns(2)
    for col, act, name, title in ((left, spec.act, "bend_before", f"As trained: {ACTS[spec.act]}"),
                                  (right, bend, "bend_after", f"Same weights: {ACTS[bend]}")):
        with col:
            if is_curve(run):
                fig = cached(figs, name, (key, act, "curve"), lambda act=act, title=title: curve_chart(
                    spec, run, act=act, title=title, twin=False), shared=run.hand)
            else:
                fig = cached(figs, name, (key, act, spec.problem), lambda act=act, title=title: tc.boundary_figure(
                    xs, ys, plane(spec, run.trainer, act, d, False), d, title=title, live=False,
                    height=420, edge=edge_cells(spec, run.trainer, act, d), **look(spec, d)), shared=run.hand)
            charts.show(fig, key=f"trainer_{name}")
    if bend == "identity":
        what = "a straight line" if is_curve(run) else "a tilted plane"
        st.caption(f"Without bends the layers multiply into one linear layer: the network draws {what}"
                   + ("" if spec.problem == "regress" else ", and its class borders are straight")
                   + ". The printed single layer is written for two classes only.")
    elif bend == spec.act:
        st.caption("The bend it was trained with: the two pictures are the same.")


def cached(figs: dict, key: str, want, build, shared: tuple | None = None):
    """The figure stored under `key` if it was built for `want`, else a new one (kept in the session).

    A figure sent a second time unchanged is frozen (ui.frozen: st.plotly_chart then skips plotly's deep
    copy of it); nothing changes these figures once built. The first send is not: most are sent once.
    shared : when `want` holds the weights themselves (run.weights_key), what else the picture
        depends on (the points placed by hand): the figure then comes from a cache the sessions share,
        so a class on one link builds each epoch-0 picture once.
    """
    entry = figs.get(key)
    if entry is None or entry[0] != want:
        fig = _shared_figure((key, want, shared), build) if shared is not None else build()
        figs[key] = entry = (want, fig)
        return fig
    return sendable(entry[1])


@st.cache_resource(max_entries=128, show_spinner=False)
def _shared_figure(want, _build):
    """A picture of trained weights that is pure in `want`, frozen and never changed afterwards: sessions
    share it (st.cache_resource hands out the object itself)."""
    return sendable(_build())


def unit_maps_figure(spec: tr.Spec, t, d: tr.Data, li: int, units: int, xs, ys, folds, live: bool):
    """The first `units` maps of hidden layer `li`, titled with their out weights when they feed the output."""
    H = unit_maps(t.params, spec.feat, d.limit, spec.act, li, units)          # (units, 60, 60)
    last = li == len(spec.hidden) - 1
    one_out = t.params[-1][0].shape[1] == 1
    W_out = t.params[li + 1][0] if last and one_out else None                 # (units, 1) into the output
    titles = []
    for j in range(units):
        name = f"h{j + 1}" if len(spec.hidden) == 1 else f"h{li + 1}.{j + 1}"
        titles.append(f"{name} · out {fmt.signed(W_out[j, 0])}" if W_out is not None else name)
    return ic.unit_maps_figure(xs, ys, H, titles=titles, limit=d.limit,
                               folds=folds[:units] if li == 0 and folds else None,
                               cols=4 if units <= 8 else 6, live=live)


def warp_layer(widths: tuple) -> int:
    """The hidden layer to look through: the link's or the student's, if the network has it; else the
    first, with one line saying what was ignored."""
    choices = tuple(range(1, len(widths) + 1))
    LINKS.vary("wlayer", choices=choices)
    raw = st.session_state.get("wlayer", st.query_params.get("wlayer"))
    if raw is not None and raw not in choices and str(raw) not in map(str, choices):
        have = "one hidden layer" if len(widths) == 1 else f"hidden layers 1 to {len(widths)}"
        LINKS.note("wlayer", f"Ignored `wlayer={state.shown(raw)}`: this network has {have}; using 1.", 1)
        st.query_params.pop("wlayer", None)   # a link's value would win over the state on a first draw
        st.session_state["wlayer"] = 1
    return int(LINKS.widget("wlayer"))


def warp_units(layer: int, width: int) -> tuple[int, int]:
    """The two units drawn across and up: the box's (the link's at first), if layer `layer` has them; else
    1 and 2, with one line saying what was ignored (the box keeps the text, as for a text that does not
    parse)."""
    typed = st.session_state.get("wunits", st.query_params.get("wunits"))
    try:
        asked = parse_units(typed) if typed is not None else None
    except ValueError:
        asked = None   # the box says why itself
    if asked is not None and max(asked) > width:
        LINKS.note("wunits", f"Ignored `wunits={state.shown(typed)}`: layer {layer} has {width} units; "
                             "using 1,2.", typed)
    units = LINKS.widget("wunits")
    if max(units) > width:
        units = LINKS.accept("wunits", (1, 2))[0]   # the last good value, for a text that does not parse
    return units


def warp_words(spec: tr.Spec, params, layer: int, units: tuple[int, int], H, curve: bool) -> str:
    """What the picture shows for this bend, in one or two sentences with the live network's numbers."""
    what, surface = ("line", "line") if curve else ("grid", "plane")
    u, v = units
    layers = "layer 1 is" if layer == 1 else f"layers 1 to {layer} are"
    if spec.act == "identity":
        if list(spec.feat) != (["x1"] if curve else ["x1", "x2"]):
            return (f"The bend is off (identity), so {layers} one affine map of the inputs; but the hand-made "
                    f"inputs are already bent functions of x₁{'' if curve else ' and x₂'}, so the {what} arrives "
                    "curved and the layers only shear what they made.")
        W, b = collapse_params(params[:layer])
        names = [FEATURES[f].label for f in spec.feat]
        stays = ("stays a straight line" if curve else
                 "stays a sheared grid: straight lines stay straight and parallel ones parallel")
        return (f"The bend is off (identity), so {layers} one affine map: unit {u} = "
                f"**{weighted_sum(W[:, u - 1], names, b[u - 1])}** and unit {v} = "
                f"**{weighted_sum(W[:, v - 1], names, b[v - 1])}**. A linear layer only shears, stretches and "
                f"shifts, so the {what} {stays}.")
    if spec.act == "relu":
        x0, y0, both = on_axes(H)
        return (f"With ReLU the {what} folds onto the axes: a unit whose sum is below 0 outputs 0, which "
                f"flattens that part of the {surface} onto an axis. Here unit {u} is 0 on **{fmt.pct(x0)}** of "
                f"the {what} and unit {v} on **{fmt.pct(y0)}**; **{fmt.pct(both)}** lands on the corner (0, 0).")
    return (f"With {ACTS[spec.act]} the {what} bends but does not fold flat onto an axis: unlike ReLU, it "
            "sends no whole region to exactly 0.")


def collapsed_layer(spec: tr.Spec, W, b, gap: float) -> None:
    """The network with its bends taken out, written as the one linear layer it collapses to (two
    classes): P(class 1) = σ(xW + b), W and b printed, and the line P = ½ for the plain inputs."""
    names = [FEATURES[f].label for f in spec.feat]
    k = len(spec.hidden) + 1
    # Short lines rather than one long one: a phone shows each whole.
    st.latex(r"P(\text{class }1) = \sigma\!\left(x W + b\right)")
    product = "W_1" if k == 1 else ("W_1 W_2" if k == 2 else r"W_1 W_2 \cdots W_{" + str(k) + "}")
    st.latex(rf"W = {product} = " + tex.bmatrix(W))
    bias = "b_1" if k == 1 else ("b_1 W_2 + b_2" if k == 2 else r"\ldots")
    st.latex(rf"b = {bias} = " + fmt.tex(b[0], 3, fixed_digits=True))
    st.caption("x = (" + ", ".join(names) + "). The network without its bends and this single layer "
               f"differ by at most {fmt.gap(gap)} over the square.")
    if list(spec.feat) == ["x1", "x2"]:
        st.markdown(f"The boundary is the line **{weighted_sum(W[:, 0], ('x₁', 'x₂'), b[0])} = 0** "
                    "(dashed), where P = ½.")


def regions(spec: tr.Spec, run: tr.Run, figs: dict, xs, ys, F, folds) -> None:
    """The linear regions: the square coloured by which hidden units are on, and how many regions."""
    t, d, net = run.trainer, run.data, tr.net_key(run)
    ids, count = tr.memo(figs, "region_ids", (net, spec.act), lambda: region_ids(t.params, F, spec.act))
    r1, r2 = st.columns([3, 2])
    with r1:
        charts.show(ic.live_regions(figs, "regions", xs, ys, ids.reshape(len(ys), len(xs)), limit=d.limit,
                                    folds=[s for s in folds if s is not None] if folds else [],
                                    data=d if spec.head != "linear" else None, sig=(run.sig, run.hand)),
                    key="trainer_regions")
    with r2:
        st.metric("Linear regions over the square", fmt.count(count),
                  help=f"Distinct on/off patterns of the hidden units seen on a {UNIT_RES} × {UNIT_RES} grid.")
        relu_like = spec.act in ("relu", "identity")
        st.markdown(
            "Inside one coloured region the same units are on, so the network is one linear function "
            "there: a ReLU network is **piecewise linear**, and the boundary is made of straight pieces. "
            + ("" if relu_like else f"With {ACTS[spec.act]} the bend is smooth, so the pieces "
               "are only nearly linear; the colours still show which units are above 0.")
        )


def followed_point(spec: tr.Spec, d: tr.Data, i: int, got: dict, act: str, head: str) -> None:
    """Training point i through the network (lib.mlp.follow's numbers): its inputs and answer, each hidden
    layer's sums, outputs and deltas, then its prediction and loss."""
    names = [FEATURES[f].label for f in spec.feat]
    inputs = ", ".join(f"{name} = {fmt.num(v)}" for name, v in zip(names, d.Ftr[i], strict=True))
    truth = (f"class {int(d.ytr[i])}" if head != "linear" else f"value {fmt.num(float(d.ytr[i]))}")
    st.markdown(f"**In:** {inputs}; the answer is {truth}.")
    bend = ACTIVATIONS[act].label
    for k, (z, h, delta, passes) in enumerate(zip(got["z"], got["h"], got["delta"], got["passes"], strict=False)):
        off = int((~passes).sum())
        st.markdown(f"**Hidden layer {k + 1}**: each unit's sum, {bend}, its output, and δ = ∂loss/∂sum "
                    "(how much the loss would change if that sum moved a little)"
                    + (f" ({off} unit{'s' if off != 1 else ''} at a flat part of the bend pass no gradient "
                       "back: nothing before them learns from this point through them)" if off else ""))
        tables.grid(ic.follow_table(z, h, delta, passes), f"Hidden layer {k + 1}: each unit's sum, output and δ",
                    width="stretch")
    if head == "softmax":
        said = "P(each class) = " + ", ".join(fmt.num(float(v)) for v in got["p"])
    else:
        said = (f"P(class 1) = {fmt.num(float(got['p']))}" if head == "sigmoid"
                else f"the value {fmt.num(float(got['p']))}")
    st.markdown(f"**Out:** {said}; this point's loss is **{fmt.num(got['loss'])}** "
                f"(δ at the output: {', '.join(fmt.num(float(v)) for v in got['delta'][-1])}; "
                f"sum {', '.join(fmt.num(float(v)) for v in got['out'])}).")


def step_words(params, got: dict, lr: float, opt: str) -> str:
    """How far one plain gradient step on this point alone would move each layer (lib.mlp.step_sizes)."""
    rows = [f"layer {k + 1}: {fmt.num(move)}" + (f" ({fmt.pct(move / size)} of its weights' size)" if size else "")
            for k, (move, size) in enumerate(step_sizes(params, got["grads"], lr))]
    return (f"**One step on this point alone** (plain gradient descent at rate {fmt.num(lr)}; "
            f"{OPT_NAMES.get(opt, opt)} rescales it) would move " + "; ".join(rows) + ".")

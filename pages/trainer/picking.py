"""Points placed by hand on the trainer's map, as in ConvNetJS: click the plane to add a point of the
chosen class (or value), click one of your points to remove it.

Streamlit's plotly point selection reports a click only on a point of a trace, so a picking grid of
invisible points (lib.points.hand_grid) lies over the plane: a click selects the nearest grid place,
and the callback adds a point there. Your points are a trace of rings on top of the squares every
point has; a click on one selects it, and the callback removes it. The points live in the page's
link (`pts`, lib.points.encode_hand); what the callback changes reaches the rest of the page in a
full rerun (the live fragment asks for it: `moved()`).
"""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go
import streamlit as st

from lib.points import HAND_GRID, HAND_MAX, add_hand, decode_hand, encode_hand, hand_grid, remove_hand
from pages.trainer import run as tr
from pages.trainer.charts import class_label
from ui import colors, room
from ui.plotly_private import NO_VALIDATION

MODE = "trainer_pick"           # what a click adds: None (nothing), a class, or "value"
VALUE = "trainer_pick_value"    # the value a click adds on the plane (regress)
CONTEXT = "trainer_pick_ctx"    # what the callback needs: the page's problem, classes, plane and links
NOTE = "trainer_pick_note"      # the one line a refused click leaves under the map
MOVED = "trainer_hand_moved"    # a click changed the points: the page reruns whole
TYPED = ("trainer_typed_x", "trainer_typed_y")   # a point typed by its coordinates (the keyboard's way)
ADD, MINE = "add", "mine"       # legend groups of the picking grid and of your points
VALUE_RANGE = (-3.0, 3.0)       # a plane's new value: the built-in sets stay within -1.6 to 3


# --- figures -------------------------------------------------------------------------------------
def hand_xy(data) -> tuple[np.ndarray, np.ndarray]:
    """Where your points are: the last data.hand training points (x1, x2), or (x, value) on a curve."""
    if not data.hand:
        return np.zeros(0), np.zeros(0)
    X, y = data.Xtr[-data.hand:], data.ytr[-data.hand:]
    if X.shape[1] == 1:
        return X[:, 0].astype(float), np.asarray(y, dtype=float)
    return X[:, 0].astype(float), X[:, 1].astype(float)


def traces(data, xlim: float, ylim: tuple[float, float] | None, adding: str | None) -> list[dict]:
    """Your points as rings (always, so a class sees which points were placed by hand) and, while a
    click adds points (`adding` says what, for the hover), the picking grid under them.

    ylim : the grid's vertical range on a curve's chart, None on the plane ([-xlim, xlim])
    """
    out = []
    if adding:
        gx, gy = hand_grid(xlim)
        if ylim is not None:  # a curve: x across, the value up
            ys = np.round(np.linspace(ylim[0], ylim[1], 21), 2)                       # (21,)
            gx, gy = np.meshgrid(np.unique(gx), ys)
            gx, gy = gx.ravel(), gy.ravel()
        mx, my = hand_xy(data)
        if len(mx):  # a place that holds your point is that point's: a click there removes it
            taken = np.isclose(gx[:, None], mx[None, :], atol=0.005) & np.isclose(gy[:, None], my[None, :],
                                                                                  atol=0.005)
            keep = ~taken.any(axis=1)
            gx, gy = gx[keep], gy[keep]
        out.append(dict(type="scatter", x=gx.astype(np.float32), y=gy.astype(np.float32), mode="markers",
                        legendgroup=ADD, showlegend=False, name="click to add",
                        marker=dict(size=max(8, 260 // HAND_GRID), opacity=0),
                        selected=dict(marker=dict(opacity=0)), unselected=dict(marker=dict(opacity=0)),
                        hovertemplate=f"click: add {adding} here<extra></extra>"))
    mx, my = hand_xy(data)
    if len(mx):
        ring = dict(type="scatter", x=mx.astype(np.float32), y=my.astype(np.float32), mode="markers",
                    legendgroup=MINE, showlegend=False, name="your points",
                    marker=dict(symbol="circle-open", size=15, color=colors.ON, line=dict(width=2)),
                    selected=dict(marker=dict(opacity=1)), unselected=dict(marker=dict(opacity=1)))
        if adding:
            ring["hovertemplate"] = "your point: click to remove it<extra></extra>"
        else:
            ring["hoverinfo"] = "skip"
        out.append(ring)
    return out


def plane(cache: dict, key: str, base: go.Figure, data, adding: str | None) -> go.Figure:
    """The live boundary `base` (pages/trainer/charts.live_boundary) with your points and, while adding,
    the picking grid: a copy built again only when `base` is rebuilt or the points or the mode change;
    on other ticks only its shading follows base's."""
    mx, my = hand_xy(data)
    want = (data.hand, mx.tobytes(), my.tobytes(), adding)
    entry = cache.get(key)
    if entry is not None and entry[0] == want and entry[2] is base:  # base kept: its id cannot be reused
        fig = entry[1]
        fig.data[0].z = base.data[0].z
        return fig
    extra = traces(data, data.limit, None, adding)
    if not extra:
        cache.pop(key, None)
        return base
    fig = go.Figure(base.to_dict(), **NO_VALIDATION)
    fig.add_traces(extra)
    if adding:  # the squares underneath must not dim when plotly marks the clicked point selected
        for t in fig.data[:-len(extra)]:
            if t.type == "scatter":
                t.unselected = dict(marker=dict(opacity=1))
    cache[key] = (want, fig, base)
    return fig


def curve(fig: go.Figure, data, adding: str | None) -> go.Figure:
    """A curve fit's chart (rebuilt on every run) with your points and, while adding, the grid over
    the upper chart: x across the axis, the value up (the points' values, with room around them)."""
    y = np.concatenate([data.ytr, data.yte]).astype(float)
    lo, hi = (float(y.min()), float(y.max())) if y.size else VALUE_RANGE
    pad = max(0.5, 0.15 * (hi - lo))
    extra = traces(data, data.limit, (max(-10.0, lo - pad), min(10.0, hi + pad)), adding)
    for t in extra:
        fig.add_trace(go.Scatter(t), row=1, col=1)
    if adding:
        # The dataset's points would take the click (a hovertemplate outweighs hoverinfo): the grid's.
        fig.update_traces(hoverinfo="skip", hovertemplate=None,
                          selector=dict(mode="markers", legendgroup=None))
    return fig


def empty_curve(limit: float, height: int) -> go.Figure:
    """A curve's empty axes, for "only my points" before the first one: one chart, as curve() expects."""
    from plotly.subplots import make_subplots

    fig = make_subplots(rows=1, cols=1, subplot_titles=("Your points",))
    fig.update_layout(height=height, margin=dict(l=8, r=8, t=40, b=8), showlegend=False)
    fig.update_xaxes(range=[-limit, limit], fixedrange=True, showgrid=False)
    fig.update_yaxes(fixedrange=True, zeroline=True, zerolinecolor="#bbbbbb")
    return fig


# --- the controls under the map ---------------------------------------------------------------------
def _names(problem: str, k: int) -> dict:
    """Mode -> what the control says."""
    names = {None: "just look"}
    if problem == "regress":
        names["value"] = "add points"
    else:
        for c in range(2 if problem == "classify" else k):
            names[c] = class_label(c)
    return names


def controls(links, problem: str, k: int, limit: float, curve_fit: bool, count: int) -> str | None:
    """What a click on the map adds, your points' count and Clear; the last refused click's line.

    Returns what a click adds, for the grid's hover ("class 1 (green)", "a point of value 0.5"), or
    None when clicks only look. Keeps what the callback needs in CONTEXT.
    """
    names = _names(problem, k)
    if st.session_state.get(MODE) not in names:
        st.session_state[MODE] = None
    # One above the other: in one horizontal row a phone clipped the last class (class 2 (purple)).
    with st.container():
        mode = st.pills(   # pills wrap onto a second line where a segmented row would run off a phone
            "Click on the chart to" if curve_fit else "Click on the map to", list(names),
            format_func=names.get, key=MODE,
            help="Choose what a click adds: a point of that class "
                 + ("(or, with “add points”, a point at the value you set)" if problem == "regress" else "")
                 + "; a click on one of your points (ringed) removes it. They join the training points, and "
                   "the network goes on from where it is.")
        if mode == "value" and not curve_fit:
            st.slider("Value of a new point", *VALUE_RANGE, 1.0, 0.1, key=VALUE, width=220,
                      help="The value each click gives its point (the shading's colours, blue above 0).")
        # The room view folds the fields away, as it does the link's controls; while playing they are not
        # drawn (this runs on every tick, and four elements a tick cost the class's other students:
        # bench/classroom.py with 3 players, p95 102 -> 127 ms with them); Pause brings them back.
        if not room.on() and not st.session_state.get(tr.PLAYING):
            typed(links, mode, names, limit, curve_fit)
        st.button("Clear my points", icon=":material/delete_sweep:", on_click=clear, args=(links,),
                  disabled=count == 0, help="Remove every point you placed by hand; the dataset stays.")
    what = None
    if mode == "value":
        what = "a point at the value where you click" if curve_fit else \
            f"a point of value {st.session_state.get(VALUE, 1.0):g}"
    elif mode is not None:
        what = f"a point of {names[mode]}"
    left = HAND_MAX - count
    where = "the chart" if curve_fit else "the map"
    choose = "choose “add points” above" if problem == "regress" else "choose a class above"
    st.caption(f":material/touch_app: {count} of {HAND_MAX} points placed by hand" + (
        f" (ringed): click {where} to add more, or a ring to remove it." if mode is not None
        else f" (ringed). To add more, {choose}, then click {where}." if count else
        f": {choose}, then click {where}.")
        + (f" {left} left." if 0 < left < 20 else ""))
    if note := st.session_state.pop(NOTE, None):
        st.caption(f":orange[:material/block: {note}]")
    st.session_state[CONTEXT] = dict(problem=problem, k=k, limit=limit, curve=curve_fit, mode=mode)
    return what


def typed(links, mode, names: dict, limit: float, curve_fit: bool) -> None:
    """A point by its coordinates, for the keyboard alone (issue 35): where a click would put it, typed."""
    with st.expander("Add a point by typing its coordinates"):
        row = st.container(horizontal=True, vertical_alignment="bottom")
        first, second = ("x", "value") if curve_fit else ("x₁", "x₂")
        row.number_input(first, -limit, limit, 0.0, 0.1, key=TYPED[0], width=130,
                         help=f"Across: from {-limit:g} to {limit:g}.")
        low, high = VALUE_RANGE if curve_fit else (-limit, limit)
        row.number_input(second, low, high, 0.0, 0.1, key=TYPED[1], width=130,
                         help=f"The point's value: from {low:g} to {high:g}." if curve_fit else
                              f"Up: from {low:g} to {high:g}.")
        row.button(f"Add {names[mode]}" if mode is not None else "Add", key="trainer_typed_add",
                   on_click=_typed, args=(links,), disabled=mode is None,
                   help="Adds the point, as a click there would." if mode is not None else
                        "Choose what to add above first (a class" + (", or “add points”)." if curve_fit else ")."))


def _typed(links) -> None:
    ctx = st.session_state.get(CONTEXT)
    if ctx is not None and ctx["mode"] is not None:
        _add(links, ctx, float(st.session_state.get(TYPED[0], 0.0)), float(st.session_state.get(TYPED[1], 0.0)))


# --- the callbacks: a click, Clear ------------------------------------------------------------------
def current(links, ctx: dict) -> np.ndarray:
    """Your points as the link holds them, checked for this page (lib.points.decode_hand)."""
    k = ctx["k"] if ctx["problem"] == "classes" else None
    return decode_hand(links.value("pts") or "", ctx["problem"], k, ctx["limit"], ctx["curve"])


def on_click(key: str, links):
    """The chart's callback: the click in st.session_state[key] adds or removes one point of the page's
    link state `links` (its LINKS)."""
    def callback():
        ctx = st.session_state.get(CONTEXT)
        event = st.session_state.get(key) or {}
        points = (event.get("selection") or {}).get("points") or []
        if ctx is None or not points:
            return
        p = points[0]
        try:
            x, y = float(p.get("x")), float(p.get("y"))
            P = current(links, ctx)
        except (TypeError, ValueError):
            st.session_state[NOTE] = "Not placed: that click did not land on the map."
            return
        group = p.get("legendgroup")
        if group == MINE:
            P, removed = remove_hand(P, x, y)
            if not removed:
                return
        elif group == ADD and ctx["mode"] is not None:
            _add(links, ctx, x, y, P)
            return
        else:
            return
        links.set("pts", encode_hand(P))
        st.session_state[MOVED] = True
    return callback


def _add(links, ctx: dict, x: float, y: float, P: np.ndarray | None = None) -> None:
    """One point of the chosen class (or value) at (x, y) joins your points, or the line that says why not."""
    if ctx["curve"]:
        point = (x, y)
    elif ctx["mode"] == "value":
        point = (x, y, float(st.session_state.get(VALUE, 1.0)))
    else:
        point = (x, y, ctx["mode"])
    try:
        P = add_hand(current(links, ctx) if P is None else P, point, ctx["problem"],
                     ctx["k"] if ctx["problem"] == "classes" else None, ctx["limit"], ctx["curve"])
    except ValueError as err:
        st.session_state[NOTE] = f"Not placed: {err}."
        return
    links.set("pts", encode_hand(P))
    st.session_state[MOVED] = True


def clear(links) -> None:
    links.set("pts", "")
    st.session_state[MOVED] = True


def moved() -> bool:
    """Whether a click changed the points since the page last ran whole (and forget it)."""
    return bool(st.session_state.pop(MOVED, False))

"""The class's pictures: every student's boundary as one gallery grid, a starred network's snapshot (its
large map, the public test points, a ring round each it gets wrong, its settings in words), the class chart
(size against public score) and, after the reveal, public against private. Maps are computed once per
submission (a stored network never changes); figures are built from arrays, names escaped for plotly.
"""

from __future__ import annotations

import json
import math

import streamlit as st

from classroom import connection
from classroom.text import BAD, for_plotly, plain
from store import StoreDown


@st.cache_data(max_entries=2000, show_spinner=False)
def gallery_map(submission: int, problem_json: str):
    """A submission's decision map, computed once ever per submission (its weights never change)."""
    from lib.challenge import decision_map

    return decision_map(connection.store().weights(submission), json.loads(problem_json))


def _map_figure(shade, limit: float, problem: dict, title: str, height: int, X=None, y=None):
    """A student's boundary as the trainer draws it, with points (X, y) as the test points' hollow marks."""
    import numpy as np

    from ui import boundary as tc

    res = shade.shape[0]
    xs = np.linspace(-limit, limit, res)
    empty = np.zeros((0, 2))
    X = empty if X is None else X
    y = np.zeros(0) if y is None else y
    data = tc.Points(empty, np.zeros(0), X, y, limit)
    look = {}
    if problem["problem"] == "classes":
        look = dict(scale=tc.shading_for("classes", int(problem.get("k", 3))), k=int(problem.get("k", 3)))
    elif problem["problem"] == "regress":
        look = dict(scale=tc.VALUE_SHADING, span=float(np.ptp(y)) if len(y) else None)
    return tc.boundary_figure(xs, xs, shade, data, title=for_plotly(title), live=False, height=height, **look)


GALLERY_COLUMNS = 4


@st.cache_resource(max_entries=64, show_spinner=False)
def gallery_grid(cards: tuple[tuple[int, str], ...], problem_json: str):
    """Every student's boundary, small, in rank order, as ONE frozen figure (a grid of maps titled
    'rank. name'), built again only when the cards change and shared read-only. One chart a refresh, not
    thirty: sending thirty charts was most of a teacher's refresh. Each map comes from gallery_map (once
    per submission, ever); a stored network that no longer fits is left out. None: a curve fit (no plane)."""
    import numpy as np
    from plotly.subplots import make_subplots

    from ui import boundary as tc
    from ui.frozen import frozen

    problem = json.loads(problem_json)
    drawn = []
    for submission, title in cards:
        try:
            m = gallery_map(submission, problem_json)
        except StoreDown:   # away: no grid at all (a grid without this card would be kept)
            raise
        except Exception:   # a stored network that no longer fits, or cannot be read: no map, no error
            continue
        if m is None:
            return None
        drawn.append((m, title))
    if not drawn:
        return None
    cols = GALLERY_COLUMNS
    rows = -(-len(drawn) // cols)
    fig = make_subplots(rows=rows, cols=cols, subplot_titles=[for_plotly(t) for _, t in drawn],
                        horizontal_spacing=0.03, vertical_spacing=0.12 / rows + 0.02)
    scale = tc.shading_for(problem["problem"], int(problem.get("k", 3)))
    for i, ((shade, limit), _) in enumerate(drawn):
        res = shade.shape[0]
        step = 2 * limit / (res - 1)
        fig.add_heatmap(z=np.asarray(shade, dtype=np.float32), x0=-limit, dx=step, y0=-limit, dy=step,
                        colorscale=scale, zmin=0.0, zmax=1.0, showscale=False, hoverinfo="skip",
                        row=i // cols + 1, col=i % cols + 1)
    fig.update_xaxes(showticklabels=False, showgrid=False, zeroline=False, fixedrange=True)
    fig.update_yaxes(showticklabels=False, showgrid=False, zeroline=False, fixedrange=True)
    fig.update_annotations(font=dict(size=15))
    fig.update_layout(height=40 + 240 * rows, margin=dict(l=4, r=4, t=36, b=4), showlegend=False,
                      uirevision="gallery")
    return frozen(fig)


@st.cache_data(max_entries=500, show_spinner=False)
def snapshot_parts(submission: int, problem_json: str, code: str):
    """A starred network's large map and the public test points with the ones it gets wrong, computed once
    per submission (lib.challenge.decision_map, lib.challenge.public_mistakes)."""
    from lib.challenge import decision_map, public_mistakes

    weights, problem = connection.store().weights(submission), json.loads(problem_json)
    drawn = decision_map(weights, problem, res=72)
    X, y, wrong = public_mistakes(weights, problem, connection.store().test_seed(code))
    return drawn, X, y, wrong


SNAP_HEIGHT = {1: 420, 2: 420, 3: 330}   # a square map's figure height, by snapshots side by side: three
# share a projector's row at about 290 px each, and at 420 px tall each left 121 px blank under its map


def snapshot_figure(drawn, X, y, wrong, problem: dict, title: str, beside: int = 1):
    """One snapshot: the boundary, the public test points, a ring around each one it gets wrong; as tall as
    a square map is wide when `beside` snapshots share the row (SNAP_HEIGHT), so no blank band under it."""
    from ui import colors

    shade, limit = drawn
    fig = _map_figure(shade, limit, problem, title, SNAP_HEIGHT.get(beside, 420), X, y)
    if wrong.any():
        fig.add_scatter(x=X[wrong, 0], y=X[wrong, 1], mode="markers", name="wrong", hoverinfo="skip",
                        showlegend=False, marker=dict(symbol="circle-open", size=17, color=colors.ON,
                                                      line=dict(width=2.5)))
    fig.update_layout(margin=dict(l=8, r=8, t=44, b=8))
    return fig


def settings_words(spec: dict) -> str:
    """A submission's settings in the words the trainer uses, for its snapshot: '1 hidden layer of 8, ReLU ·
    Adam, rate 0.03, all points a step · 300 epochs' (and its penalties when it has any); BAD for settings
    that are not what Submit keeps. Plain text: the caller escapes it for Markdown."""
    from lib.activations import ACTIVATIONS
    from lib.optim import OPT_NAMES
    from ui import fmt

    try:
        batch = int(spec.get("batch") or 0)
        parts = [f"{fmt.layers(spec.get('hidden') or ())}, {ACTIVATIONS[spec['act']].label}",
                 f"{OPT_NAMES[spec['opt']]}, rate {fmt.num(spec['lr'], 5)}, "
                 + (f"{fmt.count(batch)} points a step" if batch else "all points a step"),
                 f"{fmt.count(spec.get('epoch', 0))} epochs"]
        if spec.get("l1") or spec.get("l2"):
            parts.append(f"penalties L1 {fmt.num(spec.get('l1', 0), 5)}, L2 {fmt.num(spec.get('l2', 0), 5)}")
    except (AttributeError, KeyError, TypeError, ValueError, OverflowError):
        return BAD
    return " · ".join(parts)


def settings_line(spec: dict) -> str:
    """settings_words for st.markdown (every character escaped: nothing in it is read as Markdown)."""
    return plain(settings_words(spec))


def bend_name(act) -> str | None:
    """A bend as the trainer's menu names it ('ReLU', not 'relu'); anything else as it is."""
    from lib.activations import ACTIVATIONS

    return ACTIVATIONS[act].label if isinstance(act, str) and act in ACTIVATIONS else act


NAMED = 3   # names written beside a point of identical networks; the rest are counted ("+2")


def same_networks(subs: list[dict], scores: tuple[str, ...]) -> list[list[dict]]:
    """The submissions grouped by identical network: the same settings, size and `scores` (drawn as one point
    with a count), in the order each group first appears."""
    groups: dict[str, list[dict]] = {}
    for s in subs:
        key = json.dumps([s["spec"], s["n_params"], *(s[k] for k in scores)], sort_keys=True, default=str)
        groups.setdefault(key, []).append(s)
    return list(groups.values())


def point_label(group: list[dict], names: dict[str, str], hide: bool) -> str:
    """A point's label, escaped for plotly: 'Ada', or '×3 Ada, Bo, Cy' for three identical networks (each
    student named once; past NAMED, '+2'). Student text is never read as HTML."""
    who = list(dict.fromkeys(names[s["nickname"]] if hide else s["nickname"] for s in group))
    shown = ", ".join(who[:NAMED]) + (f" +{len(who) - NAMED}" if len(who) > NAMED else "")
    return for_plotly((f"×{len(group)} " if len(group) > 1 else "") + shown)


def _log_span(sizes: list[int]) -> tuple[float, float]:
    """The class chart's x range in log10 units: every size, with room either side for a point and its name
    (plotly's own range put the smallest and largest networks on the chart's edges)."""
    logs = [math.log10(max(int(n), 1)) for n in sizes] or [1.0]
    lo, hi = min(logs), max(logs)
    pad = max(0.15, 0.12 * (hi - lo))
    return lo - pad, hi + pad


PLOT = (800.0, 300.0)   # a class chart's plot on a projector, in px: where label_sides measures names


def label_sides(points: list[tuple[float, float, str, float]]) -> list[str]:
    """Where each point's name goes (a plotly textposition), so names close together do not print on one
    another or on a point: greedily, the first side whose box (about 7 px a character, 16 px tall, in a
    PLOT-sized plot) meets no point and no name placed before it; a name reads away from the nearer edge
    first. `points`: (x, y as fractions of the plot, the label, the marker's radius in px)."""
    import html

    w_plot, h_plot = PLOT
    taken = [(x * w_plot - r, y * h_plot - r, x * w_plot + r, y * h_plot + r) for x, y, _, r in points]
    sides = []
    for x, y, text, r in points:
        px, py = x * w_plot, y * h_plot
        w, h = 7.0 * len(html.unescape(text)) + 4, 16.0
        boxes = {"top right": (px, py + r, px + w, py + r + h),
                 "top left": (px - w, py + r, px, py + r + h),
                 "bottom right": (px, py - r - h, px + w, py - r),
                 "bottom left": (px - w, py - r - h, px, py - r),
                 "middle right": (px + r + 2, py - h / 2, px + r + 2 + w, py + h / 2),
                 "middle left": (px - r - 2 - w, py - h / 2, px - r - 2, py + h / 2)}
        order = sorted(boxes, key=lambda s: ("left" in s) == (x < 0.5))   # away from the nearer edge first
        free = [s for s in order if not any(_meets(boxes[s], t) for t in taken)
                and boxes[s][0] >= 0 and boxes[s][2] <= w_plot]
        side = free[0] if free else order[0]
        sides.append(side)
        taken.append(boxes[side])
    return sides


def _meets(a: tuple[float, ...], b: tuple[float, ...]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def point_size(group: list[dict]) -> int:
    """A point's marker size: larger for more identical networks, up to 28 px."""
    return min(12 + 4 * (len(group) - 1), 28)


def class_chart(subs: list[dict], what: str, hide: bool):
    """Every submission: parameters (log axis) against public score, a colour per bend, a marker per
    optimiser, each point named; identical networks (same settings, same score) are one larger point with
    a count ('×3 Ada, Bo, Cy'); hover writes out the network."""
    import plotly.graph_objects as go

    from ui import charts

    scale = 1.0 if what == "R²" else 100.0
    bends = sorted({s["spec"].get("act", "?") for s in subs})
    symbols = {"sgd": "circle", "momentum": "diamond", "adam": "square"}
    names = {n: f"Student {i + 1}" for i, n in enumerate(dict.fromkeys(s["nickname"] for s in subs))}
    lo, hi = _log_span([s["n_params"] for s in subs])
    y0, y1 = (-1.05, 1.25) if what == "R²" else (0, 109)   # chance and perfect in view, and room for a name
    per_bend = [same_networks([s for s in subs if s["spec"].get("act", "?") == b], ("public",))
                for b in bends]
    flat = [g for mine in per_bend for g in mine]
    sides = iter(label_sides([((math.log10(max(g[0]["n_params"], 1)) - lo) / (hi - lo),
                               (scale * g[0]["public"] - y0) / (y1 - y0), point_label(g, names, hide),
                               point_size(g) / 2) for g in flat]))
    fig = go.Figure()
    for i, (bend, mine) in enumerate(zip(bends, per_bend, strict=True)):
        labels = [point_label(g, names, hide) for g in mine]
        fig.add_trace(go.Scatter(
            x=[g[0]["n_params"] for g in mine], y=[scale * g[0]["public"] for g in mine], mode="markers+text",
            name=bend_name(bend), text=labels, textfont=dict(size=13),
            textposition=[next(sides) for _ in mine],
            marker=dict(size=[point_size(g) for g in mine],
                        color=charts.SERIES[i % len(charts.SERIES)],
                        symbol=[symbols.get(g[0]["spec"].get("opt"), "circle") for g in mine],
                        line=dict(width=1, color="#333")),
            customdata=[for_plotly(settings_words(g[0]["spec"])) for g in mine],
            cliponaxis=False,   # a name over a point at 100 % is drawn whole
            hovertemplate="%{text}: %{customdata}<br>%{x} parameters<br>" + what + " %{y:.1f}"
                          "<extra></extra>"))
    fig.update_layout(height=380, margin=dict(l=8, r=8, t=40, b=8), showlegend=True,
                      legend=dict(orientation="h", y=1.12, x=1, xanchor="right", title=dict(text="bend ")),
                      title=dict(text=f"Size against public {what}", font=dict(size=16)))
    fig.update_xaxes(type="log", title="parameters (log scale)", range=[lo, hi])
    fig.update_yaxes(title=f"public {what}" + ("" if what == "R²" else " (%)"),
                     range=[y0, y1])
    return fig


def reveal_chart(subs: list[dict], what: str, hide: bool):
    """After the reveal: every submission's public score against its private one. On the diagonal a
    network did as well on the half nobody saw; under it, it was tuned to the half it was shown."""
    import plotly.graph_objects as go

    from ui import colors

    scale = 1.0 if what == "R²" else 100.0
    names = {n: f"Student {i + 1}" for i, n in enumerate(dict.fromkeys(s["nickname"] for s in subs))}
    lo, hi = (-1.05, 1.05) if what == "R²" else (0, 101)
    fig = go.Figure()
    fig.add_scatter(x=[lo, hi], y=[lo, hi], mode="lines", hoverinfo="skip", showlegend=False,
                    line=dict(color=colors.OFF, dash="dash", width=1.5))
    groups = same_networks(subs, ("public", "private"))   # named, and identical networks as one, as above
    fig.add_scatter(x=[scale * g[0]["public"] for g in groups], y=[scale * g[0]["private"] for g in groups],
                    mode="markers+text", showlegend=False, cliponaxis=False,
                    textposition=label_sides([((scale * g[0]["public"] - lo) / (hi - lo),
                                               (scale * g[0]["private"] - lo) / (hi - lo),
                                               point_label(g, names, hide), point_size(g) / 2)
                                              for g in groups]),
                    marker=dict(size=[point_size(g) for g in groups], color=colors.BLUE,
                                line=dict(width=1, color="#333")),
                    text=[point_label(g, names, hide) for g in groups], textfont=dict(size=13),
                    hovertemplate="%{text}<br>public %{x:.1f}<br>private %{y:.1f}<extra></extra>")
    unit = "" if what == "R²" else " (%)"
    fig.update_layout(height=380, margin=dict(l=8, r=8, t=40, b=8),
                      title=dict(text=f"Public against private {what}", font=dict(size=16)))
    fig.update_xaxes(title=f"public {what}{unit}", range=[lo, hi])
    fig.update_yaxes(title=f"private {what}{unit}", range=[lo, hi])
    return fig


def class_chart_words(subs: list[dict], what: str, hide: bool) -> tuple[str, list[str], list[list[str]]]:
    """The class chart's answer as text (issue 35 item 2): one line ("12 networks: the best public accuracy
    is 96.5 % (Ada, 49 parameters); the largest, 1,201 parameters, scored 91.0 %.") and its numbers as a
    table, best first (the chart's points, identical networks as one row with their count)."""
    from ui import fmt

    def score(v: float) -> str:
        return fmt.fixed(v, 3) if what == "R²" else fmt.pct(v)

    names = {n: f"Student {i + 1}" for i, n in enumerate(dict.fromkeys(s["nickname"] for s in subs))}
    groups = sorted(same_networks(subs, ("public",)), key=lambda g: (-g[0]["public"], g[0]["n_params"]))
    if not groups:
        return "No network to draw yet.", [], []

    def who(g: list[dict]) -> str:   # Markdown-escaped (a table's "|" is escaped once, by text_table)
        shown = ", ".join(names[s["nickname"]] if hide else s["nickname"] for s in g)
        return plain(shown).replace("\\|", "|")

    best, largest = groups[0], max(groups, key=lambda g: g[0]["n_params"])
    line = (f"{fmt.count(len(subs))} network{'s' if len(subs) != 1 else ''}: the best public {what} is "
            f"{score(best[0]['public'])} ({who(best)}, {fmt.count(best[0]['n_params'])} parameters)")
    if largest is not best:
        line += (f"; the largest, {fmt.count(largest[0]['n_params'])} parameters, scored "
                 f"{score(largest[0]['public'])}")
    columns = ["who", "parameters", f"public {what}", "network"]
    rows = [[who(g), fmt.count(g[0]["n_params"]), score(g[0]["public"]), settings_line(g[0]["spec"])]
            for g in groups]
    return line + ".", columns, rows

"""The map of a plane: a network's shading (P(class 1), classes or values) with the points on top.

Drawn live by the trainer (pages/trainer/charts.py keeps it in place while playing) and still by the class
room (each submission's map in the gallery and the teacher's snapshot). Each class of each split is ONE
SVG path shape, so a redraw is a few nodes however many points there are; the shading travels as bytes
when live (ui.light.u8). Colours are ui.colors': the classes' tints behind their full colours.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import NamedTuple

import numpy as np
import plotly.graph_objects as go

from ui import colors
from ui.light import EDGE, LIVE_TEMPLATE, LIVE_TOP, f32, light_figure, u8

FONT, TICK_FONT = 14, 12


class Points(NamedTuple):
    """The points a map draws: train filled, test hollow, on the square [-limit, limit]^2."""

    Xtr: np.ndarray   # (n_train, 2)
    ytr: np.ndarray   # (n_train,) labels or values
    Xte: np.ndarray   # (n_test, 2)
    yte: np.ndarray   # (n_test,)
    limit: float


def tint(hex_color: str, share: float) -> str:
    """`hex_color` mixed with white: share 1 is the colour, 0 is white."""
    h = hex_color.lstrip("#")
    rgb = [int(h[i:i + 2], 16) for i in (0, 2, 4)]
    return "#" + "".join(f"{round(255 - share * (255 - c)):02x}" for c in rgb)


# P(class 1) behind the points: the class colours at 45 % on white, so the points (full colour,
# white edge) stay visible on the region of their own class.
SHADING = [[0.0, tint(colors.CLASSES[0], 0.45)], [0.5, "#f7f7f7"], [1.0, tint(colors.CLASSES[1], 0.45)]]
# Values on the plane (regress): the signed scale's colours at 60 % on white, 0 near white.
VALUE_SHADING = [[0.0, tint(colors.NEGATIVE, 0.6)], [0.5, colors.ZERO], [1.0, tint(colors.POSITIVE, 0.6)]]
# The points' own colours for values: five bands of value / span, from -1 to 1.
VALUE_BANDS = (-0.6, -0.2, 0.2, 0.6)
VALUE_MARKS = (colors.NEGATIVE, tint(colors.NEGATIVE, 0.55), "#9a9a9a", tint(colors.POSITIVE, 0.55),
               colors.POSITIVE)


def class_shading(k: int) -> list:
    """k classes as k segments of one scale (lib.maps.class_shade's numbers): segment i runs from
    class i's palest tint (the network unsure) to its tint at 55 % (sure)."""
    scale = []
    for i in range(k):
        c = colors.CLASSES[i]
        scale += [[i / k, tint(c, 0.08)], [(i + 1) / k - 1e-6 if i < k - 1 else 1.0, tint(c, 0.55)]]
    return scale


def shading_for(problem: str, k: int = 2) -> list:
    """The colour scale of the shading for a problem type."""
    if problem == "classes":
        return class_shading(k)
    if problem == "regress":
        return VALUE_SHADING
    return SHADING


EDGE_COLOR = colors.ON  # EDGE's cells: drawn dark, so a map always shows its boundary, even one near 0.5


def _with_edge(scale: list) -> list:
    """A shading scale for bytes 0..EDGE: the shading over 0..LIVE_TOP, EDGE_COLOR above it."""
    top = LIVE_TOP / EDGE
    return [[float(s) * top, c] for s, c in scale] + [[(LIVE_TOP + 0.5) / EDGE, EDGE_COLOR],
                                                        [1.0, EDGE_COLOR]]


def _edge_cells(xs, ys, edge) -> dict:
    """A still map's boundary (issue 43: the Bend view's ReLU map drew none while its identity twin drew
    its line): 1 where the class changes, drawn dark over the shading; 0 elsewhere, drawn see-through (a
    gap, NaN, is a value ui/charts.py refuses to draw)."""
    clear = "rgba(0,0,0,0)"
    return dict(type="heatmap", z=np.asarray(edge, dtype=np.uint8), x0=float(xs[0]), dx=float(xs[1] - xs[0]),
                y0=float(ys[0]), dy=float(ys[1] - ys[0]), zmin=0.0, zmax=1.0, showscale=False,
                colorscale=[[0.0, clear], [0.5, clear], [0.5, EDGE_COLOR], [1.0, EDGE_COLOR]],
                showlegend=False, hoverinfo="skip", name="the boundary")


def dots_path(pts: np.ndarray, r: float) -> str:
    """Every point as a small square, all in ONE SVG path.

    Plotly draws each marker of a scatter trace as its own SVG node: 400 of them redrawn ten
    times a second kept the browser busy most of the time (about 100 ms a redraw; measured again
    with bench/plot_cost.py: 33 ms of the page's CPU per draw of the live map with markers, 12 with
    these paths). A layout shape is one node however many dots it holds.

    Squares take four short numbers each ("M-1.2,.45H-1.13V.52H-1.2Z": hundredths of the axis unit,
    under a pixel on a 380 px map, without leading or trailing zeros): about a fifth less text than
    "%.2f" everywhere. Plotly only takes absolute commands in a shape's path, so no relative moves.

    pts : ndarray of shape (m, 2)
    """
    lo = np.rint((pts - r) * 100).astype(np.int64)                              # (m, 2) hundredths
    hi = np.rint((pts + r) * 100).astype(np.int64)
    text = _HUNDREDTHS
    if len(pts) and max(int(np.abs(lo).max()), int(np.abs(hi).max())) >= _HUNDREDTHS_MAX:
        text = None  # far outside the house square: written one by one
    out = []
    for (a, b), (c, d) in zip(lo.tolist(), hi.tolist(), strict=True):
        if text is None:
            x0, y0, x1, y1 = _hundredths(a), _hundredths(b), _hundredths(c), _hundredths(d)
        else:
            o = _HUNDREDTHS_MAX
            x0, y0, x1, y1 = text[a + o], text[b + o], text[c + o], text[d + o]
        out.append(f"M{x0},{y0}H{x1}V{y1}H{x0}Z")
    return "".join(out)


# Each class's shape (ui.colors.CLASS_SYMBOLS) as corners around (0, 0), for a point of radius 1; each
# about the ink of the square of side 2 (a diamond or a triangle of the same width looks smaller).
# The circle is a hexagon: at 3-4 px it reads as round, and every corner is text sent on each live tick
# (an octagon doubled the points' paths of a two-class map, 10.5 -> 21.6 KB; a hexagon 10.5 -> 17.6 KB).
_CROSS_ARM = 0.4
SHAPE_CORNERS = {
    "circle": np.column_stack([np.cos(a := np.linspace(0, 2 * np.pi, 6, endpoint=False)), np.sin(a)]) * 1.1,
    "diamond": np.array([[0.0, 1.35], [1.35, 0.0], [0.0, -1.35], [-1.35, 0.0]]),
    "triangle-up": np.array([[0.0, 1.45], [1.3, -0.8], [-1.3, -0.8]]),
    "cross": np.array([[_CROSS_ARM, 1.3], [_CROSS_ARM, _CROSS_ARM], [1.3, _CROSS_ARM], [1.3, -_CROSS_ARM],
                       [_CROSS_ARM, -_CROSS_ARM], [_CROSS_ARM, -1.3], [-_CROSS_ARM, -1.3],
                       [-_CROSS_ARM, -_CROSS_ARM], [-1.3, -_CROSS_ARM], [-1.3, _CROSS_ARM],
                       [-_CROSS_ARM, _CROSS_ARM], [-_CROSS_ARM, 1.3]]),
}


def class_path(pts: np.ndarray, r: float, c: int) -> str:
    """Every point of class c as its class's shape (ui.colors.CLASS_SYMBOLS), all in ONE SVG path:
    class 1 the squares of dots_path, the others polygons, corners in short hundredths as there.

    pts : ndarray of shape (m, 2)
    """
    symbol = colors.CLASS_SYMBOLS[c % len(colors.CLASS_SYMBOLS)]
    if symbol == "square" or not len(pts):
        return dots_path(pts, r)
    corners = np.rint((pts[:, None, :] + SHAPE_CORNERS[symbol][None] * r) * 100).astype(np.int64)  # (m, s, 2)
    if int(np.abs(corners).max()) >= _HUNDREDTHS_MAX:
        words = [[_hundredths(a) + "," + _hundredths(b) for a, b in poly] for poly in corners.tolist()]
    else:
        o, text = _HUNDREDTHS_MAX, _HUNDREDTHS
        words = [[text[a + o] + "," + text[b + o] for a, b in poly] for poly in corners.tolist()]
    return "".join("M" + "L".join(poly) + "Z" for poly in words)


def _hundredths(v: int) -> str:
    """An integer number of hundredths as short SVG path text: 5 -> '.05', -120 -> '-1.2', 0 -> '0'."""
    v = int(v)
    sign, v = ("-" if v < 0 else ""), abs(v)
    whole, frac = divmod(v, 100)
    text = (str(whole) if whole else "") + (f".{frac:02d}".rstrip("0") if frac else "")
    return sign + (text or "0")


# _hundredths of every whole number of hundredths from -20.00 to 20.00, written once: the points' paths
# look their corners up here (every plane the trainer draws lies within it).
_HUNDREDTHS_MAX = 2001
_HUNDREDTHS = [_hundredths(v) for v in range(-_HUNDREDTHS_MAX, _HUNDREDTHS_MAX + 1)]


def _styles(c: int, split: str, color: str | None = None) -> dict:
    # nonzero: where two squares of one path overlap they stay filled (plotly's default, evenodd, cut a
    # hole there, so close points drew as bars and half squares). Train squares have no outline: a path's
    # stroke is drawn over all of its fill, so a white outline crossed every square it overlapped and
    # close points drew as striped smudges.
    color = colors.CLASSES[c] if color is None else color
    if split == "train":
        return dict(fillcolor=color, line=dict(width=0), fillrule="nonzero")
    return dict(fillcolor="rgba(255,255,255,0.8)", line=dict(color=color, width=2), fillrule="nonzero")


def value_band(y, span: float) -> np.ndarray:
    """Which of the five VALUE_MARKS bands each value falls in (0 most negative .. 4 most positive)."""
    return np.digitize(np.asarray(y, dtype=float) / float(span), VALUE_BANDS)


def _points_shapes(Xtr, ytr, Xte, yte, *, limit: float, xref: str = "x", yref: str = "y", k: int = 2,
                  span: float | None = None) -> list[dict]:
    """points_shapes without its cache."""
    r = 0.022 * limit
    shapes = []
    for split, X, y in (("train", Xtr, ytr), ("test", Xte, yte)):
        group = value_band(y, span) if span is not None else np.asarray(y).astype(int)
        for c in range(len(VALUE_MARKS) if span is not None else k):
            pts = X[group == c]  # (m, 2)
            if len(pts):
                color = VALUE_MARKS[c] if span is not None else None
                size = 0.8 * r if split == "train" else 0.9 * r
                # values: squares in five colours; classes: each its own shape (class_path)
                path = dots_path(pts, size) if span is not None else class_path(pts, size, c)
                shapes.append(dict(type="path", path=path,
                                   xref=xref, yref=yref, layer="above", **_styles(c, split, color)))
    return shapes


# points_shapes by the points' contents: the boundary, its twin and the two maps of the bend switch draw
# the same points, in every session that opened the same link (writing the paths is most of the cost).
_SHAPES: OrderedDict = OrderedDict()
_SHAPES_LOCK = threading.Lock()
_SHAPES_MAX = 64


def _content(a) -> tuple:
    a = np.asarray(a)
    return a.dtype.str, a.shape, a.tobytes()


def points_shapes(Xtr, ytr, Xte, yte, *, limit: float, xref: str = "x", yref: str = "y", k: int = 2,
                  span: float | None = None) -> list[dict]:
    """Each class of each split as one path shape: train points filled, test points hollow.

    k classes 0..k-1 in CLASSES, each in its own shape (class_path); with `span` (values), five bands
    of value in VALUE_MARKS, as squares.
    Train shapes first, then test; a class without points has no shape.
    Their legend is legend_html(), outside the figure (a shape's own legend symbol is not its shape).
    Made once per set of points (a small cache shared by the sessions); each call gets its own dicts.
    """
    key = (*_content(Xtr), *_content(ytr), *_content(Xte), *_content(yte), float(limit), xref, yref, k,
           None if span is None else float(span))
    with _SHAPES_LOCK:
        shapes = _SHAPES.get(key)
        if shapes is not None:
            _SHAPES.move_to_end(key)
    if shapes is None:
        shapes = _points_shapes(Xtr, ytr, Xte, yte, limit=limit, xref=xref, yref=yref, k=k, span=span)
        with _SHAPES_LOCK:
            _SHAPES[key] = shapes
            while len(_SHAPES) > _SHAPES_MAX:
                _SHAPES.popitem(last=False)
    return [{**shape, "line": dict(shape["line"])} for shape in shapes]


def boundary_figure(xs, ys, P, data, *, title: str | None = None, live: bool = True,
                    line: tuple[np.ndarray, np.ndarray] | None = None, height: int = 420,
                    scale: list | None = None, k: int = 2, span: float | None = None,
                    hover: str = "P(1)", edge=None) -> go.Figure:
    """P(class 1) as shading, the points on top, axis numbers, and optionally one straight line.

    Written as the figure's dict (checked once by plotly, not property by property: a few ms, not 30).

    Parameters
    ----------
    xs, ys : ndarray of shape (res,)
    P : ndarray of shape (res, res), P[i, j] at (xs[j], ys[i]), values in [0, 1] (the shading's
        number: P(class 1), lib.maps.class_shade or lib.maps.value_shade)
    data : the points (Points, or the trainer's Data: Xtr, ytr, Xte, yte and the square's half-width)
    scale : the colour scale (shading_for); k, span : how the points are coloured (points_shapes)
    line : (x (k,), y (k,)) of a boundary line to draw dashed, or None
    edge : bool (res, res), the boundary's cells, drawn dark (lib.maps.boundary_cells), or None (values:
        no boundary). Live, they travel in the shading's bytes (EDGE, past LIVE_TOP); still, as a trace of
        their own over the shading, so its hover still reads P
    """
    limit = data.limit
    # x0/dx instead of coordinate arrays: the same picture with two numbers per axis. Live, the
    # probabilities travel as bytes (1/255 steps, invisible in the shading).
    scale, edged = scale or SHADING, live and edge is not None
    heat = dict(type="heatmap", z=u8(P, edge) if live else f32(P), x0=float(xs[0]), dx=float(xs[1] - xs[0]),
                y0=float(ys[0]), dy=float(ys[1] - ys[0]), colorscale=_with_edge(scale) if edged else scale,
                zmin=0.0, zmax=float(EDGE if edged else LIVE_TOP) if live else 1.0, showscale=False,
                showlegend=False)
    if live:
        heat["hoverinfo"] = "skip"
    else:
        heat["hovertemplate"] = "x₁ = %{x:.2f}<br>x₂ = %{y:.2f}<br>" + hover + " = %{z:.2f}<extra></extra>"
    # The traces, in order: [0] the shading (live_boundary replaces its z), on a still map the boundary's
    # cells, then the straight line if any. More marks go at the end (traces.append). The points are not
    # traces but layout shapes (points_shapes: one SVG path per class and split, layer "above": over every
    # trace). A marker
    # costs the browser about 0.05 ms a draw (bench/plot_cost.py): keep live marks few or paths.
    traces = [heat]
    if edge is not None and not live:
        traces.append(_edge_cells(xs, ys, edge))
    if line is not None:
        traces.append(dict(type="scatter", x=f32(line[0]), y=f32(line[1]), mode="lines",
                           name="the one straight line", hoverinfo="skip", showlegend=False,
                           line=dict(color=colors.ON, width=2, dash="dash")))
    axis = dict(range=[-limit, limit], showticklabels=True, showgrid=False, zeroline=False, fixedrange=True,
                constrain="domain", tickfont=dict(size=TICK_FONT), nticks=5)
    layout = dict(
        height=height, margin=dict(l=8, r=8, t=40 if title else 8, b=8), uirevision="boundary",
        font=dict(size=FONT), showlegend=False,
        shapes=points_shapes(data.Xtr, data.ytr, data.Xte, data.yte, limit=limit, k=k, span=span),
        xaxis=axis, yaxis=dict(axis, scaleanchor="x", scaleratio=1, constraintoward="top"),
    )
    if title:
        layout["title"] = dict(text=title, x=0.0, xanchor="left", font=dict(size=16))
    if live:
        layout["template"] = LIVE_TEMPLATE
    return light_figure(dict(data=traces, layout=layout))

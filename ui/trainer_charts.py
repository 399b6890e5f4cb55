"""Chart builders for the live trainer: arrays in, plotly figures out.

The live figures (boundary, curves) are redrawn ten times a second, so they are kept light:
the probabilities travel as one float32 heatmap, each class of each split is ONE scatter trace,
tick labels are hidden and `charts.show(..., live=True)` drops the mode bar. The static figures
(unit maps, regions, network diagram) are drawn once per pause or step and keep their axes.
"""

from __future__ import annotations

import time

import numpy as np
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from lib.regions import line_in_box
from ui import charts

TRAIN_DASH, TEST_DASH = "solid", "dot"
MAIN_COLOR, TWIN_COLOR = charts.BLUE, charts.VERMILLION
# P(class 1) behind the points: the class colours mixed 55 % with white, so the points (full
# colour, white edge) stay visible on the region of their own class.
SHADING = [[0.0, "#F4D48C"], [0.5, "#f7f7f7"], [1.0, "#8CBFDC"]]
# Region map colours: Okabe-Ito and lighter tints, cycled over the on/off patterns.
REGION_COLORS = [
    "#0072B2", "#E69F00", "#009E73", "#D55E00", "#CC79A7", "#56B4E9", "#F0E442",
    "#7fb8d8", "#f2cf7f", "#7fcfb9", "#eaae7f", "#e5bcd3", "#aad9f4", "#f7f1a1",
]


def _f32(a) -> np.ndarray:
    return np.ascontiguousarray(a, dtype=np.float32)


def _u8(P) -> np.ndarray:
    """Probabilities in [0, 1] as bytes 0..255: a live heatmap a quarter the size of float32."""
    return np.clip(np.rint(np.asarray(P, dtype=np.float32) * 255), 0, 255).astype(np.uint8)


def _square(fig: go.Figure, limit: float, *, ticks: bool, row=None, col=None) -> None:
    kw = {} if row is None else {"row": row, "col": col}
    fig.update_xaxes(range=[-limit, limit], showticklabels=ticks, showgrid=False, zeroline=False,
                     fixedrange=True, constrain="domain", **kw)
    # A square plot in a wider or taller box: keep it under its title, leave the slack below.
    fig.update_yaxes(range=[-limit, limit], showticklabels=ticks, showgrid=False, zeroline=False,
                     fixedrange=True, constrain="domain", constraintoward="top", **kw)


def dots_path(pts: np.ndarray, r: float, sides: int = 6) -> str:
    """Every point as a small polygon (a square if sides=4), all in ONE SVG path (2 decimals).

    Plotly draws each marker of a scatter trace as its own SVG node: 400 of them redrawn ten
    times a second kept the browser busy most of the time (about 100 ms a redraw). A layout
    shape is one node however many dots it holds, and costs a few milliseconds.

    pts : ndarray of shape (m, 2)
    """
    if sides == 4:  # a square: four numbers a dot with H and V moves, a third of a hexagon's text
        lo, hi = np.round(pts - r, 2), np.round(pts + r, 2)                     # (m, 2) each
        return "".join(f"M{a:.2f},{b:.2f}H{c:.2f}V{d:.2f}H{a:.2f}Z"
                       for (a, b), (c, d) in zip(lo, hi, strict=True))
    angle = np.linspace(0, 2 * np.pi, sides, endpoint=False) + np.pi / 2      # (sides,)
    ring = np.column_stack([np.cos(angle), np.sin(angle)]) * r                  # (sides, 2)
    corners = np.round(pts[:, None, :] + ring[None], 2)                        # (m, sides, 2)
    return "".join(
        "M" + "L".join(f"{x:.2f},{y:.2f}" for x, y in poly) + "Z" for poly in corners
    )


def points_shapes(fig: go.Figure, Xtr, ytr, Xte, yte, *, limit: float, legend: bool = True,
                  xref: str = "x", yref: str = "y") -> None:
    """Each class of each split as one shape: train points filled squares, test points hollow ones."""
    r = 0.022 * limit
    for split, X, y in (("train", Xtr, ytr), ("test", Xte, yte)):
        for c in (0, 1):
            pts = X[y == c]  # (m, 2)
            if not len(pts):
                continue
            color = charts.CLASS_COLORS[c]
            style = (dict(fillcolor=color, line=dict(color="white", width=0.8)) if split == "train" else
                     dict(fillcolor="rgba(255,255,255,0.8)", line=dict(color=color, width=2)))
            fig.add_shape(type="path", path=dots_path(pts, 0.8 * r if split == "train" else 0.9 * r, sides=4),
                          xref=xref, yref=yref, layer="above", name=f"class {c} · {split}",
                          showlegend=legend, legendgroup=split, **style)


def boundary_figure(xs, ys, P, data, *, title: str | None = None, live: bool = True,
                    line: tuple[np.ndarray, np.ndarray] | None = None, height: int = 370,
                    legend: bool = True) -> go.Figure:
    """P(class 1) as shading, the points on top, and optionally one straight line.

    Parameters
    ----------
    xs, ys : ndarray of shape (res,)
    P : ndarray of shape (res, res), P[i, j] at (xs[j], ys[i]), values in [0, 1]
    data : ui.trainer.Data (raw points and the square's half-width)
    line : (x (k,), y (k,)) of a boundary line to draw dashed, or None
    """
    fig = charts.figure(title=title, height=height)
    # x0/dx instead of coordinate arrays: the same picture with two numbers per axis. Live, the
    # probabilities travel as bytes (1/255 steps, invisible in the shading).
    fig.add_trace(go.Heatmap(
        z=_u8(P) if live else _f32(P), x0=float(xs[0]), dx=float(xs[1] - xs[0]), y0=float(ys[0]),
        dy=float(ys[1] - ys[0]), colorscale=SHADING, zmin=0.0, zmax=255.0 if live else 1.0,
        showscale=False,
        hoverinfo="skip" if live else None,
        hovertemplate=None if live else "x₁ = %{x:.2f}<br>x₂ = %{y:.2f}<br>P(1) = %{z:.2f}<extra></extra>",
    ))
    points_shapes(fig, data.Xtr, data.ytr, data.Xte, data.yte, limit=data.limit, legend=legend)
    if line is not None:
        fig.add_trace(go.Scatter(x=line[0], y=line[1], mode="lines", name="the one straight line",
                                 line=dict(color="black", width=2, dash="dash"), hoverinfo="skip"))
    _square(fig, data.limit, ticks=not live)
    fig.update_yaxes(scaleanchor="x", scaleratio=1)
    fig.update_layout(margin=dict(l=4, r=4, t=36 if title else 4, b=4), uirevision="boundary",
                      legend=dict(font=dict(size=11), orientation="h", yanchor="top", y=-0.01,
                                  xanchor="left", x=0.0, entrywidth=0.5, entrywidthmode="fraction"),
                      title=dict(text=title, x=0.0, xanchor="left", font=dict(size=15)) if title else None)
    return fig


def panels_figure(xs, ys, Ps, titles, data, *, height: int = 370) -> go.Figure:
    """Live boundaries side by side in ONE figure (one chart to redraw, not one per network).

    Ps : list of ndarray of shape (res, res), P(class 1) of each network
    titles : list of str, one per panel
    """
    k = len(Ps)
    fig = make_subplots(rows=1, cols=k, subplot_titles=titles, horizontal_spacing=0.04)
    for i, P in enumerate(Ps):
        fig.add_trace(go.Heatmap(
            z=_u8(P), x0=float(xs[0]), dx=float(xs[1] - xs[0]), y0=float(ys[0]), dy=float(ys[1] - ys[0]),
            colorscale=SHADING, zmin=0.0, zmax=255.0, showscale=False, hoverinfo="skip",
        ), row=1, col=i + 1)
        ref = "" if i == 0 else str(i + 1)
        points_shapes(fig, data.Xtr, data.ytr, data.Xte, data.yte, limit=data.limit, legend=i == 0,
                      xref=f"x{ref}", yref=f"y{ref}")
        _square(fig, data.limit, ticks=False, row=1, col=i + 1)
        fig.layout[f"yaxis{ref}"].update(scaleanchor=f"x{ref}", scaleratio=1)
    fig.update_layout(height=height, margin=dict(l=4, r=4, t=30, b=4), uirevision="boundary",
                      legend=dict(font=dict(size=11), orientation="h", yanchor="top", y=-0.01,
                                  xanchor="left", x=0.0, entrywidth=0.25, entrywidthmode="fraction"))
    fig.update_annotations(font_size=15, xanchor="center")
    return fig


def _thin(frame, limit: int = 400):
    """At most `limit` rows (always the last) so the live payload stays small."""
    if len(frame) <= limit:
        return frame
    idx = np.unique(np.linspace(0, len(frame) - 1, limit).round().astype(int))
    return frame.iloc[idx]


def _curve_arrays(hist, twin=None):
    """(name, row, split, colour, x (k,), y (k,)) for every line of the curves figure, in order.

    A split without finite numbers (no test points) has no line.
    """
    runs = [("your network", hist, MAIN_COLOR)]
    if twin is not None:
        runs.insert(0, ("no hidden layer", twin, TWIN_COLOR))
    out = []
    for name, frame, color in runs:
        frame = _thin(frame)
        x = _f32(frame["epoch"])
        for row, what in ((1, "loss"), (2, "acc")):
            for split in ("train", "test"):
                y = frame[f"{split}_{what}"].to_numpy(dtype=float)
                if not np.isfinite(y).all():
                    continue
                out.append((name, row, split, color, x, _f32(100 * y if what == "acc" else y)))
    return out


def curves_figure(hist, twin=None, *, height: int = 380, live: bool = True, wide: bool = False) -> go.Figure:
    """Loss and accuracy against epoch, train solid and test dotted: stacked, or side by side if wide.

    hist, twin : DataFrames with epoch, train_loss, test_loss, train_acc, test_acc
    """
    titles = ("Loss (cross-entropy) by epoch", "Accuracy by epoch")
    if wide:
        fig = make_subplots(rows=1, cols=2, horizontal_spacing=0.1, subplot_titles=titles)
        at = {1: dict(row=1, col=1), 2: dict(row=1, col=2)}
    else:
        fig = make_subplots(rows=2, cols=1, shared_xaxes=True, vertical_spacing=0.1, subplot_titles=titles)
        at = {1: dict(row=1, col=1), 2: dict(row=2, col=1)}
    for name, row, split, color, x, y in _curve_arrays(hist, twin):
        fig.add_trace(go.Scatter(
            x=x, y=y, mode="lines",
            line=dict(color=color, width=2, dash=TRAIN_DASH if split == "train" else TEST_DASH),
            name=f"{name} · {split}", legendgroup=f"{name}{split}", showlegend=row == 2,
            hoverinfo="skip" if live else None,
        ), **at[row])
    fig.update_layout(height=height, margin=dict(l=4, r=4, t=24, b=4), uirevision="curves",
                      legend=dict(orientation="h", yanchor="top", y=-0.1 if wide else -0.06, x=0,
                                  font=dict(size=11)),
                      hovermode="x unified" if not live else False)
    fig.update_yaxes(rangemode="tozero", **at[1])
    fig.update_yaxes(range=[0, 101], ticksuffix=" %", **at[2])
    fig.update_annotations(font_size=13)
    return fig


# --- live figures: built once per run, then only their numbers change -------------------------
# Building a plotly figure costs tens of milliseconds (validation, make_subplots); assigning new
# arrays to a built one costs a tenth of a millisecond. The cache is a dict in the student's session.
def live_boundary(cache: dict, key: str, sig, xs, ys, Ps, data, *, titles, height: int = 370):
    """The live boundary (one network) or boundaries (twin and network side by side in one figure).

    Rebuilt only when `sig` (the run) or the titles change; otherwise only the shading is replaced.
    Ps : list of ndarray of shape (res, res); titles : list of str, one per panel
    """
    want = (sig, tuple(titles), height)
    entry = cache.get(key)
    if entry is None or entry[0] != want:
        fig = (boundary_figure(xs, ys, Ps[0], data, title=titles[0], live=True, height=height)
               if len(Ps) == 1 else panels_figure(xs, ys, Ps, titles, data, height=height))
        cache[key] = (want, fig)
        return fig
    fig = entry[1]
    with fig.batch_update():
        for i, P in enumerate(Ps):
            fig.data[i].z = _u8(P)
    return fig


def live_curves(cache: dict, key: str, hist, twin=None, *, wide: bool = False, height: int = 380,
                hold: float = 0.0):
    """curves_figure, rebuilt only when its set of lines or its shape changes; else new numbers.

    hold : seconds to keep showing the same numbers. An unchanged figure is an unchanged element,
        which the browser does not redraw at all: while playing, the curves move a few times a
        second and the boundary takes the rest of the browser's time.
    """
    lines = _curve_arrays(hist, twin)
    sig = (wide, height, *((name, row, split) for name, row, split, *_ in lines))
    entry = cache.get(key)
    if entry is None or entry[0] != sig:
        fig = curves_figure(hist, twin, wide=wide, height=height)
        cache[key] = (sig, fig)
        cache[key + ".t"] = time.perf_counter()
        return fig
    fig = entry[1]
    now = time.perf_counter()
    if now - cache.get(key + ".t", 0.0) < hold:
        return fig
    cache[key + ".t"] = now
    with fig.batch_update():
        for trace, (*_, x, y) in zip(fig.data, lines, strict=True):
            trace.x, trace.y = x, y
    return fig


def unit_maps_figure(xs, ys, H, *, titles, limit: float, folds=None, cols: int = 4,
                     cell: int = 170) -> go.Figure:
    """One small map per hidden unit: its output over the plane, and its fold line.

    Parameters
    ----------
    H : ndarray of shape (units, res, res), each unit's output (after the bend)
    titles : list of str, one per unit
    folds : list of (x (k,), y (k,)) or None per unit, the line where the unit's sum is 0
    """
    units = len(H)
    cols = max(1, min(cols, units))
    rows = -(-units // cols)
    fig = make_subplots(rows=rows, cols=cols, subplot_titles=titles, horizontal_spacing=0.03,
                        vertical_spacing=0.12 / max(rows, 1) + 0.04)
    dx, dy = float(xs[1] - xs[0]), float(ys[1] - ys[0])
    for u in range(units):
        r, c = u // cols + 1, u % cols + 1
        lim = float(np.abs(H[u]).max()) or 1.0
        fig.add_trace(go.Heatmap(
            z=_f32(H[u]), x0=float(xs[0]), dx=dx, y0=float(ys[0]), dy=dy, colorscale=charts.DIVERGING,
            zmid=0.0, zmin=-lim, zmax=lim, showscale=False,
            hovertemplate=f"{titles[u].split('<')[0]}<br>x₁ = %{{x:.2f}}, x₂ = %{{y:.2f}}"
                          "<br>output %{z:.3g}<extra></extra>",
        ), row=r, col=c)
        fold = folds[u] if folds else None
        if fold is not None:
            fig.add_trace(go.Scatter(x=fold[0], y=fold[1], mode="lines", hoverinfo="skip",
                                     line=dict(color="black", width=1.5, dash="dash"),
                                     showlegend=False), row=r, col=c)
        _square(fig, limit, ticks=False, row=r, col=c)
    for i in range(units):
        suffix = "" if i == 0 else str(i + 1)
        fig.layout[f"yaxis{suffix}"].update(scaleanchor=f"x{suffix}", scaleratio=1)
    fig.update_layout(height=rows * cell + 30, margin=dict(l=4, r=4, t=40, b=4), showlegend=False)
    fig.update_annotations(font_size=12)
    return fig


def regions_figure(xs, ys, ids, *, limit: float, folds=(), data=None, height: int = 420) -> go.Figure:
    """Each linear region (one on/off pattern of the hidden units) in its own colour.

    ids : ndarray of shape (res, res), int, one id per on/off pattern
    folds : fold lines (x (k,), y (k,)) of the first-layer units, drawn thin
    """
    # Renumber patterns in order of first appearance, then cycle through the palette.
    _, first, inverse = np.unique(ids.ravel(), return_index=True, return_inverse=True)
    order = np.argsort(np.argsort(first))
    z = (order[inverse] % len(REGION_COLORS)).reshape(ids.shape)  # (res, res)
    k = len(REGION_COLORS)
    scale = []
    for i, colour in enumerate(REGION_COLORS):
        scale += [[i / k, colour], [(i + 1) / k, colour]]
    fig = charts.figure(height=height)
    fig.add_trace(go.Heatmap(
        z=z.astype(np.float32), x0=float(xs[0]), dx=float(xs[1] - xs[0]), y0=float(ys[0]),
        dy=float(ys[1] - ys[0]), colorscale=scale, zmin=-0.5, zmax=k - 0.5, showscale=False,
        customdata=order[inverse].reshape(ids.shape) + 1,
        hovertemplate="x₁ = %{x:.2f}, x₂ = %{y:.2f}<br>region %{customdata}<extra></extra>",
        opacity=0.6,
    ))
    for fx, fy in folds:
        fig.add_trace(go.Scatter(x=fx, y=fy, mode="lines", hoverinfo="skip", showlegend=False,
                                 line=dict(color="#333333", width=1)))
    if data is not None:
        fig.add_trace(go.Scatter(
            x=_f32(data.Xtr[:, 0]), y=_f32(data.Xtr[:, 1]), mode="markers", hoverinfo="skip",
            marker=dict(color=[charts.CLASS_COLORS[c] for c in data.ytr], size=4,
                        line=dict(color="white", width=0.5)), showlegend=False))
    _square(fig, limit, ticks=True)
    fig.update_yaxes(scaleanchor="x", scaleratio=1)
    fig.update_layout(margin=dict(l=4, r=4, t=4, b=4))
    return fig


def network_figure(params, in_labels, *, act_label: str, height: int = 360) -> go.Figure:
    """The network as a diagram: a column of circles per layer, a line per weight.

    Line width grows with |w|, blue for positive, red for negative (as on /recipe-card).
    params : list of (W (n_in, n_out), b (n_out,))
    """
    sizes = [params[0][0].shape[0]] + [W.shape[1] for W, _ in params]
    tallest = max(sizes)
    pos = []
    for li, size in enumerate(sizes):
        ys = (np.arange(size) - (size - 1) / 2) * (1.0 if tallest < 12 else 12 / tallest)
        pos.append(np.column_stack([np.full(size, float(li)), -ys]))  # (size, 2)
    big = max(float(np.abs(W).max()) for W, _ in params) or 1.0
    fig = charts.figure(height=height)
    # Bin the lines by sign and thickness: a handful of path shapes however many weights there are.
    bins: dict[tuple[int, int], list[str]] = {}
    hx, hy, htext = [], [], []
    for li, (W, _) in enumerate(params):
        for i in range(W.shape[0]):
            for j in range(W.shape[1]):
                w = float(W[i, j])
                width = 1 + round(4 * abs(w) / big)
                a, b = pos[li][i], pos[li + 1][j]
                bins.setdefault((int(w >= 0), width), []).append(
                    f"M{a[0]:.3f},{a[1]:.3f}L{b[0]:.3f},{b[1]:.3f}")
                hx.append(0.5 * (a[0] + b[0]))
                hy.append(0.5 * (a[1] + b[1]))
                htext.append(f"w = {w:.3f}")
    for (positive, width), segments in sorted(bins.items()):
        fig.add_shape(type="path", path="".join(segments), layer="below", opacity=0.75,
                      line=dict(color=charts.POSITIVE if positive else charts.NEGATIVE, width=width))
    fig.add_trace(go.Scatter(x=hx, y=hy, mode="markers", marker=dict(size=8, opacity=0),
                             text=htext, hovertemplate="%{text}<extra></extra>", showlegend=False))
    labels = [list(in_labels)]
    for li in range(1, len(sizes) - 1):
        labels.append([f"h{li}.{j + 1}" if len(sizes) > 3 else f"h{j + 1}" for j in range(sizes[li])])
    labels.append(["P(1)"])
    for li, (p, names) in enumerate(zip(pos, labels, strict=True)):
        hidden = 0 < li < len(sizes) - 1
        fig.add_trace(go.Scatter(
            x=p[:, 0], y=p[:, 1], mode="markers+text" if len(names) <= 12 else "markers",
            text=names, textposition="middle left" if li == 0 else "middle right",
            marker=dict(size=22 if len(names) <= 12 else 10, color="white",
                        line=dict(color=charts.GREY if hidden else charts.GREEN, width=2)),
            hovertemplate="%{text}<extra></extra>", showlegend=False,
        ))
    names = ["inputs"] + [f"hidden {li} ({act_label})" for li in range(1, len(sizes) - 1)] + ["output"]
    fig.update_xaxes(tickvals=list(range(len(sizes))), ticktext=names, range=[-0.6, len(sizes) - 0.4],
                     showgrid=False, zeroline=False, side="top")
    fig.update_yaxes(visible=False, showgrid=False, zeroline=False)
    fig.update_layout(margin=dict(l=4, r=4, t=30, b=4))
    return fig


def line_across(w1: float, w2: float, b: float, limit: float):
    """The fold line w1·x1 + w2·x2 + b = 0 inside the square as (x (2,), y (2,)), or None if it
    misses the square (lib.regions.line_in_box, in the shape the figures here take)."""
    seg = line_in_box([w1, w2], b, limit)                                      # (2, 2) or None
    return None if seg is None else (seg[:, 0], seg[:, 1])

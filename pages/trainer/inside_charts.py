"""The figures of the sections under the live trainer (pages/trainer.py's tabs): every unit's map, the
linear regions, the network diagram, the confusion and follow tables, the warped plane. Arrays in,
plotly figures out, in the colours of ui.colors; the live part's own figures are pages/trainer/charts.py's.
"""

from __future__ import annotations

import functools

import numpy as np
import plotly.graph_objects as go

from pages.trainer.charts import MAIN_COLOR, class_label
from ui import colors, fmt
from ui.boundary import FONT, TICK_FONT, VALUE_MARKS, tint, value_band
from ui.diagram import network_figure
from ui.light import LIVE_TEMPLATE, f32, light_figure

# Region map colours: pale tints of the category hues that are neither near a class colour nor a sign
# colour (teal and dark green sat under green points, olive under orange ones: issue 34), at three
# strengths, cycled over the on/off patterns; the classes' points keep full colour on top of them.
REGION_HUES = (colors.INDIGO, colors.WINE, colors.MAUVE, colors.SAND)
REGION_COLORS = [tint(c, share) for share in (0.3, 0.18, 0.08) for c in REGION_HUES]


def _fold_xy(seg):
    """A fold segment (2, 2) or None as the (x, y) a line trace takes (empty when it misses)."""
    if seg is None:
        return np.zeros(0, dtype=np.float32), np.zeros(0, dtype=np.float32)
    return f32(seg[:, 0]), f32(seg[:, 1])


def _unit_z(h, live: bool):
    """One unit's map for a heatmap and its colour range: float32 with hover values, or live int8
    (each map scaled to -127..127 of its own largest |value|: a quarter of the bytes per redraw)."""
    lim = float(np.abs(h).max()) or 1.0
    if live:
        return np.rint(np.asarray(h, dtype=np.float32) * (127 / lim)).astype(np.int8), 127.0
    return f32(h), lim


def _grid_axes(rows: int, cols: int, limit: float, *, hgap: float = 0.03, vgap: float = 0.08) -> dict:
    """Layout axes for a rows x cols grid of square maps over [-limit, limit]^2, without tick labels.

    The layout make_subplots would write, written directly: make_subplots and its update calls
    validate every property and took about 100 ms for eight maps; this takes well under one.
    """
    w, h = (1 - (cols - 1) * hgap) / cols, (1 - (rows - 1) * vgap) / rows
    axes = {}
    for i in range(rows * cols):
        r, c = divmod(i, cols)
        n = "" if i == 0 else str(i + 1)
        x0, y1 = c * (w + hgap), 1 - r * (h + vgap)
        x0, x1 = max(0.0, round(x0, 6)), min(1.0, round(x0 + w, 6))
        y0, y1 = max(0.0, round(y1 - h, 6)), min(1.0, round(y1, 6))
        common = dict(range=[-limit, limit], showticklabels=False, showgrid=False, zeroline=False, ticks="",
                      fixedrange=True, constrain="domain")
        axes[f"xaxis{n}"] = dict(domain=[x0, x1], anchor=f"y{n}", **common)
        axes[f"yaxis{n}"] = dict(domain=[y0, y1], anchor=f"x{n}", scaleanchor=f"x{n}", scaleratio=1,
                                 constraintoward="top", **common)
    return axes


def unit_maps_figure(xs, ys, H, *, titles, limit: float, folds=None, cols: int = 4,
                     cell: int = 190, live: bool = False) -> go.Figure:
    """One small map per hidden unit: its output over the plane (SIGNED colours), and its fold line.

    Parameters
    ----------
    H : ndarray of shape (units, res, res), each unit's output (after the bend)
    titles : list of str, one per unit
    folds : list of (2, 2) segments or None per unit (where the unit's sum is 0), or None for no lines
    live : redrawn while playing: int8 maps, no hover values
    """
    units = len(H)
    cols = max(1, min(cols, units))
    rows = -(-units // cols)
    axes = _grid_axes(rows, cols, limit, vgap=0.12 / rows + 0.04)
    dx, dy = float(xs[1] - xs[0]), float(ys[1] - ys[0])
    data, notes = [], []
    for u in range(units):
        n = "" if u == 0 else str(u + 1)
        z, lim = _unit_z(H[u], live)
        data.append(dict(
            type="heatmap", z=z, x0=float(xs[0]), dx=dx, y0=float(ys[0]), dy=dy, colorscale=colors.SIGNED,
            zmid=0.0, zmin=-lim, zmax=lim, showscale=False, xaxis=f"x{n}", yaxis=f"y{n}",
            hoverinfo="skip" if live else None,
            hovertemplate=None if live else (f"{titles[u]}<br>x₁ = %{{x:.2f}}, x₂ = %{{y:.2f}}"
                                             "<br>output %{z:.2f}<extra></extra>")))
        if folds is not None:
            fx, fy = _fold_xy(folds[u])
            data.append(dict(type="scatter", x=fx, y=fy, mode="lines", hoverinfo="skip", showlegend=False,
                             line=dict(color=colors.ON, width=1.5, dash="dash"),
                             xaxis=f"x{n}", yaxis=f"y{n}"))
        dom_x, dom_y = axes[f"xaxis{n}"]["domain"], axes[f"yaxis{n}"]["domain"]
        notes.append(dict(text=titles[u], x=(dom_x[0] + dom_x[1]) / 2, y=dom_y[1], xref="paper", yref="paper",
                          xanchor="center", yanchor="bottom", showarrow=False, font=dict(size=13)))
    layout = dict(height=rows * cell + 30, margin=dict(l=4, r=4, t=40, b=4), showlegend=False,
                  font=dict(size=FONT), annotations=notes, **axes)
    traces = [{k: v for k, v in t.items() if v is not None} for t in data]
    return light_figure(dict(data=traces, layout=layout))


def _region_z(ids):
    """Patterns renumbered in order of first appearance: (colour index (res, res), region number)."""
    _, first, inverse = np.unique(ids.ravel(), return_index=True, return_inverse=True)
    order = np.argsort(np.argsort(first))
    number = order[inverse].reshape(ids.shape)                                 # (res, res)
    return f32(number % len(REGION_COLORS)), (number + 1).astype(np.int32)


def _house_axis(**more) -> dict:
    """ui.charts.figure's axis (zero line, powers of ten) with `more` on top, as one dict."""
    return {"zeroline": True, "exponentformat": "power", **more}


# ui.charts.figure's layout, written once as a dict (its legend and hover mode; margins and height
# are each builder's own).
HOUSE_LAYOUT = dict(title={}, legend=dict(orientation="h", yanchor="bottom", y=1.0, xanchor="left", x=0.0),
                    hovermode="closest", font=dict(size=FONT))


def regions_figure(xs, ys, ids, *, limit: float, folds=(), data=None, height: int = 440) -> go.Figure:
    """Each linear region (one on/off pattern of the hidden units) in its own category colour.

    Written as the figure's dict, built without validation (a test builds it validated).

    ids : ndarray of shape (res, res), int, one id per on/off pattern
    folds : fold segments (2, 2) or None of the first-layer units, drawn thin
    """
    z, number = _region_z(ids)
    k = len(REGION_COLORS)
    scale = []
    for i, colour in enumerate(REGION_COLORS):
        scale += [[i / k, colour], [(i + 1) / k, colour]]
    traces = [dict(
        type="heatmap", z=z, x0=float(xs[0]), dx=float(xs[1] - xs[0]), y0=float(ys[0]),
        dy=float(ys[1] - ys[0]), colorscale=scale, zmin=-0.5, zmax=k - 0.5, showscale=False,
        customdata=number,
        hovertemplate="x₁ = %{x:.2f}, x₂ = %{y:.2f}<br>region %{customdata}<extra></extra>",
        opacity=0.6,
    )]
    for seg in folds:
        fx, fy = _fold_xy(seg)
        traces.append(dict(type="scatter", x=fx, y=fy, mode="lines", hoverinfo="skip", showlegend=False,
                           line=dict(color=colors.ON, width=1)))
    if data is not None:
        traces.append(dict(
            type="scatter", x=f32(data.Xtr[:, 0]), y=f32(data.Xtr[:, 1]), mode="markers", hoverinfo="skip",
            marker=dict(color=[colors.CLASSES[c] for c in data.ytr], size=5,
                        symbol=[colors.class_symbol(int(c)) for c in data.ytr],
                        line=dict(color="white", width=0.5)), showlegend=False))
    axis = dict(range=[-limit, limit], showticklabels=True, showgrid=False, zeroline=False, fixedrange=True,
                constrain="domain", tickfont=dict(size=TICK_FONT), nticks=5)
    layout = dict(HOUSE_LAYOUT, height=height, margin=dict(l=8, r=8, t=8, b=8),
                  xaxis=_house_axis(**axis),
                  yaxis=_house_axis(**axis, constraintoward="top", scaleanchor="x", scaleratio=1))
    return light_figure(dict(data=traces, layout=layout))


def live_regions(cache: dict, key: str, xs, ys, ids, *, limit: float, folds=(), data=None, sig=None):
    """regions_figure, kept while the run (`sig`), the regions and the folds stay the same; else built
    again from its dict (a Light figure: a fraction of a millisecond, less than assigning new numbers
    to a built plotly figure)."""
    want = (sig, limit, ids.tobytes(), tuple(None if f is None else f.tobytes() for f in folds))
    entry = cache.get(key)
    if entry is None or entry[0] != want:
        fig = regions_figure(xs, ys, ids, limit=limit, folds=folds, data=data)
        cache[key] = (want, fig)
        return fig
    return entry[1]


def network_diagram(params, in_labels, *, act_label: str, height: int = 360) -> go.Figure:
    """The network as ui.diagram draws a big one: a column of circles per layer, a line per weight
    (binned by sign and width), each column titled.

    params : list of (W (n_in, n_out), b (n_out,))
    """
    sizes = [params[0][0].shape[0]] + [W.shape[1] for W, _ in params]
    labels = [list(in_labels)]
    for li in range(1, len(sizes) - 1):
        labels.append([f"h{li}.{j + 1}" if len(sizes) > 3 else f"h{j + 1}" for j in range(sizes[li])])
    labels.append(["P(1)"])
    columns = ["inputs"] + [f"hidden {li} ({act_label})" for li in range(1, len(sizes) - 1)] + ["output"]
    return network_figure([W for W, _ in params], labels, columns=columns, height=height)


# --- tables ----------------------------------------------------------------------------------------
@functools.lru_cache(maxsize=16)
def _confusion_schema(k: int):
    """The Arrow schema (pandas metadata included) of a k x k confusion matrix's frame, and its row labels.

    Here, not in the page: a page file runs afresh on every rerun, and its module-level caches with it."""
    import pandas as pd
    import pyarrow as pa

    frame = pd.DataFrame(np.zeros((k, k), dtype=np.int64),
                         index=[f"true {class_label(c)}" for c in range(k)],
                         columns=[f"taken for class {c}" for c in range(k)])
    table = pa.Table.from_pandas(frame)
    return table.schema, table.column(k)


def confusion_table(C):
    """A confusion matrix (k, k) as the Arrow table st.dataframe would make from its pandas frame (rows
    "true class i (name)", columns "taken for class j"): the same bytes on the wire, without pandas'
    conversion on every rerun."""
    import pyarrow as pa

    counts = np.asarray(C, dtype=np.int64)
    k = len(counts)
    schema, labels = _confusion_schema(k)
    return pa.Table.from_arrays([*(pa.array(counts[:, j]) for j in range(k)), labels], schema=schema)


def follow_table(z, h, delta, passes):
    """One hidden layer of a followed point (an Arrow table): each unit's sum, its output after the bend,
    its delta, and whether it passes gradient back (numbers rounded to the app's 3 significant digits)."""
    import pyarrow as pa

    return pa.table({"unit": [str(j + 1) for j in range(len(z))],
                     "sum z": [fmt.num(float(v)) for v in z],
                     "output": [fmt.num(float(v)) for v in h],
                     "δ = ∂loss/∂z": [fmt.num(float(v)) for v in delta],
                     "passes gradient": ["yes" if ok else "no: flat bend" for ok in passes]})


def follow_pick_figure(data, chosen: int, problem: str) -> go.Figure:
    """The training points to pick from (a click follows one), the followed one ringed. On a curve, x
    against the value."""
    X, y = np.asarray(data.Xtr, dtype=float), np.asarray(data.ytr)
    curve = X.shape[1] == 1
    xs, ys = (X[:, 0], y.astype(float)) if curve else (X[:, 0], X[:, 1])
    if problem == "regress":
        marker = dict(color=colors.OFF, size=7)
    else:
        marker = dict(color=[colors.CLASSES[int(c) % len(colors.CLASSES)] for c in y], size=7,
                      symbol=[colors.class_symbol(int(c)) for c in y])
    fig = go.Figure()
    fig.add_scatter(x=xs, y=ys, mode="markers", marker=marker, showlegend=False,
                    hovertemplate="point %{pointIndex}<extra></extra>")
    fig.add_scatter(x=[xs[chosen]], y=[ys[chosen]], mode="markers", showlegend=False, hoverinfo="skip",
                    marker=dict(symbol="circle-open", size=20, color=colors.ON, line=dict(width=3)))
    fig.update_layout(height=320, margin=dict(l=8, r=8, t=36, b=8), clickmode="event+select",
                      title=dict(text=f"Following point {chosen}", font=dict(size=15)))
    fig.update_xaxes(title="x" if curve else "x₁", fixedrange=True)
    fig.update_yaxes(title="value" if curve else "x₂", fixedrange=True)
    return fig


# --- the plane as a hidden layer sees it -------------------------------------------------------------
def _gapped(lines: np.ndarray, axis: int) -> list:
    """One coordinate of several lines (n_lines, n_samples, 2) as one list, None between two lines."""
    out: list = []
    for line in np.round(lines[..., axis], 4).tolist():
        out += [*line, None]
    return out[:-1]


def _marks(P, y, split: str, k: int, span: float | None) -> dict:
    """Points as one marker trace in the map's colours (points_shapes' squares: filled train, hollow
    test; classes in CLASSES, values in VALUE_MARKS bands). Markers, not paths: their size stays the same
    on axes of any scale, and a layer's outputs may span 0.01 or 100."""
    group = value_band(y, span) if span is not None else np.asarray(y).astype(int)
    palette = VALUE_MARKS if span is not None else colors.CLASSES[:k]
    color = [palette[g] for g in group.tolist()]
    train = split == "train"
    # values: squares; classes: each its own shape (ui.colors.CLASS_SYMBOLS), hollow for test points
    symbol = ("square" if train else "square-open") if span is not None else [
        colors.class_symbol(g, test=not train) for g in group.tolist()]
    marker = dict(symbol=symbol, size=7, color=color,
                  line=dict(color="white", width=0.8) if train else dict(width=2))
    return dict(type="scatter", x=f32(P[:, 0]), y=f32(P[:, 1]), mode="markers", name=f"{split} points",
                hoverinfo="skip", showlegend=False, marker=marker)


def warp_figure(lines, Ptr, ytr, Pte, yte, *, x_title: str, y_title: str, k: int = 2,
                span: float | None = None, height: int = 480) -> go.Figure:
    """The plane as a hidden layer sees it: the grid (or a curve's line) after the layer as ONE line trace,
    the points after it coloured as on the map, both axes to one scale, so a shear shows as a shear and a
    fold onto an axis (the zero lines, drawn dark) as a fold.

    lines : ndarray (n_lines, n_samples, 2), the warped grid lines (lib.warp.warp of lib.warp.grid_lines)
    Ptr, Pte : ndarray (n, 2), the warped train and test points; ytr, yte : their labels or values
    k, span : how the points are coloured: k classes, or bands of value / span (values)
    """
    every = np.concatenate([lines.reshape(-1, 2), Ptr, Pte, np.zeros((1, 2))])  # the origin stays in view
    lo, hi = every.min(axis=0), every.max(axis=0)
    pad = 0.05 * max(float((hi - lo).max()), 1e-6)
    grid = dict(type="scatter", x=_gapped(lines, 0), y=_gapped(lines, 1), mode="lines", name="grid",
                hoverinfo="skip", showlegend=False, line=dict(color=tint(MAIN_COLOR, 0.7), width=1.2))
    splits = (("train", Ptr, ytr), ("test", Pte, yte))
    traces = [grid] + [_marks(P, y, split, k, span) for split, P, y in splits if len(y)]
    axis = dict(showgrid=False, zeroline=True, zerolinecolor=colors.ON, zerolinewidth=1.5, fixedrange=True,
                constrain="domain", tickfont=dict(size=TICK_FONT), nticks=6, exponentformat="power")
    layout = dict(
        height=height, margin=dict(l=8, r=8, t=8, b=8), font=dict(size=FONT), showlegend=False,
        uirevision="warp", template=LIVE_TEMPLATE,
        xaxis=dict(axis, range=[float(lo[0]) - pad, float(hi[0]) + pad], title=dict(text=x_title)),
        yaxis=dict(axis, range=[float(lo[1]) - pad, float(hi[1]) + pad], title=dict(text=y_title),
                   scaleanchor="x", scaleratio=1, constraintoward="top"),
    )
    return light_figure(dict(data=traces, layout=layout))

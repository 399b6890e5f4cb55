"""A network diagram drawn from its weight matrices: the picture and the matrix are one.

Circles are inputs and neurons; one line per weight in the sign colours of ui.colors (blue
positive, vermillion negative, a grey dotted line for an exact 0), thicker for bigger. Hovering
anywhere along a line shows the weight and the cell it lives in (row = where the line starts,
column = the neuron it feeds), so a student can check that the diagram and W hold the same numbers.

The figure is built without plotly's per-property validation (`_validate=False`): the traces are
plain, known-good dicts, and validating one trace per weight was most of a card slider's rerun.
A big network (the trainer's, hundreds of weights; `columns=` titles its layers) has its lines binned
by sign and width into a few path shapes, one SVG node each, and a hover point per weight.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import plotly.graph_objects as go

from ui import colors
from ui import fmt as fmt_num
from ui.light import light_figure
from ui.plotly_private import NO_VALIDATION
from ui.slider_grid import sub

_ALONG = np.linspace(0.15, 0.85, 15)  # hover points along a line, clear of the circles
_NODE_FILL, _NODE_TEXT = "#f4f4f4", colors.ON


def _column_y(n: int) -> np.ndarray:
    """Vertical positions of n circles, centred on 0, one unit apart."""
    return (n - 1) / 2.0 - np.arange(n, dtype=float)  # (n,) top to bottom


def network_figure(weights: Sequence, node_labels: Sequence[Sequence[str]], *,
                   node_values: Sequence | None = None, names: Sequence[str] | None = None,
                   fmt: str = ".2f", height: int | None = None,
                   columns: Sequence[str] | None = None) -> go.Figure:
    """Layers of circles joined by one line per weight: the one diagram builder of the app.

    Parameters
    ----------
    weights : list of arrays, weights[k] of shape (n_k, n_{k+1}) (GPT-2's layout, x W)
    node_labels : one list of names per column of circles (len(weights) + 1 lists)
    node_values : optional, one array per column: numbers written inside the circles
    names : the letter for each matrix's weights in hovers ("w", "w′"), default "w"
    fmt : number format of a weight in hovers and of node values
    columns : a title over each column of circles ("inputs", "hidden 1 (ReLU)", "output"): a big
        network's diagram (_binned), names beside the circles, no values in them

    Every weight line is its own trace whose customdata rows are (row i, column j, value),
    1-based, so tests and hovers read the same number.
    """
    weights = [np.atleast_2d(np.asarray(W, dtype=float)) for W in weights]
    if columns is not None:
        return _binned(weights, node_labels, columns, height or 360)
    sizes = [weights[0].shape[0]] + [W.shape[1] for W in weights]
    names = list(names) if names is not None else ["w"] * len(weights)
    ys = [_column_y(n) for n in sizes]
    biggest = max((float(np.max(np.abs(W))) for W in weights if W.size), default=0.0) or 1.0
    tall = max(sizes)
    data = []
    for k, W in enumerate(weights):
        for i in range(W.shape[0]):
            for j in range(W.shape[1]):
                w = float(W[i, j])
                x0, y0, x1, y1 = k, ys[k][i], k + 1, ys[k + 1][j]
                color = colors.POSITIVE if w > 0 else colors.NEGATIVE if w < 0 else colors.OFF
                label = f"{names[k]}{sub(f'{i + 1}{j + 1}')}"
                data.append(dict(
                    type="scatter", x=x0 + _ALONG * (x1 - x0), y=y0 + _ALONG * (y1 - y0), mode="lines",
                    line=dict(color=color, width=1.0 + 7.0 * abs(w) / biggest,
                              dash="dot" if w == 0 else "solid"),
                    customdata=np.tile([i + 1, j + 1, w], (_ALONG.size, 1)),  # (15, 3)
                    name=label, showlegend=False,
                    hovertemplate=(f"<b>{label} = %{{customdata[2]:{fmt}}}</b><br>"
                                   f"{node_labels[k][i]} → {node_labels[k + 1][j]}<br>"
                                   "cell: row %{customdata[0]}, column %{customdata[1]}"
                                   "<extra></extra>"),
                ))
    nodes, notes = _node_columns(sizes, ys, node_labels, node_values)
    data += nodes
    span = len(weights)
    layout = dict(
        height=height or int(90 + 62 * max(tall, 2)), margin=dict(l=4, r=4, t=4, b=4),
        hoverlabel=dict(align="left", font=dict(size=14)), annotations=notes, showlegend=False,
        xaxis=dict(visible=False, range=[-0.9, span + 0.9], fixedrange=True),
        yaxis=dict(visible=False, range=[-tall / 2.0, tall / 2.0], fixedrange=True),
    )
    return go.Figure(data=data, layout=layout, **NO_VALIDATION)


def _node_columns(sizes: list[int], ys: list, node_labels, node_values) -> tuple[list[dict], list[dict]]:
    """The circles of each column (their values written in) and the names beside them."""
    data, notes = [], []
    for k, n in enumerate(sizes):
        values = None if node_values is None or node_values[k] is None else np.asarray(
            node_values[k], dtype=float)
        text = [fmt_num.num(v, 2, keep=1) for v in values] if values is not None else [""] * n
        data.append(dict(
            type="scatter", x=np.full(n, float(k)), y=ys[k], mode="markers+text", text=text,
            textfont=dict(color=_NODE_TEXT, size=13),
            marker=dict(size=50, color=_NODE_FILL, line=dict(color=colors.OFF, width=2)),
            name=f"layer {k}", showlegend=False, hoverinfo="skip",
        ))
        # Names outside the circles (a fixed pixel gap, whatever the chart's width): to the
        # left of the inputs, to the right of everything else.
        left = k == 0
        notes += [dict(x=float(k), y=float(ys[k][i]), text=str(node_labels[k][i]), showarrow=False,
                       xanchor="right" if left else "left", xshift=-30 if left else 30,
                       font=dict(size=14)) for i in range(n)]
    return data, notes


def _binned(weights: list, node_labels: Sequence[Sequence[str]], columns: Sequence[str],
            height: int) -> go.Figure:
    """network_figure for a big network: line width grows with |w| in five steps, blue for positive,
    vermillion for negative, the lines of one sign and width one path shape; past 12 circles a column is
    squeezed to the height of 12 and its circles shrink."""
    sizes = [weights[0].shape[0]] + [W.shape[1] for W in weights]
    tallest = max(sizes)
    pos = []
    for li, size in enumerate(sizes):
        ys = (np.arange(size) - (size - 1) / 2) * (1.0 if tallest < 12 else 12 / tallest)
        pos.append(np.column_stack([np.full(size, float(li)), -ys]))  # (size, 2)
    big = max(float(np.abs(W).max()) for W in weights) or 1.0
    # Bin the lines by sign and thickness: a handful of path shapes however many weights there are.
    bins: dict[tuple[int, int], list[str]] = {}
    hx, hy, htext = [], [], []
    for li, W in enumerate(weights):
        P0, P1 = pos[li].tolist(), pos[li + 1].tolist()
        for i, row in enumerate(W.tolist()):
            a = P0[i]
            for j, w in enumerate(row):
                width = 1 + round(4 * abs(w) / big)
                b = P1[j]
                bins.setdefault((int(w >= 0), width), []).append(
                    f"M{a[0]:.3f},{a[1]:.3f}L{b[0]:.3f},{b[1]:.3f}")
                hx.append(0.5 * (a[0] + b[0]))
                hy.append(0.5 * (a[1] + b[1]))
                htext.append(f"w = {fmt_num.num(w)}")
    # Opaque: vermillion at 75 % over white read as light orange, beside the classes' orange (issue 34).
    shapes = [dict(type="path", path="".join(segments), layer="below", opacity=1.0,
                   line=dict(color=colors.POSITIVE if positive else colors.NEGATIVE, width=width))
              for (positive, width), segments in sorted(bins.items())]
    traces = [dict(type="scatter", x=hx, y=hy, mode="markers", marker=dict(size=8, opacity=0),
                   text=htext, hovertemplate="%{text}<extra></extra>", showlegend=False)]
    for li, (p, names) in enumerate(zip(pos, node_labels, strict=True)):
        names = list(names)
        hidden = 0 < li < len(sizes) - 1
        traces.append(dict(
            type="scatter", x=p[:, 0], y=p[:, 1], mode="markers+text" if len(names) <= 12 else "markers",
            text=names, textposition="middle left" if li == 0 else "middle right",
            textfont=dict(size=13),
            marker=dict(size=22 if len(names) <= 12 else 10, color="white",
                        line=dict(color=colors.OFF if hidden else colors.ON, width=2)),
            hovertemplate="%{text}<extra></extra>", showlegend=False,
        ))
    # ui.charts.figure's legend, hover and axis settings, written as one dict (no validation).
    layout = dict(title={}, legend=dict(orientation="h", yanchor="bottom", y=1.0, xanchor="left", x=0.0),
                  hovermode="closest", font=dict(size=14), height=height, margin=dict(l=4, r=4, t=30, b=4),
                  shapes=shapes,
                  xaxis=dict(exponentformat="power", tickvals=list(range(len(sizes))), ticktext=list(columns),
                             range=[-0.6, len(sizes) - 0.4], showgrid=False, zeroline=False, side="top",
                             tickfont=dict(size=13)),
                  yaxis=dict(exponentformat="power", visible=False, showgrid=False, zeroline=False))
    return light_figure(dict(data=traces, layout=layout))


def cells_figure(M, *, row_labels: Sequence[str], col_labels: Sequence[str],
                 height: int | None = None) -> go.Figure:
    """A matrix as coloured cells with its numbers written in (rows top to bottom): the signed scale
    of ui.colors (vermillion below zero, near white at zero, blue above), one scale for the whole
    matrix so equal numbers look equal. Built without validation, like `network_figure`.

    M : (r, c); the cell text is ui.fmt's, so no −0.00 and a true minus.
    """
    M = np.atleast_2d(np.asarray(M, dtype=float))  # (r, c)
    lim = float(np.max(np.abs(M))) if M.size and np.isfinite(M).all() else 0.0
    lim = lim or 1.0
    text = [[fmt_num.num(v, 2, keep=1) for v in row] for row in M]
    size = 15 if M.shape[1] <= 4 else 13
    data = [dict(
        type="heatmap", z=M, x=list(col_labels), y=list(row_labels), colorscale=colors.SIGNED,
        zmid=0.0, zmin=-lim, zmax=lim, showscale=False, text=text, texttemplate="%{text}",
        textfont=dict(size=size), xgap=2, ygap=2,
        hovertemplate="row %{y}, column %{x}: %{text}<extra></extra>",
    )]
    layout = dict(
        height=height or int(50 + 40 * M.shape[0]), margin=dict(l=4, r=4, t=4, b=4),
        font=dict(size=14), hoverlabel=dict(font=dict(size=14)),
        xaxis=dict(side="top", zeroline=False, showgrid=False, fixedrange=True, tickfont=dict(size=13)),
        yaxis=dict(autorange="reversed", zeroline=False, showgrid=False, fixedrange=True,
                   tickfont=dict(size=13)),
    )
    return go.Figure(data=data, layout=layout, **NO_VALIDATION)

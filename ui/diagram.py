"""A network diagram drawn from its weight matrices: the picture and the matrix are one.

Circles are inputs and neurons; one line per weight, blue if positive, red if negative,
thicker for bigger. Hovering anywhere along a line shows the weight, formatted as its
slider shows it, and the cell it lives in (row = where the line starts, column = the
neuron it feeds), so a student can check that the diagram and W hold the same numbers.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import plotly.graph_objects as go

from ui import charts
from ui.slider_grid import sub

_ALONG = np.linspace(0.15, 0.85, 15)  # hover points along a line, clear of the circles
_NODE_FILL, _NODE_TEXT = "#f4f4f4", "#222222"


def _column_y(n: int) -> np.ndarray:
    """Vertical positions of n circles, centred on 0, one unit apart."""
    return (n - 1) / 2.0 - np.arange(n, dtype=float)  # (n,) top to bottom


def network_figure(weights: Sequence, node_labels: Sequence[Sequence[str]], *,
                   node_values: Sequence | None = None, names: Sequence[str] | None = None,
                   fmt: str = ".2f", height: int | None = None) -> go.Figure:
    """Layers of circles joined by one line per weight.

    Parameters
    ----------
    weights : list of arrays, weights[k] of shape (n_k, n_{k+1}) (GPT-2's layout, x W)
    node_labels : one list of names per column of circles (len(weights) + 1 lists)
    node_values : optional, one array per column: numbers written inside the circles
    names : the letter for each matrix's weights in hovers ("w", "w′"), default "w"
    fmt : number format of a weight in hovers and of node values

    Every weight line is its own trace whose customdata rows are (row i, column j, value),
    1-based, so tests and hovers read the same number.
    """
    weights = [np.atleast_2d(np.asarray(W, dtype=float)) for W in weights]
    sizes = [weights[0].shape[0]] + [W.shape[1] for W in weights]
    names = list(names) if names is not None else ["w"] * len(weights)
    ys = [_column_y(n) for n in sizes]
    biggest = max((float(np.max(np.abs(W))) for W in weights if W.size), default=0.0) or 1.0
    tall = max(sizes)
    fig = charts.figure(height=height or int(90 + 62 * max(tall, 2)))

    for k, W in enumerate(weights):
        for i in range(W.shape[0]):
            for j in range(W.shape[1]):
                w = float(W[i, j])
                x0, y0, x1, y1 = k, ys[k][i], k + 1, ys[k + 1][j]
                color = charts.POSITIVE if w > 0 else charts.NEGATIVE if w < 0 else charts.GREY
                label = f"{names[k]}{sub(f'{i + 1}{j + 1}')}"
                fig.add_trace(go.Scatter(
                    x=x0 + _ALONG * (x1 - x0), y=y0 + _ALONG * (y1 - y0), mode="lines",
                    line=dict(color=color, width=1.0 + 7.0 * abs(w) / biggest,
                              dash="dot" if w == 0 else "solid"),
                    customdata=np.tile([i + 1, j + 1, w], (_ALONG.size, 1)),  # (15, 3)
                    name=label, showlegend=False,
                    hovertemplate=(f"<b>{label} = %{{customdata[2]:{fmt}}}</b><br>"
                                   f"{node_labels[k][i]} → {node_labels[k + 1][j]}<br>"
                                   "cell: row %{customdata[0]}, column %{customdata[1]}"
                                   "<extra></extra>"),
                ))

    for k, n in enumerate(sizes):
        values = None if node_values is None or node_values[k] is None else np.asarray(
            node_values[k], dtype=float)
        text = [format(v, fmt) for v in values] if values is not None else [""] * n
        fig.add_trace(go.Scatter(
            x=np.full(n, float(k)), y=ys[k], mode="markers+text", text=text,
            textfont=dict(color=_NODE_TEXT, size=12),
            marker=dict(size=44, color=_NODE_FILL, line=dict(color=charts.GREY, width=2)),
            name=f"layer {k}", showlegend=False, hoverinfo="skip",
        ))
        # Names outside the circles (a fixed pixel gap, whatever the chart's width): to the
        # left of the inputs, to the right of everything else.
        left = k == 0
        for i in range(n):
            fig.add_annotation(x=float(k), y=float(ys[k][i]), text=str(node_labels[k][i]),
                               showarrow=False, xanchor="right" if left else "left",
                               xshift=-27 if left else 27, font=dict(size=13))
    span = len(weights)
    fig.update_xaxes(visible=False, range=[-0.9, span + 0.9], fixedrange=True)
    fig.update_yaxes(visible=False, range=[-tall / 2.0, tall / 2.0], fixedrange=True)
    fig.update_layout(margin=dict(l=4, r=4, t=4, b=4), hoverlabel=dict(align="left"))
    return fig

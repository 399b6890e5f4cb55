"""/stacking's figures: the mini network's diagram and loss curve, depth's growth, a matrix as cells.
Cached and frozen, so a move that does not change a figure sends nothing new."""

import numpy as np
import streamlit as st

from lib.depth import compound, random_stack
from ui import charts, colors, fmt
from ui.diagram import cells_figure, network_figure
from ui.frozen import freezes
from ui.slider_grid import sub

HIDDEN = ["h₁", "h₂"]  # layer 1's outputs, as the equation names them
REF_UP, REF_DOWN = 1.5, 0.7  # seed 002's two examples: grows a little, shrinks a little


@st.cache_resource(max_entries=32)
@freezes
def mini_diagram(W1, W2, x, h1, y_hat):
    return network_figure([W1, W2], [[sub(f"x{i + 1}") for i in range(3)], HIDDEN, ["ŷ"]],
                          node_values=[x, h1, y_hat], names=["w", "w′"], height=300)


def loss_figure(losses: tuple):
    fig = charts.figure(title="Loss against step", x_title="step", y_title="loss (ŷ − y)²", height=240)
    fig.add_scatter(x=list(range(len(losses))), y=list(losses), mode="lines+markers",
                    line=dict(color=charts.SERIES[0], width=2.5), marker=dict(size=6), showlegend=False)
    fig.update_yaxes(rangemode="tozero")
    fig.update_xaxes(range=[-0.3, max(10, len(losses) - 1) + 0.3], rangemode="tozero")  # steps 0…10 before any
    return fig


@st.cache_data(max_entries=64)
def stack(scale: float, depth: int, width: int, seed: int) -> np.ndarray:
    return random_stack(scale, depth, width=width, seed=seed)  # (depth + 1,)


@st.cache_resource(max_entries=32)
@freezes
def depth_figure(scale: float, depth: int, width: int, seed: int):
    k = np.arange(depth + 1)         # (depth + 1,)
    mine, measured_name = f"{fmt.num(scale, 2)}^k (arithmetic)", f"random {width}-wide layers (measured)"
    series = {mine: compound(scale, depth), measured_name: stack(scale, depth, width, seed)}
    up, down = f"{fmt.num(REF_UP)}^k", f"{fmt.num(REF_DOWN)}^k"
    palette = {mine: colors.INDIGO, measured_name: colors.TEAL, up: colors.WINE, down: colors.OLIVE}
    for name, s_ref in ((up, REF_UP), (down, REF_DOWN)):
        if not np.isclose(scale, s_ref):  # the same line twice would hide one of them
            series[name] = compound(s_ref, depth)
    fig = charts.line_figure(k, series, x_title="layers k", y_title="size of the activations (× the input's)",
                             dashed=[up, down], colors=palette, height=400)
    fig.update_traces(mode="lines+markers", marker=dict(size=7), selector=dict(name=measured_name))
    fig.update_yaxes(type="log", dtick=1)  # one tick per power of ten
    fig.update_layout(legend=dict(font=dict(size=14)))
    return fig


@st.cache_resource(max_entries=32)
@freezes
def matrix_cells(M, rows: tuple, cols: tuple):
    return cells_figure(M, row_labels=list(rows), col_labels=list(cols))

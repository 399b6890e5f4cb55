"""The recipe card's pieces that outlive a rerun: its Layer and its cached figures (/recipe-card).

A page file is executed afresh on every rerun, so a `@st.cache_resource` or a dataclass written in
it is decorated or created again each time: Streamlit hashes the function's source to find its
cache (reading the file through linecache and tokenize), which was 2-3 ms of every move of a card
slider. Defined here, they are made once per process; the page keeps the words and the layout.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np
import plotly.graph_objects as go
import plotly.io as pio
import streamlit as st

from lib.layers import linear
from ui import colors
from ui.diagram import cells_figure, network_figure
from ui.expr import par, plus
from ui.frozen import freezes
from ui.plotly_private import NO_VALIDATION


@dataclass(frozen=True)
class Layer:
    """The card in force on this run, and the words it is told in."""

    x: np.ndarray   # (nin,)
    W: np.ndarray   # (nin, nout)
    b: np.ndarray   # (nout,)
    story: bool
    ins: list       # nin input names
    outs: list      # nout output names

    @functools.cached_property
    def y(self) -> np.ndarray:
        return linear(self.x, self.W, self.b)  # (nout,)

    @property
    def fruit(self) -> str:
        return "fruit" if self.story else "input"

    @property
    def smoothie(self) -> str:
        return "smoothie" if self.story else "output"

    @property
    def bias(self) -> str:
        return "yoghurt" if self.story else "bias b"


# The old page's second half moved to /stacking: a link with one of its keys opens there. Named here, not read
# from pages/stacking.py (that would run another lesson's page file: an import, tests/unit/test_floors.py).
MOVED = frozenset({"depth", "lr", "mb1", "mb2", "mw11", "mw12", "mw21", "mw22", "mw31", "mw32", "mx1", "mx2",
                   "mx3", "pb1", "pw11", "pw21", "relu", "scale", "seed", "steps", "target", "tokens", "width"})


@st.cache_resource(max_entries=32)
@freezes
def diagram(W, x, y, ins: tuple, outs: tuple):
    return network_figure([W], [list(ins), list(outs)], node_values=[x, y],
                          height=int(70 + 58 * max(*W.shape, 2)))


@st.cache_resource(max_entries=32)
@freezes
def cells(W, ins: tuple, outs: tuple):
    return cells_figure(W, row_labels=list(ins), col_labels=list(outs))


@st.cache_resource(max_entries=32)
@freezes
def bars(order: tuple, part: tuple, bias: tuple, fruit: str, bias_name: str) -> go.Figure:
    """Linearity: each output's input part at x and at kx, with its bias on top."""
    # One dict, built without plotly's per-property validation (as ui.diagram does): the house
    # layout of ui.charts.figure written out, and two stacked bars. A unit test builds it validated.
    # The input part in the sign colours of every number on the page (blue positive, vermillion negative).
    data = [dict(type="bar", x=list(order), y=list(part), name=f"{fruit} part xW (blue +, vermillion −)",
                 marker=dict(color=[colors.NEGATIVE if v < 0 else colors.POSITIVE for v in part]),
                 hovertemplate=f"%{{x}}<br>{fruit} part %{{y:.3f}}<extra></extra>"),
            dict(type="bar", x=list(order), y=list(bias), name=f"{bias_name} (b)",
                 marker=dict(color=colors.SAND), hovertemplate="%{x}<br>bias %{y:.3f}<extra></extra>")]
    layout = dict(
        margin=dict(l=10, r=10, t=10, b=10), height=340, hovermode="closest", font=dict(size=14),
        legend=dict(orientation="h", yanchor="bottom", y=1.0, xanchor="left", x=0.0, font=dict(size=14)),
        xaxis=dict(zeroline=True, exponentformat="power", tickfont=dict(size=13)),
        yaxis=dict(title=dict(text="output"), zeroline=True, exponentformat="power"),
        barmode="relative", title={}, template=pio.templates[pio.templates.default],
    )
    return go.Figure(dict(data=data, layout=layout), **NO_VALIDATION)


def dot_text(x, w, b: float | None) -> str:
    """Plain text for x·w (+ b), every product written out: '1.0 × 0.8 + 0.5 × 0.3 + (−1.0) × (−0.6) + 0.1'
    (x: the inputs, w: one column of weights)."""
    parts = [f"{par(a)} × {par(c)}" for a, c in zip(x, w, strict=True)]
    if b is not None:
        parts.append(par(b))
    return plus(parts)

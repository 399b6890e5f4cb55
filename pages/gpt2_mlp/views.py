"""Charts and cached computations for the /gpt2-mlp lesson (GPT-2's MLP block).

Chart builders take arrays and return plotly figures, built from one dict each (validated once,
several times cheaper than add_trace + update_*) and cached by their inputs with st.cache_resource,
so an unchanged chart is the same go.Figure object: never mutate what they return. The cached
functions at the end wrap lib.ffn, so the full-size (768 -> 3,072 -> 768) block is computed once
per setting, not once per rerun. Every number drawn goes through ui.fmt.
"""

from __future__ import annotations

import math

import numpy as np
import plotly.graph_objects as go
import streamlit as st

from lib import ffn
from ui import charts, colors, fmt
from ui.diagram import network_figure
from ui.frozen import freezes

# Cell states in the checker: right, wrong because an earlier table was, wrong in this step.
OK, CARRIED, SLIP = 0, 1, 2
STATE_COLORS = {OK: "#E0E0E0", CARRIED: colors.SAND, SLIP: colors.WINE}  # light grey, sand, wine
STATE_NAMES = {OK: "right", CARRIED: "carried over", SLIP: "slip in this step"}
HIGHLIGHT = colors.category(0)  # a token picked out (a category colour: not a sign, not on/off)
FONT = {"size": 14}             # chart text readable from the back row (>= 12 px everywhere)
TICKS = {"size": 13}


def _layout(height: int, x_title: str | None = None, y_title: str | None = None, **more) -> dict:
    layout = {
        "height": height, "font": FONT, "hovermode": "closest",
        "margin": {"l": 10, "r": 10, "t": 10, "b": 10},
        "legend": {"orientation": "h", "yanchor": "bottom", "y": 1.0, "xanchor": "left", "x": 0.0,
                   "font": {"size": 13}},
        "xaxis": {"title": {"text": x_title}, "tickfont": TICKS, "zeroline": True},
        "yaxis": {"title": {"text": y_title}, "tickfont": TICKS, "zeroline": True},
    }
    for k, v in more.items():
        if isinstance(v, dict) and isinstance(layout.get(k), dict):
            layout[k] = {**layout[k], **v}
        else:
            layout[k] = v
    return layout


def show(fig: go.Figure, *, live: bool = False, name: str | None = None) -> None:
    """Draw a figure at full width, never NaN or infinities (ui.charts.show); live=True for a
    chart a slider redraws while it is dragged: no mode bar, less for the browser to rebuild.
    name: what it shows, for a screen reader (default: its title, else its axes)."""
    charts.show(fig, live=live, name=name)


def block_figure(x_row, W1, post_row, W2, out_row, features: tuple, hidden: tuple) -> go.Figure:
    """The block as a picture: one token's 3 features, widened by W₁ to the hidden units (their values
    after the bend written in), narrowed by W₂ back to 3; each stage named under its column."""
    # The hidden units' names would sit on their outgoing lines: the hover and the tables below name them.
    fig = network_figure([W1, W2], [list(features), [""] * len(hidden), list(features)],
                         node_values=[x_row, post_row, out_row], names=["W₁ ", "W₂ "], height=460)
    low = -len(hidden) / 2.0
    fig.update_yaxes(range=[low - 1.1, len(hidden) / 2.0])
    # Two short lines each: the three fit side by side on a phone's 390 px too.
    for k, text in enumerate(["<b>x</b><br>one token", "<b>widen</b> W₁<br><b>bend</b> GELU",
                              "<b>narrow</b> W₂<br>y"]):
        fig.add_annotation(x=k, y=low - 0.5, text=text, showarrow=False, font=dict(size=14))
    return fig


@st.cache_resource(show_spinner=False, max_entries=32)
@freezes
def matrix_figure(M, rows: tuple, cols: tuple, digits: int = 3) -> go.Figure:
    """A small matrix as signed cells (blue positive, vermillion negative) with its numbers written in."""
    M = np.atleast_2d(np.asarray(M, dtype=float))
    finite = bool(np.isfinite(M).all())
    lim = float(np.max(np.abs(M))) if M.size and finite else 1.0
    text = [[fmt.fixed(v, digits) if math.isfinite(v) else "" for v in row] for row in M]
    return go.Figure({
        "data": [{
            "type": "heatmap", "z": M, "x": list(cols), "y": list(rows), "colorscale": colors.SIGNED,
            "zmid": 0.0, "zmin": -lim or -1, "zmax": lim or 1, "showscale": False, "text": text,
            "texttemplate": "%{text}", "textfont": {"size": 13}, "xgap": 2, "ygap": 2,
            "hovertemplate": "row %{y}, column %{x}: %{text}<extra></extra>",
        }],
        "layout": _layout(60 + 34 * M.shape[0],
                          xaxis={"side": "top", "zeroline": False, "showgrid": False},
                          yaxis={"autorange": "reversed", "zeroline": False, "showgrid": False}),
    })


def digits_for(tol: float) -> int:
    """Decimals worth printing at a tolerance: 3 for 0.001, 4 for 0.0005, at most 6."""
    if tol <= 0:
        return 6
    return int(min(6, max(3, math.ceil(-math.log10(tol) - 1e-9))))


def check_figure(check: ffn.Check, row_labels, col_labels) -> go.Figure:
    """The student's table as cells coloured by state; a wrong cell also shows lib's value."""
    state = np.where(check.slip, SLIP, np.where(check.wrong, CARRIED, OK))  # (r, c)
    d = digits_for(check.tol)
    text = [[fmt.fixed(h, d) if s == OK else f"{fmt.fixed(h, d)}<br>→ {fmt.fixed(t, d)}"
             for h, t, s in zip(hr, tr, sr, strict=True)]
            for hr, tr, sr in zip(check.hand, check.true, state, strict=True)]
    hover = [[f"yours {fmt.fixed(h, d)}<br>lib {fmt.fixed(t, d + 1)}<br>off by {fmt.signed(h - t, d + 1)}"
              for h, t in zip(hr, tr, strict=True)] for hr, tr in zip(check.hand, check.true, strict=True)]
    # A fixed three-step colour scale, so a table with only right cells is still "right".
    scale = [[0.0, STATE_COLORS[OK]], [1 / 3, STATE_COLORS[OK]], [1 / 3, STATE_COLORS[CARRIED]],
             [2 / 3, STATE_COLORS[CARRIED]], [2 / 3, STATE_COLORS[SLIP]], [1.0, STATE_COLORS[SLIP]]]
    rows = check.hand.shape[0]
    legend = "   ".join(f"<span style='color:{STATE_COLORS[k]}'>■</span> {STATE_NAMES[k]}"
                        for k in (OK, CARRIED, SLIP))
    return go.Figure({
        "data": [{
            "type": "heatmap", "z": state.astype(float), "x": list(col_labels), "y": list(row_labels),
            "zmin": -0.5, "zmax": 2.5, "colorscale": scale, "showscale": False, "text": text,
            "texttemplate": "%{text}", "xgap": 2, "ygap": 2, "textfont": {"size": 12},
            "customdata": hover, "hovertemplate": "row %{y}, column %{x}<br>%{customdata}<extra></extra>",
        }],
        "layout": _layout(
            70 + 46 * rows, margin={"b": 34},
            xaxis={"side": "top", "zeroline": False, "showgrid": False},
            yaxis={"autorange": "reversed", "zeroline": False, "showgrid": False},
            # A legend for the three colours, under the cells (the column labels are on top).
            annotations=[{"text": legend, "xref": "paper", "yref": "paper", "x": 0.0, "xanchor": "left",
                          "y": 0.0, "yshift": -6, "yanchor": "top", "showarrow": False,
                          "font": {"size": 13}}]),
    })


@st.cache_resource(show_spinner=False, max_entries=16)
@freezes
def bend_figure(pre, post, act: str) -> go.Figure:
    """The GELU curve with every hidden value of the example on it: on (z > 0) ink, off grey."""
    pre, post = np.ravel(pre), np.ravel(post)
    lim = max(3.0, float(np.max(np.abs(pre))) * 1.1) if pre.size else 3.0
    grid = np.linspace(-lim, lim, 301)  # (301,)
    a = ffn.gelu_act(act)
    on = pre > 0
    hover = "z = %{x:.3f}<br>GELU(z) = %{y:.3f}<extra></extra>"
    data = [{"type": "scatter", "x": grid, "y": a.fn(grid), "mode": "lines", "name": a.label,
             "line": {"color": colors.BEND["gelu"], "width": 2.5}, "hoverinfo": "skip"}]
    for mask, name, color, symbol in ((on, "units on (z > 0)", colors.ON, "circle"),
                                      (~on, "units off (z ≤ 0)", colors.OFF, "circle-open")):
        data.append({"type": "scatter", "x": pre[mask], "y": post[mask], "mode": "markers", "name": name,
                     "marker": {"color": color, "size": 10, "symbol": symbol,
                                "line": {"width": 2, "color": color}},
                     "hovertemplate": hover})
    return go.Figure({"data": data, "layout": _layout(320, "z (before GELU)", "GELU(z)")})


@st.cache_resource(show_spinner=False, max_entries=16)
@freezes
def path_figure(pre_row, post_row, labels: tuple) -> go.Figure:
    """One token's hidden row before and after GELU, as grouped bars per hidden unit."""
    data = []
    for values, name, color in ((pre_row, "before GELU (z)", colors.category(0)),
                                (post_row, "after GELU", colors.category(1))):
        values = np.asarray(values, dtype=float)
        data.append({"type": "bar", "x": list(labels), "y": values, "name": name, "marker": {"color": color},
                     # Upright numbers, two bars to a unit: side by side on a phone they ran together
                     # ("1.3801.264"); turned, each stays over its own bar.
                     "text": [fmt.fixed(v, 3) for v in values], "textposition": "outside", "textangle": -90,
                     "cliponaxis": False, "textfont": {"size": 12},
                     "hovertemplate": f"{name}<br>%{{x}}: %{{text}}<extra></extra>"})
    both = np.concatenate([np.asarray(pre_row, dtype=float), np.asarray(post_row, dtype=float)])
    lo, hi = min(float(both.min()), 0.0), max(float(both.max()), 0.0)
    room = 0.35 * ((hi - lo) or 1.0)   # the turned numbers beyond each bar's end stay inside the axes
    return go.Figure({"data": data, "layout": _layout(340, "hidden unit", "value", barmode="group",
                                                      margin={"t": 30},
                                                      yaxis={"range": [lo - (room if lo < 0 else 0.0),
                                                                       hi + (room if hi > 0 else 0.0)]},
                                                      uniformtext={"minsize": 12, "mode": "show"})})


@st.cache_resource(show_spinner=False, max_entries=16)
@freezes
def histogram_figure(edges, counts, near_counts, cutoff: float, ratio: float) -> go.Figure:
    """Hidden values before GELU: kept (ink), pushed near zero (grey, "off"), and the cutoff."""
    edges = np.asarray(edges, dtype=float)
    mids, width = (edges[:-1] + edges[1:]) / 2, float(edges[1] - edges[0])
    hover = "z ≈ %{x:.2f}: %{y}<extra></extra>"
    data = [
        {"type": "bar", "x": mids, "y": np.asarray(counts) - np.asarray(near_counts), "width": width,
         "name": "kept (mostly)", "marker": {"color": colors.ON}, "hovertemplate": hover},
        {"type": "bar", "x": mids, "y": np.asarray(near_counts), "width": width,
         "name": f"GELU keeps under {fmt.num(100 * ratio, 0)} % of z", "marker": {"color": colors.OFF},
         "hovertemplate": hover},
    ]
    line = {"type": "line", "x0": cutoff, "x1": cutoff, "xref": "x", "y0": 0, "y1": 1, "yref": "paper",
            "line": {"color": colors.ON, "dash": "dash", "width": 1.5}}
    return go.Figure({"data": data, "layout": _layout(320, "hidden value z before GELU", "how many",
                                                      barmode="stack", bargap=0, shapes=[line],
                                                      yaxis={"tickformat": ","})})


@st.cache_resource(show_spinner=False, max_entries=32)
@freezes
def change_figure(changes, poked: int) -> go.Figure:
    """Max |change| of each token's output row after one token's input row was replaced."""
    changes = np.asarray(changes, dtype=float)
    labels = [f"t{i + 1}" for i in range(changes.size)]
    bar_colors = [HIGHLIGHT if i == poked else colors.OFF for i in range(changes.size)]
    return go.Figure({"data": [{
        "type": "bar", "x": labels, "y": changes, "marker": {"color": bar_colors}, "name": "max |change|",
        "text": [fmt.num(v) for v in changes], "textposition": "outside", "cliponaxis": False,
        "textfont": {"size": 13}, "hovertemplate": "%{x}: %{text}<extra></extra>",
    }], "layout": _layout(280, "token (output row)", "max |change|", margin={"t": 30},
                          uniformtext={"minsize": 12, "mode": "show"})})


# --- the full-size block, cached -----------------------------------------------------------

@st.cache_resource(max_entries=4, show_spinner="Drawing 4.7 million random weights…")
def real_weights(seed: int, init: str):
    """W1 (768, 3072) and W2 (3072, 768) for a seed and a weight scale, shared and read-only:
    st.cache_data would unpickle a 37 MB copy on every call (most of a cache miss below)."""
    W1, W2 = ffn.random_block(seed=seed, init=init)
    W1.setflags(write=False)
    W2.setflags(write=False)
    return W1, W2


@st.cache_data(max_entries=64, show_spinner=False)  # every "near zero" value of one setting stays
def real_bend(seed: int, init: str, act: str, ratio: float) -> dict:
    """lib.ffn.bend_summary of the full-size block for these settings."""
    W1, W2 = real_weights(seed, init)
    out = ffn.bend_summary(ffn.real_tokens(seed), W1, W2, act, ratio)
    out.update(W1=W1.shape, W2=W2.shape)
    return out


@st.cache_data(max_entries=16, show_spinner=False)
def real_changes(seed: int, init: str, poke: int, act: str) -> np.ndarray:
    """Max |change| per output row when token `poke` (0-based) gets a fresh random row: (n,)."""
    W1, W2 = real_weights(seed, init)
    return ffn.row_changes(ffn.real_tokens(seed), poke, ffn.fresh_token(seed), W1, W2, act=act)


@st.cache_data(max_entries=8, show_spinner="Multiplying 768 × 3,072 by 3,072 × 768…")
def real_collapse(seed: int, init: str, act: str) -> dict:
    """The block without GELU against its single 768 x 768 matrix (W itself left out: 4.7 MB)."""
    W1, W2 = real_weights(seed, init)
    out = ffn.collapse_gap(ffn.real_tokens(seed), W1, W2, act=act)
    W = out.pop("W")
    out["W_shape"] = W.shape
    return out

"""Charts and cached computations for the /gpt2-mlp lesson (GPT-2's MLP block).

Chart builders take arrays and return plotly figures; the cached functions wrap lib.ffn so
the full-size (768 -> 3,072 -> 768) block is computed once per setting, not once per rerun.
"""

from __future__ import annotations

import math

import numpy as np
import plotly.graph_objects as go
import streamlit as st

from lib import ffn
from ui import charts
from ui.links import bound

# Cell states in the checker: right, wrong because an earlier table was, wrong in this step.
OK, CARRIED, SLIP = 0, 1, 2
STATE_COLORS = {OK: "#bfe3d2", CARRIED: charts.ORANGE, SLIP: charts.VERMILLION}  # green tint, amber, red
STATE_NAMES = {OK: "right", CARRIED: "carried over", SLIP: "slip in this step"}


def format_table(M, digits: int = 3) -> str:
    """A matrix in the seed's Python-list form, one row a line (what the checker accepts)."""
    M = np.atleast_2d(np.asarray(M, dtype=float))
    rows = ["[" + ", ".join(f"{v: .{digits}f}" for v in row) + "]" for row in M]
    return "[" + ",\n ".join(rows) + "]"


def digits_for(tol: float) -> int:
    """Decimals worth printing at a tolerance: 3 for 0.001, 4 for 0.0005, at most 6."""
    if tol <= 0:
        return 6
    return int(min(6, max(3, math.ceil(-math.log10(tol) - 1e-9))))


def table_input(label: str, key: str, shape: tuple[int, int], *, help: str) -> np.ndarray | None:
    """A text area for a pasted hand-worked table, bound to the URL; returns the good table.

    Empty: None. Not a table of `shape`: one line under the text area, and the last good
    table (if there was one) is still the one checked.
    """
    text = bound(st.text_area, label, "", key=key, help=help, height=170,
                 placeholder="[[0.772, -1.460, ...],\n [-0.644, 1.219, ...], ...]\nor plain rows of numbers")
    good = f"_gpt2mlp_{key}_good"
    if not (text or "").strip():
        st.session_state.pop(good, None)
        return None
    try:
        M = ffn.parse_table(text)                      # (rows, cols)
        if M.shape != tuple(shape):
            raise ValueError(f"expected {ffn.shape_text(shape)} numbers, got {ffn.shape_text(M.shape)}")
    except ValueError as err:
        kept = st.session_state.get(good)
        tail = "; still checking the last good table." if kept is not None else "."
        st.error(f"{label}: {err}{tail}", icon=":material/error:")
        return kept
    st.session_state[good] = M
    return M


def check_figure(check: ffn.Check, row_labels, col_labels, *, title: str | None = None) -> go.Figure:
    """The student's table as cells coloured by state; a wrong cell also shows lib's value."""
    state = np.where(check.slip, SLIP, np.where(check.wrong, CARRIED, OK))  # (r, c)
    d = digits_for(check.tol)
    text = [[f"{h:.{d}f}" if s == OK else f"{h:.{d}f}<br>→ {t:.{d}f}"
             for h, t, s in zip(hr, tr, sr, strict=True)]
            for hr, tr, sr in zip(check.hand, check.true, state, strict=True)]
    custom = np.stack([check.true, check.diff], axis=-1)  # (r, c, 2) for the hover
    # A fixed three-step colour scale, so a table with only right cells is still green.
    scale = [[0.0, STATE_COLORS[OK]], [1 / 3, STATE_COLORS[OK]], [1 / 3, STATE_COLORS[CARRIED]],
             [2 / 3, STATE_COLORS[CARRIED]], [2 / 3, STATE_COLORS[SLIP]], [1.0, STATE_COLORS[SLIP]]]
    rows = check.hand.shape[0]
    fig = charts.figure(title=title, height=70 + 46 * rows)
    fig.add_trace(go.Heatmap(
        z=state.astype(float), x=list(col_labels), y=list(row_labels), zmin=-0.5, zmax=2.5,
        colorscale=scale, showscale=False, text=text, texttemplate="%{text}", xgap=2, ygap=2,
        textfont=dict(size=12), customdata=custom,
        hovertemplate=("row %{y}, column %{x}<br>yours %{z}<br>lib %{customdata[0]:.4f}"
                       "<br>off by %{customdata[1]:+.4f}<extra></extra>"),
    ))
    # The hover's "yours" would print the state code: show the student's number instead.
    fig.data[0].hovertemplate = fig.data[0].hovertemplate.replace("%{z}", "%{text}")
    fig.update_yaxes(autorange="reversed", zeroline=False, showgrid=False)
    fig.update_xaxes(side="top", zeroline=False, showgrid=False)
    # A legend for the three colours, under the cells (the column labels are on top).
    legend = "   ".join(f"<span style='color:{STATE_COLORS[k]}'>■</span> {STATE_NAMES[k]}"
                          for k in (OK, CARRIED, SLIP))
    fig.add_annotation(text=legend, xref="paper", yref="paper", x=0.0, xanchor="left", y=0.0,
                       yshift=-6, yanchor="top", showarrow=False, font=dict(size=12))
    fig.update_layout(margin=dict(b=34))
    return fig


def bend_figure(pre, post, act: str, row: int | None = None) -> go.Figure:
    """The GELU curve with every hidden value of the example on it; token `row` (0-based) ringed."""
    ring = None if row is None else (np.asarray(pre)[row], np.asarray(post)[row])  # (d_ff,) each
    pre, post = np.ravel(pre), np.ravel(post)
    lim = max(3.0, float(np.max(np.abs(pre))) * 1.1) if pre.size else 3.0
    grid = np.linspace(-lim, lim, 301)  # (301,)
    fig = charts.line_figure(grid, {ffn.gelu_act(act).label: ffn.gelu_act(act).fn(grid)},
                             x_title="z (before GELU)", y_title="GELU(z)", height=300)
    on = pre > 0
    for mask, name, color in ((on, "units on (z > 0)", charts.BLUE),
                              (~on, "units off (z ≤ 0)", charts.VERMILLION)):
        fig.add_trace(go.Scatter(
            x=pre[mask], y=post[mask], mode="markers", name=name,
            marker=dict(color=color, size=9, line=dict(width=1, color="white")),
            hovertemplate="z = %{x:.3f}<br>GELU(z) = %{y:.3f}<extra></extra>",
        ))
    if ring is not None:
        fig.add_trace(go.Scatter(
            x=ring[0], y=ring[1], mode="markers", name=f"token {row + 1}",
            marker=dict(size=17, color="rgba(0,0,0,0)", line=dict(width=2, color=charts.ORANGE)),
            hovertemplate=f"token {row + 1}<br>z = %{{x:.3f}}<br>GELU(z) = %{{y:.3f}}<extra></extra>",
        ))
    return fig


def path_figure(pre_row, post_row, labels) -> go.Figure:
    """One token's hidden row before and after GELU, as grouped bars per hidden unit."""
    fig = charts.figure(x_title="hidden unit", y_title="value", height=300)
    for values, name, color in ((pre_row, "before GELU (z)", charts.GREY),
                                (post_row, "after GELU", charts.BLUE)):
        fig.add_trace(go.Bar(
            x=list(labels), y=np.asarray(values, dtype=float), name=name, marker_color=color,
            text=[f"{v:.3f}" for v in values], textposition="outside", cliponaxis=False,
            hovertemplate=f"{name}<br>%{{x}}: %{{y:.4f}}<extra></extra>",
        ))
    fig.update_layout(barmode="group")
    return fig


def histogram_figure(edges, counts, near_counts, cutoff: float, ratio: float) -> go.Figure:
    """Hidden values before GELU, the ones GELU squashes near zero in a second colour."""
    edges = np.asarray(edges, dtype=float)
    mids, width = (edges[:-1] + edges[1:]) / 2, float(edges[1] - edges[0])
    fig = charts.figure(x_title="hidden value z before GELU", y_title="how many", height=320)
    fig.add_trace(go.Bar(x=mids, y=np.asarray(counts) - np.asarray(near_counts), width=width,
                         name="kept (mostly)", marker_color=charts.BLUE,
                         hovertemplate="z ≈ %{x:.2f}: %{y}<extra></extra>"))
    fig.add_trace(go.Bar(x=mids, y=np.asarray(near_counts), width=width,
                         name=f"GELU keeps < {ratio:.0%} of z", marker_color=charts.VERMILLION,
                         hovertemplate="z ≈ %{x:.2f}: %{y}<extra></extra>"))
    fig.update_layout(barmode="stack", bargap=0)
    fig.add_vline(x=cutoff, line=dict(color=charts.VERMILLION, dash="dash", width=1.5))
    return fig


def change_figure(changes, poked: int) -> go.Figure:
    """Max |change| of each token's output row after one token's input row was replaced."""
    changes = np.asarray(changes, dtype=float)
    labels = [f"t{i + 1}" for i in range(changes.size)]
    colors = [charts.VERMILLION if i == poked else charts.GREY for i in range(changes.size)]
    fig = charts.figure(x_title="token (output row)", y_title="max |change|", height=280)
    fig.add_trace(go.Bar(
        x=labels, y=changes, marker_color=colors, name="max |change|",
        text=[f"{v:.3g}" if v else "0" for v in changes], textposition="outside", cliponaxis=False,
        hovertemplate="%{x}: %{y:.3g}<extra></extra>",
    ))
    return fig


# --- the full-size block, cached -----------------------------------------------------------

@st.cache_data(max_entries=4, show_spinner="Drawing 4.7 million random weights…")
def real_weights(seed: int, init: str):
    """W1 (768, 3072) and W2 (3072, 768) for a seed and a weight scale."""
    return ffn.random_block(seed=seed, init=init)


REAL_TOKENS = 8  # a handful of tokens: enough to see rows move on their own


def _tokens(seed: int) -> np.ndarray:
    return ffn.layer_normed_tokens(REAL_TOKENS, seed=seed + 1)  # (8, 768); +1: not the weights' stream


@st.cache_data(max_entries=16, show_spinner=False)
def real_bend(seed: int, init: str, act: str, ratio: float) -> dict:
    """Shapes, the share of hidden values squashed near zero, and a histogram of them."""
    W1, W2 = real_weights(seed, init)
    steps = ffn.ffn(_tokens(seed), W1, W2, act=act)
    near = ffn.near_zero(steps.pre, steps.post, ratio)            # (n, 3072) bool
    lim = float(np.max(np.abs(steps.pre)))
    edges = np.linspace(-lim, lim, 61)                            # (61,)
    counts, _ = np.histogram(steps.pre, edges)
    near_counts, _ = np.histogram(steps.pre[near], edges)
    return {
        "shapes": {k: getattr(steps, k).shape for k in ("x", "pre", "post", "out")},
        "W1": W1.shape, "W2": W2.shape,
        "near_share": float(near.mean()), "neg_share": float((steps.pre < 0).mean()),
        "cutoff": ffn.near_zero_cutoff(ratio, act), "edges": edges,
        "counts": counts, "near_counts": near_counts, "pre_std": float(steps.pre.std()),
    }


@st.cache_data(max_entries=16, show_spinner=False)
def real_changes(seed: int, init: str, poke: int, act: str) -> np.ndarray:
    """Max |change| per output row when token `poke` (0-based) gets a fresh random row: (n,)."""
    W1, W2 = real_weights(seed, init)
    fresh = ffn.layer_normed_tokens(1, seed=seed + 2)[0]          # (768,)
    return ffn.row_changes(_tokens(seed), poke, fresh, W1, W2, act=act)


@st.cache_data(max_entries=8, show_spinner="Multiplying 768 × 3,072 by 3,072 × 768…")
def real_collapse(seed: int, init: str, act: str) -> dict:
    """The block without GELU against its single 768 x 768 matrix (W itself left out: 4.7 MB)."""
    W1, W2 = real_weights(seed, init)
    out = ffn.collapse_gap(_tokens(seed), W1, W2, act=act)
    W = out.pop("W")
    out["W_shape"] = W.shape
    return out

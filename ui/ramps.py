"""Charts for the sums-of-ReLUs lesson: ramps on their own and stacked, rates, fits, the plane.

Arrays in, plotly figures out, drawn with the house look from ui.charts (draw through
charts.show, which refuses NaN). Nothing here computes a number a student reads: lib does.
"""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

from ui import charts
from ui.tex import num

RAMP_COLORS = [charts.BLUE, charts.VERMILLION, charts.GREEN, charts.ORANGE, charts.PURPLE,
               charts.SKY, charts.GREY]


def ramp_color(k: int) -> str:
    return RAMP_COLORS[k % len(RAMP_COLORS)]


def _income_marker(fig: go.Figure, income: float | None) -> None:
    if income is not None:
        fig.add_vline(x=income, line=dict(color=charts.GREY, dash="dot", width=1.5))


def ramps_figure(x, ramps, total, names, *, income=None, x_title="income",
                 y_title="tax", height=340) -> go.Figure:
    """Each ramp as its own line, and the tax (their sum) as a thick black-ish line.

    x (n,); ramps (n, k); total (n,); names: k legend labels.
    """
    fig = charts.figure(x_title=x_title, y_title=y_title, height=height)
    for k, name in enumerate(names):
        fig.add_trace(go.Scatter(
            x=x, y=ramps[:, k], name=name, mode="lines",
            line=dict(color=ramp_color(k), width=2, dash="dash"),
            hovertemplate=f"{name}<br>income %{{x:,.0f}}<br>ramp %{{y:,.2f}}<extra></extra>"))
    fig.add_trace(go.Scatter(
        x=x, y=total, name="tax = sum of ramps", mode="lines",
        line=dict(color=charts.GREY, width=4),
        hovertemplate="income %{x:,.0f}<br>tax %{y:,.2f}<extra></extra>"))
    _income_marker(fig, income)
    return fig


def stacked_figure(x, ramps, names, *, income=None, x_title="income", y_title="tax",
                   height=340) -> go.Figure:
    """The ramps piled on top of each other: the top edge of the pile is the tax.

    A falling rate is a negative ramp, which takes its slice off the top of the pile.
    """
    fig = charts.figure(x_title=x_title, y_title=y_title, height=height)
    below = np.zeros_like(np.asarray(x, dtype=float))         # (n,)
    for k, name in enumerate(names):
        top = below + ramps[:, k]                             # (n,) pile after ramp k
        fig.add_trace(go.Scatter(x=x, y=below, mode="lines", line=dict(width=0),
                                 showlegend=False, hoverinfo="skip"))
        fig.add_trace(go.Scatter(
            x=x, y=top, name=name, mode="lines", fill="tonexty",
            line=dict(color=ramp_color(k), width=1.5), fillcolor=_alpha(ramp_color(k), 0.45),
            hovertemplate=f"up to {name}<br>income %{{x:,.0f}}<br>tax %{{y:,.2f}}<extra></extra>"))
        below = top
    fig.update_layout(legend_traceorder="normal")  # first ramp first, as in the table
    _income_marker(fig, income)
    return fig


def _alpha(hex_color: str, a: float) -> str:
    h = hex_color.lstrip("#")
    r, g, b = (int(h[i:i + 2], 16) for i in (0, 2, 4))
    return f"rgba({r},{g},{b},{a})"


def rates_figure(x, marginal, effective, *, income=None, x_title="income", height=300) -> go.Figure:
    """The marginal rate (the tax's slope, a step function) and the effective rate, in percent."""
    fig = charts.figure(x_title=x_title, y_title="rate (%)", height=height)
    fig.add_trace(go.Scatter(
        x=x, y=100 * np.asarray(marginal), name="marginal rate: the slope of the tax", mode="lines",
        line=dict(color=charts.VERMILLION, width=3, shape="hv"),
        hovertemplate="income %{x:,.0f}<br>marginal %{y:.2f}%<extra></extra>"))
    fig.add_trace(go.Scatter(
        x=x, y=100 * np.asarray(effective), name="effective rate: tax ÷ income", mode="lines",
        line=dict(color=charts.BLUE, width=3),
        hovertemplate="income %{x:,.0f}<br>effective %{y:.2f}%<extra></extra>"))
    _income_marker(fig, income)
    return fig


def fit_figure(x, target, fitted, ramps, bias: float, target_name: str, *, height=380) -> go.Figure:
    """The target, the fitted sum of ramps, and each ramp w_j ReLU(x - t_j) (thin, faint)."""
    fig = charts.figure(x_title="x", y_title="y", height=height)
    k = ramps.shape[1]
    for j in range(k):
        fig.add_trace(go.Scatter(
            x=x, y=ramps[:, j], mode="lines", name="one ramp each" if j == 0 else None,
            legendgroup="ramps", showlegend=j == 0,
            line=dict(color=charts.GREY, width=1), opacity=0.6,
            hovertemplate=f"ramp {j + 1}<br>x %{{x:.2f}}<br>%{{y:.3f}}<extra></extra>"))
    fig.add_trace(go.Scatter(
        x=x, y=target, name=f"target: {target_name}", mode="lines",
        line=dict(color=charts.ORANGE, width=5), opacity=0.7,
        hovertemplate="x %{x:.2f}<br>target %{y:.3f}<extra></extra>"))
    fig.add_trace(go.Scatter(
        x=x, y=fitted, name=f"{k} ramps + bias {num(bias, 2)}", mode="lines",
        line=dict(color=charts.BLUE, width=2.5),
        hovertemplate="x %{x:.2f}<br>fit %{y:.3f}<extra></extra>"))
    lo, hi = float(np.min(target)), float(np.max(target))
    pad = 0.35 * (hi - lo or 1.0)
    fig.update_yaxes(range=[lo - pad, hi + pad])  # ramps may shoot far off; the fit is the story
    return fig


def knots_markers(fig: go.Figure, knots) -> None:
    """Small ticks along the bottom where each ramp starts."""
    fig.add_trace(go.Scatter(
        x=np.asarray(knots, dtype=float), y=np.zeros(len(knots)), mode="markers", name="knots",
        marker=dict(symbol="triangle-up", size=10, color=charts.BLUE),
        yaxis="y", hovertemplate="knot at x = %{x:.3f}<extra></extra>"))


def error_figure(units, series: dict, *, current: int | None = None, height=300) -> go.Figure:
    """Error against the number of ramps, log scale: one line per knot placement."""
    fig = charts.figure(x_title="number of ramps (ReLU units)", y_title="RMSE (log scale)", height=height)
    colors = [charts.BLUE, charts.VERMILLION]
    for i, (name, err) in enumerate(series.items()):
        u = np.asarray(units[: len(err)], dtype=float)
        e = np.maximum(np.asarray(err, dtype=float), 1e-16)  # exact fits: floor for the log axis
        fig.add_trace(go.Scatter(
            x=u, y=e, name=name, mode="lines+markers",
            line=dict(color=colors[i % 2], width=2), marker=dict(size=6),
            hovertemplate=f"{name}<br>%{{x}} ramps: RMSE %{{y:.2e}}<extra></extra>"))
    fig.update_yaxes(type="log", exponentformat="power")
    if current is not None:
        fig.add_vline(x=current, line=dict(color=charts.GREY, dash="dot", width=1.5))
    return fig


def plane_figure(axis, values, *, title: str, segments=(), points=None, contour: bool = False,
                 colorbar_title: str | None = None, height=320, zlim: float | None = None,
                 showscale: bool = True) -> go.Figure:
    """A value over the plane as a heatmap, with fold lines (dashed segments), optionally the
    zero contour (the decision boundary) and the data points (one trace per class).

    axis (m,); values (m, m), row i at x2 = axis[i]; segments: (2, 2) arrays of end points.
    """
    lim = zlim if zlim is not None else float(np.max(np.abs(values))) or 1.0
    fig = charts.heatmap_figure(values, axis, axis, title=title, zmin=-lim, zmax=lim,
                                colorbar_title=colorbar_title, height=height)
    fig.update_traces(showscale=showscale)
    if contour:
        fig.add_trace(go.Contour(
            z=np.asarray(values, dtype=np.float32), x=axis, y=axis, showscale=False,
            contours=dict(start=0.0, end=0.0, size=1.0, coloring="lines"),
            line=dict(color="black", width=3), colorscale=[[0, "black"], [1, "black"]],
            hoverinfo="skip", name="boundary"))
    if points is not None:
        X, y = points
        for cls, name in ((0, "ring"), (1, "disc")):
            sel = np.asarray(y) == cls
            fig.add_trace(go.Scatter(
                x=X[sel, 0], y=X[sel, 1], mode="markers", name=name,
                marker=dict(size=6, color=charts.CLASS_COLORS[cls], line=dict(color="white", width=0.8)),
                hovertemplate=f"{name}<br>(%{{x:.2f}}, %{{y:.2f}})<extra></extra>"))
    for i, seg in enumerate(segments):
        fig.add_trace(go.Scatter(
            x=seg[:, 0], y=seg[:, 1], mode="lines", name="fold line" if i == 0 else None,
            showlegend=False, line=dict(color="black", width=2.5, dash="dash"),
            hovertemplate="fold line: the unit switches on here<extra></extra>"))
    # constrain="domain": keep the square aspect by shrinking the plot, not by widening the range
    fig.update_xaxes(range=[float(axis[0]), float(axis[-1])], zeroline=False, constrain="domain")
    fig.update_yaxes(range=[float(axis[0]), float(axis[-1])], zeroline=False, constrain="domain")
    fig.update_layout(legend=dict(y=-0.12, yanchor="top"))  # under the plot, clear of the title
    return fig

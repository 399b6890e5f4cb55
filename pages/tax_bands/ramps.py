"""Charts for the sums-of-ReLUs lesson: the pile of ramps, each ramp, rates, fits, the plane.

Arrays in, plotly figures out, drawn with the house look from ui.charts (draw through
charts.show, which refuses NaN). Nothing here computes a number a student reads: lib does
(the pile's slices come from lib.tax.stacked_ramps). Colours follow ui.colors: ramps are
categories (CATEGORY), the tax and the fit are ink (ON), the classes of the ring are CLASSES,
and values over the plane use the signed scale (blue positive, vermillion negative).
Text sizes are set explicitly (Streamlit's plotly theme would draw ticks and legends at 10-11 px).
Hover texts use d3's "r"/"," formats, which never fall back to e-notation.
"""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

from ui import boundary, charts, colors, fmt

TEXT, SMALL = 14, 13  # px: axis titles and legends; tick labels


def heatmap_figure(z, x, y, *, title: str | None = None, colorscale=charts.DIVERGING,
                   zmid: float | None = 0.0, zmin: float | None = None,
                   zmax: float | None = None, colorbar_title: str | None = None,
                   x_title: str = "x₁", y_title: str = "x₂", height: int = 360) -> go.Figure:
    """A value over the plane: z has shape (len(y), len(x))."""
    fig = charts.figure(title=title, x_title=x_title, y_title=y_title, height=height)
    fig.add_trace(go.Heatmap(
        z=np.asarray(z, dtype=np.float32), x=np.asarray(x, dtype=float),
        y=np.asarray(y, dtype=float), colorscale=colorscale, zmid=zmid, zmin=zmin, zmax=zmax,
        colorbar=dict(title=dict(text=colorbar_title), thickness=12),
        hovertemplate="x₁ = %{x:.2f}<br>x₂ = %{y:.2f}<br>value = %{z:.3g}<extra></extra>",
    ))
    fig.update_yaxes(scaleanchor="x", scaleratio=1)
    return fig


def ramp_color(k: int) -> str:
    return colors.category(k)


def readable(fig: go.Figure) -> go.Figure:
    """Every text on the chart at 13 px or more, so the back row (and a phone) can read it."""
    fig.update_layout(font=dict(size=TEXT), legend=dict(font=dict(size=SMALL)),
                      hoverlabel=dict(font=dict(size=SMALL)), title=dict(font=dict(size=TEXT + 1)))
    fig.update_xaxes(tickfont=dict(size=SMALL), title_font=dict(size=TEXT))
    fig.update_yaxes(tickfont=dict(size=SMALL), title_font=dict(size=TEXT))
    return fig


def _income_marker(fig: go.Figure, income: float | None) -> None:
    if income is not None:
        fig.add_vline(x=income, line=dict(color=colors.ON, dash="dot", width=1.5))


def _money_axes(fig: go.Figure, currency: str) -> None:
    fig.update_xaxes(tickprefix=currency, tickformat="~s")
    fig.update_yaxes(tickprefix=currency, tickformat="~s")


def stacked_figure(x, bottom, top, names, falling, tax, *, income=None, tax_at_income=None,
                   currency="", x_title="income", y_title="tax", height=420) -> go.Figure:
    """The ramps as a pile (lib.tax.stacked_ramps): the top of the filled slices is the tax.

    x (n,); bottom, top (n, k) each ramp's slice; names: k legend labels; falling: k flags, a
    ramp whose rate step is negative, drawn as the hatched slice it takes off the top; tax (n,).
    """
    fig = charts.figure(x_title=x_title, y_title=y_title, height=height)
    for k, name in enumerate(names):
        color = ramp_color(k)
        fig.add_trace(go.Scatter(x=x, y=bottom[:, k], mode="lines", line=dict(width=0),
                                 showlegend=False, hoverinfo="skip"))
        if falling[k]:
            fig.add_trace(go.Scatter(
                x=x, y=top[:, k], name=f"{name}, taken off the top", mode="lines", fill="tonexty",
                line=dict(color=color, width=1.5, dash="dot"), fillcolor="rgba(0,0,0,0)",
                fillpattern=dict(shape="/", fgcolor=color, size=8, solidity=0.25),
                hovertemplate=f"{name}: taken off<br>income %{{x:,.0f}}<extra></extra>"))
        else:
            fig.add_trace(go.Scatter(
                x=x, y=top[:, k], name=name, mode="lines", fill="tonexty",
                line=dict(color=color, width=1), fillcolor=colors.rgba(color, 0.55),
                hovertemplate=f"{name}<br>income %{{x:,.0f}}<extra></extra>"))
    fig.add_trace(go.Scatter(
        x=x, y=tax, name="tax: the top of the pile", mode="lines", line=dict(color=colors.ON, width=3),
        hovertemplate="income %{x:,.0f}<br>tax %{y:,.2f}<extra></extra>"))
    if income is not None and tax_at_income is not None:
        fig.add_trace(go.Scatter(
            x=[income], y=[tax_at_income], mode="markers", showlegend=False,
            marker=dict(color=colors.ON, size=11, line=dict(color="white", width=2)),
            hovertemplate="income %{x:,.0f}<br>tax %{y:,.2f}<extra></extra>"))
    # The legend sits under the chart: inside it, the income line ran through its labels.
    charts.legend_under(fig, traceorder="normal")
    _income_marker(fig, income)
    _money_axes(fig, currency)
    return readable(fig)


def ramps_figure(x, ramps, total, names, *, income=None, currency="", x_title="income",
                 y_title="tax", height=360) -> go.Figure:
    """Each ramp as its own line, and the tax (their sum) as a thick ink line.

    x (n,); ramps (n, k); total (n,); names: k legend labels.
    """
    fig = charts.figure(x_title=x_title, y_title=y_title, height=height)
    for k, name in enumerate(names):
        fig.add_trace(go.Scatter(
            x=x, y=ramps[:, k], name=name, mode="lines", line=dict(color=ramp_color(k), width=2.5),
            hovertemplate=f"{name}<br>income %{{x:,.0f}}<br>ramp %{{y:,.2f}}<extra></extra>"))
    fig.add_trace(go.Scatter(
        x=x, y=total, name="tax = sum of ramps", mode="lines", line=dict(color=colors.ON, width=4),
        hovertemplate="income %{x:,.0f}<br>tax %{y:,.2f}<extra></extra>"))
    charts.legend_under(fig)
    _income_marker(fig, income)
    _money_axes(fig, currency)
    return readable(fig)


def rates_figure(x, marginal, effective, *, income=None, currency="", x_title="income",
                 height=320) -> go.Figure:
    """The marginal rate (the tax's slope, a step function) and the effective rate, in percent."""
    fig = charts.figure(x_title=x_title, y_title="rate (%)", height=height)
    fig.add_trace(go.Scatter(
        x=x, y=100 * np.asarray(marginal), name="marginal rate: the slope of the tax", mode="lines",
        line=dict(color=colors.category(0), width=3, shape="hv"),
        hovertemplate="income %{x:,.0f}<br>marginal %{y:.2f} %<extra></extra>"))
    fig.add_trace(go.Scatter(
        x=x, y=100 * np.asarray(effective), name="effective rate: tax ÷ income", mode="lines",
        line=dict(color=colors.category(1), width=3),
        hovertemplate="income %{x:,.0f}<br>effective %{y:.2f} %<extra></extra>"))
    charts.legend_under(fig)
    _income_marker(fig, income)
    fig.update_xaxes(tickprefix=currency, tickformat="~s")
    return readable(fig)


def fit_figure(x, target, outline, ramp_path, knots, bias: float, target_name: str, *,
               height=400) -> go.Figure:
    """The target, the fitted sum of ramps, every ramp w_j ReLU(x - t_j) (thin, grey) and the knots.

    x, target (n,); outline: the fit at its breakpoints, ramp_path: every ramp as one path
    (lib.relufit.ReluFit.outline / ramp_path): four traces whatever the number of ramps, because
    the browser rebuilds this chart on every move of the slider.
    """
    fig = charts.figure(x_title="x", y_title="y", height=height)
    k = len(knots)
    fig.add_trace(go.Scatter(
        x=ramp_path[0], y=ramp_path[1], mode="lines", name="one ramp each", legendgroup="ramps",
        line=dict(color=colors.OFF, width=1), opacity=0.8, hoverinfo="skip"))
    fig.add_trace(go.Scatter(
        x=x, y=target, name=f"target: {target_name}", mode="lines",
        line=dict(color=colors.category(2), width=6), opacity=0.6,
        hovertemplate="x %{x:.2f}<br>target %{y:.3f}<extra></extra>"))
    fig.add_trace(go.Scatter(
        x=outline[0], y=outline[1], name=f"{k} ramps + bias {fmt.num(bias, 2)}", mode="lines",
        line=dict(color=colors.ON, width=2.5), hovertemplate="x %{x:.2f}<br>fit %{y:.3f}<extra></extra>"))
    fig.add_trace(go.Scatter(
        x=np.asarray(knots, dtype=float), y=np.zeros(k), mode="markers", name="knots",
        marker=dict(symbol="triangle-up", size=11, color=colors.ON),
        hovertemplate="knot at x = %{x:.3f}<extra></extra>"))
    lo, hi = float(np.min(target)), float(np.max(target))
    pad = 0.35 * (hi - lo or 1.0)
    fig.update_yaxes(range=[lo - pad, hi + pad])  # ramps may shoot far off; the fit is the story
    fig.update_xaxes(range=[float(x[0]), float(x[-1])])
    charts.legend_under(fig)
    return readable(fig)


def error_figure(units, series: dict, *, current: int | None = None, height=320) -> go.Figure:
    """Error against the number of ramps, log scale: one line per knot placement.

    current=None draws no marker, so the figure stays the same while the slider moves and the
    browser keeps it as it is (a changed chart is rebuilt from scratch).
    """
    fig = charts.figure(x_title="number of ramps (ReLU units)", y_title="error (RMSE, log scale)",
                        height=height)
    for i, (name, err) in enumerate(series.items()):
        u = np.asarray(units[: len(err)], dtype=float)
        e = np.maximum(np.asarray(err, dtype=float), 1e-16)  # exact fits: floor for the log axis
        fig.add_trace(go.Scatter(
            x=u, y=e, name=name, mode="lines+markers",
            line=dict(color=colors.category(i), width=2.5, dash="solid" if i == 0 else "dash"),
            marker=dict(size=7), hovertemplate=f"{name}<br>%{{x}} ramps: error %{{y:.2r}}<extra></extra>"))
    # Whole powers of ten only: plotly writes the 2 and 5 between them at three quarters of the
    # tick size (under 12 px); at most about six labels up the axis.
    errs = np.concatenate([np.maximum(np.asarray(e, dtype=float), 1e-16) for e in series.values()])
    decades = np.log10(errs.max()) - np.log10(errs.min())
    fig.update_yaxes(type="log", exponentformat="power", dtick=max(1, int(np.ceil(decades / 6))))
    if current is not None:
        fig.add_vline(x=current, line=dict(color=colors.ON, dash="dot", width=1.5))
    charts.legend_under(fig)
    return readable(fig)


def plane_figure(axis, values, *, title: str, segments=(), points=None, contour: bool = False,
                 colorbar_title: str | None = None, height=320, zlim: float | None = None,
                 showscale: bool = True) -> go.Figure:
    """A value over the plane as a heatmap, with fold lines (dashed segments), optionally the
    zero contour (the decision boundary) and the data points (one trace per class).

    axis (m,); values (m, m), row i at x2 = axis[i]; segments: (2, 2) arrays of end points.
    """
    lim = zlim if zlim is not None else float(np.max(np.abs(values))) or 1.0
    # With the classes' points on it, the sign is a class: the trainer's shading, orange tint (ring,
    # class 0) through white to green tint (disc), so orange points never sit on vermillion (issue 34).
    scale = boundary.SHADING if points is not None else charts.DIVERGING
    fig = heatmap_figure(values, axis, axis, title=title, zmin=-lim, zmax=lim, colorscale=scale,
                         colorbar_title=colorbar_title, height=height)
    fig.update_traces(showscale=showscale, colorbar=dict(tickfont=dict(size=SMALL)),
                      hovertemplate="x₁ = %{x:.2f}<br>x₂ = %{y:.2f}<br>value = %{z:.2f}<extra></extra>")
    if contour:
        fig.add_trace(go.Contour(
            z=np.asarray(values, dtype=np.float32), x=axis, y=axis, showscale=False,
            contours=dict(start=0.0, end=0.0, size=1.0, coloring="lines"),
            line=dict(color=colors.ON, width=3), colorscale=[[0, colors.ON], [1, colors.ON]],
            hoverinfo="skip", name="boundary"))
    if points is not None:
        X, y = points
        for cls, name in ((0, "ring"), (1, "disc")):
            sel = np.asarray(y) == cls
            fig.add_trace(go.Scatter(
                x=X[sel, 0], y=X[sel, 1], mode="markers",
                name=f"{name} ({colors.CLASS_NAMES[cls]} {colors.CLASS_SHAPES[cls]})",
                marker=dict(size=8, color=colors.CLASSES[cls], symbol=colors.class_symbol(cls),
                            line=dict(color="white", width=0.8)),
                hovertemplate=f"{name}<br>(%{{x:.2f}}, %{{y:.2f}})<extra></extra>"))
    for i, seg in enumerate(segments):
        fig.add_trace(go.Scatter(
            x=seg[:, 0], y=seg[:, 1], mode="lines", name="fold line" if i == 0 else None,
            showlegend=False, line=dict(color=colors.ON, width=2.5, dash="dash"),
            hovertemplate="fold line: the unit switches on here<extra></extra>"))
    # constrain="domain": keep the square aspect by shrinking the plot, not by widening the range
    fig.update_xaxes(range=[float(axis[0]), float(axis[-1])], zeroline=False, constrain="domain")
    fig.update_yaxes(range=[float(axis[0]), float(axis[-1])], zeroline=False, constrain="domain")
    charts.legend_under(fig)   # under the plot, clear of the title
    return readable(fig)


def bmatrix(M, digits: int = 3) -> str:
    """A vector or matrix as a LaTeX bmatrix, every number with `digits` decimals (a vector is one row,
    as in y = xW + b)."""
    M = np.atleast_2d(np.asarray(M, dtype=float))
    rows = [" & ".join(fmt.tex(v, digits, fixed_digits=True) for v in row) for row in M]
    return r"\begin{bmatrix}" + r" \\ ".join(rows) + r"\end{bmatrix}"

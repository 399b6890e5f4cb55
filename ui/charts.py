"""Chart builders: arrays in, plotly figures out, in one look that suits light and dark themes.

Figures leave colours of background and text to Streamlit's theme (st.plotly_chart's
default theme="streamlit"), so the same figure reads well on a projector in either mode.
Data colours come from ui.colors, the app's one colour language (sign, classes, on/off,
categories), which colour-blind students can tell apart.
"""

from __future__ import annotations

import html
import re
import sys
from collections.abc import Iterable, Mapping
from pathlib import Path

import numpy as np
import plotly.graph_objects as go
import plotly.io as pio
import streamlit as st

from engine import private
from ui import inplace, room
from ui.colors import (  # noqa: F401  (re-exported: pages name colours through ui.colors or here)
    BLUE,
    CATEGORY,
    CLASSES,
    GREEN,
    NEGATIVE,
    OFF,
    ON,
    ORANGE,
    POSITIVE,
    PURPLE,
    SIGNED,
    SKY,
    VERMILLION,
    YELLOW,
)

SERIES = list(CATEGORY)          # lines of different things (categories): never a sign or class colour
DIVERGING = SIGNED               # signed values (weights, ramps): vermillion below zero, blue above


def figure(*, title: str | None = None, x_title: str | None = None,
           y_title: str | None = None, height: int = 360) -> go.Figure:
    """An empty figure with the house layout: tight margins, legend on top, axis titles."""
    fig = go.Figure()
    fig.update_layout(
        title=dict(text=title) if title else None,
        height=height,
        margin=dict(l=10, r=10, t=40 if title else 10, b=10),
        legend=dict(orientation="h", yanchor="bottom", y=1.0, xanchor="left", x=0.0),
        hovermode="closest",
    )
    # Powers of ten, never e-notation, on every axis; text a back row can read.
    fig.update_xaxes(title_text=x_title, zeroline=True, exponentformat="power")
    fig.update_yaxes(title_text=y_title, zeroline=True, exponentformat="power")
    fig.update_layout(font=dict(size=14))
    return fig


def legend_under(fig: go.Figure, **legend) -> go.Figure:
    """The legend in one band under the x axis's title, whatever the chart's height or width.

    A legend placed at a paper fraction (y=-0.2) lands on the axis title when the plot is short or
    the legend wraps (/tax-bands on a phone and in big=true, issue 34): anchored to the figure's bottom
    edge instead, plotly grows the bottom margin to hold it.
    """
    fig.update_layout(legend=dict(orientation="h", yref="container", y=0.0, yanchor="bottom",
                                  x=0.0, xanchor="left", **legend))
    return fig


def line_figure(x, series: Mapping[str, Iterable[float]], *, title: str | None = None,
                x_title: str | None = None, y_title: str | None = None,
                dashed: Iterable[str] = (), colors: Mapping[str, str] | None = None,
                height: int = 360) -> go.Figure:
    """One line per named series over a shared x."""
    fig = figure(title=title, x_title=x_title, y_title=y_title, height=height)
    dashed = set(dashed)
    x = np.asarray(x, dtype=float)
    for i, (name, y) in enumerate(series.items()):
        color = (colors or {}).get(name, SERIES[i % len(SERIES)])
        fig.add_trace(go.Scatter(
            x=x, y=np.asarray(y, dtype=float), name=name, mode="lines",
            line=dict(color=color, width=2.5, dash="dash" if name in dashed else "solid"),
            hovertemplate=f"{name}<br>x = %{{x:.3g}}<br>y = %{{y:.4g}}<extra></extra>",
        ))
    return fig


def _non_finite(fig: go.Figure) -> bool:
    for trace in fig.data:
        for attr in ("x", "y", "z"):
            v = getattr(trace, attr, None)
            if v is None or isinstance(v, str):
                continue
            if isinstance(v, (list, tuple)):
                v = [e for e in v if e is not None]  # None: plotly's gap between two lines, not a value
            try:
                a = np.asarray(v, dtype=float)
            except (TypeError, ValueError):
                continue  # category labels
            if a.size and not np.isfinite(a).all():
                return True
    return False


def show(fig: go.Figure, *, key: str | None = None, live: bool = False, on_click=None,
         name: str | None = None) -> None:
    """Draw a figure at full width. Refuses to draw NaN or infinities (a chart must never lie).

    The chart changes in place when the figure changes (ui.inplace: Plotly.react in the chart already on
    the page, not a new chart each time); `key` names it (default: where show() was called from, so a
    chart keeps its place across reruns).
    live=True is for charts redrawn many times a second: no mode bar, which saves the browser work.
    on_click: a callback for a click on one of the figure's points (Streamlit's point selection through
    st.plotly_chart; it reads the click from st.session_state[key]).
    name: what the chart shows, for a screen reader (default: the figure's title without its markup).
    The in-place chart carries it as its own accessible name (role="figure", aria-label); st.plotly_chart
    takes no attributes, so there the name goes in a visually hidden line just before the chart.
    """
    bad, text, height, title = _sent_form(fig)
    name = name or title
    if bad:
        st.warning("This chart has values too large to draw; change the inputs to bring them back.")
        return
    config = {"displaylogo": False}
    if live:
        config["displayModeBar"] = False
    if on_click is not None or not inplace.available():   # Streamlit's own chart: it takes the clicks
        hidden_name(name)
        clicks = {} if on_click is None else dict(on_select=on_click, selection_mode="points")
        st.plotly_chart(room.scaled(fig), width="stretch", config=config, key=key, **clicks)
        return
    inplace.draw(text, key=key or _call_site_key(), height=height, config=config, name=name)


SR_ONLY = "layerlab-sr"   # a line a screen reader reads and the eye does not see (ui/room.py's CSS)


def hidden_name(name: str | None) -> None:
    """A chart's name just before an st.plotly_chart, for a screen reader only (that element takes no
    aria-label of its own): "Chart: <name>"."""
    if name:
        st.html(f'<p class="{SR_ONLY}">Chart: {html.escape(name)}</p>')


def _plain(text) -> str:
    """plotly's markup (<b>, <br>, <sup>) and HTML entities out: plain words."""
    if isinstance(text, dict):
        text = text.get("text", "")
    text = re.sub(r"<br\s*/?>", " ", str(text or ""))
    return " ".join(html.unescape(re.sub(r"<[^>]+>", "", text)).split())


NUMBERS = "The numbers behind this chart"


def answer(summary: str, columns: list[str] | None = None, rows: list[list[str]] = ()) -> None:
    """A chart's answer as text (issue 35 item 2): one line under the chart that says what it shows, and
    its numbers as a table behind a disclosure (NUMBERS). Every number is the caller's, written by
    ui.fmt; the table is Markdown, so a screen reader meets a real table with headers."""
    st.caption(summary)
    if columns and rows:
        with st.expander(NUMBERS):
            st.markdown(text_table(columns, rows))


def text_table(columns: list[str], rows) -> str:
    """A Markdown table of already written cells ("|" escaped, so a cell never splits)."""
    def cell(v) -> str:
        return str(v).replace("|", "\\|").replace("\n", " ")
    lines = ["| " + " | ".join(cell(c) for c in columns) + " |", "|" + "---|" * len(columns)]
    lines += ["| " + " | ".join(cell(v) for v in row) + " |" for row in rows]
    return "\n".join(lines)


def title_text(spec: dict) -> str:
    """What a figure shows, in words: its title; without one, its axes and its named lines ("tax
    against income: flat tax, ReLU sum"); without those, the kinds of its traces ("heatmap")."""
    layout = spec.get("layout") or {}
    title = _plain(layout.get("title"))
    if title:
        return title
    def axis(letter: str) -> str:
        titles = (_plain(v.get("title")) for k, v in sorted(layout.items())
                  if re.fullmatch(letter + r"axis\d*", k) and isinstance(v, dict))
        return next((t for t in titles if t), "")
    x, y = axis("x"), axis("y")
    what = f"{y} against {x}" if x and y else (y or x)
    traces = spec.get("data") or []
    names = list(dict.fromkeys(n for t in traces
                               if (n := _plain(t.get("name"))) and t.get("showlegend") is not False))
    kinds = list(dict.fromkeys(str(t.get("type") or "scatter") for t in traces))
    lines = ", ".join(names[:5]) + (" and more" if len(names) > 5 else "")
    return ": ".join(p for p in (what, lines) if p) or ("chart: " + ", ".join(kinds) if kinds else "")


def _sent_form(fig: go.Figure) -> tuple[bool, str | None, int, str]:
    """(has NaN or infinities, plotly's JSON of it, its height, its title as plain words). Kept on a
    figure made to be sent again and again (ui.frozen's, ui.light's Light), for as long as its sent
    dict is the same object: a cached figure drawn on every rerun is checked and written once."""
    sent = fig.__dict__.get("_frozen_spec") or fig.__dict__.get("_sent_dict")
    memo = fig.__dict__.get("_layerlab_sent")
    if sent is not None and memo is not None and memo[0] is sent:
        return memo[1]
    spec = fig.to_dict()
    bad = _non_finite(fig)
    form = (bad, None if bad else pio.to_json(spec, validate=False),
            int(spec.get("layout", {}).get("height") or 450), title_text(spec))
    sent = fig.__dict__.get("_frozen_spec") or fig.__dict__.get("_sent_dict")  # Light makes it in to_dict
    if sent is not None:
        fig.__dict__["_layerlab_sent"] = (sent, form)
    return form


def _call_site_key() -> str:
    """A key for an unnamed chart: the file and line that drew it, and its turn there in this run."""
    frame = sys._getframe(2)
    base = f"chart-{Path(frame.f_code.co_filename).stem}-{frame.f_lineno}"
    # The keys this run has used (engine/private.py; if Streamlit moves them, the first unnamed chart
    # per line keeps its key and a second one would clash: tests/app/test_engine.py).
    used = private.keys_used_this_run()
    i = 0
    while f"{base}-{i}" in used:
        i += 1
    return f"{base}-{i}"

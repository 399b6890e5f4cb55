"""Cached figures that st.plotly_chart can send without copying them again on every rerun.

`st.plotly_chart(fig)` (Streamlit 1.67) starts with `fig.to_dict()`, which deep-copies every
trace and the layout: 1.9 ms for the recipe card's 3 x 2 network diagram, 13 ms for an 8 x 8 one,
against 0.1-0.4 ms for the JSON that follows. A figure cached with st.cache_resource is sent
again on every rerun of its section, so that copy was paid on every slider move.

`frozen(fig)` turns a finished figure into the same figure whose `to_dict()` hands back one plain,
JSON-ready dict made once (arrays already in plotly's base64 form), so the spec Streamlit sends is
byte for byte the one it sent before, without the copy. The figure stays a go.Figure (tests and
ui.charts.show read its traces as before). Only for figures that nobody changes afterwards: the
cached builders of the lessons, which are never mutated once cached.
"""

from __future__ import annotations

import functools
import json

import plotly.graph_objects as go
import plotly.io as pio


class _Frozen(go.Figure):
    """A go.Figure whose to_dict() returns the dict made when it was frozen (shallow copies)."""

    def to_dict(self) -> dict:
        d = self._frozen_spec
        return {**d, "data": list(d["data"]), "layout": dict(d["layout"])}


def frozen(fig: go.Figure) -> go.Figure:
    """The same figure, sent by st.plotly_chart without plotly's deep copy (see the module doc)."""
    if isinstance(fig, _Frozen):
        return fig
    spec = json.loads(pio.to_json(fig, validate=False))  # plain types; typed arrays stay base64 dicts
    fig.__class__ = _Frozen  # same object, same traces; only to_dict changes
    fig._frozen_spec = spec
    return fig


def frozen_all(value):
    """frozen() on every figure in a builder's result: a figure, or a tuple, list or dict of them."""
    if isinstance(value, go.Figure):
        return frozen(value)
    if isinstance(value, tuple):
        return tuple(frozen_all(v) for v in value)
    if isinstance(value, list):
        return [frozen_all(v) for v in value]
    if isinstance(value, dict):
        return {k: frozen_all(v) for k, v in value.items()}
    return value


def freezes(builder):
    """Decorate a cached figure builder, under its @st.cache_resource: what it returns is frozen."""
    @functools.wraps(builder)
    def build(*args, **kwargs):
        return frozen_all(builder(*args, **kwargs))
    return build

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

`frozen_spec(spec)` goes one step further for a builder that writes its figure as one dict: the
figure is made straight from the dict as it will be sent (typed arrays in base64, the default
template's JSON made once per template), so neither plotly's validation, nor the deep copy of the
3.7 KB template that go.Figure and to_dict make, nor a JSON round trip of it is paid: 0.4-0.6 ms
for /gpt2-params' treemap or bar chart, against 4-6 ms through `frozen`. Its traces hold the sent
form (arrays as {"dtype", "bdata"} dicts); a unit test should build such a dict validated.
"""

from __future__ import annotations

import functools
import json

import plotly.graph_objects as go
import plotly.io as pio

from ui.plotly_private import NO_VALIDATION, convert_to_base64


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


_TEMPLATES: dict = {}  # template name -> its JSON-ready dict, as go.Figure().to_dict() sends it


def _template() -> dict:
    name = pio.templates.default  # Streamlit sets "streamlit" when it is imported
    if name not in _TEMPLATES:
        _TEMPLATES[name] = json.loads(pio.to_json(go.Figure(), validate=False))["layout"].get("template", {})
    return _TEMPLATES[name]


def frozen_spec(spec: dict) -> go.Figure:
    """A frozen figure made from a whole figure dict ({"data": [...], "layout": {...}}), unvalidated.

    The spec sent is the one `frozen(go.Figure(spec))` would send (same JSON), made without copying
    the template. Pass a dict built for the purpose: its NumPy arrays are encoded in place.
    """
    layout = dict(spec.get("layout", {}))
    template = layout.pop("template", None)
    sent = {"data": list(spec["data"]), "layout": layout}
    convert_to_base64(sent)  # NumPy arrays -> {"dtype", "bdata"}, as to_dict does
    sent = json.loads(pio.to_json(sent, validate=False))  # plain types only (NumPy scalars, tuples)
    sent["layout"]["template"] = _template() if template is None else json.loads(
        pio.to_json(template, validate=False))
    fig = go.Figure(sent, **NO_VALIDATION)
    fig.__class__ = _Frozen
    fig._frozen_spec = sent
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

"""The chart transport: how the trainer's figures are kept, given new numbers and sent again cheaply.

Building a plotly figure validates every property and deep-copies every array: tens of milliseconds
for the trainer's maps, on every tick of a live run. Assigning new arrays to a figure kept from the
last tick costs a tenth of that. So a live figure is built once per shape and then only gets new
numbers (pages/trainer/charts.py's live_* keep them), and this module makes that cheap:

- `Light`: a figure kept as the dict it was written as (`light_figure`), never built into plotly
  objects unless something reads a plotly attribute of it; `set_trace` gives it new numbers;
- `built_dict`: the sent dict of a figure plotly did build (make_subplots), without plotly's deep copy;
- both send exactly go.Figure.to_dict's dict (tests/app/test_trainer.py compares them), arrays as
  plotly.js typed arrays (a finished one is sent again and again unchanged: pages/trainer/views.py);
- the numbers' forms on the wire: `f32` (float32), `u8` (a shading as bytes 0..LIVE_TOP, EDGE for a
  boundary cell) and LIVE_TEMPLATE (no template of its own: 3.7 KB less a redraw).

What the figures show (colours, points, axes) is the builders' (pages/trainer/, ui/boundary.py).
Plotly's private names (typed arrays, go.Figure(_validate=False), a figure's own dicts) are used only
through ui/plotly_private.py, pinned and tested against plotly's public output there.
"""

from __future__ import annotations

import base64
from copy import deepcopy

import numpy as np
import plotly.graph_objects as go
import plotly.io as pio
from plotly.basedatatypes import BasePlotlyType

from ui.plotly_private import (
    NO_VALIDATION,
    is_homogeneous_array,
    own_dicts,
    to_typed_array_spec,
)

# A live figure's plotly template: none of its own. st.plotly_chart sends the default template
# (Streamlit's: per trace type colour scales and placeholder colours its page swaps for the theme's)
# inside every figure, 3.7 KB a redraw; the live figures set every colour themselves, and the page
# applies the theme's fonts and axis colours to the layout either way.
LIVE_TEMPLATE = {"layout": {}}


def f32(a) -> np.ndarray:
    """Numbers as a contiguous float32 array: half the bytes of float64 on the wire, and encoded as is."""
    return np.ascontiguousarray(a, dtype=np.float32)


# The top byte of a live shading. Not 255: plotly.io.to_json (what st.plotly_chart sends) writes every
# "/" as the six characters "\u002f", and bytes 0xFF base64-encode as "////", so a map sure of class 1
# travelled at about 4.5x its size (61 KB instead of 14). A run of 0xFA encodes as "+vr6".
LIVE_TOP = 250
EDGE = 255             # a live map's boundary cells (lib.maps.boundary_cells): past the shading's top


def u8(P, edge=None) -> np.ndarray:
    """Shading numbers in [0, 1] as bytes 0..LIVE_TOP: a live heatmap a quarter the size of float32;
    `edge` (bool, same shape): the boundary's cells, as EDGE."""
    z = np.clip(np.rint(np.asarray(P, dtype=np.float32) * LIVE_TOP), 0, LIVE_TOP).astype(np.uint8)
    if edge is not None:
        z[edge] = EDGE
    return z


_SKIPPED = frozenset(("geojson", "layer", "layers", "range"))   # plotly's is_skipped_key, as a set
_SCALARS = (str, int, float, bool, type(None))


# plotly.js's short names of the dtypes the trainer's arrays come in (_plotly_utils.utils.plotlyjsShortTypes;
# int64 and uint64 are left to plotly, which narrows them first).
_SHORT = {"i1": "i1", "u1": "u1", "i2": "i2", "u2": "u2", "i4": "i4", "u4": "u4", "f4": "f4", "f8": "f8"}


def _typed(v: np.ndarray) -> dict:
    """to_typed_array_spec for a non-empty array of a plain dtype, without its copy through narwhals."""
    data = base64.b64encode(np.ascontiguousarray(v)).decode("ascii")
    spec = {"dtype": _SHORT[v.dtype.str[1:]], "bdata": data}
    if v.ndim > 1:
        spec["shape"] = str(v.shape)[1:-1]
    return spec


def _ready(obj):
    """A copy of a figure's property tree as BaseFigure.to_dict makes it (deepcopy, then
    convert_to_base64: every array under a key not skipped becomes plotly.js's typed array spec), in one
    pass that copies containers only: a numpy array is encoded, never deep-copied first."""
    if isinstance(obj, dict):
        out = {}
        for k, v in obj.items():
            if isinstance(v, _SCALARS):
                out[k] = v
            elif k in _SKIPPED:
                out[k] = deepcopy(v)
            elif isinstance(v, (dict, list, tuple)):
                out[k] = _ready(v)
            elif isinstance(v, np.ndarray) and v.size and v.dtype.isnative and v.dtype.str[1:] in _SHORT:
                out[k] = _typed(v)
            elif is_homogeneous_array(v):
                out[k] = to_typed_array_spec(v)
            else:
                out[k] = deepcopy(v)
        return out
    if isinstance(obj, list):
        return [v if isinstance(v, _SCALARS) else _ready(v) for v in obj]
    if isinstance(obj, tuple):
        return tuple(v if isinstance(v, _SCALARS) else _ready(v) for v in obj)
    return deepcopy(obj)


def built_dict(fig: go.Figure) -> dict:
    """go.Figure.to_dict's dict of a figure plotly built, made without its deep copy of every array: a third
    to a tenth of the time for the trainer's figures."""
    data, layout = own_dicts(fig)
    return {"data": _ready(data), "layout": _ready(layout)}


def _template_json(template) -> dict:
    """A registered template as the dict go.Figure.to_dict sends for it (made once per template)."""
    key = id(template)
    entry = _TEMPLATE_JSON.get(key)
    if entry is None or entry[0] is not template:
        entry = _TEMPLATE_JSON[key] = (template, _ready(template.to_plotly_json()))
    return entry[1]


_TEMPLATE_JSON: dict = {}


class _TraceView:
    """One trace of a Light figure as ui.charts.show and the tests read it (fig.data[i].z, .type): its
    own numbers, read-only; attributes it does not set read as None, as on a plotly trace."""

    __slots__ = ("_props",)

    def __init__(self, props: dict):
        self._props = props

    def __getattr__(self, name):
        if name.startswith("_"):
            raise AttributeError(name)
        return self._props.get(name)


class Light(go.Figure):
    """A figure kept as the dict it was written as, never built into plotly objects unless read.

    Building go.Figure(d, _validate=False) still makes one plotly object per trace and deep-copies
    every property: 4-7 ms for the eight unit maps, where the sent dict takes under half a
    millisecond. to_dict() (what st.plotly_chart sends) is go.Figure.to_dict's dict, made once from
    the written one. `data` reads the written traces (ui.charts.show checks their numbers); any other
    plotly attribute (layout, update_*, go.Figure.to_dict) builds the figure first, then behaves as
    any go.Figure. A live figure's new numbers go in through set_trace, which keeps it unbuilt.
    """

    def __init__(self, d: dict):  # no go.Figure.__init__: that is the cost avoided
        object.__setattr__(self, "_written", d)
        object.__setattr__(self, "_sent_dict", None)

    def _build(self) -> None:
        d = self.__dict__.pop("_written")
        self.__dict__["_sent_dict"] = None
        go.Figure.__init__(self, d, **NO_VALIDATION)

    def set_trace(self, i: int, **props) -> None:
        """New values for some properties of trace i (a live figure's new numbers), unvalidated."""
        written = self.__dict__.get("_written")
        if written is None:
            self.data[i].update(**props)
            return
        trace = written["data"][i] = {**written["data"][i], **props}
        sent = self.__dict__.get("_sent_dict")
        if sent is not None:
            data = list(sent["data"])
            data[i] = _ready(trace)
            self.__dict__["_sent_dict"] = {"data": data, "layout": sent["layout"]}

    def __getattr__(self, name):
        # Only called when ordinary lookup fails: a plotly attribute of a figure not yet built.
        if name.startswith("__") or "_written" not in self.__dict__:
            raise AttributeError(name)
        self._build()
        return getattr(self, name)

    @property
    def data(self):
        written = self.__dict__.get("_written")
        if written is None:
            return go.Figure.data.fget(self)
        return tuple(_TraceView(t) for t in written["data"])

    @data.setter
    def data(self, value):
        if "_written" in self.__dict__:
            self._build()
        go.Figure.data.fset(self, value)

    def to_dict(self) -> dict:
        sent = self.__dict__.get("_sent_dict")
        if sent is None:
            written = self.__dict__.get("_written")
            if written is None:
                return built_dict(self)
            layout = dict(written["layout"])
            template = layout.pop("template", None)
            sent = {"data": _ready(written["data"]), "layout": _ready(layout)}
            if template is not None:
                sent["layout"]["template"] = (_template_json(template) if isinstance(template, BasePlotlyType)
                                              else _ready(template))
            self.__dict__["_sent_dict"] = sent
        # Shallow copies, as ui.frozen does: nothing downstream changes the dicts inside.
        return {"data": list(sent["data"]), "layout": dict(sent["layout"])}


def light_figure(d: dict) -> go.Figure:
    """A figure written as a dict, as a Light one, with plotly's default template in its layout unless
    it has its own: go.Figure adds that template when it builds a figure, and a Light one is sent
    unbuilt. Handed over as the registered object, not its name (by name, plotly looks it up after
    building the layout: about a millisecond more should the figure ever be built)."""
    layout = d["layout"]
    default = pio.templates.default
    if "template" not in layout and default is not None:
        layout["template"] = default if isinstance(default, BasePlotlyType) else pio.templates[default]
    return Light(d)

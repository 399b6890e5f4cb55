"""Every private plotly name the chart transport uses, resolved in one place (engine/private.py is the
same for Streamlit's).

- `_plotly_utils.utils.convert_to_base64`, `is_homogeneous_array`, `to_typed_array_spec`: NumPy arrays
  as plotly.js's typed arrays ({"dtype", "bdata"}), exactly as `Figure.to_dict()` writes them, without
  building the figure twice (ui/frozen.py, ui/light.py);
- `go.Figure(..., _validate=False)`: a figure from a dict whose every property the code wrote itself,
  without plotly's per-property validation (pages/recipe_card/card.py, ui/diagram.py,
  pages/trainer/picking.py, ui/frozen.py, ui/light.py);
- a figure's own trace and layout dicts (`fig._data`, `fig._layout`) and whether it has frames
  (`fig._frame_objs`): what ui/light.py sends without plotly's deep copy of every array.

Pinned with plotly in requirements.txt; tests/app/test_engine.py checks them against plotly's public
output (to_dict, to_json), so the day plotly changes one, that test names it.
"""

from __future__ import annotations

from _plotly_utils.utils import convert_to_base64, is_homogeneous_array, to_typed_array_spec

__all__ = ["NO_VALIDATION", "convert_to_base64", "has_frames", "is_homogeneous_array", "own_dicts",
           "to_typed_array_spec"]

# Keyword arguments for go.Figure(...) that skip plotly's per-property validation.
NO_VALIDATION = {"_validate": False}


def own_dicts(fig) -> tuple[list[dict], dict]:
    """The figure's trace dicts and layout dict as plotly keeps them (not copies: read, never write)."""
    return fig._data, fig._layout


def has_frames(fig) -> bool:
    return bool(fig._frame_objs)

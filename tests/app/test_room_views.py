"""Issue 43 item 9, the room view's leftovers, under AppTest: what each page sends (the browser's side, the
sizes and the first screen, is tests/e2e/test_room_views.py)."""

from __future__ import annotations

import numpy as np
import pytest

from lib.maps import boundary_cells, labels_of, prediction_map
from pages.trainer import run as tr
from tests.app.conftest import decode, figures, open_page


def _bend_figures(at) -> dict[str, dict]:
    """The Bend view's two maps by their titles' first words ("As trained", "Same weights")."""
    titled = [(str((f["layout"].get("title") or {}).get("text", "")), f) for f in figures(at)]
    return {t.split(":")[0]: f for t, f in titled if t.startswith(("As trained", "Same weights"))}


def _drawn_edge(fig: dict) -> np.ndarray | None:
    """The cells a still map draws as its boundary (its trace named "the boundary"), or None."""
    trace = next((t for t in fig["data"] if t.get("name") == "the boundary"), None)
    return None if trace is None else decode(trace["z"]).astype(float) == 1.0


@pytest.mark.parametrize("query", [{"bend": "tanh"}, {"problem": "classes", "bend": "identity"}])
def test_the_bend_views_maps_draw_their_boundary_as_the_live_map_does(query):
    """The ReLU map of the Bend view drew shading only while its identity twin had its dashed line (two
    classes): every still map there draws the cells where its class changes, as the live map does."""
    at = open_page("trainer", {"twin": "false", **query})
    at.button(key="trainer_step_100").click().run()
    assert not at.exception
    run = at.session_state[tr.RUN]
    t, d = run.trainer, run.data
    head = "softmax" if query.get("problem") == "classes" else "sigmoid"
    figs = _bend_figures(at)
    assert set(figs) == {"As trained", "Same weights"}, list(figs)
    for name, act in (("As trained", "relu"), ("Same weights", query["bend"])):
        want = boundary_cells(labels_of(prediction_map(head, t.params, ("x1", "x2"), d.limit, act)))
        assert want.any(), f"{name}: a trained map with no class change to draw"
        drawn = _drawn_edge(figs[name])
        assert drawn is not None, f"{name} ({act}) draws no boundary"
        np.testing.assert_array_equal(drawn, want)

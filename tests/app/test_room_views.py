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


def test_the_room_shows_a_three_class_networks_link_as_a_short_link_to_copy():
    """The 3-class trainer's share link (its 371 weights: about 2,000 characters) was printed whole in the
    room view: there a button now keeps it in the class store and shows /?s=CODE in a code box (its copy
    button beside it), and the code, typed off the projector, opens that very network."""
    from classroom import connection

    normal = open_page("trainer", {"problem": "classes"})
    assert max(len(c.value) for c in normal.code if "w=" in c.value) > 1000   # the whole link, off the room
    at = open_page("trainer", {"problem": "classes", "big": "true"})
    at.button(key="trainer_step_10").click().run()
    assert not at.exception
    assert [len(c.value) for c in at.code if len(c.value) > 200] == []   # no long link sent at all
    at.button(key="trainer_short_link").click().run()
    short = [c.value for c in at.code if "?s=" in c.value]
    assert len(short) == 1 and len(short[0]) < 60, short
    code = short[0].rsplit("=", 1)[1]
    path, query = connection.store().expand(code)
    assert path == "trainer" and "problem=classes" in query and len(query) > 1000
    typed = open_page("", {"s": code.lower()})   # typed off the projector: the same trained network opens
    assert not typed.exception
    trained, opened = at.session_state[tr.RUN].trainer, typed.session_state[tr.RUN].trainer
    assert trained.epoch == 10 and opened.sizes == trained.sizes
    np.testing.assert_allclose(opened.flat, trained.flat, atol=1e-3)   # (a link carries rounded weights)

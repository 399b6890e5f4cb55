"""/trainer?view=warp under AppTest: the plane as a hidden layer sees it, for every problem type.

The expected grid is computed here from lib (a Trainer built with the page's settings, lib.warp), not
read back from the page.
"""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go
import pytest

from lib.datasets import DOMAIN, make_dataset, split
from lib.features import expand
from lib.train import TrainConfig, Trainer
from lib.warp import grid_lines, warp
from tests.app.conftest import decode, figures, open_page
from ui import charts

LIMIT = round(1.2 * DOMAIN, 3)   # the house square (lib.maps.limit_for with no points of one's own)


def _warp_fig(at) -> dict:
    found = [f for f in figures(at) if f["layout"].get("uirevision") == "warp"]
    assert len(found) == 1, f"{len(found)} warp figures"
    return found[0]


def _grid(fig) -> tuple[np.ndarray, np.ndarray]:
    """The grid trace's x and y, with NaN where a line ends (plotly's None)."""
    grid = next(t for t in fig["data"] if t.get("name") == "grid")
    return (np.array([np.nan if v is None else v for v in grid["x"]], dtype=float),
            np.array([np.nan if v is None else v for v in grid["y"]], dtype=float))


def _words(at) -> str:
    return " ".join(m.value for m in at.markdown)


def _ignored(at) -> list[str]:
    return [c.value for c in at.caption if "Ignored" in c.value]


@pytest.mark.parametrize("query, lines, points", [
    ({}, 26, 400),                                                    # two classes, the checkerboard
    ({"problem": "classes"}, 26, 400),
    ({"problem": "regress", "dataset": "plane"}, 26, 400),
    ({"problem": "regress"}, 1, 400),                                 # sin(2x): a curve, one input
])
def test_every_problem_type_draws_the_warped_grid_and_its_points(query, lines, points):
    at = open_page("trainer", {"twin": "false", "view": "warp", **query})
    assert not at.exception and not at.warning
    fig = _warp_fig(at)
    x, _ = _grid(fig)
    assert np.isnan(x).sum() == lines - 1 and np.isfinite(x[~np.isnan(x)]).all()   # ONE trace, None between
    marks = [t for t in fig["data"] if t.get("name") in ("train points", "test points")]
    assert sum(len(decode(t["x"])) for t in marks) == points
    assert fig["layout"]["yaxis"]["scaleanchor"] == "x"                             # one scale: shears honest
    assert fig["layout"]["xaxis"]["title"]["text"] == "unit 1 of layer 1"
    assert fig["layout"]["yaxis"]["title"]["text"] == "unit 2 of layer 1"
    if lines == 1:
        assert "the input is a line, not a plane" in _words(at)


def test_the_grid_is_the_page_networks_first_layer_computed_here():
    at = open_page("trainer", {"twin": "false", "view": "warp"})
    X, yv = make_dataset("checkerboard", 400, noise=0.0, seed=0)
    Xtr, ytr, Xte, yte = split(X, yv, train_share=0.8, seed=0)
    plain = ["x1", "x2"]
    t = Trainer(TrainConfig(hidden=(8,), seed=0), expand(Xtr, plain), ytr, expand(Xte, plain), yte)
    want = warp(t.params, "relu", ["x1", "x2"], grid_lines(LIMIT, 13, 60), 1, (1, 2))   # (26, 60, 2)
    x, y = _grid(_warp_fig(at))
    np.testing.assert_allclose(x[~np.isnan(x)], want[..., 0].ravel(), atol=1e-4)
    np.testing.assert_allclose(y[~np.isnan(y)], want[..., 1].ravel(), atol=1e-4)
    words = _words(at)
    assert "folds onto the axes" in words
    zero = float(np.mean(want.reshape(-1, 2)[:, 0] == 0))
    assert f"unit 1 is 0 on **{100 * zero:.1f} %**" in words


def test_another_pair_of_units_or_layer_redraws_it():
    at = open_page("trainer", {"twin": "false", "view": "warp", "hidden": "6,5"})
    before = _grid(_warp_fig(at))
    at.text_input(key="wunits").input("3,5").run()
    assert not at.exception and not _ignored(at)
    fig = _warp_fig(at)
    assert fig["layout"]["xaxis"]["title"]["text"] == "unit 3 of layer 1"
    after = _grid(fig)
    assert np.nanmax(np.abs(after[0] - before[0])) > 1e-3
    assert "wunits=3%2C5" in next(c.value for c in at.code if "w=" in c.value)   # in the share link
    at.selectbox(key="wlayer").set_value(2).run()
    fig = _warp_fig(at)
    assert fig["layout"]["yaxis"]["title"]["text"] == "unit 5 of layer 2"
    assert np.nanmax(np.abs(_grid(fig)[0] - after[0])) > 1e-3
    assert "wlayer=2" in next(c.value for c in at.code if "w=" in c.value)


@pytest.mark.parametrize("query, note", [
    ({"wunits": "1,9"}, "Ignored `wunits=1,9`: layer 1 has 8 units; using 1,2."),
    ({"wlayer": "3"}, "Ignored `wlayer=3`: this network has one hidden layer; using 1."),
    ({"hidden": "4,3", "wlayer": "2", "wunits": "2,4"}, "Ignored `wunits=2,4`: layer 2 has 3 units"),
    ({"wunits": "2,2"}, "Ignored `wunits=2,2`: the two units must differ"),
])
def test_a_link_with_a_layer_or_units_the_network_lacks_opens_the_default_with_one_line(query, note):
    at = open_page("trainer", {"twin": "false", "view": "warp", **query})
    assert not at.exception
    said = _ignored(at)
    assert len(said) == 1 and note in said[0], said
    fig = _warp_fig(at)
    layer = query.get("wlayer", "1") if query.get("hidden") else "1"
    assert fig["layout"]["xaxis"]["title"]["text"] == f"unit 1 of layer {layer}"
    assert fig["layout"]["yaxis"]["title"]["text"] == f"unit 2 of layer {layer}"


def test_without_a_bend_the_page_says_the_grid_stays_sheared():
    at = open_page("trainer", {"twin": "false", "view": "warp", "act": "identity"})
    assert not at.exception
    words = _words(at)
    assert "stays a sheared grid" in words and "folds" not in words
    at = open_page("trainer", {"twin": "false", "view": "warp", "act": "identity", "feat": ["x1", "x1sq"]})
    assert "arrives curved" in _words(at) and "stays a sheared grid" not in _words(at)


def test_no_hidden_layer_has_nothing_to_look_through():
    at = open_page("trainer", {"twin": "false", "view": "warp", "hidden": "0"})
    assert not at.exception
    assert any("no hidden layer" in i.value and "look through" in i.value for i in at.info)
    assert not [f for f in figures(at) if f["layout"].get("uirevision") == "warp"]


def test_a_chart_takes_none_as_a_gap_between_lines_and_still_refuses_nan():
    gaps = go.Figure(go.Scatter(x=[0.0, 1.0, None, 2.0], y=[1.0, 0.0, None, 3.0]))
    assert not charts._non_finite(gaps)
    assert charts._non_finite(go.Figure(go.Scatter(x=[0.0, np.nan, None], y=[1.0, 2.0, None])))

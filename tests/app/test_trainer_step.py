"""/trainer's "One point, one step" view (view=step) under AppTest: it follows the worst-fit training point
by default, or the one the link names; every number is lib.mlp.follow's on the network as it stands."""

from __future__ import annotations

import numpy as np
import pytest

from lib.mlp import follow, point_losses
from pages.trainer import run as tr
from tests.app.conftest import open_page
from ui import fmt


def _texts(at) -> str:
    return " ".join(e.value for part in (at.markdown, at.caption, at.info) for e in part)


def _state(at):
    run = at.session_state[tr.RUN]
    t, d = run.trainer, run.data
    return [(np.array(W), np.array(b)) for W, b in t.params], t.cfg, d


@pytest.mark.parametrize("problem", ["classify", "classes", "regress"])
def test_the_view_follows_the_worst_fit_point_with_libs_numbers(problem):
    at = open_page("trainer", {"view": "step", "problem": problem, "twin": "false"})
    assert not at.exception
    at.button(key="trainer_step_100").click().run()             # a trained network, as it stands
    params, cfg, d = _state(at)
    worst = int(np.argmax(point_losses(params, d.Ftr, d.ytr, cfg.act, cfg.head)))
    got = follow(params, d.Ftr[worst], d.ytr[worst], cfg.act, cfg.head)
    text = _texts(at)
    assert f"Point {worst} (the worst fit now)" in text
    assert f"this point's loss is **{fmt.num(got['loss'])}**" in text
    table = at.dataframe[0].value                                # hidden layer 1, unit by unit
    assert list(table["sum z"]) == [fmt.num(float(v)) for v in got["z"][0]]
    assert list(table["passes gradient"]) == ["yes" if ok else "no: flat bend" for ok in got["passes"][0]]
    assert "One step on this point alone" in text


def test_a_linked_point_is_followed_a_bad_one_is_ignored_with_a_line_and_worst_comes_back():
    at = open_page("trainer", {"view": "step", "twin": "false", "pt": "7"})
    assert "Point 7:" in _texts(at) and at.query_params["pt"] in ("7", ["7"])
    at.button(key="trainer_follow_worst").click().run()
    assert "(the worst fit now)" in _texts(at) and "pt" not in at.query_params
    for bad, said in (("999", "Ignored pt=999"), ("x7", "Ignored the point in the link")):
        at = open_page("trainer", {"view": "step", "twin": "false", "pt": bad})
        assert not at.exception and said in _texts(at) and "(the worst fit now)" in _texts(at)


def test_a_unit_at_the_flat_part_of_relu_is_marked_as_passing_no_gradient():
    at = open_page("trainer", {"view": "step", "twin": "false", "hidden": "8,8"})
    at.button(key="trainer_step_100").click().run()
    params, cfg, d = _state(at)
    shown = [v for table in at.dataframe[:2] for v in table.value["passes gradient"].tolist()]
    i = int(np.argmax(point_losses(params, d.Ftr, d.ytr, cfg.act, cfg.head)))
    got = follow(params, d.Ftr[i], d.ytr[i], cfg.act, cfg.head)
    want = [ok for layer in got["passes"] for ok in layer]
    assert shown == ["yes" if ok else "no: flat bend" for ok in want] and "no: flat bend" in shown
    off = [j for j, ok in enumerate(got["passes"][0]) if not ok]
    assert all(got["delta"][0][j] == 0 for j in off)              # flat: nothing passes back through it

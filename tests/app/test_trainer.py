"""/trainer under AppTest: Step, Reset and the controls change what is shown; bad links open cleanly.

A fragment's timer never ticks under AppTest, so the engine is driven through the Step buttons
(the browser test covers Play). Expected numbers come from lib, computed here independently of
the page: a Trainer built from the same settings, stepped the same number of epochs.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from lib.datasets import DOMAIN, PROBLEMS, make_dataset, split
from lib.features import expand
from lib.maps import RES
from lib.points import template_csv
from lib.regions import grid
from lib.settings import first
from lib.train import MAX_LINK_PARAMS, TrainConfig, Trainer
from pages.trainer import links as tl
from pages.trainer import run as tr
from tests.app.conftest import chart_elements, decode, figures, open_page, spec_text
from ui import fmt, state

PAGE = Path(__file__).resolve().parents[2] / "pages" / "trainer.py"
# each problem's first network, rate and pace
NETWORKS = {p: tuple(first(p)[k] for k in ("hidden", "lr", "speed")) for p in PROBLEMS}


def _metrics(at) -> dict[str, str]:
    return {m.label: m.value for m in at.metric}


def _captions(at) -> str:
    return " ".join(c.value for c in at.caption)


def _spec_trainer(hidden=(8,), seed=0, epochs=0, **cfg) -> Trainer:
    """The default page's network, built and trained here without the page."""
    X, y = make_dataset("checkerboard", 400, noise=0.0, seed=seed)
    Xtr, ytr, Xte, yte = split(X, y, train_share=0.8, seed=seed)
    names = ["x1", "x2"]
    cfg = TrainConfig(hidden=hidden, seed=seed, **cfg)
    t = Trainer(cfg, expand(Xtr, names), ytr, expand(Xte, names), yte)
    t.step(epochs)
    return t


def _boundary(at, which: int = 0) -> np.ndarray:
    """P(class 1) of a live boundary chart (0: the network's, 1: the twin's), back in [0, 1]; the
    boundary's own cells (drawn dark, ui.light.EDGE) are NaN."""
    from ui.light import EDGE, LIVE_TOP

    fig = [f for f in figures(at) if f["layout"].get("uirevision") == "boundary"][which]
    z = decode(fig["data"][0]["z"]).astype(float)
    assert fig["data"][0]["zmax"] == EDGE
    return np.where(z == EDGE, np.nan, z / LIVE_TOP)


@pytest.fixture(scope="module")
def fresh():
    return open_page("trainer", {"twin": "false"})


def test_the_four_metrics_exist_with_their_labels(fresh):
    assert not fresh.exception
    m = _metrics(fresh)
    for label in ("Epoch", "Loss", "Train accuracy", "Test accuracy"):
        assert label in m
    assert m["Epoch"] == "0"


def test_step_trains_one_epoch_and_matches_the_engine():
    at = open_page("trainer", {"twin": "false"})
    at.button(key="trainer_step_1").click().run()
    assert _metrics(at)["Epoch"] == "1"
    at.button(key="trainer_step_10").click().run()
    at.button(key="trainer_step_100").click().run()
    m = _metrics(at)
    assert m["Epoch"] == "111"
    ref = _spec_trainer(epochs=111).metrics()
    assert m["Loss"] == f"{ref['train_loss']:.3f}"
    assert m["Train accuracy"] == f"{100 * ref['train_acc']:.1f} %"
    assert m["Test accuracy"] == f"{100 * ref['test_acc']:.1f} %"


def test_the_twin_without_a_hidden_layer_always_shows_its_straight_boundary():
    """A no-hidden-layer twin on the checkerboard stays near 0.5 everywhere (an almost white map): its
    boundary is drawn as a dark line of cells all the same, and it is straight."""
    at = open_page("trainer")
    at.button(key="trainer_step_100").click().run()
    twin = _boundary(at, 1)
    line = ~np.isfinite(twin)
    assert line.sum() >= 50                                   # a line across the 100 x 100 map
    rows, cols = np.nonzero(line)
    slope, icept = np.polyfit(cols, rows, 1) if np.ptp(cols) >= np.ptp(rows) else np.polyfit(rows, cols, 1)
    x, y = (cols, rows) if np.ptp(cols) >= np.ptp(rows) else (rows, cols)
    assert np.abs(y - (slope * x + icept)).max() <= 1.5       # straight, to a cell


def test_step_changes_the_boundary_and_reset_brings_back_the_same_start():
    at = open_page("trainer", {"twin": "false"})
    start, start_metrics = _boundary(at), _metrics(at)
    at.button(key="trainer_step_100").click().run()
    trained = _boundary(at)
    assert np.nanmax(np.abs(trained - start)) > 0.1
    at.button(key="trainer_reset").click().run()
    assert _metrics(at) == start_metrics
    np.testing.assert_array_equal(_boundary(at), start)


def test_the_boundary_is_the_engines_prediction_on_the_grid():
    at = open_page("trainer", {"twin": "false"})
    at.button(key="trainer_step_10").click().run()
    t = _spec_trainer(epochs=10)
    xs, ys, XY = grid(1.2 * DOMAIN, RES)
    want = t.predict(XY).reshape(len(ys), len(xs))  # (100, 100)
    P = _boundary(at)
    shaded = np.isfinite(P)
    np.testing.assert_allclose(P[shaded], want[shaded], atol=1 / 250 / 2 + 1e-6)
    # The rest is the boundary, drawn as a line of cells where the predicted class changes.
    from lib.maps import boundary_cells, labels_of

    expected = boundary_cells(labels_of(want))
    assert expected.any() and (~shaded != expected).sum() <= 2   # at most a float32 tie at 0.5


def test_play_flag_is_set_and_cleared_by_the_play_button():
    at = open_page("trainer", {"twin": "false"})
    assert at.button(key="trainer_play").label == "Play"
    at.button(key="trainer_play").click().run()
    assert at.session_state[tr.PLAYING] is True
    assert at.button(key="trainer_pause").label == "Pause"
    assert "trainer_play" not in [b.key for b in at.button]   # one button at a time, each with its own key
    # Under AppTest the fragment runs with the page: a playing run trains on each rerun.
    assert int(_metrics(at)["Epoch"].replace(",", "")) > 0
    at.button(key="trainer_pause").click().run()
    assert at.session_state[tr.PLAYING] is False
    assert at.button(key="trainer_play").label == "Play"


def test_play_alone_gets_the_free_capacity_and_shares_when_another_plays(monkeypatch):
    """Work-conserving shares, through the page: the plan a playing run gets, alone and beside a player."""
    from engine import fairshare as fs

    monkeypatch.setattr(fs, "LEDGER", fs._Ledger())
    plans, start = [], fs.start
    monkeypatch.setattr(fs, "start", lambda *a, **k: plans.append(start(*a, **k)) or plans[-1])
    at = open_page("trainer", {"twin": "false"})
    at.button(key="trainer_play").click().run()
    alone = plans[-1]
    assert alone.alone and alone.budget == pytest.approx(fs.FREE_BUDGET, rel=0.5)
    assert "Alone on the server" in " ".join(c.value for c in at.caption)
    fs.LEDGER.plan("another-tab", fs.time.monotonic())   # a second player joins
    at.run()
    shared = plans[-1]
    assert shared.players == 2 and not shared.alone
    assert shared.budget <= fs.MAX_BUDGET < alone.budget
    assert int(_metrics(at)["Epoch"].replace(",", "")) > 0
    at.button(key="trainer_pause").click().run()


def test_twin_trains_in_lockstep_and_draws_both_curves():
    at = open_page("trainer")
    at.button(key="trainer_step_100").click().run()
    curves = next(f for f in figures(at) if f["layout"].get("uirevision") == "curves")
    names = {t["name"] for t in curves["data"]}
    assert {"no hidden layer · train", "your network · train"} <= names
    lasts = {t["name"]: decode(t["x"])[-1] for t in curves["data"]}
    assert set(lasts.values()) == {100.0}  # same epoch axis
    linear = _spec_trainer(hidden=(), epochs=100).metrics()
    assert f"Train accuracy {100 * linear['train_acc']:.1f} %" in _captions(at)


def test_changing_the_learning_rate_keeps_the_weights():
    at = open_page("trainer", {"twin": "false"})
    at.button(key="trainer_step_10").click().run()
    before = _boundary(at)
    at.select_slider(key="lr").set_value(0.1).run()
    assert _metrics(at)["Epoch"] == "10"
    np.testing.assert_array_equal(_boundary(at), before)


def test_changing_the_layers_starts_a_new_network():
    at = open_page("trainer", {"twin": "false"})
    at.button(key="trainer_step_10").click().run()
    at.text_input(key="hidden").set_value("4,4").run()
    assert _metrics(at)["Epoch"] == "0"
    assert "2 hidden layers of 4 each" in str(figures(at))


def test_bend_switch_identity_collapses_to_the_printed_layer_and_back():
    at = open_page("trainer", {"twin": "false", "bend": "identity"})
    assert any("Nothing is trained yet" in i.value for i in at.info)    # epoch 0: no boundary to return
    at.button(key="trainer_step_100").click().run()
    assert not any("Nothing is trained yet" in i.value for i in at.info)
    t = _spec_trainer(epochs=100)
    W = t.params[0][0] @ t.params[1][0]                     # (2, 1)
    b = t.params[0][1] @ t.params[1][0] + t.params[1][1]    # (1,)
    latex = " ".join(x.value for x in at.latex)
    assert f"{W[0, 0]:.3f}" in latex and f"{b[0]:.3f}" in latex
    figs = {f["layout"]["title"]["text"]: f for f in figures(at) if f["layout"].get("title")}
    after = next(f for k, f in figs.items() if k.startswith("Same weights"))
    before = next(f for k, f in figs.items() if k.startswith("As trained"))
    p_after, p_before = decode(after["data"][0]["z"]), decode(before["data"][0]["z"])
    assert np.abs(p_after - p_before).max() > 0.05
    line = next(tr_ for tr_ in after["data"] if tr_.get("name") == "the one straight line")
    assert len(decode(line["x"])) == 2
    at.selectbox(key="bend").set_value("relu").run()
    figs = {f["layout"]["title"]["text"]: f for f in figures(at) if f["layout"].get("title")}
    after = next(f for k, f in figs.items() if k.startswith("Same weights"))
    np.testing.assert_allclose(decode(after["data"][0]["z"]), p_before)


def test_inside_views_show_every_unit_and_the_regions():
    at = open_page("trainer", {"twin": "false", "view": "inside"})
    units = next(f for f in figures(at) if len(f["layout"].get("annotations", [])) == 8)
    titles = [a["text"] for a in units["layout"]["annotations"]]
    t = _spec_trainer()
    W2 = t.params[1][0]  # (8, 1)
    assert titles[0] == f"h1 · out {fmt.signed(W2[0, 0])}"  # true minus: fmt.signed is f"{w:+.2f}" with −
    regions = _metrics(at)["Linear regions over the square"]
    assert int(regions) >= 2


def test_share_link_carries_the_weights_and_loads_them():
    at = open_page("trainer", {"twin": "false"})
    at.button(key="trainer_step_100").click().run()
    link = next(c.value for c in at.code if "w=" in c.value)
    assert link.startswith("/trainer?") and "w=" in link
    w = link.split("w=")[1]
    trained = _metrics(at)
    at2 = open_page("trainer", {"twin": "false", "w": w})
    assert not at2.exception
    assert "Weights loaded from the link" in _captions(at2)
    assert _metrics(at2)["Train accuracy"] == trained["Train accuracy"]


def test_large_network_has_no_weight_link_but_a_json_download():
    at = open_page("trainer", {"twin": "false", "hidden": "32,32"})
    assert not [c for c in at.code if "w=" in c.value]
    assert any(f"{MAX_LINK_PARAMS:,}" in i.value for i in at.info)
    assert at.get("download_button")


@pytest.mark.parametrize("query, needle", [
    ({"hidden": "a,b"}, "Ignored `hidden=a,b`"),
    ({"hidden": "-3"}, "Ignored `hidden=-3`"),
    ({"hidden": "8,8,8,8,8,8,8"}, "at most 6 hidden layers"),
    ({"hidden": "500"}, "use 1 to 32"),
    ({"dataset": "nope"}, "Ignored `dataset=nope`"),
    ({"act": "zzz"}, "Ignored `act=zzz`"),
    ({"speed": "0"}, "Ignored `speed=0`"),
    ({"lr": "abc"}, "Ignored `lr=abc`"),
    ({"w": "garbage!"}, "nothing was loaded"),
    ({"w": "AAAA"}, "nothing was loaded"),
])
def test_bad_links_open_with_defaults_and_a_note(query, needle):
    at = open_page("trainer", {"twin": "false", **query})
    assert not at.exception
    assert needle in _captions(at)
    assert _metrics(at)["Epoch"] == "0"


def test_link_values_not_on_the_sliders_are_used():
    at = open_page("trainer", {"twin": "false", "speed": "25", "lr": "0.05"})
    assert at.select_slider(key="speed").value == "25"
    assert at.select_slider(key="lr").value == 0.05
    assert "Ignored" not in _captions(at)


def test_divergence_stops_training_says_so_and_draws_nothing_non_finite():
    # Two wide linear layers and plain SGD at lr 10: the loss overflows within a few epochs.
    at = open_page("trainer", {"lr": "10", "opt": "sgd", "act": "identity", "hidden": "32,32"})
    at.button(key="trainer_step_100").click().run()
    assert 0 < int(_metrics(at)["Epoch"]) < 100
    assert at.error and "Training stopped" in at.error[0].value
    assert at.button(key="trainer_reset_diverged")
    for fig in figures(at):
        for trace in fig["data"]:
            for k in ("x", "y", "z"):
                if k in trace and not isinstance(trace[k], str):
                    assert np.isfinite(decode(trace[k]).astype(float)).all()
    at.button(key="trainer_reset_diverged").click().run()
    assert not at.error
    assert _metrics(at)["Epoch"] == "0"


def test_csv_template_round_trips_and_bad_files_say_why():
    own = tr.own_data("t.csv", template_csv())
    assert own.X.shape == (40, 2) and set(own.y) == {0, 1}
    cases = {
        b"a,b,c\n1,2,0\n": "exactly the columns x1, x2, label",
        b"x1,x2,label\n1,two,0\n2,3,1\n": "row 2: x2 is not a number",
        b"x1,x2,label\n1,2,0\n2,3,0\n": "same label",
        b"x1,x2,label\n1,2,0\n2,3,5\n": "label must be 0 or 1",
        b"x1,x2,label\n" + b"1,2,0\n2,3,1\n" * 1001: "more than the limit",
        b"x1,x2,label\n" + b"1.000000000,2.000000000,0\n" * 5000: "the limit is 100 KB",
        b"": "not a CSV",
    }
    for data, why in cases.items():
        with pytest.raises(ValueError, match=why):
            tr.own_data("bad.csv", data)


def test_own_points_replace_the_dataset():
    at = open_page("trainer", {"twin": "false"})
    own = tr.own_data("xor.csv", template_csv())
    at.session_state[tr.OWN] = own
    at.run()
    assert not at.exception
    assert "Using your 40 points from `xor.csv`" in _captions(at) or "xor.csv" in _captions(at)
    fig = next(f for f in figures(at) if f["layout"].get("uirevision") == "boundary")
    paths = " ".join(s.get("path", "") for s in fig["layout"]["shapes"])
    assert paths.count("M") == 40  # every own point drawn, train and test


def test_hidden_parser():
    page = tl
    assert page.parse_hidden("8") == (8,)
    assert page.parse_hidden(" 16, 16 ") == (16, 16)
    assert page.parse_hidden("0") == ()
    for bad in ("", "a", "8,", "0,4", "-3", "1.5"):
        with pytest.raises(ValueError):
            page.parse_hidden(bad)
    assert page.parse_speed("max") is None and page.parse_speed("25") == 25
    for bad in ("0", "-1", "1.5", "fast"):
        with pytest.raises(ValueError):
            page.parse_speed(bad)


def test_dots_path_draws_one_square_per_point():
    from pages.trainer.charts import dots_path

    pts = np.array([[0.0, 0.0], [1.0, -1.0]])
    # from (x - r, y - r) across to x + r, up to y + r, back; short numbers
    assert dots_path(pts, 0.1) == "M-.1,-.1H.1V.1H-.1ZM.9,-1.1H1.1V-.9H.9Z"
    assert dots_path(np.array([[0.004, 1.5]]), 0.05) == "M-.05,1.45H.05V1.55H-.05Z"
    assert dots_path(np.zeros((0, 2)), 0.1) == ""


def test_the_live_shading_travels_without_escaped_slashes():
    """plotly.io.to_json writes "/" as six characters; bytes 0xFF encode as "////" in base64."""
    import plotly.io as pio

    from pages.trainer import charts as tc
    from ui.light import EDGE, LIVE_TOP

    xs = np.linspace(-1, 1, 100)
    sure = np.ones((100, 100))                               # a map sure of class 1 everywhere
    data = tr.Data(np.zeros((1, 2)), np.zeros(1), np.zeros((0, 2)), np.zeros(0), None, None, 1.0)
    fig = tc.boundary_figure(xs, xs, sure, data, live=True)
    z = fig.data[0].z
    assert z.dtype == np.uint8 and z.max() == LIVE_TOP and fig.data[0].zmax == LIVE_TOP
    edged = tc.boundary_figure(xs, xs, sure, data, live=True, edge=np.eye(100, dtype=bool))
    assert edged.data[0].zmax == EDGE and (edged.data[0].z[np.eye(100, dtype=bool)] == EDGE).all()
    spec = pio.to_json(fig, validate=False)
    assert spec.count("\\u002f") == 0 and len(spec) < 20_000
    # No plotly template of its own while live (Streamlit's default one is 3.7 KB a redraw).
    assert "000001" not in spec and fig.layout.template.to_plotly_json() == {"layout": {}}
    # The static figure keeps float32 numbers in [0, 1] and Streamlit's template.
    still = tc.boundary_figure(xs, xs, sure, data, live=False)
    assert still.data[0].zmax == 1.0 and still.layout.template.to_plotly_json() != {"layout": {}}


def test_the_boundary_traces_are_the_shading_then_the_line():
    from pages.trainer import charts as tc

    xs = np.linspace(-1, 1, 100)
    X = np.array([[0.1, 0.2], [-0.3, 0.4], [0.5, -0.5]])
    data = tr.Data(X[:2], np.array([0, 1]), X[2:], np.array([1]), None, None, 1.0)
    fig = tc.boundary_figure(xs, xs, np.zeros((100, 100)), data, line=(np.array([-1, 1]), np.array([0, 0])))
    assert [t.type for t in fig.data] == ["heatmap", "scatter"]
    assert [s.path.count("M") for s in fig.layout.shapes] == [1, 1, 1]   # train 0, train 1, test 1
    assert [s.fillcolor for s in fig.layout.shapes][:2] == list(tc.colors.CLASSES[:2])


def test_every_trainer_figure_builds_with_validation_on():
    """The builders skip plotly's validators (go.Figure(d, _validate=False)): a typo in one of their dicts
    must still fail here, where each is built again validated."""
    import plotly.graph_objects as go

    from lib.maps import fold_lines, plane_inputs, unit_maps
    from lib.regions import region_ids
    from pages.trainer import charts as tc
    from pages.trainer import inside_charts as ic

    X = np.array([[0.1, 0.2], [-0.3, 0.4], [0.5, -0.5]])
    data = tr.Data(X[:2], np.array([0, 1]), X[2:], np.array([1]), None, None, 1.0)
    t = Trainer(TrainConfig(hidden=(4,), seed=0), X, np.array([0, 1, 1]), X[:0], np.zeros(0))
    xs, ys, F = plane_inputs(1.0, ("x1", "x2"), 20)
    ids, _ = region_ids(t.params, F, "relu")
    folds = fold_lines(t.params, 1.0)
    H = unit_maps(t.params, ("x1", "x2"), 1.0, "relu", 0, 4)
    built = [
        tc.boundary_figure(xs, xs, np.zeros((20, 20)), data, line=(np.array([-1, 1]), np.array([0, 0]))),
        tc.boundary_figure(xs, xs, np.zeros((20, 20)), data, live=False, title="t"),
        ic.regions_figure(xs, ys, ids.reshape(20, 20), limit=1.0, folds=[f for f in folds if f is not None],
                          data=data),
        ic.network_diagram(t.params, ["x₁", "x₂"], act_label="ReLU"),
        ic.unit_maps_figure(xs, ys, H, titles=list("abcd"), limit=1.0, folds=folds),
        ic.unit_maps_figure(xs, ys, H, titles=list("abcd"), limit=1.0, live=True),
    ]
    for fig in built:
        go.Figure(fig.to_dict())   # validated: raises on an unknown property or a bad value
        # What st.plotly_chart sends (to_dict without plotly's deep copy) is plotly's own to_dict.
        assert json.dumps(fig.to_dict(), sort_keys=True) == json.dumps(go.Figure.to_dict(fig), sort_keys=True)


def test_light_figures_send_what_plotly_sends_and_take_new_numbers():
    """ui.light's Light figures are never built into plotly objects on the page's path: what they
    send must still be plotly's own to_dict of the same figure, before and after a live update."""
    import plotly.graph_objects as go

    from pages.trainer import charts as tc
    from ui.light import u8

    xs = np.linspace(-1, 1, 20)
    X = np.array([[0.1, 0.2], [-0.3, 0.4], [0.5, -0.5]])
    data = tr.Data(X[:2], np.array([0, 1]), X[2:], np.array([1]), None, None, 1.0)
    for live in (True, False):
        fig = tc.boundary_figure(xs, xs, np.zeros((20, 20)), data, live=live, title="t")
        assert isinstance(fig, go.Figure) and "_written" in fig.__dict__     # not built
        assert fig.data[0].type == "heatmap" and fig.data[0].colorbar is None  # read without building
        sent = json.dumps(fig.to_dict(), sort_keys=True)
        fig.set_trace(0, z=u8(np.ones((20, 20))) if live else np.ones((20, 20), dtype=np.float32))
        after = json.dumps(fig.to_dict(), sort_keys=True)
        assert after != sent and "_written" in fig.__dict__
        assert after == json.dumps(go.Figure.to_dict(fig), sort_keys=True)   # builds it: the same JSON
        fig.set_trace(0, zmax=7.0)                                           # a built one updates as plotly
        assert fig.data[0].zmax == 7.0 and fig.to_dict()["data"][0]["zmax"] == 7.0
    # The live curves: made from curves_figure's dict, then new numbers on every update.
    t = Trainer(TrainConfig(hidden=(4,), seed=0), X, np.array([0, 1, 1]), X[:2], np.array([0, 1]))
    t.step(5)
    cache = {}
    first = tc.live_curves(cache, "c", tr.finite_history(t), height=300)
    t.step(5)
    fig = tc.live_curves(cache, "c", tr.finite_history(t), height=300)
    assert fig is first and fig.data[0].x[-1] == 10                          # the same figure, new numbers
    want = tc.curves_figure(tr.finite_history(t), height=300).to_dict()
    assert json.dumps(fig.to_dict(), sort_keys=True) == json.dumps(want, sort_keys=True)


def test_a_confusion_table_is_the_arrow_table_streamlit_makes_from_the_frame():
    import pandas as pd
    from streamlit.dataframe_util import convert_arrow_table_to_arrow_bytes, convert_pandas_df_to_arrow_bytes

    from pages.trainer import inside_charts as ic
    from ui import colors

    for k in (2, 3, 5):
        C = np.random.default_rng(k).integers(0, 300, (k, k))
        frame = pd.DataFrame(C, index=[f"true class {c} ({colors.CLASS_NAMES[c]} {colors.CLASS_SHAPES[c]})"
                                        for c in range(k)],
                             columns=[f"taken for class {c}" for c in range(k)])
        made = ic.confusion_table(C)
        assert convert_arrow_table_to_arrow_bytes(made) == convert_pandas_df_to_arrow_bytes(frame)


def test_new_points_moves_to_the_next_seed_and_starts_again():
    at = open_page("trainer", {"twin": "false"})
    at.button(key="trainer_step_10").click().run()
    before = next(f for f in figures(at) if f["layout"].get("uirevision") == "boundary")["layout"]["shapes"]
    next(b for b in at.button if b.label == "New points").click().run()
    assert at.number_input(key="seed").value == 1
    assert _metrics(at)["Epoch"] == "0"
    after = next(f for f in figures(at) if f["layout"].get("uirevision") == "boundary")["layout"]["shapes"]
    assert [s["path"] for s in after] != [s["path"] for s in before]


# --- one declaration of the link keys, sections that change alone ----------------------------------
def _by_key(at) -> dict[str, str]:
    """Every plotly chart's JSON by its element key (the part of the proto id after the page's prefix)."""
    out = {}
    for el in chart_elements(at):
        out[el.proto.id.split("-", 2)[-1] if el.proto.id else str(len(out))] = spec_text(el)
    return out


def test_links_declare_every_house_key_once_with_help_and_a_readme_row():
    links = state.page_links(str(PAGE))
    keys = [link.key for link in links]
    for key in ("dataset", "hidden", "act", "lr", "opt", "batch", "l2", "noise", "n", "seed", "speed",
                "train", "feat", "cells", "bend", "twin", "w"):
        assert keys.count(key) == 1, key
    for link in links:
        assert link.help and link.label, link.key
    from tools.readme import table as readme_table

    table = readme_table(links)
    assert table.count("\n") == len(keys) + 1  # header, rule, one row per key
    assert "| `batch` |" in table and "| `lr` |" in table


def test_every_declared_key_round_trips_through_its_url_text():
    for link in state.page_links(str(PAGE)):
        if link.kind == "multi" or link.key == "w":
            continue
        for value in ([link.default] + list(link.choices)[:3] + ([link.hi] if link.hi is not None else [])):
            assert state._equal(link.from_text(link.to_text(value)), value), (link.key, value)


def test_plain_labels_and_numbers():
    at = open_page("trainer", {"twin": "false"})
    assert at.selectbox(key="batch").format_func(0) == "all points (full batch)"
    assert at.text_input(key="hidden").label == "Units per hidden layer"
    assert at.selectbox(key="act").format_func("gelu_tanh") == "GELU (tanh approximation)"
    # no e-notation on the learning-rate slider (its smallest option is 0.00001)
    assert at.select_slider(key="lr").format_func(0.00001) == "0.00001"
    assert 30 in at.selectbox(key="batch").options or "30" in at.selectbox(key="batch").options


def test_no_empty_curves_before_the_first_epoch():
    at = open_page("trainer", {"twin": "false"})
    assert not [f for f in figures(at) if f["layout"].get("uirevision") == "curves"]
    assert any("curves start with the first epoch" in m.value for m in at.markdown)
    at.button(key="trainer_step_10").click().run()
    assert [f for f in figures(at) if f["layout"].get("uirevision") == "curves"]


def test_the_legend_symbols_are_the_shapes_drawn():
    """Each class its own shape (issue 35 item 3): class 0 circles, class 1 squares, on the map and in
    its legend, which names the shading's classes in words."""
    at = open_page("trainer", {"twin": "false"})
    fig = next(f for f in figures(at) if f["layout"].get("uirevision") == "boundary")
    legend = " ".join(h.proto.body for h in at.get("html"))
    assert legend.count("&#9679;") == 1 and legend.count("&#9675;") == 1  # filled and hollow circles
    assert legend.count("&#9632;") == 1 and legend.count("&#9633;") == 1  # filled and hollow squares
    assert "class 0 (orange circle), train" in legend and "class 1 (green square), train" in legend
    assert "0 (orange, class 0)" in legend and "1 (green, class 1)" in legend   # the shading in words
    from ui import colors

    shapes = fig["layout"]["shapes"]
    def of(c):
        return [s for s in shapes if colors.CLASSES[c] in (s["fillcolor"], s["line"].get("color"))]

    circles, squares = of(0), of(1)
    assert circles and all("H" not in s["path"] and s["path"].split("Z")[0].count("L") == 5 for s in circles)
    assert squares and all("H" in s["path"] for s in squares)
    assert not fig["layout"].get("showlegend", True)  # no legend of shapes (it drew hexagons)
    assert fig["layout"]["xaxis"]["showticklabels"] is True  # axis numbers on the live map


def test_the_bend_switch_changes_its_section_and_leaves_the_others_untouched():
    at = open_page("trainer", {"twin": "false"})
    at.button(key="trainer_step_10").click().run()
    before = _by_key(at)
    at.selectbox(key="bend").set_value("tanh").run()
    after = _by_key(at)
    assert before.keys() == after.keys()
    changed = {k for k in before if before[k] != after[k]}
    assert changed == {"trainer_bend_after"}, changed


def test_a_learning_rate_move_keeps_every_picture():
    at = open_page("trainer", {"twin": "false"})
    at.button(key="trainer_step_10").click().run()
    before = _by_key(at)
    at.select_slider(key="lr").set_value(0.1).run()
    assert _by_key(at) == before


def test_the_page_reproduces_from_its_share_link():
    query = {"dataset": "ring", "hidden": "3", "act": "tanh", "lr": "0.1", "batch": "10", "seed": "5",
             "twin": "false", "opt": "momentum", "noise": "0.1", "n": "300"}
    at = open_page("trainer", query)
    assert not at.exception
    assert "1 hidden layer of 3 · Tanh" in str(figures(at))
    assert at.selectbox(key="batch").value == 10 and at.select_slider(key="lr").value == 0.1
    at.button(key="trainer_step_100").click().run()
    link = next(c.value for c in at.code if "w=" in c.value)
    shared = dict(p.split("=", 1) for p in link.split("?", 1)[1].split("&"))
    for k, v in query.items():
        assert shared[k] == v, k
    at2 = open_page("trainer", shared)
    assert _metrics(at2)["Train accuracy"] == _metrics(at)["Train accuracy"]
    assert figures(at2)[0]["layout"]["title"]["text"] == "1 hidden layer of 3 · Tanh"


def test_l1_and_a_large_l2_from_the_link_train_as_the_engine_does():
    at = open_page("trainer", {"twin": "false", "l1": "0.01", "l2": "3", "batch": "7"})
    assert "Ignored" not in _captions(at)
    at.button(key="trainer_step_10").click().run()
    ref = _spec_trainer(epochs=10, l1=0.01, l2=3.0, batch=7).metrics()
    assert _metrics(at)["Loss"] == f"{ref['train_loss']:.3f}"
    assert _metrics(at)["Train accuracy"] == f"{100 * ref['train_acc']:.1f} %"
    at.select_slider(key="l1").set_value(0.0).run()   # a penalty change keeps the weights
    assert _metrics(at)["Epoch"] == "10"


def test_the_confusion_matrices_add_up_to_the_accuracies():
    at = open_page("trainer", {"twin": "false", "view": "mistakes"})
    at.button(key="trainer_step_100").click().run()
    ref = _spec_trainer(epochs=100).metrics()
    train, test = (df.value.to_numpy() for df in at.dataframe[:2])
    assert train.sum() == 320 and test.sum() == 80   # 80 % of 400 points, the rest
    assert np.trace(train) / train.sum() == pytest.approx(ref["train_acc"])
    assert np.trace(test) / test.sum() == pytest.approx(ref["test_acc"])
    assert any("right" in m.value for m in at.markdown)


def test_discretised_shading_is_the_class_picked_and_travels_in_the_link():
    at = open_page("trainer", {"twin": "false", "discrete": "true"})
    at.button(key="trainer_step_10").click().run()
    P = _boundary(at)
    shaded = np.isfinite(P)
    assert set(np.unique(P[shaded])) <= {0.0, 1.0}
    t = _spec_trainer(epochs=10)
    xs, ys, XY = grid(1.2 * DOMAIN, RES)
    want = (t.predict(XY) > 0.5).reshape(len(ys), len(xs)).astype(float)
    np.testing.assert_array_equal(P[shaded], want[shaded])
    assert "discrete=true" in next(c.value for c in at.code if "w=" in c.value)
    assert "shading P(class 1)" in " ".join(h.proto.body for h in at.get("html"))


# --- problem types (issue 11, item 1) ----------------------------------------------------------------
def _problem_trainer(problem, name, hidden=None, epochs=0, k=3, names=("x1", "x2"), **cfg) -> Trainer:
    """The page's network for a problem type, built and trained here without the page (by default the
    problem's first network from the page's NETWORKS table)."""
    from lib.datasets import PROBLEMS, make_problem

    first, rate, *_ = NETWORKS[problem]
    hidden = first if hidden is None else hidden
    cfg.setdefault("lr", rate)
    X, y = make_problem(problem, name, 400, seed=0, k=k)
    Xtr, ytr, Xte, yte = split(X, y, train_share=0.8, seed=0, stratify=problem != "regress")
    head = PROBLEMS[problem].head
    cfg = TrainConfig(hidden=hidden, seed=0, head=head, classes=k if head == "softmax" else 0, **cfg)
    t = Trainer(cfg, expand(Xtr, list(names)), ytr, expand(Xte, list(names)), yte)
    t.step(epochs)
    return t


def test_three_classes_shade_by_class_and_confidence_and_count_a_k_by_k_matrix():
    at = open_page("trainer", {"twin": "false", "problem": "classes", "view": "mistakes"})
    assert not at.exception
    assert at.selectbox(key="dataset").options == ["spiral", "blobs", "checkerboard"]
    assert at.selectbox(key="dataset").value == "spiral"
    at.button(key="trainer_step_10").click().run()
    want = _problem_trainer("classes", "spiral", epochs=10).metrics()
    m = _metrics(at)
    assert m["Train accuracy"] == fmt.pct(want["train_acc"]) and m["Loss"] == fmt.fixed(want["train_loss"], 3)
    fig = next(f for f in figures(at) if f["layout"].get("uirevision") == "boundary")
    z = _boundary(at)
    z = z[np.isfinite(z)]
    assert len(set(np.floor(z.ravel() * 3).clip(0, 2).astype(int))) >= 2   # at least two classes shaded
    scale = fig["data"][0]["colorscale"]
    assert len(scale) == 6 + 2                                           # three segments, then the boundary
    tables = [df.value for df in at.dataframe]
    assert tables and all(t.shape == (3, 3) for t in tables)
    assert sum(int(np.trace(t.to_numpy())) for t in tables[:1]) == round(want["train_acc"] * 320)
    assert "class 2 (pink diamond)" in " ".join(h.proto.body for h in at.get("html"))  # the colour key


def test_k_changes_the_classes_and_a_file_for_two_classes_is_refused():
    at = open_page("trainer", {"twin": "false", "problem": "classes", "k": "5", "dataset": "blobs",
                               "view": "mistakes"})
    assert not at.exception
    tables = [df.value for df in at.dataframe]
    assert tables[0].shape == (5, 5)
    with pytest.raises(ValueError, match="0 to 4"):
        tr.own_data("bad.csv", b"x1,x2,label\n1,2,0\n2,3,7\n", "classes", 5)
    with pytest.raises(ValueError, match="holds class labels"):
        tr.own_data("bad.csv", template_csv(), "regress")


def test_a_curve_fit_draws_the_points_the_curve_and_each_units_ramp_with_r2():
    at = open_page("trainer", {"twin": "false", "problem": "regress", "view": "mistakes"})
    assert not at.exception
    assert at.selectbox(key="dataset").value == "sin(2x)"
    at.button(key="trainer_step_100").click().run()
    assert not at.exception
    want = _problem_trainer("regress", "sin(2x)", epochs=100, names=("x1",)).metrics()
    m = _metrics(at)
    assert m["Train R²"] == fmt.fixed(want["train_r2"], 3)
    assert m["Test mean absolute error"] == fmt.fixed(want["test_mae"], 3)
    assert "Train accuracy" not in m
    fig = next(f for f in figures(at) if f["layout"].get("uirevision") == "curvefit")
    ramps = [tr_ for tr_ in fig["data"] if tr_.get("yaxis") == "y2"]
    assert len(ramps) == NETWORKS["regress"][0][0]                # one ramp per hidden unit
    curve = next(tr_ for tr_ in fig["data"] if tr_.get("mode") == "lines" and tr_.get("yaxis") != "y2")
    total = sum(decode(r["y"]).astype(float) for r in ramps)
    # the curve is the ramps' sum plus the output bias
    gap = decode(curve["y"]).astype(float) - total
    assert np.ptp(gap) < 1e-4
    assert "No confusion matrix here" in _captions(at)


def test_a_curve_uses_only_the_inputs_of_x1():
    at = open_page("trainer", {"twin": "false", "problem": "regress", "feat": ["x1", "x2", "x1sq"]})
    assert not at.exception
    assert "using x1, x1sq" in _captions(at)                           # one line says what was left out
    feat = at.multiselect(key="feat")
    assert "x2" not in feat.options and feat.value == ["x1", "x1sq"]  # the box offers what a curve has
    run = at.session_state[tr.RUN]
    assert run.trainer.sizes[0] == 2 and run.data.Ftr.shape[1] == 2     # x1 and x1sq, not x2


def test_values_on_the_plane_use_the_signed_scale_and_the_twin_follows():
    at = open_page("trainer", {"problem": "regress", "dataset": "gaussmix"})
    assert not at.exception
    at.button(key="trainer_step_10").click().run()
    figs = [f for f in figures(at) if f["layout"].get("uirevision") == "boundary"]
    assert len(figs) >= 2                          # the network and its twin (and the bend section's)
    units = NETWORKS["regress"][0][0]
    titles = [f["layout"]["title"]["text"] for f in figs[:2]]
    assert titles == [f"1 hidden layer of {units} · ReLU", "No hidden layer"]
    from pages.trainer import charts as tc
    assert figs[0]["data"][0]["colorscale"] == [list(c) for c in tc.VALUE_SHADING] or \
        [tuple(c) for c in figs[0]["data"][0]["colorscale"]] == [tuple(c) for c in tc.VALUE_SHADING]
    z = decode(figs[0]["data"][0]["z"]).astype(float)
    assert np.isfinite(z).all()
    assert "No hidden layer: Train R²" in _captions(at)


def test_a_dataset_of_another_problem_in_the_link_is_refused_with_one_line():
    at = open_page("trainer", {"twin": "false", "problem": "regress", "dataset": "xor"})
    assert not at.exception
    assert "Ignored `dataset=xor`" in _captions(at)
    assert at.selectbox(key="dataset").value == "sin(2x)"


def test_the_words_follow_the_problem_type():
    for problem, words, wrong in (("classify", "Two classes of points", "one output per class"),
                                  ("classes", "one output per class", "Two classes of points"),
                                  ("regress", "sum of ramps", "Two classes of points")):
        at = open_page("trainer", {"twin": "false", "problem": problem})
        intro = at.markdown[0].value
        assert words in intro and wrong not in intro, problem
        hint = _captions(at)
        if problem == "regress":
            assert "click the chart" in hint and "choose a class" not in hint
        else:
            assert "choose a class above, then click the map" in hint


def test_each_problem_opens_with_its_own_first_network_unless_the_student_chose_one():
    nets = NETWORKS

    def net(at):
        return at.text_input(key="hidden").value, at.select_slider(key="lr").value

    at = open_page("trainer", {"twin": "false", "problem": "classes"})
    assert net(at) == ("16,16", nets["classes"][1])
    assert "Why this size: two layers of 16" in _captions(at)
    at.selectbox(key="problem").select("regress").run()            # untouched: follows the problem
    assert net(at) == ("32", nets["regress"][1])
    at.text_input(key="hidden").input("4").run()                     # chosen: kept across problems
    at.selectbox(key="problem").select("classify").run()
    assert net(at) == ("4", nets["classify"][1])
    assert "Why this size" not in _captions(at)
    linked = open_page("trainer", {"problem": "classes", "hidden": "8"})   # a link's own choice stands
    assert linked.text_input(key="hidden").value == "8"


def test_play_opens_at_the_lesson_pace_and_full_speed_is_one_click_away():
    nets = NETWORKS
    at = open_page("trainer", {"twin": "false"})
    assert at.select_slider(key="speed").value == nets["classify"][2]
    assert at.button(key="trainer_pace").label == "Full speed"
    at.button(key="trainer_pace").click().run()
    assert at.select_slider(key="speed").value == "max" and at.query_params["speed"] in ("max", ["max"])
    assert at.button(key="trainer_pace").label == "Lesson pace"
    at.button(key="trainer_pace").click().run()
    assert at.select_slider(key="speed").value == nets["classify"][2]
    at.selectbox(key="problem").select("regress").run()       # each problem has its own pace
    assert at.select_slider(key="speed").value == nets["regress"][2]


def test_switching_the_problem_moves_the_dataset_to_its_list():
    at = open_page("trainer", {"twin": "false", "dataset": "xor"})
    at.selectbox(key="problem").select("classes").run()
    assert not at.exception
    assert at.selectbox(key="dataset").value == "spiral"
    assert "Train accuracy" in _metrics(at)
    at.selectbox(key="problem").select("regress").run()
    assert not at.exception
    assert "Train R²" in _metrics(at)


# --- loading exported weights (issue 11, item 2) -------------------------------------------------------
def _file(t: Trainer) -> bytes:
    return json.dumps(t.to_dict()).encode()


def test_a_weights_file_is_checked_and_bad_ones_say_why_in_one_line():
    spec = tr.Spec(dataset="checkerboard", n=400, noise=0.0, seed=0, cells=2, train=0.8, feat=("x1", "x2"),
                   hidden=(8,), act="relu", opt="adam", lr=0.03, batch=0, l2=0.0, twin=False)
    good = _spec_trainer(hidden=(4, 4), epochs=5)
    d, cfg = tl.check_file(_file(good), spec)
    assert cfg.hidden == (4, 4) and d["epoch"] == 5
    broken = good.to_dict()
    broken["layers"][1]["W"][0][0] = "x"
    nan = good.to_dict()
    nan["layers"][0]["b"][0] = float("nan")
    shape = good.to_dict()
    shape["layers"][0]["W"] = shape["layers"][0]["W"][:1]
    classes = _problem_trainer("classes", "blobs")
    cases = {
        b"not json": "not JSON",
        json.dumps(broken).encode(): "other than numbers",
        json.dumps(nan).encode(): "not finite|not JSON",
        json.dumps(shape).encode(): "wrong shape|shape",
        _file(classes): "switch the problem type",
        _file(_spec_trainer(hidden=(32,) * 6)) * 0 + b'{"format": "other"}': "not a Layer Lab network",
    }
    for data, why in cases.items():
        with pytest.raises(ValueError, match=why):
            tl.check_file(data, spec)
    three = tr.Spec(**{**spec.__dict__, "problem": "classes", "k": 4})
    with pytest.raises(ValueError, match="set Classes to 3"):
        tl.check_file(_file(classes), three)


def test_a_loaded_file_sets_the_page_and_training_continues_from_its_weights():
    at = open_page("trainer", {"twin": "false"})
    assert at.get("file_uploader")                                      # beside the download
    src = _spec_trainer(hidden=(4, 4), epochs=30, act="tanh", lr=0.01, l2=0.001)
    d, cfg = tl.check_file(_file(src), tr.Spec(
        dataset="checkerboard", n=400, noise=0.0, seed=0, cells=2, train=0.8, feat=("x1", "x2"),
        hidden=(8,), act="relu", opt="adam", lr=0.03, batch=0, l2=0.0, twin=False))
    at.session_state[tr.IMPORT] = {"name": "net.json", "d": d, "cfg": cfg, "set": False}
    at.run()
    assert not at.exception
    assert at.text_input(key="hidden").value == "4,4"
    assert at.selectbox(key="act").value == "tanh"
    assert "Weights loaded from net\\.json at epoch 30" in _captions(at)   # the file's name, escaped
    assert _metrics(at)["Epoch"] == "30"
    np.testing.assert_allclose(at.session_state[tr.RUN].trainer.flat, src.flat)
    at.button(key="trainer_step_10").click().run()
    want = Trainer.from_dict(d, src.Xtr, src.ytr, src.Xte, src.yte)   # the file's weights, a fresh optimiser
    want.step(10)
    assert _metrics(at)["Epoch"] == "40"
    assert _metrics(at)["Train accuracy"] == fmt.pct(want.metrics()["train_acc"])
    assert _metrics(at)["Loss"] == fmt.fixed(want.metrics()["train_loss"], 3)


# --- a twin of any configuration (issue 11, item 3) -------------------------------------------------------
def test_a_tanh_twin_of_the_same_widths_starts_from_the_same_weights_and_trains_in_lockstep():
    at = open_page("trainer", {"thidden": "same", "tact": "tanh"})
    assert not at.exception
    assert "The twin starts from the same initial weights" in _captions(at)
    run = at.session_state[tr.RUN]
    np.testing.assert_array_equal(run.twin.flat, run.trainer.flat)       # one start, two bends
    at.button(key="trainer_step_100").click().run()
    want = _spec_trainer(epochs=0).twin(act="tanh")
    want.step(100)
    assert f"Twin: Tanh: Train accuracy {fmt.pct(want.metrics()['train_acc'])}" in _captions(at)
    maps = [f for f in figures(at) if f["layout"].get("uirevision") == "boundary"]
    assert [f["layout"]["title"]["text"] for f in maps[:2]] == ["1 hidden layer of 8 · ReLU", "Twin: Tanh"]
    curves = next(f for f in figures(at) if f["layout"].get("uirevision") == "curves")
    assert {"twin: tanh · train", "your network · train"} <= {t["name"] for t in curves["data"]}
    assert {decode(t["x"])[-1] for t in curves["data"]} == {100.0}


def test_twin_widths_lr_and_penalties_from_the_link_and_a_twin_like_the_network_says_so():
    at = open_page("trainer", {"thidden": "4", "tlr": "0.1", "tl2": "0.01"})
    assert not at.exception
    run = at.session_state[tr.RUN]
    assert run.twin.sizes == [2, 4, 1] and run.twin.cfg.lr == 0.1 and run.twin.cfg.l2 == 0.01
    assert "the same first-layer units 1-4" in _captions(at)
    at = open_page("trainer", {"thidden": "same"})
    assert not at.exception
    assert "The twin is set exactly like your network" in _captions(at)
    assert at.session_state[tr.RUN].twin is None
    at = open_page("trainer", {"tlr": "0.05"})                           # not on the list, but usable
    assert not at.exception and at.session_state[tr.RUN].twin.cfg.lr == 0.05
    at = open_page("trainer", {"thidden": "lots"})
    assert not at.exception and "Ignored `thidden=lots`" in _captions(at)


def test_changing_a_twin_setting_keeps_the_network_and_the_lockstep():
    at = open_page("trainer")
    at.button(key="trainer_step_10").click().run()
    before = at.session_state[tr.RUN].trainer.flat.copy()
    at.text_input(key="thidden").input("2").run()
    assert not at.exception
    run = at.session_state[tr.RUN]
    np.testing.assert_array_equal(run.trainer.flat, before)
    assert run.twin.sizes == [2, 2, 1] and run.twin.epoch == 10


# --- points placed by hand --------------------------------------------------------------------------
def test_points_in_the_link_join_the_training_points_ringed_and_go_on_without_a_reset():
    at = open_page("trainer", {"twin": "false"})
    n_train = len(at.session_state[tr.RUN].data.Xtr)
    at = open_page("trainer", {"twin": "false", "pts": "3.36_-3.36_1~3.12_-3.36_1~-1_2_0"})
    assert not at.exception
    run = at.session_state[tr.RUN]
    d = run.data
    assert d.hand == 3 and len(d.Xtr) == n_train + 3
    np.testing.assert_array_equal(d.Xtr[-3:], [[3.36, -3.36], [3.12, -3.36], [-1, 2]])
    np.testing.assert_array_equal(d.ytr[-3:], [1, 1, 0])
    assert len(run.trainer.Xtr) == n_train + 3                    # the engine trains on them
    assert "3 of 150 points placed by hand" in _captions(at)
    fig = next(f for f in figures(at) if f["layout"].get("uirevision") == "boundary")
    rings = [t for t in fig["data"] if t.get("legendgroup") == "mine"]
    assert len(rings) == 1 and rings[0]["marker"]["symbol"] == "circle-open"
    # The share link carries them (a click on the map changes them: tests/e2e/test_trainer.py).
    at.button(key="trainer_step_10").click().run()
    assert any("pts=3.36_-3.36_1~3.12_-3.36_1~-1_2_0" in c.value for c in at.code)


def test_a_link_with_points_for_another_problem_is_ignored_with_a_note():
    at = open_page("trainer", {"pts": "1_2_4"})
    assert not at.exception
    assert "Ignored the points placed by hand" in _captions(at) and "class 4" in _captions(at)
    assert at.session_state[tr.RUN].data.hand == 0
    at = open_page("trainer", {"problem": "regress", "pts": "1_2_0.5"})    # plane points on a curve
    assert not at.exception and "points for a curve have 2" in _captions(at)


def test_only_my_points_opens_an_empty_plane_and_then_learns_only_them():
    at = open_page("trainer", {"only": "true"})
    assert not at.exception
    assert any("An empty plane" in m.value for m in at.markdown)
    assert tr.RUN not in at.session_state
    at = open_page("trainer", {"only": "true", "pts": "-1_1_0~1_-1_1", "twin": "false"})
    assert not at.exception
    d = at.session_state[tr.RUN].data
    assert len(d.Xtr) == 2 and len(d.Xte) == 0 and d.hand == 2
    at.button(key="trainer_step_100").click().run()
    assert _metrics(at)["Train accuracy"] == "100.0 %" and _metrics(at)["Test accuracy"] == "none"


def _titles(at) -> list[str]:
    return [f["layout"]["title"]["text"] for f in figures(at) if f["layout"].get("title", {}).get("text")]


def _unit_maps(at) -> list[dict]:
    return [f for f in figures(at) if len(f["layout"].get("annotations", [])) == 8]


def test_only_the_open_view_runs_and_it_travels_in_the_link():
    at = open_page("trainer", {"twin": "false"})
    assert [t.label for t in at.tabs] == ["Bend", "Inside", "One step", "Warp",
                                          "Mistakes", "Code"]
    assert any(t.startswith("Same weights") for t in _titles(at))        # the bend view, by default
    assert not _unit_maps(at) and not at.dataframe                        # the others were not run
    assert "view" not in at.query_params                                  # the default stays out of it
    at.session_state["view_tab"] = "Inside"                               # the student opens a tab
    at.run()
    assert not at.exception
    assert at.query_params["view"] in ("inside", ["inside"])
    assert len(_unit_maps(at)) == 1 and not any(t.startswith("Same weights") for t in _titles(at))
    assert "view=inside" in next(c.value for c in at.code if "w=" in c.value)   # the share link too
    at.session_state["view_tab"] = "Mistakes"
    at.run()
    assert len(at.dataframe) == 2 and not _unit_maps(at)
    at2 = open_page("trainer", {"twin": "false", "view": "inside"})      # the link opens that view
    assert len(_unit_maps(at2)) == 1 and not at2.dataframe


def test_a_view_the_page_does_not_have_opens_the_default_with_a_note():
    at = open_page("trainer", {"twin": "false", "view": "nope"})
    assert not at.exception
    assert "Ignored `view=nope`" in _captions(at)
    assert any(t.startswith("Same weights") for t in _titles(at))


def test_the_curves_show_the_whole_run_on_a_log_epoch_axis():
    at = open_page("trainer", {"twin": "false"})
    at.button(key="trainer_step_100").click().run()
    at.button(key="trainer_step_100").click().run()
    fig = next(f for f in figures(at) if f["layout"].get("uirevision") == "curves")
    assert fig["layout"]["xaxis"]["type"] == "log" and fig["layout"]["xaxis2"]["type"] == "log"
    assert "log" in fig["layout"]["xaxis2"]["title"]["text"]
    x = decode(fig["data"][0]["x"]).astype(float)
    assert x.max() == 200 and x.min() <= 1      # every epoch of the run, from the start


def test_overlapping_training_points_draw_no_stripes():
    """A path's outline is drawn over all of its fill: a white outline on the filled (train) squares crossed
    every square it overlapped, and close points drew as striped smudges. Train squares have none; test
    squares keep their coloured outline (that is what makes them hollow)."""
    import numpy as np

    from pages.trainer import charts as tc

    X = np.array([[0.0, 0.0], [0.03, 0.01], [1.0, 1.0]])   # two of them overlap
    shapes = tc.points_shapes(X, np.array([0, 0, 1]), X, np.array([0, 0, 1]), limit=3.0)
    train = [s for s in shapes if s["fillcolor"] != "rgba(255,255,255,0.8)"]
    test = [s for s in shapes if s["fillcolor"] == "rgba(255,255,255,0.8)"]
    assert len(train) == 2 and all(s["line"]["width"] == 0 for s in train)
    assert len(test) == 2 and all(s["line"]["width"] > 0 for s in test)


def test_a_tick_that_finds_play_stopped_while_the_page_shows_pause_asks_for_the_whole_page(monkeypatch):
    """Streamlit 1.67 can run Pause's callback inside a live tick and never send the whole-page run that
    redraws the button (1 pause in about 10 in tests/e2e/test_trainer.py): the next tick asks for it."""
    from types import SimpleNamespace

    from pages.trainer import live as lv

    class Rerun(Exception):
        pass

    def rerun(reason):
        raise Rerun(reason)

    state = {tr.PLAYING: False, tr.SHOWN_PLAYING: True}
    monkeypatch.setattr(lv, "st", SimpleNamespace(session_state=state))
    monkeypatch.setattr(lv.state, "rerun_page", rerun)
    monkeypatch.setattr(lv.seats, "here", lambda ch, playing: None)
    with pytest.raises(Rerun):
        lv.tick(run=None, speed=5)
    state[tr.SHOWN_PLAYING] = False          # the whole-page run drew Play: the next ticks do nothing
    assert lv.tick(run=None, speed=5) is None


def test_the_shared_link_table_is_never_changed_by_a_session():
    """pages/trainer/links.LINKS is declared once per process: what one student's page varies (the datasets of
    their problem, a number typed into their link, their network's layers) stays in their session."""
    declared = dict(tl.LINKS.links)
    classes = open_page("trainer", {"problem": "classes", "speed": "25", "tlr": "0.05", "view": "warp"})
    regress = open_page("trainer", {"problem": "regress", "feat": ["x1", "x2"]})
    assert dict(tl.LINKS.links) == declared and all(tl.LINKS.links[k] is v for k, v in declared.items())
    assert classes.selectbox(key="dataset").options != regress.selectbox(key="dataset").options
    assert "25" in classes.select_slider(key="speed").options
    assert "25" not in regress.select_slider(key="speed").options


def test_a_weights_file_past_any_bound_is_one_line_under_the_uploader_and_the_network_is_kept():
    """Issue 32: every field of a file is bounded where it enters (an epoch of 2**63, layers this page does
    not build, JSON nested 200,000 deep that json.loads cannot read); each is one line under the uploader,
    the file's name as text (never Markdown), and the network is the one before."""
    at = open_page("trainer", {"twin": "false"})
    at.button(key="trainer_step_10").click().run()
    run = at.session_state[tr.RUN]
    before = run.trainer.flat.copy()
    good = run.trainer.to_dict()
    wide = Trainer(TrainConfig(hidden=(64,)), run.data.Ftr, run.data.ytr, run.data.Fte,
                   run.data.yte).to_dict()
    cases = {
        "epoch.json": json.dumps({**good, "epoch": 2**63}).encode(),
        "wide.json": json.dumps(wide).encode(),
        "deep.json": ("[" * 200_000 + "]" * 200_000).encode(),
        "![](x).json": json.dumps({**good, "config": {**good["config"], "lr": 1e300}}).encode(),
    }
    for name, data in cases.items():   # a refused file stays in the same uploader, to be replaced
        at.file_uploader(key="trainer_weights_0").set_value((name, data, "application/json")).run()
        assert not at.exception, name
        lines = [e.value for e in at.error if "Could not load" in e.value]
        assert len(lines) == 1 and "\n" not in lines[0] and "Nothing was loaded" in lines[0], (name, lines)
        np.testing.assert_array_equal(at.session_state[tr.RUN].trainer.flat, before)
    assert "!\\[\\]\\(x\\)\\.json" in lines[0]                 # the name as typed, escaped


def test_the_link_table_is_declared_for_the_page_file():
    """app.py finds a page's links by its file (state.declared) to draw 'A link for the class': the table
    declared in pages/trainer/links.py must name pages/trainer.py."""
    from pages.trainer import links

    assert state.declared(PAGE) is links.LINKS


def test_each_class_is_drawn_in_its_own_shape_on_the_map_and_the_inside_views():
    """Issue 35 item 3: five classes, five shapes (ui.colors.CLASS_SYMBOLS), drawn as paths on the map
    (ui.boundary.class_path: circle 6 corners, square, diamond 4, triangle 3, cross 12) and as plotly
    symbols where the points are markers (filled train, -open test)."""
    from pages.trainer import inside_charts as ic
    from ui import boundary, colors

    pts = np.array([[0.0, 0.0], [1.0, 1.0]])
    corners = [boundary.class_path(pts, 0.1, c).split("Z")[0].count("L") + 1 for c in (0, 2, 3, 4)]
    assert corners == [6, 4, 3, 12]
    assert boundary.class_path(pts, 0.1, 1) == boundary.dots_path(pts, 0.1)
    assert all(boundary.class_path(pts, 0.1, c).count("Z") == 2 for c in range(5))
    y = np.arange(5)
    train = ic._marks(np.zeros((5, 2)), y, "train", 5, None)["marker"]["symbol"]
    test = ic._marks(np.zeros((5, 2)), y, "test", 5, None)["marker"]["symbol"]
    assert train == list(colors.CLASS_SYMBOLS) and test == [s + "-open" for s in colors.CLASS_SYMBOLS]


def test_a_negative_r2_at_the_start_gets_a_word_and_goes_when_the_fit_is_good():
    """Issue 34 item 6: 'Train R² −14.48' at epoch 0 needs a word; it goes once R² is above 0."""
    at = open_page("trainer", {"problem": "regress"})
    r2 = next(m for m in at.metric if m.label == "Train R²").value
    assert r2.startswith("−")
    assert any("R² below 0" in c.value and r2 in c.value for c in at.caption)
    for _ in range(5):                                        # 500 epochs: the curve fits
        at.button(key="trainer_step_100").click().run()
    assert not next(m for m in at.metric if m.label == "Train R²").value.startswith("−")
    assert not any("R² below 0" in c.value for c in at.caption)


def _announced(at) -> str:
    """The trainer's live region's words (pages/trainer/announce.py), as sent to the page."""
    from pages.trainer import announce

    found = []

    def walk(node) -> None:
        for child in getattr(node, "children", {}).values():
            if getattr(child, "type", None) == "bidi_component" \
                    and child.proto.component_name == announce.NAME:
                found.append(child.proto)
            walk(child)

    walk(at._tree)
    assert len(found) == 1, found
    import json

    return json.loads(found[0].json)["text"]


def test_a_live_region_says_the_epoch_and_score_after_each_step():
    """Issue 35: a screen reader hears the progress (polite, out of sight); a Step's result at once."""
    at = open_page("trainer", {"twin": "false"})
    assert _announced(at).startswith(f"Stopped: epoch 0, test accuracy {_metrics(at)['Test accuracy']}, "
                                     f"loss {_metrics(at)['Loss']}. ")
    at.button(key="trainer_step_100").click().run()
    m = _metrics(at)
    assert _announced(at).startswith(f"Stopped: epoch 100, test accuracy {m['Test accuracy']}, "
                                     f"loss {m['Loss']}. ")


def test_the_live_region_says_the_boundary_s_shape_and_the_words_change_with_it():
    """Issue 48 item 1: after the progress, the map in words (lib/describe.py), from the map the page draws.
    Untrained, the checkerboard's boundary is some line; trained, the four quarters."""
    at = open_page("trainer", {"twin": "false", "opt": "adam"})
    before = _announced(at)
    assert "separate region" in before and "training points" in before, before
    assert "quarters" not in before, before
    for _ in range(2):
        at.button(key="trainer_step_100").click().run()
    after = _announced(at)
    assert after != before
    words = after.split(". ", 1)[1]
    assert ("Class 0 holds the upper-right and lower-left quarters; class 1 the upper-left and lower-right "
            "quarters.") in words, words
    assert "The boundary meets the square's edges 4 times: the bottom edge at x₁ = " in words
    assert "test points" in words
    at.selectbox(key="dataset").set_value("ring").run()          # another boundary: other words
    assert "quarters" not in _announced(at).split(". ", 1)[1]


def test_a_point_typed_by_its_coordinates_joins_the_data_as_a_click_would():
    """Issue 35 item 4: the keyboard's way to add a point, beside the click."""
    from pages.trainer import picking

    at = open_page("trainer", {"twin": "false"})
    assert at.button(key="trainer_typed_add").disabled            # nothing chosen to add yet
    at.session_state[picking.MODE] = 1                             # "class 1 (green square)"
    at.run()
    at.number_input(key=picking.TYPED[0]).set_value(1.2)
    at.number_input(key=picking.TYPED[1]).set_value(-0.5)
    at.button(key="trainer_typed_add").click().run()
    assert not at.exception
    assert at.query_params["pts"] == "1.2_-0.5_1"
    assert "1 of 150 points placed by hand" in " ".join(c.value for c in at.caption)
    at.number_input(key=picking.TYPED[0]).set_value(-2.0)
    at.button(key="trainer_typed_add").click().run()
    assert at.query_params["pts"] == "1.2_-0.5_1~-2_-0.5_1"


def test_the_typed_point_fields_wait_for_pause_off_the_ticks():
    """The live fragment runs them on every tick: while playing they are not drawn (bench/classroom.py
    with players paid for them), and Pause brings them back."""
    from pages.trainer import picking

    at = open_page("trainer", {"twin": "false"})
    assert [b for b in at.button if b.key == "trainer_typed_add"]
    at.session_state[tr.PLAYING] = True
    at.run()
    assert not at.exception
    assert not [b for b in at.button if b.key == "trainer_typed_add"]
    assert not [n for n in at.number_input if n.key in picking.TYPED]
    at.session_state[tr.PLAYING] = False
    at.run()
    assert [b for b in at.button if b.key == "trainer_typed_add"]


def _listen(at) -> dict:
    """What the trainer's Listen button was given this run (pages/trainer/listen.py)."""
    from pages.trainer import listen

    found = []

    def walk(node) -> None:
        for child in getattr(node, "children", {}).values():
            if getattr(child, "type", None) == "bidi_component" and child.proto.component_name == listen.NAME:
                found.append(child.proto)
            walk(child)

    walk(at._tree)
    assert len(found) == 1, found
    return json.loads(found[0].json)


def test_listen_sends_the_notes_only_after_a_press_and_only_once():
    """Issue 48 item 2: no run sends sound unasked (a playing trainer's ticks carry none); a press asks for
    the notes of what is chosen, from the map the page draws (lib/sonify.py), sent in one run."""
    from lib.sonify import NOTES, ROWS
    from pages.trainer import listen

    at = open_page("trainer", {"twin": "false", "opt": "adam"})
    assert _listen(at) == {}
    at.button(key="trainer_step_100").click().run()
    assert _listen(at) == {}
    at.session_state[listen.WANT] = True       # what the button's trigger callback sets
    at.run()
    sent = _listen(at)
    sound = sent["sound"]
    assert len(sound["t"]) == len(sound["f"]) == ROWS * NOTES
    assert set(sound["w"]) == {0, 1} and len(sound["clicks"]) >= ROWS   # two timbres, a crossing a row
    assert sound["what"] == "the map, row by row from the top"
    at.run()
    assert _listen(at) == {}                   # played once
    at.selectbox(key=listen.WHAT).set_value("loss").run()
    at.session_state[listen.WANT] = True
    at.run()
    loss = _listen(at)
    assert loss["play"] == sent["play"] + 1 and loss["sound"]["what"].startswith("the loss curves")
    assert np.diff(loss["sound"]["f"][:10]).mean() < 0                  # the loss falls: so does the pitch

"""ui.inplace: charts that change in place. Sent as one keyed component whose figure is plotly's JSON;
the same key across reruns (so the browser keeps the chart and Plotly.react redraws it); NaN never
sent; st.plotly_chart as the fallback when plotly.js cannot be served."""

from __future__ import annotations

import json

import numpy as np
import plotly
import plotly.graph_objects as go
from streamlit.testing.v1 import AppTest

from tests.app.conftest import chart_elements, figures, open_page
from ui import inplace


def _charts_app():
    import numpy as np
    import plotly.graph_objects as go
    import streamlit as st

    from ui import charts

    a = st.slider("a", 0.0, 3.0, 1.0, 0.5, help="the slope")
    x = np.linspace(-1, 1, 5)
    charts.show(go.Figure(go.Scatter(x=x, y=a * x)), key="named")
    for k in range(2):  # two unnamed charts from one line: each gets its own key
        charts.show(go.Figure(go.Scatter(x=x, y=(a + k) * x)))
    charts.show(go.Figure(go.Scatter(x=x, y=np.full(5, np.inf) * a)))  # inf: a message, not a chart


def _ids(at) -> list[str]:
    return [el.proto.id for el in chart_elements(at)]


def test_charts_keep_their_ids_while_their_figures_change():
    at = AppTest.from_function(_charts_app).run()
    assert not at.exception
    els = chart_elements(at)
    assert [el.type for el in els] == ["bidi_component"] * 3
    ids, figs = _ids(at), figures(at)
    assert ids[0].endswith("-named")
    assert len(set(ids)) == 3  # the loop's two charts do not collide
    at.slider[0].set_value(2.0).run()
    assert _ids(at) == ids  # same elements: the browser redraws them in place
    after = figures(at)
    assert after != figs
    y = after[0]["data"][0]["y"]
    assert y == [-2.0, -1.0, 0.0, 1.0, 2.0] or "bdata" in y
    assert any("too large to draw" in w.value for w in at.warning)


def test_the_sent_figure_is_plotlys_json_with_the_streamlit_template():
    at = AppTest.from_function(_charts_app).run()
    el = chart_elements(at)[0]
    assert el.proto.WhichOneof("data") == "bytes"  # JSON as UTF-8, not a str Streamlit encodes again
    payload = json.loads(el.proto.bytes)
    assert set(payload) == {"id", "fig", "config", "name"}  # id: the digest a later "same as before" names
    assert payload["name"]   # the chart's accessible name (issue 35): its title, or its axes and lines
    assert payload["config"]["displaylogo"] is False
    fig = inplace.spec(el.proto)
    # the placeholder colours the page swaps for the theme's travel in the template
    assert "#000001" in json.dumps(fig["layout"]["template"])
    assert go.Figure(fig).data[0].type == "scatter"  # plotly accepts it back


def test_plotly_js_is_the_installed_packages():
    assert inplace.available()
    assert inplace.PLOTLY_JS.read_bytes() == inplace._source().read_bytes()
    assert f"v={plotly.__version__}" in inplace._chart_js()
    assert inplace.CHART_JS.read_text() == inplace._chart_js()  # the chart code served is ui/inplace.js


def test_a_stale_plotly_js_as_long_as_the_installed_one_is_replaced(monkeypatch, tmp_path):
    """static/ kept from another plotly version whose file is, by chance, as long: the page must not serve
    it (checked in a scratch static/, never the one a running server serves)."""
    monkeypatch.setattr(inplace, "STATIC", tmp_path)
    monkeypatch.setattr(inplace, "PLOTLY_JS", tmp_path / "plotly.min.js")
    monkeypatch.setattr(inplace, "CHART_JS", tmp_path / "layerlab-chart.js")
    inplace.PLOTLY_JS.write_bytes(b"/" * inplace._source().stat().st_size)
    inplace.available.cache_clear()
    try:
        assert inplace.available()
        assert inplace.PLOTLY_JS.read_bytes() == inplace._source().read_bytes()
    finally:
        inplace.available.cache_clear()


def test_without_static_serving_the_page_falls_back_to_st_plotly_chart(monkeypatch):
    inplace.available.cache_clear()
    import streamlit as st

    real = st.get_option
    monkeypatch.setattr(st, "get_option",
                        lambda name: False if name == "server.enableStaticServing" else real(name))
    try:
        at = AppTest.from_function(_charts_app).run()
        assert not at.exception
        assert [el.type for el in chart_elements(at)] == ["plotly_chart"] * 3
    finally:
        monkeypatch.undo()
        inplace.available.cache_clear()


def test_a_lesson_page_draws_its_charts_in_place():
    at = open_page("activations")
    els = chart_elements(at)
    assert els and all(el.type == "bidi_component" for el in els)
    for fig in figures(at):
        for trace in fig["data"]:
            for attr in ("x", "y"):
                v = trace.get(attr)
                if isinstance(v, list) and v and not isinstance(v[0], str):
                    assert np.isfinite(np.asarray(v, dtype=float)).all()


def _sent(at) -> list[str]:
    """What each chart was given this run: "same" (the figure its page holds) or "whole"."""
    return ["same" if inplace.is_same(el.proto) else "whole" for el in chart_elements(at)]


def test_a_figure_the_page_holds_is_not_sent_again():
    at = AppTest.from_function(_charts_app).run()
    assert _sent(at) == ["whole"] * 3
    figs = figures(at)
    at.run()                                   # nothing moved: every chart holds its figure
    assert _sent(at) == ["same"] * 3
    assert all(len(inplace.sent(el.proto)) < 100 for el in chart_elements(at))
    assert figures(at) == figs                 # spec() still reads the figure each chart shows
    at.slider[0].set_value(2.0).run()          # every figure changes
    assert _sent(at) == ["whole"] * 3
    assert figures(at) != figs


def test_a_chart_that_asks_gets_its_figure_whole_and_a_new_page_holds_nothing():
    at = AppTest.from_function(_charts_app).run()
    at.run()
    assert _sent(at) == ["same"] * 3
    held = dict(at.session_state[inplace.HELD])
    assert len(held) == 3
    held.pop("named")  # what the `missing` trigger's callback (inplace._forget) does
    at.session_state[inplace.HELD] = held
    at.run()
    assert _sent(at) == ["whole", "same", "same"]
    # app.py calls new_page on every full run: the same page keeps what it holds, another forgets it
    with_page = AppTest.from_string(
        "import streamlit as st\nfrom ui import inplace\ninplace.new_page(st.session_state.get('p', 'a'))\n"
        "st.markdown(str(len(st.session_state[inplace.HELD])))\n").run()
    with_page.session_state[inplace.HELD] = {"x": "d"}
    with_page.run()
    assert with_page.markdown[0].value == "1"
    with_page.session_state["p"] = "b"
    with_page.run()
    assert with_page.markdown[0].value == "0"

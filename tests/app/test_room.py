"""The view for the back of the room (`big=true`, ui/room.py) under AppTest: declared on every page, it
round-trips through the link and the sidebar toggle, folds the controls away unless `hide` names
which, and every chart is sent with its text scale."""

from __future__ import annotations

import json

import pytest

from tests.app.conftest import chart_elements, open_page, spec_text
from ui import inplace, room, state
from ui.nav import LESSONS

PATHS = [lesson.url_path for lesson in LESSONS]
CONTROLS = ("slider", "select_slider", "selectbox", "number_input", "toggle", "radio", "multiselect")


def _controls(at) -> list[str]:
    """Keys of the page's link controls on screen (the sidebar's own toggle and boxes are not the page's)."""
    keys = [w.key for kind in CONTROLS for w in getattr(at.main, kind)]
    return [k for k in keys if k and not k.startswith("_")]


def _scale(el) -> float | None:
    """The text scale a chart was sent with: inplace's factor beside the figure, or the figure's fonts."""
    if el.type == "plotly_chart":
        size = (json.loads(spec_text(el)).get("layout", {}).get("font") or {}).get("size")
        return None if size is None else size / 14
    return json.loads(inplace.sent(el.proto)).get("scale")


@pytest.mark.parametrize("path", PATHS)
def test_every_page_declares_the_room_view_and_folds_its_controls(path):
    links = state.page_links(f"pages/{path}.py")   # /class has no link controls: a way in, and the board
    assert links is None if path == "class" else (links[state.ROOM].kind == "toggle"
                                                   and state.ROOM not in links.hideable())
    normal = open_page(path, {"twin": "false"} if path == "trainer" else None)
    big = open_page(path, {"big": "true", **({"twin": "false"} if path == "trainer" else {})})
    assert not normal.exception and not big.exception
    if path != "class":                                                    # folded away...
        assert _controls(normal) and _controls(big) == [], _controls(big)
    charts = chart_elements(big)
    assert (charts == []) == (path == "class"), path                       # every lesson draws charts...
    assert all(_scale(el) is not None and _scale(el) >= 1.5 for el in charts), [_scale(c) for c in charts]
    assert all(_scale(el) in (None, 1) for el in chart_elements(normal))  # ...scaled in the room view only


def _toggle_page():
    import streamlit as st

    from ui import room, state

    links = state.Links(state.slider("lr", 0.0, 1.0, 0.5, 0.1, "Rate", "A rate."))
    room.sidebar()   # app.py draws it around every page (AppTest runs a switched-to page without app.py)
    room.style()
    st.write(links.widget("lr"))


def _toggle_app(query: dict):
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_function(_toggle_page)
    for k, v in query.items():
        at.query_params[k] = v
    return at.run()


def test_the_toggle_switches_the_view_off_and_the_link_follows():
    at = _toggle_app({"big": "true"})
    assert at.toggle(key=state.ROOM_WIDGET).value is True and _controls(at) == []
    at.toggle(key=state.ROOM_WIDGET).set_value(False).run()
    assert not at.exception and "big" not in at.query_params
    assert _controls(at)                                                   # the controls are back
    at.toggle(key=state.ROOM_WIDGET).set_value(True).run()
    assert at.query_params["big"] in ("true", ["true"]) and _controls(at) == []


def test_a_hide_list_keeps_the_controls_it_does_not_name():
    links = state.page_links("pages/recipe-card.py")
    keep = links.hideable()[0]
    hide = ",".join(link.key for link in links if link.key not in (keep, state.HIDE, state.ROOM))
    at = open_page("recipe-card", {"big": "true", "hide": hide})
    assert not at.exception and _controls(at) == [keep]


def test_a_bad_value_says_so_and_opens_the_normal_view():
    at = _toggle_app({"big": "maybe"})
    assert not at.exception and at.toggle(key=state.ROOM_WIDGET).value is False
    assert any("Ignored `big=maybe`" in c.value for c in at.sidebar.caption)
    assert _controls(at)


def test_scaled_makes_every_font_larger_and_leaves_the_figure_alone_when_off():
    import plotly.graph_objects as go

    fig = go.Figure(go.Scatter(x=[1, 2], y=[3, 4], text=["a", "b"], mode="text", textfont={"size": 10}))
    fig.update_layout(font={"size": 14}, annotations=[{"text": "note", "font": {"size": 11}}],
                      uniformtext={"minsize": 12, "mode": "hide"}, title={"text": "T"})

    def run(big: bool) -> dict:
        from streamlit.testing.v1 import AppTest

        def script():
            import streamlit as st

            from ui import room as r
            st.session_state["out"] = r.scaled(st.session_state["fig"]).to_dict()

        at = AppTest.from_function(script)
        at.session_state["fig"] = fig
        at.session_state[state.ROOM_WIDGET] = big
        at.run()
        return at.session_state["out"]

    assert run(False) == fig.to_dict()
    out = run(True)["layout"]
    s = room.SCALE
    assert out["font"]["size"] == round(14 * s) and out["annotations"][0]["font"]["size"] == round(11 * s)
    assert out["uniformtext"]["minsize"] == round(12 * s) and out["title"]["font"]["size"] == round(16 * s)
    assert out["xaxis"]["tickfont"]["size"] == round(12 * s)
    assert run(True)["data"][0]["textfont"]["size"] == round(10 * s)


def test_the_recipe_card_folds_into_a_table_that_still_shows_its_numbers():
    """With its cells folded away the card is read, not edited: each number on it, the outputs in bold, and
    no buttons that would change numbers the room cannot see."""
    at = open_page("recipe-card", {"big": "true", "w11": "1.5"})
    table = next(m.value for m in at.main.markdown if "| input x |" in m.value)
    assert "1.5" in table and "**apple**" in table and "= output y" in table
    assert not [b for b in at.main.button if b.label in ("Random weights", "All zeros", "Starting numbers")]
    normal = open_page("recipe-card", {"w11": "1.5"})
    assert not [m for m in normal.main.markdown if "| input x |" in m.value]
    assert [b for b in normal.main.button if b.label == "All zeros"]

"""ui.state: one declared link state per page (parse, bounds, last good value, notes, round trip)."""

from pathlib import Path

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from classroom.links import LINK_BOX
from ui import state

PAGE = str(Path(__file__).parent / "fixtures" / "state_page.py")


def run(query=None) -> AppTest:
    at = AppTest.from_file(PAGE, default_timeout=30)
    for k, v in (query or {}).items():
        at.query_params[k] = v
    at.run()
    assert not at.exception
    return at


def texts(at):
    return [m.value for m in at.markdown]


def notes(at):
    return [c.value for c in at.caption if "link_off" in c.value]


def test_defaults_without_a_link():
    at = run()
    assert texts(at)[-1] == "B: act=relu mode=story on=True show=a hidden=(8,) w=[[1.0, 0.0], [0.0, 1.0]]"
    assert notes(at) == []


def test_a_link_reproduces_every_kind():
    q = {"n": "7", "act": "gelu_tanh", "mode": "plain", "on": "false", "show": "b",
         "hidden": "16,16", "w": "1,2;3,4"}
    at = run(q)
    assert texts(at)[0] == "before: n = 7, hidden = (16, 16)"  # values before their widgets
    assert texts(at)[1] == "A: n = 7"
    assert texts(at)[2] == ("B: act=gelu_tanh mode=plain on=False show=b hidden=(16, 16) "
                            "w=[[1.0, 2.0], [3.0, 4.0]]")
    assert notes(at) == []
    # the select shows a name but the URL keeps the short value
    assert at.selectbox(key="act").format_func("gelu_tanh") == "GELU (tanh approximation)"
    assert at.query_params["act"] == "gelu_tanh" and at.query_params["w"] == "1,2;3,4"


def test_bad_link_values_fall_back_with_one_line_each():
    at = run({"n": "70", "act": "bogus", "hidden": "-3", "w": "1,2"})
    assert texts(at)[-1] == "B: act=relu mode=story on=True show=a hidden=(8,) w=[[1.0, 0.0], [0.0, 1.0]]"
    got = notes(at)
    assert len(got) == 4
    assert any("`n=70`" in n and "using 3" in n for n in got)
    assert any("`act=bogus`" in n and "using ReLU" in n for n in got)
    assert any("`hidden=-3`" in n and "using 8" in n for n in got)
    assert any("`w=1,2`" in n and "2 × 2" in n for n in got)


def test_typed_text_keeps_the_last_good_value_and_says_why():
    at = run({"hidden": "16,16"})
    at.text_input(key="hidden").input("a,b").run()
    assert "hidden=(16, 16)" in texts(at)[-1]
    assert any("`hidden=a,b`" in n and "using 16,16" in n for n in notes(at))
    at.text_input(key="hidden").input("4").run()
    assert "hidden=(4,)" in texts(at)[-1] and notes(at) == []


def test_hand_bound_select_writes_its_short_value_and_drops_the_default():
    at = run()
    at.selectbox(key="act").set_value("gelu").run()
    assert at.query_params["act"] == "gelu"
    at.selectbox(key="act").set_value("relu").run()
    assert "act" not in at.query_params


def test_matrix_edit_travels_and_a_bad_cell_keeps_the_last_good():
    at = run()
    at.session_state["w_editor"] = {"edited_rows": {0: {"2": 5.0}}, "added_rows": [], "deleted_rows": []}
    at.run()
    assert "w=[[1.0, 5.0], [0.0, 1.0]]" in texts(at)[-1]
    assert at.query_params["w"] == "1,5;0,1"
    at.session_state["w_editor"] = {"edited_rows": {0: {"2": None}}, "added_rows": [], "deleted_rows": []}
    at.run()
    assert "w=[[1.0, 5.0], [0.0, 1.0]]" in texts(at)[-1]
    assert any("still using the last good values" in e.value for e in at.error)


def test_round_trip_of_every_declared_key():
    links = state.page_links(PAGE)
    for link in links:
        if link.kind in ("multi",):
            continue
        value = link.default if link.kind != "slider" else link.hi
        assert state._equal(link.from_text(link.to_text(value)), value), link.key


def test_declarations_refuse_a_key_twice_and_read_without_running():
    with pytest.raises(ValueError, match="twice"):
        state.Links(state.toggle("a", True, "A", "a"), state.toggle("a", False, "A", "a"))
    links = state.page_links(PAGE)
    assert [link.key for link in links] == ["n", "act", "mode", "on", "show", "hidden", "w", "big", "hide"]
    from tools.readme import table as readme_table

    table = readme_table(links)
    assert "| `n` | Count | 1 to 10 (3) |" in table
    assert "| `act` | Bend | `relu`, `gelu`, `gelu_tanh` (`relu`) |" in table


def test_matrix_text_form():
    assert state.format_matrix(np.array([[0.5, -1], [-1, 0]])) == "0.5,-1;-1,0"
    assert state.parse_matrix("0.5,-1;-1,0", (2, 2)).tolist() == [[0.5, -1], [-1, 0]]
    for bad, why in (("1,x;0,1", "not a number"), ("1,inf;0,1", "finite"), ("1;2", "2 × 2")):
        with pytest.raises(ValueError, match=why):
            state.parse_matrix(bad, (2, 2))


def test_a_link_can_hide_controls_and_their_values_still_apply():
    from tests.app.conftest import open_page

    at = open_page("trainer", {"twin": "false", "lr": "0.1", "hide": "lr,act,nope"})
    assert not at.exception
    keys = {w.key for w in at.select_slider} | {w.key for w in at.selectbox}
    assert "lr" not in keys and "act" not in keys and "opt" in keys        # hidden: not drawn
    assert at.session_state["trainer_spec"].lr == 0.1                       # ...its link value applies
    assert "Ignored `nope` in `hide=`" in str(at.session_state["_links"])   # noted (shown in the page)
    everything = open_page("trainer", {"twin": "false", "hide": "all"})
    assert not everything.exception
    assert not [w for w in everything.select_slider if w.key in ("lr", "speed", "l1", "l2")]
    everything.button(key="trainer_step_10").click().run()                  # it still trains
    assert any(m.label == "Epoch" and m.value == "10" for m in everything.metric)


def _box_page():
    import streamlit as st

    from classroom.links import link_box
    from ui import state

    links = state.Links(state.slider("lr", 0.0, 1.0, 0.5, 0.1, "Rate", "A rate."),
                        state.toggle("relu", True, "ReLU", "The bend."))
    st.write(links.widget("lr"), links.widget("relu"))
    link_box(links)


def test_the_box_for_the_class_builds_the_hiding_link():
    """app.py draws it in the sidebar for every page (AppTest runs a switched-to page without app.py)."""
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_function(_box_page)
    at.query_params["hide"] = "relu"
    at.run()
    assert not [m for m in at.multiselect if m.key == "_class_link_hide"]   # closed: nothing drawn
    at.session_state[LINK_BOX] = True                                   # the teacher opens it
    at.run()
    box = at.multiselect(key="_class_link_hide")
    assert box.value == ["relu"] and not any(t.label == "ReLU" for t in at.toggle)
    box.set_value(["relu", "lr"]).run()
    assert any(c.value.endswith("hide=all") for c in at.code)
    box.set_value(["lr"]).run()
    assert any(c.value.endswith("hide=lr") for c in at.code)


def test_no_link_the_class_box_offers_holds_a_seat_a_key_or_a_class():
    """A student's 'A link for the class' on /trainer in a class carried `seat=`: a friend given it could
    submit as that student. Neither the long link nor the short one holds a seat, a teacher's key, or the
    class that goes with a seat."""
    at = AppTest.from_function(_box_page)
    at.query_params.update({"lr": "0.2", "seat": "secret-token", "key": "teacher-key", "class": "ABCDEF"})
    at.session_state[LINK_BOX] = True
    at.run()
    at.button(key="_short_link").click().run()
    offered = [c.value for c in at.code]
    assert len(offered) == 2 and any("?s=" in c for c in offered), offered
    long = next(c for c in offered if "lr=0.2" in c)
    for private in ("seat", "secret-token", "key=", "teacher-key", "class=", "ABCDEF"):
        assert private not in long, long


def test_a_short_link_for_a_slide_opens_the_same_view():
    """'Short link for a slide' keeps the box's link (hide list included, never a seat) in the class store
    under six letters; /?s=CODE on the home page opens that view, and a code it does not hold says so."""
    from classroom import connection
    from tests.app.conftest import open_page

    at = AppTest.from_function(_box_page)
    at.query_params.update({"lr": "0.2", "seat": "secret-token"})
    at.session_state[LINK_BOX] = True
    at.run()
    at.multiselect(key="_class_link_hide").set_value(["lr"]).run()
    assert not [c for c in at.code if "?s=" in c.value]           # nothing stored until asked
    at.button(key="_short_link").click().run()
    short = next(c.value for c in at.code if "?s=" in c.value)
    code = short.rsplit("=", 1)[1]
    _path, query = connection.store().expand(code)
    assert "lr=0.2" in query and "hide=lr" in query and "seat" not in query
    at.button(key="_short_link").click().run()                    # asked again: the same code
    assert next(c.value for c in at.code if "?s=" in c.value) == short

    slide = connection.store().shorten("recipe-card", "w11=1.5&hide=all")
    home = open_page("", {"s": slide.lower()})                     # typed off the projector
    assert not home.exception
    assert not home.slider and any("| input x |" in m.value and "1.5" in m.value for m in home.markdown)
    lost = open_page("", {"s": "ZZZZZZ"})
    assert not lost.exception and any("No short link `ZZZZZZ`" in w.value for w in lost.warning)
    assert any(t.value == "Layer Lab" for t in lost.title)


HUGE = "1" + "0" * 400


@pytest.mark.parametrize("url_path, query", [
    ("trainer", {"seed": "inf"}),
    ("tax-bands", {"seed": "-inf"}),
    ("gpt2-mlp", {"seed": HUGE}),
    ("gpt2-params", {"vocab": "inf", "pos": HUGE}),
    ("stacking", {"steps": "-inf"}),
])
def test_a_number_no_box_can_hold_gets_one_line_under_its_control_and_the_default(url_path, query):
    """inf, -inf or a 400-digit number on a whole-number box: Streamlit's URL seeding raised OverflowError
    (a traceback instead of the page); now the shared declaration drops it before the widget is drawn."""
    from tests.app.conftest import open_page

    at = open_page(url_path, query)
    assert not at.exception, at.exception[0].message
    lines = [c.value for c in at.caption if "link_off" in c.value]
    for key in query:
        assert any(f"`{key}=" in line and "using" in line for line in lines), (key, lines)
        assert key not in at.query_params                        # the address bar no longer holds it

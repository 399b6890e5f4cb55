"""engine.keylookup: a widget's look at its own key answers exactly what Streamlit's whole
`filtered_state` answers, key by key, on a page full of widgets and keyed charts."""

from __future__ import annotations

import importlib

from streamlit.testing.v1 import AppTest

from engine import keylookup
from tests.app.conftest import open_page


def test_every_widget_module_gets_the_one_key_view():
    assert keylookup.install() is True
    assert keylookup.install() is True                  # idempotent: not wrapped twice
    for name in keylookup.MODULES:
        get = importlib.import_module(name).get_session_state
        assert getattr(get, keylookup._MARK, False), name
        assert get.__defaults__[0].__name__ == "get_session_state", name   # wraps Streamlit's own


def test_the_view_answers_as_the_whole_filtered_state_on_a_drawn_trainer():
    at = open_page("trainer")
    assert not at.exception
    state = at._session_state                           # the SafeSessionState the run used
    full = state.filtered_state
    view = keylookup.OneKey(state)
    assert len(full) > 40                               # widgets, charts, the page's own keys
    charts = [k for k in full if k.startswith("trainer_") and isinstance(full[k], dict)]
    assert charts, "no keyed chart component: the presented values are not exercised"
    for key, value in full.items():
        assert key in view, key
        assert view[key] == value, key
    assert dict(view) == full                           # iteration falls back to the whole state
    assert "no_such_key" not in view
    ids = list(state._state._new_widget_state.states)   # widget ids: answered by filtered_state itself
    assert ids and all((i in view) == (i in full) for i in ids)


def _none_choice():
    import streamlit as st

    if "pick" not in st.session_state:
        st.session_state["pick"] = None
    st.selectbox("A choice", ["a", "b"], key="pick", help="a test")
    st.number_input("A number", value=None, key="num", help="a test")
    st.write(f"picked {st.session_state['pick']!r}, number {st.session_state['num']!r}")


def test_a_key_set_to_none_still_leaves_the_widget_empty():
    keylookup.install()
    at = AppTest.from_function(_none_choice).run()
    assert not at.exception
    assert at.selectbox[0].value is None
    assert "picked None, number None" in at.markdown[0].value
    at.selectbox[0].select("b").run()
    assert "picked 'b'" in at.markdown[0].value

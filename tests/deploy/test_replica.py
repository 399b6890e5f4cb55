"""engine/replica.py: the restart line shows for a browser moved off its stopped replica, and only then."""

from __future__ import annotations

from streamlit.runtime.context import StreamlitHeaders

from engine.replica import KEY, NOTE, NOW, SHOW_FOR, WAS, moved, restart_note


def test_a_browser_stuck_to_another_replica_is_told_once_its_session_starts():
    state: dict = {}
    assert restart_note({WAS: "r1", NOW: "r2"}, state, now=100.0) == NOTE
    assert state[KEY] == 100.0


def test_the_line_stays_on_the_first_minutes_runs_then_goes():
    state: dict = {}
    headers = {WAS: "r1", NOW: "r2"}
    restart_note(headers, state, now=100.0)
    assert restart_note(headers, state, now=100.0 + SHOW_FOR - 1) == NOTE
    assert restart_note(headers, state, now=100.0 + SHOW_FOR) is None


def test_no_line_on_a_first_visit_a_copied_link_or_the_same_replica():
    for headers in ({NOW: "r1"},                 # a fresh browser: no cookie yet
                    {WAS: "r1", NOW: "r1"},      # a reload or a reconnect to the same replica
                    {},                          # no balancer (streamlit run, Community Cloud)
                    {WAS: "r1"},                 # a header HAProxy did not complete
                    {WAS: "", NOW: "r2"}):       # an empty cookie
        state: dict = {}
        assert restart_note(headers, state, now=5.0) is None, headers
        assert state[KEY] is None


def test_decided_on_the_sessions_first_run_only():
    # A session that began on its own replica never shows the line later, whatever arrives.
    state: dict = {}
    restart_note({WAS: "r1", NOW: "r1"}, state, now=1.0)
    assert restart_note({WAS: "r1", NOW: "r2"}, state, now=2.0) is None
    # And one that began as a restart keeps it for its minute even if the headers change.
    state = {}
    restart_note({WAS: "r1", NOW: "r2"}, state, now=1.0)
    assert restart_note({}, state, now=2.0) == NOTE


def test_streamlits_headers_are_read_case_insensitively():
    # st.context.headers as Tornado hands them over (lower case on the wire is allowed too).
    headers = StreamlitHeaders([("x-layer-lab-was", "r2"), ("X-LAYER-LAB-REPLICA", "m1")])
    assert moved(headers)
    assert not moved(StreamlitHeaders([("X-Layer-Lab-Was", "m1"), ("X-Layer-Lab-Replica", "m1")]))


def test_the_line_is_one_short_line_with_an_icon():
    assert NOTE.startswith(":material/restart_alt: ")
    assert "\n" not in NOTE and len(NOTE) < 200

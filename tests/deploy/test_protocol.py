"""The load client (bench/protocol.py) speaks Streamlit's protocol to a real server."""

from __future__ import annotations

import asyncio

import pytest

from bench.protocol import Student
from tests.deploy.conftest import play_until, run


def test_refuses_any_host_but_this_machine():
    with pytest.raises(ValueError, match=r"127\.0\.0\.1"):
        Student("http://example.com:8501", "recipe-card")


def test_a_student_moves_a_slider_and_gets_changed_output(single):
    async def go():
        st = Student(single.url, "recipe-card")
        await st.open()
        assert st.page_hash and st.session_id
        assert st.stats.runs_done == 1
        slider = st.slider()   # the page's first slider
        st.finished.clear()
        value = st.move(slider.key)
        while not st.stats.latencies:
            await asyncio.wait_for(st.finished.wait(), 60)
            st.finished.clear()
        # The browser writes a bound slider into the link; the answer changed part of the page.
        assert f"{slider.key}={value}" in st.query
        assert st.stats.changed and 0 < st.stats.changed[-1] < st.stats.sent_whole[-1]
        # No references to cached messages: .streamlit/config.toml turns the forward-message cache
        # off (it made a playing trainer's tab die with "Cached ForwardMsg MISS"), so every element
        # comes whole and the client holds nothing it could miss.
        assert not st.cache
        await st.close()
        return st

    st = run(go())
    assert len(st.stats.latencies) == 1 and 0 < st.stats.latencies[0] < 60


def test_a_player_presses_play_and_gets_redraws(single):
    async def go():
        st = Student(single.url, "trainer", query="twin=false")
        await st.open()
        await play_until(st, 5)
        timers = dict(st.timers)
        await st.close()
        return st, timers

    st, timers = run(go())
    assert timers, "Play announced no fragment timer (auto_rerun)"
    assert 0 < min(timers.values()) <= 1   # the live fragment ticks at least once a second
    assert st.stats.redraws >= 5, st.stats
    assert st.stats.ticks_done >= st.stats.redraws

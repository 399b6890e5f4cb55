"""engine/nudge.py's bookkeeping without a server: who listens to what, and whom a change wakes
(tests/deploy/test_nudge.py runs it on a real server)."""

from __future__ import annotations

import threading
import time
import types

import pytest

from engine import nudge, private


@pytest.fixture
def fake_runs(monkeypatch):
    """listen() as if called from a fragment's run of `who` = (session, fragment, page); the nudges
    collected instead of sent."""
    who = {"session": "s1", "fragment": "f1", "page": "p1"}
    monkeypatch.setattr(private, "session_id", lambda: who["session"])
    monkeypatch.setattr(private, "page_hash", lambda: who["page"])
    state = types.SimpleNamespace(get=lambda: types.SimpleNamespace(fragment_id=who["fragment"]))
    real_get = private.get
    monkeypatch.setattr(private, "get", lambda name: state if name == "ThreadState" else real_get(name))
    sent: list[tuple[str, str, str]] = []
    woken = threading.Event()

    def collect(*args):
        sent.append(args)
        woken.set()

    monkeypatch.setattr(nudge, "_nudge", collect)
    monkeypatch.setattr(nudge, "WATCH_EVERY", 0.01)
    monkeypatch.setattr(nudge, "_topics", {})
    return who, sent, woken


def _wait(cond, seconds: float = 2.0) -> bool:
    end = time.monotonic() + seconds
    while time.monotonic() < end and not cond():
        time.sleep(0.01)
    return cond()


def test_a_change_wakes_every_listener_once_and_nothing_else_does(fake_runs):
    who, sent, woken = fake_runs
    value = {"v": 1}
    probe = lambda: value["v"]  # noqa: E731
    assert nudge.listen("A", probe)
    who.update(session="s2", fragment="f2")
    assert nudge.listen("A", probe)
    assert nudge.listening("A") == 2
    assert _wait(lambda: nudge._topics["A"].known)   # the watcher has seen the first value
    time.sleep(0.1)
    assert sent == [], "nothing changed, yet a page was woken"
    value["v"] = 2
    assert woken.wait(2)
    assert _wait(lambda: len(sent) == 2)
    assert sorted(sent) == [("s1", "f1", "p1"), ("s2", "f2", "p1")]
    time.sleep(0.1)
    assert len(sent) == 2, "one change woke a page twice"


def test_a_probe_that_fails_wakes_nobody_and_a_session_listens_to_one_topic(fake_runs):
    _, sent, _ = fake_runs
    calls = {"n": 0}

    def failing():
        calls["n"] += 1
        raise RuntimeError("the store is away")

    assert nudge.listen("A", failing)
    assert _wait(lambda: calls["n"] >= 3)
    assert sent == []
    assert nudge.listen("B", lambda: 1)   # the same session's page now follows another class
    assert nudge.listening("A") == 0 and nudge.listening("B") == 1


def test_listen_outside_a_fragments_run_notes_nothing(monkeypatch):
    monkeypatch.setattr(nudge, "_topics", {})
    assert nudge.missing() == [], "this Streamlit moved what engine/nudge.py needs"
    assert not nudge.listen("A", lambda: 1)   # no script run here: no session, no fragment
    assert nudge.listening("A") == 0

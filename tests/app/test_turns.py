"""engine.turns: script runs of one process take turns, first come first served, never frozen."""

from __future__ import annotations

import threading
import time
from types import SimpleNamespace

import pytest
from streamlit.runtime.scriptrunner import script_runner as runner

from engine import turns


def _line_up(t: turns.Turns, n: int) -> tuple[list[int], list[threading.Thread]]:
    """n threads ask for a turn one after another while the turn is held; each records its number
    when it gets the turn and gives it back."""
    order: list[int] = []

    def ask(i: int) -> None:
        assert t.take()
        order.append(i)
        t.give()

    threads = []
    for i in range(n):
        th = threading.Thread(target=ask, args=(i,))
        th.start()
        threads.append(th)
        while t.waiting < i + 1:      # this one is in line before the next asks
            time.sleep(0.001)
    return order, threads


def test_turns_go_in_the_order_they_were_asked_for():
    t = turns.Turns(wait=10)
    assert t.take()                   # held: everyone after this waits
    order, threads = _line_up(t, 5)
    assert order == []                # nobody ran while the turn was held
    t.give()
    for th in threads:
        th.join(5)
    assert order == [0, 1, 2, 3, 4]
    assert t.take()                   # and it is free again
    t.give()


def test_a_hurried_run_goes_to_the_front_of_the_line_and_hurried_runs_keep_their_order():
    """A page that follows its teacher (a lesson's Reveal: about 15 such runs per replica at once) goes
    before the runs already waiting (a flood of fresh sessions' Joins); the line behind keeps its order."""
    t = turns.Turns(wait=10)
    assert t.take()
    order: list[str] = []

    def ask(name: str, hurried: bool) -> None:
        assert t.take(hurried)
        order.append(name)
        t.give()

    threads = []
    for i, (name, hurried) in enumerate([("a", False), ("b", False), ("R1", True), ("c", False),
                                         ("R2", True)]):
        threads.append(threading.Thread(target=ask, args=(name, hurried)))
        threads[-1].start()
        while t.waiting < i + 1:
            time.sleep(0.001)
    t.give()
    for th in threads:
        th.join(5)
    assert order == ["R1", "R2", "a", "b", "c"]


def test_a_hurried_run_that_waited_too_long_leaves_the_front_line():
    t = turns.Turns(wait=0.05)
    assert t.take()
    got = []
    th = threading.Thread(target=lambda: got.append(t.take(True)))
    th.start()
    th.join(5)
    assert got == [False] and t.waiting == 0
    t.give()
    assert t.take()
    t.give()


def test_a_hurried_session_takes_the_front_line_for_its_next_run_only(monkeypatch):
    """turns.hurry() in a run (the lesson's watch, before its rerun) marks that session; the wrapped
    execution of its next run asks for the front of the line, and the one after asks as any run does."""
    turns.install()
    asked: list[bool] = []
    monkeypatch.setattr(turns.TURNS, "take", lambda hurried=False: asked.append(hurried) or True)
    monkeypatch.setattr(turns.TURNS, "give", lambda: None)
    monkeypatch.setattr(turns.private, "session_id", lambda: "s1")
    monkeypatch.setattr(turns, "_hurried", set())
    ctx = SimpleNamespace(cursors={})
    runner.exec_func_with_error_handling(lambda: 1, ctx)
    turns.hurry()
    monkeypatch.setattr(turns.private, "session_id", lambda: "s2")   # another session is not hurried
    runner.exec_func_with_error_handling(lambda: 1, ctx)
    monkeypatch.setattr(turns.private, "session_id", lambda: "s1")
    runner.exec_func_with_error_handling(lambda: 1, ctx)
    runner.exec_func_with_error_handling(lambda: 1, ctx)
    assert asked == [False, False, True, False]


def test_a_run_that_waited_too_long_goes_ahead_without_the_turn():
    t = turns.Turns(wait=0.05)
    assert t.take()
    got = []
    th = threading.Thread(target=lambda: got.append(t.take()))
    th.start()
    th.join(5)
    assert got == [False] and t.waiting == 0   # it went ahead and left the line
    t.give()
    assert t.take()                             # the turn is not lost by it
    t.give()


def test_a_pause_hands_the_turn_on_and_takes_it_back():
    turns.install()
    seen = []

    def playing_run():
        turns.pause(0.2)             # fairshare's wait inside a run that holds the turn
        seen.append("player resumed")
        return 1

    def other_run():
        seen.append("other ran")
        return 2

    def execute(func):
        out = runner.exec_func_with_error_handling(func, SimpleNamespace(cursors={}))
        assert out[1]                # ran without errors

    player = threading.Thread(target=execute, args=(playing_run,))
    player.start()
    time.sleep(0.05)
    other = threading.Thread(target=execute, args=(other_run,))
    other.start()
    other.join(5)
    player.join(5)
    assert seen == ["other ran", "player resumed"]


def test_executions_never_overlap_once_installed():
    assert turns.install() and turns.install()          # idempotent
    inside, overlaps = [0], []
    guard = threading.Lock()

    def script():
        with guard:
            inside[0] += 1
            overlaps.append(inside[0])
        time.sleep(0.02)              # a run that would share the core with the others
        with guard:
            inside[0] -= 1

    ctx = SimpleNamespace(cursors={})
    run = runner.exec_func_with_error_handling
    threads = [threading.Thread(target=run, args=(script, ctx)) for _ in range(6)]
    for th in threads:
        th.start()
    for th in threads:
        th.join(10)
    assert len(overlaps) == 6 and max(overlaps) == 1


def test_a_long_wait_in_line_marks_the_process_busy(monkeypatch):
    from engine import fairshare

    monkeypatch.setattr(turns, "LONG_WAIT", 0.1)
    t = turns.Turns(wait=10)
    monkeypatch.setattr(turns, "TURNS", t)
    assert t.take()
    short = threading.Thread(target=lambda: (t.take(), t.give()))
    short.start()
    time.sleep(0.02)
    t.give()                                   # the second run got it after 0.02 s: not long
    short.join(5)
    ledger = fairshare._Ledger()               # fresh: no CPU marks left by earlier tests' threads
    assert not t.waited_long(5) and not ledger.busy(time.monotonic())
    assert t.take()
    long = threading.Thread(target=lambda: (t.take(), t.give()))
    long.start()
    time.sleep(0.2)
    t.give()                                   # 0.2 s in line: past capacity
    long.join(5)
    assert t.waited_long(5) and not t.waited_long(0)
    assert ledger.busy(time.monotonic())       # the idle process says so, CPU or not


def test_a_student_whose_answer_waited_is_told_once_in_a_while():
    from streamlit.testing.v1 import AppTest

    def page():
        from engine import turns

        turns._told.clear()
        turns.tell_busy(0.3)      # a short wait: nothing said
        turns.tell_busy(2.04)     # told
        turns.tell_busy(3.0)      # not again so soon

    at = AppTest.from_function(page).run()
    assert not at.exception
    assert [t.value for t in at.toast] == [turns.busy_toast(2.04)]
    assert "waited 2.0 s" in at.toast[0].value


def test_a_toast_that_fails_costs_nothing_and_the_turn_comes_back(monkeypatch):
    turns.install()

    def broken(*args, **kwargs):
        raise RuntimeError("no toast today")

    monkeypatch.setattr(turns.st, "toast", broken)
    monkeypatch.setattr(turns.private, "session_id", lambda: "s1")
    monkeypatch.setattr(turns, "_told", {})
    assert turns.tell_busy(5.0) is False          # logged, not raised
    monkeypatch.setattr(turns, "tell_busy", broken)  # even if the note itself raised in the wrapper
    with pytest.raises(RuntimeError):
        runner.exec_func_with_error_handling(lambda: 1, SimpleNamespace(cursors={}))
    assert turns.TURNS.take()                     # the turn was given back
    turns.TURNS.give()

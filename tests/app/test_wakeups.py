"""engine.wakeups: a session's script-thread events reach the event loop in order, all of them, with one
wake-up per burst instead of one per event."""

from __future__ import annotations

import asyncio
import threading
import time

from streamlit.runtime.app_session import AppSession

from engine import wakeups


def test_a_batch_runs_everything_in_order_and_survives_a_failing_callback(caplog):
    b = wakeups._Batch()
    seen: list[int] = []
    assert b.add(lambda: seen.append(1)) is True      # nothing was waiting: wake the loop
    assert b.add(lambda: 1 / 0) is False               # the loop is already woken
    assert b.add(lambda: (seen.append(3), b.add(lambda: seen.append(4)))) is False
    b.drain()
    assert seen == [1, 3, 4]                           # what came while draining ran too, in order
    assert "failed" in caplog.text
    assert b.add(lambda: None) is True                 # empty again: the next one wakes the loop


class _Session:
    """What AppSession._call_soon_on_event_loop reads: the session's event loop."""

    def __init__(self, loop):
        self._event_loop = loop


def test_many_events_from_a_thread_wake_the_loop_a_few_times_and_all_arrive_in_order():
    assert wakeups.install() is True
    assert wakeups.install() is True                   # idempotent
    loop = asyncio.new_event_loop()
    wakes = []
    real = loop.call_soon_threadsafe

    def counted(cb, *args):
        wakes.append(cb)
        return real(cb, *args)

    loop.call_soon_threadsafe = counted
    t = threading.Thread(target=loop.run_forever, daemon=True)
    t.start()
    try:
        session, got, n = _Session(loop), [], 300
        real(time.sleep, 0.05)                          # the loop is busy a moment, as under load
        for i in range(n):
            AppSession._call_soon_on_event_loop(session, lambda i=i: got.append(i))
        deadline = time.time() + 5
        while len(got) < n and time.time() < deadline:
            time.sleep(0.01)
        assert got == list(range(n))
        assert len(wakes) < n / 10, len(wakes)          # Streamlit's own hand-over: one wake-up each
    finally:
        real(loop.stop)
        t.join(5)
        loop.close()

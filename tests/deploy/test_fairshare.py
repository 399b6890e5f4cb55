"""ui/fairshare.py: the process-wide ledger of playing sessions."""

from __future__ import annotations

import threading

import pytest

from ui import fairshare as fs


@pytest.fixture(autouse=True)
def empty_ledger(monkeypatch):
    monkeypatch.setattr(fs, "LEDGER", fs._Ledger())
    monkeypatch.setattr(fs._Ledger, "busy", lambda self, now: False)


def test_alone_a_player_gets_the_solo_share_and_fast_ticks():
    p = fs.plan("a", sleep=lambda s: None)
    assert p.players == 1 and p.others == 0
    assert p.share == fs.SOLO_SHARE
    assert fs.MIN_INTERVAL <= p.interval <= 0.125  # at least 8 redraws a second
    assert fs.MIN_BUDGET <= p.budget <= fs.MAX_BUDGET
    assert "Training on the server" in p.describe(1500.0) and "1,500 epochs" in p.describe(1500.0)


def test_more_players_each_get_less_and_the_total_stays_bounded():
    plans = [fs.plan(k, sleep=lambda s: None) for k in "abcde"]
    last = plans[-1]
    assert last.players == 5 and last.others == 4
    assert last.share * last.players == pytest.approx(fs.PLAY_SHARE)
    assert last.interval > plans[0].interval
    assert last.interval <= fs.MAX_INTERVAL  # slower, never frozen
    assert "with 4 others" in last.describe(2000.0)


def test_a_tick_waits_for_its_turn():
    waits = []
    fs.plan("a", sleep=waits.append)
    p = fs.plan("a", sleep=waits.append)  # at once again: must wait about one interval
    assert len(waits) == 1 and 0 < waits[0] <= p.interval


def test_measured_drawing_cost_slows_the_ticks():
    fs.plan("a", sleep=lambda s: None)
    for _ in range(30):
        fs.LEDGER.measured("a", cpu=0.1, budget=0.01)   # 90 ms of drawing per tick
    p = fs.plan("a", sleep=lambda s: None)
    assert p.interval == pytest.approx((0.09 + fs.MIN_BUDGET) / fs.SOLO_SHARE, rel=0.01)
    assert p.budget == pytest.approx(fs.MIN_BUDGET, rel=0.01)
    for _ in range(30):
        fs.LEDGER.measured("a", cpu=0.5, budget=0.01)   # drawing alone is over the share
    assert fs.plan("a", sleep=lambda s: None).interval == fs.MAX_INTERVAL  # slower, never frozen


def test_leave_and_stale_sessions_drop_out(monkeypatch):
    fs.plan("a", sleep=lambda s: None)
    fs.plan("b", sleep=lambda s: None)
    fs.leave("a")
    assert fs.players() == 1
    later = fs.time.monotonic() + fs.STALE + 1
    monkeypatch.setattr(fs.time, "monotonic", lambda: later)
    assert fs.players() == 0


def test_the_ledger_is_thread_safe():
    def tick(k):
        for _ in range(200):
            with fs.playing(f"s{k}", sleep=lambda s: None):
                pass

    threads = [threading.Thread(target=tick, args=(k,)) for k in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert fs.players() == 8

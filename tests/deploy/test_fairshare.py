"""engine/fairshare.py: the process-wide ledger of playing sessions."""

from __future__ import annotations

import threading

import pytest

from engine import fairshare as fs

MEASURE_OVERHEAD = fs._Ledger.measure_overhead


@pytest.fixture(autouse=True)
def empty_ledger(monkeypatch):
    monkeypatch.setattr(fs, "LEDGER", fs._Ledger())
    monkeypatch.setattr(fs._Ledger, "busy", lambda self, now, alone=False: False)
    # The overhead factor stays what a test sets (this test process's CPU is no server's).
    monkeypatch.setattr(fs._Ledger, "measure_overhead", lambda self, now, cpu=None: self.overhead)


@pytest.fixture(autouse=True)
def in_company(request):
    """The fair shares, as in a class: others are active (tests marked `alone` start from a quiet process)."""
    if "alone" not in request.keywords:
        fs.LEDGER.saw_company(float("inf"))


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
    cost = 0.09 * fs.OVERHEAD  # the event loop's sending on top of the script thread's drawing
    assert p.interval == pytest.approx((cost + fs.MIN_BUDGET) / fs.SOLO_SHARE, rel=0.01)
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


def test_the_overhead_is_the_process_cpu_per_second_of_ticks_measured_while_only_players_run():
    led = fs.LEDGER
    assert MEASURE_OVERHEAD(led, 0.0, cpu=10.0) == fs.OVERHEAD       # one mark: nothing measured yet
    led.tick_cpu += 0.8                                              # ticks' script threads: 0.8 s
    assert MEASURE_OVERHEAD(led, 2.0, cpu=11.0) == pytest.approx(1.25)  # the process: 1.0 s
    # A slider move ran meanwhile: windows that hold it measure nothing, the last factor stays.
    led.saw_others(2.5)
    led.tick_cpu += 0.4
    assert MEASURE_OVERHEAD(led, 3.0, cpu=12.0) == pytest.approx(1.25)
    led.tick_cpu += 0.8
    assert MEASURE_OVERHEAD(led, 6.0, cpu=13.2) == pytest.approx(1.2 / 0.8)  # window from 3.0: clean


def test_a_lone_player_costs_its_share_of_the_whole_process():
    fs.LEDGER.overhead = 1.4       # measured: the event loop adds 40 % to what scripts draw
    draw = 0.012                   # the script thread's drawing per tick
    for _ in range(40):
        p = fs.plan("a", sleep=lambda s: None)
        fs.LEDGER.measured("a", cpu=draw + p.budget, budget=p.budget)
    p = fs.plan("a", sleep=lambda s: None)
    process_cpu_per_s = 1.4 * (p.budget + draw) / p.interval
    assert process_cpu_per_s == pytest.approx(fs.SOLO_SHARE, rel=0.02)
    assert p.redraws_per_s >= 10


def test_a_tick_yields_to_a_slider_run_in_progress(monkeypatch):
    sleeps, clock = [], [100.0]
    monkeypatch.setattr(fs.time, "monotonic", lambda: clock[0])

    def sleep(s):
        sleeps.append(s)
        clock[0] += s

    fs.plan("a", sleep=sleep, running=lambda: {"a"})    # its own run is no one else's
    assert not sleeps
    clock[0] += 0.01
    p = fs.plan("a", sleep=sleep, running=lambda: {"a", "mover"})
    assert p.yielding and p.budget == fs.MIN_BUDGET and p.share <= fs.BUSY_PLAY_SHARE
    assert "pages are updating first" in p.describe(500.0)
    # It waited for its interval, then for the mover, but not past YIELD_INTERVAL since its last tick.
    assert 100.0 + fs.YIELD_INTERVAL - 1e-9 <= clock[0] <= 100.0 + fs.YIELD_INTERVAL + fs.YIELD_STEP
    # The mover's run ends: the next tick waits only for its interval.
    runs = iter([{"mover"}, {"mover"}, set()] + [set()] * 100)
    start = clock[0]
    fs.plan("a", sleep=sleep, running=lambda: next(runs))
    assert clock[0] - start <= fs.YIELD_INTERVAL
    # Another player running is not a reason to yield.
    fs.plan("b", sleep=sleep, running=lambda: set())
    q = fs.plan("a", sleep=sleep, running=lambda: {"a", "b"})
    assert not q.yielding


def test_a_tick_counts_its_run_from_the_start_of_its_script_thread(monkeypatch):
    costs = []
    monkeypatch.setattr(fs.LEDGER, "measured", lambda key, cpu, budget: costs.append(cpu))

    def run():  # a new script thread per run, as Streamlit's: its setup before start() counts too
        t0 = fs.time.thread_time()
        while fs.time.thread_time() - t0 < 0.02:
            pass
        fs.start("a", sleep=lambda s: None, running=set)
        fs.finish("a", running=set)
        fs.start("a", sleep=lambda s: None, running=set)  # a second tick on the same thread:
        fs.finish("a", running=set)                       # counted from the end of the first

    t = threading.Thread(target=run)
    t.start()
    t.join()
    assert costs[0] >= 0.02 and costs[1] < 0.01


def test_a_browser_that_asks_late_gets_the_budget_of_its_real_gap(monkeypatch):
    clock = [50.0]
    monkeypatch.setattr(fs.time, "monotonic", lambda: clock[0])
    fs.LEDGER.overhead = 1.25
    fs.plan("a", sleep=lambda s: None)
    for _ in range(30):
        fs.LEDGER.measured("a", cpu=0.02, budget=0.003)
    clock[0] += 0.1
    quick = fs.plan("a", sleep=lambda s: None)
    clock[0] += 0.35                                   # the page took 350 ms to draw and ask again
    late = fs.plan("a", sleep=lambda s: None)
    cap = max(fs.MAX_BUDGET, fs.LATE_FRACTION * 0.35)   # a tenth of the gap: its redraws lose <= 10 %
    assert late.budget > 3 * quick.budget and late.budget <= cap + 1e-9
    cost = 0.017 * 1.25
    assert late.budget == pytest.approx(min(cap, (fs.SOLO_SHARE * 0.35 - cost) / 1.25), rel=0.05)


# Work-conserving shares: a player alone gets what nobody else is using.

def _clock(monkeypatch, t0=1000.0):
    clock = [t0]
    monkeypatch.setattr(fs.time, "monotonic", lambda: clock[0])
    return clock


def _tick(key, clock, running=frozenset(), draw=0.02):
    """One playing tick at the ledger's pace: plan, train its budget, draw, measured."""
    def sleep(s):
        clock[0] += s
    p = fs.plan(key, sleep=sleep, running=lambda: set(running) | {key})
    fs.LEDGER.measured(key, cpu=draw + p.budget, budget=p.budget)
    clock[0] += 0.005
    return p


@pytest.mark.alone
def test_alone_the_budget_grows_to_the_free_capacity(monkeypatch):
    clock = _clock(monkeypatch)
    fs.LEDGER.overhead = 1.3
    plans = [_tick("teacher", clock) for _ in range(20)]
    p = plans[-1]
    assert p.alone and p.share == fs.FREE_SHARE and p.players == 1
    assert p.budget == pytest.approx(fs.FREE_BUDGET) and p.budget > fs.MAX_BUDGET
    assert p.redraws_per_s >= 8
    assert "Alone on the server" in p.describe(9000.0)
    # Far more training per second than the fair solo share gave (budget/interval, training only).
    fair = fs._Ledger()
    fair.saw_company(float("inf"))
    monkeypatch.setattr(fs, "LEDGER", fair)
    q = [_tick("teacher", clock) for _ in range(20)][-1]
    assert p.budget / p.interval > 5 * (q.budget / q.interval)


@pytest.mark.alone
def test_another_player_brings_the_fair_share_back_on_the_tick_that_sees_it(monkeypatch):
    clock = _clock(monkeypatch)
    for _ in range(10):
        assert _tick("teacher", clock).alone
    _tick("student", clock)                     # a second player's first tick
    p = _tick("teacher", clock)                 # the teacher's very next tick
    assert not p.alone and p.share <= fs.PLAY_SHARE / 2 and p.budget <= fs.MAX_BUDGET + 1e-9


@pytest.mark.alone
def test_a_slider_run_brings_the_fair_share_back_and_the_quiet_returns_it(monkeypatch):
    clock = _clock(monkeypatch)
    for _ in range(5):
        _tick("teacher", clock)
    p = _tick("teacher", clock, running={"mover"})   # a student moves a slider
    assert not p.alone and p.yielding and p.budget == fs.MIN_BUDGET
    q = _tick("teacher", clock)                      # the mover's run is over, but not QUIET ago
    assert not q.alone and q.share == fs.SOLO_SHARE
    clock[0] += fs.QUIET                             # nobody else for QUIET seconds: alone again
    assert _tick("teacher", clock).alone


@pytest.mark.alone
def test_a_stale_player_stops_counting(monkeypatch):
    clock = _clock(monkeypatch)
    _tick("gone", clock)                             # a tab that played, then closed
    p = _tick("teacher", clock)
    assert p.players == 2 and not p.alone
    clock[0] += fs.STALE + fs.QUIET + 0.1
    q = _tick("teacher", clock)
    assert q.players == 1 and q.alone


@pytest.mark.alone
def test_alone_the_process_own_cpu_is_not_busy(monkeypatch):
    monkeypatch.undo()   # the real busy(): a lone player's own CPU must not count as a busy process
    monkeypatch.setattr(fs, "LEDGER", fs._Ledger())
    led = fs.LEDGER
    led.cpu_marks = [(0.0, 0.0)]
    monkeypatch.setattr(fs.time, "process_time", lambda: 0.95)   # a whole core used in the last second
    assert led.busy(1.0) and not led.busy(1.0, alone=True)

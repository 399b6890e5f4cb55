"""One process's training time, shared fairly by the students playing /trainer.

A `streamlit run` process executes every session's script on one core's worth of Python (the GIL),
so a playing trainer competes with every student who moves a slider. This module is the process-wide
ledger (module level, thread-safe) of the sessions that are playing. Each playing tick asks it for a
`Plan`: how long to wait before working (the tick rate), and how many seconds to train (the budget).

- All players together may use PLAY_SHARE of a core (less when the process is busy), one player at
  most SOLO_SHARE: the rest always stays with the students moving sliders.
- A tick's cost is measured (CPU time of the script thread, drawing included), so the interval
  between a session's ticks is what its share buys: cost / share, never below MIN_INTERVAL and
  never above MAX_INTERVAL (slower, never frozen).
- The browser asks for the next tick only after the previous one finished, so waiting at the
  start of a tick (a sleep: no CPU, no GIL held) lowers that session's tick rate.

    @st.fragment(run_every=fairshare.TIMER if playing else None)
    def live():
        key = fairshare.session_key()
        if playing:
            plan = fairshare.start(key, speed)     # waits for this session's turn
            tr.advance(run, speed, budget=plan.budget)
        ...draw...
        if playing:
            fairshare.finish(key)                  # the tick's measured cost sets the next interval
            st.caption(plan.describe(epochs_per_s))

`fairshare.leave(key)` when the student pauses; a session that stops ticking (a closed tab) drops
out of the ledger by itself after STALE seconds. `with fairshare.playing(key, speed) as plan:` is
the same as start/finish around a block.
"""

from __future__ import annotations

import contextlib
import threading
import time
from dataclasses import dataclass

TIMER = 0.05         # the fragment's run_every: the browser's timer; the ledger's wait paces the ticks
PLAY_SHARE = 0.6      # share of one core all playing sessions of a process may use together
BUSY_PLAY_SHARE = 0.3  # ... when the process is busy (other students' runs are queueing)
SOLO_SHARE = 0.25     # at most this share of a core for one player, even alone
MIN_INTERVAL = 0.1    # seconds between a session's ticks: at most 10 redraws a second
MAX_INTERVAL = 1.0    # at least one redraw a second, however many play
MIN_BUDGET = 0.003    # seconds of training per tick, whatever the sharing
MAX_BUDGET = 0.03     # seconds of training per tick when alone (the page's BUDGET today)
STALE = 3.0           # seconds without a tick after which a session no longer counts as playing
BUSY_CORES = 0.85     # process CPU (cores) over the last BUSY_WINDOW seconds that counts as busy
BUSY_WINDOW = 2.0


@dataclass
class _Entry:
    seen: float            # monotonic time of this session's last tick start
    cost: float = 0.02     # measured CPU seconds of a tick besides training (drawing), smoothed
    last_start: float = 0.0
    cpu_start: float = 0.0  # thread CPU time when the current tick started working
    budget: float | None = None  # the current tick's training budget, None at a fixed speed


@dataclass(frozen=True)
class Plan:
    """What one playing session gets for its next tick."""

    players: int        # sessions playing in this process, this one included
    share: float        # share of a core this session may use
    interval: float     # seconds from one of its ticks to the next
    budget: float       # seconds of training in this tick at speed "max" (a cap at a fixed speed)
    busy: bool          # the process is busy: everyone gets less

    @property
    def others(self) -> int:
        return self.players - 1

    @property
    def redraws_per_s(self) -> float:
        return 1.0 / self.interval

    def describe(self, epochs_per_s: float | None = None) -> str:
        """One line for the student: who they share with and what they get."""
        rate = f"{epochs_per_s:,.0f} epochs a second, " if epochs_per_s else ""
        rate += f"up to {self.redraws_per_s:.0f} redraws a second"
        if self.others:
            who = f"Sharing the server with {self.others} other{'s' if self.others > 1 else ''} playing"
        else:
            who = "Training on the server"
        busy = " (the server is busy: everyone trains a little slower)" if self.busy else ""
        return f"{who}: {rate}{busy}."


class _Ledger:
    def __init__(self):
        self.lock = threading.Lock()
        self.entries: dict[str, _Entry] = {}
        self.cpu_marks: list[tuple[float, float]] = []   # (monotonic time, process CPU seconds)

    def _prune(self, now: float) -> None:
        for key in [k for k, e in self.entries.items() if now - e.seen > STALE]:
            del self.entries[key]

    def busy(self, now: float) -> bool:
        cpu = time.process_time()
        marks = [m for m in self.cpu_marks if now - m[0] <= BUSY_WINDOW] + [(now, cpu)]
        self.cpu_marks = marks
        span = marks[-1][0] - marks[0][0]
        return span >= 0.5 and (marks[-1][1] - marks[0][1]) / span > BUSY_CORES

    def plan(self, key: str, now: float) -> tuple[Plan, float]:
        """The session's plan and how long it should wait before working."""
        with self.lock:
            self._prune(now)
            entry = self.entries.get(key) or _Entry(seen=now)
            self.entries[key] = entry
            busy = self.busy(now)
            n = len(self.entries)
            total = BUSY_PLAY_SHARE if busy else PLAY_SHARE
            share = min(SOLO_SHARE, total / n)
            # The fastest tick rate that leaves at least MIN_BUDGET of training in each tick.
            interval = min(MAX_INTERVAL, max(MIN_INTERVAL, (entry.cost + MIN_BUDGET) / share))
            budget = min(MAX_BUDGET, max(MIN_BUDGET, share * interval - entry.cost))
            wait = 0.0
            if entry.last_start:
                wait = max(0.0, entry.last_start + interval - now)
            entry.seen = now + wait
            entry.last_start = now + wait
            return Plan(players=n, share=share, interval=interval, budget=budget, busy=busy), wait

    def measured(self, key: str, cpu: float, budget: float | None) -> None:
        """A tick took `cpu` seconds of CPU; at speed max up to `budget` of it was training.

        At a fixed speed the epochs are the student's choice, so their whole cost is the tick's:
        a heavy speed slows that student's ticks, never anyone else's.
        """
        with self.lock:
            entry = self.entries.get(key)
            if entry is not None:
                other = cpu - min(cpu, budget) if budget is not None else cpu
                entry.cost = 0.7 * entry.cost + 0.3 * other

    def leave(self, key: str) -> None:
        with self.lock:
            self.entries.pop(key, None)

    def players(self) -> int:
        with self.lock:
            self._prune(time.monotonic())
            return len(self.entries)


LEDGER = _Ledger()


def plan(key: str, *, sleep=time.sleep) -> Plan:
    """Register a playing tick of session `key`, wait for its turn, and return its plan."""
    p, wait = LEDGER.plan(key, time.monotonic())
    if wait > 0:
        sleep(wait)
    return p


def start(key: str, speed: int | None = None, *, sleep=time.sleep) -> Plan:
    """A playing tick begins: wait for this session's turn; its Plan says how long to train.

    `speed` is the page's epochs per redraw (None = max, which trains `plan.budget` seconds).
    """
    p = plan(key, sleep=sleep)
    with LEDGER.lock:
        entry = LEDGER.entries.get(key)
        if entry is not None:
            entry.cpu_start = time.thread_time()
            entry.budget = p.budget if speed is None else None
    return p


def finish(key: str) -> None:
    """The tick's drawing is done: its CPU time (this thread's) sets the session's next interval."""
    with LEDGER.lock:
        entry = LEDGER.entries.get(key)
        if entry is None or not entry.cpu_start:
            return
        cpu, budget = time.thread_time() - entry.cpu_start, entry.budget
        entry.cpu_start = 0.0
    LEDGER.measured(key, cpu, budget)


@contextlib.contextmanager
def playing(key: str, speed: int | None = None, *, sleep=time.sleep):
    """start() and finish() around a block: one playing tick."""
    p = start(key, speed, sleep=sleep)
    try:
        yield p
    finally:
        finish(key)


def leave(key: str) -> None:
    """The session stopped playing (Pause, a reset, a diverged run)."""
    LEDGER.leave(key)


def players() -> int:
    """Sessions playing in this process now."""
    return LEDGER.players()


def busy() -> bool:
    """The process used more than BUSY_CORES of a core over the last few seconds."""
    with LEDGER.lock:
        return LEDGER.busy(time.monotonic())


BUSY_NOTE = ("The server is busy: many students are working at once, so answers may take a few "
             "seconds. Nothing is lost; your page catches up.")


def busy_note() -> str | None:
    """A line for a page to show while the process is busy, else None."""
    return BUSY_NOTE if busy() else None


def session_key() -> str:
    """This browser session's id (one per tab), the ledger's key."""
    from streamlit.runtime.scriptrunner import get_script_run_ctx

    ctx = get_script_run_ctx()
    return ctx.session_id if ctx is not None else "no-session"

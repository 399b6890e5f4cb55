"""One process's training time, shared fairly by the students playing /trainer.

A `streamlit run` process executes every session's script on one core's worth of Python (the GIL),
so a playing trainer competes with every student who moves a slider. This module is the process-wide
ledger (module level, thread-safe) of the sessions that are playing. Each playing tick asks it for a
`Plan`: how long to wait before working (the tick rate), and how many seconds to train (the budget).

- Work-conserving, as Linux's CFS: a player alone (no other player and no other session's run seen
  for QUIET seconds) may use FREE_SHARE of a core and FREE_BUDGET of training per tick, the capacity
  nobody else wants. The tick that sees another player or another session's run brings the fair
  shares back at once: all players together PLAY_SHARE of a core (less when the process is busy),
  one player at most SOLO_SHARE, and the rest always stays with the students moving sliders.
- A tick's cost is its whole cost to the process: the CPU time of its run's script thread (from
  the run's start: the fragment's setup, training and drawing) times the process's overhead factor,
  the process CPU per second of playing ticks' script CPU, measured while only players run. The
  rest is what the event loop spends receiving the tick's request and compressing and sending what
  it drew, and the run's own end (about 30 % on top, measured). The interval between a session's
  ticks is what its share buys: cost / share, never below MIN_INTERVAL and never above
  MAX_INTERVAL (slower, never frozen); what is left in the share is the tick's training budget.
  A browser that asks for ticks more slowly than that (its drawing is the limit) gets the budget
  of its real gap between ticks, up to MAX_BUDGET or LATE_FRACTION of the gap: its share, spent on
  fewer, larger ticks, each delaying the next redraw by at most a tenth.
- A playing tick yields to the runs of students who are not playing (a slider move): while one is
  in progress the tick waits for it, up to YIELD_INTERVAL since its previous tick, trains only
  MIN_BUDGET, and the players share BUSY_PLAY_SHARE (three players: about 4.5 redraws a second each
  at a 20 ms tick, measured 4.3-5.1).
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

from engine import private, turns

TIMER = 0.05         # the fragment's run_every: the browser's timer; the ledger's wait paces the ticks
PLAY_SHARE = 0.6      # share of one core all playing sessions of a process may use together
BUSY_PLAY_SHARE = 0.3  # ... when the process is busy (other students' runs are queueing)
SOLO_SHARE = 0.25     # at most this share of a core for one player while others are active
FREE_SHARE = 0.85     # a player alone: the process's free capacity (the rest: the event loop, the OS)
FREE_BUDGET = 0.02    # seconds of training per tick alone: ~5,000 epochs/s, ~8 redraws/s with the twin
QUIET = 3.0           # seconds with no other player and no other session's run: a player is alone
MIN_INTERVAL = 0.09   # seconds between a session's ticks: at most 11 redraws a second (10 with jitter)
MAX_INTERVAL = 1.0    # at least one redraw a second, however many play
MIN_BUDGET = 0.003    # seconds of training per tick, whatever the sharing
MAX_BUDGET = 0.012    # seconds of training per tick at most while the page keeps up with the tick rate
LATE_FRACTION = 0.1   # ... and at most this fraction of the real gap when it does not (redraws lose <= 10 %)
STALE = 3.0           # seconds without a tick after which a session no longer counts as playing
BUSY_CORES = 0.85     # process CPU (cores) over the last BUSY_WINDOW seconds that counts as busy
BUSY_WINDOW = 2.0
OVERHEAD_WINDOW = 3.0  # seconds over which the process's overhead factor is measured
OVERHEAD = 1.3         # process CPU per second of a tick's script CPU until measured (1 player, measured)
MAX_OVERHEAD = 2.5
YIELD_INTERVAL = 0.22  # while others' runs are in progress a tick waits for them, up to this since its last
YIELD_STEP = 0.01      # seconds between two looks at whether they have finished


def running_sessions() -> set[str]:
    """Sessions with a script run in progress now (their script threads carry the run's context)."""
    return {sid for t in threading.enumerate() if (sid := private.thread_session(t)) is not None}


@dataclass
class _Entry:
    seen: float            # monotonic time of this session's last tick start
    cost: float = 0.02     # measured process CPU seconds of a tick besides training (drawing, sending)
    last_start: float = 0.0
    prev_start: float = 0.0   # when the previous tick really started working (after its waits)
    cpu_start: float | None = None  # the script thread's CPU time when the current tick's run began
    budget: float | None = None  # the current tick's training budget, None at a fixed speed


@dataclass(frozen=True)
class Plan:
    """What one playing session gets for its next tick."""

    players: int        # sessions playing in this process, this one included
    share: float        # share of a core this session may use
    interval: float     # seconds from one of its ticks to the next
    budget: float       # seconds of training in this tick at speed "max" (a cap at a fixed speed)
    busy: bool          # the process is busy: everyone gets less
    yielding: bool = False  # others' runs are in progress: this tick waits for them and trains less
    alone: bool = False     # no one else active: this player has the process's free capacity

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
        elif self.alone:
            who = "Alone on the server, at full speed"
        else:
            who = "Training on the server"
        busy = ""
        if self.yielding:
            busy = " (other students' pages are updating first: training a little slower)"
        elif self.busy:
            busy = " (the server is busy: everyone trains a little slower)"
        return f"{who}: {rate}{busy}."


class _Ledger:
    def __init__(self):
        self.lock = threading.Lock()
        self.entries: dict[str, _Entry] = {}
        self.cpu_marks: list[tuple[float, float]] = []   # (monotonic time, process CPU seconds)
        # (monotonic time, process CPU, playing ticks' script CPU so far): the overhead factor
        self.overhead_marks: list[tuple[float, float, float]] = []
        self.overhead = OVERHEAD
        self.tick_cpu = 0.0          # script CPU of every playing tick finished so far
        self.mixed_until = 0.0       # others ran: no overhead measured from a window before this
        self.company_at = float("-inf")  # monotonic time another player or another session's run was seen
        # Script thread ident -> (that thread, its CPU time when its last playing tick finished): a
        # thread that runs several ticks in a row counts each from the end of the one before.
        self.thread_marks: dict[int, tuple[threading.Thread, float]] = {}

    def measure_overhead(self, now: float, cpu: float | None = None) -> float:
        """Process CPU per second of playing ticks' script CPU over the last OVERHEAD_WINDOW seconds.

        Only windows in which no one but players ran count (`mixed_until`): a slider move's CPU is
        not a tick's. `cpu` is the process's CPU time (time.process_time(), every thread).
        """
        cpu = time.process_time() if cpu is None else cpu
        mark = (now, cpu, self.tick_cpu)
        marks = [m for m in self.overhead_marks if now - m[0] <= OVERHEAD_WINDOW] + [mark]
        self.overhead_marks = marks
        first = marks[0]
        process, ticks = mark[1] - first[1], mark[2] - first[2]
        if first[0] >= self.mixed_until and now - first[0] >= 1.0 and ticks > 0.05:
            self.overhead = min(MAX_OVERHEAD, max(1.0, process / ticks))
        return self.overhead

    def saw_others(self, now: float) -> None:
        """Runs of sessions that are not playing were in progress: this window measures no overhead."""
        self.mixed_until = now

    def saw_company(self, now: float) -> None:
        """Another player or another session's run was seen: fair shares for QUIET seconds."""
        self.company_at = max(self.company_at, now)

    def alone(self, now: float) -> bool:
        return now - self.company_at >= QUIET

    def _prune(self, now: float) -> None:
        for key in [k for k, e in self.entries.items() if now - e.seen > STALE]:
            del self.entries[key]

    def busy(self, now: float, alone: bool = False) -> bool:
        """The process is busy. A player alone is the process's CPU: only a queue for a turn counts."""
        cpu = time.process_time()
        marks = [m for m in self.cpu_marks if now - m[0] <= BUSY_WINDOW] + [(now, cpu)]
        self.cpu_marks = marks
        span = marks[-1][0] - marks[0][0]
        # The process's CPU, or the line for a turn: under a CPU cap (a container's quota, a shared
        # host) the process never reaches a whole core, but its runs still queue.
        return (not alone and span >= 0.5 and (marks[-1][1] - marks[0][1]) / span > BUSY_CORES) \
            or turns.TURNS.waited_long(BUSY_WINDOW)

    def plan(self, key: str, now: float, others_running: bool = False) -> tuple[Plan, float]:
        """The session's plan and how long it should wait before working.

        `others_running`: a session that is not playing has a run in progress (a slider move).
        """
        with self.lock:
            self._prune(now)
            joined = key not in self.entries
            entry = self.entries.setdefault(key, _Entry(seen=now))
            n = len(self.entries)
            if others_running or n > 1:
                self.saw_company(now)
            alone = self.alone(now)
            busy = self.busy(now, alone)
            if others_running or joined:  # a new player's Play click just ran its whole page: no tick's cost
                self.saw_others(now)
            k = self.measure_overhead(now)
            if alone and not busy:
                share, cap_floor = FREE_SHARE, FREE_BUDGET
            else:
                total = BUSY_PLAY_SHARE if busy or others_running else PLAY_SHARE
                share, cap_floor = min(SOLO_SHARE, total / n), MAX_BUDGET
            # The fastest tick rate that leaves at least MIN_BUDGET of training in each tick; a second
            # of training costs the process k seconds too (entry.cost is in process seconds already).
            interval = min(MAX_INTERVAL, max(MIN_INTERVAL, (entry.cost + k * MIN_BUDGET) / share))
            # A browser that asks later than that (busy drawing) leaves its share unused: the tick
            # trains what the real gap since its previous one buys, so speed max stays as fast as is fair.
            gap = interval
            if entry.prev_start:
                gap = min(MAX_INTERVAL, max(interval, now - entry.prev_start))
            cap = max(cap_floor, LATE_FRACTION * gap)
            budget = min(cap, max(MIN_BUDGET, (share * gap - entry.cost) / k))
            if others_running:
                budget = MIN_BUDGET
            wait = 0.0
            if entry.last_start:
                wait = max(0.0, entry.last_start + interval - now)
            entry.seen = now + wait
            entry.last_start = now + wait
            return Plan(players=n, share=share, interval=interval, budget=budget, busy=busy,
                        yielding=others_running, alone=alone and not busy), wait

    def others_running(self, running: set[str]) -> bool:
        """Some session in `running` is not playing: a student moving a slider waits for the GIL."""
        with self.lock:
            return bool(running - self.entries.keys())

    def yield_until(self, key: str, now: float) -> float:
        """How long the session's tick may still wait for others' runs (YIELD_INTERVAL since its last)."""
        with self.lock:
            entry = self.entries.get(key)
            if entry is None:
                return 0.0
            return max(0.0, entry.prev_start + YIELD_INTERVAL - now) if entry.prev_start else 0.0

    def started(self, key: str, now: float) -> None:
        """The tick really starts working now (after its waits)."""
        with self.lock:
            entry = self.entries.get(key)
            if entry is not None:
                entry.seen = entry.last_start = entry.prev_start = now

    def measured(self, key: str, cpu: float, budget: float | None) -> None:
        """A tick's run took `cpu` seconds of its thread's CPU; at speed max `budget` of it was training.

        The rest (drawing; the twin's catch-up) costs the process `overhead` times as much.

        At a fixed speed the epochs are the student's choice, so their whole cost is the tick's:
        a heavy speed slows that student's ticks, never anyone else's.
        """
        with self.lock:
            self.tick_cpu += cpu
            entry = self.entries.get(key)
            if entry is not None:
                other = cpu - min(cpu, budget) if budget is not None else cpu
                entry.cost = 0.7 * entry.cost + 0.3 * other * self.overhead

    def leave(self, key: str) -> None:
        with self.lock:
            self.entries.pop(key, None)

    def players(self) -> int:
        with self.lock:
            self._prune(time.monotonic())
            return len(self.entries)


LEDGER = _Ledger()


def plan(key: str, *, sleep=turns.pause, running=running_sessions) -> Plan:
    """Register a playing tick of session `key`, wait for its turn, and return its plan.

    While a session that is not playing has a run in progress (`running()`: the sessions running a
    script now), the tick trains MIN_BUDGET and waits for those runs to end, up to YIELD_INTERVAL
    after its previous tick: the students moving sliders go first, the players stay above
    1 / YIELD_INTERVAL redraws a second.
    """
    others = LEDGER.others_running(running() - {key})
    p, wait = LEDGER.plan(key, time.monotonic(), others)
    if wait > 0:
        sleep(wait)
    if others:
        while LEDGER.yield_until(key, time.monotonic()) > 0 and LEDGER.others_running(running() - {key}):
            sleep(YIELD_STEP)
    LEDGER.started(key, time.monotonic())
    return p


def start(key: str, speed: int | None = None, *, sleep=turns.pause, running=running_sessions) -> Plan:
    """A playing tick begins: wait for this session's turn; its Plan says how long to train.

    `speed` is the page's epochs per redraw (None = max, which trains `plan.budget` seconds).
    """
    p = plan(key, sleep=sleep, running=running)
    me = threading.current_thread()
    with LEDGER.lock:
        entry = LEDGER.entries.get(key)
        if entry is not None:
            # Streamlit runs a rerun on a new script thread, whose CPU clock starts at 0: the tick's
            # cost counts from the start of its run (the fragment's setup before start() too).
            mark = LEDGER.thread_marks.get(me.ident)
            entry.cpu_start = mark[1] if mark is not None and mark[0] is me else 0.0
            entry.budget = p.budget if speed is None else None
    return p


def finish(key: str, *, running=running_sessions) -> None:
    """The tick's drawing is done: its run's CPU time sets the session's next interval."""
    me, now = threading.current_thread(), time.thread_time()
    if LEDGER.others_running(running() - {key}):
        with LEDGER.lock:
            LEDGER.saw_others(time.monotonic())
            LEDGER.saw_company(time.monotonic())
    with LEDGER.lock:
        entry = LEDGER.entries.get(key)
        if entry is None or entry.cpu_start is None:
            return
        cpu, budget = max(0.0, now - entry.cpu_start), entry.budget
        entry.cpu_start = None
        marks = LEDGER.thread_marks
        for ident in [i for i, (t, _) in marks.items() if not t.is_alive()]:
            del marks[ident]
        marks[me.ident] = (me, now)
    LEDGER.measured(key, cpu, budget)


@contextlib.contextmanager
def playing(key: str, speed: int | None = None, *, sleep=turns.pause):
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
    return private.session_id() or "no-session"

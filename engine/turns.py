"""Runs take turns: one process runs its students' scripts one after another, in the order they came.

Why. Streamlit gives every session its own script thread. A process has one core's worth of Python
(the GIL), and CPython hands the GIL from one runnable thread to the next every 5 ms. When several
students move at once, their runs share the core in 5 ms slices: four runs of 50 ms that arrive
together all finish near 200 ms, and the event loop, which sends what the runs draw, waits behind
all of them for its slices too. Taken in turns, the first answer goes out at 50 ms, the second at 100,
and so on; the last is no later than before. The average and the tail of the wait both fall, and the
work done is the same.

`install()` puts every execution of a script or a fragment (Streamlit's `exec_func_with_error_handling`,
called once per run) behind a process-wide first-come, first-served turn. What does not
take a turn:
- a playing trainer's timed ticks (`is_auto_rerun`): engine/fairshare.py paces them, and they already
  wait for the runs of students who are not playing (a tick waiting for a turn would sleep, holding
  it, in fairshare's wait);
- a run while it waits on purpose (`pause`, which engine/fairshare.py sleeps with): its turn passes on;
- a run that has waited MAX_WAIT for its turn: it goes ahead, sharing the core as before (slower,
  never frozen: a run that never ends cannot stop the class).

One kind of run goes to the front of the line: a page that follows its teacher (`hurry()`, called by a
lesson student's watch when the teacher moved, just before it reruns the page). A Reveal starts about
15 such runs on each replica at once, and in a plain line they waited behind whatever came first: in
bench/classroom.py's hostile class, one client's flood of Joins from fresh sessions (a quarter of one
replica's script time, py-spy). Hurried runs keep their order among themselves; the line behind them
keeps its order; a hurried run is no longer than any other (one page run per student per move).

Idempotent; app.py installs it (LAYERLAB_TURNS=0 leaves Streamlit as it is). Measured in
docs/PROFILE.md (round 8).
"""

from __future__ import annotations

import collections
import functools
import logging
import threading
import time

import streamlit as st

from engine import private

MAX_WAIT = 2.0   # seconds a run waits for its turn at most; then it runs beside the one in progress
LONG_WAIT = 1.0  # a run that waited this long for its turn: the process is past capacity, say so
TELL_EVERY = 30.0  # seconds between two "the server is busy" toasts to one student
HURRIED_MAX = 10_000   # sessions marked by hurry() at most (a closed tab's mark is never taken)
_MARK = "_layer_lab_turns"
_LOG = logging.getLogger(__name__)


class Turns:
    """A first-come, first-served turn: `take()` waits for it (at most `wait` seconds) and says
    whether it got it; `give()` hands it to the longest waiting thread."""

    def __init__(self, wait: float = MAX_WAIT):
        self.wait = wait
        self._guard = threading.Lock()
        self._queue: collections.deque[threading.Event] = collections.deque()
        self._front: collections.deque[threading.Event] = collections.deque()   # hurried runs
        self._busy = False
        self.long_wait_at = float("-inf")   # monotonic time a run last waited LONG_WAIT or more

    def take(self, hurried: bool = False) -> bool:
        """Wait for the turn (at the front of the line when `hurried`); False: waited `wait` s, go on."""
        line = self._front if hurried else self._queue
        with self._guard:
            if not self._busy:
                self._busy = True
                return True
            mine = threading.Event()
            line.append(mine)
        t0 = time.monotonic()
        try:
            if mine.wait(self.wait):
                return True
            with self._guard:
                if mine.is_set():          # handed over just as the wait ran out: it is ours
                    return True
                line.remove(mine)
            return False
        finally:
            if time.monotonic() - t0 >= LONG_WAIT:
                self.long_wait_at = time.monotonic()

    def waited_long(self, window: float) -> bool:
        """A run waited LONG_WAIT or more for its turn in the last `window` seconds."""
        return time.monotonic() - self.long_wait_at <= window

    def give(self) -> None:
        with self._guard:
            line = self._front or self._queue
            if line:
                line.popleft().set()   # the turn passes straight to the next in line
            else:
                self._busy = False

    @property
    def waiting(self) -> int:
        with self._guard:
            return len(self._front) + len(self._queue)


TURNS = Turns()
_local = threading.local()
_hurried: set[str] = set()   # sessions whose next run goes to the front of the line
_hurried_lock = threading.Lock()


def hurry() -> None:
    """This session's next run (the rerun it is about to ask for) goes to the front of the line."""
    sid = private.session_id()
    if sid is not None:
        with _hurried_lock:
            if len(_hurried) >= HURRIED_MAX:   # marks of tabs closed before their run: never a leak
                _hurried.clear()
            _hurried.add(sid)


def _take_hurry() -> bool:
    """Was this session's run hurried (then no longer)?"""
    sid = private.session_id()
    with _hurried_lock:
        if sid in _hurried:
            _hurried.discard(sid)
            return True
    return False


def pause(seconds: float) -> None:
    """time.sleep for a run that waits on purpose (engine/fairshare.py pacing a playing trainer): its turn
    goes to the next in line meanwhile, and it takes a turn again after."""
    if not getattr(_local, "held", False):
        time.sleep(seconds)
        return
    _local.held = False
    TURNS.give()
    try:
        time.sleep(seconds)
    finally:
        _local.held = TURNS.take()


_told: dict[str, float] = {}   # session id -> when it was last told the server is busy
_told_lock = threading.Lock()   # script threads of many sessions ask at once


def busy_toast(waited: float) -> str:
    """What a student whose answer waited `waited` seconds in line is told."""
    # Short: Streamlit folds a toast after about three lines ("view more"). `waited` is at least LONG_WAIT,
    # so one fixed decimal is what ui.fmt.num would write: the server room keeps off the shared kit's floor.
    return f"The server is busy: your answer waited {waited:.1f} s in line. Nothing is lost."


def tell_busy(waited: float) -> bool:
    """A toast for the student whose run waited LONG_WAIT or more for its turn (at most once every
    TELL_EVERY seconds each): past capacity answers come later, and the page says why. A fragment's
    run shows it too (toasts are not part of the page's layout), so a class moving sliders inside
    sections hears it, not only whole-page reruns (app.py's line)."""
    if waited < LONG_WAIT:
        return False
    sid = private.session_id()
    if sid is None:
        return False
    now = time.monotonic()
    with _told_lock:
        if now - _told.get(sid, float("-inf")) < TELL_EVERY:
            return False
        for sid in [k for k, t in _told.items() if now - t > TELL_EVERY]:   # stays small: recent only
            del _told[sid]
        _told[sid] = now
    try:
        st.toast(busy_toast(waited), icon=":material/hourglass_top:")
    except Exception:  # a note about the wait must never cost the student the run itself
        _LOG.exception("could not show the busy toast")
        return False
    return True


def install() -> bool:
    """Make script runs take turns (once per process). Returns False if this Streamlit's runner has
    no hooks to wrap (runs then share the core as Streamlit does by default)."""
    if private.missing("turns"):
        return False
    _runner = private.get("script_runner")
    cls = _runner.ScriptRunner
    run, execute = cls._run_script, _runner.exec_func_with_error_handling
    if getattr(cls, _MARK, False):
        return True

    @functools.wraps(run)
    def _run_script(self, rerun_data, *args, **kwargs):
        _local.auto = bool(getattr(rerun_data, "is_auto_rerun", False))
        return run(self, rerun_data, *args, **kwargs)

    @functools.wraps(execute)
    def _execute(*args, **kwargs):
        # Once per execution of the script or a fragment: the reruns a run asks for (a newer move of
        # the same student, st.rerun) wait for their own turn, so no one keeps it by moving on.
        if getattr(_local, "auto", False):
            _local.auto = False        # a timed tick; if a move cuts it short, that move takes a turn
            return execute(*args, **kwargs)
        t0 = time.monotonic()
        _local.held = TURNS.take(_take_hurry())
        try:
            tell_busy(time.monotonic() - t0)
            return execute(*args, **kwargs)
        finally:
            if _local.held:
                _local.held = False
                TURNS.give()

    cls._run_script = _run_script
    _runner.exec_func_with_error_handling = _execute
    setattr(cls, _MARK, True)
    return True

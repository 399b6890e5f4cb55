"""One wake-up of the server's event loop per burst of a run's messages, not one per message.

Streamlit 1.67 hands every event of a session's script thread (each element it draws is one) to the
event loop with its own `call_soon_threadsafe`, which writes a byte to the loop's self-pipe and wakes
the loop; the loop then takes the GIL from the script thread to move that one message into the
session's outgoing queue, and `Runtime._enqueued_some_message` writes to the self-pipe once more from
the loop itself. A /trainer data move draws about 140 elements, so its run is cut about 140 times by
the loop: py-spy shows the script thread 15-18 % inside `_write_to_self` under load, and the loop as
busy as the script (docs/PROFILE.md).

`install()` keeps Streamlit's order and semantics and changes only the hand-over:
- a session's script-thread callbacks go into one list, and the loop is woken only when the list was
  empty; the loop then runs every callback waiting, in order (a callback that raises is logged, as
  asyncio would, and the rest still run);
- on the loop's own thread, "some message was enqueued" sets the flush event directly instead of
  scheduling itself through the self-pipe.
Measured with bench/classroom.py (docs/PROFILE.md, round 5): 20 students on /trainer, a move every 3 s,
91.2 -> 83.3 ms of CPU per move. Idempotent; app.py installs it.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import threading
import time

from engine import private

_MARK = "_layer_lab_wakeups"
_LOG = logging.getLogger(__name__)
# Counted always (two integer additions per event); with LAYERLAB_ENGINE_STATS=<file> the counts are
# also written there, at most once a second, so a test of a real server sees the patch act.
STATS = {"events": 0, "wakeups": 0}
_STATS_FILE = os.environ.get("LAYERLAB_ENGINE_STATS")
_written = [0.0]


def _write_stats() -> None:
    now = time.monotonic()
    if _STATS_FILE and now - _written[0] >= 1.0:
        _written[0] = now
        try:
            with open(_STATS_FILE, "w") as f:
                json.dump(STATS, f)
        except OSError:
            _LOG.exception("could not write %s", _STATS_FILE)


def install() -> bool:
    """Batch the script thread's hand-overs to the event loop (once per process). Returns whether the
    hooks were found (False on a Streamlit without them: then nothing changes)."""
    if private.missing("wakeups"):
        return False
    cls, rt = private.get("app_session").AppSession, private.get("runtime").Runtime
    if getattr(cls, _MARK, False):
        return True
    hand_over = cls._call_soon_on_event_loop
    enqueued = rt._enqueued_some_message

    def _call_soon_on_event_loop(self, callback) -> None:
        batch = self.__dict__.get(_MARK)
        if batch is None:
            batch = self.__dict__.setdefault(_MARK, _Batch())
        STATS["events"] += 1
        if batch.add(callback):
            STATS["wakeups"] += 1
            hand_over(self, batch.drain)  # Streamlit's own: drops it if the loop is closed
            _write_stats()

    def _enqueued_some_message(self) -> None:
        objs = self._get_async_objs()
        try:
            on_loop = asyncio.get_running_loop() is objs.eventloop
        except RuntimeError:
            on_loop = False
        if on_loop:
            objs.need_send_data.set()
        else:
            enqueued(self)

    cls._call_soon_on_event_loop = _call_soon_on_event_loop
    rt._enqueued_some_message = _enqueued_some_message
    setattr(cls, _MARK, True)
    return True


class _Batch:
    """The callbacks one session's script thread handed to the loop and the loop has not run yet."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._waiting: list = []

    def add(self, callback) -> bool:
        """Queue a callback; True if the loop must be woken (nothing was waiting)."""
        with self._lock:
            self._waiting.append(callback)
            return len(self._waiting) == 1

    def drain(self) -> None:
        """Run everything waiting, in order, including what arrives while it runs (on the loop)."""
        while True:
            with self._lock:
                if not self._waiting:
                    return
                todo, self._waiting = self._waiting, []
            for callback in todo:
                try:
                    callback()
                except Exception:  # asyncio logs a failed callback and goes on; so does this
                    _LOG.exception("A script-runner event failed on the event loop")

"""Run a session's fragment now, from the server: a change the class must see reaches every page that
waits for it without waiting for the page's own timer.

Why. A lesson's students follow the teacher through a fragment with `run_every` (classroom/lesson.py): the
browser asks for a run of it every interval, and the run compares the page with the lesson's state. A
Reveal reached a screen after the store's age (store.lessons.FRESH), then up to a whole interval, then the
page's run: 30 students on 2 replicas saw it after 0.84-1.28 s (bench/classroom.py --lesson), over the
second issue 44 asks for, and every idle tick of every student was a run the process paid for.

How. A fragment that waits for a topic calls `listen(topic, probe)` in each of its runs: this process
notes the session, the fragment and its page. One daemon thread per process (started on the first
`listen`, gone when nobody listens) calls each topic's `probe()` every WATCH_EVERY s; when what it returns
changes, every listening session is asked, on Streamlit's event loop, to run that fragment once, as the
browser's timer would (`AppSession.request_rerun` with the session's own last client state, its widget
states left out so no widget's value changes). The fragment then does what its timer run does. The
fragment's own `run_every` stays, slower, as the fallback: a Streamlit whose insides moved (`missing()`
names what) or a probe that fails leaves the page on its timer.

`probe` runs on the watcher's thread: it must be cheap and thread-safe (the lesson's is Store.lesson_now,
one read per class per FRESH s whoever asks). A probe that raises counts as unchanged.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Hashable

from engine import private

WATCH_EVERY = 0.1   # seconds between two looks at every topic's probe
FORGET = 60.0       # a session that has not listened for this long (its page moved on) is forgotten
_LOG = logging.getLogger(__name__)
NEEDS = ("ThreadState", "Runtime", "ClientState", "AppSession.request_rerun")


class _Topic:
    def __init__(self, probe: Callable[[], Hashable]):
        self.probe = probe
        self.seen: Hashable = None
        self.known = False                               # `seen` holds a probe's answer
        self.listeners: dict[str, tuple[str, str, float]] = {}   # session -> (fragment, page, when)


_lock = threading.Lock()
_topics: dict[str, _Topic] = {}
_thread: list[threading.Thread] = []
STATS = {"looks": 0, "changes": 0, "nudges": 0}   # counted for tests and bench/


def missing() -> list[str]:
    """The private names this needs that this Streamlit no longer has (empty: it works)."""
    return [n for n in NEEDS if not private.has(n)]


def listen(topic: str, probe: Callable[[], Hashable]) -> bool:
    """From inside a fragment's run: run this fragment again as soon as `probe()` changes. False (and
    nothing noted) outside a fragment's run, or on a Streamlit that moved what this needs."""
    if missing():
        return False
    session, page = private.session_id(), private.page_hash()
    if not session:
        return False
    try:
        fragment = private.get("ThreadState").get().fragment_id
    except RuntimeError:   # a thread with no script run
        return False
    if not fragment:
        return False
    now = time.monotonic()
    with _lock:
        for other in _topics.values():   # a session listens to one topic at a time: the last it named
            other.listeners.pop(session, None)
        t = _topics.get(topic)
        if t is None:
            t = _topics[topic] = _Topic(probe)
        t.probe = probe
        t.listeners[session] = (fragment, page, now)
        if not (_thread and _thread[0].is_alive()):
            _thread[:] = [threading.Thread(target=_watch, name="layerlab-nudge", daemon=True)]
            _thread[0].start()
    return True


def listening(topic: str) -> int:
    with _lock:
        t = _topics.get(topic)
        return len(t.listeners) if t else 0


def _watch() -> None:
    while True:
        time.sleep(WATCH_EVERY)
        with _lock:
            now = time.monotonic()
            for name, t in list(_topics.items()):
                for s in [s for s, (_, _, when) in t.listeners.items() if now - when > FORGET]:
                    del t.listeners[s]
                if not t.listeners:
                    del _topics[name]
            if not _topics:
                _thread.clear()
                return
            topics = list(_topics.values())
        for t in topics:
            try:
                got = t.probe()
            except Exception:   # the store away, say: the pages' own timers go on
                continue
            STATS["looks"] += 1
            changed = t.known and got != t.seen
            t.seen, t.known = got, True
            if changed:
                STATS["changes"] += 1
                with _lock:
                    listeners = dict(t.listeners)
                for session, (fragment, page, _) in listeners.items():
                    _nudge(session, fragment, page)


def _nudge(session_id: str, fragment: str, page: str) -> None:
    """Ask the session, on its event loop, to run `fragment` once, if it is still on `page`."""
    try:
        info = private.get("Runtime").instance()._session_mgr.get_active_session_info(session_id)
    except Exception:   # no runtime (a test's script) or the session manager moved
        return
    if info is None:
        return
    session = info.session
    try:
        session._event_loop.call_soon_threadsafe(_run, session, fragment, page)
        STATS["nudges"] += 1
    except (AttributeError, RuntimeError):   # this Streamlit keeps its loop elsewhere, or it closed
        return


def _run(session, fragment: str, page: str) -> None:
    """On the event loop: the fragment's run, as the browser's timer asks for it, with no widget value."""
    last = getattr(session, "_client_state", None)
    if last is None or last.page_script_hash != page:
        return   # the page moved since the fragment listened: its own run will listen again
    cs = private.get("ClientState")()
    cs.CopyFrom(last)
    cs.ClearField("widget_states")   # no widget's value changes: the run reads session state as it is
    cs.fragment_id = fragment
    cs.is_auto_rerun = False         # a turn like any student's run (engine/turns.py)
    try:
        session.request_rerun(cs)
    except Exception:
        _LOG.exception("could not nudge session %s", session.id)

"""Past capacity, slower, never frozen: a student's new move waits for the run in progress instead of
cutting it short, and a finished run's picture is delivered even when the next run starts before the
server found time to send it.

Streamlit (1.67) stops a session's run at its next `st.*` call when a new rerun request arrives (a
dragged slider sends one per step), with `runner.fastReruns` on or off. On a process past its capacity a
run takes longer than a student's gap between two moves, so every run is cut and nothing is answered
until the student stops (bench/classroom.py, 60 students on one process, a move every 2 s: 6 of about
1,650 moves answered while they moved). With `install()`, the request waits: the run finishes and sends
its picture, and Streamlit's own queue then starts one run with the newest widget values (a request
that arrives meanwhile merges into it, so a session has at most one run waiting). An answer takes at
most the rest of the run in progress plus one run. A stop request (a closed tab, a page change) still
stops the run at once, and so does a rerun the page asks for itself (`st.rerun()`, `st.switch_page`).

The second half: when a run starts, Streamlit empties the session's outgoing queue of what the last run
left unsent (the new run will send its own). On a busy process the event loop that sends the queue
falls behind the script thread, so a finished run's messages were still waiting when the next run
started, and were dropped: the student saw nothing change, run after run. Now the messages up to the
last finished run's `script_finished` stay and go out first (what an idle server would have sent
between the two runs); only what came after it is cleared as before.
"""

from __future__ import annotations

from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
from streamlit.runtime import app_session as _session
from streamlit.runtime.scriptrunner_utils import script_requests as _requests
from streamlit.runtime.scriptrunner_utils.script_run_context import get_script_run_ctx

_MARK = "_layer_lab_runs_finish"


def install() -> bool:
    """Let runs finish before a rerun request starts the next one (once per process; idempotent).

    Returns whether the queue is in place (False if this Streamlit has no such hook: then reruns cut
    runs short, as Streamlit does by default).
    """
    cls = getattr(_requests, "ScriptRequests", None)
    rerun = getattr(getattr(_requests, "ScriptRequestType", None), "RERUN", None)
    if cls is None or rerun is None or not hasattr(cls, "on_scriptrunner_yield"):
        return False
    if getattr(cls, _MARK, False):
        return True
    yield_ = cls.on_scriptrunner_yield
    request = cls.request_rerun
    ready = cls.on_scriptrunner_ready

    def request_rerun(self, new_data):
        # A request made by the script itself (st.rerun, st.switch_page: they run where a script run
        # context exists) must still take effect at once; a browser's (the event loop's) waits.
        if get_script_run_ctx(suppress_warning=True) is not None:
            self._layer_lab_urgent = True
        return request(self, new_data)

    def on_scriptrunner_yield(self):
        if getattr(self, "_state", None) == rerun and not getattr(self, "_layer_lab_urgent", False):
            return None   # finish this run first; on_scriptrunner_ready hands over the merged request
        self._layer_lab_urgent = False
        return yield_(self)

    def on_scriptrunner_ready(self):
        self._layer_lab_urgent = False
        return ready(self)

    cls.request_rerun = request_rerun
    cls.on_scriptrunner_yield = on_scriptrunner_yield
    cls.on_scriptrunner_ready = on_scriptrunner_ready
    _keep_finished_runs()
    setattr(cls, _MARK, True)
    return True


_DONE = {ForwardMsg.FINISHED_SUCCESSFULLY, ForwardMsg.FINISHED_FRAGMENT_RUN_SUCCESSFULLY}


def _keep_finished_runs() -> None:
    """AppSession._clear_queue keeps every message up to the last finished run's end (see above)."""
    cls = getattr(_session, "AppSession", None)
    if cls is None or not hasattr(cls, "_clear_queue") or getattr(cls, _MARK, False):
        return
    original = cls._clear_queue

    def _clear_queue(self, fragment_ids_this_run=None):
        queue = getattr(self, "_browser_queue", None)
        msgs = getattr(queue, "_queue", None)
        if not msgs:
            return original(self, fragment_ids_this_run)
        last = max((i for i, m in enumerate(msgs)
                    if m.WhichOneof("type") == "script_finished" and m.script_finished in _DONE), default=-1)
        if last < 0:
            return original(self, fragment_ids_this_run)
        keep, queue._queue = msgs[:last + 1], msgs[last + 1:]
        original(self, fragment_ids_this_run)
        queue._queue = keep + queue._queue
        queue._delta_index_map = {}   # the next run's deltas must not merge into the kept ones
        return None

    cls._clear_queue = _clear_queue
    setattr(cls, _MARK, True)


def installed() -> bool:
    cls = getattr(_requests, "ScriptRequests", None)
    return bool(cls is not None and getattr(cls, _MARK, False))

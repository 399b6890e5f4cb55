"""Past capacity, slower, never frozen: a student's new move waits for the run in progress instead of
cutting it short, and a finished run's picture is delivered even when the next run starts before the
server found time to send it. app.py installs it when LAYERLAB_FINISH_RUNS=1 is set.

Streamlit (1.67) stops a session's run at its next `st.*` call when a new rerun request arrives (a
dragged slider sends one per step), with `runner.fastReruns` on or off. On a process past its capacity a
run takes longer than a student's gap between two moves, so every run is cut and nothing is answered
until the student stops (bench/classroom.py, 60 students on one process, a move every 2 s: 6 of about
1,650 moves answered while they moved). With `install()`, the request waits: the run finishes and sends
its picture, and Streamlit's own queue then starts one run with the newest widget values (a request
that arrives meanwhile merges into it, so a session has at most one run waiting). An answer takes at
most the rest of the run in progress plus one run. A stop request (a closed tab, a page change) still
stops the run at once, and so does a rerun the page asks for itself (`st.rerun()`, `st.switch_page`,
`st.rerun` in a widget callback).

The second half: when a run starts, Streamlit empties the session's outgoing queue of what the last run
left unsent (the new run will send its own). On a busy process the event loop that sends the queue
falls behind the script thread, so a finished run's messages were still waiting when the next run
started, and were dropped: the student saw nothing change, run after run. Now the messages up to the
last finished run's `script_finished` stay and go out first (what an idle server would have sent
between the two runs); only what came after it is cleared as before.

The third, which both halves need: the browser's cache of large messages (see _keep_browser_cache).
Without it a tab died now and then while playing /trainer: a finished run's end reached the browser
after its next request had listed its cache, the browser dropped an entry, the next run referred to
it ("Cached ForwardMsg MISS", fatal: the tab stays disconnected and its buttons disabled; the trainer's
browser tests saw the Pause button held 30 s: 2 runs in 6 of their Play sequence on a loaded machine,
no error in 6 runs since, load average 9-10).
"""

from __future__ import annotations

from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
from streamlit.runtime import app_session as _session
from streamlit.runtime.scriptrunner import script_runner as _runner
from streamlit.runtime.scriptrunner_utils import script_requests as _requests
from streamlit.runtime.scriptrunner_utils import script_run_context as _context
from streamlit.runtime.scriptrunner_utils.script_run_context import get_script_run_ctx

_MARK = "_layer_lab_runs_finish"


def install() -> bool:
    """Let runs finish before a rerun request starts the next one (once per process; idempotent).

    Returns whether the queue is in place (False if this Streamlit has no such hook: then reruns cut
    runs short, as Streamlit does by default).
    """
    cls = getattr(_requests, "ScriptRequests", None)
    rerun = getattr(getattr(_requests, "ScriptRequestType", None), "RERUN", None)
    runner = getattr(_runner, "ScriptRunner", None)
    ctx_cls = getattr(_context, "ScriptRunContext", None)
    if (cls is None or rerun is None or not hasattr(cls, "on_scriptrunner_yield")
            or not hasattr(runner, "_on_script_finished") or not hasattr(ctx_cls, "enqueue")
            or not hasattr(ctx_cls, "reset")):
        return False
    if getattr(cls, _MARK, False):
        return True
    yield_ = cls.on_scriptrunner_yield
    request = cls.request_rerun
    batch = getattr(cls, "request_rerun_batch", None)
    ready = cls.on_scriptrunner_ready

    def request_rerun(self, new_data):
        # A request made by the script itself (st.rerun, st.switch_page: they run where a script run
        # context exists) must still take effect at once; a browser's (the event loop's) waits.
        if get_script_run_ctx(suppress_warning=True) is not None:
            self._layer_lab_urgent = True
        return request(self, new_data)

    def request_rerun_batch(self, rerun_batch):
        # The reruns widget callbacks asked for (st.rerun in a callback): the script's own, urgent too.
        if get_script_run_ctx(suppress_warning=True) is not None:
            self._layer_lab_urgent = True
        return batch(self, rerun_batch)

    def on_scriptrunner_yield(self):
        if getattr(self, "_state", None) == rerun and not getattr(self, "_layer_lab_urgent", False):
            return None   # finish this run first; on_scriptrunner_ready hands over the merged request
        self._layer_lab_urgent = False
        return yield_(self)

    def on_scriptrunner_ready(self):
        self._layer_lab_urgent = False
        return ready(self)

    cls.request_rerun = request_rerun
    if batch is not None:
        cls.request_rerun_batch = request_rerun_batch
    cls.on_scriptrunner_yield = on_scriptrunner_yield
    cls.on_scriptrunner_ready = on_scriptrunner_ready
    _keep_browser_cache(runner, ctx_cls)
    _keep_finished_runs()
    setattr(cls, _MARK, True)
    return True


# --- the browser's message cache ------------------------------------------------------------------
# The browser keeps large messages (a plotly figure) in a cache and lists what it holds with every
# rerun request; the run then sends a short reference instead of a message the browser holds. At
# every run it sees finish (not one cut short) it drops what went unused for
# `global.maxCachedMessageAge` (2) runs, counting only the fragment that ran for a fragment's run.
# Streamlit cuts the run in progress when a move arrives, so in between the browser counts nothing.
# Here the run in progress finishes, and its finish can reach the browser after the request's list
# was made: the browser drops an entry its list still named, the next run refers to it, and the page
# dies ("Cached ForwardMsg MISS", a fatal error: the tab stays disconnected and its buttons disabled;
# seen as the trainer's Pause button held over 30 s). So the run that follows a finished one refers
# only to what that finished run sent itself (the browser holds it, one run old at most), and to
# entries of fragments that run did not touch (a fragment's run ages only its own).
_USED = "_layer_lab_used"        # on the ScriptRequests of a runner: hashes its current run sent
_FRAG = "_layer_lab_fragment"    # ... and hash -> fragment id ("" outside fragments), its last 4,000
_AGED = "_layer_lab_aged"        # ... (fragment ids or None for the whole app, hashes) of the run
                                 #     that just finished


def _keep_browser_cache(runner, ctx_cls) -> None:
    enqueue, reset, finished = ctx_cls.enqueue, ctx_cls.reset, runner._on_script_finished
    success = {_runner.ScriptRunnerEvent.SCRIPT_STOPPED_WITH_SUCCESS,
               _runner.ScriptRunnerEvent.FRAGMENT_STOPPED_WITH_SUCCESS}

    def enqueue_(self, msg):
        enqueue(self, msg)   # fills msg.hash and msg.metadata.cacheable, then sends it or its reference
        requests = self.script_requests
        if requests is not None and msg.metadata.cacheable and msg.hash:
            getattr(requests, _USED, set()).add(msg.hash)
            fragments = requests.__dict__.setdefault(_FRAG, {})
            if len(fragments) > 4000:
                fragments.clear()
            fragments[msg.hash] = msg.delta.fragment_id if msg.HasField("delta") else ""

    def reset_(self, *args, **kwargs):
        reset(self, *args, **kwargs)
        requests = self.script_requests
        if requests is None:
            return
        aged = requests.__dict__.pop(_AGED, None)
        if aged is not None:
            self.cached_message_hashes = still_cached(self.cached_message_hashes, *aged,
                                                      getattr(requests, _FRAG, {}))
        setattr(requests, _USED, set())

    def _on_script_finished(self, ctx, event, premature_stop, run_descriptor):
        requests = getattr(ctx, "script_requests", None)
        if requests is not None:
            if event in success:
                fragments = ctx.fragment_ids_this_run
                setattr(requests, _AGED, (tuple(fragments) if fragments else None,
                                          frozenset(getattr(requests, _USED, ()))))
            else:
                requests.__dict__.pop(_AGED, None)   # a cut run: the browser counts nothing
        return finished(self, ctx, event, premature_stop, run_descriptor)

    ctx_cls.enqueue, ctx_cls.reset, runner._on_script_finished = enqueue_, reset_, _on_script_finished


def still_cached(listed, fragments, sent, fragment_of) -> frozenset:
    """What the browser surely still holds of `listed` (the hashes its request named) once it has seen
    a run of `fragments` (None: the whole app) finish, that run having sent or referred to `sent`.

    The browser drops, at that finish, entries of those fragments (all entries, for a whole-app run)
    unused for two runs; entries the run sent are fresh, and a fragment's run leaves other fragments'
    entries and those outside every fragment alone. An entry of unknown fragment counts as aged.
    """
    if fragments is None:
        return frozenset(h for h in listed if h in sent)
    aged = set(fragments)
    return frozenset(h for h in listed
                     if h in sent or (h in fragment_of and fragment_of[h] not in aged))


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

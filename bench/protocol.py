"""One simulated student over Streamlit's own websocket protocol, as the browser speaks it.

The browser (Streamlit 1.67's frontend, checked against frames recorded with Playwright) does this:

- loads the page over HTTP (a balancer sets its stickiness cookie here), then opens
  ws://HOST/_stcore/stream with the subprotocol list ``streamlit, <xsrf>, <session id>``;
- sends ``BackMsg.rerun_script`` (a ``ClientState``): the first one names the page by
  ``page_name`` (the URL path), later ones by the ``page_script_hash`` the server announced
  (``new_session``, and with ``st.navigation`` the ``navigation`` message of each full run);
  each carries the page's ``query_string`` (the browser writes a bound widget's value into it; the
  server's ``page_info_changed`` too), the widget states (id from the element's proto, e.g. ``slider.id``),
  and ``cached_message_hashes``: the hashes of the cacheable messages it still holds, so the
  server sends an unchanged element as a ``ref_hash`` instead of again;
- expires a cached message once it went unused for ``config.max_cached_message_age`` runs;
- follows ``auto_rerun`` (a fragment's ``run_every``): on each tick of that interval, when no run of
  its own is in flight, it sends ``rerun_script`` with ``fragment_id`` and ``is_auto_rerun``.
  A full run's ``new_session`` cancels the timers; the run then announces them again.

Only 127.0.0.1 is ever contacted: `Student` refuses any other host.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import time
import urllib.request
from dataclasses import dataclass, field
from urllib.parse import parse_qsl, urlencode, urlsplit

from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
from streamlit.proto.WidgetStates_pb2 import WidgetState
from websockets.asyncio.client import connect

from ui import inplace  # what a chart given no figure ("the same as before") looks like

FINISHED, EARLY, FRAGMENT_DONE = 0, 2, 3   # ForwardMsg.ScriptFinishedStatus values used here
LOCAL_HOSTS = {"127.0.0.1", "localhost"}


@dataclass
class Widget:
    """A widget as the server described it in a delta."""

    id: str
    kind: str          # the element's oneof name: slider, button, selectbox, ...
    proto: object      # the element's message (Slider, Button, ...)
    fragment: str = "" # the fragment it was drawn in: moving it reruns that fragment alone

    @property
    def key(self) -> str:
        key = self.id.rsplit("-", 1)[-1] if self.id.startswith("$$ID-") else ""
        return "" if key == "None" else key   # an unkeyed widget: known by its id (its key was every one's)


@dataclass
class RunLog:
    """What one script run (full or fragment) sent."""

    started: float
    fragment: bool
    auto: bool = False     # a fragment's timer asked for it (run_every)
    fragments: tuple = ()  # the fragments it ran
    elements: int = 0      # new elements sent in full
    refs: int = 0          # elements sent as a cache reference (unchanged)
    plots: int = 0         # charts sent in full (redrawn by the browser)
    bytes: int = 0
    view: dict = field(default_factory=dict)   # delta path -> digest of the element shown there


@dataclass
class Stats:
    moves_sent: int = 0
    latencies: list[float] = field(default_factory=list)   # seconds from a move to its answer
    runs_done: int = 0
    runs_cut: int = 0           # full runs ended early by a newer request (fastReruns)
    ticks_sent: int = 0
    ticks_done: int = 0
    redraws: int = 0            # fragment runs that sent a new plotly chart
    bytes_in: int = 0
    sent_whole: list[int] = field(default_factory=list)    # elements sent in full per full run
    changed: list[int] = field(default_factory=list)       # elements that differ from the run before
    busy_notes: int = 0         # runs whose output said the server is busy
    reopened: int = 0           # times this tab opened its link again (its replica died)
    reopen_s: list[float] = field(default_factory=list)   # seconds from noticing to open again
    paused_at: float | None = None   # when the page first showed the class's pause banner (perf_counter)
    submits_sent: int = 0       # class challenge: trainings pressed before a Submit
    submits_answered: int = 0   # Submits whose run finished
    submit_latencies: list[float] = field(default_factory=list)   # seconds from Submit to its answer
    exceptions: list[str] = field(default_factory=list)   # errors the page drew (uncaught, or st.exception)


def _check_local(url: str) -> None:
    host = urlsplit(url).hostname
    if host not in LOCAL_HOSTS:
        raise ValueError(f"the load client only talks to 127.0.0.1, not {host!r}")


class _From(urllib.request.HTTPHandler):
    """HTTP from another loopback address (a second client on this machine: 127.0.0.2)."""

    def __init__(self, source: str):
        super().__init__()
        self.source = source

    def http_open(self, req):
        import http.client

        return self.do_open(lambda host, **kw: http.client.HTTPConnection(
            host, source_address=(self.source, 0), **kw), req)


class Student:
    """One browser tab: opens a page, moves a slider, presses Play, follows the fragment timer."""

    def __init__(self, base: str, page: str, *, query: str = "", rng: random.Random | None = None,
                 cookies: dict[str, str] | None = None):
        _check_local(base)
        self.base = base.rstrip("/")
        self.page = page.strip("/")
        self.query = query
        self.rng = rng or random.Random(0)
        self.cookies: dict[str, str] = dict(cookies or {})
        self.stats = Stats()
        self.widgets: dict[str, Widget] = {}          # by key (or id when unkeyed)
        self.states: dict[str, WidgetState] = {}      # what this tab sends, by widget id
        self.cache: dict[str, tuple[ForwardMsg, int]] = {}   # hash -> (message, run count at last use)
        self.max_age = 2
        self.run_count = 0
        self.page_hash = ""
        self.session_id = ""
        self.timers: dict[str, float] = {}            # fragment id -> interval (s)
        self.runs: dict[str, RunLog] = {}             # script_run_id -> log
        self.current: RunLog | None = None
        self.inflight = False                          # a request of ours not yet finished
        self._auto_sent = False                        # the last request was a timer tick
        self._auto_fragment = ""                       # ... and the fragment it asked for
        self.pending: list[float] = []                # when each unanswered move was sent
        self.view: dict = {}                           # the last full run's elements by delta path
        self.texts: list[str] = []                     # markdown/caption text of the last full run
        self.ws = None
        self._sends: set[asyncio.Future] = set()
        self._reader: asyncio.Task | None = None
        self._ticker: asyncio.Task | None = None
        self.finished = asyncio.Event()                # set at each finished run
        self.closed = False
        self.replica = ""                              # X-Layer-Lab-Replica of the page load, if any
        self.source = ""                               # another loopback address to come from (127.0.0.2)

    # --- connection ------------------------------------------------------------------------------
    def _load_page(self) -> None:
        """GET the page as the browser does first; keep cookies the server (or balancer) sets."""
        url = f"{self.base}/{self.page}" + (f"?{self.query}" if self.query else "")
        req = urllib.request.Request(url, headers=self._cookie_header())
        opener = urllib.request.build_opener(_From(self.source)).open if self.source else None
        opener = opener or urllib.request.urlopen
        with opener(req, timeout=30) as resp:
            resp.read()
            self.replica = resp.headers.get("X-Layer-Lab-Replica", "")
            for raw in resp.headers.get_all("Set-Cookie") or []:
                name, _, rest = raw.partition("=")
                self.cookies[name.strip()] = rest.split(";", 1)[0]

    def _cookie_header(self) -> dict[str, str]:
        return {"Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items())} if self.cookies else {}

    async def open(self, timeout: float = 60.0, load_page: bool = True, resume: bool = False) -> None:
        """Load the page, connect, ask for the first run and wait until it finished."""
        if load_page:
            await asyncio.to_thread(self._load_page)
        ws_url = "ws" + self.base[4:] + "/_stcore/stream"
        protocols = ["streamlit", "PLACEHOLDER_AUTH_TOKEN"] + ([self.session_id] if resume else [])
        # As the browser: the subprotocol list carries the XSRF token and the session to resume;
        # the server selects the first entry.
        self.ws = await connect(ws_url, subprotocols=protocols, max_size=None, compression=None,
                                additional_headers={"Origin": self.base, **self._cookie_header()},
                                open_timeout=timeout, ping_interval=None,
                                **({"local_addr": (self.source, 0)} if self.source else {}))
        self.closed = False
        self._reader = asyncio.create_task(self._read())
        self._ticker = asyncio.create_task(self._tick())
        self.finished.clear()
        self._send_rerun(first=True)
        await asyncio.wait_for(self.finished.wait(), timeout)

    async def close(self) -> None:
        self.closed = True
        for task in (self._ticker, self._reader):
            if task:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task
        if self.ws is not None:
            with contextlib.suppress(Exception):
                await self.ws.close()

    # --- sending -----------------------------------------------------------------------------------
    def _send_rerun(self, *, first: bool = False, fragment: str = "", auto: bool = False,
                    trigger: WidgetState | None = None):
        msg = BackMsg()
        cs = msg.rerun_script
        cs.query_string = self.query
        if first and not self.page_hash:
            cs.page_name = self.page
        else:
            cs.page_script_hash = self.page_hash
        for st in self.states.values():
            cs.widget_states.widgets.append(st)
        if trigger is not None:
            cs.widget_states.widgets.append(trigger)
        if fragment:
            cs.fragment_id = fragment
            cs.is_auto_rerun = auto
        cs.cached_message_hashes.extend(self.cache)
        cs.context_info.timezone = "UTC"
        cs.context_info.timezone_offset = 0
        cs.context_info.locale = "en-US"
        cs.context_info.url = f"{self.base}/{self.page}"
        cs.context_info.is_embedded = False
        cs.context_info.color_scheme = "light"
        self.inflight = True
        self._auto_sent = auto
        self._auto_fragment = fragment if auto else ""
        task = asyncio.ensure_future(self.ws.send(msg.SerializeToString()))
        self._sends.add(task)
        task.add_done_callback(self._sends.discard)

    def slider(self, key: str | None = None) -> Widget:
        """The page's slider with this key (the first slider when None)."""
        sliders = [w for w in self.widgets.values() if w.kind == "slider"]
        for w in sliders:
            if key is None or w.key == key or w.proto.label == key:
                return w
        raise KeyError(f"no slider {key!r} on /{self.page}; found {[w.key for w in sliders]}")

    def move(self, key: str | None = None) -> str:
        """Move a slider to another allowed value, as a drag would; returns the value's URL text."""
        w = self.slider(key)
        s = w.proto
        old = self.states.get(w.id)
        state = WidgetState(id=w.id)
        if s.options:  # select_slider: the value travels as its option's text
            current = old.string_array_value.data[0] if old else s.options[int(s.default[0])]
            choices = [o for o in s.options if o != current]
            text = self.rng.choice(choices)
            state.string_array_value.data.append(text)
        else:
            current = old.double_array_value.data[0] if old else s.default[0]
            steps = round((s.max - s.min) / s.step)
            values = [s.min + i * s.step for i in range(steps + 1)]
            values = [v for v in values if abs(v - current) > s.step / 2] or values
            v = round(self.rng.choice(values), 10)
            state.double_array_value.data.append(v)
            text = f"{int(v)}" if s.data_type == 1 or float(v).is_integer() else f"{v:g}"
        self.states[w.id] = state
        if s.query_param_key:  # the browser writes a bound widget's value into the URL itself
            self._set_param(s.query_param_key, None if state == self._default_state(w) else text)
        self.stats.moves_sent += 1
        self.pending.append(time.perf_counter())
        self._send_rerun(fragment=w.fragment)
        return text

    @staticmethod
    def _default_state(w: Widget) -> WidgetState:
        state = WidgetState(id=w.id)
        if w.proto.options:
            state.string_array_value.data.append(w.proto.options[int(w.proto.default[0])])
        else:
            state.double_array_value.data.extend(w.proto.default)
        return state

    def _set_param(self, key: str, text: str | None) -> None:
        pairs = [(k, v) for k, v in parse_qsl(self.query, keep_blank_values=True) if k != key]
        if text is not None:
            pairs.append((key, text))
        self.query = urlencode(pairs)

    def click(self, key: str) -> None:
        """Press a button (a trigger value sent once, like the browser's)."""
        w = self.widgets[key]
        self._send_rerun(trigger=WidgetState(id=w.id, trigger_value=True))

    # --- receiving ----------------------------------------------------------------------------------
    async def _read(self) -> None:
        try:
            async for data in self.ws:
                self._handle(data)
        except Exception:  # a closed socket ends the reader; open() connects again
            pass
        finally:
            self.closed = True
            self.finished.set()

    def _handle(self, data: bytes) -> None:
        self.stats.bytes_in += len(data)
        msg = ForwardMsg()
        msg.ParseFromString(data)
        kind = msg.WhichOneof("type")
        run_id = msg.metadata.run.script_run_id
        log = self.runs.get(run_id) or self.current
        if log is not None:
            log.bytes += len(data)
        if kind == "ref_hash":
            cached = self.cache.get(msg.ref_hash)
            if cached is None:
                return  # the browser would fetch it; the server only refers to hashes we listed
            self.cache[msg.ref_hash] = (cached[0], self.run_count)
            if log is not None:
                log.refs += 1
                log.view[tuple(msg.metadata.delta_path)] = hash(cached[0].delta.SerializeToString())
            return
        if msg.metadata.cacheable and msg.hash:
            self.cache[msg.hash] = (msg, self.run_count)
        if kind == "new_session":
            ns = msg.new_session
            self.page_hash = ns.page_script_hash or self.page_hash
            self.session_id = ns.initialize.session_id or self.session_id
            self.max_age = ns.config.max_cached_message_age or self.max_age
            fragment = bool(msg.metadata.run.fragment_ids)
            self.current = RunLog(time.perf_counter(), fragment, auto=fragment and self._auto_sent,
                                  fragments=tuple(msg.metadata.run.fragment_ids))
            self._auto_sent = False
            self.runs[run_id] = self.current
            if not fragment:
                self.timers.clear()
                self.texts = []
        elif kind == "navigation":  # with st.navigation the page that ran is named here
            self.page_hash = msg.navigation.page_script_hash or self.page_hash
        elif kind == "page_info_changed":
            self.query = msg.page_info_changed.query_string
        elif kind == "auto_rerun":
            self.timers[msg.auto_rerun.fragment_id] = max(msg.auto_rerun.interval, 0.01)
        elif kind == "stop_auto_rerun":
            self.timers.clear()
        elif kind == "delta":
            self._delta(msg, log)
        elif kind == "script_finished":
            self._finished(msg.script_finished, log, run_id)

    def _delta(self, msg: ForwardMsg, log: RunLog | None) -> None:
        if msg.delta.WhichOneof("type") != "new_element":
            return
        el = msg.delta.new_element
        which = el.WhichOneof("type")
        if log is not None:
            log.elements += 1
            log.view[tuple(msg.metadata.delta_path)] = hash(msg.delta.SerializeToString())
            if which == "plotly_chart" or (which == "bidi_component"
                                           and el.bidi_component.component_name == "layerlab_chart"
                                           and not inplace.is_same(el.bidi_component)):
                log.plots += 1   # st.plotly_chart, or a ui.inplace chart given a figure (not "the same")
        inner = getattr(el, which) if which else None
        wid = getattr(inner, "id", "") if inner is not None and hasattr(inner, "id") else ""
        if isinstance(wid, str) and wid.startswith("$$ID-"):
            w = Widget(wid, which, inner, msg.delta.fragment_id)
            self.widgets[w.key or wid] = w
        if which == "markdown" and log is not None and not log.fragment:
            self.texts.append(el.markdown.body)
        if which == "exception":   # what a browser shows as "This app has encountered an error"
            self.stats.exceptions.append(f"{el.exception.type}: {el.exception.message}"[:300])
        paused = which == "alert" and "your teacher paused the class" in el.alert.body
        if paused and self.stats.paused_at is None:
            self.stats.paused_at = time.perf_counter()   # /trainer in a class: the pause banner arrived
        if which in ("markdown", "toast") and "server is busy" in getattr(el, which).body.lower():
            self.stats.busy_notes += 1   # app.py's line on a whole run, engine/turns.py's toast on any

    def _finished(self, status: int, log: RunLog | None, run_id: str) -> None:
        now = time.perf_counter()
        self.runs.pop(run_id, None)
        if status == EARLY:
            self.stats.runs_cut += 1
            return
        self.inflight = False
        self.run_count += 1
        self.cache = {h: e for h, e in self.cache.items() if self.run_count - e[1] <= self.max_age}
        if status == FRAGMENT_DONE:
            if log is not None and log.auto:
                # A page may tick several fragments; the fastest timer is the live one that counts.
                live = min(self.timers, key=self.timers.get) if self.timers else None
                if live in log.fragments:
                    self.stats.ticks_done += 1
                    self.stats.redraws += bool(log.plots)
            elif log is not None:   # a widget inside a fragment: its fragment's run is the answer
                self._count_changes(log, {**self.view, **log.view})
                self._answer(log, now)
        elif status == FINISHED:
            self.stats.runs_done += 1
            if log is not None:
                self._count_changes(log, log.view)
                self._answer(log, now)
        self.finished.set()

    def _count_changes(self, log: RunLog, view: dict) -> None:
        """Elements sent in full, and how many of them differ from what the tab showed before."""
        self.stats.sent_whole.append(log.elements)
        if self.view:
            self.stats.changed.append(sum(self.view.get(p) != h for p, h in log.view.items()))
        self.view = view

    def _answer(self, log: RunLog, now: float) -> None:
        """Moves this run answers: every move sent before the run started.

        Runs of a session only start on that tab's own requests, so the first complete run that
        started after a move includes it. (Past capacity with fastReruns off, a move sent while an
        earlier one still waited to start may be credited to that earlier run: a slight flattery.)
        """
        answered = [sent for sent in self.pending if sent <= log.started]
        self.stats.latencies.extend(now - sent for sent in answered)
        self.pending = [sent for sent in self.pending if sent > log.started]

    async def _tick(self) -> None:
        """The fragments' timers, one fixed-phase interval each like the browser's setInterval.

        A timer that fires while its own fragment's run is in flight is skipped (the browser does not
        ask again before the run finished: seen in recorded frames), so a slow tick lowers the rate. A
        timer that fires while another run is in flight asks once that run finished (the server queues
        it): two fragments on one interval (the projector's count and its lost hands) both run.
        """
        due: dict[str, float] = {}
        while not self.closed:
            await asyncio.sleep(0.005)
            now = time.perf_counter()
            for fragment in [f for f in due if f not in self.timers]:
                del due[fragment]
            for fragment, interval in self.timers.items():
                t = due.setdefault(fragment, now + interval)
                if t > now:
                    continue
                if self.inflight and self._auto_fragment != fragment:
                    continue   # another run is on: this tick asks once it finished
                due[fragment] = t + interval * (int((now - t) / interval) + 1)   # the next boundary
                if not self.inflight and not self.closed:
                    self.stats.ticks_sent += 1
                    self._send_rerun(fragment=fragment, auto=True)


async def reopen(st: Student, until: float) -> bool:
    """A student whose replica died opens their link again (through the balancer), as a reload does."""
    t0 = time.perf_counter()
    st.pending.clear()   # a move in flight died with the replica (the page sends its state again on open)
    while time.perf_counter() < until:
        try:
            await st.close()
            await st.open(timeout=30)
            st.stats.reopened += 1
            st.stats.reopen_s.append(time.perf_counter() - t0)
            return True
        except Exception:
            await asyncio.sleep(1.0)
    return False

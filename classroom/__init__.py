"""A class on one link: the store as pages see it (/class, and /trainer in a class).

Every privileged action is checked on the server: the teacher's key is read from the link once, kept in
this session only, removed from the address bar, and checked by the store (hashed) on every change.
Nicknames are shown as plain text only (st.dataframe, st.markdown of escaped text), never as HTML.
"""

from __future__ import annotations

import collections
import contextlib
import functools
import io
import itertools
import json
import logging
import re
import threading
import time
from dataclasses import dataclass

import streamlit as st

from lib.challenge import PROBLEM_KEYS, evaluate, read_submission, settings
from store import ClassInfo, Counts, NoClass, Row, Store, StoreDown, StoreError, normal_code
from ui import state

KEYS = "class_keys"          # session: {code: teacher's key}, never in a link after the first load
JOINED = "class_joined"      # session: {code: seat} of the classes this session joined (ui/history.put)
SEAT_SEEN = "class_seat_seen"  # session: when this seat last told the store it was here (throttle)
# A challenge may hide any trainer control but the class's data (locked and shown) and the weights.
NEVER_HIDDEN = (*PROBLEM_KEYS, "w")
PAUSE_LOOK = 2.0             # seconds between two looks at the class's pause switch from a playing page
KNOWN = "class_known"        # session: the Challenge this page was last told (kept while the store is away)
DRAWN_AWAY = "class_drawn_away"  # session: the page's last full run found the store away
PAUSE_SEEN = "class_pause_seen"  # session: (when, paused, whether that look reached the store)
AWAY = ("The class store cannot be reached just now; this page shows the class again by itself when it "
        "is back.")
LOOK_AGAIN = 5.0             # seconds between two looks at a store that is away
LESSON_VIEW = "class_lesson_view"  # session: the lesson class whose trainer step is a view, not a challenge


def store_url() -> str | None:
    """LAYERLAB_DB if set, else Streamlit's `[connections.layerlab] url` in .streamlit/secrets.toml, else
    None (the store's SQLite file under the home folder)."""
    import os

    if os.environ.get("LAYERLAB_DB"):
        return os.environ["LAYERLAB_DB"]
    with contextlib.suppress(Exception):   # no secrets file: nothing set
        return st.secrets["connections"]["layerlab"]["url"]
    return None


@st.cache_resource(show_spinner=False)
def store() -> Store:
    """One store per process (its connection pool is shared by the sessions). Making it connects to
    nothing: a database that is away at its first use is tried again at the next (store.Store._open)."""
    return Store(store_url())


class away(contextlib.ContextDecorator):   # lower case: used as a decorator and a `with`, like suppress
    """How a page part lives through the class store being away: the StoreDown it raises (store/ turns
    every outage into one) becomes one line where the part was, and the rest of the page runs on.
    `look_again`: a small fragment looks at the store every LOOK_AGAIN s and reruns the page once it
    answers (a part in a `run_every` fragment needs none: its next run is the look)."""

    def __init__(self, line: str = AWAY, look_again: bool = False):
        self.line, self.look_again = line, look_again

    def __enter__(self):
        return self

    def __exit__(self, kind, err, tb) -> bool:
        if not isinstance(err, StoreDown):
            return False
        st.warning(self.line, icon=":material/cloud_off:")
        if self.look_again:
            st.fragment(_look_again, run_every=LOOK_AGAIN)()
        return True


def _look_again() -> None:
    if store().ping():
        state.rerun_page("the class store answers again")


# --- floods: join presses and join codes ------------------------------------------------------------
# Per page (session): at most JOIN_TRIES presses of Join and WRONG_CODES codes no class has (typed, or in a
# /class?code= link) a minute. A new tab is a new session, so per process there is a budget too: past
# WRONG_BUDGET wrong codes a minute the server is being guessed at, and a page that has already named a
# wrong code looks up no other until the minute is under budget again. A page's first code (the QR link's,
# typed off the board) is never refused; a guesser pays a new session for every further guess. A class
# makes a few typos a minute; a guessing client made 20 to 45 a second.
JOIN_TRIES, WRONG_CODES, WRONG_BUDGET = 10, 5, 60
TRIES = "class_join_tries"   # session: monotonic times of this page's Join presses (last minute)
MISSES = "class_wrong_codes"  # session: ... and of the wrong codes it named
_wrong: collections.deque[float] = collections.deque()   # this process's wrong codes (monotonic times)
_wrong_lock = threading.Lock()


def _recent(key: str, now: float) -> list[float]:
    kept = [t for t in st.session_state.get(key, ()) if now - t < 60.0]
    st.session_state[key] = kept
    return kept


def _wait_line(times: list[float], now: float) -> str:
    return f"wait {max(1, int(60.0 - (now - times[0])) + 1)} s, then try again."


def _guessing(now: float) -> bool:
    with _wrong_lock:
        while _wrong and now - _wrong[0] >= 60.0:
            _wrong.popleft()
        return len(_wrong) >= WRONG_BUDGET


def _may_look_up(now: float) -> None:
    """StoreError (one line) when this page may not look up another join code just now."""
    missed = _recent(MISSES, now)
    if len(missed) >= WRONG_CODES:
        raise StoreError(f"{WRONG_CODES} wrong join codes from this page in a minute: check the code on the "
                         f"board and {_wait_line(missed, now)}")
    if missed and _guessing(now):
        raise StoreError("Many wrong join codes reach this server just now: check the code on the board (or "
                         "open the class's link) and try again in a minute.")


def _missed(now: float) -> None:
    st.session_state.setdefault(MISSES, []).append(now)
    _guessing(now)          # the minute's count only: a guesser with a new page per guess grows nothing
    with _wrong_lock:
        _wrong.append(now)


LINK_MISSED = "class_link_missed"   # session: the /class?code= this page already found no class for


def find(code: str) -> ClassInfo | None:
    """The class of a join code from a link (/class?code=), counted like a typed one when no class has
    it (once: the page's reruns with the same link are not new tries). StoreError when this page may not
    look up another; StoreDown when the store is away."""
    code = normal_code(code)
    if st.session_state.get(LINK_MISSED) == code:
        return None
    now = time.monotonic()
    _may_look_up(now)
    info = store().get_class(code)
    if info is None:
        _missed(now)
        st.session_state[LINK_MISSED] = code
    return info


def join(code: str, nickname: str) -> str:
    """A student presses Join: a seat's token, or StoreError with one line (a refusal, a limit, the store
    away). The class's own limits (full, closed, seats a minute) are the store's, on every replica."""
    now = time.monotonic()
    tries = _recent(TRIES, now)
    if len(tries) >= JOIN_TRIES:
        raise StoreError(f"{JOIN_TRIES} tries to join from this page in a minute: {_wait_line(tries, now)}")
    _may_look_up(now)
    tries.append(now)
    try:
        return store().join(code, nickname)
    except NoClass:
        _missed(now)
        raise
    except StoreDown:
        raise StoreError("The class store cannot be reached just now: press Join again in a "
                         "moment.") from None


BOARD_TTL = 1.0   # seconds a class's board is shared by every viewer of this process


_GENERATION: dict[str, int] = {}   # class code -> the last change this process made to it
_CHANGES = itertools.count(1)


def board_now(code: str) -> tuple[ClassInfo | None, Counts, list[Row]]:
    """A class's settings, counts and leaderboard as one read shared by every viewer of this process for
    a second: thirty boards refreshing every 3 s cost about one set of queries a second, not ten. A
    change made in this process (changed()) is read at once; another replica's within BOARD_TTL."""
    code = normal_code(code)
    return _board_read(code, _GENERATION.get(code, 0))


def board_table(code: str):
    """The board as every viewer sees it: (settings, counts, an Arrow table or None before the first
    submission), built once a second per class and shared read-only. Building a DataFrame and converting
    it to Arrow was three quarters of a viewer's refresh (py-spy of bench/classroom.py --viewers)."""
    code = normal_code(code)
    return _board_built(code, _GENERATION.get(code, 0))


def changed(code: str) -> None:
    """This process changed the class (a teacher's action, a submission): its boards read it again."""
    _GENERATION[normal_code(code)] = next(_CHANGES)


def submissions_now(code: str) -> list[dict]:
    """Every submission of the class (id, nickname, size, scores, settings; never the weights), read as the
    board is: once a second per class, shared, at once after a change made here."""
    code = normal_code(code)
    return _submissions_read(code, _GENERATION.get(code, 0))


@st.cache_data(ttl=BOARD_TTL, max_entries=256, show_spinner=False)
def _submissions_read(code: str, generation: int) -> list[dict]:
    """Every submission of the class (the class chart), shared like the board: one read a second."""
    return store().submissions(code)


@st.cache_data(ttl=BOARD_TTL, max_entries=256, show_spinner=False)
def _board_read(code: str, generation: int) -> tuple[ClassInfo | None, Counts, list[Row]]:
    s = store()
    info = s.get_class(code)
    if info is None:
        return None, Counts(0, 0, 0, 0), []
    return info, s.counts(code), s.leaderboard(code)


def score_name(info: ClassInfo) -> str:
    return "R²" if info.problem.get("problem") == "regress" else "accuracy"


@st.cache_resource(ttl=BOARD_TTL, max_entries=256, show_spinner=False)
def _board_built(code: str, generation: int):
    import pyarrow as pa

    info, counts, rows = _board_read(code, generation)
    if info is None or not rows:
        return info, counts, None
    what = score_name(info)
    scale = 1.0 if what == "R²" else 100.0      # accuracy in percent, as everywhere in the app
    read = [readable(r.public, r.private, r.n_params, r.spec, info) for r in rows]
    columns = {
        "rank": [r.rank for r in rows],
        "student": [f"Student {i + 1}" if info.hide_names else name_text(r.nickname)
                    for i, r in enumerate(rows)],
        f"public {what}": [None if g is None else scale * g[0] for g in read],
        **({f"private {what}": [None if g is None or g[1] is None else scale * g[1] for g in read]}
           if info.revealed else {}),
        "parameters": [None if g is None else g[2] for g in read],
        "layers": [BAD if g is None else layers_text(g[3]) for g in read],
        "bend": [None if g is None else g[3].get("act") for g in read],
        "epochs": [None if g is None else g[3].get("epoch") for g in read],
        "submitted (UTC)": [_clock(r.at) for r in rows],
        "submissions": [r.submissions for r in rows],
    }
    types = {"rank": pa.int64(), "student": pa.string(), f"public {what}": pa.float64(),
             f"private {what}": pa.float64(), "parameters": pa.int64(), "layers": pa.string(),
             "bend": pa.string(), "epochs": pa.int64(), "submitted (UTC)": pa.string(),
             "submissions": pa.int64()}
    return info, counts, pa.table({k: pa.array(v, type=types[k]) for k, v in columns.items()})


BAD = "this submission could not be read"


def readable(public, private, n_params, spec, info: ClassInfo):
    """A stored submission's (public, private, parameters, settings) as the board may draw them
    (lib.challenge.read_submission), or None for one that is not what Submit keeps: drawn as BAD."""
    head = "linear" if info.problem.get("problem") == "regress" else "sigmoid"
    try:
        return read_submission(public, private, n_params, spec, head)
    except (ValueError, TypeError, OverflowError):
        return None


def layers_text(spec: dict) -> str:
    return ",".join(map(str, spec.get("hidden") or [])) or "none"


def name_text(name) -> str:
    """A nickname as stored, as text of a bounded length (a row written by hand may hold anything)."""
    return str(name)[:64]


def _clock(at) -> str | None:
    try:
        return at.strftime("%H:%M:%S")
    except (AttributeError, ValueError):
        return None


def guarded(what: str):
    """A part of a page that draws what the store holds: whatever fails inside it (a row no check foresaw)
    leaves one line in its place and the rest of the page drawn. The database away is not this part's to
    say: StoreDown goes on to the `away` round the live part or the page, which says it once. Streamlit's own
    rerun and stop (BaseException) pass through."""
    def wrap(draw):
        @functools.wraps(draw)
        def run(*args, **kwargs):
            try:
                return draw(*args, **kwargs)
            except StoreDown:   # the database away: one line for the whole live part, where `away` stands
                raise
            except Exception:
                logging.getLogger(__name__).exception("%s could not be drawn", what)
                st.caption(f":material/error: {what} could not be drawn just now; the rest of the page "
                           "works.")
                return None
        return run
    return wrap


def for_plotly(text: str) -> str:
    """User text inside a plotly title or hover: plotly reads a few HTML tags, so escape them all."""
    import html

    return html.escape(str(text), quote=False)


def plain(text: str) -> str:
    """User text for st.markdown: every Markdown and HTML character escaped, so it reads as typed."""
    out = []
    for ch in str(text):
        out.append("\\" + ch if ch in "\\`*_{}[]()#+-.!|<>~$:&" else ch)
    return "".join(out)


def label(text) -> str:
    """User text in a widget's label (a button's label, any widget's label, renders Markdown): escaped as for
    st.markdown, so `![](//host/p)` is shown, not fetched. A select's options are drawn as text in
    Streamlit 1.67 (tests/e2e/test_class.py checks it): they take the text as it is."""
    return plain(name_text(text))


def base_url() -> str:
    """Where students reach this app ('http://host:port'): the page's address, or the machine's network
    address when the teacher opened a loopback one (ui.address)."""
    from ui import address

    return address.base()[0]


def take_key(code: str | None) -> None:
    """A teacher's link carries `key`: keep it in this session, and take it out of the address bar and out
    of the browser's history (ui/history.py: a plain `del st.query_params` left it one Back away)."""
    from ui import history

    key = st.query_params.get("key")
    if key is not None and code:
        st.session_state.setdefault(KEYS, {})[normal_code(code)] = key
    history.forget("key")


def key_for(code: str) -> str | None:
    return st.session_state.get(KEYS, {}).get(normal_code(code))


def is_teacher(code: str) -> bool:
    return store().is_teacher(code, key_for(code))


def qr_png(link: str) -> bytes:
    """The student link as a QR code (segno), black on white, readable from the back of a room."""
    import segno

    buf = io.BytesIO()
    segno.make(link, error="m").save(buf, kind="png", scale=10, border=2)
    return buf.getvalue()


# --- a student in /trainer ----------------------------------------------------------------------
@dataclass(frozen=True)
class Challenge:
    code: str
    seat: str
    nickname: str
    info: ClassInfo

    @property
    def problem(self) -> dict:
        return {k: self.info.problem.get(k) for k in PROBLEM_KEYS}

    @property
    def hide(self) -> set[str]:
        """The trainer controls the teacher hid for this class."""
        return set(self.info.problem.get("hide") or ()) - set(NEVER_HIDDEN)


def challenge() -> Challenge | None:
    """The class this /trainer is in (`class` and `seat` in its link), or None with one line saying why."""
    code, seat = st.query_params.get("class"), st.query_params.get("seat")
    if code and not seat and (seat := st.session_state.get(JOINED, {}).get(normal_code(code))):
        from ui import history

        history.put(seat=seat)   # just joined: into this entry only, never one pushed on /class
    if not code and not seat:
        return None
    if code and normal_code(code) == st.session_state.get(LESSON_VIEW):   # a lesson's view, not its challenge
        return None
    if not code or not seat:
        st.warning("This link is missing its class or its seat: open the class link again to join. Training "
                   "on your own meanwhile.", icon=":material/link_off:")
        return None
    try:
        info = store().get_class(code)
        who = store().seat(code, seat) if info else None
    except StoreDown as err:   # away: the class this page was in stays (Submit says it waits), or train alone
        known = st.session_state.get(KNOWN)
        if known is not None and (known.code, known.seat) == (normal_code(code), seat):
            st.warning(str(err), icon=":material/cloud_off:")
            st.session_state[DRAWN_AWAY] = True   # the watch reruns the page once the store answers
            return known
        st.warning("The class store cannot be reached; training on your own meanwhile (this page joins the "
                   "class by itself when it is back).", icon=":material/cloud_off:")
        st.fragment(_look_again, run_every=LOOK_AGAIN)()
        return None
    if info is None or who is None:
        st.warning(f"No seat `{plain(seat[:8])}…` in a class `{plain(code)}`: open the class link again to "
                   "join. Training on your own meanwhile.", icon=":material/link_off:")
        return None
    st.session_state[KNOWN] = Challenge(info.code, seat, who.nickname, info)
    st.session_state[DRAWN_AWAY] = False
    return st.session_state[KNOWN]


def paused(ch: Challenge | None) -> bool:
    """Has the teacher paused the class? Read from the store (every replica sees it), at most every
    PAUSE_LOOK seconds per session."""
    if ch is None:
        return False
    now = time.monotonic()
    seen = st.session_state.get(PAUSE_SEEN)
    if seen is None or now - seen[0] >= PAUSE_LOOK:
        try:
            info = store().get_class(ch.code)
            seen = (now, bool(info and info.paused), True)
        except StoreDown:   # away: as last seen (Submit says it is away when pressed)
            seen = (now, seen[1] if seen is not None else ch.info.paused, False)
        st.session_state[PAUSE_SEEN] = seen
    return seen[1]


# The watch's interval: under 3 s, so the banner's round trip (the store's read, the page's rerun) fits
# the 3 s a teacher is promised (at 3 s, 60 students on 2 replicas: p95 2.9 s, the slowest 3.01 s).
WATCH_EVERY = 2.5


def watch(ch: Challenge, was_paused: bool) -> None:
    """A small fragment on a student's page (run every WATCH_EVERY s): when the teacher pauses or resumes,
    the whole page follows within 3 s, playing or not; and when the page was drawn with the store away,
    it is drawn again once the store answers. Draws nothing."""
    seen = st.session_state.get(PAUSE_SEEN)
    if seen is not None:
        st.session_state[PAUSE_SEEN] = (-1e9, *seen[1:])   # a fresh look at the store, the last value kept
    if paused(ch) != was_paused or (st.session_state.get(DRAWN_AWAY) and st.session_state[PAUSE_SEEN][2]):
        state.rerun_page("the teacher paused or resumed the class, or the store answered again")


def here(ch: Challenge | None, playing: bool) -> None:
    """Tell the store this student is here (and playing), at most every 5 s."""
    if ch is None:
        return
    now = time.monotonic()
    if now - st.session_state.get(SEAT_SEEN, -1e9) >= 5.0:
        st.session_state[SEAT_SEEN] = now
        with contextlib.suppress(Exception):
            store().seat(ch.code, ch.seat, playing=playing)


def banner(ch: Challenge | None, is_paused: bool) -> None:
    if ch is None:
        return
    if is_paused:
        st.warning("**Eyes up: your teacher paused the class.** Training and Submit wait until they resume; "
                   "what you trained stays on this page.", icon=":material/visibility:")
    else:
        st.info(f"Class challenge `{ch.code}` as **{plain(ch.nickname)}**: the data is the class's (locked); "
                "the network is yours. Submit it to be scored on test points nobody sees.",
                icon=":material/groups:")


def submit_box(ch: Challenge, network, is_paused: bool) -> None:
    """Submit to the class: the server scores the network on the hidden points and keeps it.
    `network()` gives the network (weights) and its settings at the moment Submit is pressed."""
    with st.container(border=True):
        st.markdown("**Submit to the class**")
        info = ch.info
        limits = []
        if info.max_params:
            limits.append(f"at most {info.max_params:,} parameters")
        if info.max_submissions:
            limits.append(f"{info.max_submissions} submissions each")
        if info.closes_at:
            limits.append(f"closes {info.closes_at:%H:%M} UTC")
        st.caption("Scored on the class's hidden test points: the public half now, the private half when "
                   "your teacher reveals it." + (" Limits: " + ", ".join(limits) + "." if limits else ""))
        clicked = st.button("Submit to the class", key="class_submit", type="primary",
                            icon=":material/upload:", disabled=is_paused,
                            help="Send this network (its settings and weights) to be scored.")
        if clicked:
            _submit(ch, network)
        r = st.session_state.get("class_receipt")
        if r is not None:
            what = "R²" if info.problem.get("problem") == "regress" else "accuracy"
            shown = f"{r.public:.3f}" if what == "R²" else f"{100 * r.public:.1f} %"
            left = "" if r.left is None else f" {r.left} submission{'s' if r.left != 1 else ''} left."
            st.success(f"Scored: public {what} {shown}, rank {r.rank} in the class.{left}",
                       icon=":material/check_circle:")


def _submit(ch: Challenge, network) -> None:
    """Score the network on the server (lib.challenge.evaluate: every number it returns bounded) and keep it
    with its bounded settings; one line when it is refused, cannot be scored, or the store is away."""
    t0 = time.perf_counter()
    try:
        weights, spec = network()
        spec = settings_of(spec)
        weights = {**weights, "epoch": spec.get("epoch", 0)}   # the same bounded epoch in both
        pub, priv, n = evaluate(weights, ch.info.problem, store().test_seed(ch.code))
    except StoreDown as err:   # our own line, no text of a student's in it
        st.error(f"Not submitted: {err}", icon=":material/cloud_off:")
        return
    except (ValueError, StoreError) as err:   # may quote what a file held: shown as text
        st.error(f"Not submitted: {plain(str(err)[:300])}", icon=":material/error:")
        return
    except Exception as err:   # scoring failed in a way no check foresaw: say so, keep the network here
        logging.getLogger(__name__).exception("a submission could not be scored")
        st.error(f"Not submitted: this network could not be scored ({type(err).__name__}). Your network is "
                 "still on this page.", icon=":material/error:")
        return
    try:
        r = store().submit(ch.code, ch.seat, spec=spec, weights=weights, n_params=n, public=pub, private=priv)
    except StoreDown as err:   # the database is away: nothing is lost, the network is still here
        st.error(f"Not submitted: {err}", icon=":material/cloud_off:")
        return
    except StoreError as err:
        st.error(f"Not submitted: {plain(str(err))}", icon=":material/error:")
        return
    except Exception as err:   # a failure no check foresaw: nothing was kept, the network is still here
        logging.getLogger(__name__).exception("a submission could not be stored")
        st.error(f"Not submitted: this network could not be stored ({type(err).__name__}). Your network is "
                 "still on this page.", icon=":material/error:")
        return
    _record_submit(time.perf_counter() - t0, r.submission)
    changed(ch.code)   # this replica's boards show it at their next refresh
    st.session_state["class_receipt"] = r


def settings_of(spec: dict) -> dict:
    """The settings a page hands to Submit, as the class keeps them: only lib.challenge.SETTINGS, each
    checked (ValueError if one is out of range)."""
    from lib.challenge import SETTINGS

    _, _, _, kept = read_submission(0.0, 0.0, 0, {k: spec[k] for k in SETTINGS if k in spec}, "sigmoid")
    return kept


def _record_submit(seconds: float, submission: int) -> None:
    """With LAYERLAB_CLASS_STATS=<file> (bench/classroom.py), one JSON line per acknowledged submission:
    the server's time to score and store it, and its id."""
    import os

    path = os.environ.get("LAYERLAB_CLASS_STATS")
    if path:
        with contextlib.suppress(OSError), open(path, "a") as f:
            f.write(json.dumps({"submit_s": round(seconds, 5), "submission": int(submission),
                                "pid": os.getpid()}) + "\n")


def network_spec(cfg, epoch: int) -> dict:
    """A submission's settings as the board writes them out (lib.challenge.settings: bounded)."""
    return settings(cfg, epoch)


def problem_from_spec(spec) -> dict:
    """'Use this trainer view': the challenge's data from a trainer Spec."""
    return {"problem": spec.problem, "dataset": spec.dataset, "k": int(spec.k), "n": int(spec.n),
            "noise": float(spec.noise), "cells": spec.cells, "seed": int(spec.seed), "feat": list(spec.feat)}


def describe_problem(p: dict) -> str:
    kind = {"classify": "two classes", "classes": f"{p.get('k')} classes", "regress": "a value per point"}
    cells = f", {p['cells']} × {p['cells']} cells" if p.get("cells") else ""
    return (f"{kind.get(p.get('problem'), p.get('problem'))}: {p.get('dataset')}{cells}, "
            f"{p.get('n')} points, noise {p.get('noise')}, seed {p.get('seed')}, "
            f"inputs {', '.join(p.get('feat') or [])}")


_FORMULA = re.compile(r"(^|[;,])(\s*)(?=[=+\-@\t\r])")


def cell(v):
    """A value for a CSV a spreadsheet opens: text that starts like a formula (=, +, -, @, tab, CR) is kept
    as text, and so is every part a spreadsheet that splits on `;` or `,` would read as a cell of its own
    (`x;=cmd()`): an apostrophe before each."""
    if isinstance(v, str):
        return _FORMULA.sub(lambda m: m.group(1) + m.group(2) + "'", v)
    return v


def export_json(s: Store, code: str, key: str) -> str:
    """Every submission of the class for the teacher's download (built when the button is pressed)."""
    return dumps({"code": code, "submissions": s.export(code, key)})


def export_csv(s: Store, code: str, key: str) -> str:
    """The scores, one row per submission, for the teacher's download (built when the button is pressed)."""
    import pandas as pd

    cols = ("nickname", "submitted", "parameters", "public", "private")
    return pd.DataFrame([{k: cell(r.get(k)) for k in cols} for r in s.export(code, key)],
                        columns=list(cols)).to_csv(index=False)


def dumps(d: dict) -> str:
    return json.dumps(d, sort_keys=True)


@st.cache_data(max_entries=2000, show_spinner=False)
def gallery_map(submission: int, problem_json: str):
    """A submission's decision map, computed once ever per submission (its weights never change)."""
    from lib.challenge import decision_map

    return decision_map(store().weights(submission), json.loads(problem_json))


def _map_figure(shade, limit: float, problem: dict, title: str, height: int, X=None, y=None):
    """A student's boundary as the trainer draws it, with points (X, y) as the test points' hollow marks."""
    import numpy as np

    from ui import boundary as tc

    res = shade.shape[0]
    xs = np.linspace(-limit, limit, res)
    empty = np.zeros((0, 2))
    X = empty if X is None else X
    y = np.zeros(0) if y is None else y
    data = tc.Points(empty, np.zeros(0), X, y, limit)
    look = {}
    if problem["problem"] == "classes":
        look = dict(scale=tc.shading_for("classes", int(problem.get("k", 3))), k=int(problem.get("k", 3)))
    elif problem["problem"] == "regress":
        look = dict(scale=tc.VALUE_SHADING, span=float(np.ptp(y)) if len(y) else None)
    return tc.boundary_figure(xs, xs, shade, data, title=for_plotly(title), live=False, height=height, **look)


GALLERY_COLUMNS = 4


@st.cache_resource(max_entries=64, show_spinner=False)
def gallery_grid(cards: tuple[tuple[int, str], ...], problem_json: str):
    """Every student's boundary, small, in rank order, as ONE frozen figure (a grid of maps titled
    'rank. name'), built again only when the cards change and shared read-only. One chart a refresh, not
    thirty: sending thirty charts was most of a teacher's refresh. Each map comes from gallery_map (once
    per submission, ever); a stored network that no longer fits is left out. None: a curve fit (no plane)."""
    import numpy as np
    from plotly.subplots import make_subplots

    from ui import boundary as tc
    from ui.frozen import frozen

    problem = json.loads(problem_json)
    drawn = []
    for submission, title in cards:
        try:
            m = gallery_map(submission, problem_json)
        except StoreDown:   # away: no grid at all (a grid without this card would be kept)
            raise
        except Exception:   # a stored network that no longer fits, or cannot be read: no map, no error
            continue
        if m is None:
            return None
        drawn.append((m, title))
    if not drawn:
        return None
    cols = GALLERY_COLUMNS
    rows = -(-len(drawn) // cols)
    fig = make_subplots(rows=rows, cols=cols, subplot_titles=[for_plotly(t) for _, t in drawn],
                        horizontal_spacing=0.03, vertical_spacing=0.12 / rows + 0.02)
    scale = tc.shading_for(problem["problem"], int(problem.get("k", 3)))
    for i, ((shade, limit), _) in enumerate(drawn):
        res = shade.shape[0]
        step = 2 * limit / (res - 1)
        fig.add_heatmap(z=np.asarray(shade, dtype=np.float32), x0=-limit, dx=step, y0=-limit, dy=step,
                        colorscale=scale, zmin=0.0, zmax=1.0, showscale=False, hoverinfo="skip",
                        row=i // cols + 1, col=i % cols + 1)
    fig.update_xaxes(showticklabels=False, showgrid=False, zeroline=False, fixedrange=True)
    fig.update_yaxes(showticklabels=False, showgrid=False, zeroline=False, fixedrange=True)
    fig.update_annotations(font=dict(size=15))
    fig.update_layout(height=40 + 240 * rows, margin=dict(l=4, r=4, t=36, b=4), showlegend=False,
                      uirevision="gallery")
    return frozen(fig)


@st.cache_resource(max_entries=256, show_spinner=False)
def _charts_built(code: str, submissions: int, generation: int, what: str, hide: bool, revealed: bool):
    from ui.frozen import frozen

    subs = readable_subs(_submissions_read(code, generation), what)
    return frozen(class_chart(subs, what, hide)), frozen(reveal_chart(subs, what, hide)) if revealed else None


def readable_subs(subs: list[dict], what: str) -> list[dict]:
    """The class's submissions the charts can draw (readable), each with its checked numbers and settings."""
    head = "linear" if what == "R²" else "sigmoid"
    out = []
    for s in subs:
        try:
            pub, priv, n, spec = read_submission(s["public"], s["private"], s["n_params"], s["spec"], head)
        except (ValueError, TypeError, OverflowError, KeyError):
            continue
        out.append({**s, "public": pub, "private": priv, "n_params": n, "spec": spec,
                    "nickname": name_text(s.get("nickname"))})
    return out


def class_charts(code: str, info: ClassInfo, submissions: int):
    """The class chart (and after the reveal, public against private) as frozen figures, built again only
    when the class's number of submissions (or a teacher's switch) changed: a refresh sends them again
    without building or copying them."""
    code = normal_code(code)
    return _charts_built(code, submissions, _GENERATION.get(code, 0), score_name(info), info.hide_names,
                         info.revealed)


@st.cache_data(max_entries=500, show_spinner=False)
def snapshot_parts(submission: int, problem_json: str, code: str):
    """A starred network's large map and the public test points with the ones it gets wrong, computed once
    per submission (lib.challenge.decision_map, lib.challenge.public_mistakes)."""
    from lib.challenge import decision_map, public_mistakes

    weights, problem = store().weights(submission), json.loads(problem_json)
    drawn = decision_map(weights, problem, res=72)
    X, y, wrong = public_mistakes(weights, problem, store().test_seed(code))
    return drawn, X, y, wrong


def snapshot_figure(drawn, X, y, wrong, problem: dict, title: str):
    """One snapshot: the boundary, the public test points, a ring around each one it gets wrong."""
    from ui import colors

    shade, limit = drawn
    fig = _map_figure(shade, limit, problem, title, 420, X, y)
    if wrong.any():
        fig.add_scatter(x=X[wrong, 0], y=X[wrong, 1], mode="markers", name="wrong", hoverinfo="skip",
                        showlegend=False, marker=dict(symbol="circle-open", size=17, color=colors.ON,
                                                      line=dict(width=2.5)))
    fig.update_layout(margin=dict(l=8, r=8, t=44, b=8))
    return fig


def settings_line(spec: dict) -> str:
    """A submission's settings written out, for its snapshot (plain text: every value escaped)."""
    if not isinstance(spec, dict):
        return BAD
    layers = ",".join(map(str, spec.get("hidden") or [])) or "none"
    parts = [f"layers **{plain(layers)}**", f"bend **{plain(spec.get('act', '?'))}**",
             f"optimiser **{plain(spec.get('opt', '?'))}**", f"rate **{plain(spec.get('lr', '?'))}**",
             f"batch **{plain(spec.get('batch') or 'all points')}**",
             f"epochs **{plain(spec.get('epoch', '?'))}**"]
    if spec.get("l1") or spec.get("l2"):
        parts.append(f"L1 **{plain(spec.get('l1', 0))}**, L2 **{plain(spec.get('l2', 0))}**")
    return " · ".join(parts)


def class_chart(subs: list[dict], what: str, hide: bool):
    """Every submission: parameters (log axis) against public score, a colour per bend, a marker per
    optimiser, hover naming the network."""
    import plotly.graph_objects as go

    from ui import charts

    scale = 1.0 if what == "R²" else 100.0
    bends = sorted({s["spec"].get("act", "?") for s in subs})
    symbols = {"sgd": "circle", "momentum": "diamond", "adam": "square"}
    names = {n: f"Student {i + 1}" for i, n in enumerate(dict.fromkeys(s["nickname"] for s in subs))}
    fig = go.Figure()
    for i, bend in enumerate(bends):
        mine = [s for s in subs if s["spec"].get("act", "?") == bend]
        fig.add_trace(go.Scatter(
            x=[s["n_params"] for s in mine], y=[scale * s["public"] for s in mine], mode="markers", name=bend,
            marker=dict(size=12, color=charts.SERIES[i % len(charts.SERIES)],
                        symbol=[symbols.get(s["spec"].get("opt"), "circle") for s in mine],
                        line=dict(width=1, color="#333")),
            text=[f"{names[s['nickname']] if hide else for_plotly(s['nickname'])}: layers "
                  f"{','.join(map(str, s['spec'].get('hidden') or [])) or 'none'}, {s['spec'].get('opt')}"
                  for s in mine],
            hovertemplate="%{text}<br>%{x} parameters<br>" + what + " %{y:.1f}<extra></extra>"))
    fig.update_layout(height=380, margin=dict(l=8, r=8, t=40, b=8), showlegend=True,
                      legend=dict(orientation="h", y=1.12, x=1, xanchor="right", title=dict(text="bend ")),
                      title=dict(text=f"Size against public {what}", font=dict(size=16)))
    fig.update_xaxes(type="log", title="parameters (log scale)")
    fig.update_yaxes(title=f"public {what}" + ("" if what == "R²" else " (%)"),
                     range=[-1.05, 1.05] if what == "R²" else [0, 101])   # chance and perfect both in view
    return fig


def reveal_chart(subs: list[dict], what: str, hide: bool):
    """After the reveal: every submission's public score against its private one. On the diagonal a
    network did as well on the half nobody saw; under it, it was tuned to the half it was shown."""
    import plotly.graph_objects as go

    from ui import colors

    scale = 1.0 if what == "R²" else 100.0
    names = {n: f"Student {i + 1}" for i, n in enumerate(dict.fromkeys(s["nickname"] for s in subs))}
    lo, hi = (-1.05, 1.05) if what == "R²" else (0, 101)
    fig = go.Figure()
    fig.add_scatter(x=[lo, hi], y=[lo, hi], mode="lines", hoverinfo="skip", showlegend=False,
                    line=dict(color=colors.OFF, dash="dash", width=1.5))
    fig.add_scatter(x=[scale * s["public"] for s in subs], y=[scale * s["private"] for s in subs],
                    mode="markers", showlegend=False,
                    marker=dict(size=12, color=colors.BLUE, line=dict(width=1, color="#333")),
                    text=[names[s["nickname"]] if hide else for_plotly(s["nickname"]) for s in subs],
                    hovertemplate="%{text}<br>public %{x:.1f}<br>private %{y:.1f}<extra></extra>")
    unit = "" if what == "R²" else " (%)"
    fig.update_layout(height=380, margin=dict(l=8, r=8, t=40, b=8),
                      title=dict(text=f"Public against private {what}", font=dict(size=16)))
    fig.update_xaxes(title=f"public {what}{unit}", range=[lo, hi])
    fig.update_yaxes(title=f"private {what}{unit}", range=[lo, hi])
    return fig

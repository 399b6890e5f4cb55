"""Submit to the class, from /trainer in a class: the box (the class's limits, the button, the receipt),
the network scored on the server on the hidden points and kept with its bounded settings, and one line
when it is refused, cannot be scored or the store is away (the network stays on the page).
"""

from __future__ import annotations

import contextlib
import json
import logging
import time
from datetime import UTC, datetime

import streamlit as st

from classroom import board, connection
from classroom.seats import Challenge
from classroom.session import RECEIPT, SUBMITTED_AT
from classroom.text import plain
from lib.challenge import evaluate, read_submission, settings
from store import StoreDown, StoreError
from ui import fmt

AGAIN = 2.0   # seconds: a second Submit this soon is a replayed click (FIELD-NOTES), not a new network


def button(bar, is_paused: bool) -> bool:
    """Submit, in the trainer's row of buttons beside Play (classroom work is one press away)."""
    return bar.button("Submit to the class", key="class_submit", type="primary", icon=":material/upload:",
                      disabled=is_paused, width="stretch",
                      help="Send this network (its settings and weights) to be scored on the class's hidden "
                           "test points. Paused by the teacher: it waits until they resume.")


def strip(ch: Challenge, clicked: bool, network) -> None:
    """Under the row of buttons: the class's limits before a Submit, the receipt after one, one line when
    it is refused. `network()` gives the network (weights) and its settings at the moment Submit is pressed.
    The button is outside every fragment, like Play: a click that Streamlit replays in the next whole-page
    run (FIELD-NOTES) would submit twice, so a press within AGAIN seconds of a kept submission is not sent
    (after a refusal a press is always sent: it is a student trying again)."""
    info = ch.info
    if clicked and time.monotonic() - st.session_state.get(SUBMITTED_AT, -1e9) >= AGAIN:
        _submit(ch, network)
    r = st.session_state.get(RECEIPT)
    what = "R²" if info.problem.get("problem") == "regress" else "accuracy"
    if r is None:
        limits = []
        if info.max_params:
            limits.append(f"at most {info.max_params:,} parameters")
        if info.max_submissions:
            limits.append(f"{info.max_submissions} submissions each")
        if info.closes_at:
            limits.append("closes " + fmt.until(info.closes_at, datetime.now(UTC), board.viewer_zone()))
        st.caption(f":material/upload: **Submit** scores this network on the class's hidden test points. Its "
                   f"**public {what}** there and this page's **Test {what}** (your own test points) are two "
                   "different tests. The private half is scored when your teacher reveals it."
                   + (" Limits: " + ", ".join(limits) + "." if limits else ""))
    else:
        shown = f"{r.public:.3f}" if what == "R²" else f"{100 * r.public:.1f} %"
        left = "" if r.left is None else f" {r.left} submission{'s' if r.left != 1 else ''} left."
        st.success(f"Scored: public {what} {shown} on the class's hidden points, rank {r.rank} in the "
                   f"class.{left} This page's Test {what} is another test (your own test points), so the "
                   "two numbers differ.", icon=":material/check_circle:")


def _submit(ch: Challenge, network) -> None:
    """Score the network on the server (lib.challenge.evaluate: every number it returns bounded) and keep it
    with its bounded settings; one line when it is refused, cannot be scored, or the store is away."""
    t0 = time.perf_counter()
    try:
        weights, spec = network()
        spec = settings_of(spec)
        weights = {**weights, "epoch": spec.get("epoch", 0)}   # the same bounded epoch in both
        pub, priv, n = evaluate(weights, ch.info.problem, connection.store().test_seed(ch.code))
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
        r = connection.store().submit(ch.code, ch.seat, spec=spec, weights=weights, n_params=n, public=pub,
                                      private=priv)
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
    st.session_state[SUBMITTED_AT] = time.monotonic()
    _record_submit(time.perf_counter() - t0, r.submission)
    board.changed(ch.code)   # this replica's boards show it at their next refresh
    st.session_state[RECEIPT] = r


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

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
from classroom.session import RECEIPT
from classroom.text import plain
from lib.challenge import evaluate, read_submission, settings
from store import StoreDown, StoreError
from ui import fmt


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
            limits.append("closes " + fmt.until(info.closes_at, datetime.now(UTC), board.viewer_zone()))
        what = "R²" if info.problem.get("problem") == "regress" else "accuracy"
        st.caption(f"Scored on the class's hidden test points, not on this page's: {_two_tests(what)} The "
                   "public half is scored now, the private half when your teacher reveals it."
                   + (" Limits: " + ", ".join(limits) + "." if limits else ""))
        clicked = st.button("Submit to the class", key="class_submit", type="primary",
                            icon=":material/upload:", disabled=is_paused,
                            help="Send this network (its settings and weights) to be scored.")
        if clicked:
            _submit(ch, network)
        r = st.session_state.get(RECEIPT)
        if r is not None:
            shown = f"{r.public:.3f}" if what == "R²" else f"{100 * r.public:.1f} %"
            left = "" if r.left is None else f" {r.left} submission{'s' if r.left != 1 else ''} left."
            st.success(f"Scored: public {what} {shown} on the class's hidden points, rank {r.rank} in the "
                       f"class.{left} This page's Test {what} is another test (your own test points), so the "
                       "two numbers differ.", icon=":material/check_circle:")


def _two_tests(what: str) -> str:
    return (f"the page's **Test {what}** counts your own test points, the receipt's **public {what}** the "
            "class's, so the two differ.")


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

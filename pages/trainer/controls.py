"""The live trainer's controls: the data, the network, the twin's differences, the buttons that train, and
the share box (its link and the files in and out). `choose` draws the data's, the network's and the
twin's boxes into the page's columns and returns the run they ask for as one frozen tr.Spec.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace

import numpy as np
import streamlit as st
from streamlit.errors import StreamlitAPIException

from classroom.text import plain as as_text  # what a student typed (a file name), shown as text
from engine import fairshare
from lib import settings
from lib.datasets import CLASSES_DEFAULT, PROBLEMS, dims
from lib.features import FEATURES
from lib.maps import limit_for
from lib.points import MAX_BYTES, MAX_POINTS, columns_for, decode_hand, encode_hand, points_csv, template_csv
from lib.train import MAX_LINK_PARAMS
from pages.trainer import run as tr
from pages.trainer.links import (
    LINKS,
    PROBLEM_UI,
    check_file,
    classes_of,
    parse_units,
    problem_now,
    share_link,
    show_link,
    slider,
    twin_number_with_link,
)
from ui import address, fmt, state

LAST_PROBLEM = "trainer_last_problem"


def _problem_and_sets() -> tuple[str, int, str]:
    """The problem type, its classes and its first dataset, before any control is drawn; the dataset
    link's choices become this problem's (a value left from another problem goes back to its first)."""
    problem = problem_now()
    k = int(LINKS.value("k"))
    sets = tuple(PROBLEMS[problem].sets)
    LINKS.vary("dataset", choices=sets)
    _follow_problem(problem)
    first = settings.first(problem)["dataset"]
    if "dataset" in st.session_state and st.session_state["dataset"] not in sets:
        st.session_state["dataset"] = first
    return problem, k, first


def _follow_problem(problem: str) -> None:
    """A new problem type brings its own first values (lib.settings.first: its network, rate and pace),
    unless the student chose one themselves (a value other than the last problem's first, or one the link
    opened with). The dataset follows in _problem_and_sets."""
    last = st.session_state.get(LAST_PROBLEM)
    st.session_state[LAST_PROBLEM] = problem
    if last == problem:
        return
    was = settings.first(last if last in PROBLEMS else settings.FIRST_PROBLEM)
    for key, new in settings.first(problem).items():
        old = was[key]
        chosen = key == "dataset" or (last is None and key in st.query_params)   # the link asked for it
        if not chosen and LINKS.value(key) == old and old != new:
            LINKS.set(key, new)


def network_why(problem: str, hidden: tuple) -> str | None:
    """Why this problem's first network has its size (shown while the student keeps it)."""
    first = settings.first(problem)["hidden"]
    if tuple(hidden) != first:
        return None
    return "Why this size: " + PROBLEM_UI[problem].why.format(units=first[0]) + "."


def _lock(problem: dict) -> None:
    """A class challenge's data, set on the data controls before they are drawn (then drawn locked).
    A link's own data values would win over it on a widget's first draw: they are dropped first."""
    dropped = []
    for key in [k for k in problem if k in st.query_params and k in LINKS.links]:
        try:
            del st.query_params[key]
            dropped.append(key)
        except StreamlitAPIException:   # bound to its drawn widget: the value set below rewrites it there
            pass
    if dropped:
        state.rerun_page("link keys the problem does not have were dropped")
    for key, value in problem.items():
        if value is None or key not in LINKS.links:
            continue
        now = LINKS.value(key)
        if key == "feat":   # a multiselect holds a list: compare and set as one
            now, value = list(now or ()), list(value)
        if now != value:
            LINKS.set(key, value)


ONE_INPUT = tuple(f for f in FEATURES if FEATURES[f].inputs == 1)   # what a curve (one input, x1) can use


def _inputs_for(curve: bool) -> None:
    """The inputs box offers what the points have: a curve only the features of x1 alone."""
    choices, default = (ONE_INPUT, ("x1",)) if curve else (tuple(FEATURES), ("x1", "x2"))
    LINKS.vary("feat", choices=choices, default=default)
    now = [f for f in (LINKS.value("feat") or ()) if f in choices]
    if curve and now != list(LINKS.value("feat") or ()):
        LINKS.set("feat", now or list(default))
        LINKS.note("feat", "A curve has one input, x₁: the inputs made from x₂ were left out.",
                   tuple(now or default))


def data_controls(own: tr.OwnData | None, locked: dict | None = None) -> dict:
    """The data's controls; returns their values. `locked`: a class challenge's data, shown but fixed."""
    lock = locked is not None
    with st.container(border=True):
        st.markdown("**The data**" + (" (the class challenge's: locked)" if lock else ""))
        if lock:
            _lock(locked)
        LINKS.widget("problem", disabled=lock)
        problem, k, first = _problem_and_sets()
        if own is not None and (own.problem, classes_of(own.problem, own.k)) != (problem, classes_of(problem, k)):
            st.caption(f":orange[:material/info: Your points from `{own.name}` are for another problem type: "
                       "using the built-in datasets.]")
            own = None
        if settings.applies("k", problem):
            k = int(LINKS.widget("k", disabled=own is not None or lock))
        dataset = LINKS.widget("dataset", default=first, disabled=own is not None or lock)
        info = PROBLEMS[problem].info
        st.caption(info.get(dataset, "") if own is None else
                   f":material/upload_file: Using your {len(own.y):,} points from `{own.name}`.")
        n = LINKS.widget("n", disabled=own is not None or lock)
        noise = LINKS.widget("noise", disabled=own is not None or lock)
        share = LINKS.widget("train")
        seed = LINKS.widget("seed", disabled=lock)
        plain_board = dataset == "checkerboard" and settings.applies("cells", problem)
        cells = LINKS.widget("cells", disabled=lock) if plain_board and own is None else None
        curve = (own.X.shape[1] == 1) if own is not None else dims(problem, dataset) == 1
        _inputs_for(curve)
        feat = LINKS.widget("feat", disabled=lock)
        if not feat:
            st.caption(":orange[:material/info: Pick at least one input; using "
                       + ("x1" if curve else "x1 and x2") + ".]")
            feat = LINKS["feat"].default
        only = False
        if not lock:
            row = st.container(horizontal=True, vertical_alignment="center")
            with row:
                st.button("New points", icon=":material/refresh:", on_click=_new_points,
                          help="Draw a fresh set of points (the next seed), and start the network again.")
                only = LINKS.widget("only")
            own_points(own, problem, k)
    return dict(dataset=dataset, n=int(n), noise=float(noise), train=share / settings.BY_KEY["train"].per, seed=int(seed), cells=cells,
                feat=tuple(f for f in FEATURES if f in feat), problem=problem, k=k, own=own, only=bool(only))


def _new_points():
    LINKS.set("seed", (int(LINKS.value("seed")) + 1) % 100_000)


def own_points(own: tr.OwnData | None, problem: str = "classify", k: int = CLASSES_DEFAULT) -> None:
    with st.expander("Your own points (CSV)", icon=":material/upload_file:"):
        what = PROBLEM_UI[problem].labels(k)
        st.markdown(f"A CSV with a header row `{columns_for(problem)}`, {what}, at most {MAX_POINTS:,} points "
                    f"and {MAX_BYTES // 1000} KB.")
        example = PROBLEM_UI[problem].example(k)
        st.download_button("Download a template", lambda: template_csv(problem, k), "layer-lab-points.csv",
                           "text/csv", icon=":material/download:",
                           help=f"About forty points of {example}, in the accepted format.")
        slot = st.session_state.setdefault("trainer_upload_slot", 0)
        up = st.file_uploader("Upload points", type=["csv"], key=f"trainer_upload_{slot}",
                              help=f"Columns {columns_for(problem)}. Replaces the dataset until you go back.")
        if up is not None:
            try:
                parsed = tr.own_data(up.name, up.getvalue(), problem, classes_of(problem, k))
            except ValueError as err:
                keep = f"your points from {own.name}" if own else "the built-in dataset"
                st.error(f"Could not use {up.name}: {err}. Still using {keep}.", icon=":material/error:")
            else:
                if own is None or own.digest != parsed.digest:
                    st.session_state[tr.OWN] = parsed
                    state.rerun_page("the student's own points replace the dataset")
        if own is not None:
            st.button("Back to the built-in datasets", on_click=_forget_own, icon=":material/undo:",
                      help="Forget the uploaded points.")


def _forget_own():
    st.session_state[tr.OWN] = None
    st.session_state["trainer_upload_slot"] = st.session_state.get("trainer_upload_slot", 0) + 1


def network_controls() -> dict:
    """The network's and the optimiser's controls (the settings a weights file carries); their values."""
    got = {}
    with st.container(border=True):
        st.markdown("**The network**")
        for key in settings.keys(file=True):
            link = LINKS[key]
            value = slider(key) if link.kind == "select_slider" else LINKS.widget(key)
            got[key] = type(link.default)(value) if type(link.default) in (int, float) else value
            if key == "hidden" and (why := network_why(problem_now(), value)):
                st.caption(why)
    return got


def twin_controls() -> dict:
    """The twin's differences from the network (Trainer.twin's changes); "same" follows the network."""
    diff = {}
    with st.expander("The twin's differences", icon=":material/compare_arrows:"):
        for key in settings.keys(twin=True):
            twin_number_with_link(f"t{key}")
            diff[key] = LINKS.widget(f"t{key}")
    return diff


def _set_playing(value: bool):
    # Set, not flip: Streamlit may run a click's callback twice when the click lands during a
    # fragment tick (once in that tick, once replayed in the full rerun); flipping would undo it.
    st.session_state[tr.PLAYING] = value
    if not value:
        fairshare.leave(fairshare.session_key())  # the others get this session's share at once


def buttons(held: bool = False, beside=None):
    """Play, Step, +10, +100 and Reset in one wrapping row, right above the maps (on a phone too);
    `beside(bar)` draws its own button right after Play (a class's Submit) and its result is returned.

    Outside every fragment, with callbacks: a button inside the top fragment (the parent of the ticking
    live fragment) is disabled while a tick runs, and a playing tick is nearly always running.
    """
    playing = bool(st.session_state.get(tr.PLAYING, False))
    st.session_state[tr.SHOWN_PLAYING] = playing   # drawn by whole-page runs only (see trainer_live.tick)
    bar = st.container(horizontal=True, vertical_alignment="bottom")
    # Two buttons, each with its own key and its own fixed value: Streamlit 1.67 may replay a click that
    # landed during a tick in the next whole-page run, with the callback's arguments of that run. One key
    # whose argument flips (Play/Pause) then turned a replayed Pause into Play again.
    if playing:
        bar.button("Pause", key="trainer_pause", type="primary", on_click=_set_playing, args=(False,),
                   icon=":material/pause:", width="stretch", help="Stop training; the network keeps its weights.")
    else:
        bar.button("Play", key="trainer_play", type="primary", on_click=_set_playing, args=(True,), disabled=held,
                   icon=":material/play_arrow:", width="stretch",
                   help="Train continuously; the maps redraw several times a second.")
    got = beside(bar) if beside is not None else None
    pace, full = settings.first(problem_now())["speed"], LINKS.value("speed") == "max"
    bar.button("Lesson pace" if full else "Full speed", key="trainer_pace", on_click=LINKS.set,
               args=("speed", pace if full else "max"),
               icon=":material/slow_motion_video:" if full else ":material/fast_forward:", width="stretch",
               help=f"Back to {pace} epochs a redraw, a pace a class can watch." if full else
                    "As many epochs as fit between two redraws: the engine's full speed.")
    for k in (1, 10, 100):
        bar.button("Step" if k == 1 else f"+{k}", key=f"trainer_step_{k}", width="stretch", on_click=_step,
                   args=(k,), help=f"Train {k} epoch{'s' if k > 1 else ''} and stop.",
                   icon=":material/skip_next:" if k == 1 else None, disabled=held)
    # Paused by the teacher: no training at all, and nothing trained is thrown away until they resume.
    bar.button("Reset", key="trainer_reset", icon=":material/restart_alt:", width="stretch", on_click=_reset,
               help="Back to epoch 0 and the starting weights of this seed.", disabled=held)
    return got


def _step(k: int) -> None:
    run = st.session_state.get(tr.RUN)
    if run is not None:
        tr.advance(run, k)


def _reset() -> None:
    run = st.session_state.get(tr.RUN)
    if run is not None:
        tr.reset(run)


def loaded_notes(run: tr.Run, spec: tr.Spec) -> None:
    """Over the maps: weights from the link (`w=`) or a file, loaded into the run, or one line saying why
    they were not (nothing loaded; the network is as it was)."""
    weights_error = tr.apply_link_weights(run, LINKS.value("w"))
    pending = st.session_state.pop(tr.IMPORT, None)
    if weights_error:
        LINKS.note("w", f"Ignored the weights in the link (`w=`): {weights_error}; nothing was loaded.")
    LINKS.show_note("w")
    if pending:
        try:
            tr.load_file(run, spec, pending["name"], pending["d"], pending["cfg"])
        except Exception as err:   # checked already: anything here is one line, and the run is as it was
            why = str(err) if isinstance(err, ValueError) else type(err).__name__
            st.error(f"Could not load {as_text(pending['name'][:80])}: {as_text(why[:300])}. Nothing was "
                     "loaded.", icon=":material/error:")
    if run.loaded:
        st.caption(f":material/link: {run.loaded}")   # its file name escaped by tr.load_file


def twin_note(where, run: tr.Run, spec: tr.Spec, twin_on: bool, twin_diff: dict) -> None:
    """Under the twin's switch: why there is no twin, or where it starts from."""
    if twin_on and not spec.twin:
        if not spec.hidden and twin_diff == {"hidden": ()}:
            where.caption(":material/info: Your network has no hidden layer, so it is its own twin: give it "
                          "hidden units (for example 8) to compare.")
        else:
            where.caption(":material/info: The twin is set exactly like your network: choose a difference.")
    elif run.twin is not None:
        where.caption(f":material/compare_arrows: The twin starts from {run.twin.start_note}.")


def import_weights(spec: tr.Spec) -> None:
    """An uploader for a weights file this page exported: checked, then the page follows its settings
    (a full rerun) and the run continues from its weights; a one-line message and nothing loaded if not."""
    slot = st.session_state.setdefault(tr.IMPORT_SLOT, 0)
    up = st.file_uploader("Load weights (JSON)", type=["json"], key=f"trainer_weights_{slot}",
                          help="A file from \"Download the weights\": the network, its settings and its epoch. "
                               "The layers, bend, optimiser and penalties here follow the file.")
    if up is None:
        return
    try:
        d, cfg = check_file(up.getvalue(), spec)
    except ValueError as err:   # the file's name and what it holds are the student's text: never Markdown
        st.error(f"Could not load {as_text(up.name[:80])}: {as_text(str(err)[:300])}. Nothing was loaded; "
                 "the network is as it was.", icon=":material/error:")
        return
    st.session_state[tr.IMPORT] = {"name": up.name, "d": d, "cfg": cfg, "set": False}
    st.session_state[tr.IMPORT_SLOT] = slot + 1
    state.rerun_page("a weights file is waiting to be loaded")


def follow_file() -> None:
    """Before any control is drawn: the page's settings take a pending file's (see import_weights)."""
    pending = st.session_state.get(tr.IMPORT)
    if pending and not pending["set"]:
        for key in settings.keys(file=True):
            value = getattr(pending["cfg"], key)
            LINKS.set(key, tuple(value) if isinstance(value, list) else value)
        pending["set"] = True


def share(run: tr.Run, values: dict, problem: str = "classify", spec: tr.Spec | None = None) -> None:
    with st.container(border=True):
        st.markdown("**Share and export**")
        size = tr.n_params(run)
        link = share_link(run, values)
        if link is not None:
            st.caption("This page's link with every setting and the trained weights: a class opens exactly "
                       "this network.")
            show_link(link)   # in the room view its short form: no one reads 1,500 characters off a screen
            if address.reachable(address.page_url())[1]:
                host = address.network_ip()
                st.caption(":material/lan: " + address.LOOPBACK_NOTE.format(host=host))
            st.caption(f"This network has {fmt.count(size)} parameters; links carry up to "
                       f"{fmt.count(MAX_LINK_PARAMS)}.")
        else:
            st.info(f"This network has {fmt.count(size)} parameters, more than the {fmt.count(MAX_LINK_PARAMS)} "
                    "a link can carry: download the weights instead.", icon=":material/info:")
        # Deferred (a callable): the file is made when it is asked for, not on every rerun.
        st.download_button("Download the weights (JSON)", lambda: json.dumps(run.trainer.to_dict(), indent=1),
                           "layer-lab-network.json", "application/json", icon=":material/download:",
                           help="The configuration, the epoch and every weight matrix with its shape.",
                           width="stretch")
        if spec is not None:
            import_weights(spec)
        d = run.data
        st.download_button("Download the points (CSV)",
                           lambda: points_csv(np.vstack([d.Xtr, d.Xte]), np.concatenate([d.ytr, d.yte]),
                                              problem),
                           "layer-lab-points.csv", "text/csv", icon=":material/download:", width="stretch",
                           help=f"Every point of this run, train and test, as {columns_for(problem)}.")



def units_now() -> tuple[int, int]:
    """The warp view's units as its box holds them now: the box is parsed in the view, drawn after the
    share link."""
    try:
        return parse_units(st.session_state["wunits"])
    except (KeyError, ValueError):
        return LINKS.value("wunits")

def hand_points(problem: str, k: int, limit: float, curve: bool) -> tuple:
    """The points placed by hand, from the link (`pts`), checked for this page; a link whose points do
    not fit (another problem type, a class out of range, outside the plane) is dropped with a note."""
    raw = LINKS.value("pts") or ""
    try:
        P = decode_hand(raw, problem, classes_of(problem, k), limit, curve)
    except ValueError as err:
        LINKS.note("pts", f"Ignored the points placed by hand (`pts={raw[:40]}`): {err}; using none.", "")
        LINKS.set("pts", "")
        P = np.zeros((0, 2 if curve else 3))
    return tuple(tuple(float(v) for v in row) for row in P)


def below_inputs(own: tr.OwnData | None) -> tuple:
    """The controls that the sections below the top depend on, as they stand before the top is drawn (the
    layers too: a new network is a new run, so the top would ask for the whole page after drawing itself)."""
    problem, _, first = _problem_and_sets()
    dataset = LINKS.value("dataset", default=first)
    keys = ("k", "n", "noise", "train", "seed", "feat", "hidden", "act", "pts", "only")
    return (own.digest if own else None, problem, dataset,
            LINKS.value("cells") if dataset == "checkerboard" else None, *(LINKS.value(k) for k in keys))


# --- the one hand-off: what the controls say, as one frozen run spec -----------------------------------------
@dataclass(frozen=True)
class Choice:
    """What the controls say: the run (one frozen spec, passed down the page) and how to draw its plane."""

    spec: tr.Spec     # the run asked for, points placed by hand included
    limit: float      # the half-width of its square
    curve: bool       # a curve fit (one input), not a plane
    twin_on: bool     # the twin's switch (spec.twin also needs a difference to train one)


def choose(own: tr.OwnData | None, locked: dict | None, data_col, net_col, twin_col) -> Choice:
    """Draw the data's, the network's and the twin's controls into their columns; what they say. Nothing
    reads the controls back from the session: the page passes the spec down."""
    with data_col:
        data = data_controls(own, locked)
    with net_col:
        net = network_controls()
    with twin_col:
        twin_on = bool(LINKS.widget("twin"))
        twin_diff = twin_controls() if twin_on else {"hidden": ()}
    own, only = data.pop("own"), data.pop("only")
    curve = own.X.shape[1] == 1 if own is not None else dims(data["problem"], data["dataset"]) == 1
    limit = limit_for(own.X if own is not None and not only else np.zeros((0, 2)))
    hand = hand_points(data["problem"], data["k"], limit, curve)
    spec = tr.Spec(**data, **net, twin=False, own=own, twin_diff=twin_diff, hand=hand, only=only)
    return Choice(replace(spec, twin=twin_on and spec.twin_differs()), limit, curve, twin_on)


def link_values(spec: tr.Spec, *, twin_on: bool, speed: str, discrete: bool) -> dict:
    """Every setting the share link writes: the spec's, the twin's differences and the views'."""
    per = {key: settings.BY_KEY[key].per for key in settings.keys(spec=True)}
    return {**{key: getattr(spec, key) if p == 1 else round(getattr(spec, key) * p) for key, p in per.items()},
            **{("thidden" if key == "hidden" else f"t{key}"): v for key, v in spec.twin_diff.items()},
            "speed": speed, "twin": twin_on, "discrete": discrete, "bend": LINKS.value("bend"),
            "wlayer": LINKS.value("wlayer"), "wunits": units_now(), "view": LINKS.value("view"),
            "pts": encode_hand(spec.hand),
            "cells": spec.cells if spec.cells is not None else LINKS["cells"].default}

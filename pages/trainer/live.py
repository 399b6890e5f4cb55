"""The trainer's live part, piece by piece: a tick's training, the maps (the network's and its twin's), the
numbers, the loss curves and the words under them. pages/trainer.py's `live` fragment lays them out and
runs on every tick while playing, so each piece keeps what it built (pages/trainer/charts.py's live figures, the
maps by weights) and redoes only what changed.
"""

from __future__ import annotations

import numpy as np
import streamlit as st

from classroom import seats
from engine import fairshare
from lib.maps import RES, boundary_cells, curve_fit, labels_of, prediction_map, shading, value_span
from pages.trainer import announce, picking
from pages.trainer import charts as tc
from pages.trainer import run as tr
from pages.trainer.links import ACTS, CURVE_CAPTION, LINKS, PROBLEM_UI, twin_title
from ui import charts, fmt, room, state

H_MAP, H_CURVES = 450, 400   # live chart heights (px): a map about 380 px square at 1366 px, 340 on a phone
H_MAP_ROOM = 430              # the room view's maps: whole, the numbers beside them, on a 1366 x 768 screen
CURVE_RES = 240              # points along a curve fit's axis


# A curve fit's chart (its points and curve over each unit's ramps, its legend under them): in the room
# view it fills its column down to a 1366 x 768 screen's edge (issue 43 item 9: its curve was 170 px high).
H_CURVE, H_CURVE_ROOM = H_MAP + 60, 540


def map_height() -> int:
    return H_MAP_ROOM if room.on() else H_MAP


def curve_height() -> int:
    return H_CURVE_ROOM if room.on() else H_CURVE


def tick(run: tr.Run, speed: int | None):
    """A playing tick's training: this session's turn (engine.fairshare), then a chunk of epochs; the
    plan it trained by, or None when not playing. Stops Play (a whole-page rerun, so the button turns back
    into Play) when the teacher paused the class or training diverged."""
    share_key = fairshare.session_key()
    ch = st.session_state.get(tr.CHALLENGE)
    playing = bool(st.session_state.get(tr.PLAYING))
    if playing and seats.paused(ch):   # the teacher paused the class: Play stops, the page says why
        stop_playing(share_key)
    seats.here(ch, playing)
    if not playing:
        if st.session_state.get(tr.SHOWN_PLAYING):
            # Paused, but the page still shows Pause and its timer still ticks: Streamlit ran Pause's
            # callback inside a tick and the whole-page rerun that click asked for never came (1 click in
            # about 20 while playing, Streamlit 1.67). Ask for it again (on every such tick until it comes:
            # the whole-page run draws Play and clears the flag).
            state.rerun_page("Pause was pressed during a tick: draw Play")
        return None
    plan = fairshare.start(share_key, speed)   # waits for this session's turn
    tr.advance(run, speed, budget=plan.budget)
    if run.trainer.diverged:
        stop_playing(share_key)
    return plan


def stop_playing(share_key: str) -> None:
    st.session_state[tr.PLAYING] = False
    fairshare.leave(share_key)
    state.rerun_page("Play stopped: the button turns back into Play")


def is_curve(run: tr.Run) -> bool:
    """A 1-D fit (one input column): drawn as points and a curve, not over the plane."""
    return run.data.Xtr.shape[1] == 1


def net_title(spec: tr.Spec) -> str:
    if not spec.hidden:
        return "No hidden layer"
    return f"{fmt.layers(spec.hidden)} · {ACTS[spec.act]}"


def span(d: tr.Data) -> float:
    return value_span(np.concatenate([d.ytr, d.yte]))


def raw_map(spec: tr.Spec, t, act: str, d: tr.Data) -> np.ndarray:
    """What network `t` predicts over the square with bend `act` (lib.maps.prediction_map), kept for the
    weights it was made from: the live map, its twin and the bend's pictures below read the same few maps,
    so each is computed once."""
    store = st.session_state.setdefault(tr.FIGURES, {}).setdefault("maps", {})
    want = (spec.problem, spec.feat, d.limit, act, tuple(t.sizes), t.flat.tobytes())
    if want not in store:
        if len(store) >= 6:
            store.pop(next(iter(store)))
        store[want] = prediction_map(spec.head, t.params, spec.feat, d.limit, act, RES)
    return store[want]


def plane(spec: tr.Spec, t, act: str, d: tr.Data, discrete: bool) -> np.ndarray:
    """The shading's numbers in [0, 1] over the square for this problem type (res, res), for network `t`."""
    return shading(spec.head, raw_map(spec, t, act, d), discrete, span(d) if spec.head == "linear" else 1.0)


def edge_cells(spec: tr.Spec, t, act: str, d: tr.Data) -> np.ndarray | None:
    """A map's boundary cells (a dark line of cells where the class changes), None for values: the live
    maps' and the Bend view's."""
    if spec.head == "linear":
        return None
    return boundary_cells(labels_of(raw_map(spec, t, act, d)))


def look(spec: tr.Spec, d: tr.Data) -> dict:
    """How the plane is coloured for this problem type: boundary_figure's scale, k, span and hover."""
    if spec.head == "softmax":
        return dict(scale=tc.shading_for("classes", spec.k), k=spec.k, hover="class + sureness")
    if spec.head == "linear":
        return dict(scale=tc.VALUE_SHADING, span=span(d), hover="shade")
    return {}


def legend(spec: tr.Spec, d: tr.Data, discrete: bool) -> str:
    if spec.problem == "classify":
        return tc.legend_html()
    return tc.legend_html(spec.problem, spec.k, span(d), discrete)


def curve_chart(spec: tr.Spec, run: tr.Run, act: str | None = None, title: str | None = None,
                twin: bool = True):
    """The 1-D fit: the points, the network's curve (and its twin's), each unit's ramp under it."""
    d, t = run.data, run.trainer
    x = np.linspace(-d.limit, d.limit, CURVE_RES)
    y, parts, _ = curve_fit(t.params, spec.feat, x, act or spec.act)   # the bias is in y already
    fits = [(net_title(spec) if act is None else f"bend {ACTS[act]}", y, tc.MAIN_COLOR)]
    if twin and run.twin is not None:
        fits.insert(0, (twin_title(spec), curve_fit(run.twin.params, spec.feat, x, run.twin.cfg.act)[0],
                        tc.TWIN_COLOR))
    return tc.curve_figure(x, fits, d, parts=parts, title=title, height=curve_height(), room=room.on())


def maps(spec: tr.Spec, run: tr.Run, figs: dict, cols, discrete: bool) -> None:
    """The network's map (or curve) in the first column, with what a click on it adds under it; the
    twin's map in the second when they sit side by side, and the legend under both."""
    d, t = run.data, run.trainer
    xs = np.linspace(-d.limit, d.limit, RES)
    curve = is_curve(run)
    h = H_MAP if curve else map_height()   # a curve fit keeps its height: its ramps' axis needs it
    slot = cols[0].container(height=(curve_height() if curve else h) + 12, border=False)
    with cols[0]:  # under the map: what a click on it adds (drawn first: the map needs to know)
        LINKS.show_note("pts", LINKS.value("pts") or "")
        adding = picking.controls(LINKS, spec.problem, spec.k, d.limit, curve, d.hand)
    click = picking.on_click("trainer_pick_map", LINKS) if adding else None
    with slot:
        if curve:
            charts.show(picking.curve(curve_chart(spec, run), d, adding),
                        key="trainer_pick_map" if adding else "trainer_curvefit", on_click=click)
        else:
            base = tc.live_boundary(figs, "boundary", run.sig, xs, xs, plane(spec, t, spec.act, d, discrete), d,
                                    title=net_title(spec), height=h, edge=edge_cells(spec, t, spec.act, d),
                                    **look(spec, d))
            charts.show(picking.plane(figs, "boundary.hand", base, d, adding), live=True,
                        key="trainer_pick_map" if adding else "trainer_boundary", on_click=click)
    if run.twin is not None and not curve:
        with cols[1], st.container(height=h + 12, border=False):
            twin = run.twin
            base = tc.live_boundary(figs, "twin", run.sig, xs, xs, plane(spec, twin, twin.cfg.act, d, discrete),
                                    d, title=twin_title(spec), height=h,
                                    edge=edge_cells(spec, twin, twin.cfg.act, d), **look(spec, d))
            charts.show(picking.plane(figs, "twin.hand", base, d, None), live=True, key="trainer_boundary_twin")
        st.html(legend(spec, d, discrete))


def _pct(v: float) -> str:
    return fmt.pct(v) if np.isfinite(v) else "none"   # no test points (only points placed by hand)


def _r2(v: float) -> str:
    return fmt.fixed(v, 3) if np.isfinite(v) else "none"


def numbers(spec: tr.Spec, run: tr.Run, m: dict) -> None:
    """Epoch, loss and the two scores (accuracy, or R² for values), four across or two by two; the twin's
    scores in one line under them."""
    c = st.container(horizontal=True)  # four across, or two by two beside a lone map and on a phone
    w = "content" if room.on() else 125   # the room's larger text: a fixed width cut "Train accur…"
    c.metric("Epoch", fmt.count(m["epoch"]), width=w)
    if spec.head == "linear":
        c.metric("Loss", fmt.fixed(m["train_loss"], 3), width=w,
                 help="Mean squared error on the training points (plus the L1 and L2 penalties).")
        c.metric("Train R²", _r2(m["train_r2"]), width=w,
                 help="1 − (squared error) / (spread of the values): 1 is a perfect fit, 0 no better than "
                      "their mean, below 0 worse than it.")
        c.metric("Test R²", _r2(m["test_r2"]), width=w,
                 help="On the points the network never trains on (none: every point is a training point).")
        c.metric("Test mean absolute error", _r2(m["test_mae"]), width=w if room.on() else 190,
                 help="The average distance between the network's value and the point's, on the test points.")
    else:
        c.metric("Loss", fmt.fixed(m["train_loss"], 3), width=w,
                 help="Mean cross-entropy on the training points (plus the L1 and L2 penalties).")
        c.metric("Train accuracy", _pct(m["train_acc"]), width=w)
        c.metric("Test accuracy", _pct(m["test_acc"]), width=w,
                 help="On the points the network never trains on (none: every point is a training point).")
    if spec.head == "linear" and np.isfinite(m["train_r2"]) and m["train_r2"] < 0:
        # issue 34: "Train R² −14.48" at epoch 0 reads as a broken number without this word
        st.caption(f"R² below 0 ({_r2(m['train_r2'])}): the network's curve is further from the points than a "
                   "flat line at their mean would be. It has not learned yet; training brings R² up towards 1.")
    playing = bool(st.session_state.get(tr.PLAYING))
    # the same numbers for a screen reader, at most every few seconds while playing (announce.py)
    announce.say(lambda: spoken(spec, run, m, playing), "trainer_progress", every=announce.EVERY if playing else 0.0,
                 swaps=(("trainer_play", "trainer_pause"), ("trainer_pause", "trainer_play")))
    if run.twin is not None:
        m0 = run.twin.metrics()
        who = twin_title(spec)
        if spec.head == "linear":
            st.caption(f"{who}: Train R² {_r2(m0['train_r2'])} · test {_r2(m0['test_r2'])}")
        else:
            st.caption(f"{who}: Train accuracy {_pct(m0['train_acc'])} · test {_pct(m0['test_acc'])}")


def progress(spec: tr.Spec, m: dict, playing: bool) -> str:
    """What the live region says: "Training: epoch 1,200, test accuracy 94 %, loss 0.052." """
    score = (f"test R² {_r2(m['test_r2'])}" if spec.head == "linear" else f"test accuracy {_pct(m['test_acc'])}")
    return (f"{'Training' if playing else 'Stopped'}: epoch {fmt.count(m['epoch'])}, {score}, "
            f"loss {fmt.fixed(m['train_loss'], 3)}.")


def spoken(spec: tr.Spec, run: tr.Run, m: dict, playing: bool) -> str:
    """The live region's words: the progress, then the boundary's shape (a classifier's map only; all of it
    once training stops, what each class holds while it plays)."""
    if spec.head == "linear" or is_curve(run):
        return progress(spec, m, playing)
    t = run.trainer
    figs = st.session_state.setdefault(tr.FIGURES, {})   # the same weights say the same words: kept
    words = tr.memo(figs, "words", (tr.weights_key(run), spec.act, playing), lambda: announce.boundary(
        raw_map(spec, t, spec.act, run.data), run.data, t.predict, brief=playing))
    return progress(spec, m, playing) + " " + words


def summary(spec: tr.Spec, m: dict) -> str:
    """The maps' and curves' answer in one line of words (issue 35 item 2): "Test accuracy 96 % after
    340 epochs (train accuracy 98 %, loss 0.052)"."""
    epochs = fmt.count(m["epoch"]) + (" epoch" if m["epoch"] == 1 else " epochs")
    if spec.head == "linear":
        return (f"Test R² {_r2(m['test_r2'])} after {epochs} (train R² {_r2(m['train_r2'])}, "
                f"loss {fmt.fixed(m['train_loss'], 3)}).")
    shade = "the network's P(class 1)" if spec.problem == "classify" else "the class the network picks"
    return (f"Test accuracy {_pct(m['test_acc'])} after {epochs} (train accuracy {_pct(m['train_acc'])}, "
            f"loss {fmt.fixed(m['train_loss'], 3)}): the map shades the plane by {shade}.")


CURVE_ROWS = 8   # epochs in the curves' table: spread as the log epoch axis spreads them


def curve_table(t) -> tuple[list[str], list[list[str]]]:
    """The curves' numbers at a few epochs (the first, the last, and between them evenly on the log axis):
    (columns, rows), written by ui.fmt."""
    h = t.history
    epochs = np.asarray(h["epoch"], dtype=float)                                     # (n,)
    want = np.geomspace(max(epochs[0], 1.0), max(epochs[-1], 1.0), CURVE_ROWS)
    idx = sorted({0, len(epochs) - 1, *np.searchsorted(epochs, want).clip(0, len(epochs) - 1).tolist()})
    second, write = ("acc", _pct) if "train_acc" in h else ("r2", _r2)
    name = "accuracy" if second == "acc" else "R²"
    columns = ["epoch", "train loss", "test loss", f"train {name}", f"test {name}"]
    def loss(v):
        return fmt.fixed(v, 3) if np.isfinite(v) else "none"
    rows = [[fmt.count(epochs[i]), loss(h["train_loss"][i]), loss(h["test_loss"][i]),
             write(h[f"train_{second}"][i]), write(h[f"test_{second}"][i])] for i in idx]
    return columns, rows


def curves(spec: tr.Spec, run: tr.Run, figs: dict) -> None:
    """The loss and score curves, the network's and its twin's; while playing they are redrawn at most
    once every tr.CURVES_HOLD seconds (a step or reset shows at once)."""
    t = run.trainer
    # the answer in words, above the curves: under both maps with a twin, so the maps keep their place on
    # a phone's first screens
    st.caption(summary(spec, t.metrics()))
    hold = tr.CURVES_HOLD if st.session_state.get(tr.PLAYING) else 0.0
    name = twin_title(spec)
    name = name[0].lower() + name[1:] if name == "No hidden layer" else name.lower()
    shape = (name, run.twin is not None, spec.head, H_CURVES)
    held = tc.held_curves(figs, "curves", hold, shape)
    # A frame only when there are curves to draw (at epoch 0 pandas would cost a millisecond or two).
    history = () if held is not None else (tr.finite_history(t) if len(t.history["epoch"]) >= 2 else ())
    if held is None and len(history) < 2:
        what = "R²" if spec.head == "linear" else "accuracy"
        st.markdown(f":material/show_chart: The loss and {what} curves start with the first epoch: "
                    "press **Play** or **Step**.")
        return
    twin = tr.finite_history(run.twin) if run.twin is not None and held is None else None
    with st.container(height=H_CURVES + 12, border=False):
        fig = held if held is not None else tc.live_curves(
            figs, "curves", history, twin, height=H_CURVES, hold=hold, twin_name=name, shape=shape)
        charts.show(fig, live=True, key="trainer_curves")
    columns, rows = curve_table(t)
    with st.expander(charts.NUMBERS):
        st.markdown(charts.text_table(columns, rows))


def describe(spec: tr.Spec, run: tr.Run, plan) -> None:
    """Under the live part: while playing, the pace and the redraws measured; else what the picture shows."""
    rate = st.session_state.setdefault("trainer_clock", tr.Clock()).tick(run.trainer.epoch)
    if plan is not None:
        fairshare.finish(fairshare.session_key())  # this tick's measured cost sets this session's next interval
        st.caption(":material/speed: " + plan.describe(rate[0] if rate else None)
                   + (f" Measured here: {fmt.fixed(rate[1], 1)} redraws a second." if rate else ""))
    elif is_curve(run):
        st.caption(CURVE_CAPTION)
    else:
        st.caption(PROBLEM_UI[spec.problem].shading.format(k=spec.k))


def empty_plane(spec: tr.Spec, limit: float, curve: bool) -> None:
    """"Only my points" with none placed yet: the empty plane (or a curve's empty axes) to click on."""
    dim = 1 if curve else 2
    empty = tr.Data(np.zeros((0, dim)), np.zeros(0), np.zeros((0, dim)), np.zeros(0), np.zeros((0, 0)),
                    np.zeros((0, 0)), limit)
    adding = picking.controls(LINKS, spec.problem, spec.k, limit, curve, 0)
    LINKS.show_note("pts", "")
    st.markdown(":material/ads_click: **An empty plane.** Choose what a click adds above, then click where the "
                "points should be; the network starts learning from your first point.")
    if curve:
        fig = picking.curve(picking.empty_curve(limit, H_MAP), empty, adding or "a point at the value you click")
    else:
        xs = np.linspace(-limit, limit, RES)
        P = np.full((RES, RES), 0.5)
        look_ = look(spec, empty) if spec.head != "linear" else dict(scale=tc.VALUE_SHADING, span=1.0)
        base = tc.live_boundary(st.session_state.setdefault(tr.FIGURES, {}), "empty", ("empty", limit), xs, xs,
                                P, empty, title="Your points", height=H_MAP, **look_)
        fig = picking.plane({}, "empty.hand", base, empty, adding or "a point")
    charts.show(fig, live=True, key="trainer_pick_map" if adding else "trainer_empty_map",
                on_click=picking.on_click("trainer_pick_map", LINKS) if adding else None)


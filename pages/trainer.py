"""The live trainer: watch a bend learn a boundary that no straight line can draw.

Sections: the live part (boundary maps, Play, metrics, curves) beside the controls; then one tab at a
time (`view=`): the bend switched on and off, inside the network (diagram, unit maps, linear regions),
right and wrong class by class, the code. The top (controls and live part) is one fragment: a control
reruns it alone, and it asks for a full rerun only when the pictures below depend on what changed (the
data, the layers, the bend, the weights after a Step, Play or Pause). The live part inside it is the
fragment that ticks while playing; the open tab ticks too, at a lower rate (run.SLOW_TICK). Only
the open tab runs (Streamlit's lazy tabs), so a data move computes and sends one tab's pictures.

Where the rest lives, in pages/trainer/: the links, their parsers and each problem type's words and
first network in links.py; the controls (one frozen run spec) and the share box in controls.py; the live
part's pieces in live.py; the tabs' pieces in views.py; the run itself in run.py; the figures in
charts.py (the live part's) and inside_charts.py (the tabs'); the points placed by hand in picking.py.
The maths is lib/'s; a student in a class is the class room's (classroom/).
"""

import numpy as np
import streamlit as st

import engine.preload  # noqa: F401  (first: every module imported once before any page runs)
from classroom import seats, submit
from engine import fairshare
from lib import answers, asks
from lib.features import FEATURES
from lib.maps import RES, UNIT_RES, collapse, confusion, fold_lines, plane_inputs
from lib.mlp import follow, forward, loss_and_grads, point_losses
from lib.regions import line_in_box
from lib.warp import grid_lines, warp
from pages.trainer import charts as tc
from pages.trainer import controls as ctl
from pages.trainer import inside_charts as ic
from pages.trainer import listen, picking
from pages.trainer import live as lv
from pages.trainer import run as tr
from pages.trainer import views as tv
from pages.trainer.links import ACTS, LINKS, PROBLEM_UI, WORST, parse_speed, problem_now, slider, view_tabs
from ui import charts, fmt, room, state, tables
from ui.source import show_source

# What a lesson can ask about this page (lib/asks.py), beside its LINKS (pages/trainer/links.py).
EPOCHS = asks.Param("epochs", "epochs", answers.EPOCHS, 1, 5_000)
ASKS = asks.declare(
    asks.Ask("accuracy", "What accuracy on the test points does the network reach after {epochs} epochs?",
             "number", answers.trainer_accuracy, unit="%", tolerance=5.0, params=(EPOCHS,)),
    asks.Ask("train_accuracy", "What accuracy on the training points does the network reach after {epochs} "
             "epochs?", "number", answers.trainer_train_accuracy, unit="%", tolerance=5.0, params=(EPOCHS,)),
    asks.Ask("line", "Can one straight line split the two classes, every point on its own side?", "choice",
             answers.line_splits, choices=asks.YES_NO),
    asks.Ask("diverges", "Does training at this learning rate blow up (its loss stops being a number) within "
             "{epochs} epochs?", "choice", answers.trainer_diverges, choices=asks.YES_NO, params=(EPOCHS,)),
)
FULL = "trainer_full_run"    # session flag: True while the whole page is running (not a fragment)
VIEW = "trainer_view"        # what the sections below the top were last drawn for
BELOW = "trainer_below"      # the controls they depend on, when they were drawn


# --- the top: the live part, the controls under it ---------------------------------------------------------
def top() -> tr.Spec | None:
    """Play and the live maps first, at the page's full width; the controls right under them in three
    columns (one under the other on a phone). The run's spec, for the sections below (None: "only my
    points" with none placed yet)."""
    own: tr.OwnData | None = st.session_state.get(tr.OWN)
    ctl.follow_file()
    if not st.session_state.get(FULL) and ctl.below_inputs(own) != st.session_state.get(BELOW):
        state.rerun_page("a control the sections below depend on moved: skip straight to the page")
    bar, box = st.container(), st.container()
    knobs = st.columns([3, 2], vertical_alignment="top")
    data_col, net_col, share_col = st.columns(3, gap="medium")
    ch: seats.Challenge | None = st.session_state.get(tr.CHALLENGE)
    choice = ctl.choose(None if ch else own, ch.problem if ch else None, data_col, net_col, knobs[1])
    spec = choice.spec
    with knobs[0]:
        speed_text = slider("speed")
    with knobs[1]:   # a curve fit has no shading to discretise (issue 34)
        discrete = False if choice.curve else LINKS.widget("discrete")
    picking.moved()  # this run draws the points as they are now
    if spec.only and not spec.hand:  # an empty plane: nothing to train yet
        with box:
            lv.empty_plane(spec, choice.limit, choice.curve)
        share_col.caption(":material/link: The share link and the downloads come with your first point.")
        st.session_state["trainer_spec"] = None
        st.session_state.pop(tr.RUN, None)   # Step and Play have nothing to train
        st.session_state[tr.PLAYING] = False
        _settle(("empty", spec.data_sig()), spec.own)
        return None
    run = tr.get_run(spec)
    with bar:
        ctl.loaded_notes(run, spec)
    playing = bool(st.session_state.get(tr.PLAYING, False))
    with box:
        # While playing the browser's timer is short and engine.fairshare paces the ticks: each waits for
        # its turn, so the process's playing sessions share a budget and slider moves go first.
        st.fragment(live, run_every=fairshare.TIMER if playing else None)(spec, parse_speed(speed_text),
                                                                         discrete)
    ctl.twin_note(knobs[1], run, spec, choice.twin_on, spec.twin_diff)
    with share_col:
        ctl.share(run, ctl.link_values(spec, twin_on=choice.twin_on, speed=speed_text, discrete=bool(discrete)),
                  spec.problem, spec)
    st.session_state["trainer_spec"] = spec   # for /class: a teacher's Start takes the data of this view
    _settle((run.sig, spec.act, playing, None if playing else tr.weights_key(run)), spec.own)
    return spec


def _settle(view: tuple, own: tr.OwnData | None) -> None:
    """After the top: remember what the sections below were drawn for, or rerun the page when they show
    something that changed."""
    if st.session_state.get(FULL):
        st.session_state[VIEW] = view
        st.session_state[BELOW] = ctl.below_inputs(own)
    elif st.session_state.get(VIEW) != view:
        state.rerun_page("the sections below show what changed")


def live(spec: tr.Spec, speed: int | None, discrete: bool = False) -> None:
    """The live part: the boundary maps first, then the numbers and the curves (a fragment that
    trains a chunk on every tick while playing)."""
    if picking.moved():
        state.rerun_page("a click placed or removed a point: the data changed")
    run: tr.Run = st.session_state[tr.RUN]
    figs = st.session_state.setdefault(tr.FIGURES, {})
    plan = lv.tick(run, speed)
    if run.trainer.diverged:
        st.error(f"Training stopped: {run.trainer.diverged}. Lower the learning rate, then press Reset.",
                 icon=":material/warning:")
        st.button("Reset", key="trainer_reset_diverged", on_click=tr.reset, args=(run,),
                  icon=":material/restart_alt:", help="Back to epoch 0 and the starting weights.")
    # Twin: the numbers first, then the two maps side by side (stacked on a phone) and the curves under
    # them, so the room sees the epoch, loss and accuracy beside what they measure on the first screen.
    # Alone: the map, and the numbers and curves beside it. A curve fit: one chart with both curves, the
    # numbers beside it.
    side_by_side = run.twin is not None and not lv.is_curve(run)
    if side_by_side and room.on():   # a projector's 1366 x 768: the numbers in a column of their own
        numbers, *maps = st.columns([1, 2, 2], gap="medium")   # beside maps that use the width
    else:
        numbers = st.container() if side_by_side else None
        maps = st.columns(2, gap="medium")
    lv.maps(spec, run, figs, maps, discrete)
    with numbers if side_by_side else maps[1]:
        lv.numbers(spec, run, run.trainer.metrics())
    with maps[1] if not side_by_side else st.container():
        lv.curves(spec, run, figs)
    if not side_by_side and not lv.is_curve(run):
        st.html(lv.legend(spec, run.data, discrete))
    lv.describe(spec, run, plan)


# --- the sections below -----------------------------------------------------------------------------------
def bend_switch(spec: tr.Spec) -> None:
    """The trained weights redrawn with another bend: the bend on and off."""
    st.markdown(
        "Take the network as it is trained now and swap its bend **without touching a weight**. "
        "With *identity* (no bend) every layer is linear, the layers multiply into one, "
        "and the boundary can only be one straight line. Switch back: the trained boundary returns."
    )
    if st.session_state.get(tr.PLAYING):
        st.caption(":material/pause_circle: Training is playing: these two pictures show the weights as they "
                   "were when Play was pressed; they catch up at Pause or Step.")
    bend = LINKS.widget("bend")
    run: tr.Run = st.session_state[tr.RUN]
    t, d = run.trainer, run.data
    if t.epoch == 0:   # issue 34: an untrained map has no boundary to return, beside words that promise one
        st.info("Nothing is trained yet (epoch 0): the maps below show the random starting weights. Press "
                "**+100** above, then compare the trained boundary with the same weights bent otherwise.",
                icon=":material/hourglass_empty:")
    figs = st.session_state.setdefault(tr.FIGURES, {})
    xs, ys = np.linspace(-d.limit, d.limit, RES), np.linspace(-d.limit, d.limit, RES)
    if spec.problem != "classify" or lv.is_curve(run):
        tv.bend_pictures_other(spec, run, bend, figs, xs, ys)
        return
    plain_inputs = list(spec.feat) == ["x1", "x2"]
    W, b, gap = tr.memo(figs, "collapse", tr.net_key(run), lambda: collapse(t.params, spec.feat, d.limit))
    line = None
    if plain_inputs and bend == "identity":
        line = tc.line_across(line_in_box(W[:, 0], float(b[0]), d.limit))
    key = tr.weights_key(run)
    left, right = st.columns(2)
    with left:
        charts.show(tv.cached(figs, "bend_before", (key, spec.act), lambda: tc.boundary_figure(
            xs, ys, lv.raw_map(spec, t, spec.act, d), d, title=f"As trained: {ACTS[spec.act]}", live=False,
            height=420, edge=lv.edge_cells(spec, t, spec.act, d)), shared=run.hand),
            key="trainer_bend_before")
    with right:
        charts.show(tv.cached(figs, "bend_after", (key, bend), lambda: tc.boundary_figure(
            xs, ys, lv.raw_map(spec, t, bend, d), d, title=f"Same weights: {ACTS[bend]}", live=False,
            height=420, line=line, edge=lv.edge_cells(spec, t, bend, d)), shared=run.hand),
            key="trainer_bend_after")
    if bend == "identity":
        tv.collapsed_layer(spec, W, b, gap)
    elif bend == spec.act:
        st.caption("The bend it was trained with: the two pictures are the same.")


def inside(spec: tr.Spec) -> None:
    """The network diagram, every unit's map and the linear regions, from the weights now."""
    if not spec.hidden:
        st.info("This network has no hidden layer: it is one linear layer, and its boundary is one straight "
                "line. Give it hidden units (for example 8) to see them here.", icon=":material/info:")
        return
    run: tr.Run = st.session_state[tr.RUN]
    t, d = run.trainer, run.data
    figs = st.session_state.setdefault(tr.FIGURES, {})
    playing = bool(st.session_state.get(tr.PLAYING))
    in_labels = [FEATURES[f].label for f in spec.feat]
    curve = lv.is_curve(run)
    st.markdown(
        "Each first-layer unit computes one sum **w₁x₁ + w₂x₂ + b** (a tilted plane) and bends it. "
        "With ReLU that is a ramp: zero on one side of its **fold line** (dashed, where the sum is 0), "
        "rising on the other. The output adds the last layer's units, each times its weight: "
        "like tax bands, a sum of ramps."
    )
    net = tr.net_key(run)
    # While playing the diagram keeps the weights of the last full redraw (the maps below stay live).
    drawn_for = (run.sig, spec.act) if playing else (net, spec.act)
    charts.show(tv.cached(figs, "network", drawn_for, lambda: ic.network_diagram(
        t.params, in_labels, act_label=ACTS[spec.act],
        height=min(520, 140 + 26 * max(len(in_labels), *spec.hidden))),
        shared=None if playing else ()), key="trainer_network")
    st.caption("Line width grows with the size of the weight: blue positive, vermillion negative. Hover a line "
               "for its value.")
    if curve:
        st.caption(":material/info: A curve has one input, so there are no maps over the plane: each last-layer "
                   "unit's ramp is drawn under the curve at the top, and the curve is their sum.")
        return
    xs, ys, F = plane_inputs(d.limit, spec.feat, UNIT_RES)
    plain_inputs = list(spec.feat) == ["x1", "x2"]
    folds = tr.memo(figs, "folds", net, lambda: fold_lines(t.params, d.limit)) if plain_inputs else None
    layers_shown = [0] if len(spec.hidden) == 1 else [0, len(spec.hidden) - 1]
    for li in layers_shown:
        units = min(spec.hidden[li], 16)
        st.subheader(("First hidden layer" if li == 0 else "Last hidden layer")
                     + (" (the first 16 units)" if spec.hidden[li] > 16 else ""))
        # The same weights draw the same maps: a move of the points' sliders keeps them as they were.
        fig = tr.memo(figs, f"units_{li}", (net, spec.act, li, units, plain_inputs, playing),
                      lambda li=li, units=units: tv.unit_maps_figure(spec, t, d, li, units, xs, ys, folds, playing))
        charts.show(fig, key=f"trainer_units_{li}")
    below = " (ReLU never is: its maps are blue or near white)" if spec.act == "relu" else ""
    st.caption(f"Each map: the unit's output after the bend, blue above 0 and vermillion below{below}. "
               "The output's sum is every last-layer map times its out weight (\"out\"), plus a bias.")

    st.subheader("Linear regions")
    tv.regions(spec, run, figs, xs, ys, F, folds)


def warp_view(spec: tr.Spec) -> None:
    """The plane as a hidden layer sees it (ConvNetJS's view): a grid over the square and the points, drawn
    at the outputs of two units of the chosen layer, from the weights now."""
    if not spec.hidden:
        st.info("This network has no hidden layer: there is no layer to look through, only the output. Give "
                "it hidden units (for example 8) to see the plane as they see it.", icon=":material/info:")
        return
    run: tr.Run = st.session_state[tr.RUN]
    t, d = run.trainer, run.data
    curve = lv.is_curve(run)
    widths = tuple(t.sizes[1:-1])
    words, chart = st.columns([2, 3], gap="medium")
    with words:
        st.markdown("Every hidden layer moves the plane. Here a grid over the square and the points are "
                    "pushed through the layers up to the one chosen, and drawn where two of its units put "
                    "them: the first unit's output across, the second's up.")
        layer = tv.warp_layer(widths)
        if widths[layer - 1] < 2:
            st.info(f"Layer {layer} has one unit: the whole plane lands on one line. Choose a layer with two "
                    "or more units.", icon=":material/info:")
            return
        units = tv.warp_units(layer, widths[layer - 1])
    lines = (np.linspace(-d.limit, d.limit, 4 * tv.WARP_SAMPLES)[None, :, None] if curve
             else grid_lines(d.limit, tv.WARP_LINES, tv.WARP_SAMPLES))
    H = warp(t.params, spec.act, spec.feat, lines, layer, units)
    Ptr, Pte = (warp(t.params, spec.act, spec.feat, X, layer, units) for X in (d.Xtr, d.Xte))
    with words:
        if curve:
            st.markdown(f"A curve has one input, x₁: the input is a line, not a plane. This is where that line "
                        f"lands as x₁ runs from {fmt.num(-d.limit)} to {fmt.num(d.limit)}, with the points on it.")
        st.markdown(tv.warp_words(spec, t.params, layer, units, H, curve))
    look = dict(span=lv.span(d)) if spec.head == "linear" else dict(k=spec.k if spec.head == "softmax" else 2)
    with chart:
        charts.show(ic.warp_figure(H, Ptr, d.ytr, Pte, d.yte, x_title=f"unit {units[0]} of layer {layer}",
                                   y_title=f"unit {units[1]} of layer {layer}", **look), key="trainer_warp")
        lines_were = "the input line" if curve else f"a {tv.WARP_LINES} × {tv.WARP_LINES} grid of lines over the square"
        st.caption(f"Indigo: {lines_were}, after layer {layer}. Squares: the points after the same layers "
                   "(filled train, hollow test), coloured as on the map. Both axes share one scale; the dark "
                   "lines are where a unit is 0.")


def network() -> tuple[dict, dict]:
    """What Submit sends: the network as it is when pressed (Play may have moved it since the page was
    drawn), read from the session's run."""
    t = st.session_state[tr.RUN].trainer
    return t.to_dict(), submit.network_spec(t.cfg, t.epoch)


def _follow_clicked() -> None:
    points = ((st.session_state.get("trainer_follow_pick") or {}).get("selection") or {}).get("points") or []
    if points and points[0].get("point_index") is not None:
        LINKS.set("pt", str(int(points[0]["point_index"])))


def one_point(spec: tr.Spec) -> None:
    """One point, one step: a training point followed forward layer by layer (sums, bends, outputs), its
    loss, the backward pass as each unit's delta, and the step this point alone would make (lib.mlp.follow
    on the network as it stands, playing or not)."""
    run: tr.Run = st.session_state[tr.RUN]
    t, d = run.trainer, run.data
    n = len(d.ytr)
    if not n:
        st.caption(":material/touch_app: No training points yet.")
        return
    params = [(np.array(W), np.array(b)) for W, b in t.params]   # the network as it stands
    act, head = t.cfg.act, t.cfg.head
    losses = point_losses(params, d.Ftr, d.ytr, act, head)
    choice = LINKS.value("pt")
    raw = st.query_params.get("pt")
    if raw is not None and choice == WORST and raw.strip().lower() != WORST:
        LINKS.note("pt", "Ignored the point in the link (`pt=`): not `worst` or a point's number; following "
                         "the worst-fit one.")
    if choice != WORST and int(choice) >= n:
        LINKS.note("pt", f"Ignored pt={choice}: there are {fmt.count(n)} training points (0 to {n - 1}); "
                         "following the worst-fit one.")
        choice = WORST
    i = int(np.argmax(losses)) if choice == WORST else int(choice)
    LINKS.show_note("pt")
    left, right = st.columns([2, 3], gap="medium")
    with left:
        charts.show(ic.follow_pick_figure(d, i, spec.problem), key="trainer_follow_pick",
                    on_click=_follow_clicked)
        st.caption(f"Point {i}" + (" (the worst fit now)" if choice == WORST else "")
                   + ": click another training point to follow it.")
        st.button("Follow the worst-fit point", key="trainer_follow_worst", on_click=LINKS.set,
                  args=("pt", WORST), disabled=choice == WORST, icon=":material/target:",
                  help="The training point with the largest loss under the network as it is now.")
    got = follow(params, d.Ftr[i], d.ytr[i], act, head)
    with right:
        tv.followed_point(spec, d, i, got, act, head)
    st.markdown(tv.step_words(params, got, t.cfg.lr, t.cfg.opt))
    st.caption("A batch's step is the average of these, point by point: the points' deltas add up to the "
               "batch's gradient.")


def mistakes(spec: tr.Spec) -> None:
    """The confusion matrix on the training and the test points: which class is taken for which
    (`spec` is the fragment's argument, as for the other views; the run is the session's)."""
    run: tr.Run = st.session_state[tr.RUN]
    t, d = run.trainer, run.data
    if t.cfg.head == "linear":
        st.caption(":material/info: No confusion matrix here: the network predicts a value per point, not a "
                   "class, so there is nothing to confuse; R² and the mean absolute error above say how close.")
        return
    k = t.sizes[-1] if t.cfg.head == "softmax" else 2
    cols = st.columns(2)
    for col, (name, F, y) in zip(cols, (("Training points", d.Ftr, d.ytr), ("Test points", d.Fte, d.yte)),
                                 strict=True):
        with col:
            if not len(y):
                st.caption(f"{name}: none.")
                continue
            guess = t.predict(F).argmax(axis=1) if k > 2 else t.predict(F) > 0.5
            C = confusion(y, guess, k)                                         # (k, k)
            st.markdown(f"**{name}**: {fmt.count(np.trace(C))} of {fmt.count(C.sum())} right")
            tables.grid(ic.confusion_table(C), f"{name}: each class, and what the network took it for",
                        hide_index=False, width="content")
    st.caption("Each row is the points of one class; the columns say what the network took them for. "
               "The diagonal is what it gets right.")


def going_further() -> None:
    show_source(forward, loss_and_grads, label="The code that trains it: forward beside backward",
                note="This is the reference: the plain NumPy of lib/mlp.py, one line per equation. Play runs "
                     "a fused version of the same sums (lib/train.py: one buffer per layer, no copies), and a "
                     "test checks its loss and every gradient equal to this code's, and whole training runs "
                     "equal to a loop over it (tests/unit/test_train.py, tests/unit/test_follow.py).")


def below(spec: tr.Spec | None) -> None:
    """One view under the trainer, chosen by tab. Only the open tab runs: a data move computes and
    sends its pictures, not all of them. While playing it ticks at the slow rate."""
    boxes, view = view_tabs("view")
    with boxes[view]:
        if view == "code":
            going_further()
        elif spec is None:  # "only my points" with none placed yet
            st.caption(":material/touch_app: Place a point on the map first: this view shows the network "
                       "trained on it.")
        elif view == "bend":
            st.fragment(bend_switch)(spec)
        else:
            slow = tr.SLOW_TICK if st.session_state.get(tr.PLAYING) else None
            views = {"inside": inside, "mistakes": mistakes, "step": one_point, "warp": warp_view}
            st.fragment(views[view], run_every=slow)(spec)


if __name__ == "__main__":
    st.title("Live trainer")
    room.intro(PROBLEM_UI[problem_now()].intro)
    st.session_state[FULL] = True
    challenge = seats.challenge()
    LINKS.hide_also(challenge.hide if challenge else ())   # the controls the teacher hid for the class
    st.session_state[tr.CHALLENGE] = challenge
    held = seats.paused(challenge)
    seats.banner(challenge, held)
    if challenge is not None:
        state.watcher(seats.watch, seats.WATCH_EVERY, challenge, held)
    if held:
        st.session_state[tr.PLAYING] = False
    # A class's Submit sits beside Play (issue 34: it was 2.3 screens down at 1366 and 5 on a phone); what it
    # says (limits, the receipt, a refusal) goes right under the row.
    pressed = ctl.buttons(held, beside=(lambda bar: submit.button(bar, held)) if challenge else None)
    if challenge is not None:
        submit.strip(challenge, bool(pressed), network)
    spec = st.fragment(top)()   # a whole-page run draws the top, then the sections for its spec
    st.session_state[FULL] = False
    # The map and the curves as sound, on a press of Listen only (a fragment of its own: neither a control's
    # move above nor a playing tick resends it); not in the room view, which folds every control away.
    if spec is not None and not room.on():
        st.fragment(listen.control)(spec)
    below(spec)

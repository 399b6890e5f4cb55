"""The live trainer: watch a bend learn a boundary that no straight line can draw."""

import json

import numpy as np
import streamlit as st

from lib.activations import ACTIVATIONS
from lib.datasets import DATASET_INFO, DEFAULT_CELLS
from lib.features import FEATURES
from lib.mlp import collapse_params, forward, hidden_pre, loss_and_grads
from lib.optim import OPTIMIZERS
from lib.regions import region_ids
from ui import charts, links
from ui import trainer as tr
from ui import trainer_charts as tc
from ui.links import bound
from ui.source import show_source
from ui.tex import bmatrix, num

ACTS = list(ACTIVATIONS)
D = tr.DEFAULTS

st.title("Live trainer")
st.markdown(
    "Two classes of points, a tiny network, and gradient descent running live. With **no hidden "
    "layer** the network is one linear layer and can only draw a straight boundary. Give it a hidden "
    "layer with a **bend** (ReLU, GELU, ...) and the same training loop carves out curved regions. "
    "Press **Play** and watch both happen side by side."
)

# --- 1. Data and network (left), training (right), as in the Playground ------------------------
left, right = st.columns([1, 2], gap="medium")
with left, st.container(border=True):
    st.markdown("**The data**")
    own: tr.OwnData | None = st.session_state.get(tr.OWN)
    dataset = bound(st.selectbox, "Dataset", tr.DATASET_NAMES, index=tr.DATASET_NAMES.index(D["dataset"]),
                    key="dataset", disabled=own is not None,
                    help="Which two-class pattern to learn. Checkerboard and spiral need bends; "
                         "gaussians do not.")
    st.caption(f"{DATASET_INFO[dataset]}" if own is None else
               f":material/upload_file: Using your {len(own.y):,} points from `{own.name}`.")
    a, b = st.columns(2)
    with a:
        n = bound(st.slider, "Points", 50, tr.MAX_POINTS, D["n"], 50, key="n", disabled=own is not None,
                  help="How many points to draw (train and test together).")
    with b:
        noise = bound(st.slider, "Noise", 0.0, 1.0, D["noise"], 0.05, key="noise", disabled=own is not None,
                      help="Jitter every point's position; 0.5 is a lot. Labels keep their clean class.")
    a, b = st.columns(2)
    with a:
        share = bound(st.slider, "Training share", 10, 90, int(100 * D["train"]), 5, key="train",
                      format="%d %%",
                      help="Points the network learns from; the rest are the test set it never sees.")
    with b:
        seed = bound(st.number_input, "Seed", 0, 99_999, step=1, key="seed",  # value: the minimum, 0
                     help="Fixes the points and the network's starting weights: same seed, same run.")
    if dataset == "checkerboard" and own is None:
        cells = bound(st.slider, "Checkerboard cells per side", 2, 8, DEFAULT_CELLS, 1, key="cells",
                      help=f"The board's size; {DEFAULT_CELLS} x {DEFAULT_CELLS} is what the default "
                           "8-unit network learns reliably. Bigger boards want more units.")
    else:
        cells = None

    def _new_points():
        st.session_state["seed"] = (int(st.session_state.get("seed", 0)) + 1) % 100_000

    feat = bound(st.multiselect, "Inputs fed to the network", tr.FEATURE_NAMES, default=D["feat"], key="feat",
                 help="As in the Playground: " + ", ".join(f"{k} = {f.label}" for k, f in FEATURES.items())
                      + ". A hand-made x1sq + x2sq lets even a straight-line network draw a circle.")
    if not feat:
        st.caption(":orange[:material/info: Pick at least one input; using x1 and x2.]")
        feat = D["feat"]
    st.button("New points", icon=":material/refresh:", on_click=_new_points,
              help="Draw a fresh set of points (the next seed), and start the network again.")

    with st.expander("Your own points (CSV)", icon=":material/upload_file:"):
        st.markdown(f"A CSV with a header row `x1,x2,label`, labels 0 or 1, at most "
                    f"{tr.MAX_POINTS:,} points and {tr.MAX_UPLOAD_BYTES // 1000} KB.")
        st.download_button("Download a template", tr.template_csv(), "layer-lab-points.csv", "text/csv",
                           icon=":material/download:", help="Forty points of an XOR, in the accepted format.")
        slot = st.session_state.setdefault("trainer_upload_slot", 0)
        up = st.file_uploader("Upload points", type=["csv"], key=f"trainer_upload_{slot}",
                              help="Columns x1, x2, label. Replaces the dataset until you go back.")
        if up is not None:
            try:
                parsed = tr.read_points(up.name, up.getvalue())
            except ValueError as err:
                keep = f"your points from {own.name}" if own else "the built-in dataset"
                st.error(f"Could not use {up.name}: {err}. Still using {keep}.", icon=":material/error:")
            else:
                if own is None or own.digest != parsed.digest:
                    st.session_state[tr.OWN] = parsed
                    st.rerun()

        def _forget_own():
            st.session_state[tr.OWN] = None
            st.session_state["trainer_upload_slot"] = st.session_state.get("trainer_upload_slot", 0) + 1

        if own is not None:
            st.button("Back to the built-in datasets", on_click=_forget_own, icon=":material/undo:",
                      help="Forget the uploaded points.")

with left, st.container(border=True):
    st.markdown("**The network**")
    a, b = st.columns(2)
    with a:
        hidden_text = st.text_input(
            "Hidden layers", D["hidden"], key="hidden", bind="query-params",
            help="Units per hidden layer, comma separated: 8, or 16,16 for two layers; 0 for none "
                 f"(a plain linear classifier). Up to {tr.MAX_LAYERS} layers of 1 to {tr.MAX_UNITS} units.")
        try:
            hidden = tr.parse_hidden(hidden_text)
            st.session_state[tr.HIDDEN_GOOD] = hidden
        except ValueError as err:
            hidden = st.session_state.get(tr.HIDDEN_GOOD, tr.parse_hidden(D["hidden"]))
            links.note("hidden", f"Ignored `hidden={tr.shown(hidden_text)}`: {err}; "
                                 f"using {tr.format_hidden(hidden)}.", hidden_text)
        links.show_note("hidden", hidden_text)
    with b:
        act = bound(st.selectbox, "Bend (activation)", ACTS, index=ACTS.index(D["act"]), key="act",
                    help="Applied after every hidden layer: "
                         + ", ".join(f"{k} = {v.label}" for k, v in ACTIVATIONS.items())
                         + ". Changing it keeps the weights.")
    a, b = st.columns(2)
    with a:
        opt = bound(st.selectbox, "Optimiser", list(OPTIMIZERS), index=list(OPTIMIZERS).index(D["opt"]),
                    key="opt", help="How each step uses the gradient: plain SGD, SGD with momentum, or Adam.")
    with b:
        batch = bound(st.selectbox, "Batch size", tr.BATCH_OPTIONS, index=0, key="batch",
                      help="Training points per step; 0 uses all of them (one step per epoch, the fastest).")
    lr = bound(st.select_slider, "Learning rate",
               tr.options_with_link("lr", tr.LR_OPTIONS, tr.positive_float(1e-6, 10.0)), D["lr"], key="lr",
               format_func=tr.short_number,
               help="Step size. Too large and the loss blows up: training stops and says so.")
    l2 = bound(st.select_slider, "L2 penalty",
               tr.options_with_link("l2", tr.L2_OPTIONS, tr.positive_float(0.0, 1.0)), D["l2"], key="l2",
               format_func=tr.short_number,
               help="Adds 0.5 · L2 · (sum of squared weights) to the loss: pulls weights towards 0.")

spec = tr.Spec(dataset=dataset, n=int(n), noise=float(noise), seed=int(seed), cells=cells,
               train=share / 100, feat=tuple(f for f in tr.FEATURE_NAMES if f in feat), hidden=hidden,
               act=act, opt=opt, lr=float(lr), batch=int(batch), l2=float(l2), twin=False, own=own)

# --- 2. Run ----------------------------------------------------------------------------------
# A wrapping row rather than columns: on a phone the buttons flow onto two lines, not five.
bar = right.container(horizontal=True, vertical_alignment="bottom")
knobs = right.columns([3, 2], vertical_alignment="bottom")
playing = bool(st.session_state.get(tr.PLAYING, False))


def _set_playing(value: bool):
    # Set, not flip: Streamlit may run a click's callback twice when the click lands during a
    # fragment tick (once in that tick, once replayed in the full rerun); flipping would undo it.
    st.session_state[tr.PLAYING] = value


with knobs[0]:
    speed_text = bound(st.select_slider, "Epochs per redraw",
                       tr.options_with_link("speed", tr.SPEED_OPTIONS, tr.speed_option), D["speed"], key="speed",
                       help="1 lets a class watch every step; max trains as many epochs as fit between "
                            f"two redraws (about {1 / tr.TICK:.0f} redraws a second).")
with knobs[1]:
    twin_on = bound(st.toggle, "Twin: no hidden layer", D["twin"], key="twin",
                    help="Train the same data from the same seed with no hidden layer, in lockstep.")
spec.twin = bool(twin_on) and bool(spec.hidden)  # without hidden layers the twin would be the same network
if twin_on and not spec.hidden:
    right.caption(":material/info: Your network has no hidden layer, so it is its own twin: give it hidden "
                  "units (for example 8) to compare.")
speed = tr.parse_speed(speed_text)
run = tr.get_run(spec)
weights_error = tr.apply_link_weights(run)

bar.button("Pause" if playing else "Play", key="trainer_play", type="primary", on_click=_set_playing,
           args=(not playing,), icon=":material/pause:" if playing else ":material/play_arrow:", width="stretch",
           help="Train continuously; the charts below redraw several times a second.")
for k in (1, 10, 100):
    if bar.button("Step" if k == 1 else f"+{k}", key=f"trainer_step_{k}", width="stretch",
                  help=f"Train {k} epoch{'s' if k > 1 else ''} and stop.",
                  icon=":material/skip_next:" if k == 1 else None):
        tr.advance(run, k)
if bar.button("Reset", key="trainer_reset", icon=":material/restart_alt:", width="stretch",
              help="Back to epoch 0 and the starting weights of this seed."):
    tr.reset(run)

with right:
    if weights_error:
        links.note("w", f"Ignored the weights in the link (`w=`): {weights_error}; nothing was loaded.")
    links.show_note("w")
    if run.loaded:
        st.caption(f":material/link: {run.loaded}")

clock = st.session_state.setdefault("trainer_clock", tr.Clock())


def _fmt_pct(v: float) -> str:
    return f"{100 * v:.1f} %" if np.isfinite(v) else "no test points"


@st.fragment(run_every=tr.TICK if playing else None)
def live():
    run: tr.Run = st.session_state[tr.RUN]
    t = run.trainer
    figs = st.session_state.setdefault("trainer_figures", {})
    if st.session_state.get(tr.PLAYING):
        tr.advance(run, speed)
        if t.diverged:  # the Play button must turn back into Play: rerun the whole page
            st.session_state[tr.PLAYING] = False
            st.rerun()
    m = t.metrics()
    if t.diverged:
        st.error(f"Training stopped: {t.diverged}. Lower the learning rate, then press Reset.",
                 icon=":material/warning:")
        st.button("Reset", key="trainer_reset_diverged", on_click=tr.reset, args=(run,),
                  icon=":material/restart_alt:", help="Back to epoch 0 and the starting weights.")
    c = st.container(horizontal=True)  # four across on a laptop, two by two on a phone
    c.metric("Epoch", f"{m['epoch']:,}", width=125)
    c.metric("Loss", f"{m['train_loss']:.3f}", help="Mean cross-entropy on the training points (plus L2).",
             width=125)
    c.metric("Train accuracy", _fmt_pct(m["train_acc"]), width=125)
    c.metric("Test accuracy", _fmt_pct(m["test_acc"]), help="On the points the network never trains on.",
             width=125)

    d = run.data
    hold = tr.CURVES_HOLD if st.session_state.get(tr.PLAYING) else 0.0  # a step or reset shows at once
    xs, ys, P = tr.probabilities(t, spec.feat, d.limit)
    title = f"Hidden {tr.format_hidden(spec.hidden)} · {ACTIVATIONS[spec.act].label}" if spec.hidden \
        else "No hidden layer"
    curves = tr.finite_history(t)
    if run.twin is not None:
        # Twin and network in one figure: one chart to redraw per tick instead of two.
        _, _, P0 = tr.probabilities(run.twin, spec.feat, d.limit)
        with st.container(height=372, border=False):
            charts.show(tc.live_boundary(figs, "boundary", run.sig, xs, ys, [P0, P], d,
                                         titles=["No hidden layer", title], height=360),
                        live=True, key="trainer_boundary")
        m0 = run.twin.metrics()
        st.caption(f"No hidden layer: Train accuracy {_fmt_pct(m0['train_acc'])} · "
                   f"test {_fmt_pct(m0['test_acc'])}")
        with st.container(height=312, border=False):
            charts.show(tc.live_curves(figs, "curves", curves, tr.finite_history(run.twin), wide=True,
                                       height=300, hold=hold), live=True, key="trainer_curves")
    else:
        left_col, right_col = st.columns(2)
        with left_col, st.container(height=382, border=False):
            charts.show(tc.live_boundary(figs, "boundary", run.sig, xs, ys, [P], d, titles=[title]),
                        live=True, key="trainer_boundary")
        with right_col, st.container(height=392, border=False):
            charts.show(tc.live_curves(figs, "curves", curves, height=380, hold=hold), live=True,
                        key="trainer_curves")
    rate = clock.tick(m["epoch"])
    if st.session_state.get(tr.PLAYING) and rate:
        st.caption(f":material/speed: {rate[0]:,.0f} epochs a second, {rate[1]:.1f} redraws a second "
                   f"(measured on the server)")
    else:
        st.caption("Shading: the network's P(class 1), amber 0 to blue 1. Filled squares: training points; "
                   "hollow squares: test points, never trained on. Curves: solid train, dotted test.")


with right:
    live()

# --- 3. The bend on and off -------------------------------------------------------------------
st.header("The bend on and off, same weights")
st.markdown(
    "Take the network as it is trained now and swap its bend **without touching a weight**. "
    "With *identity* (no bend) every layer is linear, the layers multiply into one, "
    "and the boundary can only be one straight line. Switch back: the trained boundary returns."
)
if playing:
    st.caption(":material/pause_circle: Training is playing: the pictures from here on show the weights as "
               "they were at this page's last full redraw; they catch up at Pause, Step or any change.")
bend = bound(st.selectbox, "Redraw the trained weights with the bend", ACTS, index=ACTS.index(D["bend"]),
             key="bend", help="Only the drawing below changes; training keeps using the bend chosen above.")
t = run.trainer
d = run.data
xs, ys, P_trained = tr.probabilities(t, spec.feat, d.limit)
_, _, P_bend = tr.probabilities(t, spec.feat, d.limit, act=bend)
W, b = collapse_params(t.params)  # (n_in, 1), (1,)
plain = list(spec.feat) == ["x1", "x2"]
line = tc.line_across(W[0, 0], W[1, 0], b[0], d.limit) if plain and bend == "identity" else None
left, right = st.columns(2)
with left:
    charts.show(tc.boundary_figure(xs, ys, P_trained, d, title=f"As trained: {ACTIVATIONS[spec.act].label}",
                                   live=False, legend=False, height=380), key="trainer_bend_before")
with right:
    charts.show(tc.boundary_figure(xs, ys, P_bend, d, title=f"Same weights: {ACTIVATIONS[bend].label}",
                                   live=False, legend=False, height=380, line=line), key="trainer_bend_after")
if bend == "identity":
    names = [FEATURES[f].label for f in spec.feat]
    gap = tr.collapse_gap(t, spec.feat, d.limit, W, b)
    # Two short lines rather than one long one: a phone shows both whole.
    st.latex(r"P(\text{class }1) = \sigma\!\left(x W + b\right)")
    if not spec.hidden:
        st.latex(r"W = W_1 = " + bmatrix(W) + r",\quad b = b_1 = " + num(b[0]))
    elif len(spec.hidden) == 1:
        st.latex(r"W = W_1 W_2 = " + bmatrix(W) + r",\quad b = b_1 W_2 + b_2 = " + num(b[0]))
    else:  # deeper: every layer's matrix multiplied in, every bias carried through the layers after it
        st.latex(r"W = W_1 W_2 \cdots W_{" + str(len(spec.hidden) + 1) + "} = " + bmatrix(W)
                 + r",\quad b = " + num(b[0]))
    st.caption("x = (" + ", ".join(names) + "). The network without its bends and this single layer "
               f"differ by at most {gap:.1e} over the square: rounding error.")
    if plain:
        st.markdown(f"The boundary is the line **{num(W[0, 0])}·x₁ + {num(W[1, 0])}·x₂ + {num(b[0])} = 0** "
                    "(dashed), where P = ½.")
elif bend == spec.act:
    st.caption("The bend it was trained with: the two pictures are the same.")

# --- 4. Inside the network --------------------------------------------------------------------
st.header("Inside the network")
if not spec.hidden:
    st.info("This network has no hidden layer: it is one linear layer, and its boundary is one straight "
            "line. Give it hidden units (for example 8) to see them here.", icon=":material/info:")
else:
    in_labels = [FEATURES[f].label for f in spec.feat]
    st.markdown(
        "Each first-layer unit computes one sum **w₁x₁ + w₂x₂ + b** (a tilted plane) and bends it. "
        "With ReLU that is a ramp: zero on one side of its **fold line** (dashed, where the sum is 0), "
        "rising on the other. The output adds the last layer's units, each times its weight: "
        "like tax bands, a sum of ramps."
    )
    charts.show(tc.network_figure(t.params, in_labels, act_label=ACTIVATIONS[spec.act].label,
                                  height=min(520, 140 + 26 * max(len(in_labels), *spec.hidden))),
                key="trainer_network")
    st.caption("Line width grows with the size of the weight; blue positive, red negative. Hover a line "
               "for its value.")
    xs_s, ys_s, XY_s = tr.plane(d.limit, 60)
    F_s = tr.expand_features(XY_s, spec.feat)
    Z = hidden_pre(t.params, F_s, spec.act)  # list of (3600, units)
    f = ACTIVATIONS[spec.act].fn
    layers_shown = [0] if len(spec.hidden) == 1 else [0, len(spec.hidden) - 1]
    for li in layers_shown:
        units = min(spec.hidden[li], 16)
        H = f(Z[li][:, :units]).T.reshape(units, len(ys_s), len(xs_s))  # (units, 60, 60)
        last = li == len(spec.hidden) - 1
        W_out = t.params[li + 1][0] if last else None  # (units, 1) weights into the output
        titles = []
        for j in range(units):
            name = f"h{j + 1}" if len(spec.hidden) == 1 else f"h{li + 1}.{j + 1}"
            titles.append(f"{name} · out {W_out[j, 0]:+.2f}" if last else name)
        folds = None
        if li == 0 and plain:
            W1, b1 = t.params[0]
            folds = [tc.line_across(W1[0, j], W1[1, j], b1[j], d.limit) for j in range(units)]
        label = "First hidden layer" if li == 0 else "Last hidden layer"
        st.subheader(label + (" (the first 16 units)" if spec.hidden[li] > 16 else ""))
        charts.show(tc.unit_maps_figure(xs_s, ys_s, H, titles=titles, limit=d.limit, folds=folds,
                                        cols=4 if units <= 8 else 6), key=f"trainer_units_{li}")
    st.caption("Each map: the unit's output after the bend, blue above 0 and red below. "
               "The output's sum is every last-layer map times its out weight (\"out\"), plus a bias.")

    st.subheader("Linear regions")
    ids, count = region_ids(t.params, F_s, spec.act)
    first_folds = []
    if plain:
        W1, b1 = t.params[0]
        first_folds = [fl for fl in (tc.line_across(W1[0, j], W1[1, j], b1[j], d.limit)
                                     for j in range(W1.shape[1])) if fl is not None]
    r1, r2 = st.columns([3, 2])
    with r1:
        charts.show(tc.regions_figure(xs_s, ys_s, ids.reshape(len(ys_s), len(xs_s)), limit=d.limit,
                                      folds=first_folds, data=d), key="trainer_regions")
    with r2:
        st.metric("Linear regions over the square", f"{count:,}",
                  help="Distinct on/off patterns of the hidden units seen on a 60 x 60 grid.")
        relu_like = spec.act in ("relu", "identity")
        st.markdown(
            "Inside one coloured region the same units are on, so the network is one linear function "
            "there: a ReLU network is **piecewise linear**, and the boundary is made of straight pieces. "
            + ("" if relu_like else f"With {ACTIVATIONS[spec.act].label} the bend is smooth, so the pieces "
               "are only nearly linear; the colours still show which units are above 0.")
        )
show_source(forward, loss_and_grads, label="The code that trains it: forward beside backward")

# --- 5. Share and export ----------------------------------------------------------------------
st.header("Share and export")
size = tr.n_params(run)
link = tr.share_link(run, tr.page_base())
st.markdown("Every setting above is already in this page's address. The link below also carries the "
            "trained weights, so a class opens exactly this network.")
if link:
    st.code(link, language=None, wrap_lines=True)
    st.caption(f"This network has {size:,} parameters; links carry up to {tr.MAX_LINK_PARAMS:,}.")
else:
    st.info(f"This network has {size:,} parameters, more than the {tr.MAX_LINK_PARAMS:,} a link can carry: "
            "download the weights instead.", icon=":material/info:")
st.download_button("Download the weights (JSON)", json.dumps(run.trainer.to_dict(), indent=1),
                   "layer-lab-network.json", "application/json", icon=":material/download:",
                   help="The configuration, the epoch and every weight matrix with its shape.")

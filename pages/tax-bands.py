"""Sums of ReLUs: income tax is a pile of ramps; so is any curve; so is a ring carved out of a plane."""

import numpy as np
import pandas as pd
import streamlit as st

from lib import relufit, ring, tax
from lib.layers import collapse
from lib.regions import grid, line_in_box
from ui import charts, ramps
from ui.links import bound
from ui.schedule import money, reset_schedule, schedule_input
from ui.source import show_source
from ui.tex import bmatrix, num

st.title("Sums of ReLUs")
st.markdown(
    "A ReLU is a **ramp**: flat at zero, then rising steadily once its input passes a threshold. "
    "One ramp is not much. Add a few, each starting at its own threshold and rising at its own "
    "slope, and you can build bent shapes: an income-tax schedule, any curve you like, and, in two "
    "dimensions, a region that surrounds a point. That is what a hidden layer of ReLU units does."
)

# --- 1. Tax bands -----------------------------------------------------------------------------
st.header("1. Income tax is a sum of ramps")
st.markdown(
    "A tax schedule says: nothing on the first slice of income, then a percentage of every unit "
    "above a threshold, a higher percentage above the next threshold, and so on. Crossing a "
    "threshold does not change the tax on income you already had; it starts a **new ramp** on "
    "top, rising by the *difference* between the new rate and the old one:"
)
st.latex(r"\text{tax}(I) = \sum_k (r_k - r_{k-1})\,\operatorname{ReLU}(I - t_k),\qquad r_{-1} = 0")

PRESET_KEYS = list(tax.PRESETS)
left, right = st.columns(2, gap="large")
with left:
    preset_key = bound(st.selectbox, "Preset schedule", PRESET_KEYS, index=PRESET_KEYS.index("uk-2024"),
                       key="preset", help="Start from a made-up schedule or a real one; edit the table below.")
    preset = tax.PRESETS[preset_key]
    thresholds, rates, edited = schedule_input(preset)
    st.button("Back to the preset", on_click=reset_schedule, args=(preset,), icon=":material/restart_alt:",
              disabled=not edited, help="Forget your edits to the table and use the preset's bands again.")
    st.caption("Type in the empty last row to add a band; to remove one, tick its row at the left and "
               "press the bin above the table.")
with right:
    st.markdown(f"**{preset.label}**")
    st.markdown(f"- **Year:** {preset.year}\n- **Source:** {preset.source}\n"
                f"- **Simplified:** {preset.simplifications}")
    if edited:
        st.info("You have edited the bands, so the year and source above describe the preset you "
                "started from, not your schedule.", icon=":material/edit:")

cur = preset.currency
steps = tax.rate_steps(rates)                                      # (k,) each ramp's rate step
live = steps != 0                                                  # a zero step draws no ramp


def _tex_amount(v: float) -> str:
    return f"{v:,.10g}".replace(",", "{,}")  # thousands separators that KaTeX does not space out


terms = [rf"{'-' if s_k < 0 else '+'} {abs(s_k):.4g}\,\operatorname{{ReLU}}(I - {_tex_amount(t_k)})"
         for t_k, s_k in zip(thresholds[live], steps[live], strict=True)]
formula = " ".join(terms).removeprefix("+ ") if terms else "0"
st.markdown("With this schedule, rates as fractions, one term per ramp:")
st.latex(r"\text{tax}(I) = " + formula)

i1, _ = st.columns([1, 2])
with i1:
    income = bound(st.number_input, f"An income to follow ({cur or 'units'})", 0.0, 1e9, 60_000.0, 1_000.0,
                   key="income", format="%.0f", help="One income, traced through every band and every ramp below.")
top = tax.chart_top(thresholds, income)
income_axis = np.linspace(0.0, top, 801)                          # (801,)
ramp_values = tax.ramps(income_axis, thresholds, rates)[:, live]  # (801, ramps drawn)
total = tax.relu_tax(income_axis, thresholds, rates)              # (801,)
names = [f"{money(t_k, cur)}: {100 * s_k:+.4g} %" for t_k, s_k in zip(thresholds[live], steps[live], strict=True)]

c1, c2 = st.columns(2)
with c1:
    st.subheader("Each ramp on its own")
    charts.show(ramps.ramps_figure(income_axis, ramp_values, total, names, income=income,
                                   x_title=f"income ({cur or 'units'})", y_title="tax"))
with c2:
    st.subheader("Stacked: the pile is the tax")
    charts.show(ramps.stacked_figure(income_axis, ramp_values, names, income=income,
                                     x_title=f"income ({cur or 'units'})", y_title="tax"))
st.caption("A dashed line is one ramp, (rate step) × ReLU(income − threshold). A rate that falls "
           "(a negative step) is a ramp that slopes down and takes its slice off the pile.")

st.subheader("The slope of the tax is the marginal rate")
st.markdown(
    "Each ReLU's slope is 0, then 1. So the tax's slope, the **marginal rate** (what the next unit "
    "of income pays), is a staircase: it steps up by each ramp's rate step at each threshold. "
    "The **effective rate**, tax ÷ income, rises smoothly and always stays below the marginal rate "
    "when rates only go up."
)
charts.show(ramps.rates_figure(income_axis, tax.marginal_rate(income_axis, thresholds, rates),
                               tax.effective_rate(income_axis, thresholds, rates), income=income,
                               x_title=f"income ({cur or 'units'})"))

st.subheader(f"One income: {money(income, cur)}")
bands = tax.band_breakdown(income, thresholds, rates)
by_ramp = tax.ramp_breakdown(income, thresholds, rates)
band_total = tax.bracket_tax(income, thresholds, rates)
relu_total = tax.relu_tax(income, thresholds, rates)
m1, m2, m3, m4 = st.columns(4)
m1.metric("Tax, band by band", money(band_total, cur, 2))
m2.metric("Tax, sum of ramps", money(relu_total, cur, 2))
m3.metric("Effective rate", f"{100 * tax.effective_rate(income, thresholds, rates):.2f} %")
m4.metric("Marginal rate", f"{100 * tax.marginal_rate(income, thresholds, rates):.2f} %")
st.markdown("**Band by band**, as a tax form does it: each band's rate × the income that falls in it.")
# The last row is lib's total (bracket_tax), so the table visibly adds up.
st.dataframe(pd.DataFrame({
    "band": [*(f"{money(lo, cur)} to {money(hi, cur) if np.isfinite(hi) else 'the top'}"
               for lo, hi in zip(bands["from"], bands["to"], strict=True)), "total"],
    "rate": [*(f"{100 * r:.4g} %" for r in bands["rate"]), ""],
    "income in band": [*bands["in_band"], income],
    "tax": [*bands["tax"], band_total],
}), hide_index=True, width="stretch", column_config={
    "rate": st.column_config.TextColumn(),
    "income in band": st.column_config.NumberColumn(format="localized"),
    "tax": st.column_config.NumberColumn(format="localized"),
})
st.markdown("**Ramp by ramp**, as the ReLU sum does it: each ramp's rate step × ReLU(income − threshold).")
st.dataframe(pd.DataFrame({
    "threshold": [*(money(t_k, cur) for t_k in by_ramp["threshold"]), "total"],
    "rate step": [*(f"{100 * d:+.4g} %".replace("-", "−") for d in by_ramp["step"]), ""],
    "ReLU(income − threshold)": [*(money(v, cur) for v in by_ramp["relu"]), ""],
    "ramp": [*by_ramp["ramp"], relu_total],
}), hide_index=True, width="stretch", column_config={
    "rate step": st.column_config.TextColumn(),
    "ramp": st.column_config.NumberColumn(format="localized"),
})
gap = abs(band_total - relu_total)
st.markdown(
    f"The rows differ, the totals agree: **{money(band_total, cur, 2)}** band by band and "
    f"**{money(relu_total, cur, 2)}** from the ramps "
    + ("(exactly equal)." if gap == 0 else f"(apart by {gap:.1e}, floating-point rounding).")
)
show_source(tax.relu_tax, tax.marginal_rate, tax.band_breakdown)

# --- 2. Any curve -----------------------------------------------------------------------------
st.header("2. Any curve from ramps")
st.markdown(
    "A tax schedule bends at a few fixed places, mostly upwards. Allow a ramp's step to be negative and "
    "put the thresholds (the **knots**) anywhere, and a sum of ramps can follow any curve: "
    "f(x) ≈ c + Σⱼ wⱼ ReLU(x − tⱼ). With the knots fixed, the best weights wⱼ and c solve a "
    "least-squares problem exactly. One hidden layer of ReLU units on a one-number input computes "
    "exactly this kind of sum."
)
TARGET_KEYS = list(relufit.TARGETS)
MODE_KEYS = list(relufit.KNOT_MODES)
f1, f2, f3 = st.columns([2, 3, 2], vertical_alignment="bottom")
with f1:
    target = bound(st.selectbox, "Curve to build", TARGET_KEYS, key="target",
                   help="sin = sin(2x), abs = |x|, square = x²/3, step = a jump at 0, bump = a smooth hill.")
with f2:
    units = bound(st.slider, "Number of ramps", 1, 20, 6, 1, key="units",
                  help="How many ReLU units (knots) the sum may use; the first one is the straight-line part.")
with f3:
    mode = bound(st.radio, "Knots", MODE_KEYS, key="knots", horizontal=True,
                 help="even: knots evenly spaced and fixed; learned: the knots move to lower the error too.")


@st.cache_data(show_spinner="Fitting the ramps…")
def _fit(name: str, k: int, how: str) -> relufit.ReluFit:
    return relufit.fit_target(name, k, how)


@st.cache_data
def _even_errors(name: str) -> pd.DataFrame:
    return relufit.error_table(name, range(1, 21), "even")


fit = _fit(target, units, mode)
tgt = relufit.TARGETS[target]
g1, g2 = st.columns([3, 2])
with g1:
    fig = ramps.fit_figure(fit.x, fit.y, fit.y_hat, fit.ramps, fit.bias, tgt.label)
    ramps.knots_markers(fig, fit.knots)
    charts.show(fig)
    st.caption(f"{tgt.label}: {tgt.note} Grey lines: each wⱼ ReLU(x − tⱼ); triangles: the knots tⱼ.")
with g2:
    even = _even_errors(target)
    series = {"even knots": even["rmse"].to_numpy()}
    if mode == "learned":
        series["learned knots"] = np.array([_fit(target, k, "learned").rmse for k in range(1, units + 1)])
    charts.show(ramps.error_figure(even["units"].to_numpy(), series, current=units))
    st.caption("Error against the number of ramps. With even knots it falls, though not always smoothly: "
               "it matters whether a knot lands where the curve bends.")
e1, e2 = st.columns(2)
e1.metric(f"Root-mean-square error, {units} ramps", f"{fit.rmse:.2e}")
e2.metric("Largest error anywhere on the range", f"{fit.max_error:.2e}")
st.info(
    "Universal approximation, in one line: Cybenko (1989) and Hornik (1991) proved that one hidden layer of "
    "bent units (sigmoid-like there, ReLU in later work) can come as close as you like to any continuous "
    "function on a bounded range, given enough units; it does not say how many, nor that training finds them.",
    icon=":material/functions:",
)
show_source(relufit.fit_relus, relufit.learn_knots)

# --- 3. The ring ------------------------------------------------------------------------------
st.header("3. Ramps over a plane: carving out a ring")
st.markdown(
    "With two inputs a ReLU unit is a ramp over the plane: ReLU(x₁w₁ + x₂w₂ + b) is zero on one side of "
    "its **fold line** x₁w₁ + x₂w₂ + b = 0 and rises steadily on the other. Here is a network with two "
    "inputs, three ReLU units and one output, separating the blue points of an inner disc from an amber "
    "ring around them. The output adds the three ramps with weights W₂ and a bias; where that sum is above "
    "zero the network says *disc*."
)
WEIGHT_KEYS = ["trained", "hand"]
BENDS = ["relu", "identity"]
w1c, w2c, w3c = st.columns(3, vertical_alignment="bottom")
with w1c:
    weights = bound(st.radio, "Weights", WEIGHT_KEYS, key="weights", horizontal=True,
                    help="trained: a quick gradient-descent run on these points; hand: a symmetric set chosen by hand.")
with w2c:
    bend = bound(st.radio, "Bend between the layers", BENDS, key="bend", horizontal=True,
                 help="relu: the network as trained; identity: the same weights with the bend switched off.")
with w3c:
    seed = bound(st.number_input, "Training run", 0, 99, 0, 1, key="seed", disabled=weights != "trained",
                 help="Which random start the training run uses (trained weights only).")


@st.cache_data(show_spinner="Training the ring network…")
def _ring(which: str, run: int):
    X, y = ring.make_ring(300, seed=0)                             # (300, 2), (300,)
    if which == "hand":
        return ring.HAND, X, y
    net, _ = ring.train_ring(X, y, seed=run)
    return net, X, y


@st.cache_data
def _best_line() -> float:
    return ring.best_line_accuracy(*ring.make_ring(300, seed=0))


net, X, y = _ring(weights, int(seed))
relu_on = bend == "relu"
axis, _, pts = grid(ring.BOX, 121)                                 # (121,), (14641, 2)
z, h, out = ring.forward(net, pts, bend=relu_on)                   # (14641, 3) x2, (14641,)
m = axis.size
unit_lim = float(np.max(np.abs(h))) or 1.0

st.subheader("The three hidden units" + ("" if relu_on else ", without the bend"))
cols = st.columns(3)
for j, col in enumerate(cols):
    seg = line_in_box(net.W1[:, j], float(net.b1[j]), ring.BOX)
    w_a, w_b, b_j = float(net.W1[0, j]), float(net.W1[1, j]), float(net.b1[j])
    with col:
        charts.show(ramps.plane_figure(
            axis, h[:, j].reshape(m, m), title=f"unit {j + 1}: " + ("ReLU(z)" if relu_on else "z, no bend"),
            segments=[] if seg is None else [seg], zlim=unit_lim, height=280, showscale=False))
        st.caption(f"z = {num(w_a, 2).replace('-', '−')}·x₁ {'−' if w_b < 0 else '+'} {abs(w_b):.2f}·x₂ "
                   f"{'−' if b_j < 0 else '+'} {abs(b_j):.2f}")
st.caption(
    "Blue: the unit's value; dashed: its fold line. " +
    ("White on one side of the fold: the unit is off there (ReLU turned its negative values into 0)."
     if relu_on else "Red: without the bend the negative side stays negative, so no unit ever switches off.")
)

st.subheader("The output: the weighted sum of the ramps")
acc = ring.accuracy(net, X, y, bend=relu_on)
o1, o2 = st.columns([3, 2], gap="large")
with o1:
    out_lim = float(np.quantile(np.abs(out), 0.9)) or 1.0
    charts.show(ramps.plane_figure(
        axis, out.reshape(m, m), title="output: above 0 (blue) means disc", contour=True,
        points=(X, y), colorbar_title="output", zlim=out_lim, height=460))
    st.caption("Black line: the decision boundary, where the output is 0. Colours saturate at the "
               "scale shown, so the boundary region stays readable.")
with o2:
    st.metric("Points classified correctly", f"{100 * acc:.1f} %")
    W, b = collapse(net.W1, net.b1, net.W2, net.b2)                # (2, 1), (1,)
    if relu_on:
        st.success("Each unit is off on one side of its fold line. Weighted and added, the three bent "
                   "ramps leave one closed region where the output stays above 0, around the disc.",
                   icon=":material/check_circle:")
    else:
        dist = ring.line_distance(W[:, 0], float(b[0]))
        if not np.isfinite(dist):
            where = ("W is zero: the three directions cancel exactly, so the collapsed layer is a constant and "
                     "every point gets the same answer. There is no boundary at all.")
        elif line_in_box(W[:, 0], float(b[0]), ring.BOX) is None:
            where = (f"The boundary xW + b = 0 is one straight line, {dist:.2f} from the centre: outside this "
                     "chart, so every point shown gets the same answer.")
        else:
            where = (f"The boundary xW + b = 0 is one straight line, {dist:.2f} from the centre. "
                     "A line cannot go round the disc.")
        st.warning(where, icon=":material/horizontal_rule:")
    st.caption(f"The best any straight line can do on these points is {100 * _best_line():.1f} % "
               "(every direction and cut tried).")

st.markdown("The weights, the same in both views:" if relu_on else
            "The same weights, with no bend between the layers:")
st.latex(r"\text{output} = " + (r"\operatorname{ReLU}(xW_1 + b_1)" if relu_on else r"(xW_1 + b_1)")
         + r"\,W_2 + b_2")
k1, k2 = st.columns(2)
k1.latex(rf"W_1 = {bmatrix(net.W1, 2)}")
k1.latex(rf"b_1 = {bmatrix(net.b1, 2)}")
k2.latex(rf"W_2 = {bmatrix(net.W2, 2)}")
k2.latex(rf"b_2 = {bmatrix(net.b2, 2)}")
if not relu_on:
    st.markdown("Two linear layers are one: **W = W₁W₂** and **b = b₁W₂ + b₂**, the collapsed single layer.")
    st.latex(rf"W = W_1W_2 = {bmatrix(W, 3)},\qquad b = b_1W_2 + b_2 = {bmatrix(b, 3)}")
show_source(ring.forward, ring.train_ring)

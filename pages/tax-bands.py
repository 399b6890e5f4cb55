"""Sums of ReLUs: income tax is a pile of ramps; so is any curve; so is a ring carved out of a plane.

Three sections: the tax pile, any curve from ramps, and the ring. In each, the controls and what they
change are one st.fragment (a move reruns and re-sends that fragment alone); the words, asides and source
around it stay outside, so they are not re-sent. Every link key is declared once in LINKS below; the numbers
come from lib.tax, lib.relufit and lib.ring, and what costs is cached (results, and figures by inputs).
"""

import numpy as np
import pandas as pd
import streamlit as st

import engine.preload  # noqa: F401  (first: every module imported once before any page runs)
from lib import answers, asks, relufit, ring, tax
from lib.layers import collapse
from lib.regions import grid, line_in_box
from pages.tax_bands import ramps, schedule
from ui import charts, fmt, room, state, tables
from ui.frozen import freezes
from ui.source import show_source

PRESETS = tax.PRESETS
BENDS = {"relu": "ReLU (bent)", "identity": "none (identity)"}

LINKS = state.Links(
    state.select("preset", PRESETS, "uk-2024", "Tax schedule",
                 "A made-up schedule or a real one; edit its bands further down.",
                 names={k: s.menu for k, s in PRESETS.items()},
                 meaning="the tax schedule to start from"),
    state.number("income", 0.0, 1e9, 60_000.0, 1_000.0, "An income to follow",
                 "One income, traced through every band and every ramp.", number_format="%.0f",
                 meaning="the income followed through the bands and ramps"),
    schedule.link("bands"),
    state.select("target", relufit.TARGETS, "sin", "Curve to build",
                 "The curve the sum of ramps should follow, on x from −3 to 3.",
                 names={k: t.label for k, t in relufit.TARGETS.items()}),
    state.slider("units", 1, 20, 6, 1, "Number of ramps (ReLU units)",
                 "How many ReLU units (knots) the sum may use; the first one is the straight-line part."),
    state.select("knots", relufit.KNOT_MODES, "even", "Knots",
                 "Evenly spaced and fixed, or moved to lower the error too (as training would).",
                 kind="radio", names=relufit.KNOT_MODES, meaning="where the ramps start"),
    state.select("weights", ["trained", "hand"], "trained", "Weights",
                 "Trained: a quick gradient-descent run on these points; by hand: set W₁, b₁, W₂, b₂ yourself.",
                 kind="radio", names={"trained": "trained", "hand": "set by hand"},
                 meaning="the ring network's weights"),
    state.select("bend", BENDS, "relu", "Bend between the layers",
                 "ReLU: the network as it is; none: the same weights with the bend switched off.",
                 kind="radio", names=BENDS),
    state.number("seed", 0, 99, 0, 1, "Training run", "Which random start the training run uses.",
                 meaning="the training run's random start (trained weights)"),
    state.matrix("w1", ring.HAND.W1, "W₁", "Column j: hidden unit j's weights on x₁ and x₂.",
                 meaning="hand weights, first layer (weights=hand)", group="`w1`, `b1`, `w2`, `b2`",
                 values="rows split by `;`, numbers by `,` (the symmetric hand-made net)"),
    state.matrix("b1", ring.HAND.b1, "b₁", "Each unit's bias: where its fold line sits.", group="`w1`, `b1`, `w2`, `b2`"),
    state.matrix("w2", ring.HAND.W2[:, 0], "W₂", "How much each unit's ramp counts in the output.",
                 group="`w1`, `b1`, `w2`, `b2`"),
    state.matrix("b2", ring.HAND.b2, "b₂", "The output's bias: its value where every unit is off.",
                 group="`w1`, `b1`, `w2`, `b2`"),
)

ASKS = asks.declare(  # what a lesson can ask about this page (lib/asks.py)
    asks.Ask("tax", "What is the tax on the income followed?", "number", answers.tax_at, tolerance=1.0,
             rel=0.01),
    asks.Ask("marginal", "What is the marginal rate at the income followed (the rate on its next unit)?",
             "number", answers.marginal_at, unit="%", tolerance=0.5),
    asks.Ask("effective", "What is the effective rate, tax ÷ income, at the income followed?", "number",
             answers.effective_at, unit="%", tolerance=0.5),
    asks.Ask("ramps", "How many ramps does the sum need to follow the curve within a root-mean-square error "
             "of {error}?", "number", answers.ramps_needed,
             params=(asks.Param("error", "error", 0.05, 0.0001, 1.0, whole=False),)),
)


# --- cached results: pure, keyed by their inputs; figures are never mutated after caching ----------
@st.cache_resource(max_entries=64, show_spinner=False)
@freezes
def band_label(threshold: float, step: float, rate: float, cur: str) -> str:
    """A ramp's legend: where it starts, its rate step in percentage points, and the band's own rate:
    '£50,270: +20 points (band rate 40 %)'."""
    points = fmt.num(100 * step, 2)
    sign = "+" if step > 0 else ""
    return f"{fmt.money(threshold, cur)}: {sign}{points} points (band rate {fmt.num(100 * rate, 2)} %)"


def _tax_view(thresholds: tuple, rates: tuple, income: float, cur: str) -> dict:
    """Everything the tax section draws for one schedule and income: lib's numbers, then figures."""
    t, r = np.asarray(thresholds), np.asarray(rates)                 # (k,), (k,)
    steps = tax.rate_steps(r)                                          # (k,) each ramp's rate step
    live = steps != 0                                                  # a zero step draws no ramp
    x = np.linspace(0.0, tax.chart_top(t, income), 801)               # (801,)
    total = tax.relu_tax(x, t, r)                                      # (801,)
    bottom, top = tax.stacked_ramps(x, t, r)                           # (801, k) each
    names = [band_label(t_k, s_k, r_k, cur) for t_k, s_k, r_k in zip(t[live], steps[live], r[live], strict=True)]
    axis = f"income ({cur or 'units'})"
    at_income = tax.relu_tax(income, t, r)
    return {
        "steps": steps, "live": live, "tax": at_income,
        "pile": ramps.stacked_figure(x, bottom[:, live], top[:, live], names, steps[live] < 0, total,
                                     income=income, tax_at_income=at_income, currency=cur,
                                     x_title=axis, y_title=f"tax ({cur or 'units'})"),
        "each": ramps.ramps_figure(x, tax.ramps(x, t, r)[:, live], total, names, income=income,
                                   currency=cur, x_title=axis, y_title="tax"),
        "rates": ramps.rates_figure(x, tax.marginal_rate(x, t, r), tax.effective_rate(x, t, r),
                                    income=income, currency=cur, x_title=axis),
    }


@st.cache_resource(show_spinner="Fitting the ramps (the first time only)…")
def _fits(target: str, mode: str) -> tuple:
    return relufit.fit_table(target, mode)


@st.cache_resource(max_entries=64, show_spinner=False)
@freezes
def _fit_figure(target: str, units: int, mode: str):
    fit = _fits(target, mode)[units - 1]
    every = slice(None, None, 4)  # the target drawn at 151 of the fit's 601 points: enough for the eye
    return ramps.fit_figure(fit.x[every], fit.y[every], fit.outline(), fit.ramp_path(), fit.knots, fit.bias,
                            relufit.TARGETS[target].label)


@st.cache_resource(max_entries=16, show_spinner=False)
@freezes
def _error_figure(target: str, mode: str):
    """The error for every number of ramps: it does not depend on the slider, so moving the slider
    leaves this chart as it is in the browser."""
    series = {"even knots": np.array([f.rmse for f in _fits(target, "even")])}
    if mode == "learned":
        series["learned knots"] = np.array([f.rmse for f in _fits(target, "learned")])
    return ramps.error_figure(np.arange(1, 21), series)


@st.cache_resource(show_spinner="Training the ring network…")
def _trained(run: int) -> ring.RingNet:
    X, y = _points()
    return ring.train_ring(X, y, seed=run)[0]


@st.cache_resource
def _points():
    return ring.make_ring(300, seed=0)                                 # (300, 2), (300,)


@st.cache_resource
def _best_line() -> float:
    return ring.best_line_accuracy(*_points())


@st.cache_resource(max_entries=32, show_spinner=False)
@freezes
def _ring_figures(W1: np.ndarray, b1: np.ndarray, W2: np.ndarray, b2: np.ndarray, relu_on: bool):
    net = ring.RingNet(W1, b1, W2, b2)
    X, y = _points()
    axis, _, pts = grid(ring.BOX, 121)                                 # (121,), (14641, 2)
    _, h, out = ring.forward(net, pts, bend=relu_on)                   # (14641, 3), (14641,)
    m = axis.size
    unit_lim = float(np.max(np.abs(h))) or 1.0
    units = []
    for j in range(3):
        seg = line_in_box(net.W1[:, j], float(net.b1[j]), ring.BOX)
        units.append(ramps.plane_figure(
            axis, h[:, j].reshape(m, m), title=f"unit {j + 1}: " + ("ReLU(z)" if relu_on else "z, no bend"),
            segments=[] if seg is None else [seg], zlim=unit_lim, height=300, showscale=False))
    out_lim = float(np.quantile(np.abs(out), 0.9)) or 1.0
    output = ramps.plane_figure(axis, out.reshape(m, m), title="output: above 0 (green) means disc",
                                contour=True, points=(X, y), colorbar_title="output", zlim=out_lim,
                                height=480)
    return units, output


# --- 1. the tax pile ---------------------------------------------------------------------------------
@st.fragment
def tax_section() -> None:
    preset = PRESETS[LINKS.value("preset")]
    cur = preset.currency
    # Laid out top to bottom, filled out of order: the schedule editor sits below the picture but
    # must run first, so that the pile already shows the edit made on this run.
    top, each, change, slope, breakdown = (st.container() for _ in range(5))
    with change:
        thresholds, rates = schedule_editor(preset)
    income = LINKS.value("income")
    view = _tax_view(tuple(thresholds), tuple(rates), float(income), cur)

    with top:
        picture, controls = st.columns([3, 2], gap="medium")
        with controls:
            LINKS.widget("preset", on_change=schedule.forget_edits, args=(LINKS,))
            LINKS.widget("income", label=f"An income to follow ({cur or 'units'})")
            st.caption(f"That is {fmt.money(income, cur)}.")
            st.metric("Tax at this income", fmt.money(view["tax"], cur, 2))
            st.caption("Each band adds a ramp: nothing below its threshold, then its rate step on every "
                       "extra unit. Crossing a threshold changes only the tax on the income above it.")
        with picture:
            charts.show(view["pile"], name="The tax as a pile of ramps, one per band, against income")
            _pile_as_text(thresholds, rates, float(income), cur)
        st.caption("Filled slices: the ramps, one per band, stacked in threshold order; their top edge "
                   "(the ink line) is the tax." + (" A falling rate is a ramp that slopes down: it takes "
                                                   "its hatched slice off the top of the pile."
                                                   if (view["steps"] < 0).any() else ""))
    with each:
        st.subheader("Each ramp is a ReLU")
        steps, live = view["steps"], view["live"]
        st.markdown("With this schedule, rates as fractions, one ramp per line:")
        terms = [r"{} {}\,\operatorname{{ReLU}}(I - {})".format(
            "-" if s_k < 0 else "+", fmt.tex(abs(s_k), 4), fmt.tex(t_k, 0))
            for t_k, s_k in zip(thresholds[live], steps[live], strict=True)]
        if terms:
            terms[0] = terms[0].removeprefix("+ ")
        st.latex(r"\begin{aligned}\text{tax}(I) = {}& " + (r" \\ & ".join(terms) or "0") + r"\end{aligned}")
        st.markdown("Crossing a threshold does not change the tax on income below it; it starts a new "
                    "ramp whose slope is the *difference* between the new rate and the one before "
                    "(r₋₁ = 0):")
        st.latex(r"\text{tax}(I) = \sum_k (r_k - r_{k-1})\,\operatorname{ReLU}(I - t_k)")
        charts.show(view["each"])
    with slope:
        st.subheader("The slope of the tax is the marginal rate")
        st.markdown("Each ReLU's slope is 0, then 1. So the tax's slope, the **marginal rate** (what the "
                    "next unit of income pays), is a staircase that steps by each ramp's rate step. The "
                    "**effective rate**, tax ÷ income, rises smoothly and stays below the marginal rate "
                    "when rates only go up.")
        chart, numbers = st.columns([3, 1], vertical_alignment="center")
        with chart:
            charts.show(view["rates"])
        with numbers:
            st.metric("Marginal rate at this income", fmt.pct(tax.marginal_rate(income, thresholds, rates), 2))
            st.metric("Effective rate", fmt.pct(tax.effective_rate(income, thresholds, rates), 2))
    with breakdown:
        one_income(income, thresholds, rates, cur)


def _pile_as_text(thresholds, rates, income: float, cur: str) -> None:
    """The pile's answer in words, and its numbers at each threshold and at the income followed
    (issue 35 item 2)."""
    at = np.unique(np.append(np.asarray(thresholds, dtype=float), income))     # (m,) ascending
    taxes = tax.relu_tax(at, thresholds, rates)                                 # (m,)
    charts.answer(
        f"At an income of {fmt.money(income, cur)} the ramps pile up to a tax of "
        f"{fmt.money(float(tax.relu_tax(income, thresholds, rates)), cur, 2)}: marginal rate "
        f"{fmt.pct(tax.marginal_rate(income, thresholds, rates), 2)}, effective rate "
        f"{fmt.pct(tax.effective_rate(income, thresholds, rates), 2)}.",
        # no marginal rate per row: at a threshold itself it is the band below's, which reads as wrong
        ["income", "tax", "effective rate"],
        [[fmt.money(i, cur) + (" (followed)" if i == income else ""), fmt.money(float(t), cur, 2),
          fmt.pct(tax.effective_rate(i, thresholds, rates), 2) if i > 0 else "none"]
         for i, t in zip(at.tolist(), taxes.tolist(), strict=True)])


def schedule_editor(preset: tax.Schedule) -> tuple[np.ndarray, np.ndarray]:
    """The bands as a table to edit, beside where they come from; returns the schedule in force."""
    st.subheader("Change the schedule")
    edit, facts = st.columns([1, 1], gap="large")
    with edit:
        thresholds, rates = schedule.editor(LINKS, preset)
        edited = LINKS.good("bands") is not None
        st.button("Back to the preset", on_click=schedule.forget_edits, args=(LINKS,),
                  icon=":material/restart_alt:", disabled=not edited,
                  help="Forget your edits to the table and use the preset's bands again.")
        st.caption("Type in the empty last row to add a band; to remove one, tick its row at the left "
                   "and press the bin above the table.")
    with facts:
        st.markdown(f"**{preset.label}**")
        st.markdown(f"- **Year:** {preset.year}\n- **Source:** {preset.source}\n"
                    f"- **Simplified:** {preset.simplifications}")
        if edited:
            st.info("You have edited the bands, so the year and source above describe the preset you "
                    "started from, not your schedule.", icon=":material/edit:")
    return thresholds, rates


def one_income(income: float, thresholds, rates, cur: str) -> None:
    """The tax of one income two ways: band by band (a tax form) and ramp by ramp (the ReLU sum)."""
    st.subheader(f"One income, two ways: {fmt.money(income, cur)}")
    bands = tax.band_breakdown(income, thresholds, rates)
    by_ramp = tax.ramp_breakdown(income, thresholds, rates)
    band_total = tax.bracket_tax(income, thresholds, rates)
    relu_total = tax.relu_tax(income, thresholds, rates)
    left, right = st.columns(2, gap="large")
    with left:
        st.markdown("**Band by band**, as a tax form does it: each band's rate × the income in it.")
        tables.grid(pd.DataFrame({
            "band": [f"{fmt.money(lo, cur)} to {fmt.money(hi, cur) if np.isfinite(hi) else 'the top'}"
                     for lo, hi in zip(bands["from"], bands["to"], strict=True)],
            "rate": [fmt.pct(r, 2) for r in bands["rate"]],
            "income in band": [fmt.money(v, cur) for v in bands["in_band"]],
            "tax": [fmt.money(v, cur, 2) for v in bands["tax"]],
        }), "Band by band: each band's rate, the income in it and its tax", width="stretch")
        st.metric("Tax, band by band", fmt.money(band_total, cur, 2))
    with right:
        st.markdown("**Ramp by ramp**, as the ReLU sum does it: each rate step × ReLU(income − threshold).")
        tables.grid(pd.DataFrame({
            "threshold": [fmt.money(t_k, cur) for t_k in by_ramp["threshold"]],
            "rate step": [fmt.signed(100 * d) + " %" for d in by_ramp["step"]],
            "ReLU(income − threshold)": [fmt.money(v, cur) for v in by_ramp["relu"]],
            "ramp": [fmt.money(v, cur, 2) for v in by_ramp["ramp"]],
        }), "Ramp by ramp: each threshold's rate step, ReLU(income − threshold) and its ramp", width="stretch")
        st.metric("Tax, sum of ramps", fmt.money(relu_total, cur, 2))
    st.markdown("The rows differ, the totals agree: the difference between the two is "
                f"{fmt.gap(band_total - relu_total)}.")


# --- 2. any curve ------------------------------------------------------------------------------------
def curve_section() -> None:
    st.header("Any curve from ramps")
    st.markdown("Let a ramp's step be negative and put the thresholds (the **knots**) anywhere, and a sum "
                "of ramps can follow any curve: f(x) ≈ c + Σⱼ wⱼ ReLU(x − tⱼ). One hidden layer of ReLU "
                "units on a one-number input computes exactly this sum.")
    curve_live()
    st.info("Universal approximation, in one line: Cybenko (1989) and Hornik (1991) proved that one hidden "
            "layer of bent units (sigmoid-like there, ReLU in later work) can come as close as you like to "
            "any continuous function on a bounded range, given enough units; it does not say how many, nor "
            "that training finds them.", icon=":material/functions:")
    show_source(relufit.fit_relus, relufit.learn_knots)


@st.fragment
def curve_live() -> None:
    """The controls and what they change; the words around them stay outside, so a slider move
    re-sends only these elements."""
    c1, c2, c3 = st.columns([2, 3, 2], vertical_alignment="bottom")
    with c1:
        target = LINKS.widget("target")
    with c2:
        units = LINKS.widget("units")
    with c3:
        mode = LINKS.widget("knots", horizontal=True)
    fit = _fits(target, mode)[units - 1]
    fit_fig, error_fig = _fit_figure(target, units, mode), _error_figure(target, mode)
    tgt = relufit.TARGETS[target]
    g1, g2 = st.columns([3, 2])
    with g1:
        charts.show(fit_fig, live=True)  # no mode bar: this chart is rebuilt on every move
        st.caption(f"{tgt.label}: {tgt.note} Grey lines: each wⱼ ReLU(x − tⱼ); triangles: the knots tⱼ. "
                   "With the knots fixed, the best weights solve a least-squares problem exactly.")
    with g2:
        charts.show(error_fig, key="tax_error")  # the same for every number of ramps: sent once
        st.caption("Error against the number of ramps, for every number the slider offers. With even "
                   "knots it falls, though not always smoothly: it matters whether a knot lands where the "
                   "curve bends. RMSE: the root of the mean squared gap between the ramps' sum and the curve.")
        e1, e2 = st.columns(2)
        e1.metric("Root-mean-square error", _error(fit.rmse),
                  help="RMSE: the square root of the mean squared gap between the ramps' sum and the curve.")
        e2.metric("Largest error on the range", _error(fit.max_error))


def _error(v: float) -> str:
    """An error for a metric: three decimals, powers of ten when smaller, 'below rounding error' at 0."""
    if v < 1e-9:
        return "below rounding error"
    return fmt.power(v) if v < 5e-4 else fmt.fixed(v, 3)


# --- 3. the ring -------------------------------------------------------------------------------------
def ring_section() -> None:
    st.header("Ramps over a plane: carving out a ring")
    st.markdown("With two inputs a ReLU unit is a ramp over the plane: ReLU(x₁w₁ + x₂w₂ + b) is zero on one "
                "side of its **fold line** x₁w₁ + x₂w₂ + b = 0 and rises steadily on the other. Three such "
                "units, weighted and added, separate the green points of an inner disc from the orange ring "
                "around them: where the sum is above zero the network says *disc*.")
    ring_live()
    show_source(ring.forward, ring.train_ring)


def boundary_words(W, b, relu_on: bool) -> None:
    """What the output's boundary can be: a closed region with the bend, one straight line (or none)
    without it, W (2, 1) and b (1,) being the collapsed layer."""
    if relu_on:
        st.success("Each unit is off on one side of its fold line. Weighted and added, the three bent ramps "
                   "can leave one closed region where the output stays above 0, around the disc.",
                   icon=":material/check_circle:")
    else:
        dist = ring.line_distance(W[:, 0], float(b[0]))
        if not np.isfinite(dist):
            where = ("W is zero: the three directions cancel exactly, so the collapsed layer is a constant and "
                     "every point gets the same answer. There is no boundary at all.")
        elif line_in_box(W[:, 0], float(b[0]), ring.BOX) is None:
            where = (f"The boundary xW + b = 0 is one straight line, {fmt.num(dist, 2)} from the centre: "
                     "outside this chart, so every point shown gets the same answer.")
        else:
            where = (f"The boundary xW + b = 0 is one straight line, {fmt.num(dist, 2)} from the centre. "
                     "A line cannot go round the disc.")
        st.warning(where, icon=":material/horizontal_rule:")
    st.caption(f"The best any straight line can do on these points is {fmt.pct(_best_line())} "
               "(every direction and cut tried).")


@st.fragment
def ring_live() -> None:
    X, y = _points()
    st.subheader("The output: three ramps weighted and added")
    out_col, ctl = st.columns([3, 2], gap="large")
    with ctl:
        weights = LINKS.widget("weights", horizontal=True)
        bend = LINKS.widget("bend", horizontal=True)
        relu_on = bend == "relu"
        if weights == "hand":
            LINKS.widget("seed", disabled=True, help="Trained weights only; these are set by hand below.")
            st.caption("Set the weights, a column per hidden unit: W₁ (its weights on x₁ and x₂), b₁ (its "
                       "bias), W₂ (how much its ramp counts), and the output's bias b₂.")
            per_unit = ["unit 1", "unit 2", "unit 3"]
            W1 = LINKS.widget("w1", col_labels=per_unit, row_labels=["W₁ · x₁", "W₁ · x₂"], show_label=False)
            b1 = LINKS.widget("b1", col_labels=per_unit, row_labels=["b₁"], show_label=False)
            W2 = LINKS.widget("w2", col_labels=per_unit, row_labels=["W₂"], show_label=False)
            b2 = LINKS.widget("b2", row_labels=["b₂"], col_labels=["output"], show_label=False)
            net = ring.RingNet(W1, b1, W2[:, None], b2)                # W₂ as the (3, 1) column
        else:
            net = _trained(int(LINKS.widget("seed")))
        acc = ring.accuracy(net, X, y, bend=relu_on)
        st.metric("Points classified correctly", fmt.pct(acc))
    units, output = _ring_figures(*net.params(), relu_on)
    with out_col:
        charts.show(output)
        st.caption("Shaded green: output above 0 (disc); orange: below 0 (ring), the classes' own colours; the "
                   "ink line is the decision boundary, where the output is 0. Colours saturate at the scale shown.")
    W, b = collapse(net.W1, net.b1, net.W2, net.b2)                    # (2, 1), (1,)
    boundary_words(W, b, relu_on)
    st.subheader("The three hidden units" + ("" if relu_on else ", without the bend"))
    for col, fig, j in zip(st.columns(3), units, range(3), strict=True):
        with col:
            charts.show(fig)
            st.caption(f"z = {fmt.fixed(net.W1[0, j])}·x₁ {'−' if net.W1[1, j] < 0 else '+'} "
                       f"{fmt.fixed(abs(net.W1[1, j]))}·x₂ {'−' if net.b1[j] < 0 else '+'} "
                       f"{fmt.fixed(abs(net.b1[j]))}")
    st.caption("Blue: the unit's value; dashed: its fold line. " + (
        "White on one side of the fold: the unit is off there (ReLU turned its negative values into 0)."
        if relu_on else "Vermillion: without the bend the negative side stays negative, so no unit "
                        "ever switches off."))

    st.markdown("The weights, the same in both views:" if relu_on else
                "The same weights, with no bend between the layers:")
    st.latex(r"\text{output} = " + (r"\operatorname{ReLU}(xW_1 + b_1)" if relu_on else r"(xW_1 + b_1)")
             + r"\,W_2 + b_2")
    k1, k2 = st.columns(2)
    k1.latex(rf"W_1 = {ramps.bmatrix(net.W1, 2)}")
    k1.latex(rf"b_1 = {ramps.bmatrix(net.b1, 2)}")
    k2.latex(rf"W_2 = {ramps.bmatrix(net.W2, 2)}")
    k2.latex(rf"b_2 = {ramps.bmatrix(net.b2, 2)}")
    if not relu_on:
        st.markdown("Two linear layers are one: **W = W₁W₂** and **b = b₁W₂ + b₂**, the collapsed single "
                    "layer.")
        st.latex(rf"W = W_1W_2 = {ramps.bmatrix(W, 3)} \\ b = b_1W_2 + b_2 = {ramps.bmatrix(b, 3)}")


if __name__ == "__main__":
    st.title("Sums of ReLUs")
    room.intro("A ReLU is a **ramp**: flat at zero, then rising once its input passes a threshold. "
                "Income tax is a pile of such ramps, one per band, and the top of the pile is the tax.")
    tax_section()
    show_source(tax.relu_tax, tax.stacked_ramps, tax.band_breakdown)
    curve_section()
    ring_section()

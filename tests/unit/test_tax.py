"""lib.tax: the ReLU sum against a bracket-by-bracket computation written here, worked examples,
the marginal rate as the derivative, tables that add up, and schedules typed by people."""

from __future__ import annotations

import math

import numpy as np
import pytest

from lib.tax import (
    PRESETS,
    ScheduleError,
    band_breakdown,
    bracket_tax,
    chart_top,
    effective_rate,
    format_bands,
    marginal_rate,
    parse_bands,
    ramp_breakdown,
    ramps,
    relu_tax,
    stacked_ramps,
    validate_schedule,
)

RNG = np.random.default_rng(4)


def by_brackets(income: float, thresholds, rates) -> float:
    """Independent reference: walk the bands as a tax form does, no ReLUs anywhere."""
    tax = 0.0
    for k, (lo, rate) in enumerate(zip(thresholds, rates, strict=True)):
        hi = thresholds[k + 1] if k + 1 < len(thresholds) else math.inf
        if income > lo:
            tax += rate * (min(income, hi) - lo)
    return tax


def random_schedule():
    k = int(RNG.integers(1, 8))
    t = np.sort(RNG.choice(np.arange(0, 200_000, 500), size=k, replace=False)).astype(float)
    r = RNG.uniform(0.0, 1.0, size=k)  # rates may fall as well as rise
    return t, r


def test_simple_preset_worked_example():
    s = PRESETS["simple"]
    # 50,000 under 0 % to 10,000, 20 % to 40,000, 40 % above:
    # 0.2 * 30,000 + 0.4 * 10,000 = 6,000 + 4,000 = 10,000
    assert relu_tax(50_000, s.thresholds, s.rates) == pytest.approx(10_000.0, abs=1e-9)
    # as ramps: 0.2 * ReLU(50,000 - 10,000) + (0.4 - 0.2) * ReLU(50,000 - 40,000) = 8,000 + 2,000
    np.testing.assert_allclose(ramps(50_000, s.thresholds, s.rates), [0.0, 8_000.0, 2_000.0])


def test_uk_2024_worked_example():
    s = PRESETS["uk-2024"]
    # £60,000: 20 % of (50,270 - 12,570) = 7,540, plus 40 % of (60,000 - 50,270) = 3,892
    assert relu_tax(60_000, s.thresholds, s.rates) == pytest.approx(11_432.0, abs=1e-9)


def hmrc_2024(income: float) -> float:
    """HMRC's own steps for 2024/25 non-savings income (no reliefs), written independently:
    taper the Personal Allowance, then tax taxable income against the basic-rate limit
    (£37,700) and the higher-rate limit (£125,140)."""
    allowance = max(0.0, 12_570 - max(0.0, income - 100_000) / 2)
    taxable = max(0.0, income - allowance)
    return (0.20 * min(taxable, 37_700)
            + 0.40 * max(0.0, min(taxable, 125_140) - 37_700)
            + 0.45 * max(0.0, taxable - 125_140))


@pytest.mark.parametrize("income", [0, 5_000, 12_570, 30_000, 50_270, 80_000, 100_000, 100_001,
                                    112_345.5, 125_140, 125_141, 150_000, 1_000_000])
def test_taper_preset_matches_hmrc_steps(income):
    s = PRESETS["uk-2024-taper"]
    assert relu_tax(income, s.thresholds, s.rates) == pytest.approx(hmrc_2024(income), abs=1e-6)


def test_headline_uk_preset_differs_only_above_100k():
    s = PRESETS["uk-2024"]
    low = np.linspace(0, 100_000, 201)
    np.testing.assert_allclose(relu_tax(low, s.thresholds, s.rates), [hmrc_2024(i) for i in low], atol=1e-6)
    # above the taper the headline bands under-tax by 40 % of the lost allowance: 0.4 * 12,570
    assert hmrc_2024(200_000) - relu_tax(200_000, s.thresholds, s.rates) == pytest.approx(5_028.0)


def test_us_2024_worked_example():
    s = PRESETS["us-2024"]
    # $100,000 taxable: 10 % of 11,600 + 12 % of 35,550 + 22 % of 52,850
    # = 1,160 + 4,266 + 11,627 = 17,053
    assert relu_tax(100_000, s.thresholds, s.rates) == pytest.approx(17_053.0, abs=1e-9)


def test_relu_sum_equals_brackets_for_random_schedules_and_incomes():
    for _ in range(200):
        t, r = random_schedule()
        incomes = np.concatenate([RNG.uniform(-1_000, 400_000, size=20), t, t + 0.01, t - 0.01])
        got = relu_tax(incomes, t, r)
        assert got.shape == incomes.shape
        want = [by_brackets(i, t, r) for i in incomes]
        np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-7)
        for i in incomes[:5]:
            s = relu_tax(float(i), t, r)
            assert isinstance(s, float)
            assert s == pytest.approx(by_brackets(i, t, r), abs=1e-7)
            assert bracket_tax(float(i), t, r) == pytest.approx(s, abs=1e-7)


def test_relu_tax_keeps_any_income_shape():
    s = PRESETS["uk-2024"]
    grid = RNG.uniform(0, 300_000, size=(4, 5))
    out = relu_tax(grid, s.thresholds, s.rates)
    assert out.shape == (4, 5)
    assert out[2, 3] == pytest.approx(relu_tax(float(grid[2, 3]), s.thresholds, s.rates))


def test_marginal_rate_is_the_central_difference_slope():
    for _ in range(50):
        t, r = random_schedule()
        x = RNG.uniform(0, 300_000, size=40)
        x = x[np.min(np.abs(x[:, None] - t), axis=1) > 1.0]  # away from the kinks
        h = 0.01
        numeric = (relu_tax(x + h, t, r) - relu_tax(x - h, t, r)) / (2 * h)
        np.testing.assert_allclose(marginal_rate(x, t, r), numeric, atol=1e-6)


def test_marginal_rate_is_the_band_rate_and_lower_at_the_threshold():
    s = PRESETS["uk-2024"]
    assert marginal_rate(12_570, s.thresholds, s.rates) == 0.0  # ReLU's slope at its kink is 0
    assert marginal_rate(12_571, s.thresholds, s.rates) == pytest.approx(0.20)
    assert marginal_rate(200_000, s.thresholds, s.rates) == pytest.approx(0.45)


def test_effective_rate():
    s = PRESETS["simple"]
    assert effective_rate(50_000, s.thresholds, s.rates) == pytest.approx(0.2)
    assert effective_rate(0, s.thresholds, s.rates) == 0.0
    us = PRESETS["us-2024"]
    assert effective_rate(0, us.thresholds, us.rates) == pytest.approx(0.10)  # the limit from above
    x = np.linspace(0, 1e6, 101)
    e = effective_rate(x, us.thresholds, us.rates)
    assert np.isfinite(e).all() and np.all(np.diff(e) >= -1e-12)  # rising rates: never falls


@pytest.mark.parametrize("key", list(PRESETS))
@pytest.mark.parametrize("income", [0.0, 7_000.0, 12_570.0, 45_000.0, 160_000.0, 900_000.0])
def test_breakdowns_add_up_to_the_total(key, income):
    s = PRESETS[key]
    bands = band_breakdown(income, s.thresholds, s.rates)
    assert bands["in_band"].sum() == pytest.approx(income)
    total = relu_tax(income, s.thresholds, s.rates)
    assert bands["tax"].sum() == pytest.approx(total, abs=1e-9)
    ramps_ = ramp_breakdown(income, s.thresholds, s.rates)
    assert ramps_["ramp"].sum() == pytest.approx(total, abs=1e-9)
    np.testing.assert_allclose(ramps_["step"].cumsum(), s.rates, atol=1e-15)


def test_band_breakdown_adds_an_untaxed_first_row():
    bands = band_breakdown(30_000, [10_000, 20_000], [0.1, 0.3])
    assert bands["from"].tolist() == [0.0, 10_000.0, 20_000.0]
    assert bands["to"].tolist() == [10_000.0, 20_000.0, math.inf]
    assert bands["tax"].tolist() == pytest.approx([0.0, 1_000.0, 3_000.0])


def test_validate_accepts_and_converts_percent():
    t, r = validate_schedule([0, 1000.5, "2,000"], [0, 12.5, "40"])
    np.testing.assert_allclose(t, [0, 1000.5, 2000])
    np.testing.assert_allclose(r, [0, 0.125, 0.4])


@pytest.mark.parametrize(("t", "r", "words"), [
    ([0, 20_000, 10_000], [0, 20, 40], "must go up: row 3 is below row 2"),
    ([0, 10_000, 10_000], [0, 20, 40], "rows 2 and 3 have the same threshold"),
    ([0, 10_000], [0, -5], "row 2: a rate must be between 0 and 100"),
    ([0, 10_000], [0, 150], "row 2: a rate must be between 0 and 100"),
    ([-10, 10_000], [0, 20], "row 1: a threshold cannot be negative"),
    ([0, float("nan")], [0, 20], "row 2: the threshold is empty or not a number"),
    ([0, None], [0, 20], "row 2: the threshold is empty"),
    ([0, 10], [0, "abc"], "row 2: the rate is empty or not a number"),
    ([0, 10], [0, float("inf")], "row 2: the rate is empty or not a number"),
    ([0, 10], [0, "1e999"], "row 2: the rate is empty or not a number"),
    ([0, 10], [0, True], "row 2: the rate is empty or not a number"),
    ([], [], "at least one band"),
    (list(range(21)), [10] * 21, "at most 20 bands, this has 21"),
    ([0, 2e12], [0, 20], "row 2: a threshold above 1,000,000,000,000 is beyond any income"),
    ([0, 10], [0], "both a threshold and a rate"),
])
def test_validate_rejects_with_a_reason(t, r, words):
    with pytest.raises(ScheduleError, match=words):
        validate_schedule(t, r)


@pytest.mark.parametrize("key", list(PRESETS))
def test_link_form_round_trips(key):
    s = PRESETS[key]
    text = format_bands(s.thresholds, s.rates)
    t, r = parse_bands(text)
    np.testing.assert_array_equal(t, s.thresholds)
    np.testing.assert_allclose(r, s.rates, atol=1e-15)


def test_link_form_is_compact():
    uk = format_bands([0, 12_570, 50_270, 125_140], [0, 0.2, 0.4, 0.45])
    assert uk == "0:0,12570:20,50270:40,125140:45"
    assert format_bands([0, 1000.5], [0.07, 0.125]) == "0:7,1000.5:12.5"


@pytest.mark.parametrize(("text", "words"), [
    ("", "no bands"), ("0:0,100", "band 2 is not threshold:rate"), ("0:0:1", "band 1 is not"),
    ("0:0,abc:20", "row 2: the threshold"), ("100:10,50:20", "must go up"),
    ("0:120", "between 0 and 100"), ("0:nan", "not a number"),
])
def test_parse_bands_rejects_with_a_reason(text, words):
    with pytest.raises(ScheduleError, match=words):
        parse_bands(text)


def test_presets_state_year_source_and_simplifications():
    for s in PRESETS.values():
        assert s.year and s.source and s.simplifications
        validate_schedule(s.thresholds, s.rates_pct)
    assert "HMRC" in PRESETS["uk-2024"].source and "2024/25" in PRESETS["uk-2024"].year
    assert "taper" in PRESETS["uk-2024"].simplifications


def test_chart_top_is_round_and_covers_the_schedule_and_income():
    assert chart_top([0, 10_000, 40_000]) == 60_000
    assert chart_top([0, 12_570, 50_270, 125_140]) == 200_000
    assert chart_top([0, 10], income=1_000_000) == 1_500_000
    assert chart_top([0]) == 100


@pytest.mark.parametrize("income", [0.0, 60_000.0, 100_000.0, 110_000.0, 125_140.0, 150_000.0, 200_000.0])
def test_taper_pile_top_is_the_tax(income):
    """Issue 12: with the taper, the falling 45 % ramp must come off the top, not sit on it."""
    s = PRESETS["uk-2024-taper"]
    bottom, top = stacked_ramps(np.array([income]), s.thresholds, s.rates)   # (1, 5) each
    rising = np.diff(s.rates, prepend=0.0) >= 0
    tax = relu_tax(income, s.thresholds, s.rates)
    assert top[0, rising].max() == pytest.approx(tax, abs=1e-6)
    # the rising slices fill 0 .. tax without gaps or overlaps
    order = np.argsort(bottom[0, rising])
    lo, hi = bottom[0, rising][order], top[0, rising][order]
    assert lo[0] == 0.0 and np.allclose(lo[1:], hi[:-1])
    # the falling slice is exactly the falling ramp, sitting on the tax
    fall = ramps(income, s.thresholds, s.rates)[~rising]
    assert bottom[0, ~rising] == pytest.approx(tax) and top[0, ~rising] - tax == pytest.approx(-fall)


def test_taper_pile_at_200k_is_76k_not_88k():
    s = PRESETS["uk-2024-taper"]
    # band by band: 0.2 * 37,700 + 0.4 * 49,730 + 0.6 * 25,140 + 0.45 * 74,860
    #             = 7,540 + 19,892 + 15,084 + 33,687 = 76,203
    _, top = stacked_ramps(np.array([200_000.0]), s.thresholds, s.rates)
    rising = np.diff(s.rates, prepend=0.0) >= 0
    assert top[0, rising].max() == pytest.approx(76_203.0)
    assert top[0].max() == pytest.approx(87_432.0)  # the removed slice reaches the uncut pile


def test_pile_top_is_the_tax_for_random_schedules():
    x = np.linspace(0.0, 300_000.0, 61)                                    # (61,)
    for _ in range(50):
        t, r = random_schedule()
        bottom, top = stacked_ramps(x, t, r)                                 # (61, k)
        rising = np.diff(r, prepend=0.0) >= 0
        tax = relu_tax(x, t, r)
        assert np.all(bottom <= top + 1e-9)
        pile = np.where(rising, top, 0.0).max(axis=1)
        np.testing.assert_allclose(pile, tax, atol=1e-6)
        # falling slices are as tall as their ramps
        height = (top - bottom)[:, ~rising]
        np.testing.assert_allclose(height, -ramps(x, t, r)[:, ~rising], atol=1e-6)

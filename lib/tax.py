"""Income tax as a sum of ReLUs: each band is a ramp that switches on at its threshold.

A marginal schedule taxes the part of income above threshold t_k (and below the next) at
rate r_k. Written as ramps, the tax is

    tax(I) = sum_k (r_k - r_{k-1}) * ReLU(I - t_k),      r_{-1} = 0,

because crossing t_k does not replace the earlier ramps, it adds a steeper one on top.
Its derivative, the marginal rate, is a step function: sum_k (r_k - r_{k-1}) * [I > t_k].

Rates are fractions here (0.2 for 20 %); the page shows percent. Schedules typed by a person
go through `validate_schedule`, which says in one line what is wrong.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pandas as pd


class ScheduleError(ValueError):
    """A schedule a student typed (or a link carried) that cannot be a tax schedule."""


MAX_BANDS = 20          # real schedules have a handful; a legend of hundreds helps nobody
MAX_THRESHOLD = 1e12    # beyond any income, and far from float overflow in the charts


# --- the forward and its derivative ---------------------------------------------------------

def rate_steps(rates) -> np.ndarray:
    """How much each threshold raises the marginal rate: r_k - r_{k-1}, with r_{-1} = 0. (k,)"""
    rates = np.asarray(rates, dtype=float)
    return np.diff(rates, prepend=0.0)  # (k,)


def ramps(income, thresholds, rates) -> np.ndarray:
    """Each band's ramp, (r_k - r_{k-1}) * ReLU(income - t_k), one column per threshold.

    Parameters
    ----------
    income : float or array of shape (n,)
    thresholds : array of shape (k,), ascending
    rates : array of shape (k,), fractions

    Returns
    -------
    array of shape (k,) for a scalar income, else (n, k); summing the last axis gives the tax.
    """
    x = np.asarray(income, dtype=float)[..., None]           # (n, 1) or (1,)
    t = np.asarray(thresholds, dtype=float)                  # (k,)
    return rate_steps(rates) * np.maximum(x - t, 0.0)        # (n, k) or (k,)


def relu_tax(income, thresholds, rates):
    """Tax owed under a marginal schedule, as a sum of ReLU ramps.

    Parameters
    ----------
    income : float or array of any shape
    thresholds : array of shape (k,), ascending
        thresholds[k] is where band k starts.
    rates : array of shape (k,)
        rates[k] is the marginal rate (a fraction) on income above thresholds[k] and below
        thresholds[k + 1].

    Returns
    -------
    tax : float for a scalar income, else an array of the income's shape.
    """
    tax = ramps(income, thresholds, rates).sum(axis=-1)      # income's shape
    return float(tax) if np.ndim(income) == 0 else tax


def marginal_rate(income, thresholds, rates):
    """The derivative of `relu_tax`: the rate on the next unit of income, a step function.

    At a threshold itself the lower rate applies (ReLU's slope at its kink is taken as 0,
    as in lib.activations). Same shapes as `relu_tax`.
    """
    x = np.asarray(income, dtype=float)[..., None]           # (n, 1) or (1,)
    on = x > np.asarray(thresholds, dtype=float)             # (n, k): ReLU'(income - t_k)
    rate = (rate_steps(rates) * on).sum(axis=-1)             # income's shape
    return float(rate) if np.ndim(income) == 0 else rate


def effective_rate(income, thresholds, rates):
    """Tax as a fraction of income. At income 0 it is the limit from above: the first rate's
    value just right of 0 (0 if the first band starts above 0). Same shapes as `relu_tax`."""
    x = np.asarray(income, dtype=float)
    tax = np.asarray(relu_tax(x, thresholds, rates))
    at_zero = marginal_rate(np.zeros_like(x) + 1e-12, thresholds, rates)
    safe = np.where(x > 0, x, 1.0)                           # no division by 0 below
    out = np.where(x > 0, tax / safe, at_zero)
    return float(out) if np.ndim(income) == 0 else out


def stacked_ramps(income, thresholds, rates) -> tuple[np.ndarray, np.ndarray]:
    """The ramps as a pile whose top is the tax: where each ramp's slice sits, (n, k) bottoms and tops.

    Ramps with a rising rate (a positive step) are stacked in threshold order, each on the one
    before. A falling rate (a negative step) does not sit on the pile: it takes its slice off the
    top, so the rising slices are cut off at the tax (highest first), and each falling ramp's
    slice is the part removed, stacked from the tax up to where the rising ramps alone would
    reach. So the top of the rising slices is the tax at every income, and every slice is as tall
    as its ramp. (Rates are never negative, so the tax never falls below 0 and every cut fits.)

    Parameters
    ----------
    income : array of shape (n,)
    thresholds, rates : arrays of shape (k,), as for `relu_tax`

    Returns
    -------
    bottom, top : arrays of shape (n, k); column k is ramp k's slice, bottom <= top.
    A rising ramp is drawn as what is left of its slice (top - bottom may be less than the
    ramp where a falling ramp cut it); a falling ramp as the slice it removed.
    """
    r = ramps(np.atleast_1d(np.asarray(income, dtype=float)), thresholds, rates)  # (n, k)
    up = np.maximum(r, 0.0)                                  # (n, k) rising ramps, 0 elsewhere
    down = np.maximum(-r, 0.0)                               # (n, k) falling ramps as heights
    tax = r.sum(axis=1, keepdims=True)                       # (n, 1)
    up_top = np.cumsum(up, axis=1)                           # (n, k) pile of rising ramps
    bottom_up = np.minimum(up_top - up, tax)                 # (n, k) cut off at the tax
    top_up = np.minimum(up_top, tax)                         # (n, k)
    down_top = tax + np.cumsum(down, axis=1)                 # (n, k) removed slices, from the tax up
    rising = r >= 0                                          # (n, k)
    bottom = np.where(rising, bottom_up, down_top - down)    # (n, k)
    top = np.where(rising, top_up, down_top)                 # (n, k)
    return bottom, top


def bracket_tax(income: float, thresholds, rates) -> float:
    """The same tax the way a tax office computes it: band by band, rate times income in band.

    Scalar only; `relu_tax` is the vectorised form. Used as an independent check.
    """
    return float(band_breakdown(income, thresholds, rates)["tax"].sum())


# --- tables for one income ------------------------------------------------------------------

def band_breakdown(income: float, thresholds, rates) -> pd.DataFrame:
    """Band by band for one income: where each band runs, its rate, the income in it, its tax.

    A first row at 0 % covers income below the first threshold when that is above 0, so the
    "in band" column always adds up to the income (for income >= 0).

    Returns
    -------
    DataFrame with columns from, to (inf for the top band), rate (fraction), in_band, tax;
    one row per band.
    """
    t = [float(v) for v in thresholds]
    r = [float(v) for v in rates]
    if t and t[0] > 0:
        t, r = [0.0, *t], [0.0, *r]
    upper = [*t[1:], math.inf]
    rows = []
    for lo, hi, rate in zip(t, upper, r, strict=True):
        in_band = min(max(income - lo, 0.0), hi - lo)
        rows.append({"from": lo, "to": hi, "rate": rate, "in_band": in_band, "tax": rate * in_band})
    return pd.DataFrame(rows, columns=["from", "to", "rate", "in_band", "tax"])


def ramp_breakdown(income: float, thresholds, rates) -> pd.DataFrame:
    """Ramp by ramp for one income: threshold, rate step, ReLU(income - threshold), their product.

    The "ramp" column adds up to the same total as `band_breakdown`'s "tax" column, although
    the rows differ: a band's tax is spread over every ramp that has switched on.
    """
    t = np.asarray(thresholds, dtype=float)                  # (k,)
    relu = np.maximum(float(income) - t, 0.0)                # (k,)
    steps = rate_steps(rates)                                # (k,)
    return pd.DataFrame({"threshold": t, "step": steps, "relu": relu, "ramp": steps * relu + 0.0})


# --- schedules typed by people --------------------------------------------------------------

def validate_schedule(thresholds, rates_pct) -> tuple[np.ndarray, np.ndarray]:
    """Check a schedule typed as thresholds and rates in percent; return it ready for `relu_tax`.

    Rules: 1 to MAX_BANDS bands; every cell a finite number; thresholds from 0 to MAX_THRESHOLD,
    strictly ascending (so no duplicates); rates between 0 and 100 %.

    Returns
    -------
    thresholds : array of shape (k,); rates : array of shape (k,) as fractions.

    Raises
    ------
    ScheduleError with a one-line reason that names the row (rows count from 1).
    """
    t_raw, r_raw = list(thresholds), list(rates_pct)
    if len(t_raw) != len(r_raw):
        raise ScheduleError("every band needs both a threshold and a rate")
    if not t_raw:
        raise ScheduleError("the schedule needs at least one band")
    if len(t_raw) > MAX_BANDS:
        raise ScheduleError(f"at most {MAX_BANDS} bands, this has {len(t_raw)}")
    t = np.empty(len(t_raw))
    r = np.empty(len(r_raw))
    for i, (tv, rv) in enumerate(zip(t_raw, r_raw, strict=True)):
        for name, v, out in (("threshold", tv, t), ("rate", rv, r)):
            num = _number(v)
            if num is None:
                raise ScheduleError(f"row {i + 1}: the {name} is empty or not a number")
            out[i] = num
    for i in range(len(t)):
        if t[i] < 0:
            raise ScheduleError(f"row {i + 1}: a threshold cannot be negative")
        if t[i] > MAX_THRESHOLD:
            raise ScheduleError(f"row {i + 1}: a threshold above {MAX_THRESHOLD:,.0f} is beyond any income")
        if not 0.0 <= r[i] <= 100.0:
            raise ScheduleError(f"row {i + 1}: a rate must be between 0 and 100 %")
    for i in range(1, len(t)):
        if t[i] == t[i - 1]:
            raise ScheduleError(f"rows {i} and {i + 1} have the same threshold")
        if t[i] < t[i - 1]:
            raise ScheduleError(f"thresholds must go up: row {i + 1} is below row {i}")
    return t, r / 100.0


def _number(v) -> float | None:
    """A finite float from a cell (number or text), else None. Never evaluates text."""
    if v is None or isinstance(v, bool):
        return None
    try:
        num = float(str(v).strip().replace(",", "")) if isinstance(v, str) else float(v)
    except (TypeError, ValueError):
        return None
    return num if math.isfinite(num) else None


def format_bands(thresholds, rates) -> str:
    """Compact link form, threshold:rate% per band: '0:0,12570:20,50270:40,125140:45'."""
    return ",".join(f"{_short(t)}:{_short(100.0 * r)}" for t, r in zip(thresholds, rates, strict=True))


def _short(v: float) -> str:
    v = round(float(v), 6)  # 100 * 0.07 is 7.000000000000001; the link should say 7
    return str(int(v)) if v == int(v) else f"{v:g}"


def parse_bands(text: str) -> tuple[np.ndarray, np.ndarray]:
    """Read `format_bands`' form back and validate it; raises ScheduleError with a reason."""
    pairs = [p for p in str(text).strip().split(",") if p.strip()]
    if not pairs:
        raise ScheduleError("no bands in it")
    t, r = [], []
    for i, pair in enumerate(pairs):
        parts = pair.split(":")
        if len(parts) != 2:
            raise ScheduleError(f"band {i + 1} is not threshold:rate")
        t.append(parts[0])
        r.append(parts[1])
    return validate_schedule(t, r)


# --- presets --------------------------------------------------------------------------------

@dataclass(frozen=True)
class Schedule:
    key: str             # the URL value of `preset`
    label: str           # what the page calls it
    thresholds: tuple    # (k,) where each band starts, in `currency`
    rates_pct: tuple     # (k,) marginal rate in percent on income above the threshold
    currency: str        # symbol put before amounts ("" for a made-up schedule)
    year: str            # tax year the numbers are for
    source: str          # where the numbers come from
    simplifications: str  # what the schedule leaves out, one or two sentences
    menu: str = ""       # the short name a menu shows ("UK 2024/25")

    @property
    def rates(self) -> np.ndarray:
        return np.asarray(self.rates_pct, dtype=float) / 100.0


PRESETS: dict[str, Schedule] = {s.key: s for s in (
    Schedule(
        "simple", "A made-up three-band schedule", (0, 10_000, 40_000), (0, 20, 40), "",
        "none (made up)", "invented for this lesson",
        "Round numbers, chosen so the three ramps are easy to see.", "Made up: three round bands",
    ),
    Schedule(
        "uk-2024", "UK income tax (England, Wales, Northern Ireland)",
        (0, 12_570, 50_270, 125_140), (0, 20, 40, 45), "£",
        "2024/25 (6 April 2024 to 5 April 2025)",
        "HMRC, published on GOV.UK as 'Income Tax rates and Personal Allowances'",
        "Non-savings income of one person with the standard Personal Allowance of £12,570. "
        "Ignores the taper that withdraws the allowance by £1 for every £2 above £100,000 "
        "(the preset 'UK income tax with the allowance taper as a band' models it), and ignores "
        "National Insurance, savings and "
        "dividend rates, and Scotland's own bands.", "UK 2024/25",
    ),
    Schedule(
        "uk-2024-taper", "UK income tax with the allowance taper as a band",
        (0, 12_570, 50_270, 100_000, 125_140), (0, 20, 40, 60, 45), "£",
        "2024/25 (6 April 2024 to 5 April 2025)",
        "HMRC, published on GOV.UK as 'Income Tax rates and Personal Allowances'",
        "As uk-2024, but the Personal Allowance taper is modelled as a 60 % band from £100,000 "
        "to £125,140: each extra £1 there is taxed at 40 % and also removes 50p of allowance, "
        "which is then taxed at 40 % too. For one person's non-savings income this gives "
        "HMRC's tax at every income, apart from HMRC rounding the lost allowance to whole pounds.",
        "UK 2024/25 with the allowance taper",
    ),
    Schedule(
        "us-2024", "US federal income tax, single filer",
        (0, 11_600, 47_150, 100_525, 191_950, 243_725, 609_350), (10, 12, 22, 24, 32, 35, 37), "$",
        "2024",
        "IRS, Revenue Procedure 2023-34 (the 2024 inflation adjustments)",
        "Applies to taxable income, after the standard deduction ($14,600) or itemised "
        "deductions; ignores credits, state and payroll taxes, and the lower rates on "
        "long-term capital gains and qualified dividends.", "US 2024, single filer",
    ),
)}


def chart_top(thresholds, income: float = 0.0) -> float:
    """A round upper end for a tax chart's income axis: past the last threshold and the income."""
    t = np.asarray(thresholds, dtype=float)
    want = max(1.5 * float(t.max()) if t.size else 0.0, 1.2 * float(income), 100.0)
    step = 10.0 ** math.floor(math.log10(want))
    for m in (1.0, 1.5, 2.0, 2.5, 3.0, 4.0, 5.0, 6.0, 8.0, 10.0):
        if m * step >= want:
            return m * step
    return 10.0 * step

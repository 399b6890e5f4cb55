"""ui.fmt: numbers as a teacher writes them (pure functions, no Streamlit needed)."""

import numpy as np
import pandas as pd
import pytest

from ui import colors, fmt

M = fmt.MINUS


@pytest.mark.parametrize(("v", "digits", "want"), [
    (2.4299999999999997, 3, "2.43"),
    (0.9999999999999999, 3, "1"),
    (-0.65, 3, f"{M}0.65"),
    (-0.0001, 3, f"{M}1 × 10⁻⁴"),
    (3.6e-15, 3, "3.6 × 10⁻¹⁵"),
    (12570.5, 2, "12,570.5"),
    (-0.0, 3, "0"),
    (1.65, 2, "1.65"),
])
def test_num(v, digits, want):
    assert fmt.num(v, digits) == want


def test_no_negative_zero_and_true_minus():
    assert fmt.fixed(-0.0004, 3) == "0.000"
    assert fmt.fixed(-1.5) == f"{M}1.50"
    assert fmt.signed(0.5) == "+0.50" and fmt.signed(-0.5) == f"{M}0.50"
    assert fmt.num(1.0, keep=1) == "1.0"


def test_powers_instead_of_e_notation():
    assert fmt.power(4.73e-4) == "4.7 × 10⁻⁴"
    assert fmt.power(9.96e-5) == "1 × 10⁻⁴"  # the mantissa rounds up to 10: carried to the exponent
    assert fmt.gap(3.6e-15) == "3.6 × 10⁻¹⁵, below rounding error"
    assert fmt.gap(0) == "exactly 0"
    for v in (1e-5, 2.2e-16, 4.73e-4, 1.45e-1, 123456.0):
        for s in (fmt.num(v), fmt.gap(v), fmt.power(v)):
            assert "e-" not in s and "e+" not in s


def test_counts_shares_money_shapes():
    assert fmt.count(124439808) == "124,439,808"
    assert fmt.pct(0.683) == "68.3 %"
    assert fmt.pct(float("nan")) == "–"
    assert fmt.money(-17053.5, "$") == f"{M}$17,053.50"
    assert fmt.money(11432, "£") == "£11,432"
    assert fmt.shape(3, 2) == "3 × 2" and fmt.shape((768, 3072)) == "768 × 3,072"


def test_tex():
    assert fmt.tex(-3.6e-15) == r"-3.6 \times 10^{-15}"
    assert fmt.tex(-1.5) == "-1.5"
    assert fmt.tex(2, 3, fixed_digits=True) == "2.000"


def test_frame_rounds_the_data_not_only_its_format():
    df = fmt.frame(pd.DataFrame({"a": [2.4299999999999997, -0.0000001], "n": [1, 2]}))
    assert df["a"].tolist() == [2.43, 0.0]
    assert str(df["a"].iloc[1]) == "0.0"  # no negative zero
    assert df["n"].tolist() == [1, 2]


def test_grid_writes_the_cards_minus_sign():
    cols = {"a": np.array([-0.65, 2.4299999999999997, -0.0000001]), "n": [-3, 12_000, 0],
            "t": ["x", "y", "z"]}
    out = fmt.grid(cols)
    assert out["a"] == ["\u22120.65", "2.43", "0"] and out["n"] == ["\u22123", "12,000", "0"]
    assert out["t"] == ["x", "y", "z"] and cols["a"][0] == -0.65   # the columns given are kept
    two = fmt.grid(cols, 2, fixed_digits=True, only=["a"])
    assert two["a"] == ["\u22120.65", "2.43", "0.00"] and two["n"] == [-3, 12_000, 0]


def test_colours_keep_one_meaning():
    sign = {colors.POSITIVE, colors.NEGATIVE}
    classes = set(colors.CLASSES)
    onoff = {colors.ON, colors.OFF}
    cats = set(colors.CATEGORY)
    groups = [sign, classes, onoff, cats]
    for i, a in enumerate(groups):
        for b in groups[i + 1:]:
            assert not a & b, (a, b)
    assert len(colors.CLASSES) >= 5 and len(colors.CLASS_NAMES) == len(colors.CLASSES)
    assert colors.rgba("#0072B2", 0.5) == "rgba(0,114,178,0.5)"


@pytest.mark.parametrize("hidden, want", [
    ((), "no hidden layer"), (None, "no hidden layer"), ((8,), "1 hidden layer of 8"),
    ((8, 4), "2 hidden layers of 8 and 4"), ([16, 8, 4], "3 hidden layers of 16, 8 and 4"),
    ((16, 16), "2 hidden layers of 16 each"), ((1000,), "1 hidden layer of 1,000")])
def test_layers_in_words_never_a_bare_list_read_as_a_count_of_layers(hidden, want):
    assert fmt.layers(hidden) == want


def test_times_on_the_viewers_clock_or_how_long_ago_never_utc():
    from datetime import UTC, datetime, timedelta

    now = datetime(2026, 7, 1, 12, 10, 30, tzinfo=UTC)
    assert [fmt.ago(s) for s in (-5, 0, 59, 60, 119, 125, 3599, 3600, 3900, 86_400, 3 * 86_400)] == [
        "just now", "just now", "just now", "1 min ago", "1 min ago", "2 min ago", "59 min ago", "1 h ago",
        "1 h 5 min ago", "1 day ago", "3 days ago"]
    two = now - timedelta(minutes=2)
    assert fmt.when(two, now, "Europe/London") == "13:08, 2 min ago"       # BST: UTC+1 in July
    assert fmt.when(two, now, "America/New_York") == "08:08, 2 min ago"
    assert fmt.when(two, now, None) == fmt.when(two, now, "Not/AZone") == "2 min ago"   # unknown: no clock
    assert fmt.when(None, now, "UTC") == "–"
    assert "UTC" not in fmt.when(two, now, "UTC")
    assert [fmt.within(s) for s in (-1, 0, 30, 60, 61, 32 * 60, 3600, 3900)] == [
        "now", "now", "in 1 min", "in 1 min", "in 2 min", "in 32 min", "in 1 h", "in 1 h 5 min"]
    closes = now + timedelta(minutes=32)
    assert fmt.until(closes, now, "Europe/Berlin") == "at 14:42 (in 32 min)"
    assert fmt.until(closes, now, "") == "in 32 min"

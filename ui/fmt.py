"""Numbers as a teacher writes them: one module for every number, shape and sign on screen.

Rules, the same on every page:
- a true minus sign (−, U+2212) in text, never a negative zero (−0.000 prints 0.000);
- no e-notation: a very small number reads 3.6 × 10⁻¹⁵, or "below rounding error" for gaps;
- one precision per kind of number: weights and activations `num` (up to 3 decimals), shares
  `pct` (one decimal), counts `count` (thousands separators), money `money`;
- shapes as 3 × 2; a network's hidden layers in words (`layers`: '1 hidden layer of 8');
- times on class screens on the viewer's own clock or 'N min ago' (`when`, `until`), never UTC.
LaTeX gets the same numbers through `tex` (LaTeX draws its own minus from "-").
Tables: round the data itself (`frame`), not only its format, because st.dataframe's hidden
accessible table and a copied cell hold the raw value (2.4299999999999997); write a table of signed
numbers with `grid`, as text with the same minus sign as the sentences around it (the grid itself draws
"-0.65", and no NumberColumn format changes that).
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from numbers import Real

MINUS = "\u2212"
TIMES = "×"
SUPERSCRIPT = str.maketrans("0123456789-", "⁰¹²³⁴⁵⁶⁷⁸⁹⁻")
ROUNDING = 1e-12  # a gap below this is rounding error in float64 for numbers of order 1


def _clean(v: float, digits: int) -> float:
    """v rounded to `digits` decimals, with -0.0 turned into 0.0."""
    r = round(float(v), digits)
    return 0.0 if r == 0 else r


def _minus(s: str) -> str:
    return s.replace("-", MINUS)


def fixed(v: float, digits: int = 2) -> str:
    """Exactly `digits` decimals: fixed(-0.0004, 3) -> '0.000', fixed(-1.5) -> '−1.50'."""
    return _minus(f"{_clean(v, digits):.{digits}f}")


def num(v: float | None, digits: int = 3, *, keep: int = 0) -> str:
    """Up to `digits` decimals without trailing zeros (at least `keep`): 1.65, −0.65, 2, 0.001.

    A number too small for `digits` decimals but not zero is written with its first two
    significant figures in powers of ten, never as 0 or in e-notation: 3.6 × 10⁻⁵.
    """
    if v is None:
        return "–"
    v = float(v)
    if not math.isfinite(v):
        return "not a number" if math.isnan(v) else ("∞" if v > 0 else MINUS + "∞")
    if v != 0 and abs(v) < 0.5 * 10.0 ** (-digits):
        return power(v)
    s = f"{_clean(v, digits):.{digits}f}"
    if "." in s:
        s = s.rstrip("0")
        whole, _, dec = s.partition(".")
        dec = dec.ljust(keep, "0")
        s = f"{whole}.{dec}" if dec else whole
    if abs(v) >= 10_000:
        whole, dot, dec = s.partition(".")
        s = f"{int(whole):,}" + (dot + dec if dec else "")
    return _minus(s)


def signed(v: float, digits: int = 2) -> str:
    """With its sign always written: +0.50, −1.20 (weights on a diagram)."""
    s = fixed(v, digits)
    return s if s.startswith(MINUS) else "+" + s


def power(v: float, sig: int = 2) -> str:
    """Powers of ten instead of e-notation: 3.6 × 10⁻¹⁵; 1 × 10⁻⁵."""
    v = float(v)
    if v == 0:
        return "0"
    exp = math.floor(math.log10(abs(v)))
    mant = v / 10.0**exp
    if round(abs(mant), sig - 1) >= 10:
        mant, exp = mant / 10, exp + 1
    m = f"{mant:.{sig - 1}f}".rstrip("0").rstrip(".")
    return _minus(f"{m} {TIMES} 10") + str(exp).translate(SUPERSCRIPT)


def gap(v: float) -> str:
    """A difference that should be zero: '3.6 × 10⁻¹⁵, below rounding error', or the number."""
    v = abs(float(v))
    if v == 0:
        return "exactly 0"
    if v < ROUNDING:
        return f"{power(v)}, below rounding error"
    return num(v, 6) if v < 1e-3 else num(v, 3)


def count(n: float) -> str:
    """A whole number with thousands separators: 124,439,808."""
    return _minus(f"{round(float(n)):,}")


def pct(share: float | None, digits: int = 1) -> str:
    """A share (0.683) as a percentage: '68.3 %'."""
    if share is None or not math.isfinite(float(share)):
        return "–"
    return fixed(100.0 * float(share), digits) + " %"


def money(v: float, currency: str = "", decimals: int | None = None) -> str:
    """An amount: '£12,570', '−$17,053.50'; whole amounts without decimals unless asked."""
    v = float(v)
    if decimals is None:
        decimals = 0 if round(v, 2) == round(v) else 2
    r = _clean(v, decimals)
    sign = MINUS if r < 0 else ""
    return f"{sign}{currency}{abs(r):,.{decimals}f}"


def shape(*dims: int | Iterable[int]) -> str:
    """A shape: shape(3, 2) or shape((3, 2)) -> '3 × 2'; a vector: '3'."""
    if len(dims) == 1 and not isinstance(dims[0], int):
        dims = tuple(dims[0])
    return f" {TIMES} ".join(f"{int(d):,}" for d in dims)


def tex(v: float, digits: int = 3, *, fixed_digits: bool = False) -> str:
    """A number for LaTeX: as `num` (or `fixed`), with LaTeX's own minus and \\times 10^{..}."""
    s = fixed(v, digits) if fixed_digits else num(v, digits)
    if TIMES in s:
        mant, _, exp = s.partition(f" {TIMES} 10")
        exp = exp.translate(str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹⁻", "0123456789-"))
        s = f"{mant} \\times 10^{{{exp}}}"
    return s.replace(MINUS, "-").replace(",", "{,}")


def frame(df, digits: int = 3):
    """A copy of a DataFrame with every float column rounded (and −0.0 made 0.0), for st.dataframe."""
    out = df.copy()
    for c in out.columns:
        if out[c].dtype.kind == "f":
            out[c] = out[c].round(digits) + 0.0
    return out


def numbers(values) -> bool:
    """Are these a column of numbers (Python or numpy, not booleans)?"""
    return all(isinstance(v, Real) and not isinstance(v, bool) for v in values)


def grid(columns, digits: int = 3, *, fixed_digits: bool = False, only=None) -> dict:
    """A table's columns ({name: values}) with every column of numbers (or only those in `only`) written
    as `num` (or `fixed`) writes them, with the true minus sign: the text a table draws, "−0.65", where
    the grid itself would draw a number "-0.65" (ui/tables.py shows it right-aligned, as numbers stand).
    Numbers are rounded to `digits` first: a table has no room for 1 × 10⁻⁷. Other columns are kept as
    they are."""
    write = (lambda v: fixed(v, digits)) if fixed_digits else (lambda v: num(_clean(v, digits), digits))
    out = {}
    for name, values in columns.items():
        values = list(values)
        wanted = only is None or name in only
        out[name] = [write(v) for v in values] if wanted and numbers(values) else values
    return out


def layers(hidden) -> str:
    """A network's hidden layers in words, never as a bare list a class reads as a count of layers:
    () -> 'no hidden layer', (8,) -> '1 hidden layer of 8', (8, 4) -> '2 hidden layers of 8 and 4',
    (16, 16) -> '2 hidden layers of 16 each'."""
    units = [int(u) for u in (hidden or ())]
    if not units:
        return "no hidden layer"
    if len(units) == 1:
        return f"1 hidden layer of {units[0]:,}"
    if len(set(units)) == 1:
        return f"{len(units)} hidden layers of {units[0]:,} each"
    *first, last = (f"{u:,}" for u in units)
    return f"{len(units)} hidden layers of {', '.join(first)} and {last}"


def ago(seconds: float) -> str:
    """How long ago, in the words a room says it: 'just now', '1 min ago', '12 min ago', '2 h 5 min ago',
    '3 days ago'. A time a little ahead (another machine's clock) is 'just now'."""
    s = max(0, int(seconds))
    if s < 60:
        return "just now"
    minutes = s // 60
    if minutes < 60:
        return f"{minutes} min ago"
    hours, minutes = divmod(minutes, 60)
    if hours < 24:
        return f"{hours} h {minutes} min ago" if minutes else f"{hours} h ago"
    days = hours // 24
    return f"{days} day{'s' if days != 1 else ''} ago"


def within(seconds: float) -> str:
    """How long until, the other way round from `ago`: 'in 1 min', 'in 32 min', 'in 2 h 5 min', 'now'."""
    s = int(seconds)
    if s <= 0:
        return "now"
    minutes = -(-s // 60)   # 30 s left is 'in 1 min', not 'in 0 min'
    if minutes < 60:
        return f"in {minutes} min"
    hours, minutes = divmod(minutes, 60)
    return f"in {hours} h {minutes} min" if minutes else f"in {hours} h"


def _zone(name: str | None):
    """The viewer's time zone by name (st.context.timezone), or None when it is unknown or not a zone."""
    if not name:
        return None
    from zoneinfo import ZoneInfo

    try:
        return ZoneInfo(str(name))
    except (ValueError, KeyError, OSError):   # ZoneInfoNotFoundError is a KeyError
        return None


def when(at, now, zone: str | None) -> str:
    """A past moment on a class screen: on the viewer's own clock with how long ago ('14:03, 2 min ago'),
    or, when the viewer's zone is unknown, how long ago alone ('2 min ago'); never UTC. `at` and `now`
    are aware datetimes; None (a row without a time) is '–'."""
    if at is None:
        return "–"
    since = ago((now - at).total_seconds())
    tz = _zone(zone)
    return since if tz is None else f"{at.astimezone(tz):%H:%M}, {since}"


def until(at, now, zone: str | None) -> str:
    """A moment to come (a class closing): 'at 14:45 (in 32 min)' on the viewer's clock, or 'in 32 min'."""
    left = within((at - now).total_seconds())
    tz = _zone(zone)
    return left if tz is None else f"at {at.astimezone(tz):%H:%M} ({left})"

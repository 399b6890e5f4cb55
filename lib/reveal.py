"""The room's number answers as the projector draws them on Reveal (issue 43 item 5, issue 44 item 1).

Pure: NumPy only. A histogram that a class reads at a glance, whatever one student types:
- the right answers (within the question's tolerance) are one bar of their own;
- the wrong ones are binned between round numbers (steps of 1, 2, 2.5 or 5 times a power of ten);
- the bins span the wrong answers bar the far-out ones (beyond three interquartile ranges of the room's
  middle half), which are folded into an end bar each side ("≥ 100", "< −20");
- never more than MAX_BARS bars, whatever the answers (1e12 beside 3.5 is one end bar, not a billion).

`bars(values, answer, tolerance)` -> tuple of `Bar`, in the order of the number line.
`recount(drawn, values, answer, tolerance)` -> the same bars counting other answers (a second vote beside
the first on the same bins: the bars drawn from both votes' answers together).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

MAX_BARS = 12          # every bar, the right one and both end bars included
NICE = (1.0, 2.0, 2.5, 5.0, 10.0)
FAR = 3.0              # interquartile ranges beyond the middle half: a far-out answer, folded into an end bar


@dataclass(frozen=True)
class Bar:
    """`count` answers in [lo, hi) (lo = −inf or hi = +inf: an end bar); `right`: the right answers' bar,
    [answer − tolerance, answer + tolerance]."""

    lo: float
    hi: float
    count: int
    right: bool = False
    only: float | None = None   # the one number every answer in the bar is, when they are all the same

    @property
    def middle(self) -> float:
        """Where the bar stands for its answers: the right answer, a bin's middle, an end bar's edge."""
        if math.isinf(self.lo):
            return self.hi
        if math.isinf(self.hi):
            return self.lo
        return (self.lo + self.hi) / 2


def nice_step(raw: float) -> float:
    """The smallest round step (1, 2, 2.5 or 5 times a power of ten) at least `raw` (> 0)."""
    mag = 10.0 ** math.floor(math.log10(raw))
    return next(m * mag for m in NICE if m * mag >= raw * (1 - 1e-12))


def _round(v: float, step: float) -> float:
    """An edge without float dust: 0.30000000000000004 -> 0.3 (to two decimals below the step's)."""
    return round(v, max(0, 2 - math.floor(math.log10(step)))) + 0.0


def _span(x: np.ndarray, wrong: np.ndarray, tolerance: float) -> tuple[float, float]:
    """The smallest and largest wrong answers the bins cover: all but the far-out ones, beyond Tukey's far
    fences of every answer (FAR interquartile ranges outside the middle half, the range at least the
    median's size: a room that mostly agrees keeps a near miss, and 25000 typed for 3.5 is far out).
    When every wrong answer is far out, the bins cover them all."""
    q1, med, q3 = (float(v) for v in np.percentile(x, [25, 50, 75]))
    reach = FAR * max(q3 - q1, abs(med), 2 * tolerance, 1e-9)
    near = wrong[(wrong >= q1 - reach) & (wrong <= q3 + reach)]   # (k,)
    near = near if near.size else wrong
    return float(near.min()), float(near.max())


def edges(lo: float, hi: float, most: int, tolerance: float = 0.0) -> np.ndarray:
    """Round edges from at or below `lo` to above `hi`, at most `most` bins (at least 1): (b + 1,)."""
    span = hi - lo
    if span <= 1e-9 * max(1.0, abs(lo)):   # one value: one bin of a round width around it
        span = max(abs(lo) * 0.2, 4 * tolerance, 1e-9) or 1.0
    step = nice_step(span / max(1, min(most, 6)))
    while True:
        first = math.floor(lo / step + 1e-9) * step
        n = math.floor((hi - first) / step + 1e-9) + 1   # [first + k step, ...) holds hi
        if n <= most:
            return np.array([_round(first + k * step, step) for k in range(n + 1)])
        step = nice_step(step * 1.01)


def _only(x: np.ndarray) -> float | None:
    return float(x[0]) if x.size and bool((x == x[0]).all()) else None


def bars(values, answer: float | None = None, tolerance: float = 0.0) -> tuple[Bar, ...]:
    """The answers as bars, in number-line order: the right ones (|v − answer| ≤ tolerance, to rounding)
    as one Bar(right=True), the wrong ones in round bins, far-out ones in an end bar each side."""
    x = np.asarray(list(values), dtype=float)                                  # (n,)
    if not x.size:
        return ()
    right = np.zeros(x.size, dtype=bool) if answer is None else \
        np.abs(x - answer) <= tolerance + 1e-9 * max(1.0, abs(answer))     # (n,)
    wrong = x[~right]                                                           # (m,)
    out: list[Bar] = []
    if wrong.size:
        lo, hi = _span(x, wrong, tolerance)
        e = edges(lo, hi, MAX_BARS - 3, tolerance)                              # (b + 1,)
        inside = (wrong >= e[0]) & (wrong < e[-1])                              # (m,)
        which = np.searchsorted(e, wrong[inside], side="right") - 1           # (k,): its bin
        if (low := wrong[wrong < e[0]]).size:
            out.append(Bar(-math.inf, float(e[0]), low.size, only=_only(low)))
        kept = wrong[inside]                                                    # (k,)
        out += [Bar(float(e[i]), float(e[i + 1]), int((which == i).sum()), only=_only(kept[which == i]))
                for i in range(len(e) - 1)]
        if (high := wrong[wrong >= e[-1]]).size:
            out.append(Bar(float(e[-1]), math.inf, high.size, only=_only(high)))
        while len(out) > 1 and out[0].count == 0:   # no empty bar at either end
            out.pop(0)
        while len(out) > 1 and out[-1].count == 0:
            out.pop()
    if answer is not None:
        mark = Bar(answer - tolerance, answer + tolerance, int(right.sum()), right=True)
        at = sum(math.isinf(b.lo) or (math.isfinite(b.hi) and b.middle <= answer) for b in out)
        out.insert(at, mark)
    return tuple(out)


def recount(drawn: tuple[Bar, ...], values, answer: float | None = None,
            tolerance: float = 0.0) -> tuple[Bar, ...]:
    """The same bars (their edges and order) counting `values` instead: each right answer in the right
    bar, each wrong one in the bar whose [lo, hi) holds it. `drawn` must come from answers that include
    these (bars() of both votes' answers), so every value has its bar."""
    x = np.asarray(list(values), dtype=float)                                  # (n,)
    right = np.zeros(x.size, dtype=bool) if answer is None else \
        np.abs(x - answer) <= tolerance + 1e-9 * max(1.0, abs(answer))     # (n,)
    out = []
    for b in drawn:
        mine = x[right] if b.right else x[~right & (x >= b.lo) & (x < b.hi)]   # (k,)
        out.append(Bar(b.lo, b.hi, int(mine.size), right=b.right, only=None if b.right else _only(mine)))
    return tuple(out)

"""A lesson's Reveal, as the projector and a student's phone show it (issue 43 item 5, issue 48 item 3):
how many were right in large type, the room's answers as one chart (the right answers one bar of their
own in the colour of right, the wrong ones between round numbers, far-out ones in an end bar), the same
as one sentence a screen reader reads, and every number written as ui.fmt writes it (£40,000, −1.5).
The bars' maths is lib's (lib.reveal, lib.lessons.distribution); this module only writes and draws it.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import streamlit as st

from classroom import text
from lib import lessons as lib
from ui import colors, fmt

RIGHT_MARK, WRONG_MARK = "✓", "✗"


def say(q: lib.Question) -> Callable[[float], str]:
    """How this question's numbers are written: money as £40,000 (never 4×10⁴), else up to 4 decimals
    with one minus sign (−1.5) and the unit after."""
    if q.unit == "£":
        return lambda v: fmt.money(v, "£")
    return lambda v: fmt.num(v, 4) + (f" {q.unit}" if q.unit else "")


def shown_answer(q: lib.Question, v) -> str:
    """An answer as words: a choice's phrase, or the number with its unit ("none": no answer)."""
    if v is None:
        return "none"
    if q.kind == "choice":
        return q.choices[int(v)] if 0 <= int(v) < len(q.choices) else "?"
    return say(q)(float(v))


def sentence(q: lib.Question, dist: lib.Distribution) -> str:
    """The room's answers as one sentence: "12 of 20 answered 1.65, the right answer; 5 answered 1.15"."""
    return lib.reveal_words(dist, say(q))


def tally(dist: lib.Distribution) -> str:
    """The reveal's headline: "17 of 28 right" (a poll: "28 answers")."""
    if dist.n_right is None:
        return f"{dist.n} answer{'s' if dist.n != 1 else ''}"
    return f"{dist.n_right} of {dist.n} right"


def big_line(words: str, size: str = "2.6rem", colour: str | None = None, *, live: bool = False) -> None:
    """A line the back row reads (our own words only: numbers and fixed text, escaped). `live`: a polite
    live region, so a screen reader says it when it changes."""
    import html

    style = f"font-size:{size};font-weight:700;line-height:1.15;margin:0.1em 0"
    if colour:
        style += f";color:{colour}"
    role = ' role="status" aria-live="polite"' if live else ""
    st.html(f'<p style="{style}"{role}>{html.escape(words)}</p>')


def _bar_label(q: lib.Question, b, write: Callable[[float], str]) -> str:
    if b.right:
        return f"{write(float(q.answer))} {RIGHT_MARK}"
    if math.isinf(b.lo):
        return f"< {write(b.hi)}"
    if math.isinf(b.hi):
        return f"≥ {write(b.lo)}"
    return f"{write(b.lo)}<br>to {write(b.hi)}"


def _bars(q: lib.Question, dist: lib.Distribution) -> tuple[list[str], list[bool], list[str]]:
    """The bars' labels (the right one marked ✓), which is right, and their words on hover."""
    if dist.kind == "choice":
        labels = [text.for_plotly(c) + (f" {RIGHT_MARK}" if i == dist.right else "")
                  for i, c in enumerate(dist.labels)]
        return labels, [i == dist.right for i in range(len(dist.counts))], labels
    labels = [_bar_label(q, b, say(q)) for b in dist.bars]
    return labels, [b.right for b in dist.bars], [label.replace("<br>", " ") for label in labels]


def _trace(dist: lib.Distribution, labels, right, hover, name: str, **marker) -> dict:
    counts = list(dist.counts)
    return {"type": "bar", "x": labels, "y": counts, "name": name,
            "marker": {"color": [colors.RIGHT if r else colors.OFF for r in right], **marker},
            "text": [f"{n} {RIGHT_MARK}" if r else str(n) for n, r in zip(counts, right, strict=True)],
            "textposition": "outside", "textfont": {"size": 18}, "customdata": hover,
            "hovertemplate": f"{name}, %{{customdata}}: %{{y}}<extra></extra>"}


def _layout(height: int, most: int) -> dict:
    yaxis = {"title": {"text": "students"}, "rangemode": "tozero", "zeroline": True,
             "range": [0, 1.25 * max(most, 1) + 0.5]}
    if most <= 10:
        yaxis["dtick"] = 1
    return {"height": height, "margin": {"l": 10, "r": 10, "t": 10, "b": 10}, "showlegend": False,
            "hovermode": "closest", "font": {"size": 16}, "bargap": 0.25,
            "xaxis": {"type": "category", "tickfont": {"size": 16}, "automargin": True}, "yaxis": yaxis}


def figure(q: lib.Question, dist: lib.Distribution, height: int = 300):
    """Bars per choice, or lib's bars of numbers, in order along a category axis: the right one green
    and marked ✓ (its count over it), the others grey; no title on the chart (the headline above it says
    how many were right), so nothing runs into its labels. Plain plotly data, sent unbuilt (ui.frozen)."""
    from ui.frozen import frozen_spec

    labels, right, hover = _bars(q, dist)
    data = [_trace(dist, labels, right, hover, "answers")]
    return frozen_spec({"data": data, "layout": _layout(height, max(dist.counts or (0,)))})


FIRST, SECOND = "First vote", "After discussing"   # the two votes' names on the chart and in words


def figure_votes(q: lib.Question, one: lib.Distribution, two: lib.Distribution, height: int = 300):
    """A question asked twice: both votes' bars side by side on the same bins (lib.lessons.distributions),
    the first vote hatched and paler, the second solid (KEY names them above the chart: plotly's legend
    drew a bar's first colour as each vote's swatch, grey for both); colours as figure's."""
    from ui.frozen import frozen_spec

    labels, right, hover = _bars(q, two)
    data = [_trace(one, labels, right, hover, FIRST, opacity=0.55,
                   pattern={"shape": "/", "fgcolor": "#ffffff", "solidity": 0.3}),
            _trace(two, labels, right, hover, SECOND)]
    layout = _layout(height, max((*one.counts, *two.counts, 0)))
    layout.update(barmode="group", bargroupgap=0.08)
    return frozen_spec({"data": data, "layout": layout})


KEY = f"Each answer's two bars: hatched, the {FIRST.lower()}; solid, {SECOND.lower()}."


def moved_words(moved: lib.Moved) -> str:
    """How the room moved between the votes: "4 of 11 moved to the right answer; right: 45 % → 73 %"
    (a poll: "3 of 11 changed their answer")."""
    if moved.to_right is None:
        return f"{moved.changed} of {moved.n} changed their answer after discussing"
    words = f"{moved.to_right} of {moved.n} moved to the right answer"
    if moved.away:
        words += f", {moved.away} away from it"
    return words + f"; right: {fmt.pct(moved.first, 0)} → {fmt.pct(moved.second, 0)}"


def chart_name(q: lib.Question, dist: lib.Distribution) -> str:
    return f"The room's answers: {tally(dist)}, the right answer in green"


def show(q: lib.Question, dist: lib.Distribution, key: str, height: int = 300) -> None:
    """The reveal on the projector: the headline, the chart, the sentence (live for a screen reader)."""
    from ui import charts

    big_line(tally(dist))
    if dist.n:
        charts.show(figure(q, dist, height), key=key, name=chart_name(q, dist))
    big_line(sentence(q, dist), size="1.15rem", live=True)


def show_votes(q: lib.Question, shown, key: str, height: int = 300) -> None:
    """The reveal of a question asked twice (store.Revealed): who moved to the right answer, large; both
    votes side by side on one chart; each vote as one sentence (live for a screen reader)."""
    from ui import charts

    one, two = shown.votes
    big_line(moved_words(shown.moved), size="1.7rem")
    if one.n or two.n:
        big_line(KEY, size="1rem")
        charts.show(figure_votes(q, one, two, height), key=key,
                    name=f"The room's answers, {FIRST.lower()} ({tally(one)}) beside "
                         f"{SECOND.lower()} ({tally(two)}), the right answer in green")
    big_line(f"{FIRST}: {tally(one)}. {SECOND}: {tally(two)}. {sentence(q, two)}", size="1.15rem",
             live=True)


def mark(right: bool | None) -> str:
    return "" if right is None else (RIGHT_MARK if right else WRONG_MARK)

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


def figure(q: lib.Question, dist: lib.Distribution, height: int = 300):
    """Bars per choice, or lib's bars of numbers, in order along a category axis: the right one green
    and marked ✓ (its count over it), the others grey; no title on the chart (the headline above it says
    how many were right), so nothing runs into its labels. Plain plotly data, sent unbuilt (ui.frozen)."""
    from ui.frozen import frozen_spec

    write = say(q)
    if dist.kind == "choice":
        labels = [text.for_plotly(c) + (f" {RIGHT_MARK}" if i == dist.right else "")
                  for i, c in enumerate(dist.labels)]
        right = [i == dist.right for i in range(len(dist.counts))]
        hover = labels
    else:
        labels = [_bar_label(q, b, write) for b in dist.bars]
        right = [b.right for b in dist.bars]
        hover = [label.replace("<br>", " ") for label in labels]
    counts = list(dist.counts)
    cols = [colors.RIGHT if r else colors.OFF for r in right]
    yaxis = {"title": {"text": "students"}, "rangemode": "tozero", "zeroline": True,
             "range": [0, 1.25 * max(counts or [1]) + 0.5]}
    if max(counts or (0,)) <= 10:
        yaxis["dtick"] = 1
    layout = {"height": height, "margin": {"l": 10, "r": 10, "t": 10, "b": 10}, "showlegend": False,
              "hovermode": "closest", "font": {"size": 16}, "bargap": 0.25,
              "xaxis": {"type": "category", "tickfont": {"size": 16}, "automargin": True},
              "yaxis": yaxis}
    data = [{"type": "bar", "x": labels, "y": counts, "marker": {"color": cols},
             "text": [f"{n} {RIGHT_MARK}" if r else str(n) for n, r in zip(counts, right, strict=True)],
             "textposition": "outside", "textfont": {"size": 18}, "name": "answers",
             "customdata": hover, "hovertemplate": "%{customdata}: %{y}<extra></extra>"}]
    return frozen_spec({"data": data, "layout": layout})


def chart_name(q: lib.Question, dist: lib.Distribution) -> str:
    return f"The room's answers: {tally(dist)}, the right answer in green"


def show(q: lib.Question, dist: lib.Distribution, key: str, height: int = 300) -> None:
    """The reveal on the projector: the headline, the chart, the sentence (live for a screen reader)."""
    from ui import charts

    big_line(tally(dist))
    if dist.n:
        charts.show(figure(q, dist, height), key=key, name=chart_name(q, dist))
    big_line(sentence(q, dist), size="1.15rem", live=True)


def mark(right: bool | None) -> str:
    return "" if right is None else (RIGHT_MARK if right else WRONG_MARK)

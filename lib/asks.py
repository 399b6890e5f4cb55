"""What a page can be asked: its answerable quantities, declared once beside its LINKS.

A lesson page declares `ASKS = asks.declare(Ask(...), ...)` next to its link table. Each `Ask` is plain
data: a name (unique on its page), the words a question uses, the kind (a number with its unit and
tolerance, or choices), the values a question fixes beyond the link (`Param`: which output, at which x,
after how many epochs), and the lib function that computes the right answer from a step's link values.

The link values are the page's own, as its LINKS parse them (`ui.state.Links.read`): `LinkValues`, a dict
holding every key of the table (the link's value, else the declared default) and `given`, the keys the link
itself carried (a page whose defaults follow another value, like /gpt2-params' preset, needs to know).
The computing functions live in lib (lib/answers.py) and only call what lib already computes for the page.

The page, the lesson (`Ask.question` makes a lib.lessons.Question) and the tests read the same record.
Pure: no streamlit, nothing of the app.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from lib import lessons

KINDS = lessons.KINDS   # "number", "choice"
YES_NO = ("Yes", "No")  # a yes-or-no question's choices: its answer is 0 for yes, 1 for no


class LinkValues(dict):
    """A page's link values as its LINKS parse them, every key present; `given`: those the link carried."""

    def __init__(self, values: Mapping[str, Any] = (), given: Iterable[str] = ()):
        super().__init__(values)
        self.given = frozenset(given)


@dataclass(frozen=True)
class Param:
    """A value a question fixes beyond the link: a whole or real number in [lo, hi], or one of `choices`."""

    name: str
    label: str
    default: Any
    lo: float | None = None
    hi: float | None = None
    whole: bool = True
    choices: tuple = ()

    def check(self, value: object) -> Any:
        """`value` as this parameter holds it; ValueError, one line, for anything else."""
        if self.choices:
            if value not in self.choices:
                raise ValueError(f"{self.label} is one of {', '.join(map(str, self.choices))}")
            return value
        if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
            raise ValueError(f"{self.label} must be a number")
        if self.whole and value != int(value):
            raise ValueError(f"{self.label} must be a whole number")
        if (self.lo is not None and value < self.lo) or (self.hi is not None and value > self.hi):
            raise ValueError(f"{self.label} runs from {self.lo:g} to {self.hi:g}")
        return int(value) if self.whole else float(value)


@dataclass(frozen=True)
class Ask:
    """One answerable quantity of a page.

    kind "number": `compute` returns a number in `unit`, right within `tolerance` (absolute) or `rel` times
    the answer, whichever is larger. kind "choice": `compute` returns the right choice's index."""

    name: str
    words: str                         # the question, with {param} slots: "What is output y{j}?"
    kind: str
    compute: Callable[..., float | int]   # (values: LinkValues, **params) -> the right answer
    unit: str = ""
    tolerance: float = 0.0
    rel: float = 0.0
    choices: tuple[str, ...] = ()
    params: tuple[Param, ...] = ()

    def __post_init__(self):
        if self.kind not in KINDS:
            raise ValueError(f"an ask's kind is number or choice, not {self.kind!r}")
        if (self.kind == "choice") != bool(self.choices):
            raise ValueError(f"{self.name}: a choice ask has choices, a number ask none")
        if not callable(self.compute):
            raise ValueError(f"{self.name}: compute must be a function")

    def settle(self, params: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """Every parameter's value: the given ones checked, the rest their defaults. ValueError, one line."""
        params = dict(params or {})
        extra = sorted(set(params) - {p.name for p in self.params})
        if extra:
            raise ValueError(f"{self.name} takes no {extra[0]!r}")
        return {p.name: p.check(params[p.name]) if p.name in params else p.default for p in self.params}

    def answer(self, values: LinkValues, params: Mapping[str, Any] | None = None) -> float | int:
        """The right answer for a step's link values (and the question's parameters)."""
        got = self.compute(values, **self.settle(params))
        if self.kind == "choice":
            return int(got)
        got = float(got)
        if not math.isfinite(got):
            raise ValueError(f"{self.name} is not a finite number for this link")
        return got

    def text(self, params: Mapping[str, Any] | None = None) -> str:
        return self.words.format(**self.settle(params))

    def tolerance_for(self, answer: float) -> float:
        return max(self.tolerance, self.rel * abs(float(answer)))

    def question(self, values: LinkValues, params: Mapping[str, Any] | None = None,
                 text: str | None = None) -> lessons.Question:
        """A lesson's question about this quantity, its right answer computed from the link values."""
        right = self.answer(values, params)
        about = {"ask": self.name, "at": tuple(sorted(self.settle(params).items()))}
        if self.kind == "choice":
            return lessons.Question("choice", text or self.text(params), self.choices, answer=right, **about)
        return lessons.Question("number", text or self.text(params), answer=round(right, 9),
                                tolerance=round(self.tolerance_for(right), 9), unit=self.unit, **about)


def declare(*asks: Ask) -> dict[str, Ask]:
    """A page's declaration: its asks by name, in order (a name twice is an error)."""
    out: dict[str, Ask] = {}
    for a in asks:
        if a.name in out:
            raise ValueError(f"ask {a.name!r} declared twice")
        out[a.name] = a
    return out

"""A lesson as a class activity: an ordered list of steps, each a view of a page (its URL path and link
values), some carrying a question the class answers before it sees the result (predict, then look).

Pure: NumPy and lib only. It does not know which pages exist: whoever reads a lesson passes the
allowed page paths in (`paths=`); without them a path is only checked to look like one.

- `Question`, `Step`, `Lesson`: frozen dataclasses; `to_dict` / `from_dict` / `dumps` / `loads` are the
  file format (`"format": "layerlab-lesson/1"`), validated strictly: a teacher or a file may give
  anything, and each refusal is one ValueError line.
- `check_answer` parses a student's answer; `is_right`, `distribution`, `share_right`, `spread`
  summarise the class's answers.
- `needed_numbers`, `missing_numbers`, `view_numbers`, `answer_disagrees`: what a typed question's words
  must give a student, and a typed right answer its step's view disagrees with (`recipe_y`, `tax_at`).
  The ready lessons are lesson files (course/, read by lib/lesson_build.py), their questions about the
  quantities each page declares (lib/asks.py, computed by lib/answers.py).
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable, Collection, Iterable, Mapping
from dataclasses import dataclass, field
from urllib.parse import parse_qsl

import numpy as np

FORMAT = "layerlab-lesson/1"
KINDS = ("number", "choice")
MAX_STEPS = 30
MIN_CHOICES, MAX_CHOICES = 2, 6
MAX_TITLE = 120  # characters: a lesson's or a step's title
MAX_TEXT = 500  # a question's text
MAX_CHOICE = 80  # one choice's words
MAX_UNIT = 16  # a number's unit ("£", "%", "units")
MAX_NOTE = 2_000  # the teacher's note on a step
MAX_PATH = 32  # a page's URL path (as store.LINK_PATH_MAX)
MAX_QUERY = 4_000  # a step's link values (a trainer link with its weights is about 2,100)
MAX_FILE = 200_000  # characters of a lesson file
MAX_MINUTES = 180  # a lesson's minutes in class
MAX_BUILDS_ON = 8  # the lessons one builds on
MAX_DEPTH = 6  # nesting of a lesson file: {steps: [{question: {choices: [...]}}]} is 5
MAX_ANSWER_TEXT = 40  # characters a student may type as a number
BOUND = 1e12  # |a number| in a question or an answer
PRIVATE = frozenset({"seat", "key", "class", "code"})  # never in a step's link: a seat, a key, a class
_PATH = re.compile(r"^[a-z0-9][a-z0-9-]*$")
_ASK = re.compile(r"^[a-z][a-z0-9_]{0,31}$")  # a declared quantity's name, and its parameters' (lib/asks.py)
MAX_AT = 4  # parameters of a question about a declared quantity


def _line(text: object, what: str, limit: int, *, empty: bool = False, lines: bool = False) -> str:
    if not isinstance(text, str):
        raise ValueError(f"{what} must be text")
    text = text.strip()
    if not text and not empty:
        raise ValueError(f"{what} is empty")
    if len(text) > limit:
        raise ValueError(f"{what} has {len(text):,} characters; at most {limit:,}")
    ok = (lambda ch: ch.isprintable() or ch == "\n") if lines else str.isprintable
    if not all(ok(ch) for ch in text):
        raise ValueError(f"{what} holds control characters")
    return text


def _number(v: object, what: str) -> float:
    if isinstance(v, bool) or not isinstance(v, int | float):
        raise ValueError(f"{what} must be a number")
    try:
        v = float(v)
    except OverflowError:   # an integer of hundreds of digits (a file may hold one): no float holds it
        v = math.inf
    if not math.isfinite(v) or abs(v) > BOUND:
        raise ValueError(f"{what} must be a finite number within ±{BOUND:g}")
    return v


# --- the three things a lesson is made of ------------------------------------------------------------
@dataclass(frozen=True)
class Question:
    """What the class answers before it sees the step's result.

    kind "number": `answer` a number (None: a poll, no right answer), right within `tolerance`, in `unit`.
    kind "choice": `choices` 2 to 6 phrases, `answer` the right one's index (None: a poll).
    `ask`: the name of a quantity the step's page declares (lib/asks.py), whose answer is computed from the
    step's link (by whoever knows the page's declaration); `at`: its parameters, (name, value) pairs."""

    kind: str
    text: str
    choices: tuple[str, ...] = ()
    answer: float | int | None = None
    tolerance: float = 0.0
    unit: str = ""
    ask: str = ""
    at: tuple[tuple[str, float | str], ...] = ()

    def __post_init__(self):
        _check_ask(self.ask, self.at)
        if self.kind not in KINDS:
            raise ValueError(f"a question's kind is number or choice, not {str(self.kind)[:20]!r}")
        _line(self.text, "a question's text", MAX_TEXT, lines=True)
        if not isinstance(self.choices, tuple):
            raise ValueError("a question's choices must be a list of phrases")
        _line(self.unit, "a question's unit", MAX_UNIT, empty=True)
        tol = _number(self.tolerance, "a question's tolerance")
        if tol < 0:
            raise ValueError("a question's tolerance cannot be negative")
        if self.kind == "number":
            if self.choices:
                raise ValueError("a number question has no choices")
            if self.answer is not None:
                _number(self.answer, "a number question's answer")
            return
        if not MIN_CHOICES <= len(self.choices) <= MAX_CHOICES:
            raise ValueError(
                f"a choice question needs {MIN_CHOICES} to {MAX_CHOICES} choices, not {len(self.choices)}"
            )
        for i, c in enumerate(self.choices):
            _line(c, f"choice {i + 1}", MAX_CHOICE)
        if len({c.strip().casefold() for c in self.choices}) != len(self.choices):
            raise ValueError("two choices say the same")
        if tol:
            raise ValueError("a choice question has no tolerance")
        if self.answer is not None and (
            isinstance(self.answer, bool)
            or not isinstance(self.answer, int)
            or not 0 <= self.answer < len(self.choices)
        ):
            raise ValueError(f"a choice question's answer is a choice's index, 0 to {len(self.choices) - 1}")

    @property
    def poll(self) -> bool:
        return self.answer is None


def _check_ask(ask: object, at: object) -> None:
    if not isinstance(ask, str) or (ask and not _ASK.match(ask)):
        raise ValueError(f"not a quantity's name: {str(ask)[:40]!r}")
    if not isinstance(at, tuple) or not all(isinstance(p, tuple) and len(p) == 2 for p in at):
        raise ValueError("a question's parameters must be name and value pairs")
    if at and not ask:
        raise ValueError("parameters belong to a question about a quantity (ask)")
    if len(at) > MAX_AT or len({n for n, _ in at}) != len(at):
        raise ValueError(f"a question has at most {MAX_AT} parameters, each once")
    for name, v in at:
        if not isinstance(name, str) or not _ASK.match(name):
            raise ValueError(f"not a parameter's name: {str(name)[:40]!r}")
        if isinstance(v, str):
            _line(v, f"parameter {name}", MAX_UNIT)
        else:
            _number(v, f"parameter {name}")


@dataclass(frozen=True)
class Step:
    """A view of a page (`path`, e.g. "recipe-card", and its link values `query`, `hide` included), with
    an optional question; `challenge`: the step is the class's trainer challenge."""

    path: str
    query: str = ""
    title: str = ""
    question: Question | None = None
    note: str = ""
    challenge: bool = False

    def __post_init__(self):
        check_path(self.path)
        check_query(self.query)
        _line(self.title, "a step's title", MAX_TITLE, empty=True)
        _line(self.note, "a step's note", MAX_NOTE, empty=True, lines=True)
        if self.question is not None and not isinstance(self.question, Question):
            raise ValueError("a step's question must be a Question")
        if not isinstance(self.challenge, bool):
            raise ValueError("a step's challenge is true or false")
        if self.challenge and self.path != "trainer":
            raise ValueError("a challenge step opens the trainer (path trainer)")

    @property
    def values(self) -> dict[str, str | list[str]]:
        return parse_query(self.query)

    @property
    def link(self) -> str:
        return f"/{self.path}" + (f"?{self.query}" if self.query else "")


@dataclass(frozen=True)
class Lesson:
    """A lesson: its title, its steps, and for a course's list (optional) the minutes it takes in class and
    the lessons it builds on (their names: a course file's name without its order, "recipe-card")."""

    title: str
    steps: tuple[Step, ...] = field(default_factory=tuple)
    minutes: int = 0                   # 0: not said
    builds_on: tuple[str, ...] = ()

    def __post_init__(self):
        _line(self.title, "the lesson's title", MAX_TITLE)
        if not isinstance(self.steps, tuple) or not all(isinstance(s, Step) for s in self.steps):
            raise ValueError("a lesson's steps must be a list of steps")
        if not 1 <= len(self.steps) <= MAX_STEPS:
            raise ValueError(f"a lesson has 1 to {MAX_STEPS} steps, not {len(self.steps)}")
        if isinstance(self.minutes, bool) or not isinstance(self.minutes, int) or not (
                0 <= self.minutes <= MAX_MINUTES):
            raise ValueError(f"a lesson's minutes are a whole number from 1 to {MAX_MINUTES}")
        if not isinstance(self.builds_on, tuple) or len(self.builds_on) > MAX_BUILDS_ON or not all(
                isinstance(n, str) and len(n) <= MAX_PATH and _PATH.match(n) for n in self.builds_on):
            raise ValueError(f"builds_on lists at most {MAX_BUILDS_ON} lesson names like \"recipe-card\"")


def check_path(path: object, paths: Collection[str] | None = None) -> str:
    """A page's URL path as a step keeps it ("recipe-card", no slash); in `paths` when given."""
    if not isinstance(path, str) or len(path) > MAX_PATH or not _PATH.match(path):
        raise ValueError(f"not a page path: {str(path)[:40]!r}")
    if paths is not None and path not in paths:
        raise ValueError(f"no page /{path} in this app")
    return path


def parse_query(query: str) -> dict[str, str | list[str]]:
    """A link's query as a plain dict: {key: value}, a list for a key given more than once."""
    out: dict[str, str | list[str]] = {}
    for k, v in parse_qsl(
        query, keep_blank_values=True, strict_parsing=bool(query), max_num_fields=MAX_QUERY
    ):
        if k in out:
            prev = out[k]
            out[k] = [*prev, v] if isinstance(prev, list) else [prev, v]
        else:
            out[k] = v
    return out


def check_query(query: object) -> str:
    if not isinstance(query, str):
        raise ValueError("a step's link values must be text")
    if len(query) > MAX_QUERY:
        raise ValueError(f"a step's link values have {len(query):,} characters; at most {MAX_QUERY:,}")
    if query.startswith("?"):
        raise ValueError("a step's link values start after the ?")
    try:
        values = parse_query(query)
    except ValueError:
        raise ValueError("a step's link values are not key=value pairs joined by &") from None
    bad = sorted(PRIVATE & set(values))
    if bad:
        raise ValueError(
            f"a step's link cannot carry {bad[0]}= (a seat, a key or a class is nobody's to share)"
        )
    return query


# --- the file format -----------------------------------------------------------------------------
def _fields(d: object, allowed: set[str], what: str) -> dict:
    if not isinstance(d, dict):
        raise ValueError(f"{what} must be an object")
    extra = sorted(set(d) - allowed, key=str)
    if extra:
        raise ValueError(f"{what} has an unknown field {str(extra[0])[:30]!r}")
    return d


def _depth(x: object, limit: int = MAX_DEPTH) -> int:
    if limit < 0:
        raise ValueError(f"a lesson file is nested more than {MAX_DEPTH} deep")
    if isinstance(x, dict):
        return 1 + max((_depth(v, limit - 1) for v in x.values()), default=0)
    if isinstance(x, list | tuple):
        return 1 + max((_depth(v, limit - 1) for v in x), default=0)
    return 0


def question_to_dict(q: Question) -> dict:
    d: dict = {"kind": q.kind, "text": q.text}
    if q.choices:
        d["choices"] = list(q.choices)
    if q.answer is not None:
        d["answer"] = q.answer
    if q.tolerance:
        d["tolerance"] = q.tolerance
    if q.unit:
        d["unit"] = q.unit
    if q.ask:
        d["ask"] = q.ask
    if q.at:
        d["at"] = dict(q.at)
    return d


def question_from_dict(d: object, where: str = "the question") -> Question:
    d = _fields(d, {"kind", "text", "choices", "answer", "tolerance", "unit", "ask", "at"}, where)
    choices = d.get("choices", [])
    if not isinstance(choices, list):
        raise ValueError(f"{where}: choices must be a list of phrases")
    at = d.get("at", {})
    if not isinstance(at, dict):
        raise ValueError(f"{where}: at must be an object of parameters")
    answer = d.get("answer")
    if d.get("kind") == "number" and answer is not None:
        answer = _number(answer, f"{where}: the answer")
    try:
        return Question(
            kind=d.get("kind"),
            text=d.get("text"),
            choices=tuple(choices),
            answer=answer,
            tolerance=d.get("tolerance", 0.0),
            unit=d.get("unit", ""),
            ask=d.get("ask", ""),
            at=tuple(sorted(at.items(), key=lambda p: str(p[0]))),
        )
    except ValueError as err:
        raise ValueError(f"{where}: {err}") from None


def step_to_dict(s: Step) -> dict:
    d: dict = {"path": s.path, "query": s.query}
    for k in ("title", "note"):
        if getattr(s, k):
            d[k] = getattr(s, k)
    if s.question is not None:
        d["question"] = question_to_dict(s.question)
    if s.challenge:
        d["challenge"] = True
    return d


def step_from_dict(d: object, paths: Collection[str] | None = None, where: str = "the step") -> Step:
    d = _fields(d, {"path", "query", "title", "question", "note", "challenge"}, where)
    try:
        check_path(d.get("path"), paths)
        q = d.get("question")
        return Step(
            path=d.get("path"),
            query=d.get("query", ""),
            title=d.get("title", ""),
            question=None if q is None else question_from_dict(q, "its question"),
            note=d.get("note", ""),
            challenge=d.get("challenge", False),
        )
    except ValueError as err:
        raise ValueError(f"{where}: {err}") from None


def to_dict(lesson: Lesson) -> dict:
    d = {"format": FORMAT, "title": lesson.title, "steps": [step_to_dict(s) for s in lesson.steps]}
    if lesson.minutes:
        d["minutes"] = lesson.minutes
    if lesson.builds_on:
        d["builds_on"] = list(lesson.builds_on)
    return d


def from_dict(d: object, paths: Collection[str] | None = None) -> Lesson:
    """A lesson from its dict (a file, a form, the store), every field checked; ValueError, one line."""
    d = _fields(d, {"format", "title", "steps", "minutes", "builds_on"}, "a lesson")
    _depth(d)
    if d.get("format") != FORMAT:
        raise ValueError(f"not a lesson file (its format is not {FORMAT})")
    steps = d.get("steps")
    if not isinstance(steps, list):
        raise ValueError("a lesson's steps must be a list")
    if not 1 <= len(steps) <= MAX_STEPS:
        raise ValueError(f"a lesson has 1 to {MAX_STEPS} steps, not {len(steps)}")
    parsed = tuple(step_from_dict(s, paths, f"step {i + 1}") for i, s in enumerate(steps))
    builds_on = d.get("builds_on", [])
    if not isinstance(builds_on, list):
        raise ValueError("builds_on must be a list of lesson names")
    return Lesson(title=d.get("title"), steps=parsed, minutes=d.get("minutes", 0), builds_on=tuple(builds_on))


def dumps(lesson: Lesson) -> str:
    """The file's text: one canonical form (keys sorted), so one lesson is one text."""
    return json.dumps(to_dict(lesson), sort_keys=True, ensure_ascii=False, indent=1)


def loads(text: str | bytes, paths: Collection[str] | None = None) -> Lesson:
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8-sig")   # a byte-order mark first, as Windows Notepad may save: fine
        except UnicodeDecodeError:
            raise ValueError("a lesson file is UTF-8 text") from None
    if not isinstance(text, str):
        raise ValueError("a lesson file is text")
    text = text.removeprefix("\ufeff")
    if len(text) > MAX_FILE:
        raise ValueError(f"a lesson file has at most {MAX_FILE:,} characters")
    try:
        d = json.loads(text, parse_constant=_no_constant)
    except RecursionError:
        raise ValueError(f"a lesson file is nested more than {MAX_DEPTH} deep") from None
    except json.JSONDecodeError as err:
        raise ValueError(f"not JSON: {err.msg} at line {err.lineno}") from None
    return from_dict(d, paths)


def _no_constant(name: str):
    raise ValueError(f"a lesson file holds only finite numbers, not {name}")


# --- a student's answer and the class's ---------------------------------------------------------
def check_answer(question: Question, raw: object) -> float | int:
    """A student's answer as kept: a finite number within ±BOUND (text like "3.5" or "3,5" too), or a
    choice's index in range (its words are taken too). ValueError, one line a student can act on."""
    if isinstance(raw, bool):
        raise ValueError("an answer is a number or a choice")
    if question.kind == "choice":
        if isinstance(raw, str):
            t = raw.strip()
            hit = [i for i, c in enumerate(question.choices) if c.casefold() == t.casefold()]
            if hit:
                return hit[0]
            if not t.isdigit():
                raise ValueError("choose one of the answers")
            raw = int(t)
        if isinstance(raw, float) and raw.is_integer():
            raw = int(raw)
        if not isinstance(raw, int) or not 0 <= raw < len(question.choices):
            raise ValueError("choose one of the answers")
        return int(raw)
    if isinstance(raw, str):
        t = raw.strip().replace(" ", "").replace("\u2212", "-")
        if question.unit:
            t = t.removesuffix(question.unit).removeprefix(question.unit)
        if len(t) > MAX_ANSWER_TEXT:
            raise ValueError(f"a number has at most {MAX_ANSWER_TEXT} characters")
        if t.count(",") == 1 and "." not in t:
            t = t.replace(",", ".")  # 3,5: a decimal comma
        try:
            if "_" in t:
                raise ValueError
            raw = float(t)
        except ValueError:
            raise ValueError("write a number, like 2.5 or -3") from None
    if not isinstance(raw, int | float | np.integer | np.floating):
        raise ValueError("write a number, like 2.5 or -3")
    v = float(raw)
    if not math.isfinite(v) or abs(v) > BOUND:
        raise ValueError(f"write a number between -{BOUND:g} and {BOUND:g}")
    return v


def is_right(question: Question, value: object) -> bool | None:
    """Is this answer right? None for a poll (no right answer)."""
    if question.answer is None:
        return None
    if question.kind == "choice":
        return int(value) == int(question.answer)
    v, a = float(value), float(question.answer)
    return abs(v - a) <= question.tolerance + 1e-9 * max(1.0, abs(a))


@dataclass(frozen=True)
class Distribution:
    """What the projector draws on Reveal. Choices: one count per choice (`labels`). Numbers: `bars`
    (lib.reveal.Bar, in number-line order): the right answers as one bar of their own, the wrong ones
    between round numbers, far-out ones folded into an end bar each side; `counts` is each bar's count.
    `right`: the right choice's index or number (None: a poll); `n_right`: how many answered it (None:
    a poll)."""

    kind: str
    n: int
    counts: tuple[int, ...]
    labels: tuple[str, ...] = ()
    bars: tuple = ()
    right: float | int | None = None
    n_right: int | None = None
    tolerance: float = 0.0


def distribution(question: Question, values: Iterable) -> Distribution:
    """The class's answers as the projector draws them: never more than lib.reveal.MAX_BARS bars, in
    time that does not grow with how far one answer is from the rest (issue 44)."""
    from lib.reveal import bars

    vals = list(values)
    n_right = None if question.poll else sum(bool(is_right(question, v)) for v in vals)
    if question.kind == "choice":
        counts = [0] * len(question.choices)
        for v in vals:
            counts[int(v)] += 1
        return Distribution("choice", len(vals), tuple(counts), labels=question.choices,
                            right=question.answer, n_right=n_right)
    drawn = bars(vals, None if question.poll else float(question.answer), question.tolerance)
    return Distribution("number", len(vals), tuple(b.count for b in drawn), bars=drawn,
                        right=question.answer, n_right=n_right, tolerance=question.tolerance)


def distributions(question: Question, first: Iterable, second: Iterable) -> tuple[Distribution, Distribution]:
    """Both votes of a question asked twice, drawn on the same bars so they compare side by side: choices
    are their own bins; numbers get the bins of both votes' answers together, each vote counted in them."""
    from lib.reveal import recount

    one, two = list(first), list(second)
    if question.kind == "choice":
        return distribution(question, one), distribution(question, two)
    both = distribution(question, one + two)
    answer = None if question.poll else float(question.answer)
    out = []
    for vals in (one, two):
        drawn = recount(both.bars, vals, answer, question.tolerance)
        n_right = None if question.poll else sum(bool(is_right(question, v)) for v in vals)
        out.append(Distribution("number", len(vals), tuple(b.count for b in drawn), bars=drawn,
                                right=question.answer, n_right=n_right, tolerance=question.tolerance))
    return out[0], out[1]


@dataclass(frozen=True)
class Moved:
    """How a room's answers moved between the two votes of a question: `n` students answered both;
    `to_right` were wrong in the first and right in the second, `away` the other way round (both None for a
    poll); `changed` answered differently; `first`, `second`: the share right in each vote, over that
    vote's answers (None: a poll, or nobody answered it)."""

    n: int
    changed: int
    to_right: int | None
    away: int | None
    first: float | None
    second: float | None


def moved(question: Question, first: Mapping, second: Mapping) -> Moved:
    """`first`, `second`: each vote's answers by student (any key: a seat). Who moved, and the shares."""
    both = [(first[k], second[k]) for k in first if k in second]
    changed = sum(_key(question, a) != _key(question, b) for a, b in both)
    if question.poll:
        return Moved(len(both), changed, None, None, None, None)
    to_right = sum(not is_right(question, a) and bool(is_right(question, b)) for a, b in both)
    away = sum(bool(is_right(question, a)) and not is_right(question, b) for a, b in both)
    return Moved(len(both), changed, to_right, away, share_right(question, first.values()),
                 share_right(question, second.values()))


def _key(question: Question, v) -> float | int:
    return int(v) if question.kind == "choice" else float(v)


def reveal_words(dist: Distribution, say: Callable[[float], str] = str, *, most: int = 4) -> str:
    """The room's answers as one sentence, the same for a screen reader and the projector (issue 48):
    "12 of 20 answered 1.65, the right answer; 5 answered 1.15; 3 answered from 2 to 3". Choices by
    their words, numbers through `say` (the page's number format, its unit included); the right answer
    first, then the largest groups, at most `most` groups in all, and the rest as "N answered something
    else"."""
    if dist.n == 0:
        return "Nobody answered."
    groups: list[tuple[int, str, bool]] = []   # (count, what they answered, the right one)
    if dist.kind == "choice":
        groups = [(c, dist.labels[i], i == dist.right) for i, c in enumerate(dist.counts)]
    else:
        for b in dist.bars:
            if b.right:
                what = say(float(dist.right))
            elif b.only is not None:
                what = say(b.only)
            elif math.isinf(b.lo):
                what = f"less than {say(b.hi)}"
            elif math.isinf(b.hi):
                what = f"{say(b.lo)} or more"
            else:
                what = f"from {say(b.lo)} to {say(b.hi)}"
            groups.append((b.count, what, b.right))
    right = [g for g in groups if g[2]]
    rest = sorted((g for g in groups if not g[2] and g[0]), key=lambda g: -g[0])
    said = [*right, *rest][:most]
    parts = []
    for i, (count, what, is_it) in enumerate(said):
        who = f"{count} of {dist.n}" if i == 0 else f"{count}"
        parts.append(f"{who} answered {what}" + (", the right answer" if is_it else ""))
    if others := dist.n - sum(g[0] for g in said):
        parts.append(f"{others} answered something else")
    return "; ".join(parts) + "."


def share_right(question: Question, values: Iterable) -> float | None:
    """The share of answers that are right, 0 to 1; None for a poll or no answers."""
    vals = list(values)
    if question.answer is None or not vals:
        return None
    return sum(bool(is_right(question, v)) for v in vals) / len(vals)


def spread(values: Iterable) -> dict | None:
    """Numbers' middle and spread: {n, median, q1, q3, iqr, lo, hi}; None without answers."""
    x = np.asarray(list(values), dtype=float)  # (n,)
    if not x.size:
        return None
    q1, med, q3 = (float(v) for v in np.percentile(x, [25, 50, 75]))
    return {
        "n": int(x.size),
        "median": med,
        "q1": q1,
        "q3": q3,
        "iqr": q3 - q1,
        "lo": float(x.min()),
        "hi": float(x.max()),
    }


# --- answers computed from a step's own view ----------------------------------------------------
def _one(values: Mapping, key: str, default):
    v = values.get(key, default)
    return v[-1] if isinstance(v, list) else v


def _float(values: Mapping, key: str, default: float) -> float:
    v = _one(values, key, default)
    try:
        f = float(v)
    except (TypeError, ValueError):
        raise ValueError(f"{key}={str(v)[:20]} is not a number") from None
    if not math.isfinite(f):
        raise ValueError(f"{key} is not a finite number")
    return f


def _matrix(text: str, shape: tuple[int, int]) -> np.ndarray:
    """The pages' compact matrix form ("1,-1,0.5" or "1;1;-1": rows by ';', numbers by ',')."""
    rows = [r.split(",") for r in str(text).strip().split(";")]
    if len(rows) != shape[0] or any(len(r) != shape[1] for r in rows):
        raise ValueError(f"expected {shape[0]} × {shape[1]} numbers")
    M = np.array([[float(c) for c in r] for r in rows])
    if not np.isfinite(M).all():
        raise ValueError("not finite numbers")
    return M


def recipe_layer(values: Mapping) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """/recipe-card's layer from its link values (nin, nout, x_i, w_ij, b_j; the page's defaults for the
    rest): x (nin,), W (nin, nout), b (nout,)."""
    from lib.recipe import MAX_SIZE, default_layer

    nin, nout = int(_float(values, "nin", 3)), int(_float(values, "nout", 2))
    if not (1 <= nin <= MAX_SIZE and 1 <= nout <= MAX_SIZE):
        raise ValueError(f"nin and nout run from 1 to {MAX_SIZE}")
    x0, W0, b0 = default_layer(nin, nout)
    x = np.array([_float(values, f"x{i + 1}", x0[i]) for i in range(nin)])  # (nin,)
    W = np.array(
        [[_float(values, f"w{i + 1}{j + 1}", W0[i, j]) for j in range(nout)] for i in range(nin)]
    )  # (nin, nout)
    b = np.array([_float(values, f"b{j + 1}", b0[j]) for j in range(nout)])  # (nout,)
    return x, W, b


def recipe_y(values: Mapping, j: int = 1) -> float:
    """/recipe-card: output y_j of the step's card, y = xW + b (lib.layers.linear)."""
    from lib.layers import linear

    x, W, b = recipe_layer(values)
    return float(linear(x, W, b)[j - 1])


# /activations' starting network (pages/activations.py START; tests/unit/test_lessons.py keeps them equal)
STACK_START = {"w1": "1,-1,0.5", "b1": "-0.5,-0.5,1", "w2": "1;1;-1", "b2": "0.5"}


def stack_net(values: Mapping) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, str]:
    """/activations' two-layer network from its link values: W1 (1, h), b1 (h,), W2 (h, 1), b2 (1,), bend."""
    from lib.activations import ACTIVATIONS

    h = len(str(_one(values, "b1", STACK_START["b1"])).split(","))
    W1 = _matrix(_one(values, "w1", STACK_START["w1"]), (1, h))
    b1 = _matrix(_one(values, "b1", STACK_START["b1"]), (1, h))[0]
    W2 = _matrix(_one(values, "w2", STACK_START["w2"]), (h, 1))
    b2 = _matrix(_one(values, "b2", STACK_START["b2"]), (1, 1))[0]
    bend = str(_one(values, "bend", "relu"))
    if bend not in ACTIVATIONS:
        raise ValueError(f"no bend {bend[:20]!r}")
    return W1, b1, W2, b2, bend


def tax_schedule(values: Mapping) -> tuple[np.ndarray, np.ndarray]:
    """/tax-bands' schedule: `bands` when given, else the preset's (thresholds (k,), rates (k,))."""
    from lib import tax

    preset = str(_one(values, "preset", "uk-2024"))
    if preset not in tax.PRESETS:
        raise ValueError(f"no tax preset {preset[:20]!r}")
    if "bands" in values:
        return tax.parse_bands(_one(values, "bands", ""))
    s = tax.PRESETS[preset]
    return np.asarray(s.thresholds, dtype=float), s.rates


def tax_at(values: Mapping) -> float:
    """/tax-bands: the tax at the step's income under its schedule (lib.tax.relu_tax)."""
    from lib.tax import relu_tax

    t, r = tax_schedule(values)
    return float(relu_tax(_float(values, "income", 60_000.0), t, r))


# --- what a question needs, what a view shows ----------------------------------------------------------
_SUB = str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉")


# the declared quantities (lib/asks.py) whose inputs needed_numbers knows: an output of the card, the tax and
# its rates at an income
NEEDS = frozenset({("recipe-card", "y"), ("tax-bands", "tax"), ("tax-bands", "marginal"),
                   ("tax-bands", "effective")})


def needed_numbers(step: Step) -> list[tuple[str, str]]:
    """The numbers a student needs to answer a step's number question while its view is hidden, as
    (name, value as the question writes it): y_j on /recipe-card needs x, w_1j, w_2j, ... and b_j; W = W₁W₂
    on /activations needs W₁ and W₂; a tax on /tax-bands needs the income and each band. [] when this
    module cannot tell (another page, a choice question, a poll)."""
    q = step.question
    if q is None or q.kind != "number" or (q.poll and not q.ask):
        return []
    if q.ask and (step.path, q.ask) not in NEEDS:   # a declared quantity of another kind: its own words
        return []
    v = step.values
    if step.path == "recipe-card":
        x, W, b = recipe_layer(v)
        at = dict(q.at)
        j = int(at["j"]) - 1 if "j" in at else _output_asked(q.text, W.shape[1])
        return ([("x", "(" + ", ".join(_fmt(t) for t in x) + ")")]
                + [(f"w{i + 1}{j + 1}".translate(_SUB), _fmt(W[i, j])) for i in range(W.shape[0])]
                + [(f"b{j + 1}".translate(_SUB), _fmt(b[j]))])
    if step.path == "activations":
        W1, _, W2, _, _ = stack_net(v)
        return [("W₁", "(" + ", ".join(_fmt(w) for w in W1[0]) + ")"),
                ("W₂", "(" + ", ".join(_fmt(w) for w in W2[:, 0]) + ")")]
    if step.path == "tax-bands":
        t, r = tax_schedule(v)
        return ([("income", _fmt(_float(v, "income", 60_000.0), 0))]
                + [(f"band {k + 1}", f"{_fmt(100 * rr)} % from {_fmt(tt, 0)}")
                   for k, (tt, rr) in enumerate(zip(t, r, strict=True))])
    return []


def _output_asked(text: str, n_out: int) -> int:
    """Which output y_j a question asks for (0-based): the first y with a subscript in its words."""
    found = re.search("y([₁₂₃₄₅₆₇₈₉])", text)
    return 0 if found is None else min(n_out, "₁₂₃₄₅₆₇₈₉".index(found[1]) + 1) - 1


def missing_numbers(step: Step) -> list[str]:
    """needed_numbers a question's words leave out ("w₂₁ = 1"): each name, and its value, must be in it
    (a vector's name once, its values in brackets; a band as "20 % from 10,000")."""
    words = step.question.text if step.question is not None else ""
    return [f"{name} = {value}" for name, value in needed_numbers(step)
            if value not in words or (not name.startswith(("band", "income")) and name not in words)]


def view_numbers(step: Step) -> dict[str, float]:
    """What a step's view computes, by name, where this module can compute it: every y_j on /recipe-card,
    the tax on /tax-bands. {} for other pages (or link values its page would not take)."""
    try:
        if step.path == "recipe-card":
            W = recipe_layer(step.values)[1]
            return {f"y{j + 1}".translate(_SUB): recipe_y(step.values, j + 1) for j in range(W.shape[1])}
        if step.path == "tax-bands":
            return {"the tax": tax_at(step.values)}
    except (ValueError, TypeError, OverflowError):
        return {}
    return {}


def answer_disagrees(step: Step) -> str | None:
    """A typed right answer that none of the view's numbers matches (within its tolerance): one line to
    warn the teacher, e.g. "The view shows the tax = 4,000; the right answer typed is 3,486." None when it
    agrees, or nothing can be checked."""
    q = step.question
    if q is None or q.kind != "number" or q.poll or q.ask:   # a declared quantity's answer is the view's own
        return None
    shown = view_numbers(step)
    if not shown or any(is_right(q, v) for v in shown.values()):
        return None
    said = ", ".join(f"{name} = {_fmt(v)}" for name, v in shown.items())
    return f"The step's view shows {said}; the right answer typed is {_fmt(float(q.answer))}."


# --- numbers as a question writes them ------------------------------------------------------------
MINUS = "\u2212"   # one minus sign in every question (as ui/fmt.py writes it): −1.5, never -1.5


def _fmt(v: float, digits: int = 2) -> str:
    v = round(float(v), digits) + 0.0
    s = f"{v:,.{digits}f}".rstrip("0").rstrip(".") if digits else f"{v:,.0f}"
    return s.replace("-", MINUS)

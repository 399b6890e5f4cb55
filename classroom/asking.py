"""A teacher's question about what a step's page shows (issue 45, item 2): "ask about" one of the quantities
the page declares beside its LINKS (its ASKS, lib/asks.py), the right answer computed from the step's own
link, never typed. The builder (classroom/build.py) draws these boxes for a question of kind "ask about this
page"; a step whose link changes, and a lesson opened or imported, get their answers computed again here.

The answer is shown to the teacher in the builder only; in the lesson it is a Question's answer like a
typed one, which stays on the server until Reveal (classroom/lesson.py never sends it before).
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import re
import threading
from collections.abc import Mapping
from pathlib import Path

import numpy as np
import streamlit as st

from classroom import text
from classroom.lesson import page_file
from lib import asks as declared_asks
from lib import lesson_build as reader
from lib import lessons
from ui import fmt, state
from ui.nav import LESSONS

ASK = "build_ask"        # the quantity asked about (its name on the step's page)
AT = "build_at_"         # + a parameter's name: its box
TEXT = "build_text"      # the question's words (classroom/build.py's box)
RELINK = "build_relink_to"  # a new link for the step being edited
WORDS = "build_ask_words"  # the words the text box was last filled with from a quantity
COURSE = Path(__file__).resolve().parents[1] / "course"   # the ready lessons, one lesson file each
SLOT = re.compile(r"\{([a-z][a-z0-9_]*)\}")   # {x1} in a lesson file's words: the step's link value
ASKS_TOO = 1             # how many quantities a page must declare for the "ask about" kind to be offered


def page_asks(path: str) -> dict | None:
    """The ASKS a page file declares beside its LINKS (lib.asks: what the page can be asked), read as
    ui.state's `page_links` reads LINKS; None for a page that declares none."""
    return getattr(state.page_top(path, "asks"), "ASKS", None)


def read_values(links: state.Links, query: Mapping[str, str | list[str]]) -> declared_asks.LinkValues:
    """A step's link values as the page's LINKS parse them: every key of the table, the link's value where
    it is usable (`Link.from_text`, as the page reads a link on a first visit), else the declared default;
    `given`: the keys whose link value was used. `query` as lib.lessons.parse_query gives it."""
    values, given = {}, []
    for link in links:
        raw = query.get(link.key)
        raws = [] if raw is None else list(raw) if isinstance(raw, list) else [raw]
        values[link.key] = link.default
        if not raws:
            continue
        try:
            values[link.key] = link.from_texts(raws)
        except ValueError:
            continue
        given.append(link.key)
    return declared_asks.LinkValues(values, given)


@functools.lru_cache(maxsize=32)
def declared(path: str) -> tuple[state.Links | None, dict[str, declared_asks.Ask]]:
    """A page's LINKS and ASKS, read once per process (state.page_links and page_asks run the page's top)."""
    f = page_file(path)
    return state.page_links(f), page_asks(f) or {}


def asks_of(path: str) -> dict[str, declared_asks.Ask]:
    return declared(path)[1]


def _ask(step: lessons.Step, name: str) -> declared_asks.Ask:
    found = asks_of(step.path).get(name)
    if found is None:
        raise ValueError(f"/{step.path} declares no quantity {name!r} to ask about")
    return found


def question(step: lessons.Step, name: str, at: dict, words: str | None = None) -> lessons.Question:
    """A question about quantity `name` of the step's page with parameters `at`, its right answer computed
    from the step's link as the page's LINKS read it. ValueError, one line."""
    ask = _ask(step, name)
    links, _ = declared(step.path)
    values = read_values(links, lessons.parse_query(step.query))
    try:
        return ask.question(values, at, text=(words or "").strip() or None)
    except (ValueError, ArithmeticError) as err:
        raise ValueError(f"this step's link gives no answer to it ({err})") from None


def computed(step: lessons.Step) -> lessons.Step:
    """The step with its question's answer computed again from its link (a question about a quantity); any
    other step as it is."""
    q = step.question
    if q is None or not q.ask:
        return step
    return dataclasses.replace(step, question=question(step, q.ask, dict(q.at), q.text))


def _written(v, link: state.Link | None) -> str:
    """A link value in a question's words: numbers as ui.fmt writes them, a matrix as (1, −1, 0.5), the rest
    as the page's link writes it."""
    if isinstance(v, bool):
        return "on" if v else "off"
    if isinstance(v, int | float | np.number):
        v = float(v)
        return fmt.count(v) if v == int(v) and abs(v) >= 1000 else fmt.num(v, 6)
    if isinstance(v, np.ndarray) and v.size == 1:
        return _written(float(v.ravel()[0]), None)
    if isinstance(v, np.ndarray):
        return "(" + ", ".join(fmt.num(float(x), 6) for x in v.ravel()) + ")"
    return link.to_text(v) if link is not None else str(v)


def filled(step: lessons.Step) -> lessons.Step:
    """A lesson file's words with their slots filled: {x1} in a question or a note is the step's link value
    (as its page's LINKS read it), {epochs} a question's parameter; a slot the page does not know stays."""
    links, _ = declared(step.path)
    if links is None:
        return step
    values = read_values(links, lessons.parse_query(step.query))
    at = dict(step.question.at) if step.question is not None else {}

    def one(m: re.Match) -> str:
        key = m.group(1)
        if key in at:
            return _written(at[key], None)
        return _written(values[key], links[key]) if key in values else m.group(0)

    q = step.question
    return dataclasses.replace(step, note=SLOT.sub(one, step.note), question=None if q is None else
                               dataclasses.replace(q, text=SLOT.sub(one, q.text)))


def computed_lesson(lesson: lessons.Lesson) -> lessons.Lesson:
    """Every step's computed answer again (a lesson opened or imported: its numbers are never taken on
    trust), its words' slots filled from the step's link; ValueError naming the step."""
    steps = []
    for i, step in enumerate(lesson.steps):
        try:
            steps.append(computed(filled(step)))
        except ValueError as err:
            raise ValueError(f"step {i + 1}: {err}") from None
    return dataclasses.replace(lesson, steps=tuple(steps))


_COURSE_LOCK = threading.Lock()


def course() -> dict[str, lessons.Lesson]:
    """The ready lessons: every lesson file of course/, in its order, read by the loader an imported file goes
    through (lib.lesson_build), its answers computed from each step's link. Read once per process (about
    2.5 s: its trainer questions train), by `warm`'s thread when the process starts, so a teacher's first
    /class waits for what is left of that at most, under the lock."""
    with _COURSE_LOCK:
        return _course()


@functools.cache
def _course() -> dict[str, lessons.Lesson]:
    out = {}
    for name, lesson in reader.read_folder(COURSE, paths()).items():
        try:
            out[name] = computed_lesson(lesson)
        except ValueError as err:
            raise ValueError(f"{name}: {err}") from None
    return out


def _warm() -> None:
    with contextlib.suppress(Exception):   # a file that does not load: said where the course is listed
        course()


@functools.cache
def warm() -> None:
    """Read the course in a thread of its own, once per process (app.py, on its first run)."""
    threading.Thread(target=_warm, name="course-warm", daemon=True).start()


def right_words(q: lessons.Question) -> str:
    """The right answer as the teacher reads it: '1.65 ± 0.05', '40 ± 0.5 %', 'No' (no break around ±)."""
    if q.answer is None:
        return "none (a poll)"
    if q.kind == "choice":
        return q.choices[int(q.answer)]
    tol = f"\u00a0±\u00a0{fmt.num(q.tolerance, 6)}" if q.tolerance else ""   # kept on one line
    return f"{fmt.num(float(q.answer), 6)}{tol}" + (f" {q.unit}" if q.unit else "")


def summary(step: lessons.Step) -> str:
    """A step's question in the builder's list of steps: its kind, what it asks about, its right answer."""
    q = step.question
    if q is None:
        return "the class's challenge" if step.challenge else "no question"
    right = "a poll" if q.answer is None else f"right: {right_words(q)}"
    about = f" about {q.ask}, computed from its link" if q.ask else ""
    return f"asks ({q.kind}{about}, {right}): {q.text}"


def relink(step: lessons.Step, path: str, query: str) -> lessons.Step:
    """The step opening another view: its question's answer computed again from the new link (ValueError
    when the new page does not declare what the question asks about, or gives it no answer)."""
    moved = dataclasses.replace(step, path=path, query=query, challenge=step.challenge and path == "trainer")
    return computed(moved)


# --- the builder's boxes ------------------------------------------------------------------------------
def fill(q: lessons.Question | None) -> None:
    """The boxes from a step's question (before they are drawn)."""
    ss = st.session_state
    for k in [k for k in ss if isinstance(k, str) and k.startswith(AT)]:
        del ss[k]
    ss.pop(ASK, None)
    ss.pop(WORDS, None)
    if q is not None and q.ask:
        ss[ASK] = q.ask
        for name, v in q.at:
            ss[AT + name] = v


def _params(ask: declared_asks.Ask) -> dict:
    return {p.name: st.session_state.get(AT + p.name, p.default) for p in ask.params}


def chosen(step: lessons.Step) -> lessons.Question:
    """The question the boxes say now (ValueError: not one yet)."""
    name = st.session_state.get(ASK)
    if not name:
        raise ValueError("choose what to ask about")
    return question(step, name, _params(_ask(step, name)), st.session_state.get(TEXT))


def _param_box(p: declared_asks.Param, where) -> None:
    key, label = AT + p.name, p.label[:1].upper() + p.label[1:]
    if p.choices:
        if st.session_state.get(key) not in p.choices:
            st.session_state[key] = p.default
        where.selectbox(label, list(p.choices), key=key, help=f"The question's {p.label}.")
        return
    if not isinstance(st.session_state.get(key), int | float):
        st.session_state[key] = p.default
    if p.whole:
        st.session_state[key] = int(st.session_state[key])
    where.number_input(label, min_value=p.lo, max_value=p.hi, key=key, step=1 if p.whole else None,
                       format=None if p.whole else "%g", help=f"The question's {p.label}.")


def _words(step: lessons.Step) -> None:
    """The question's box takes the quantity's words while the teacher has not written their own."""
    name = st.session_state.get(ASK)
    if not name or name not in asks_of(step.path):
        return
    words = asks_of(step.path)[name].text(_params(asks_of(step.path)[name]))
    typed = str(st.session_state.get(TEXT) or "").strip()
    if not typed or typed == st.session_state.get(WORDS):
        st.session_state[TEXT] = words
    st.session_state[WORDS] = words


def boxes(step: lessons.Step) -> None:
    """Which quantity and its parameters (drawn before the question's words, which follow the quantity's
    until the teacher writes their own)."""
    table = asks_of(step.path)
    if len(table) < ASKS_TOO:
        st.caption(f"/{step.path} declares nothing to ask about: write a number or a choice question.")
        return
    if st.session_state.get(ASK) not in table:
        st.session_state[ASK] = next(iter(table))
    name = st.selectbox("Ask about", list(table), key=ASK, format_func=lambda n: table[n].text(),
                        help="What this page can be asked; the answer is computed from this step's link.")
    params = table[name].params
    if params:
        for p, where in zip(params, st.columns(len(params)), strict=True):
            _param_box(p, where)
    _words(step)


def _use_link(steps: list, i: int, read, say) -> None:
    """The callback of "Use this link": the new view read as a pasted link is (`read`), the answer again."""
    if not 0 <= i < len(steps):
        return
    try:
        pasted = read(st.session_state.get(RELINK, ""))
        step = relink(steps[i], pasted.path, pasted.query)
    except ValueError as err:
        why = str(err).strip().rstrip(".")
        say("edit", f"Not changed: {why[:1].upper() + why[1:]}. Step {i + 1} is as it was.", ok=False)
        return
    steps[i] = step
    st.session_state[RELINK] = ""
    say("edit", f"Step {i + 1} now opens {step.link[:90]}: {summary(step)}")


def relink_box(steps: list, i: int, read, say) -> None:
    """A new link for step i, its question's answer computed again from it. `read` reads a pasted link into
    a page view (short links too), `say` gives the builder's word beside the editor."""
    with st.container(horizontal=True, vertical_alignment="bottom", gap="small"):
        st.text_input("A new link for this step", key=RELINK, placeholder="/recipe-card?x1=2 or /?s=K7M2QX",
                      help="The step opens this view instead; a question about the page is answered again.")
        st.button("Use this link", key="build_relink", on_click=_use_link, args=(steps, i, read, say),
                  icon=":material/link:", help=f"Step {i + 1} opens the view above; its title, note and "
                  "question stay.")


def answer_line(step: lessons.Step) -> None:
    """The right answer computed from the step's link, shown to the teacher before the lesson starts."""
    if not asks_of(step.path):
        return
    try:
        q = chosen(step)
    except ValueError as err:
        st.error(text.plain(f"No right answer: {err}."), icon=":material/error:")
        return
    st.markdown(f"Right answer, computed from this step's link: **{text.plain(right_words(q))}** "
                "(you see it; the class sees it on Reveal).")


ROOM = "class"                  # /class: the room itself, never a step


def paths() -> set[str]:
    """The pages a step may open: every lesson page of the app (neither the home page nor the room)."""
    return {item.url_path for item in LESSONS if item.url_path and item.url_path != ROOM}


def disagreeing(step: lessons.Step) -> None:
    """A typed right answer the step's view disagrees with (issue 43 item 6): one warning line."""
    if said := lessons.answer_disagrees(step):
        st.warning(f"{said} Check the answer, or the step's link.", icon=":material/rule:")

"""Homework without a teacher (issue 45 item 6): any ready lesson (course/) or saved lesson opens self-paced
from one link, /class?homework=<its name or code> (`link`). A student steps through alone with Back and
Next; a question's step shows the question first and, once the answer is in, at once whether it was right,
the right answer and the step's view (the live page, as the lesson mode's frame shows it: lead.view); at
the end, how many were right. Nothing to start, no key.

With a class's code and a nickname (both optional) every answer is also kept for the teacher
(store/homework.py), who sees it in the lesson's record and downloads marked as homework (classroom/lead.py).

What stays on the server: every right answer (computed from the step's link, classroom/asking.py; a saved
lesson's computed again when it is opened) and every step's view until its answer is in; the browser gets a
question's words and choices only. What a student types is read as text (lib.lessons.check_answer, the
store's nickname rules) and shown escaped. Limits: so many answers a minute per page (door.spend), per
address in the store, and a saved lesson's and a class's code are looked up under the wrong-code limits.
"""

from __future__ import annotations

import functools

import streamlit as st

from classroom import asking, connection, door, lead, links, reveal, text
from lib import lessons
from store import CODE_ALPHABET, CODE_LENGTH, StoreError, normal_code
from ui import colors

KEY = links.HOMEWORK   # /class's link key: a ready lesson's name ("recipe-card") or a saved lesson's code
PROGRESS = "homework_progress"   # session: {lesson ref: {"at": step, "mine": {step: Mine}, "done": bool}}
FOUND = "homework_found"    # session: {link value: (ref, lesson) or None}: looked up once per page
SAID = "homework_said"      # session: {field: the one line beside it} from the last press of Check
CODE, NICK = "homework_code", "homework_nick"   # the optional class code and nickname
STEP = links.HOMEWORK_STEP   # /class's link key beside `homework`: the step a student is on (1-based)
ANSWER = "homework_answer_"  # + the step: its answer box


@functools.lru_cache(maxsize=64)
def _computed(lesson: lessons.Lesson) -> lessons.Lesson:
    """A saved lesson's right answers computed again from its steps' links (never taken on trust), once
    per lesson and process (a trainer question trains)."""
    return asking.computed_lesson(lesson)


def _look_up(raw: str) -> tuple[str, lessons.Lesson] | None:
    """(ref, lesson) for the link's value: a ready lesson by its name, else a saved lesson by its code
    (looked up under the door's wrong-code limits: a saved lesson holds its right answers). StoreError: one
    line (limits, the store away, a ready lesson that does not load); None: no such lesson."""
    try:
        course = asking.course()
    except ValueError as err:
        raise StoreError(f"The ready lessons are away: {err}") from None
    if raw in course:
        return f"course:{raw}", course[raw]
    code = normal_code(raw)
    if len(code) != CODE_LENGTH or not set(code) <= set(CODE_ALPHABET):
        return None
    found = door.looked_up(lambda: connection.store().load_lesson(code, paths=asking.paths()))
    if found is None:
        return None
    try:
        return f"saved:{code}", _computed(found)
    except ValueError as err:
        raise StoreError(f"This saved lesson cannot be done as homework: {err}") from None


def find(raw: str) -> tuple[str, lessons.Lesson] | None:
    """The link's lesson, looked up once per page (a miss is counted once, as door.find does)."""
    known = st.session_state.setdefault(FOUND, {})
    if raw not in known:
        known[raw] = _look_up(raw)
    return known[raw]


def page(raw: str) -> None:
    """/class?homework=...: the lesson, step by step, or one line saying why not."""
    try:
        found = find(raw[:40])
    except StoreError as err:
        st.error(text.plain(str(err)), icon=":material/error:")
        return
    if found is None:
        st.error(f"No ready or saved lesson is called {text.plain(raw[:12])}: check the homework link.",
                 icon=":material/error:")
        st.page_link("pages/class.py", label="The class page", icon=":material/school:",
                     help="Join a class, or find your teacher's lessons.")
        return
    ref, lesson = found
    kept = st.session_state.setdefault(PROGRESS, {})
    if ref not in kept:   # a first visit, or a reload: the step the address names, the class code it gives
        kept[ref] = {"at": _linked_step(len(lesson.steps)), "mine": {}, "done": False}
        _linked_code()
    me = kept[ref]
    st.markdown(f"**{text.plain(lesson.title)}** · homework at your own pace: predict, check, see the view.")
    who()
    if me["done"]:
        summary(lesson, me)
        return
    i = min(max(int(me["at"]), 0), len(lesson.steps) - 1)
    if st.query_params.get(STEP) != str(i + 1):
        st.query_params[STEP] = str(i + 1)   # a reload, or the link sent on, opens this step
    step(ref, lesson, i, me)
    nav(lesson, i, me)


def _linked_step(n: int) -> int:
    """The step the address names (`step`, 1 to n; a reload keeps a student's place), as an index; a value
    that is not one of them says so in one line and starts at the first."""
    raw = st.query_params.get(STEP)
    if raw is None:
        return 0
    if raw.isdigit() and len(raw) <= 4 and 1 <= int(raw) <= n:   # (int() refuses 4,300 digits and more)
        return int(raw) - 1
    st.caption(f":material/info: step={text.plain(raw[:12])} is not a step of this lesson (1 to {n}): "
               "from the first.")
    return 0


def _linked_code() -> None:
    """The class code the teacher's link gives (`code`), filled in for the student; changed or emptied as
    any typed value."""
    raw = normal_code(st.query_params.get("code") or "")
    if raw and CODE not in st.session_state:
        st.session_state[CODE] = raw[:8]


def who() -> None:
    """The class's code and a nickname: optional, to hand the answers in to the teacher."""
    said = st.session_state.get(SAID, {})
    with st.container(border=True):
        st.markdown("**Hand it in** (optional): your class's code and your nickname, and your teacher sees "
                    "your answers.")
        a, b = st.columns(2)
        with a:
            st.text_input("Class code", key=CODE, max_chars=8, placeholder="e.g. K7M2QX",
                          help="The 6 characters your teacher gave; leave empty to practise alone.")
            if said.get("code"):
                st.error(text.plain(said["code"]), icon=":material/error:")
        with b:
            st.text_input("Your nickname", key=NICK, max_chars=40,
                          help="As you join the class: at most 24 characters; the same name goes on.")
            if said.get("nick"):
                st.error(text.plain(said["nick"]), icon=":material/error:")


def step(ref: str, lesson: lessons.Lesson, i: int, me: dict) -> None:
    """Step i: its title, then its question (the view waits for the answer) or its result and its view."""
    s = lesson.steps[i]
    reveal.big_line(f"Step {i + 1} of {len(lesson.steps)}" + (f": {s.title}" if s.title else ""),
                    size="1.25rem", live=True)
    q = s.question
    if q is not None and i not in me["mine"]:
        ask(ref, lesson, i)
        st.caption(":material/visibility_off: The view opens once you have answered.")
        return
    if q is not None:
        result(q, me["mine"][i])
    lead.view(s, i)   # the lesson mode's frame: the page in its room view
    st.link_button("Open this step's page in a new tab", s.link, icon=":material/open_in_new:",
                   help="The live page of this step, to try it yourself.")


def ask(ref: str, lesson: lessons.Lesson, i: int) -> None:
    """The question and Check my answer (its one line beside the answer box)."""
    q = lesson.steps[i].question
    said = st.session_state.get(SAID, {})
    with st.container(border=True):
        st.markdown(f"**Predict first.** {text.plain(q.text)}")
        with st.form(f"homework_form_{i}", border=False):
            if q.kind == "choice":
                st.radio("Your answer", list(range(len(q.choices))), index=None, key=f"{ANSWER}{i}",
                         format_func=lambda k: text.plain(q.choices[k]),   # a radio's words are Markdown
                         help="Choose one, then check it: the right answer shows at once.")
            else:
                st.text_input(f"Your answer{f' ({q.unit})' if q.unit else ''}", key=f"{ANSWER}{i}",
                              max_chars=lessons.MAX_ANSWER_TEXT, placeholder="a number",
                              help="A number (a decimal comma is read as a point); the right answer shows "
                                   "once you check.")
            if said.get("answer"):
                st.error(text.plain(said["answer"]), icon=":material/error:")
            st.form_submit_button("Check my answer", type="primary", icon=":material/task_alt:",
                                  on_click=_check, args=(ref, lesson, i),
                                  help="Your answer is kept as it is; then the right one and the view.")


def _say(**lines: str) -> None:
    st.session_state[SAID] = lines


def _check(ref: str, lesson: lessons.Lesson, i: int) -> None:
    """Check my answer (a callback, before the page draws): read the answer, then keep it for the class
    when a class's code is given. Anything wrong: one line beside its field, nothing typed lost."""
    ss = st.session_state
    s = lesson.steps[i]
    raw = ss.get(f"{ANSWER}{i}")
    try:
        if raw is None or (isinstance(raw, str) and not raw.strip()):
            raise ValueError("write your answer first" if s.question.kind == "number" else "choose one first")
        value = lessons.check_answer(s.question, raw)
    except ValueError as err:
        return _say(answer=f"{str(err)[:1].upper()}{str(err)[1:]}.")
    code, nick = normal_code(ss.get(CODE) or ""), str(ss.get(NICK) or "").strip()
    if code and not nick:
        return _say(nick="Your nickname too, so your teacher knows whose answers these are.")
    if nick and not code:
        return _say(code="Your class's code too (6 characters from your teacher), or clear your nickname.")
    try:
        client = door.spend("homework")   # this page's answers a minute
        door.answer_checked()             # and this address's
        kept = _keep(ref, lesson, i, value, code, nick, client) if code else (value, None, True)
    except _Field as err:
        return _say(**{err.field: str(err)})
    except StoreError as err:   # the store away, or a limit: the answer stays in its box
        return _say(answer=f"Not checked: {err}")
    right = lessons.is_right(s.question, kept[0])
    ss[PROGRESS][ref]["mine"][i] = {"value": kept[0], "right": right, "first": kept[2],
                                    "class": code, "nick": nick}
    _say()


class _Field(StoreError):
    """A refusal that belongs beside one field (`field`: code, nick or answer)."""

    def __init__(self, field: str, line: str):
        super().__init__(line)
        self.field = field


def _keep(ref: str, lesson: lessons.Lesson, i: int, value, code: str, nick: str, client):
    """The answer kept for class `code` under `nick`: (value as kept, right, first). _Field: which field."""
    s = connection.store()
    try:
        s.nickname(nick)
    except StoreError as err:
        raise _Field("nick", str(err)) from None
    try:
        found = door.looked_up(lambda: s.homework_class(code) or None)
    except StoreError as err:
        raise _Field("code", str(err)) from None
    if not found:
        raise _Field("code", f"No class has the code {code[:12]}: check it with your teacher.")
    step = lesson.steps[i]
    return s.homework_answer(code, lesson=ref, title=lesson.title, step=i, step_title=step.title,
                             question=step.question, nickname=nick, value=value, client=client)


def result(q: lessons.Question, mine: dict) -> None:
    """Right or not, large and in its colour, the answer given beside the right one; and where it went."""
    words = f"Your answer {reveal.shown_answer(q, mine['value'])}"
    if mine["right"] is None:
        reveal.big_line(f"{words}: a poll, no right answer.", size="1.4rem", live=True)
    else:
        mark = f"{reveal.RIGHT_MARK} Right" if mine["right"] else f"{reveal.WRONG_MARK} Not this time"
        reveal.big_line(f"{mark} · {words} · the answer {reveal.shown_answer(q, q.answer)}", size="1.5rem",
                        colour=colors.RIGHT if mine["right"] else colors.WRONG, live=True)
    if mine["class"]:
        first = "" if mine["first"] else " Your first answer to this step is the one kept."
        st.caption(f":material/cloud_done: Handed in to class {text.plain(mine['class'])} as "
                   f"{text.plain(text.name_text(mine['nick']))}.{first}")


def _go(me: dict, at: int, done: bool = False) -> None:
    me["at"], me["done"] = at, done
    _say()


def nav(lesson: lessons.Lesson, i: int, me: dict) -> None:
    """Back and Next (the last step's Next: See my score)."""
    last = i >= len(lesson.steps) - 1
    c = st.columns(2)
    c[0].button("Back", key="homework_back", icon=":material/arrow_back:", disabled=i == 0,
                on_click=_go, args=(me, i - 1), width="stretch", help="The step before this one.")
    c[1].button("See my score" if last else "Next", key="homework_next", type="primary",
                icon=":material/flag:" if last else ":material/arrow_forward:", width="stretch",
                on_click=_go, args=(me, i, True) if last else (me, i + 1),
                help="How many you got right." if last else "The next step (a question left open counts "
                                                            "as not answered).")


def score(lesson: lessons.Lesson, me: dict) -> tuple[int, int, int]:
    """(right, questions with a right answer, of those not answered)."""
    asked = [i for i, s in enumerate(lesson.steps) if s.question is not None and not s.question.poll]
    right = sum(bool(me["mine"].get(i, {}).get("right")) for i in asked)
    return right, len(asked), sum(i not in me["mine"] for i in asked)


def summary(lesson: lessons.Lesson, me: dict) -> None:
    """The end: n of m right, and each question with the answer given and the right one."""
    right, asked, missed = score(lesson, me)
    reveal.big_line(f"{right} of {asked} right", size="2.2rem", live=True)
    if missed:
        st.caption(f"{missed} question{'s' if missed != 1 else ''} not answered: go back to answer "
                   f"{'them' if missed != 1 else 'it'}.")
    rows = []
    for i, s in enumerate(lesson.steps):
        q, mine = s.question, me["mine"].get(i)
        if q is None:
            continue
        rows.append({"step": str(i + 1), "question": q.text,
                     "your answer": "–" if mine is None else reveal.shown_answer(q, mine["value"]),
                     "right answer": "a poll" if q.poll else
                     "–" if mine is None else reveal.shown_answer(q, q.answer),
                     "right?": "" if mine is None else reveal.mark(mine["right"])})
    import pandas as pd

    # a table: a question's words wrap, never cut; its cells are Markdown, so every word is escaped
    st.table(pd.DataFrame([{k: text.plain(v) for k, v in r.items()} for r in rows]), hide_index=True)
    st.button("Back to the steps", key="homework_again", icon=":material/replay:", on_click=_go,
              args=(me, 0), help="Step 1 again: your answers stay; open questions can still be answered.")


def export_csv(code: str, key: str) -> str:
    """The class's homework answers as CSV, for a challenge's teacher (a lesson class's downloads carry them
    beside its own answers: classroom/lead.py). Cells a spreadsheet would run are kept as text."""
    import pandas as pd

    cols = ("nickname", "homework", "step", "title", "answer", "right", "time")
    rows = connection.store().export_homework(code, key)
    return pd.DataFrame([{k: text.cell(r.get(k)) for k in cols} for r in rows], columns=list(cols)).to_csv(
        index=False)

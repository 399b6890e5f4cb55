"""The teacher builds a lesson on /class: steps from pasted links (a page's "A link for the class", or a
short link), moved and removed, each with an optional question (a number or a choice the teacher answers,
or one about the page whose answer is computed: classroom/asking.py); saved under a code, opened by it,
exported to and imported from a JSON file. "Lead a lesson" (classroom/lead.py) offers it beside ready ones.

What a teacher pastes or uploads is read by lib.lesson_build (pure, strict): every refusal is one line
beside the part that was used, and the steps built stay. Everything typed is shown as plain text.

State: the keys below, all in st.session_state; the URL holds only the draft's code (classroom/draft.py
keeps the lesson for a reload). Every change happens in a callback, so the page draws it in the same run.
"""

from __future__ import annotations

import contextlib
import dataclasses
import logging
import zlib

import streamlit as st

from classroom import asking, connection, door, links, session, text
from lib import lesson_build as reader
from lib import lessons
from store import CODE_LENGTH, normal_code
from ui.nav import LESSONS

# --- the builder's state, every key in one place ---------------------------------------------------------
STEPS = "build_steps"           # list[lessons.Step]: the lesson being built, in order
TITLE_KEPT = "build_title_kept"  # the lesson's title (the title box's value outlives a closed builder)
SAID = "build_said"             # (part, ok, line): the last word, shown beside the part it is about
SAVED = "build_saved"           # (code, lesson): the code the lesson was last saved under
EDITING = "build_editing"       # (index, step) the step editor's boxes were last filled from
BOX = "build_box"               # the builder's expander: open or closed (closed, it draws nothing)
TITLE = "build_title"           # the lesson's title
LINK = "build_link"             # a link to add as a step
LINK_TITLE = "build_link_title"  # the new step's title
PICK = "build_pick"             # the step being edited: its index, an int kept here (not a widget's value)
PICKER = "build_picker"         # the step picker's widget key, + a digest of its labels (see edit_part)
STEP_TITLE = "build_step_title"
NOTE = "build_note"
KIND = "build_kind"             # none | number | choice | ask (about the page: classroom/asking.py)
TEXT = "build_text"             # the question's words
ANSWER = "build_answer"         # a number question's right answer (empty: a poll)
TOLERANCE = "build_tolerance"
UNIT = "build_unit"
CHOICES = "build_choices"       # a choice question's choices, one per line
RIGHT = "build_right"           # the right choice's index (-1: a poll)
CHALLENGE = "build_challenge"   # a /trainer step is the class's challenge (students submit to the board)
CODE = "build_code"             # a saved lesson's code to open
FILE = "build_file"             # the lesson file to import

OWN = "built"                   # lead.start_box's name for the lesson built here
DEFAULT_TITLE = "My lesson"
KINDS = {"none": "No question", "number": "A number", "choice": "A choice", "ask": "About this page"}
SHOWN_LINK = 90                 # characters of a step's link in the list


def _steps() -> list[lessons.Step]:
    return st.session_state.setdefault(STEPS, [])


def _title() -> str:
    return str(st.session_state.get(TITLE, st.session_state.get(TITLE_KEPT, DEFAULT_TITLE)))


def lesson() -> lessons.Lesson:
    """The lesson as built now (a blank title is the default one); ValueError when it has no step yet."""
    if not _steps():
        raise ValueError("add a step first")
    return lessons.Lesson(_title().strip() or DEFAULT_TITLE, tuple(_steps()))


def own() -> dict[str, lessons.Lesson]:
    """{OWN: the lesson built here} when it is one, for "Lead a lesson"; else {}."""
    try:
        return {OWN: lesson()}
    except ValueError:
        return {}


def _say(part: str, line: str, ok: bool = True) -> None:
    st.session_state[SAID] = (part, ok, line)


def _said(part: str) -> None:
    """The last word about this part, if it is about this part: an error in red, the rest as a caption."""
    said = st.session_state.get(SAID)
    if not said or said[0] != part:
        return
    if said[1]:
        st.caption(f":material/check_circle: {text.plain(said[2])}")
    else:
        st.error(text.plain(said[2]), icon=":material/error:")


def _why(err: Exception) -> str:
    text = str(err).strip().rstrip(".")
    return text[:1].upper() + text[1:] + "."


# --- the callbacks: every change to the lesson ------------------------------------------------------------
def _read(text: str) -> reader.Pasted:
    """A pasted link as a page view; a short link looked up in the class store and read again."""
    pages = asking.paths() | {asking.ROOM}       # read as a page, to be told apart below
    pasted = reader.read_link(text, pages)
    if pasted.code:
        found = connection.store().expand(pasted.code)
        if found is None:
            raise ValueError(f"no short link {pasted.code} on this server (check it: look-alike letters "
                             "such as 0, O, 1, I and L are never used)")
        pasted = reader.read_link(f"/{found[0]}" + (f"?{found[1]}" if found[1] else ""), pages)
    if pasted.path == asking.ROOM:
        raise ValueError("/class is the room itself, not a view: paste the link of a lesson's page")
    return pasted


def _add() -> None:
    steps = _steps()
    try:
        if len(steps) >= lessons.MAX_STEPS:
            raise ValueError(f"a lesson has at most {lessons.MAX_STEPS} steps: remove one first")
        pasted = _read(st.session_state.get(LINK, ""))
        title = str(st.session_state.get(LINK_TITLE, "")).strip() or next(
            item.title for item in LESSONS if item.url_path == pasted.path)
        step = lessons.Step(pasted.path, pasted.query, title)
    except ValueError as err:
        _say("add", f"Not added: {_why(err)} The steps so far are kept.", ok=False)
        return
    steps.append(step)
    st.session_state[LINK] = st.session_state[LINK_TITLE] = ""   # the first: "Lead a lesson" chooses it
    keys = ", ".join(k + "=" for k in pasted.dropped)
    left = f" (left out {keys}: nobody's to share)" if keys else ""
    _say("add", f"Added step {len(steps)}: {step.title}, {pasted.link[:SHOWN_LINK]}{left}.")


def _move(i: int, by: int) -> None:
    steps = _steps()
    j = i + by
    if 0 <= i < len(steps) and 0 <= j < len(steps):
        steps[i], steps[j] = steps[j], steps[i]
        st.session_state[PICK] = {i: j, j: i}.get(p := st.session_state.get(PICK), p)   # the editor's step
        _say("steps", f"Step {i + 1} is now step {j + 1}.")


def _remove(i: int) -> None:
    steps = _steps()
    if 0 <= i < len(steps):
        gone = steps.pop(i)
        if isinstance(p := st.session_state.get(PICK), int) and p > i:
            st.session_state[PICK] = p - 1   # the step being edited keeps being edited
        _say("steps", f"Removed step {i + 1}: {gone.title or gone.link}.")


def _edit_this(i: int | str) -> None:   # a row's Edit (its index), or the picker (its widget's key)
    st.session_state[PICK] = st.session_state[i] if isinstance(i, str) else i


def _fill(i: int, step: lessons.Step) -> None:
    """The step editor's boxes from the step (before they are drawn)."""
    q = step.question
    ss = st.session_state
    ss[STEP_TITLE], ss[NOTE] = step.title, step.note
    ss[KIND] = "none" if q is None else "ask" if q.ask else q.kind
    asking.fill(q)
    ss[TEXT] = "" if q is None else q.text
    ss[ANSWER] = float(q.answer) if q is not None and q.kind == "number" and q.answer is not None else None
    ss[TOLERANCE] = float(q.tolerance) if q is not None else 0.0
    ss[UNIT] = "" if q is None else q.unit
    ss[CHOICES] = "\n".join(q.choices) if q is not None else ""
    ss[RIGHT] = int(q.answer) if q is not None and q.kind == "choice" and q.answer is not None else -1
    ss[CHALLENGE] = step.challenge
    ss[EDITING] = (i, step)


def _choices() -> tuple[str, ...]:
    return tuple(c.strip() for c in str(st.session_state.get(CHOICES, "")).splitlines() if c.strip())


def _question(step: lessons.Step) -> lessons.Question | None:
    ss = st.session_state
    kind = ss.get(KIND, "none")
    if kind == "none":
        return None
    if kind == "ask":
        return asking.chosen(step)
    if kind == "number":
        return lessons.Question("number", ss.get(TEXT, ""), answer=ss.get(ANSWER),
                            tolerance=float(ss.get(TOLERANCE) or 0.0), unit=ss.get(UNIT, ""))
    right = ss.get(RIGHT, -1)
    choices = _choices()
    return lessons.Question("choice", ss.get(TEXT, ""), choices,
                        answer=right if right is not None and 0 <= right < len(choices) else None)


def _edited(step: lessons.Step) -> lessons.Step:
    """The step as the editor's boxes have it now (ValueError: not a step yet)."""
    return dataclasses.replace(step, title=st.session_state.get(STEP_TITLE, ""),
                               note=st.session_state.get(NOTE, ""), question=_question(step),
                               challenge=step.path == "trainer" and bool(st.session_state.get(CHALLENGE)))


def _keep_step() -> None:
    steps = _steps()
    i = st.session_state.get(PICK)
    if i is None or not 0 <= i < len(steps):
        return
    try:
        step = _edited(steps[i])
    except ValueError as err:
        _say("edit", f"Not changed: {_why(err)} Step {i + 1} is as it was.", ok=False)
        return
    steps[i] = step
    st.session_state[EDITING] = (i, step)
    what = "no question" if step.question is None else f"a {step.question.kind} question"
    what += ", the class's challenge" if step.challenge else ""
    _say("edit", f"Step {i + 1} kept, with {what}.")


def _use(built: lessons.Lesson, how: str) -> None:
    """Put a whole lesson (opened or imported) in the builder, in place of the steps there."""
    st.session_state[STEPS] = list(built.steps)
    st.session_state[TITLE] = st.session_state[TITLE_KEPT] = built.title
    st.session_state.pop(EDITING, None)
    session.choose_own()
    _say("file" if how == "Imported" else "open", f"{how} “{built.title}”: {len(built.steps)} steps.")


def _save() -> None:
    try:
        built = lesson()
        code = connection.store().save_lesson(built, paths=asking.paths(), client=door.spend("save"))
    except ValueError as err:       # not a lesson yet, refused, or the store away (StoreError is one)
        return _say("save", f"Not saved: {_why(err)}", ok=False)
    st.session_state[SAVED] = (code, built)
    _say("save", f"Saved under the code {code}: type it under “Open a saved lesson” to open it again.")


def _open() -> None:
    code = normal_code(str(st.session_state.get(CODE, "")))[:CODE_LENGTH]   # as the store reads it
    try:
        if not code:
            raise ValueError("type the code “Save the lesson” gave first")
        # a saved lesson holds its right answers: its code is guarded as a join code is
        found = door.looked_up(lambda: connection.store().load_lesson(code, paths=asking.paths()))
        if found is None:
            raise ValueError(f"no lesson is saved under the code {code}")
        found = asking.computed_lesson(found)
    except ValueError as err:
        return _say("open", f"Not opened: {_why(err)} The steps here are kept.", ok=False)
    _use(found, "Opened")
    st.session_state[SAVED] = (code, found)


def _import() -> None:
    up = st.session_state.get(FILE)
    if up is None:                          # the file taken out of the uploader: its word goes with it
        if (st.session_state.get(SAID) or ("",))[0] == "file":
            st.session_state.pop(SAID)
        return
    try:
        if up.size > reader.MAX_BYTES:     # never read a file past the cap into memory
            raise ValueError(f"this file has {up.size:,} bytes; a lesson file has at most 1 MB")
        built = asking.computed_lesson(reader.read_file(up.getvalue(), asking.paths()))
    except Exception as err:   # a refusal in its own words; anything else a file makes the reader meet
        if not isinstance(err, ValueError):   # is one line too, never the page lost
            logging.getLogger(__name__).exception("a lesson file could not be read")
        why = _why(err) if isinstance(err, ValueError) else "this file could not be read as a lesson."
        return _say("file", f"Not imported: {why} The steps here are kept.", ok=False)
    _use(built, "Imported")


# --- the page ---------------------------------------------------------------------------------------------
def builder() -> None:
    """'Build a lesson': closed, it draws nothing (a student's /class costs nothing for it)."""
    box = st.expander("Build a lesson of your own (for the teacher)", icon=":material/construction:",
                      expanded=bool(st.session_state.get(STEPS)), key=BOX, on_change="rerun")
    if not box.open:
        return
    with box:
        st.caption("Each step is a view of a page: paste its link (the sidebar's “A link for the class” "
                   "makes one, hidden controls included) or a short link. Give a step a question to make the "
                   "class predict before it sees.")
        if TITLE not in st.session_state:
            st.session_state[TITLE] = st.session_state.get(TITLE_KEPT, DEFAULT_TITLE)
        st.text_input("The lesson's title", key=TITLE, max_chars=lessons.MAX_TITLE,
                      help="What the class and the list under “Lead a lesson” call this lesson.")
        st.session_state[TITLE_KEPT] = st.session_state[TITLE]
        add_part()
        steps_part()
        edit_part()
        share_part()


def add_part() -> None:
    c = st.columns([3, 2])
    c[0].text_input("A link to a view", key=LINK, placeholder="/recipe-card?x1=2&hide=nin or /?s=K7M2QX",
                    help="A page's address with its link values, as the sidebar's “A link for the class” "
                         "makes it, or a short link.")
    c[1].text_input("Its title (optional)", key=LINK_TITLE, max_chars=lessons.MAX_TITLE,
                    placeholder="the page's name", help="What the class sees as this step's name.")
    st.button("Add the step", key="build_add", on_click=_add, icon=":material/add:", type="primary",
              help="Adds the view above as the last step of the lesson.")
    _said("add")


def steps_part() -> None:
    steps = _steps()
    if not steps:
        st.caption("No steps yet.")
        return
    st.markdown(f"**The steps** ({len(steps)} of at most {lessons.MAX_STEPS})")
    last = len(steps) - 1
    for i, step in enumerate(steps):
        with st.container(border=True, key=f"build_row_{i}"):
            st.markdown(f"**{i + 1}\\. {text.plain(step.title or step.path)}**")
            link = step.link if len(step.link) <= SHOWN_LINK else step.link[:SHOWN_LINK - 1] + "…"
            st.caption(text.plain(f"{link} · {asking.summary(step)}"))
            with st.container(horizontal=True, gap="small"):
                st.button("Up", key=f"build_up_{i}", on_click=_move, args=(i, -1), disabled=i == 0,
                          icon=":material/arrow_upward:", help="Moves this step one earlier.")
                st.button("Down", key=f"build_down_{i}", on_click=_move, args=(i, 1), disabled=i == last,
                          icon=":material/arrow_downward:", help="Moves this step one later.")
                st.button("Edit", key=f"build_edit_{i}", on_click=_edit_this, args=(i,),
                          help="Its title, note and question, in the editor below.")
                st.button("Remove", key=f"build_remove_{i}", on_click=_remove, args=(i,),
                          help="Takes this step out of the lesson.")   # (no icons: four fit a phone's row)
    _said("steps")


def _answer_boxes(kind: str, step: lessons.Step) -> None:
    """The right answer: computed from the step's link (a question about the page), typed, or chosen."""
    if kind == "ask":
        asking.answer_line(step)
    elif kind == "number":
        c = st.columns(3)
        c[0].number_input("The right answer (empty: a poll)", key=ANSWER, value=None, step=0.1,
                          min_value=-lessons.BOUND, max_value=lessons.BOUND, format="%g",
                          help="Yours to type: the projector marks it on Reveal. Empty: no right answer.")
        c[1].number_input("Right within ±", key=TOLERANCE, min_value=0.0, max_value=lessons.BOUND, step=0.05,
                          format="%g", help="An answer this close to the right one counts as right.")
        c[2].text_input("Unit (optional)", key=UNIT, max_chars=lessons.MAX_UNIT,
                        help="Shown after each number, e.g. % or units.")
        with contextlib.suppress(ValueError):   # half typed: nothing to check yet
            asking.disagreeing(_edited(step))
    elif kind == "choice":
        st.text_area("The choices, one per line", key=CHOICES, height=110,
                     help=f"{lessons.MIN_CHOICES} to {lessons.MAX_CHOICES} short answers, one a line.")
        choices = _choices()
        if st.session_state.get(RIGHT, -1) not in range(-1, len(choices)):
            st.session_state[RIGHT] = -1
        st.selectbox("The right choice", list(range(-1, len(choices))), key=RIGHT,
                     format_func=lambda k: "none: a poll" if k < 0 else choices[k],
                     help="Yours to choose: the projector marks it on Reveal.")


def _picker(steps: list[lessons.Step]) -> int:
    """The step the editor changes, an index in PICK. Streamlit keeps a select box's choice as its label, so
    a retitled step's box gave its old label back (TypeError): the key carries a digest of the labels."""
    pick = p if isinstance(p := st.session_state.get(PICK, 0), int) and 0 <= p < len(steps) else len(steps)-1
    labels = [f"{k + 1}. {s.title or s.path}" for k, s in enumerate(steps)]
    key = f"{PICKER}_{zlib.crc32(chr(10).join(labels).encode()):08x}"
    if st.session_state.get(key) != pick:   # a new box, or an Edit button / a move chose another step
        st.session_state[key] = pick
    st.session_state[PICK] = st.selectbox("The step", list(range(len(steps))), key=key,
                                          format_func=labels.__getitem__, on_change=_edit_this, args=(key,),
                                          help="The step to change: its boxes below fill from it.")
    return st.session_state[PICK]


def edit_part() -> None:
    steps = _steps()
    if not steps:
        return
    st.markdown("**A step's title, note and question**")
    i = _picker(steps)
    if st.session_state.get(EDITING) != (i, steps[i]) or STEP_TITLE not in st.session_state:
        _fill(i, steps[i])
    for k, v in ((TEXT, ""), (ANSWER, None), (TOLERANCE, 0.0), (UNIT, ""), (CHOICES, ""), (RIGHT, -1),
                 (CHALLENGE, False)):
        st.session_state.setdefault(k, v)   # a box not drawn last run (another kind) lost its value
    c = st.columns(2)
    c[0].text_input("Its title", key=STEP_TITLE, max_chars=lessons.MAX_TITLE,
                    help="The step's name, on every screen.")
    c[1].text_input("A note for you", key=NOTE, max_chars=lessons.MAX_NOTE,
                    help="Shown on your screen only, under the step's name.")
    if steps[i].path == "trainer":
        st.checkbox("The class's challenge: students train and submit to the board", key=CHALLENGE,
                    help="The trainer on the class's data, with Submit; off: a view to explore.")
    kind = st.radio("A question before the view", list(KINDS), format_func=KINDS.get, key=KIND,
                    horizontal=True, help="With a question, the class predicts before the view opens.")
    if kind == "ask":
        asking.boxes(steps[i])
    if kind != "none":
        st.text_area("The question", key=TEXT, max_chars=lessons.MAX_TEXT, height=80,
                     help="What the class answers before it sees the view.")
    _answer_boxes(kind, steps[i])
    try:
        pending = _edited(steps[i]) != steps[i]
    except ValueError:                       # half typed: not a question yet
        pending = True
    asking.relink_box(steps, i, _read, _say)
    st.button(f"Keep these for step {i + 1}", key="build_keep", on_click=_keep_step, icon=":material/check:",
              type="primary" if pending else "secondary",
              help="Changes the step as above; a question that is not one yet leaves it as it was.")
    if pending and st.session_state.get(SAID, ("",))[0] != "edit":
        st.caption(f"Not kept yet: step {i + 1} changes when you press “Keep these”.")
    _said("edit")


def share_part() -> None:
    st.markdown("**Save, open, export, import**")
    try:
        built, why = lesson(), None
    except ValueError as err:
        built, why = None, _why(err)
    c = st.columns(2)
    with c[0]:
        st.button("Save the lesson", key="build_save", on_click=_save, icon=":material/save:",
                  disabled=built is None, help="Keeps it in the class store under a six-letter code.")
        saved = st.session_state.get(SAVED)
        if saved is not None and built is not None and saved[1] == built:
            st.code(saved[0], language=None)
            links.homework_box(saved[0])
        _said("save")
        with st.container(horizontal=True, vertical_alignment="bottom", gap="small"):
            st.text_input("Open a saved lesson", key=CODE, max_chars=12, placeholder="its code, e.g. K7M2QX",
                          help="The code “Save the lesson” gave; it replaces the steps here.")
            st.button("Open", key="build_open", on_click=_open, icon=":material/folder_open:",
                      help="Opens the lesson saved under this code, in place of the steps here.")
        _said("open")
    with c[1]:
        st.download_button("Export the lesson (JSON)", (lambda: lessons.dumps(built)) if built else "",
                           file_name=reader.file_name(built), mime="application/json", key="build_export",
                           on_click="ignore", icon=":material/download:", disabled=built is None,
                           help="A file another teacher can import here.")
        st.file_uploader("Import a lesson file", type=["json"], key=FILE, on_change=_import,
                         max_upload_size=1,
                         help="A lesson exported here (JSON, at most 1 MB); it replaces the steps here.")
        _said("file")
    if why:
        st.caption(text.plain(f"To save or export: {why[:1].lower()}{why[1:]}"))
    else:
        st.caption("To lead it: choose it under “Lead a lesson” above and press **Start the lesson**.")

"""The teacher builds a lesson on /class (issue 33, item 1), under AppTest: steps from links and short
links, a bad link said in one line with the steps kept, up / down / remove, a question of each kind, saved
and opened by its code, exported and imported back, hostile files refused in one line beside the uploader
with the steps kept, typed text shown as text, and the built lesson started as a ready one is."""

from __future__ import annotations

import json
import re

import pytest
from streamlit.runtime.media_file_manager import MediaFileManager

from classroom import build as B
from classroom import connection, lead, text
from lib import lesson_build as reader
from lib import lessons as L
from tests.app.conftest import open_page, start_pick
from tests.app.test_lesson import _student, switches  # noqa: F401 (switches: a fixture, used by name)


def _builder(at=None):
    at = at or open_page("class")
    at.session_state[B.BOX] = True           # the teacher opens "Build a lesson" (closed, it draws nothing)
    at.run()
    assert not at.exception
    return at


def _add(at, link: str, title: str = ""):
    at.text_input(key=B.LINK).input(link)
    if title:
        at.text_input(key=B.LINK_TITLE).input(title)
    at.button(key="build_add").click().run()
    assert not at.exception
    return at


def _steps(at) -> list[L.Step]:
    return list(at.session_state[B.STEPS])


def _picker(at):
    """The step picker (its key carries a digest of its labels: classroom/build.py's _picker)."""
    (box,) = [s for s in at.selectbox if str(s.key or "").startswith(B.PICKER)]
    return box


def _errors(at) -> list[str]:
    return [e.value for e in at.error]


def _shown(at) -> str:
    """The page's words as a reader sees them (Markdown's escapes taken off)."""
    words = " ".join(el.value for part in (at.markdown, at.caption, at.error) for el in part)
    return re.sub(r"\\(.)", r"\1", words)


@pytest.fixture(params=["sqlite", "postgresql"])
def db(request, tmp_path, monkeypatch):
    """The class store on SQLite and on PostgreSQL (a database of the test's own): what the builder saves
    and opens goes through the one schema on both."""
    import subprocess

    from store import Store
    from tests.unit.test_store import _postgres_url

    name = _postgres_url() if request.param == "postgresql" else None
    store = Store(f"postgresql+psycopg:///{name}" if name else f"sqlite:///{tmp_path / 'classes.sqlite3'}")
    monkeypatch.setattr(connection, "store", lambda: store)
    yield store
    store.engine.dispose()
    if name:
        subprocess.run(["dropdb", "--if-exists", "--force", name], capture_output=True, timeout=30)


@pytest.fixture
def exports(monkeypatch):
    """The download buttons' deferred data (a callable, run only when pressed): {file id: callable}."""
    made = {}
    real = MediaFileManager.add_deferred

    def add(self, data, *args, **kwargs):
        file_id = real(self, data, *args, **kwargs)
        made[file_id] = data
        return file_id

    monkeypatch.setattr(MediaFileManager, "add_deferred", add)
    return made


# --- steps from links ----------------------------------------------------------------------------------
def test_closed_the_builder_draws_nothing():
    at = open_page("class")
    assert not at.exception and not [t for t in at.text_input if t.key == B.LINK]
    assert any(e.label.startswith("Build a lesson") for e in at.expander)


def test_a_step_from_a_link_keeps_its_values_and_hide_list_and_takes_the_pages_name():
    at = _add(_builder(), "http://192.168.1.5:8501/recipe-card?x1=2&w11=1.5&hide=nin,nout")
    assert _errors(at) == []
    (step,) = _steps(at)
    assert step.path == "recipe-card" and L.parse_query(step.query) == {"x1": "2", "w11": "1.5",
                                                                         "hide": "nin,nout"}
    assert step.title == "A layer is a matrix" and "Added step 1" in _shown(at)
    assert at.text_input(key=B.LINK).value == ""                          # ready for the next link
    _add(at, "/trainer?hidden=0&class=ABCDEF&seat=tok", "No hidden layer")
    step = _steps(at)[1]
    assert (step.path, step.query, step.title) == ("trainer", "hidden=0", "No hidden layer")
    assert "left out class=, seat=" in _shown(at)                     # a seat is nobody's to share


def test_a_step_from_a_short_link(db):
    code = db.shorten("tax-bands", "income=50000&hide=preset")
    at = _add(_builder(), f"http://localhost:8501/?s={code.lower()}")
    _add(at, code)                                                        # the bare code off a slide
    assert _errors(at) == []
    assert [(s.path, s.query) for s in _steps(at)] == [("tax-bands", "income=50000&hide=preset")] * 2


@pytest.mark.parametrize("link,why", [
    ("/nowhere?x=1", "No page /nowhere in this app"),
    ("/?s=ZZZZZZ", "No short link ZZZZZZ on this server"),
    ("javascript:alert(1)", "Not a web link"),
    ("/class?code=ABCDEF", "/class is the room itself"),
    ("/", "home page"),
    ("", "Paste a link first"),
    ("/recipe-card?" + "x=1&" * 2_000, "characters"),
])
def test_a_bad_link_says_one_line_and_keeps_the_steps(link, why):
    at = _add(_builder(), "/recipe-card?x1=2")
    at = _add(at, link)
    (line,) = _errors(at)
    assert why in line.replace("\\", ""), line                           # escaped as text: read without
    assert "\n" not in line and line.startswith("Not added")
    assert [s.query for s in _steps(at)] == ["x1=2"]
    assert at.text_input(key=B.LINK).value == link                       # the link stays, to be fixed


def test_up_down_and_remove():
    at = _builder()
    for x in (1, 2, 3):
        _add(at, f"/recipe-card?x1={x}", f"Card {x}")
    assert at.button(key="build_up_0").disabled and at.button(key="build_down_2").disabled
    at.button(key="build_down_0").click().run()
    assert [s.title for s in _steps(at)] == ["Card 2", "Card 1", "Card 3"]
    at.button(key="build_up_2").click().run()
    assert [s.title for s in _steps(at)] == ["Card 2", "Card 3", "Card 1"]
    at.button(key="build_remove_1").click().run()
    assert [s.title for s in _steps(at)] == ["Card 2", "Card 1"] and "Removed step 2" in _shown(at)
    assert [m.value for m in at.markdown if m.value.startswith("**1")] == ["**1\\. Card 2**"]


def test_thirty_steps_and_no_more():
    at = _builder()
    at.session_state[B.STEPS] = [L.Step("recipe-card", f"x1={i}") for i in range(L.MAX_STEPS)]
    at.run()
    _add(at, "/trainer")
    assert "at most 30 steps" in _errors(at)[0] and len(_steps(at)) == 30


# --- questions -----------------------------------------------------------------------------------------
def test_a_step_takes_a_number_or_a_choice_question_and_a_bad_one_leaves_it_as_it_was():
    at = _builder()
    _add(at, "/recipe-card?x1=2", "Predict y")
    _add(at, "/activations?bend=identity", "Straight?")
    _picker(at).set_value(0).run()
    assert at.text_input(key=B.STEP_TITLE).value == "Predict y"
    at.radio(key=B.KIND).set_value("number").run()
    at.text_area(key=B.TEXT).input("What is y₁?")
    at.number_input(key=B.ANSWER).set_value(3.5)
    at.number_input(key=B.TOLERANCE).set_value(0.1).run()
    assert "Not kept yet" in _shown(at) and _steps(at)[0].question is None   # typed, not kept
    at.button(key="build_keep").click().run()
    assert "Not kept yet" not in _shown(at)
    q = _steps(at)[0].question
    assert (q.kind, q.text, q.answer, q.tolerance) == ("number", "What is y₁?", 3.5, 0.1)
    assert "Step 1 kept, with a number question" in _shown(at)

    at.button(key="build_edit_1").click().run()                          # the row's Edit: the editor fills
    assert _picker(at).value == 1 and at.radio(key=B.KIND).value == "none"
    at.radio(key=B.KIND).set_value("choice").run()
    at.text_area(key=B.TEXT).input("Can it bend?")
    at.text_area(key=B.CHOICES).input("Yes\nNo, it is straight\n").run()
    assert at.selectbox(key=B.RIGHT).options == ["none: a poll", "Yes", "No, it is straight"]
    at.selectbox(key=B.RIGHT).set_value(1).run()
    at.button(key="build_keep").click().run()
    q = _steps(at)[1].question
    assert (q.kind, q.choices, q.answer) == ("choice", ("Yes", "No, it is straight"), 1)

    at.text_area(key=B.CHOICES).input("Only one").run()                  # a choice needs two
    at.button(key="build_keep").click().run()
    (line,) = _errors(at)
    assert line.startswith("Not changed") and "2 to 6 choices" in line
    assert _steps(at)[1].question == q                                   # as it was

    _picker(at).set_value(0).run()                          # back to step 1: its question
    assert at.number_input(key=B.ANSWER).value == 3.5 and at.radio(key=B.KIND).value == "number"
    at.number_input(key=B.ANSWER).set_value(None)
    at.button(key="build_keep").click().run()
    assert _steps(at)[0].question.poll                                   # empty: a poll


def test_a_trainer_step_can_be_the_classs_challenge():
    at = _add(_add(_builder(), "/recipe-card"), "/trainer?hidden=8", "Your best network")
    _picker(at).set_value(0).run()
    assert not [c for c in at.checkbox if c.key == B.CHALLENGE]            # only a trainer step can be one
    _picker(at).set_value(1).run()
    at.checkbox(key=B.CHALLENGE).check().run()
    at.button(key="build_keep").click().run()
    assert _steps(at)[1].challenge and "the class's challenge" in _shown(at)
    at.checkbox(key=B.CHALLENGE).uncheck().run()
    at.button(key="build_keep").click().run()
    assert not _steps(at)[1].challenge


# --- saved and opened, exported and imported ------------------------------------------------------------
def _two_steps(at):
    at.text_input(key=B.TITLE).input("Bends and cards")
    _add(at, "/recipe-card?x1=2&hide=nin", "Card")
    _add(at, "/activations?bend=identity", "Straight")
    _picker(at).set_value(1).run()
    at.radio(key=B.KIND).set_value("choice").run()
    at.text_area(key=B.TEXT).input("Bends?")
    at.text_area(key=B.CHOICES).input("Yes\nNo").run()
    at.selectbox(key=B.RIGHT).set_value(1).run()
    at.button(key="build_keep").click().run()
    return at


def test_saved_under_a_code_and_opened_again_by_it_in_another_session(db):
    at = _two_steps(_builder())
    at.button(key="build_save").click().run()
    code = next(c.value for c in at.code if len(c.value) == 6)
    built = L.Lesson("Bends and cards", tuple(_steps(at)))
    assert db.load_lesson(code) == built
    other = _builder()
    _add(other, "/trainer", "Mine")
    other.button(key="build_open").click().run()
    assert "Type the code" in _errors(other)[0]
    other.text_input(key=B.CODE).input("NOPE22")
    other.button(key="build_open").click().run()
    assert "No lesson is saved under the code NOPE22" in _errors(other)[0].replace("\\", "")
    assert [s.title for s in _steps(other)] == ["Mine"]                   # kept
    other.text_input(key=B.CODE).input(code.lower())
    other.button(key="build_open").click().run()
    assert _errors(other) == [] and _steps(other) == list(built.steps)
    assert other.text_input(key=B.TITLE).value == "Bends and cards"


def test_exported_then_imported_into_another_session_is_the_same_lesson(exports):
    at = _two_steps(_builder())
    (export,) = [d for d in at.get("download_button") if d.proto.id.endswith("build_export")]
    text = exports[export.proto.deferred_file_id]()
    built = L.Lesson("Bends and cards", tuple(_steps(at)))
    assert export.proto.label == "Export the lesson (JSON)"
    assert reader.file_name(built) == "lesson-bends-and-cards.json"
    assert L.loads(text, lead.paths()) == built
    other = _builder()
    other.file_uploader(key=B.FILE).set_value(("lesson.json", text.encode(), "application/json")).run()
    assert not other.exception and _errors(other) == []
    assert _steps(other) == list(built.steps) and other.text_input(key=B.TITLE).value == "Bends and cards"


def _file(**changes) -> bytes:
    d = {"format": L.FORMAT, "title": "T", "steps": [{"path": "recipe-card", "query": "x1=2"}]}
    d.update(changes)
    return json.dumps(d).encode()


def _question(answer: str) -> bytes:
    return (b'{"format": "layerlab-lesson/1", "title": "T", "steps": [{"path": "recipe-card", "question": '
            b'{"kind": "number", "text": "y?", "answer": ' + answer.encode() + b"}}]}")


HOSTILE = {
    "too big": (b" " * (1 << 20) + _file(), "at most 1 MB"),
    "nested 200,000 deep": (b"[" * 200_000 + b"]" * 200_000, "nested more than 6 deep"),
    "steps not a list": (_file(steps={"path": "recipe-card"}), "steps must be a list"),
    "a title as a number": (_file(title=12), "title must be text"),
    "a question as text": (_file(steps=[{"path": "recipe-card", "question": "3.5"}]), "must be an object"),
    "an unknown page": (_file(steps=[{"path": "admin", "query": ""}]), "no page /admin in this app"),
    "the room itself": (_file(steps=[{"path": "class", "query": ""}]), "no page /class in this app"),
    "31 steps": (_file(steps=[{"path": "recipe-card", "query": f"x1={i}"} for i in range(31)]), "1 to 30"),
    "NaN": (_question("NaN"), "only finite numbers"),
    "Infinity": (_question("-Infinity"), "only finite numbers"),
    "1e999": (_question("1e999"), "finite number"),
    "a title too long": (_file(title="x" * 10_000), "at most 120"),
    "not JSON": (b"<html><script>alert(1)</script>", "not JSON"),
    "escaped quotes, unclosed": (b'"' + b'\\"' * 90_000, "not JSON"),   # linear to measure, at once refused
    "not UTF-8": (b"\xff\xfe\x00", "UTF-8"),
}


@pytest.mark.parametrize("name", list(HOSTILE))
def test_a_hostile_file_is_refused_in_one_line_beside_the_uploader_and_the_steps_stay(name):
    data, why = HOSTILE[name]
    at = _add(_builder(), "/recipe-card?x1=7", "Mine")
    at.file_uploader(key=B.FILE).set_value(("lesson.json", data, "application/json")).run()
    assert not at.exception
    (line,) = _errors(at)
    assert line.startswith("Not imported") and len(line) < 260, line
    assert why.lower() in line.replace("\\", "").lower(), line
    assert [(s.query, s.title) for s in _steps(at)] == [("x1=7", "Mine")]
    at.file_uploader(key=B.FILE).set_value(None).run()                   # the file taken out: its line goes
    assert _errors(at) == [] and len(_steps(at)) == 1


def test_markup_in_an_imported_lesson_is_shown_as_typed():
    title = "<img src=x onerror=alert(1)> **bold**"
    step = "![](//evil.example/p) <b>hi</b>"
    question = {"kind": "choice", "text": "[link](javascript:alert(1))", "choices": ["*a*", "<i>b</i>"],
                "answer": 0}
    data = _file(title=title, steps=[{"path": "recipe-card", "query": "x1=2", "title": step,
                                      "question": question}])
    at = _builder()
    at.file_uploader(key=B.FILE).set_value(("lesson.json", data, "application/json")).run()
    assert not at.exception and _errors(at) == []
    assert at.text_input(key=B.TITLE).value == title
    texts = [el.value for part in (at.markdown, at.caption, at.error, at.info) for el in part]
    assert f"**1\\. {text.plain(step)}**" in texts
    unescaped = [re.sub(r"\\.", "", t) for t in texts]                  # what Markdown would read as markup
    for raw in ("![](", "<img", "<b>", "[link](", "**bold**", "<i>"):
        assert not any(raw in t for t in unescaped), raw                 # never Markdown or HTML
    assert f"Yours: {title}" in start_pick(at).options   # a select's options: text


# --- started as a ready lesson is -----------------------------------------------------------------------
def test_the_built_lesson_starts_with_start_the_lesson(db):
    at = _two_steps(_builder())
    built = L.Lesson("Bends and cards", tuple(_steps(at)))
    pick = start_pick(at)
    assert pick.options[0] == "Yours: Bends and cards" and len(pick.options) == 1 + len(lead.ready())
    pick.set_value(B.OWN)
    next(b for b in at.button if b.label == "Start the lesson").click().run()
    assert not at.exception
    code = at.query_params["code"]
    code = code[0] if isinstance(code, list) else code
    assert db.lesson_state(code).lesson == built
    assert "Step 1 of 2: Card" in _shown(at)


def test_the_built_lesson_stays_chosen_when_a_late_run_brings_the_browsers_old_pick(db):
    """CI saw "Lead a lesson" show the first ready lesson after Save. The browser sends every widget's value
    with each run, the picker's as its label: a run it asked for before it drew the Add's result (the Add's
    run cut short by it) carried the first ready lesson's label, and under one key that label won over the
    pick the Add had set. The picker now gets a new key when the built lesson is chosen, so it cannot."""
    at = _builder()
    before = start_pick(at)
    assert before.value == "recipe-card"                      # no lesson built: the first ready one
    late = at._tree.get_widget_states()                       # what the browser holds before the Add
    _add(at, "/activations?bend=relu", "Bend")
    assert start_pick(at).value == B.OWN and start_pick(at).key != before.key
    at._run(late)                                             # the late run: the old label for the old picker
    assert not at.exception and start_pick(at).value == B.OWN
    at.run()
    assert start_pick(at).value == B.OWN
    _add(at, "/recipe-card", "Card")                          # a second step: the same picker
    assert start_pick(at).key == "lesson_start_pick_1"
    at.button(key="build_save").click().run()
    code = next(c.value for c in at.code if len(c.value) == 6)
    at.text_input(key=B.CODE).input(code).run()
    at.button(key="build_open").click().run()                 # Open chooses the built lesson anew
    assert start_pick(at).key == "lesson_start_pick_2"
    assert not at.exception and start_pick(at).value == B.OWN


def test_every_control_of_the_builder_says_what_it_does():
    at = _add(_two_steps(_builder()), "/trainer")
    _picker(at).set_value(2).run()
    at.radio(key=B.KIND).set_value("number").run()
    kinds = ("text_input", "text_area", "number_input", "radio", "selectbox", "button", "file_uploader",
             "checkbox")
    found = [w for kind in kinds for w in getattr(at, kind) if str(w.key or "").startswith("build_")]
    found += [d for d in at.get("download_button") if d.proto.id.endswith("build_export")]
    assert len(found) >= 25 and B.CHALLENGE in [w.key for w in found]
    assert all(w.proto.help.strip() and "\n" not in w.proto.help for w in found), \
        [w.key for w in found if not w.proto.help.strip()]


@pytest.mark.usefixtures("switches")
def test_a_student_sees_a_built_lessons_question_and_choices_as_typed():
    """A teacher types the choices: a student's radio draws its options as Markdown, so they are escaped."""
    q = L.Question("choice", "**Which?** <img src=x>", ("<b>a</b>", "*b*", "![](//evil.example/p)"), answer=0)
    built = L.Lesson("<i>T</i>", (L.Step("recipe-card", "x1=2", "[s](javascript:x)", q),))
    code, _ = connection.store().start_lesson(built, paths=lead.paths())
    ada = _student(code, connection.store().join(code, "Ada"))
    assert not ada.exception
    assert ada.radio(key="lesson_choice_0").options == [text.plain(c) for c in q.choices]
    words = " ".join(el.value for part in (ada.markdown, ada.caption, ada.info) for el in part)
    assert all(text.plain(t) in words for t in (q.text, "<i>T</i>"))
    lines = " ".join(el.proto.body for el in ada.get("html"))   # the step's title in a live region: as text
    assert "Step 1 of 1: [s](javascript:x)" in lines and "<a" not in lines


def test_the_builder_warns_when_a_typed_answer_disagrees_with_the_steps_view():
    """Issue 43 item 6: a teacher's £3,486 sat on a view showing £4,000.00 and nothing said so."""
    at = _add(_builder(), "/tax-bands?preset=simple&income=30000", "Tax")
    at.radio(key=B.KIND).set_value("number").run()
    at.text_area(key=B.TEXT).input("The tax on 30,000?")
    at.number_input(key=B.ANSWER).set_value(3486.0).run()
    said = " ".join(w.value for w in at.warning)
    assert "The step's view shows the tax = 4,000; the right answer typed is 3,486." in said
    at.number_input(key=B.ANSWER).set_value(4000.0).run()
    assert not any("the right answer typed" in w.value for w in at.warning) and not at.exception


def test_a_steps_new_title_keeps_the_picker_on_it_and_the_lesson_saves():
    """Issue 43, item 1: step 2 retitled and kept, then Save. Streamlit keeps a select box's choice as its
    label, so the picker once gave back "2. Straight?" (text) for an index: a TypeError on every run."""
    at = _add(_add(_builder(), "/recipe-card?x1=2", "Card"), "/activations?bend=identity", "Straight?")
    _picker(at).set_value(1).run()
    at.text_input(key=B.STEP_TITLE).input("Straight after all?")
    at.button(key="build_keep").click().run()
    assert not at.exception and _steps(at)[1].title == "Straight after all?"
    assert _picker(at).value == 1 and _picker(at).options[1] == "2. Straight after all?"
    at.button(key="build_save").click().run()
    assert not at.exception and "Saved under the code" in _shown(at)
    at.button(key="build_up_1").click().run()           # moved: the editor stays on the step it edits
    assert _picker(at).value == 0 and at.text_input(key=B.STEP_TITLE).value == "Straight after all?"


# --- a reload keeps the lesson being built (issue 43 item 1: a reload lost the unsaved steps) ------------
def _param(at, key: str) -> str | None:
    v = at.query_params.get(key)
    return v[0] if isinstance(v, list) and v else v or None


def _draft_link(at) -> str:
    """The draft's code in the address bar. Under AppTest no browser answers classroom/history.py's
    component, so the next run writes it the pushed way: one more run."""
    at.run()
    code = _param(at, "draft")
    assert code and len(code) == 6
    return code


def test_a_reload_of_the_same_link_restores_the_unsaved_title_and_steps(db):
    at = _builder()
    at.text_input(key=B.TITLE).input("Bends, unsaved").run()
    _add(at, "/activations?bend=relu", "Bend")
    first = _draft_link(at)
    _add(at, "/tax-bands?income=30000", "Tax")
    assert _draft_link(at) == first                                        # one draft, written over
    built = L.Lesson("Bends, unsaved", tuple(_steps(at)))
    assert len(built.steps) == 2 and db.load_draft(first) == built
    assert "Your unsaved lesson was restored." not in [i.value for i in at.info]

    again = open_page("class", {"draft": first})                            # a reload: a new session
    assert not again.exception
    assert _steps(again) == list(built.steps)
    assert again.session_state[B.TITLE] == "Bends, unsaved"
    assert [i.value for i in again.info] == ["Your unsaved lesson was restored."]
    assert start_pick(again).options[0] == "Yours: Bends, unsaved"
    assert again.text_input(key=B.TITLE).value == "Bends, unsaved"            # the builder open, drawn
    assert not again.warning and not again.error
    _add(again, "/trainer", "Train")                                        # and on from there
    assert _draft_link(again) == first and len(db.load_draft(first).steps) == 3
    assert not again.info                                      # changed: the note has done its work
    again.button(key="build_save").click().run()                          # Save: a code of its own, fixed
    saved = next(c.value for c in again.code if len(c.value) == 6)
    assert saved != first and db.load_lesson(saved) == db.load_draft(first)


@pytest.mark.parametrize("link, why", [
    ("ZZZZZZ", "none is kept under ZZZZZZ"),
    ("abc", "“abc” is not the code of one"),
    ("<b>x</b>" * 3, "is not the code of one"),
])
def test_a_bad_or_unknown_draft_is_one_line_over_an_empty_builder(db, link, why):
    at = open_page("class", {"draft": link})
    assert not at.exception and not at.error
    (line,) = [w.value for w in at.warning]
    assert line.replace("\\", "").startswith("Your unsaved lesson could not be restored: ") and why in line
    assert not at.session_state[B.STEPS] if B.STEPS in at.session_state else True
    at.run()
    assert _param(at, "draft") is None                                     # out of the link
    _add(_builder(at), "/activations", "Mine")                             # the builder works as ever
    assert _draft_link(at) != link


def test_a_started_class_takes_the_draft_out_of_the_projected_address(db):
    at = _builder()
    _add(at, "/activations?bend=relu", "Bend")
    draft = _draft_link(at)
    start_pick(at).set_value(B.OWN)
    next(b for b in at.button if b.label == "Start the lesson").click().run()
    assert not at.exception and _param(at, "code") and _param(at, "draft") is None
    assert draft not in " ".join(el.value for part in (at.markdown, at.caption, at.code) for el in part)

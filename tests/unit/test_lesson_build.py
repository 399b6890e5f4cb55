"""lib.lesson_build: the links a teacher pastes for a step and the lesson files they import, read strictly
(each refusal one line), with the nesting of a file measured without building it."""

from __future__ import annotations

import json
import time

import pytest

from classroom.links import SHORT
from lib import lesson_build as B
from lib import lessons as L

PAGES = {"recipe-card", "stacking", "activations", "tax-bands", "gpt2-params", "gpt2-mlp", "trainer", "class"}


@pytest.mark.parametrize("text,path,query", [
    ("/recipe-card?x1=2&hide=nin,nout", "recipe-card", "x1=2&hide=nin,nout"),
    ("http://192.168.1.5:8501/recipe-card?x1=2&hide=nin%2Cnout", "recipe-card", "x1=2&hide=nin,nout"),
    ("https://lab.school.org/layerlab/tax-bands?income=50000#top", "tax-bands", "income=50000"),
    ("localhost:8501/activations?bend=identity", "activations", "bend=identity"),
    ("  recipe-card?x1=2  ", "recipe-card", "x1=2"),
    ("/trainer", "trainer", ""),
    ("/Trainer?hidden=16,16", "trainer", "hidden=16,16"),
    ("/trainer?show=a&show=b", "trainer", "show=a&show=b"),     # a multiselect's repeated values kept
    ("/activations?w2=1;1;-1&b1=0.5%2C1", "activations", "w2=1;1;-1&b1=0.5,1"),   # a matrix, readable
    ("/tax-bands?bands=0:0,10000:20", "tax-bands", "bands=0:0,10000:20"),
])
def test_a_page_link_becomes_its_path_and_values(text, path, query):
    p = B.read_link(text, PAGES)
    assert (p.path, p.query, p.code, p.dropped) == (path, query, "", ())
    assert L.Step(p.path, p.query).link == p.link          # a step takes it as it is


def test_a_seat_a_key_and_a_class_are_left_out_and_named():
    p = B.read_link("/trainer?class=ABCDEF&seat=tok&hidden=8&key=secret", PAGES)
    assert p.query == "hidden=8" and p.dropped == ("class", "key", "seat")


@pytest.mark.parametrize("text", ["/?s=K7M2QX", "http://host:8501/?s=k7m2qx", "K7M2QX", "?s=K7M2QX",
                                  "https://lab.school.org/?s=K7M2QX&x=1"])
def test_a_short_link_is_its_code(text):
    assert B.SHORT_KEY == SHORT
    p = B.read_link(text, PAGES)
    assert p.code == "K7M2QX" and p.path == "" and p.query == ""


@pytest.mark.parametrize("text,why", [
    ("", "paste a link first"),
    ("   ", "paste a link first"),
    (None, "a link is text"),
    ("/nowhere?x=1", "no page /nowhere"),
    ("/", "home page"),
    ("http://host/", "home page"),
    ("/?s=K7", "six letters"),
    ("javascript:alert(1)", "not a web link"),
    ("file:///etc/passwd", "not a web link"),
    ("/recipe-card?x1=2\n&x2=3", "no spaces"),
    ("/recipe card", "no spaces"),
    ("/recipe-card?" + "x=1&" * 2_000, "characters"),
    ("/pages/recipe-card.py", "not a file name"),
    ("/recipe_card", "not a page path"),
])
def test_a_bad_link_is_refused_in_one_line(text, why):
    with pytest.raises(ValueError, match=why) as err:
        B.read_link(text, PAGES)
    assert "\n" not in str(err.value) and len(str(err.value)) < 160


def test_without_the_apps_pages_any_path_like_name_is_taken():
    assert B.read_link("/some-page?a=1").path == "some-page"


# --- the file ---------------------------------------------------------------------------------------
def _file(**changes) -> dict:
    d = {"format": L.FORMAT, "title": "Mine", "steps": [
        {"path": "recipe-card", "query": "x1=2", "title": "One"},
        {"path": "activations", "query": "bend=identity", "title": "Two",
         "question": {"kind": "choice", "text": "Bends?", "choices": ["Yes", "No"], "answer": 1}}]}
    d.update(changes)
    return d


def test_a_file_goes_out_and_back_unchanged():
    lesson = B.read_file(json.dumps(_file()).encode(), PAGES)
    assert B.read_file(L.dumps(lesson).encode(), PAGES) == lesson and lesson.steps[1].question.answer == 1


def test_nesting_is_measured_without_building_it():
    assert B.nesting(b"{}") == 1 and B.nesting(b"1") == 0
    assert B.nesting(json.dumps(_file()).encode()) == 5       # {steps: [{question: {choices: [...]}}]}
    assert B.nesting(b'{"title": "[[[[[[[[[[{{{{{{", "steps": []}') == 2   # brackets inside text
    assert B.nesting(b'{"t": "a \\" [[[[[[[[[["}') == 1                     # an escaped quote
    assert B.nesting(b'{"t": "a \\\\", "s": [[1]]}') == 3                    # an escaped backslash ends it
    assert B.nesting(b"") == 0 and B.nesting(b'"[[[') == 0                   # an unclosed string
    t = time.perf_counter()
    assert B.nesting(b"[" * 200_000 + b"]" * 200_000) == 200_000
    assert B.nesting(b'"' + b'\\"' * 400_000) == 0     # a regular expression took minutes on this one
    assert time.perf_counter() - t < 3.0


def _steps(n: int) -> list[dict]:
    return [{"path": "recipe-card", "query": f"x1={i}"} for i in range(n)]


BAD_FILES = [
    (b"x" * (B.MAX_BYTES + 1), "at most 1 MB"),
    (b"[" * 200_000 + b"]" * 200_000, "nested more than"),
    (b"", "empty"),
    (b"\xff\xfe{}", "UTF-8"),
    (b"{'format': 1}", "not JSON"),
    (json.dumps(_file(steps={"0": {}})).encode(), "must be a list"),
    (json.dumps(_file(title=7)).encode(), "must be text"),
    (json.dumps(_file(steps=[{"path": 3}])).encode(), "not a page path"),
    (json.dumps(_file(steps=[{"path": "admin", "query": ""}])).encode(), "no page /admin"),
    (json.dumps(_file(steps=_steps(31))).encode(), "1 to 30 steps"),
    (json.dumps(_file(title="T" * 121)).encode(), "at most 120"),
    (json.dumps(_file(steps=[{"path": "recipe-card", "question": {"kind": "number", "text": "y?",
                                                                 "answer": "NaN"}}])).encode(), "number"),
    (b'{"format": "layerlab-lesson/1", "title": "T", "steps": [{"path": "recipe-card", "question": '
     b'{"kind": "number", "text": "y?", "answer": NaN}}]}', "finite numbers"),
    (b'{"format": "layerlab-lesson/1", "title": "T", "steps": [{"path": "recipe-card", "question": '
     b'{"kind": "number", "text": "y?", "answer": 1e999}}]}', "finite number"),
    (b'{"format": "layerlab-lesson/1", "title": "T", "steps": [{"path": "recipe-card", "question": '
     b'{"kind": "number", "text": "y?", "answer": -Infinity}}]}', "finite numbers"),
    (json.dumps(_file(format="something/2")).encode(), "not a lesson file"),
    (json.dumps(_file(extra=1)).encode(), "unknown field"),
]


@pytest.mark.parametrize("data,why", BAD_FILES, ids=range(len(BAD_FILES)))
def test_every_bad_file_is_refused_in_one_line(data, why):
    with pytest.raises(ValueError, match=why) as err:
        B.read_file(data, PAGES)
    assert "\n" not in str(err.value) and len(str(err.value)) < 200


def test_only_bytes_or_text_are_a_file():
    with pytest.raises(ValueError, match="is text"):
        B.read_file({"format": L.FORMAT}, PAGES)

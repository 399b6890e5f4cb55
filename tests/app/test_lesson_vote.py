"""Peer instruction's second vote and the quiet hand under AppTest (issue 45 items 5 and 8): the teacher's
"Discuss with your neighbour" beside Reveal (a question's step, before Reveal only); the projector counts
the second vote; a student votes again with their first answer shown; Reveal shows both votes side by side
on the same bars and how many moved to the right answer; a step asked once reveals as before. A student's
"I'm lost" is a toggle whose count (never who) the projector shows, the teacher clears, and a page presses
only so often; the export carries the vote."""

from __future__ import annotations

import io

import pandas as pd

from classroom import door, lead
from tests.app.conftest import figures
from tests.app.test_lesson import _student, _teacher, _text, store, switches  # noqa: F401 (a fixture)
from ui import fmt


def _send(at, value, key: str) -> None:
    at.number_input(key=key).set_value(value)
    next(b for b in at.button if b.label == "Send my answer").click().run()
    assert not at.exception


def _labels(at) -> list[str]:
    return [b.label for b in at.button]


def test_discuss_asks_again_and_reveal_shows_both_votes_side_by_side(switches):  # noqa: F811
    teacher, code, key = _teacher()
    assert "Discuss with your neighbour" not in _labels(teacher)          # step 1: no question
    teacher.button(key="lesson_next").click().run()
    assert teacher.button(key="lesson_discuss").help                      # beside Reveal, with its line
    right = store().lesson_state(code).steps[1].question.answer
    ada, bo = (_student(code, store().join(code, n)) for n in ("Ada", "Bo"))
    _send(ada, 9.0, "lesson_number_1")
    _send(bo, right, "lesson_number_1")
    teacher.button(key="lesson_discuss").click().run()                   # the second vote
    assert store().lesson_state(code).second == {1} and not teacher.exception
    assert "Discuss with your neighbour" not in _labels(teacher)          # asked again: once
    assert "Second vote, after discussing: 0 of 2 answered" in _text(teacher)
    ada.run()
    said = _text(ada)
    assert "Discuss with your neighbour, then vote again" in said and "Your first answer: 9" in said
    assert ada.number_input(key="lesson_number_1_2").value is None       # the second vote starts empty
    assert f"{right:g}" not in said                                       # no right answer before Reveal
    _send(ada, right, "lesson_number_1_2")
    assert "Your answer: 3\\.5" in _text(ada)                             # (Markdown: 3\.5)
    teacher.run()
    assert "Second vote, after discussing: 1 of 2 answered" in _text(teacher)
    teacher.button(key="lesson_reveal").click().run()
    assert not teacher.exception
    moved = f"1 of 1 moved to the right answer; right: {fmt.pct(0.5, 0)} → {fmt.pct(1.0, 0)}"
    assert moved in _text(teacher), _text(teacher)
    fig = next(f for f in figures(teacher) if len(f["data"]) == 2)
    one, two = fig["data"]
    assert (one["name"], two["name"]) == ("First vote", "After discussing") and one["x"] == two["x"]
    assert fig["layout"]["barmode"] == "group"
    assert dict(zip(one["x"], one["y"], strict=True))["3.5 ✓"] == 1
    assert dict(zip(two["x"], two["y"], strict=True))["3.5 ✓"] == 1 and sum(two["y"]) == 1
    assert "First vote: 1 of 2 right. After discussing: 1 of 1 right." in _text(teacher)
    assert "lesson_discuss" not in [b.key for b in teacher.button]       # after Reveal: none
    ada.run()
    assert "✓ Right · Your answer 3.5 · the answer 3.5 (your first answer 9)" in _text(ada)
    assert moved in _text(ada)
    csv = pd.read_csv(io.StringIO(lead.export_csv(code, key)))
    assert sorted(zip(csv["nickname"], csv["vote"], csv["answer"], strict=True)) == \
        [("Ada", 1, 9.0), ("Ada", 2, 3.5), ("Bo", 1, 3.5)]
    assert '"vote": 2' in lead.export_json(code, key)


def test_a_step_asked_once_reveals_as_before(switches):  # noqa: F811
    teacher, code, _ = _teacher()
    teacher.button(key="lesson_next").click().run()
    _send(_student(code, store().join(code, "Ada")), 3.5, "lesson_number_1")
    teacher.run().button(key="lesson_reveal").click().run()
    assert "1 of 1 right" in _text(teacher) and "moved" not in _text(teacher)
    assert [len(f["data"]) for f in figures(teacher) if f["data"][0].get("name") == "answers"] == [1]


def test_im_lost_is_counted_never_named_cleared_by_the_teacher_and_pressed_only_so_often(switches):  # noqa: F811
    teacher, code, _ = _teacher()
    ada = _student(code, store().join(code, "Ada"))
    bo = _student(code, store().join(code, "Bo"))
    assert ada.toggle(key="lesson_lost_0").help and "lost" not in _text(teacher)
    ada.toggle(key="lesson_lost_0").set_value(True).run()
    bo.toggle(key="lesson_lost_0").set_value(True).run()
    assert not ada.exception and store().lost_count(code, 0) == 2
    teacher.run()
    assert "✋ 2 lost" in _text(teacher) and "Ada" not in _text(teacher)   # the count, never who
    bo.toggle(key="lesson_lost_0").set_value(False).run()                  # pressed again: taken back
    assert teacher.run() and "✋ 1 lost" in _text(teacher)
    teacher.button(key="lesson_lost_clear").click().run()
    assert store().lost_count(code, 0) == 0 and "lost" not in _text(teacher).replace("I'm lost", "")
    ada.run()
    assert ada.toggle(key="lesson_lost_0").value is False                   # her toggle follows the clear
    for i in range(door.PER_PAGE["lost"] - 1):                             # the first press was hers too
        ada.toggle(key="lesson_lost_0").set_value(i % 2 == 0).run()
    assert store().lost_count(code, 0) == 1
    ada.toggle(key="lesson_lost_0").set_value(False).run()                 # one press past the budget
    assert "presses of I'm lost from this page in a minute" in _text(ada)
    assert ada.toggle(key="lesson_lost_0").value is True and store().lost_count(code, 0) == 1


def test_how_the_room_moved_reads_as_one_line():
    from lib import lessons as L

    q = L.Question("choice", "Bends?", ("Yes", "No"), answer=1)
    m = L.moved(q, {1: 0, 2: 0, 3: 1, 4: 0}, {1: 1, 2: 1, 3: 0, 4: 0})
    assert lead.reveal.moved_words(m) == (f"2 of 4 moved to the right answer, 1 away from it; right: "
                                          f"{fmt.pct(0.25, 0)} → {fmt.pct(0.5, 0)}")
    poll = L.moved(L.Question("number", "Guess?"), {1: 2.0, 2: 3.0}, {1: 2.0, 2: 4.0})
    assert lead.reveal.moved_words(poll) == "1 of 2 changed their answer after discussing"

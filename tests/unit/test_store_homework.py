"""store.homework on SQLite and on a real PostgreSQL server (test_store.py's `store` fixture): a lesson done
as homework keeps one answer per class, lesson, nickname and step, checked here against the step's own
question (never the caller's word), the first answer kept; the teacher alone reads them, each marked with
its lesson's title; the class's and the address's limits hold, and the rows go with their class."""

from __future__ import annotations

import pytest
from sqlalchemy import func, select, text

from lib import lessons as L
from store import Client, StoreError
from store.models import HomeworkAnswer
from tests.unit import test_store as base

store, no_gap = base.store, base.no_gap        # the store's fixtures: each test on SQLite and PostgreSQL

NUMBER = L.Question("number", "y1?", answer=3.5, tolerance=0.1, unit="units")
CHOICE = L.Question("choice", "Bends?", ("Yes", "No"), answer=1)
POLL = L.Question("number", "Guess?")
LESSON = L.Lesson("A class lesson", (L.Step("recipe-card", "x1=1", "card", NUMBER),))


def _answer(store, code, nick, step, value, q=NUMBER, lesson="course:recipe-card", **kw):
    return store.homework_answer(code, lesson=lesson, title=kw.pop("title", "Recipe card"), step=step,
                                 step_title=f"step {step}", question=q, nickname=nick, value=value, **kw)


def _rows(store) -> int:
    with store.reading() as s:
        return int(s.scalar(select(func.count()).select_from(HomeworkAnswer)))


def test_an_answer_is_checked_here_and_the_first_one_is_kept(store):
    code, key = store.start_lesson(LESSON)
    assert _answer(store, code, "Ada", 0, "3.45") == (3.45, True, True)       # within the tolerance
    assert _answer(store, code, "ADA", 0, 9.0) == (3.45, True, False)          # one student: the first kept
    assert _answer(store, code.lower(), "Ada", 1, "No", q=CHOICE) == (1, True, True)
    assert _answer(store, code, "Bo", 0, 2) == (2.0, False, True)
    assert _answer(store, code, "Bo", 2, 7, q=POLL) == (7.0, None, True)       # a poll: no right answer
    # the same nickname in another lesson is another row
    assert _answer(store, code, "Ada", 0, 1, lesson="saved:K7M2QX", title="Saved one") == (1.0, False, True)
    assert _rows(store) == 5
    store.end(code, key)
    assert _rows(store) == 0                                                    # gone with the class


def test_refusals_are_one_line_and_keep_nothing(store):
    code, _ = store.start_lesson(LESSON)
    for kw, says in [(dict(code="ZZZZZZ"), "No class has the code ZZZZZZ"),
                     (dict(nick="  "), "Choose a nickname"),
                     (dict(nick="x" * 25), "at most 24 characters"),
                     (dict(value="two"), "Write a number"),
                     (dict(value="1e400"), "Write a number between"),
                     (dict(q=CHOICE, value=5), "Choose one of the answers"),
                     (dict(lesson="course:../x"), "not one this server knows"),
                     (dict(lesson="saved:abcdef"), "not one this server knows")]:
        args = dict(code=code, nick="Ada", value=1.0) | kw
        with pytest.raises(StoreError, match=says):
            _answer(store, args.pop("code"), args.pop("nick"), 0, args.pop("value"), **args)
    assert _rows(store) == 0 and store.homework_class(code) and not store.homework_class("ZZZZZZ")


def test_the_teacher_alone_reads_the_record_and_the_export_marked_as_homework(store):
    code, key = store.start_lesson(LESSON)
    _answer(store, code, "Ada", 0, 3.5)
    _answer(store, code, "Bo", 0, 1.5)
    _answer(store, code, "=cmd()", 0, 3.6)
    _answer(store, code, "Ada", 1, 0, q=CHOICE)
    for forged in (None, "", "nope"):
        with pytest.raises(StoreError, match="teacher's link"):
            store.homework_record(code, forged)
        with pytest.raises(StoreError, match="teacher's link"):
            store.export_homework(code, forged)
    rec = store.homework_record(code, key)
    assert [(r.step, r.title, r.kind, r.answered, r.homework) for r in rec] == [
        (0, "step 0", "number", 3, "Recipe card"), (1, "step 1", "choice", 1, "Recipe card")]
    assert rec[0].share_right == pytest.approx(2 / 3) and rec[0].spread["median"] == 3.5
    assert rec[1].share_right == 0.0 and rec[1].spread is None
    rows = store.export_homework(code, key)
    assert {(r["nickname"], r["step"], r["answer"], r["right"], r["homework"]) for r in rows} == {
        ("Ada", 1, 3.5, True, "Recipe card"), ("Bo", 1, 1.5, False, "Recipe card"),
        ("=cmd()", 1, 3.6, True, "Recipe card"), ("Ada", 2, "Yes", False, "Recipe card")}
    assert all(r["time"].endswith("+00:00") for r in rows)
    assert store.record(code, key)[0].homework == ""        # the class's own lesson: not homework


def test_the_address_budget_and_the_class_limit_hold(store, monkeypatch):
    import store as store_module
    from store import homework

    code, _ = store.start_lesson(LESSON)
    who = Client.of("203.0.113.9", "cookie")
    monkeypatch.setitem(store_module.BUDGETS, "homework", (3, None))
    for step in range(3):
        _answer(store, code, "Ada", step, 1.0, client=who)
    with pytest.raises(StoreError, match="3 homework answers from this network in the last hour"):
        _answer(store, code, "Ada", 3, 1.0, client=who)
    assert _answer(store, code, "Ada", 0, 9.0, client=who) == (1.0, False, False)   # a kept one costs nothing
    _answer(store, code, "Ada", 3, 1.0, client=Client.of("198.51.100.7", "other"))  # another network
    monkeypatch.setattr(homework, "NICKNAMES", 2)
    _answer(store, code, "Bo", 0, 1.0)
    with pytest.raises(StoreError, match="2 students have done this homework in this class"):
        _answer(store, code, "Cy", 0, 1.0)
    _answer(store, code, "Bo", 1, 1.0)                          # a student already in it goes on
    _answer(store, code, "Cy", 0, 1.0, lesson="course:doubling")   # another lesson has its own
    assert _rows(store) == 7


def test_the_schema_steps_down_from_homework_and_up_again(store):
    from alembic import command

    from store import _alembic

    code, _ = store.start_lesson(LESSON)
    _answer(store, code, "Ada", 0, 3.5)
    cfg = _alembic()
    with store.engine.execution_options(write=True).begin() as conn:
        cfg.attributes["connection"] = conn
        command.downgrade(cfg, "0005")
        assert "homework_answers" not in set(conn.dialect.get_table_names(conn))
        command.upgrade(cfg, "head")
        assert conn.execute(text("SELECT version_num FROM alembic_version")).scalar() == "0007"
    assert store.lesson_state(code) is not None and _rows(store) == 0

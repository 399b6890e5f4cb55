"""Peer instruction's second vote and the quiet hand in the store (issue 45 items 5 and 8), on SQLite and
PostgreSQL: the teacher (the key checked here) asks a question again; an answer belongs to a vote, one row
per seat, step and vote; Reveal draws both votes on the same bars and says who moved to the right answer;
a student's "I'm lost" is one row per seat and step, counted (never named), taken back, cleared by the
teacher; the export carries the vote; the schema steps down from 0007 and up again."""

from __future__ import annotations

import pytest
from sqlalchemy import text

from lib import lessons as L
from store import StoreError
from store.models import Answer, LostHand
from tests.unit import test_store as base
from tests.unit.test_store_lessons import CHOICE, LESSON, NUMBER, _count

store, no_gap = base.store, base.no_gap        # each test on SQLite and PostgreSQL


def _class(store, *names):
    code, key = store.start_lesson(LESSON)
    return code, key, [store.join(code, n) for n in names]


def test_the_teacher_asks_again_and_each_vote_keeps_its_own_answers(store):
    code, key, (a, b) = _class(store, "Ada", "Bo")
    v0 = store.lesson_state(code).version
    assert store.answer(code, a, 0, 2.0) == 2.0 and store.answer(code, b, 0, 3.5) == 3.5
    for forged in (None, "", "nope"):
        with pytest.raises(StoreError, match="teacher's link"):
            store.discuss(code, forged, 0)
    state = store.discuss(code, key, 0)                           # "Discuss with your neighbour"
    assert state.second == {0} and state.vote(0) == 2 and state.vote(1) == 1 and state.version == v0 + 1
    assert store.lesson_state(code).second == {0}
    assert store.answer_tally(code, 0) == (2, 2) and store.answer_tally(code, 0, vote=2) == (0, 2)
    mine = store.seat_answers(code, a)
    assert mine == {} and mine.first == {0: 2.0}                  # the first answer, shown beside the form
    assert store.answer(code, a, 0, 3.5) == 3.5                   # the second vote: a row of its own
    assert store.answer(code, a, 0, "3,45") == 3.45               # changed: still one row in vote 2
    assert _count(store, Answer) == 3 and store.answer_tally(code, 0, vote=2) == (1, 2)
    mine = store.seat_answers(code, a)
    assert mine == {0: 3.45} and mine.first == {0: 2.0}
    assert store.step_distribution(code, 0) is None and store.step_reveal(code, 0) is None   # not yet
    with pytest.raises(StoreError, match="no question"):
        store.discuss(code, key, 2)
    with pytest.raises(StoreError, match="steps 1 to 5"):
        store.discuss(code, key, 9)
    with pytest.raises(StoreError, match="Write a number"):   # a bad answer: refused as in the first
        store.answer(code, b, 0, "abc")
    store.reveal(code, key, 0)
    with pytest.raises(StoreError, match="revealed"):
        store.discuss(code, key, 0)
    with pytest.raises(StoreError, match="revealed"):             # late: refused, nothing kept
        store.answer(code, b, 0, 2.0)
    assert _count(store, Answer) == 3
    store.reveal(code, key, 0, revealed=False)                    # reopened: still the second vote
    assert store.lesson_state(code).vote(0) == 2
    v = store.lesson_state(code).version
    assert store.delete_answers(code, key, 0) == 3                # afresh: both votes, and asked once again
    state = store.lesson_state(code)
    assert _count(store, Answer) == 0 and state.second == frozenset() and state.version == v + 1


def test_reveal_draws_both_votes_on_the_same_bars_and_counts_who_moved(store):
    code, key, seats = _class(store, *"ABCDE")
    for seat, v in zip(seats, (3.5, 2.0, 2.0, 9.0, 3.5), strict=True):
        store.answer(code, seat, 0, v)
    store.discuss(code, key, 0)
    for seat, v in zip(seats[:4], (3.5, 3.5, 2.5, 3.5), strict=True):   # E does not vote again
        store.answer(code, seat, 0, v)
    store.reveal(code, key, 0)
    shown = store.step_reveal(code, 0)
    one, two = shown.votes
    assert [b.lo for b in one.bars] == [b.lo for b in two.bars]          # the same bins, to compare
    assert [b.hi for b in one.bars] == [b.hi for b in two.bars]
    assert (one.n, one.n_right, two.n, two.n_right) == (5, 2, 4, 3)
    assert sum(one.counts) == 5 and sum(two.counts) == 4
    m = shown.moved
    assert (m.n, m.to_right, m.away, m.changed) == (4, 2, 0, 3)          # B and D moved to the right answer
    assert (m.first, m.second) == (pytest.approx(2 / 5), pytest.approx(3 / 4))
    assert store.step_distribution(code, 0) == two                       # a phone's line: the last vote
    rows = [r for r in store.record(code, key) if r.step == 0]
    assert [(r.vote, r.answered, r.share_right) for r in rows] == [(1, 5, 2 / 5), (2, 4, 3 / 4)]
    exported = store.export_answers(code, key)
    assert sorted((r["nickname"], r["vote"], r["answer"]) for r in exported)[:2] == [("A", 1, 3.5),
                                                                                       ("A", 2, 3.5)]
    store.goto(code, key, 1)                                              # a choice: its own bins, both votes
    store.answer(code, seats[0], 1, 0)
    store.discuss(code, key, 1)
    store.answer(code, seats[0], 1, 1)
    store.reveal(code, key, 1)
    one, two = store.step_reveal(code, 1).votes
    assert (one.counts, two.counts, store.step_reveal(code, 1).moved.to_right) == ((1, 0), (0, 1), 1)
    assert len(store.step_reveal(code, 0).votes) == 2 and store.step_reveal(code, 1).moved.n == 1


def test_a_step_without_a_second_vote_reveals_as_before(store):
    code, key, (a,) = _class(store, "Ada")
    store.answer(code, a, 0, 3.5)
    store.reveal(code, key, 0)
    shown = store.step_reveal(code, 0)
    assert len(shown.votes) == 1 and shown.moved is None and shown.votes[0].n_right == 1
    assert [r.vote for r in store.record(code, key)] == [1, 1, 1]
    assert store.export_answers(code, key)[0]["vote"] == 1


def test_a_students_lost_hand_is_counted_never_named_and_the_teacher_clears_it(store):
    code, key, (a, b) = _class(store, "Ada", "Bo")
    v0 = store.lesson_state(code).version
    assert store.lost_count(code, 0) == 0
    assert store.set_lost(code, a, 0) is True and store.set_lost(code, a, 0) is True   # twice: one hand
    assert store.set_lost(code, b, 0) is True
    assert store.lost_count(code, 0) == 2 and _count(store, LostHand) == 2
    assert store.seat_answers(code, a).lost == {0}
    assert store.set_lost(code, b, 0, lost=False) is False                 # pressed again: taken back
    assert store.lost_count(code, 0) == 1 and store.seat_answers(code, b).lost == frozenset()
    assert store.lesson_state(code).version == v0                          # a hand moves nobody's screen
    with pytest.raises(StoreError, match="moved on"):
        store.set_lost(code, a, 2)                                         # paced: only the teacher's step
    with pytest.raises(StoreError, match="not in the class"):
        store.set_lost(code, "forged", 0)
    for forged in (None, "", "nope"):
        with pytest.raises(StoreError, match="teacher's link"):
            store.clear_lost(code, forged, 0)
    assert store.lost_count(code, 0) == 1
    assert store.clear_lost(code, key, 0) == 1 and store.lost_count(code, 0) == 0
    assert store.lesson_state(code).version == v0 + 1                      # the toggles go down
    store.set_lost(code, a, 0)
    store.end(code, key)
    assert _count(store, LostHand) == 0                                    # gone with the class


def test_the_schema_steps_down_from_0007_and_up_again_keeping_first_votes(store):
    from alembic import command

    from store import _alembic

    code, key, (a,) = _class(store, "Ada")
    store.answer(code, a, 0, 2.0)
    store.discuss(code, key, 0)
    store.answer(code, a, 0, 3.5)
    store.set_lost(code, a, 0)
    cfg = _alembic()
    with store.engine.execution_options(write=True).begin() as conn:
        cfg.attributes["connection"] = conn
        command.downgrade(cfg, "0006")
        assert "lost_hands" not in set(conn.dialect.get_table_names(conn))
        assert conn.execute(text("SELECT value FROM answers")).scalars().all() == ["2.0"]
        command.upgrade(cfg, "head")
        assert conn.execute(text("SELECT version_num FROM alembic_version")).scalar() == "0007"
    mine = store.seat_answers(code, a)
    assert mine.first == {0: 2.0} and store.lesson_state(code).second == frozenset()


def test_moved_and_the_shared_bars_in_lib():
    q = NUMBER
    one, two = L.distributions(q, [1.0, 100.0, 3.5], [3.5, 3.5])
    assert [(b.lo, b.hi) for b in one.bars] == [(b.lo, b.hi) for b in two.bars]
    assert sum(one.counts) == 3 and sum(two.counts) == 2 and two.n_right == 2
    m = L.moved(CHOICE, {"a": 0, "b": 1, "c": 1}, {"a": 1, "b": 0, "c": 1})
    assert (m.n, m.changed, m.to_right, m.away, m.first, m.second) == (3, 2, 1, 1, 2 / 3, 2 / 3)
    poll = L.Question("number", "Guess?")
    p = L.moved(poll, {1: 2.0, 2: 3.0}, {1: 2.0, 2: 4.0})
    assert (p.n, p.changed, p.to_right, p.first) == (2, 1, None, None)

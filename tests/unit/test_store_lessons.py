"""store.lessons on SQLite and on a real PostgreSQL server (the `store` fixture of test_store.py): a lesson
class is a challenge's class, the teacher's moves need the key, a student answers only an open step, once
per step however fast, never after Reveal, and the class's answers go with the class."""

from __future__ import annotations

import threading
from datetime import timedelta

import numpy as np
import pytest
from sqlalchemy import func, select, text

from lib import lessons as L
from store import Store, StoreDown, StoreError
from store.models import Answer, Class, ClassLesson, SavedLesson, Seat
from tests.unit import test_store as base

store, no_gap = base.store, base.no_gap        # the store's fixtures: each test on SQLite and PostgreSQL
W, _closed_port = base.W, base._closed_port

PAGES = {"recipe-card", "stacking", "activations", "tax-bands", "gpt2-params", "gpt2-mlp", "trainer", "class"}
CHOICE = L.Question("choice", "Bends?", ("Yes", "No"), answer=1)
NUMBER = L.Question("number", "y1?", answer=3.5, tolerance=0.1)
LESSON = L.Lesson("Test lesson", (
    L.Step("recipe-card", "w11=1.5", "card", NUMBER),            # 0: a number
    L.Step("activations", "bend=identity", "bend", CHOICE),      # 1: a choice
    L.Step("activations", "bend=relu", "look"),                  # 2: no question
    L.Step("tax-bands", "income=1", "poll", L.Question("number", "Guess?")),   # 3: a poll
    L.Step("trainer", "", "challenge", challenge=True),          # 4: the class's challenge
))


def _count(store, model, **where) -> int:
    with store.reading() as s:
        q = select(func.count()).select_from(model)
        for k, v in where.items():
            q = q.where(getattr(model, k) == v)
        return int(s.scalar(q))


def test_a_lesson_class_is_a_challenge_class_with_one_lesson_beside_it(store):
    code, key = store.start_lesson(L.to_dict(LESSON), paths=PAGES)
    info = store.get_class(code)
    assert info is not None and info.problem["dataset"] == "checkerboard" and store.is_teacher(code, key)
    st = store.lesson_state(code.lower())
    assert (st.title, st.step, st.opened, st.mode, st.revealed, st.show_names, st.paused) == \
        ("Test lesson", 0, 0, "paced", frozenset(), False, False)
    again = store.lesson_state(code)
    assert st.lesson == LESSON and (again.version, again.paused) == (st.version, False)
    a = store.join(code, "Ada")                                  # the challenge's own join and seats
    assert store.seat(code, a).nickname == "Ada" and store.counts(code).joined == 1
    assert _count(store, Class) == 1 and _count(store, ClassLesson) == 1
    # the challenge step works on the class's data, as a challenge does
    store.goto(code, key, 4)
    store.submit(code, a, spec={}, weights=W(), n_params=1, public=0.5, private=0.5)
    assert store.leaderboard(code)[0].nickname == "Ada"
    challenge, _ = store.create_class({"problem": "classify", "dataset": "ring"})
    assert store.lesson_state(challenge) is None and store.lesson_state("ZZZZZZ") is None
    with pytest.raises(StoreError, match="no page /nowhere"):
        store.start_lesson({**L.to_dict(LESSON), "steps": [{"path": "nowhere"}]}, paths=PAGES)
    with pytest.raises(StoreError, match="paced or free"):
        store.start_lesson(LESSON, mode="fast")


def test_only_the_teachers_key_moves_reveals_and_reads_answers(store):
    code, key = store.start_lesson(LESSON)
    _, other_key = store.start_lesson(LESSON)
    for forged in (None, "", "nope", other_key):
        for call in (lambda k: store.goto(code, k, 1), lambda k: store.reveal(code, k, 0),
                     lambda k: store.set_mode(code, k, "free"), lambda k: store.set_show_names(code, k, True),
                     lambda k: store.answers(code, k, 0), lambda k: store.record(code, k),
                     lambda k: store.export_answers(code, k), lambda k: store.delete_answers(code, k)):
            with pytest.raises(StoreError, match="teacher's link"):
                call(forged)
    st = store.lesson_state(code)
    assert (st.step, st.mode, st.revealed, st.show_names) == (0, "paced", frozenset(), False)
    v0 = st.version
    assert store.goto(code, key, 3).version == v0 + 1
    back = store.goto(code, key, 1)                              # Back: the step moves, opened stays
    assert (back.step, back.opened, back.version) == (1, 3, v0 + 2)
    assert store.set_mode(code, key, "free").mode == "free"
    assert store.set_show_names(code, key, True).show_names
    assert store.reveal(code, key, 1).revealed == {1}
    assert store.reveal(code, key, 1, revealed=False).revealed == frozenset()
    assert store.lesson_state(code).version == v0 + 6
    assert store.goto(code, key, np.int64(1)).step == 1                # a step index as a page may hold it
    for bad in (-1, 5, True, "2", 1.0):
        with pytest.raises(StoreError, match="steps 1 to 5"):
            store.goto(code, key, bad)
    with pytest.raises(StoreError, match="no question"):
        store.reveal(code, key, 2)
    challenge, ckey = store.create_class({"problem": "classify"})
    with pytest.raises(StoreError, match="no lesson"):
        store.goto(challenge, ckey, 0)


def test_a_student_answers_only_an_open_step_until_it_is_revealed(store):
    code, key = store.start_lesson(LESSON)
    a = store.join(code, "Ada")
    assert store.answer(code, a, 0, "3,4") == 3.4               # committed, and returned as kept
    assert store.answer(code, a, 0, 3.5) == 3.5                  # changed: still one row
    assert _count(store, Answer) == 1 and store.seat_answers(code, a) == {0: 3.5}
    with pytest.raises(StoreError, match="not open"):            # paced: only the teacher's step
        store.answer(code, a, 1, 0)
    store.goto(code, key, 1)
    with pytest.raises(StoreError, match="moved on"):
        store.answer(code, a, 0, 3.0)
    with pytest.raises(StoreError, match="Choose one of the answers"):
        store.answer(code, a, 1, 7)
    assert store.answer(code, a, 1, "No") == 1
    store.set_mode(code, key, "free")                            # free: any step opened so far
    assert store.answer(code, a, 0, 3.6) == 3.6
    with pytest.raises(StoreError, match="not open"):
        store.answer(code, a, 3, 1.0)
    store.goto(code, key, 3)
    store.goto(code, key, 0)
    assert store.answer(code, a, 3, 1.0) == 1.0                  # opened before, free: still open
    with pytest.raises(StoreError, match="no question"):
        store.answer(code, a, 2, 1)
    with pytest.raises(StoreError, match="steps 1 to 5"):
        store.answer(code, a, 9, 1)
    store.reveal(code, key, 0)
    with pytest.raises(StoreError, match="revealed"):
        store.answer(code, a, 0, 3.5)
    store.set_flag(code, key, "paused", True)                    # the challenge's pause holds answers too
    assert store.lesson_state(code).paused
    with pytest.raises(StoreError, match="paused"):
        store.answer(code, a, 1, 0)
    store.set_flag(code, key, "paused", False)
    with pytest.raises(StoreError, match="not in the class"):
        store.answer(code, "forged-token", 1, 0)
    other, _ = store.start_lesson(LESSON)
    with pytest.raises(StoreError, match="not in the class"):   # a seat belongs to its class
        store.answer(other, a, 0, 1.0)
    assert store.seat_answers(code, a) == {0: 3.6, 1: 1, 3: 1.0}  # a reload lands with its own answers
    assert store.seat_answers(code, "forged") is None


def test_quick_answers_keep_one_row_per_student_and_none_is_lost(store):
    """30 students answer the same step at once, and one of them 10 more times meanwhile: 30 rows, each
    student's answer there, the quick clicker's one of theirs."""
    code, key = store.start_lesson(LESSON)
    tokens = [store.join(code, f"s{i}") for i in range(30)]
    barrier, errors = threading.Barrier(40), []

    def press(token, value):
        try:
            barrier.wait(30)
            store.answer(code, token, 0, value)
        except Exception as err:   # collected and asserted on below
            errors.append(repr(err))

    jobs = [(t, float(i)) for i, t in enumerate(tokens)] + [(tokens[0], 100.0 + k) for k in range(10)]
    threads = [threading.Thread(target=press, args=job) for job in jobs]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    assert errors == []
    assert _count(store, Answer) == 30 and store.answer_tally(code, 0)[0] == 30
    got = dict(store.answers(code, key, 0))
    assert {got[f"s{i}"] for i in range(1, 30)} == {float(i) for i in range(1, 30)}
    assert got["s0"] in {0.0, *(100.0 + k for k in range(10))}
    with store.reading() as s:
        per_seat = s.execute(select(Answer.seat_id, func.count()).group_by(Answer.seat_id)).all()
    assert all(n == 1 for _, n in per_seat)


def test_answers_after_a_reveal_racing_it_are_refused_not_kept(store):
    code, key = store.start_lesson(LESSON)
    tokens = [store.join(code, f"s{i}") for i in range(12)]
    barrier, kept, refused = threading.Barrier(13), [], []

    def press(token):
        barrier.wait(30)
        try:
            store.answer(code, token, 0, 1.0)
            kept.append(token)
        except StoreError:
            refused.append(token)

    def reveal():
        barrier.wait(30)
        store.reveal(code, key, 0)

    threads = [threading.Thread(target=press, args=(t,)) for t in tokens] + [threading.Thread(target=reveal)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    assert len(kept) + len(refused) == 12
    assert store.answer_tally(code, 0)[0] == len(kept)             # what was acknowledged is what is kept
    assert store.step_distribution(code, 0).n == len(kept)


def test_the_projector_sees_counts_then_the_distribution_and_the_teacher_the_record(store):
    code, key = store.start_lesson(LESSON)
    seats = {n: store.join(code, n) for n in ("Ada", "bo", "Cy", "Di")}
    for (_n, t), v in zip(seats.items(), (3.5, 3.45, 9, 0), strict=True):
        store.answer(code, t, 0, v)
    assert store.answer_tally(code, 0)[0] == 4 and store.answer_tally(code, 1)[0] == 0
    assert store.step_distribution(code, 0) is None                   # not before the reveal
    store.reveal(code, key, 0)
    d = store.step_distribution(code, 0)
    assert d.kind == "number" and d.n == 4 and sum(d.counts) == 4 and d.right == 3.5
    store.goto(code, key, 1)
    for t, v in zip(seats.values(), (1, 1, 0, 1), strict=True):
        store.answer(code, t, 1, v)
    store.reveal(code, key, 1)
    assert store.step_distribution(code, 1).counts == (1, 3)
    assert store.answers(code, key, 1) == [("Ada", 1), ("bo", 1), ("Cy", 0), ("Di", 1)]
    rec = {r.step: r for r in store.record(code, key)}
    assert sorted(rec) == [0, 1, 3]                                     # the steps with a question
    assert (rec[0].answered, rec[0].share_right, rec[0].spread["median"]) == (4, 0.5, 3.475)
    assert (rec[1].share_right, rec[1].counts, rec[1].spread) == (0.75, (1, 3), None)
    assert (rec[3].answered, rec[3].share_right) == (0, None)
    rows = store.export_answers(code, key)
    assert [(r["nickname"], r["step"], r["answer"], r["right"]) for r in rows][:5] == [
        ("Ada", 1, 3.5, True), ("bo", 1, 3.45, True), ("Cy", 1, 9, False), ("Di", 1, 0, False),
        ("Ada", 2, "No", True)]
    assert all(r["title"] and r["time"].endswith("+00:00") for r in rows)
    assert not any(t in str(rows) for t in seats.values()) and key not in str(rows)
    assert store.delete_answers(code, key, 0) == 4 and store.answer_tally(code, 0)[0] == 0
    assert store.delete_answers(code, key) == 4 and _count(store, Answer) == 0


def test_end_and_purge_take_the_lesson_and_its_answers_with_the_class(store):
    code, key = store.start_lesson(LESSON)
    keep, _ = store.start_lesson(LESSON)
    a = store.join(code, "Ada")
    store.answer(code, a, 0, 3.5)
    store.answer(keep, store.join(keep, "Bo"), 0, 1.0)
    store.remove(code, key, nickname="Ada")                           # a student removed: their answers too
    assert store.answer_tally(code, 0)[0] == 0
    store.answer(code, store.join(code, "Cy"), 0, 2.0)
    store.end(code, key)
    assert store.lesson_state(code) is None and store.get_class(code) is None
    assert _count(store, ClassLesson) == 1 and _count(store, Answer) == 1   # the other class's stay
    assert store.purge(timedelta(seconds=-1)) >= 1
    assert _count(store, ClassLesson) == 0 and _count(store, Answer) == 0 and _count(store, Seat) == 0


def test_a_saved_lesson_is_one_code_per_lesson_and_loads_back(store):
    import store as store_module

    code = store.save_lesson(LESSON, paths=PAGES)
    assert len(code) == 6 and set(code) <= set(store_module.CODE_ALPHABET)
    assert store.save_lesson(L.to_dict(LESSON)) == code                 # saved twice: one code
    assert store.load_lesson(code.lower()) == LESSON
    from pathlib import Path

    from lib.lesson_build import read_folder

    ready = read_folder(Path(__file__).resolve().parents[2] / "course")["tax-bands"]   # minutes kept too
    assert ready.minutes and ready.builds_on
    assert store.save_lesson(ready) != code and store.load_lesson(store.save_lesson(ready)) == ready
    assert store.load_lesson("ZZZZZZ") is None and store.load_lesson("") is None
    with pytest.raises(StoreError, match="cannot be used"):
        store.save_lesson({"format": L.FORMAT, "title": "x", "steps": []})
    store.purge()
    assert store.load_lesson(code) == LESSON                            # kept past the classes' purge
    with store.writing() as s:
        old = store_module.utc_now() - store_module.KEEP_LINKS - timedelta(days=1)
        s.get(SavedLesson, code).created_at = s.get(SavedLesson, code).used_at = old   # opened a year ago
    store.purge()
    assert store.load_lesson(code) is None


def test_a_draft_is_written_over_in_place_kept_a_week_from_its_last_change_and_never_a_saved_lesson(store):
    """The builder's unsaved lesson (classroom/draft.py): one row per draft, its code stable as it changes,
    read back without marking it opened, apart from saved lessons both ways, counted in the saves' budget."""
    import store as store_module
    from store import Client

    first = L.Lesson("Draft", LESSON.steps[:1])
    code = store.keep_draft(first, paths=PAGES)
    assert len(code) == 6 and set(code) <= set(store_module.CODE_ALPHABET)
    assert store.load_draft(code.lower()) == first
    assert store.keep_draft(LESSON, code=code, paths=PAGES) == code      # written over: the same code
    assert store.load_draft(code) == LESSON and _count(store, SavedLesson) == 1
    with store.reading() as s:
        row = s.get(SavedLesson, code)
        assert row.used_at is None and row.digest.startswith("draft-") and len(row.digest) == 64
    saved = store.save_lesson(LESSON)                                   # Save: a lesson of its own
    assert saved != code and store.load_draft(saved) is None            # a saved lesson is no draft
    assert store.keep_draft(first, code=saved) not in (saved, code)     # nor is it ever written over
    assert store.load_lesson(saved) == LESSON
    assert store.load_draft("ZZZZZZ") is None and store.load_draft("") is None
    with pytest.raises(StoreError, match="cannot be used"):
        store.keep_draft({"format": L.FORMAT, "title": "x", "steps": []}, code=code)
    assert store.load_draft(code) == LESSON                             # a refused write changes nothing
    week = store_module.KEEP_UNUSED + timedelta(days=1)
    with store.writing() as s:   # last changed eight days ago: purged, as a saved lesson nobody opened
        s.get(SavedLesson, code).created_at = store_module.utc_now() - week
    store.purge()
    assert store.load_draft(code) is None
    assert store.keep_draft(first, code=code) != code                   # purged: a new draft
    # a flood of new drafts from one network meets the saves' budget (issue 44); a write over its own does not
    who = Client.of("203.0.113.9", "cookie")
    mine = store.keep_draft(first, client=who)
    rows = store_module.BUDGETS["save"][0]
    for _ in range(rows - 1):
        store.keep_draft(first, client=who)
    with pytest.raises(StoreError, match="from this network in the last hour"):
        store.keep_draft(first, client=who)
    assert store.keep_draft(LESSON, code=mine, client=who) == mine and store.load_draft(mine) == LESSON


def test_the_schema_upgrades_from_0002_with_the_classes_kept(store):
    from alembic import command

    from store import _alembic

    cfg = _alembic()
    with store.engine.execution_options(write=True).begin() as conn:      # the database as 0002 left it
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "0002")
        conn.execute(text("INSERT INTO classes (code, key_hash, problem, test_seed, paused, revealed, "
                          "hide_names, created_at) VALUES ('ABCDEF', :h, '{}', 123456, false, false, false, "
                          ":t)"), {"h": "0" * 64, "t": _now_text()})
        tables = set(conn.dialect.get_table_names(conn))
    assert "lessons" not in tables and "classes" in tables
    assert store.get_class("ABCDEF") is not None                          # the first use migrates to head
    with store.engine.connect() as conn:
        assert conn.execute(text("SELECT version_num FROM alembic_version")).scalar() == "0007"
    code, _ = store.start_lesson(LESSON)
    assert store.lesson_state(code).step == 0
    with store.engine.execution_options(write=True).begin() as conn:      # and back down, and up again
        cfg.attributes["connection"] = conn
        command.downgrade(cfg, "0003")                                    # lessons' own step down
        assert "answers" not in set(conn.dialect.get_table_names(conn))
        command.upgrade(cfg, "head")
    assert store.get_class("ABCDEF") is not None and store.lesson_state(code) is None


def _now_text() -> str:
    import store as store_module

    return store_module.utc_now().strftime("%Y-%m-%d %H:%M:%S")


def test_every_lesson_call_on_a_store_that_is_away_is_one_line():
    st = Store(f"postgresql+psycopg://127.0.0.1:{_closed_port()}/layerlab")
    calls = [lambda: st.start_lesson(LESSON), lambda: st.lesson_state("ABCDEF"),
             lambda: st.goto("ABCDEF", "k", 0), lambda: st.answer("ABCDEF", "t", 0, 1.0),
             lambda: st.record("ABCDEF", "k"), lambda: st.save_lesson(LESSON),
             lambda: st.load_lesson("ABCDEF"),
             lambda: st.step_distribution("ABCDEF", 0),
             lambda: st.answer_tally("ABCDEF", 0), lambda: st.seat_answers("ABCDEF", "t"),
             lambda: st.lesson_now("ABCDEF"), lambda: st.lesson_now("ABCDEF")]   # the second: the kept one
    for call in calls:
        with pytest.raises(StoreDown):
            call()
    assert st._shared.reads == 1   # an outage costs one try per FRESH s, not one per poll


def test_many_sessions_polling_cost_one_read_per_interval_and_a_move_here_is_seen_at_once(store, monkeypatch):
    """Store.lesson_now: thirty sessions polling at once read the store once; within FRESH s they share
    that read (another replica's move waits for the next), after it they read again; a move made through
    this store is seen by the next poll, however fresh the shared copy."""
    from store import lessons as store_lessons

    code, key = store.start_lesson(LESSON, paths=PAGES)
    reads = []
    read = store.lesson_state
    monkeypatch.setattr(store, "lesson_state", lambda c: reads.append(c) or read(c))
    monkeypatch.setattr(store_lessons, "FRESH", 2.0)   # room for a slow machine between two polls
    gate, seen = threading.Barrier(30), []

    def poll():
        gate.wait()
        seen.append(store.lesson_now(code).step)

    threads = [threading.Thread(target=poll) for _ in range(30)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert seen == [0] * 30 and len(reads) == 1                    # thirty sessions, one read
    replica = Store(store.engine.url.render_as_string(hide_password=False))   # another replica's store
    replica.goto(code, key, 1)
    assert store.lesson_now(code).step == 0 and len(reads) == 1     # within FRESH: the shared copy
    monkeypatch.setattr(store_lessons, "FRESH", 0.0)
    assert store.lesson_now(code).step == 1 and len(reads) == 2     # after it: read again
    monkeypatch.setattr(store_lessons, "FRESH", 60.0)
    store.goto(code, key, 2)
    assert store.lesson_now(code).step == 2 and len(reads) == 3     # a move made here: at once
    store.set_flag(code, key, "paused", True)
    assert store.lesson_now(code).paused and len(reads) == 4        # the pause too
    replica.engine.dispose()


def test_the_projectors_tally_and_a_seats_answers_are_one_read_each(store):
    code, _ = store.start_lesson(LESSON, paths=PAGES)
    a, b = store.join(code, "Ada"), store.join(code, "Bo")
    store.join(code, "Cy")
    store.answer(code, a, 0, 3.5)
    store.answer(code, b, 0, 1.0)
    assert store.answer_tally(code, 0) == (2, 3) and store.answer_tally(code, 1) == (0, 3)
    assert store.answer_tally("NOCODE", 0) == (0, 0)
    assert store.seat_answers(code, a) == {0: 3.5} and store.seat_answers(code, "not-a-seat") is None
    with store.reading() as s:
        seen = s.scalar(select(Seat.last_seen).where(Seat.nickname == "Ada"))
    store.seat_answers(code, a)
    with store.reading() as s:
        assert s.scalar(select(Seat.last_seen).where(Seat.nickname == "Ada")) == seen   # nothing written


def test_one_class_slow_to_read_keeps_no_other_class_waiting(store, monkeypatch):
    """lesson_now holds a class's own lock across its read, not one lock for every class: while class A's
    read hangs (a slow database), class B's sessions are answered. One lock across the read made ten
    classes wait on each other's reads (p95 119 ms against 20 ms reads, 60 sessions)."""
    a, _ = store.start_lesson(LESSON, paths=PAGES)
    b, _ = store.start_lesson(LESSON, paths=PAGES)
    read, inside, release = store.lesson_state, threading.Event(), threading.Event()

    def slow(code):
        if code == a:
            inside.set()
            release.wait(10)
        return read(code)

    monkeypatch.setattr(store, "lesson_state", slow)
    hanging = threading.Thread(target=store.lesson_now, args=(a,))
    hanging.start()
    assert inside.wait(10)
    got = []
    other = threading.Thread(target=lambda: got.append(store.lesson_now(b)))
    other.start()
    other.join(5)
    try:
        assert got and got[0].code == b, "class B waited for class A's read"
    finally:
        release.set()
        hanging.join(10)
        other.join(10)


def test_a_reveals_room_is_read_once_per_version_and_a_teachers_move_reads_it_again(store, monkeypatch):
    """Store.reveal_now: the 30 page runs of a Reveal read the room's answers once per process; deleting
    the answers is a new version, so no page keeps showing the room as it was."""
    code, key = store.start_lesson(LESSON)
    seats = [store.join(code, n) for n in ("Ada", "bo", "Cy")]
    for t, v in zip(seats, (3.5, 3.45, 9), strict=True):
        store.answer(code, t, 0, v)
    assert store.reveal_now(code, 0) is None                      # before the reveal
    store.reveal(code, key, 0)
    reads = []
    real = type(store).step_reveal
    monkeypatch.setattr(type(store), "step_reveal", lambda self, *a: reads.append(a) or real(self, *a))
    rooms = [store.reveal_now(code, 0) for _ in range(30)]
    assert len(reads) == 1 and rooms[0].votes[0].n == 3 and all(r is rooms[0] for r in rooms)
    version = store.lesson_now(code).version
    assert store.delete_answers(code, key, 0) == 3
    assert store.lesson_now(code).version > version
    assert store.reveal_now(code, 0).votes[0].n == 0 and len(reads) == 2

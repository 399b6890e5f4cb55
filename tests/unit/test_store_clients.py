"""Who asks (issue 44), on SQLite and on a real PostgreSQL server (test_store.py's `store` fixture): joins per
client (address and browser), the teacher's close of joining and removal of silent seats, and what anyone
may store (starts, short links, saved lessons) per address, each limit holding when many press at once."""

from __future__ import annotations

from datetime import timedelta

import pytest

from lib import lessons as L
from store import Client, StoreError
from store.models import SavedLesson
from tests.unit import test_store as base
from tests.unit.test_store_lessons import LESSON, PAGES

store, no_gap, PROBLEM, _together = base.store, base.no_gap, base.PROBLEM, base.together


def test_a_browser_holds_three_seats_and_a_flood_from_fresh_browsers_stops_at_the_address_rate(store):
    import store as store_module

    code, _ = store.create_class(PROBLEM)
    tab = Client.of("10.0.0.7", "cookie-1")
    for i in range(store_module.BROWSER_SEATS):
        store.join(code, f"me {i}", client=tab)
    with pytest.raises(StoreError, match="This browser already holds"):
        store.join(code, "me again", client=tab)
    results = _together(50, lambda i: store.join(code, f"flood {i}",
                                                 client=Client.of("10.0.0.9", f"fresh {i}")))
    assert results.count("ok") == store_module.ADDRESS_JOINS_PER_MINUTE          # exactly, however raced
    assert all("from your network" in r for r in results if r != "ok")
    for i in range(30):                                  # the real class, from its own school address
        store.join(code, f"student {i}", client=Client.of("10.0.0.1", f"browser {i}"))
    assert store.counts(code).joined == \
        store_module.BROWSER_SEATS + store_module.ADDRESS_JOINS_PER_MINUTE + 30


def test_three_seats_per_browser_hold_when_one_browser_presses_join_in_many_tabs_at_once(store):
    import store as store_module

    code, _ = store.create_class(PROBLEM)
    results = _together(12, lambda i: store.join(code, f"tab {i}", client=Client.of("10.0.0.7", "one")))
    assert results.count("ok") == store_module.BROWSER_SEATS


def test_the_teacher_closes_joining_and_removes_every_seat_that_never_answered(store):
    code, key = store.start_lesson(LESSON, paths=PAGES)
    answered = store.join(code, "Ada")
    store.answer(code, answered, 0, 3.5)
    challenge_seat = store.join(code, "Bob")
    store.goto(code, key, 4)
    store.submit(code, challenge_seat, spec={}, weights=base.W(), n_params=1, public=0.5, private=0.5)
    for i in range(5):
        store.join(code, f"flood {i}")
    with pytest.raises(StoreError, match="teacher's link"):
        store.remove_silent(code, "nope")
    store.set_flag(code, key, "joining_closed", True)
    assert store.get_class(code).joining_closed
    with pytest.raises(StoreError, match="closed joining"):
        store.join(code, "Late")
    assert store.remove_silent(code, key) == 5
    assert sorted(s.nickname for s in store.seats(code, key)) == ["Ada", "Bob"]
    assert store.seat_answers(code, answered) == {0: 3.5}
    store.set_flag(code, key, "joining_closed", False)
    store.join(code, "Late")
    store.remove(code, key, nickname="Late")           # one seat, by name, as a challenge's teacher does
    assert len(store.seats(code, key)) == 2


@pytest.mark.parametrize("kind", ["start", "link", "save"])
def test_what_one_address_may_store_holds_when_it_is_raced(store, kind):
    import store as store_module

    rows, _ = store_module.BUDGETS[kind]
    me, other = Client.of("10.0.0.9", ""), Client.of("10.0.0.1", "")
    make = {"start": lambda i, c: store.start_lesson(LESSON, client=c),
            "link": lambda i, c: store.shorten("recipe-card", f"x1={i}", client=c),
            "save": lambda i, c: store.save_lesson(L.Lesson(f"lesson {i}", LESSON.steps), client=c)}[kind]
    for i in range(rows - 3):
        make(i, me)
    results = _together(10, lambda i: make(1000 + i, me))
    assert results.count("ok") == 3 and all("from this network in the last hour" in r
                                            for r in results if r != "ok")
    make(5000, other)                                   # another address has its own budget
    make(6000, None)                                    # a script's (no client) is not counted


def test_a_days_characters_bound_saved_lessons_and_short_links(store, monkeypatch):
    import store as store_module

    monkeypatch.setitem(store_module.BUDGETS, "save", (1000, 3 * len(L.dumps(LESSON))))
    me = Client.of("10.0.0.9", "")
    for i in range(2):
        store.save_lesson(L.Lesson(f"lesson {i}", LESSON.steps), client=me)
    with pytest.raises(StoreError, match="characters of saves today"):
        for i in range(2, 6):
            store.save_lesson(L.Lesson(f"lesson {i}", LESSON.steps), client=me)
    monkeypatch.setitem(store_module.BUDGETS, "link", (1000, 30_000))
    store.shorten("recipe-card", "x" * 16_000, client=me)
    with pytest.raises(StoreError, match="characters of links today"):
        store.shorten("recipe-card", "y" * 16_000, client=me)


def test_a_saved_lesson_nobody_opened_goes_in_a_week_an_opened_or_started_one_in_a_year(store):
    import store as store_module

    unused = store.save_lesson(L.Lesson("unused", LESSON.steps))
    opened = store.save_lesson(L.Lesson("opened", LESSON.steps))
    started = store.save_lesson(L.Lesson("started", LESSON.steps))
    week_ago = store_module.utc_now() - store_module.KEEP_UNUSED - timedelta(hours=1)
    with store.writing() as s:
        for code in (unused, opened, started):
            s.get(SavedLesson, code).created_at = week_ago
    store.load_lesson(opened)
    store.start_lesson(L.Lesson("started", LESSON.steps))
    store.purge()
    with store.reading() as s:
        assert s.get(SavedLesson, unused) is None
        assert s.get(SavedLesson, opened) is not None and s.get(SavedLesson, started) is not None


# --- a new row under a new code (store.base.add_with_code, behind all five) ---------------------------------
def _codes(monkeypatch, *codes: str) -> None:
    """store.base.new_code draws these codes, in this order, then fresh ones again."""
    import store.base as store_base

    drawn, fresh = iter(codes), store_base.new_code
    monkeypatch.setattr(store_base, "new_code", lambda: next(drawn, None) or fresh())


def _the_five(store):
    """Each kind of coded row, made anew: (its name, a call that makes one and returns its code, its
    table)."""
    from store.models import Class, ShortLink

    n = iter(range(10**6))
    return (("class", lambda: store.create_class(PROBLEM)[0], Class),
            ("lesson class", lambda: store.start_lesson(LESSON, paths=PAGES)[0], Class),
            ("short link", lambda: store.shorten("trainer", f"seed={next(n)}"), ShortLink),
            ("saved lesson", lambda: store.save_lesson(L.Lesson(f"lesson {next(n)}", LESSON.steps)),
             SavedLesson),
            ("draft", lambda: store.keep_draft(L.Lesson(f"draft {next(n)}", LESSON.steps)), SavedLesson))


def test_every_coded_row_draws_again_past_a_taken_code_and_gives_up_in_one_line_after_twenty(store,
                                                                                             monkeypatch):
    from sqlalchemy import func, select

    for i, (name, make, table) in enumerate(_the_five(store)):
        taken, free = make(), f"QQQQQ{i + 2}"
        with store.reading() as s:
            rows = s.scalar(select(func.count()).select_from(table))
        _codes(monkeypatch, taken, taken, free)
        assert make() == free, name                             # two taken codes, then a free one
        with store.reading() as s:
            assert s.scalar(select(func.count()).select_from(table)) == rows + 1, name   # one row, not three
        _codes(monkeypatch, *[taken] * 20)
        with pytest.raises(StoreError, match="try again"):
            make()
        with store.reading() as s:
            assert s.scalar(select(func.count()).select_from(table)) == rows + 1, name   # nothing half made


def test_a_lesson_class_drawn_past_a_taken_code_has_its_lesson_on_step_zero_and_counts_one_start(store,
                                                                                                 monkeypatch):
    me = Client.of("10.0.0.7", "one")
    taken, _ = store.create_class(PROBLEM, client=me)
    _codes(monkeypatch, taken)
    code, key = store.start_lesson(LESSON, paths=PAGES, client=me)
    assert code != taken
    assert store.lesson_state(code).step == 0 and store.is_teacher(code, key)
    from store.models import Class

    with store.reading() as s:    # the taken draw spent nothing: the class before, and this one
        assert s.query(Class).filter(Class.client == me.address).count() == 2


def test_the_same_link_or_lesson_finds_its_code_before_drawing_one(store, monkeypatch):
    link = store.shorten("trainer", "act=gelu")
    lesson = store.save_lesson(LESSON, paths=PAGES)
    _codes(monkeypatch, *["QQQQQ2"] * 40)      # a draw would give this code
    assert store.shorten("trainer", "act=gelu") == link
    assert store.save_lesson(LESSON, paths=PAGES) == lesson

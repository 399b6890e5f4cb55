"""store: the class store on SQLite and on a real PostgreSQL server (CI starts one: .ci/run).

Without a PostgreSQL server the PostgreSQL half skips with one line on a laptop; under CI it fails."""

from __future__ import annotations

import os
import secrets
import subprocess
import threading
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import inspect, select, text

from store import CODE_ALPHABET, Store, StoreError, migrate
from store.models import Base, Class, Seat

PROBLEM = {"problem": "classify", "dataset": "checkerboard", "k": 3, "n": 400, "noise": 0.0, "cells": 2,
           "seed": 0, "feat": ["x1", "x2"]}


def _postgres_url():
    name = f"layerlab_test_{secrets.token_hex(4)}"
    try:
        subprocess.run(["createdb", name], check=True, capture_output=True, timeout=30)
    except (OSError, subprocess.SubprocessError) as err:
        if os.environ.get("CI"):
            pytest.fail(f"CI must have a PostgreSQL server (.ci/run starts it): {err}")
        pytest.skip("needs a PostgreSQL server (apt-get install postgresql; see README)")
    return name


@pytest.fixture(autouse=True)
def no_gap(monkeypatch):
    """Submissions of one student follow each other at once here (the gap has its own test)."""
    import store as store_module

    monkeypatch.setattr(store_module, "MIN_GAP", timedelta(0))


_n = iter(range(10**6))


def W():
    """A network's weights, new each time (the same network twice is one submission)."""
    return {"w": [next(_n)]}


@pytest.fixture(params=["sqlite", "postgresql"])
def store(request, tmp_path):
    if request.param == "sqlite":
        yield Store(f"sqlite:///{tmp_path / 'classes.sqlite3'}")
        return
    name = _postgres_url()
    s = Store(f"postgresql+psycopg:///{name}")
    yield s
    s.engine.dispose()
    subprocess.run(["dropdb", "--if-exists", name], capture_output=True, timeout=30)


def test_a_class_gets_a_code_without_look_alikes_and_a_key_kept_only_hashed(store):
    code, key = store.create_class(PROBLEM)
    assert len(code) == 6 and set(code) <= set(CODE_ALPHABET) and not set(code) & set("0O1IL")
    assert len(key) >= 22                                      # >= 128 bits of randomness, URL-safe
    assert store.is_teacher(code, key) and store.is_teacher(code.lower(), key)
    assert not store.is_teacher(code, key[:-1] + "x") and not store.is_teacher(code, "")
    with store.session() as s:
        row = s.scalar(select(Class).where(Class.code == code))
        assert key not in (row.key_hash, row.problem) and len(row.key_hash) == 64
    assert store.get_class(code).problem == PROBLEM


def test_students_join_with_unique_nicknames_and_a_seat_that_survives(store):
    code, _ = store.create_class(PROBLEM)
    token = store.join(code, "  Ada   Lovelace ")
    assert store.seat(code, token).nickname == "Ada Lovelace"
    with pytest.raises(StoreError, match="already called"):
        store.join(code, "ada lovelace")
    with pytest.raises(StoreError, match="at most 24"):
        store.join(code, "x" * 25)
    with pytest.raises(StoreError, match="No class"):
        store.join("ZZZZZZ", "Bo")
    assert store.seat(code, "not-a-token") is None
    other, _ = store.create_class(PROBLEM)
    assert store.seat(other, token) is None                    # a seat belongs to its class
    with store.session() as s:
        assert token not in {r.token_hash for r in s.scalars(select(Seat))}
    # Another process (a replica) sees the same seat: it is in the database, not in memory.
    again = Store(store.url)
    assert again.seat(code, token).nickname == "Ada Lovelace"


def test_submissions_are_limited_scored_ranked_and_the_private_half_waits(store):
    code, key = store.create_class(PROBLEM, max_submissions=2, max_params=100)
    a, b = store.join(code, "Ada"), store.join(code, "<b>Bo</b>")
    r = store.submit(code, a, spec={"hidden": [8]}, weights=W(), n_params=33, public=0.8, private=0.7)
    assert r.rank == 1 and r.left == 1
    store.submit(code, b, spec={"hidden": [4]}, weights=W(), n_params=17, public=0.9, private=0.6)
    board = store.leaderboard(code)
    assert [(x.rank, x.nickname, x.private) for x in board] == [(1, "<b>Bo</b>", None), (2, "Ada", None)]
    with pytest.raises(StoreError, match="at most 100"):
        store.submit(code, a, spec={}, weights=W(), n_params=101, public=1.0, private=1.0)
    store.submit(code, a, spec={"hidden": [8]}, weights=W(), n_params=33, public=0.85, private=0.9)
    with pytest.raises(StoreError, match="used all 2"):
        store.submit(code, a, spec={}, weights=W(), n_params=33, public=1.0, private=1.0)
    with pytest.raises(StoreError, match="teacher's link"):
        store.set_flag(code, "wrong", "revealed", True)
    store.set_flag(code, key, "revealed", True)                 # private half shown, and it decides
    board = store.leaderboard(code)
    assert [(x.nickname, x.private, x.submissions) for x in board] == [("Ada", 0.9, 2), ("<b>Bo</b>", 0.6, 1)]


def test_pause_and_closing_hold_submissions_with_nothing_kept(store):
    code, key = store.create_class(PROBLEM, closes_at=datetime.now(UTC) + timedelta(hours=1))
    a = store.join(code, "Ada")
    store.set_flag(code, key, "paused", True)
    with pytest.raises(StoreError, match="paused"):
        store.submit(code, a, spec={}, weights=W(), n_params=1, public=0.5, private=0.5)
    assert store.counts(code).submissions == 0
    store.set_flag(code, key, "paused", False)
    store.submit(code, a, spec={}, weights=W(), n_params=1, public=0.5, private=0.5)
    late, _ = store.create_class(PROBLEM, closes_at=datetime.now(UTC) - timedelta(seconds=1))
    with pytest.raises(StoreError, match="closed"):
        store.join(late, "Ada")


def test_the_last_submission_cannot_be_taken_twice_by_quick_clicks(store):
    code, _ = store.create_class(PROBLEM, max_submissions=1)
    a = store.join(code, "Ada")
    results = []

    def click():
        try:
            store.submit(code, a, spec={}, weights=W(), n_params=1, public=0.5, private=0.5)   # 4 networks
            results.append("kept")
        except StoreError:
            results.append("refused")

    threads = [threading.Thread(target=click) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert sorted(results) == ["kept", "refused", "refused", "refused"]
    assert store.counts(code).submissions == 1


def test_counts_say_who_joined_is_active_and_playing(store):
    code, _ = store.create_class(PROBLEM)
    a, _b = store.join(code, "Ada"), store.join(code, "Bo")
    store.seat(code, a, playing=True)
    c = store.counts(code)
    assert (c.joined, c.active, c.playing) == (2, 2, 1)


def test_the_schema_is_alembics_and_the_models_agree(store):
    migrate(store.engine)                                       # a second run changes nothing
    with store.engine.connect() as conn:
        assert conn.execute(text("SELECT version_num FROM alembic_version")).scalar() == "0003"   # the newest
        names = set(inspect(conn).get_table_names())
    assert {t.name for t in Base.metadata.sorted_tables} <= names


def test_the_same_network_twice_is_one_submission_and_quick_ones_wait(store, monkeypatch):
    import store as store_module

    monkeypatch.setattr(store_module, "MIN_GAP", timedelta(seconds=3))
    code, _ = store.create_class(PROBLEM)
    a = store.join(code, "Ada")
    first = store.submit(code, a, spec={}, weights={"w": [1]}, n_params=1, public=0.5, private=0.5)
    again = store.submit(code, a, spec={}, weights={"w": [1]}, n_params=1, public=0.5, private=0.5)
    assert again.submission == first.submission and store.counts(code).submissions == 1
    with pytest.raises(StoreError, match="Wait a few seconds"):
        store.submit(code, a, spec={}, weights={"w": [2]}, n_params=1, public=0.6, private=0.6)
    # An earlier network again (a reload retrained the same epochs from the same start): that submission.
    monkeypatch.setattr(store_module, "MIN_GAP", timedelta(0))
    second = store.submit(code, a, spec={}, weights={"w": [2]}, n_params=1, public=0.6, private=0.6)
    older = store.submit(code, a, spec={}, weights={"w": [1]}, n_params=1, public=0.5, private=0.5)
    assert older.submission == first.submission != second.submission and store.counts(code).submissions == 2
    assert store.counts(code).submissions == 2 and older.left is None


def test_the_teacher_closes_reopens_removes_exports_and_ends_with_the_key_only(store):
    code, key = store.create_class(PROBLEM)
    a, b = store.join(code, "Ada"), store.join(code, "Bo")
    r = store.submit(code, a, spec={"hidden": [8]}, weights={"w": [1]}, n_params=33, public=0.8, private=0.7)
    store.submit(code, b, spec={}, weights={"w": [3]}, n_params=5, public=0.6, private=0.9)
    for forged in (None, "", "nope"):
        with pytest.raises(StoreError, match="teacher's link"):
            store.end(code, forged)
        with pytest.raises(StoreError, match="teacher's link"):
            store.export(code, forged)
    store.set_open(code, key, False)
    with pytest.raises(StoreError, match="closed"):
        store.submit(code, a, spec={}, weights={"w": [9]}, n_params=1, public=1.0, private=1.0)
    store.set_open(code, key, True)
    rows = store.export(code, key)
    assert [(x["nickname"], x["parameters"], x["weights"]) for x in rows] == [("Ada", 33, {"w": [1]}),
                                                                            ("Bo", 5, {"w": [3]})]
    assert not any(a in str(x) or key in str(x) for x in rows)        # no token, no key in an export
    store.remove(code, key, submission=r.submission)
    assert [x.nickname for x in store.leaderboard(code)] == ["Bo"]
    store.remove(code, key, nickname="Bo")
    assert store.leaderboard(code) == [] and store.counts(code).joined == 1
    store.end(code, key)
    assert store.get_class(code) is None and store.seat(code, a) is None


def test_old_classes_are_deleted_and_a_class_holds_at_most_200(store, monkeypatch):
    import store as store_module

    code, _ = store.create_class(PROBLEM)
    assert store.purge() == 0 and store.get_class(code) is not None
    assert store.purge(timedelta(seconds=-1)) >= 1 and store.get_class(code) is None
    small, _ = store.create_class(PROBLEM)
    monkeypatch.setattr(store_module, "MAX_SEATS", 2)
    store.join(small, "a"), store.join(small, "b")
    with pytest.raises(StoreError, match="full"):
        store.join(small, "c")


def test_a_short_link_is_one_code_per_link_and_expands_back(store):
    query = "hidden=16%2C16&act=gelu&w=" + "A" * 600          # a trainer link with its weights
    code = store.shorten("trainer", query)
    assert len(code) == 6 and set(code) <= set(CODE_ALPHABET)
    assert store.shorten("trainer", query) == code                  # made twice: one link on the slide
    assert store.shorten("trainer", query + "&seed=2") != code
    assert store.expand(code) == ("trainer", query)
    assert store.expand(code.lower()) == ("trainer", query)         # typed off a projector, any case
    assert store.expand("ZZZZZZ") is None and store.expand("") is None
    with pytest.raises(StoreError, match="Not a page"):
        store.shorten("../etc", "")
    with pytest.raises(StoreError, match="longer than"):
        store.shorten("trainer", "x" * 20_000)


def test_short_links_outlive_classes_but_not_a_year(store):
    import store as store_module
    from store.models import ShortLink

    code = store.shorten("recipe-card", "w11=1.5")
    store.purge()
    assert store.expand(code) is not None
    with store.session.begin() as s:
        s.get(ShortLink, code).created_at = store_module._now() - store_module.KEEP_LINKS - timedelta(days=1)
    store.purge()
    assert store.expand(code) is None

"""Nicknames in the class store: look-alikes are one name (store.nickname_key: NFKC, the TR39 confusables
skeleton, case folded) on SQLite and PostgreSQL, and migration 0003 keys the seats a store already holds."""

from __future__ import annotations

import subprocess
from datetime import UTC, datetime

import pytest
from sqlalchemy import create_engine, text

from store import MIGRATIONS, Store, StoreError, nickname_key
from tests.unit.test_store import _postgres_url

PROBLEM = {"problem": "classify", "dataset": "checkerboard", "k": 3, "n": 400, "noise": 0.0, "cells": 2,
           "seed": 0, "feat": ["x1", "x2"]}


@pytest.fixture(params=["sqlite", "postgresql"])
def url(request, tmp_path):
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'classes.sqlite3'}"
        return
    name = _postgres_url()
    yield f"postgresql+psycopg:///{name}"
    subprocess.run(["dropdb", "--if-exists", "--force", name], capture_output=True, timeout=30)


def test_the_key_is_one_for_look_alikes_and_two_for_different_names():
    same = [("alice", "\u0430lice"),                       # a Cyrillic а
            ("Alice", "\uff21\uff4c\uff49\uff43\uff45"),   # fullwidth letters
            ("Ada", "ADA"), ("ALICE", "alice"), ("B0b", "Bob"), ("m", "rn"), ("pa\u03c1a", "papa")]
    for a, b in same:
        assert nickname_key(a) == nickname_key(b), (a, b)
    for a, b in (("Ada", "Adb"), ("José", "Jose"), ("Bo", "Bob")):
        assert nickname_key(a) != nickname_key(b), (a, b)
    assert len(nickname_key("\ufdfa" * 24)) <= 24                 # NFKC makes 18 letters of one: a digest


def test_a_look_alike_of_a_name_in_the_class_is_refused(url):
    s = Store(url)
    code, _ = s.create_class(PROBLEM)
    s.join(code, "alice")
    for twin in ("\u0430lice", "\uff41\uff4c\uff49\uff43\uff45", "ALICE", " alice "):
        with pytest.raises(StoreError, match="already called"):
            s.join(code, twin)
    s.join(code, "\ufdfa" * 24)                                    # a key that fits the column everywhere
    s.join(code, "alicia")
    s.engine.dispose()


def _seated_at(url: str, revision: str, seats: dict[str, str]) -> Store:
    """A store as `revision` left it, one class with these seats ({nickname: its key then}), opened now
    (its first use migrates it to head): the seats' keys as the migrations made them."""
    from alembic import command
    from alembic.config import Config

    engine = create_engine(url)
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, revision)                             # a store as it was before
    now = datetime.now(UTC)
    with engine.begin() as conn:
        conn.execute(text("INSERT INTO classes (code, key_hash, problem, test_seed, paused, revealed, "
                          "hide_names, created_at) VALUES ('ABCDEF', 'x', '{}', 123456, false, false, false, "
                          ":t)"), {"t": now})
        cid = conn.execute(text("SELECT id FROM classes")).scalar()
        for i, (name, key) in enumerate(seats.items()):
            conn.execute(text("INSERT INTO seats (class_id, token_hash, nickname, nickname_key, joined_at, "
                              "last_seen) VALUES (:c, :h, :n, :k, :t, :t)"),
                         {"c": cid, "h": f"h{i}", "n": name, "k": key, "t": now})
    engine.dispose()
    s = Store(url)
    assert s.ping()
    return s


def _keys(s: Store) -> dict[str, str]:
    with s.engine.begin() as conn:
        assert conn.execute(text("SELECT count(*) FROM classes")).scalar() == 1
        return dict(conn.execute(text("SELECT nickname, nickname_key FROM seats")).all())


def test_migration_0003_keys_the_seats_already_stored_and_keeps_both_of_a_pair(url):
    s = _seated_at(url, "0002", {name: name.casefold() for name in ("ada", "\u0430da", "Bo")})   # two names
    keys = _keys(s)                                                  # then, one name now
    assert keys["ada"] == "ada" and keys["\u0430da"].startswith("ada~") and keys["Bo"] == "bo"
    with pytest.raises(StoreError, match="already called"):
        s.join("ABCDEF", "ADA")
    s.engine.dispose()


INVISIBLE = ("\u034f", "\ufe0f", "\u180b", "\u2800", "\u3164", "\u200b", "\u00ad", "\U000e0041")


def test_invisible_characters_and_a_capital_i_for_an_l_make_no_second_alice(url):
    """Issue 44: "alice" with a character that draws nothing, or "aIice" (a capital I, an l in sans-serif),
    joined beside "alice" at the same width."""
    for ch in INVISIBLE:
        assert nickname_key(f"al{ch}ice") == nickname_key("alice") == nickname_key(f"{ch}alice{ch}"), ch
    assert nickname_key("aIice") == nickname_key("alice")
    s = Store(url)
    code, _ = s.create_class(PROBLEM)
    s.join(code, "alice")
    for twin in ["aIice", *(f"ali{ch}ce" for ch in INVISIBLE)]:
        with pytest.raises(StoreError, match="already called"):
            s.join(code, twin)
    with pytest.raises(StoreError, match="Choose a nickname"):
        s.join(code, "\u3164\u2800\u034f")                        # nothing visible at all
    token = s.join(code, "b\u034fob\ufe0f")
    assert s.seat(code, token).nickname == "bob"                  # kept as it is drawn
    s.engine.dispose()


def test_migration_0005_keys_again_and_keeps_both_of_a_pair_that_is_one_name_now(url):
    s = _seated_at(url, "0004", {"alice": "alice", "aIice": "aiice", "b\u034fo": "b\u034fo"})
    keys = _keys(s)
    assert keys["alice"] == "allce" and keys["aIice"].startswith("allce~") and keys["b\u034fo"] == "bo"
    with pytest.raises(StoreError, match="already called"):
        s.join("ABCDEF", "bo")
    s.engine.dispose()

"""store: the class store on SQLite and on a real PostgreSQL server (CI starts one: .ci/run).

Without a PostgreSQL server the PostgreSQL half skips with one line on a laptop; under CI it fails."""

from __future__ import annotations

import os
import secrets
import subprocess
import threading
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from sqlalchemy import func, inspect, select, text

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
    # --force: a test's second Store (another replica) may still hold a connection
    subprocess.run(["dropdb", "--if-exists", "--force", name], capture_output=True, timeout=30)


def test_a_class_gets_a_code_without_look_alikes_and_a_key_kept_only_hashed(store):
    code, key = store.create_class(PROBLEM)
    assert len(code) == 6 and set(code) <= set(CODE_ALPHABET) and not set(code) & set("0O1IL")
    assert len(key) >= 22                                      # >= 128 bits of randomness, URL-safe
    assert store.is_teacher(code, key) and store.is_teacher(code.lower(), key)
    other = key[:-1] + ("y" if key.endswith("x") else "x")   # one character off (a key ending in x: 1/64)
    assert not store.is_teacher(code, other) and not store.is_teacher(code, "")
    with store.reading() as s:
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
    with store.reading() as s:
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
        assert conn.execute(text("SELECT version_num FROM alembic_version")).scalar() == "0007"   # the newest
        names = set(inspect(conn).get_table_names())
        # Alembic's own comparison of the migrated schema with the models: every column, its type and
        # nullability, every index and constraint (a column added to a model without a step shows here)
        from alembic.autogenerate import compare_metadata
        from alembic.runtime.migration import MigrationContext

        drift = compare_metadata(MigrationContext.configure(conn, opts={"compare_type": True}), Base.metadata)
    assert {t.name for t in Base.metadata.sorted_tables} <= names
    assert drift == [], drift


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
    with store.writing() as s:
        old = store_module.utc_now() - store_module.KEEP_LINKS - timedelta(days=1)
        s.get(ShortLink, code).created_at = old
    store.purge()
    assert store.expand(code) is None


# --- item 6: the store's own correctness under concurrency ------------------------------------------------
def _fill(store, code: str, n: int, ago: timedelta = timedelta(minutes=5)) -> None:
    """n seats that joined `ago` (so the per-class join rate does not count them), inserted directly."""
    import store as store_module

    with store.writing() as s:
        cid = s.scalar(select(Class.id).where(Class.code == code))
        at = store_module.utc_now() - ago
        s.add_all(Seat(class_id=cid, token_hash=secrets.token_hex(32), nickname=f"s{i}", nickname_key=f"s{i}",
                       joined_at=at, last_seen=at) for i in range(n))


def together(n: int, press) -> list[str]:
    """n threads call press(i) at the same moment: "ok" or the refusal's line, per thread."""
    barrier, results = threading.Barrier(n), []

    def run(i):
        barrier.wait(10)
        try:
            press(i)
            results.append("ok")
        except StoreError as err:
            results.append(str(err))

    threads = [threading.Thread(target=run, args=(i,)) for i in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    return results


def _race(store, code: str, n: int = 36) -> list[str]:
    """n students press Join at the same moment: what each was told ("seat" for a seat)."""
    return ["seat" if r == "ok" else r for r in together(n, lambda i: store.join(code, f"racer{i}"))]


def test_the_seat_cap_holds_when_many_join_at_once(store):
    """36 students press Join together at 195 seats: exactly 5 get a seat, the rest are told it is full
    (PostgreSQL counted without a lock: 30 joins at 195 gave 204 to 210 seats)."""
    import store as store_module

    code, _ = store.create_class(PROBLEM)
    _fill(store, code, store_module.MAX_SEATS - 5)
    results = _race(store, code)
    assert results.count("seat") == 5 and all("full" in r for r in results if r != "seat")
    assert store.counts(code).joined == store_module.MAX_SEATS


def test_the_seats_a_minute_hold_when_many_join_at_once(store):
    """The same race against the per-class rate: 5 places left in this minute, 5 seats."""
    import store as store_module

    code, _ = store.create_class(PROBLEM)
    _fill(store, code, store_module.JOINS_PER_MINUTE - 5, ago=timedelta(seconds=5))
    results = _race(store, code)
    assert results.count("seat") == 5 and all("last minute" in r for r in results if r != "seat")
    assert store.counts(code).joined == store_module.JOINS_PER_MINUTE


def test_a_reader_is_not_held_by_another_open_read_nor_by_a_writer(tmp_path):
    """WAL lets readers overlap each other and a writer: only writes take SQLite's write lock (reads began
    IMMEDIATE and a second reader waited behind an open read)."""
    import time

    store = Store(f"sqlite:///{tmp_path / 'classes.sqlite3'}")
    code, _ = store.create_class(PROBLEM)
    for hold in (store.reading, store.writing):
        with hold() as s:
            s.scalar(select(Class.id))                 # a transaction is open and has read
            waited: list[float] = []

            def other(waited=waited):
                t0 = time.perf_counter()
                assert store.get_class(code) is not None
                waited.append(time.perf_counter() - t0)

            t = threading.Thread(target=other)
            t.start()
            t.join(5)
            assert waited and waited[0] < 0.5, (hold.__name__, waited)


# --- item 2: the store away ---------------------------------------------------------------------------------
def _closed_port() -> int:
    import socket

    with socket.socket() as sock:             # a port nothing listens on: connection refused at once
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _every_call(store, code="ABCDEF", key="k", token="t"):
    """Each public call of the store, as a page makes it."""
    return [lambda: store.get_class(code), lambda: store.join(code, "Ada"), lambda: store.seat(code, token),
            lambda: store.submit(code, token, spec={}, weights=W(), n_params=1, public=0.5, private=0.5),
            lambda: store.leaderboard(code), lambda: store.counts(code), lambda: store.create_class(PROBLEM),
            lambda: store.is_teacher(code, key), lambda: store.set_flag(code, key, "paused", True),
            lambda: store.export(code, key), lambda: store.seats(code, key),
            lambda: store.shorten("trainer", "a=1"),
            lambda: store.expand("ABCDEF"), lambda: store.submissions(code), lambda: store.purge()]


def test_a_store_whose_postgresql_is_away_says_so_in_one_line_for_every_call():
    from store import StoreDown

    store = Store(f"postgresql+psycopg://127.0.0.1:{_closed_port()}/layerlab")   # no connection yet
    for call in _every_call(store):
        with pytest.raises(StoreDown) as err:
            call()
        assert str(err.value) == "The class store cannot be reached; your network is still on this page."
        assert isinstance(err.value, StoreError)                  # what the pages already catch


class PrivatePostgres:
    """A PostgreSQL server of the test's own on a free port of 127.0.0.1 (the shared one is never stopped):
    `url`, `stop()` (fast shutdown: its clients are cut off), `start()`; `close()` removes it."""

    def __init__(self):
        import glob
        import pwd
        import shutil
        import tempfile

        bindir = next(iter(sorted(glob.glob("/usr/lib/postgresql/*/bin"), reverse=True)), None)
        if bindir is None or not shutil.which("pg_ctl", path=bindir):
            pytest.skip("needs PostgreSQL's server programs (apt-get install postgresql)")
        self.bindir, self.user = bindir, ("postgres" if os.geteuid() == 0 else None)   # initdb refuses root
        self.dir = Path(tempfile.mkdtemp(prefix="layerlab-pg-"))    # pytest's tmp_path is its owner's only
        if self.user:
            os.chown(self.dir, pwd.getpwnam(self.user).pw_uid, -1)
            os.chmod(self.dir, 0o755)
        self.port = _closed_port()
        self._run("initdb", "-D", str(self.dir / "pg"), "-A", "trust", "-U", "layerlab")
        self.start()
        self._run("createdb", "-h", "127.0.0.1", "-p", str(self.port), "-U", "layerlab", "layerlab")
        self.url = f"postgresql+psycopg://layerlab@127.0.0.1:{self.port}/layerlab"

    def _run(self, program, *args, check=True):
        sudo = ["runuser", "-u", self.user, "--"] if self.user else []
        return subprocess.run([*sudo, f"{self.bindir}/{program}", *args], check=check, capture_output=True,
                              timeout=120)

    def _ctl(self, *args, check=True):
        return self._run("pg_ctl", "-D", str(self.dir / "pg"), "-w", "-l", str(self.dir / "log"), "-o",
                         f"-p {self.port} -k {self.dir} -c listen_addresses=127.0.0.1", *args, check=check)

    def start(self):
        self._ctl("start")

    def stop(self):
        self._ctl("-m", "fast", "stop")

    def close(self):
        import shutil

        self._ctl("-m", "immediate", "stop", check=False)
        shutil.rmtree(self.dir, ignore_errors=True)


def test_a_stopped_postgresql_is_away_and_the_same_store_comes_back_with_it():
    """A real server of our own: stopped mid-class, every call is StoreDown; started again, the same Store
    (its pool, its engine) carries on with what was kept."""
    import time

    from store import StoreDown

    pg = PrivatePostgres()
    try:
        store = Store(pg.url)
        code, key = store.create_class(PROBLEM)
        token = store.join(code, "Ada")
        pg.stop()
        for call in _every_call(store, code, key, token):
            with pytest.raises(StoreDown):
                call()
        assert not store.ping()
        pg.start()
        t0 = time.monotonic()
        assert store.seat(code, token).nickname == "Ada"           # no restart, no new Store
        store.submit(code, token, spec={}, weights=W(), n_params=1, public=0.5, private=0.5)
        assert store.counts(code).submissions == 1 and time.monotonic() - t0 < 10
        store.engine.dispose()
    finally:
        pg.close()


def test_a_sqlite_file_whose_folder_is_away_says_so_and_comes_back(tmp_path):
    from store import StoreDown

    folder = tmp_path / "mount"
    store = Store(f"sqlite:///{folder / 'classes.sqlite3'}")    # its folder is not there (an unmounted disk)
    with pytest.raises(StoreDown):
        store.get_class("ABCDEF")
    folder.mkdir()
    code, key = store.create_class(PROBLEM)                      # there now: made, migrated, used
    token = store.join(code, "Ada")
    store.engine.dispose()                                       # no open file left to write into
    folder.rename(tmp_path / "elsewhere")                        # the folder goes away mid-class
    for call in _every_call(store, code, key, token):
        with pytest.raises(StoreDown):
            call()
    assert not store.ping()
    (tmp_path / "elsewhere").rename(folder)                      # and comes back, with what it kept
    assert store.ping() and store.seat(code, token).nickname == "Ada"
    unreadable = tmp_path / "a-folder-not-a-file"
    unreadable.mkdir()
    with pytest.raises(StoreDown):                               # "unable to open database file"
        Store(f"sqlite:///{unreadable}").get_class("ABCDEF")


def test_a_store_held_locked_too_long_is_away_not_an_error(tmp_path, monkeypatch):
    import store as store_module
    from store import StoreDown

    url = f"sqlite:///{tmp_path / 'classes.sqlite3'}"
    store = Store(url)
    code, _ = store.create_class(PROBLEM)
    monkeypatch.setattr(store_module, "LOCK_WAIT", 0.2)         # seconds a write waits for the lock
    quick = Store(url)
    assert quick.get_class(code) is not None                    # opened (its schema looked at) before
    with store.writing() as s:                                  # another writer holds the lock meanwhile
        s.scalar(select(Class.id))
        with pytest.raises(StoreDown):
            quick.join(code, "Ada")
        assert quick.get_class(code) is not None                # reads still read (WAL)
    assert quick.join(code, "Ada")                              # the lock is free again


def test_the_sqlite_file_and_its_folder_are_for_their_owner_only(tmp_path, monkeypatch):
    import stat

    from store import default_url

    home = tmp_path / "home"
    monkeypatch.delenv("LAYERLAB_DB", raising=False)
    monkeypatch.setenv("LAYERLAB_HOME", str(home))
    old = os.umask(0o022)                                        # a usual umask: files readable by all
    try:
        store = Store(default_url())
        code, _ = store.create_class(PROBLEM)
        store.join(code, "Ada")
    finally:
        os.umask(old)
    mode = lambda p: stat.S_IMODE(p.stat().st_mode)   # noqa: E731
    assert mode(home) == 0o700
    files = sorted(home.iterdir())
    assert {p.name for p in files} >= {"classes.sqlite3", "classes.sqlite3-wal", "classes.sqlite3-shm"}
    assert {p.name: mode(p) for p in files} == {p.name: 0o600 for p in files}


# --- item 4: floods ---------------------------------------------------------------------------------------
def test_a_class_takes_at_most_so_many_new_seats_a_minute_and_a_class_of_30_never_notices(store):
    import store as store_module

    code, _ = store.create_class(PROBLEM)
    for i in range(30):                                          # a class of 30 joining at once
        store.join(code, f"student {i}")
    for i in range(30, store_module.JOINS_PER_MINUTE):
        store.join(code, f"student {i}")
    with pytest.raises(StoreError, match="in the last minute"):  # one client making seats as fast as it can
        store.join(code, "flood")
    with store.writing() as s:                                  # a minute later there is room again
        for seat in s.scalars(select(Seat)):
            seat.joined_at = store_module.utc_now() - timedelta(seconds=61)
    store.join(code, "flood")


def test_the_teacher_lists_every_seat_including_those_who_never_submitted(store):
    code, key = store.create_class(PROBLEM)
    a, _ = store.join(code, "Ada"), store.join(code, "bo")
    store.submit(code, a, spec={}, weights=W(), n_params=1, public=0.5, private=0.5)
    assert [(x.nickname, x.submissions) for x in store.seats(code, key)] == [("Ada", 1), ("bo", 0)]
    with pytest.raises(StoreError, match="teacher's link"):
        store.seats(code, "nope")
    store.remove(code, key, nickname="bo")                       # a seat that never submitted goes too
    assert [x.nickname for x in store.seats(code, key)] == ["Ada"] and store.counts(code).joined == 1


def test_a_class_past_keep_is_deleted_when_a_teacher_starts_another_not_only_at_a_start(store):
    import store as store_module

    old, _ = store.create_class(PROBLEM)
    store.join(old, "Ada")
    with store.writing() as s:
        s.scalar(select(Class).where(Class.code == old)).created_at = \
            store_module.utc_now() - store_module.KEEP - timedelta(minutes=1)
    assert store.get_class(old) is not None                     # the server has been up for weeks
    store.create_class(PROBLEM)
    assert store.get_class(old) is None
    with store.reading() as s:
        assert s.scalar(select(func.count()).select_from(Seat)) == 0   # its seats went with it

"""The class store: what a class makes, kept. SQLAlchemy 2 over SQLite (no set-up) or PostgreSQL (across
replicas). Never imports streamlit.

Where it lives (`default_url`): LAYERLAB_DB (a SQLAlchemy URL, e.g. postgresql+psycopg://host/layerlab),
else ~/.layerlab/classes.sqlite3. The schema is Alembic's (store/migrations), brought up to date at a
Store's first use.

Reads and writes (`reading()`, `writing()`): on SQLite a read begins a plain (deferred) transaction, so
readers overlap each other and a writer (WAL); a write begins IMMEDIATE, taking the one write lock first,
so a count and the insert it allows are one step. On PostgreSQL a write that counts before it inserts
locks the row it counts under (the class, the seat). Both doors are the one place an outage is turned
into StoreDown, one line; a Store connects (and migrates) at its first use, and after an outage its next
use tries again, so a store that comes back is used again without a restart.

Secrets: the teacher's key (192 random bits) and a student's seat token (128 bits) are stored only as
their SHA-256; a lookup hashes what it was given and compares. Every query is SQLAlchemy's, with bound
parameters. Every write commits before the call returns, so what a student was told is kept survives
a replica that dies. Limits (submissions per student, closing time, pause) are checked inside the same
transaction that writes, with the seat row locked, so two quick clicks cannot both get the last one.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import hmac
import json
import math
import os
import secrets
import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path

from sqlalchemy import create_engine, delete, event, exists, func, select
from sqlalchemy import text as sql
from sqlalchemy.exc import DataError, DBAPIError, IntegrityError, ProgrammingError
from sqlalchemy.exc import TimeoutError as PoolTimeout
from sqlalchemy.orm import Session, sessionmaker

from store.base import (
    CODE_ALPHABET,  # noqa: F401 (re-exported: callers read every store name from `store`)
    CODE_LENGTH,
    KEEP_LINKS,
    KEEP_UNUSED,  # noqa: F401 (re-exported: callers read every store name from `store`)
    LINK_SEEDS,
    Client,
    StoreError,
    aware_utc,
    hash_secret,
    new_code,
    normal_code,
    utc_now,
)
from store.homework import HomeworkStore
from store.lessons import LessonStore
from store.models import Class, Seat, ShortLink, Submission

NICK_MAX = 24
MAX_SEATS = 200                    # students in one class
LOCK_WAIT = 30                     # seconds a SQLite write waits for another's lock: then the store is away
JOINS_PER_MINUTE = 90              # new seats in one class in a minute: two classes of 30 joining at once,
                                   # and one client's flood at its own limit beside them
# Per client (store.Client, issue 44): a school behind one NAT address is one address, so the address's
# limit is a rate a class of 30 joining at once never meets; a browser (its cookie) holds a few seats.
ADDRESS_JOINS_PER_MINUTE = 40      # new seats in one class from one address in a minute
BROWSER_SEATS = 3                  # seats in one class held by one browser
# What anyone may store, per address (the builder, short links and starts need no key): so many a window,
# and so many characters a day. A teacher's lesson is a few KB; a red team saved 9 GB an hour without these.
BUDGETS = {  # kind: (most rows per hour, most characters per day)
    "start": (20, None),            # classes started (challenges and lessons)
    "link": (60, 1_000_000),        # short links
    "save": (20, 2_000_000),        # saved lessons
    "homework": (3_000, None),      # homework answers kept (store/homework.py): a school's evening behind one
}                                   # address, 100 students through two lessons of 15 steps
SPENT_WORDS = {"start": "starts", "homework": "homework answers"}   # a budget's rows in its refusal
MIN_GAP = timedelta(seconds=3)     # between two submissions of one student
KEEP = timedelta(days=14)          # a class older than this is deleted with everything in it
ACTIVE = timedelta(seconds=60)      # a student seen within this is "active"
PLAYING = timedelta(seconds=10)     # ... and one whose Play ticked within this is "playing"
LINK_PATH_MAX, LINK_QUERY_MAX = 32, 16_000   # characters: a page's URL path, and its query
MIGRATIONS = Path(__file__).resolve().parent / "migrations"


class StoreDown(StoreError):
    """The database cannot be reached (stopped, restarting, its file gone, locked for too long): nothing
    was read or kept, and the same call works again once it is back."""

    def __init__(self, line: str = "The class store cannot be reached; your network is still on this page."):
        super().__init__(line)


class NoClass(StoreError):
    """A join code no class has (mistyped, ended, or guessed)."""


def _outage(err: BaseException) -> bool:
    """Is this error the database being away (rather than a refusal or a bug)? Connection refused or
    lost, a server shutting down, a file that cannot be opened, a lock held past the timeout, no free
    connection in the pool: SQLAlchemy's OperationalError and InterfaceError (and any DBAPI error that
    invalidated its connection), and the drivers' own when they escape unwrapped. Not a broken unique
    constraint (IntegrityError: a taken code or nickname) nor a bad query (ProgrammingError, DataError)."""
    if isinstance(err, PoolTimeout):
        return True
    if isinstance(err, DBAPIError):
        refusal = isinstance(err, IntegrityError | ProgrammingError | DataError)
        return err.connection_invalidated or not refusal
    if isinstance(err, sqlite3.OperationalError | sqlite3.InterfaceError):
        return True
    try:
        import psycopg
    except ImportError:
        return False
    return isinstance(err, psycopg.OperationalError | psycopg.InterfaceError)


@contextmanager
def _away() -> Iterator[None]:
    """The one place an outage becomes StoreDown (its cause chained, for the log)."""
    try:
        yield
    except StoreError:
        raise
    except Exception as err:
        if _outage(err):
            raise StoreDown() from err
        raise


def default_url() -> str:
    """LAYERLAB_DB, else the SQLite file in LAYERLAB_HOME (~/.layerlab), a folder only its owner can open."""
    url = os.environ.get("LAYERLAB_DB")
    if url:
        return url
    home = Path(os.environ.get("LAYERLAB_HOME", Path.home() / ".layerlab"))
    home.mkdir(mode=0o700, parents=True, exist_ok=True)
    home.chmod(0o700)
    return f"sqlite:///{home / 'classes.sqlite3'}"


def _owner_only(path: str | None) -> None:
    """The SQLite file and its -wal and -shm readable by their owner only: a new file is made 0600 before
    SQLite first opens it (SQLite gives its -wal and -shm the file's mode), an older one is set so.

    Never opens an existing database file: POSIX drops every lock a process holds on a file when it closes
    any descriptor of it, and SQLite's locks on the database are how a process that closes its last
    connection knows whether another still reads it. An `open`/`close` here let a script's Store, ending,
    delete the -wal and -shm from under a running server, whose connections went on in the unlinked copy
    and never saw a class written after (tests/unit/test_store_processes.py)."""
    if not path or path == ":memory:" or path.startswith("file:"):
        return
    if not os.path.exists(path):
        try:
            os.close(os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600))   # nobody has it open yet
        except FileExistsError:
            pass            # another process made it a moment ago: set its mode by name below
        except OSError:
            return          # its folder is away: SQLite says so when it connects (StoreDown)
    for name in (path, f"{path}-wal", f"{path}-shm"):
        with contextlib.suppress(OSError):   # not there (yet), or not ours
            os.chmod(name, 0o600)


# Characters that draw nothing (Unicode's Default_Ignorable_Code_Point, DerivedCoreProperties.txt), and
# the blank Braille pattern, which draws a blank: a nickname of "alice" and one of them is "alice" on the
# board, so they are dropped before a nickname is kept or keyed.
_INVISIBLE = ((0x00AD, 0x00AD), (0x034F, 0x034F), (0x061C, 0x061C), (0x115F, 0x1160), (0x17B4, 0x17B5),
              (0x180B, 0x180F), (0x200B, 0x200F), (0x202A, 0x202E), (0x2060, 0x206F), (0x2800, 0x2800),
              (0x3164, 0x3164), (0xFE00, 0xFE0F), (0xFEFF, 0xFEFF), (0xFFA0, 0xFFA0), (0xFFF0, 0xFFF8),
              (0x1BCA0, 0x1BCA3), (0x1D173, 0x1D17A), (0xE0000, 0xE0FFF))


def visible(text: str) -> str:
    """The text without the characters that draw nothing (_INVISIBLE)."""
    return "".join(ch for ch in text if not any(lo <= ord(ch) <= hi for lo, hi in _INVISIBLE))


def check_nickname(name: str) -> str:
    """A nickname as kept: without invisible characters, trimmed, 1 to NICK_MAX characters, printable.
    StoreError if not."""
    name = " ".join(visible(str(name)).split())
    if not name:
        raise StoreError("Choose a nickname (1 to 24 characters).")
    if len(name) > NICK_MAX:
        raise StoreError(f"A nickname has at most {NICK_MAX} characters; this one has {len(name)}.")
    if not name.isprintable():
        raise StoreError("A nickname is plain text: letters, digits, spaces and punctuation.")
    return name


def _json(text):
    """A stored JSON column read back, or None when it cannot be read (a row written by hand, or by a version
    with other checks): one such row is then shown as unreadable instead of stopping every board."""
    try:
        return json.loads(text)
    except (TypeError, ValueError, RecursionError):
        return None


def _score(v) -> float:
    """A stored score for ranking: one that is not a finite number ranks last instead of failing the sort."""
    return float(v) if isinstance(v, int | float) and math.isfinite(v) else -math.inf


def nickname_key(name: str) -> str:
    """The form under which two nicknames are one name in a class (the seats' unique `nickname_key`): NFKC,
    case folded, then the confusables skeleton of Unicode TR39 (confusable_homoglyphs' copy of
    confusables.txt), folded and skeletoned once more (a prototype may be a capital: 0 -> O). "Ada", "ADA",
    "аda" (a Cyrillic а), "Ａda" (fullwidth) are one name, as are "B0b" and "Bob". Case is folded first, so
    "ALICE" is "alice"; characters that draw nothing are dropped first, and i and l are one letter last, so
    "aIice" and "al\u034fice" are "alice" too. At most NICK_MAX characters: a longer form is
    kept as a digest."""
    import unicodedata

    text = visible(unicodedata.normalize("NFKC", visible(str(name)))).casefold()
    # i and l are one letter here: case is folded first, so a capital I (an l in most sans-serif fonts:
    # "aIice" beside "alice") is an i by now
    text = _skeleton(_skeleton(text).casefold()).replace("i", "l")
    return text if len(text) <= NICK_MAX else "#" + hashlib.sha256(text.encode()).hexdigest()[:NICK_MAX - 1]


def _skeleton(text: str) -> str:
    """TR39's skeleton: NFD, each character replaced by the prototype it is confusable with, NFD again."""
    import unicodedata

    table = _prototypes()
    mapped = "".join(table.get(ch, ch) for ch in unicodedata.normalize("NFD", text))
    return unicodedata.normalize("NFD", mapped)


@functools.cache
def _prototypes() -> dict[str, str]:
    """{character: its prototype} from confusable_homoglyphs' data, which lists for a prototype every
    character confusable with it and for any other character its one prototype. A pair that lists only
    each other gets one of the two (the smaller) as both's form: what matters is that they share it."""
    from confusable_homoglyphs.confusables import confusables_data as data

    out = {}
    for ch, entries in data.items():
        if len(ch) != 1 or len(entries) != 1:
            continue                   # a prototype (many entries) is its own form
        proto = entries[0]["c"]
        if len(proto) == 1 and [e["c"] for e in data.get(proto, ())] == [ch]:
            proto = min(ch, proto)     # two characters that list only each other
        if proto != ch:
            out[ch] = proto
    return out


@dataclass(frozen=True)
class ClassInfo:
    code: str
    problem: dict
    max_params: int | None
    max_submissions: int | None
    closes_at: datetime | None
    paused: bool
    revealed: bool
    hide_names: bool
    created_at: datetime
    joining_closed: bool = False

    def closed(self, now: datetime | None = None) -> bool:
        return self.closes_at is not None and (now or utc_now()) >= self.closes_at


@dataclass(frozen=True)
class SeatInfo:
    code: str
    nickname: str
    submissions: int


@dataclass(frozen=True)
class Row:
    rank: int
    nickname: str
    public: float
    private: float | None      # None until the teacher reveals
    n_params: int
    spec: dict
    submission: int            # the submission's id (the gallery caches its map by it)
    submissions: int
    at: datetime               # when that submission was stored (UTC)


@dataclass(frozen=True)
class Receipt:
    submission: int
    public: float
    rank: int
    left: int | None           # submissions left (None: no limit)


@dataclass(frozen=True)
class Counts:
    joined: int
    active: int
    playing: int
    submissions: int


class Store(LessonStore, HomeworkStore):
    def __init__(self, url: str | None = None):
        self.url = url or default_url()
        kw: dict = {"pool_pre_ping": True}
        sqlite = self.url.startswith("sqlite")
        if sqlite:
            kw["connect_args"] = {"check_same_thread": False, "timeout": LOCK_WAIT}
        elif self.url.startswith("postgresql"):
            kw["connect_args"] = {"connect_timeout": 5}   # a silent host: away in 5 s, not 2 min
        self.engine = create_engine(self.url, **kw)
        if sqlite:
            path = self.engine.url.database

            @event.listens_for(self.engine, "connect")
            def _sqlite(conn, _):   # foreign keys on, and a journal that lets readers and a writer overlap
                conn.isolation_level = None   # transactions are begun below, not by the driver
                cur = conn.cursor()
                cur.execute("PRAGMA foreign_keys=ON")
                cur.execute("PRAGMA journal_mode=WAL")
                cur.close()
                _owner_only(path)             # -wal and -shm exist now

            @event.listens_for(self.engine, "begin")
            def _begin(conn):   # SQLite has no SELECT ... FOR UPDATE: a write takes the write lock first, so
                # a count and its insert are one step; a read takes no lock (WAL: it sees a snapshot)
                write = conn.get_execution_options().get("write")
                conn.exec_driver_sql("BEGIN IMMEDIATE" if write else "BEGIN")

            self._prepare = lambda: _owner_only(path)
        else:
            self._prepare = lambda: None
        self._read = sessionmaker(self.engine, expire_on_commit=False)
        self._write = sessionmaker(self.engine.execution_options(write=True), expire_on_commit=False)
        self._opened = self._purged = False
        self._opening = threading.Lock()

    def _open(self) -> None:
        """At the first use (and the first after an outage): the schema looked at, and brought up to date
        if it is behind (with the write lock: only then); old classes deleted once. A database that is away
        leaves the Store unopened, to be tried again at the next use."""
        if self._opened:
            return
        with self._opening:
            if self._opened:
                return
            self._prepare()
            if not at_head(self.engine):
                migrate(self.engine.execution_options(write=True))
            self._opened = True
            if self._purged:
                return
            self._purged = True
        self.purge()

    @contextmanager
    def _door(self, sessions) -> Iterator[Session]:
        try:
            with _away():
                self._open()
                with sessions.begin() as s:
                    yield s
        except StoreDown:
            self._opened = False      # the next use looks again (the schema too: the database may be new)
            raise

    def reading(self) -> Iterator[Session]:
        """A session for reads: on SQLite a deferred transaction, which waits for no one."""
        return self._door(self._read)

    def writing(self) -> Iterator[Session]:
        """A session whose changes are committed when the block ends: on SQLite it holds the write lock
        from its start (BEGIN IMMEDIATE)."""
        return self._door(self._write)

    def purge(self, older_than: timedelta = KEEP) -> int:
        """Delete the classes created more than `older_than` ago, with their seats and submissions, and the
        short links older than KEEP_LINKS."""
        with self.writing() as s:
            old = s.scalars(select(Class).where(Class.created_at < utc_now() - older_than)).all()
            for c in old:
                s.delete(c)
            s.execute(delete(ShortLink).where(ShortLink.created_at < utc_now() - KEEP_LINKS))
            self._purge_saved_lessons(s)
            return len(old)

    # --- short links: a long link under a code a room can type ----------------------------------------
    def spend(self, s: Session, kind: str, client: Client | None, size: int = 0) -> None:
        """StoreError (one line) when this client's address has used its BUDGETS[kind] (rows in the last
        hour, characters in the last day); else nothing. Called inside the write that adds the row: on
        SQLite that write holds the one write lock, on PostgreSQL an advisory lock on the address, so two
        quick clicks (or two replicas) cannot both take the last place."""
        if client is None or not client.address:
            return
        from store.models import HomeworkAnswer, SavedLesson

        model, size_of = {"start": (Class, None), "link": (ShortLink, func.length(ShortLink.query)),
                          "save": (SavedLesson, func.length(SavedLesson.steps)),
                          "homework": (HomeworkAnswer, None)}[kind]
        if self.engine.dialect.name == "postgresql":
            s.execute(sql("SELECT pg_advisory_xact_lock(:k)"), {"k": int(client.address[:15], 16)})
        rows, chars = BUDGETS[kind]
        now = utc_now()
        mine = select(func.count()).select_from(model).where(model.client == client.address)
        if s.scalar(mine.where(model.created_at > now - timedelta(hours=1))) >= rows:
            raise StoreError(f"{rows:,} {SPENT_WORDS.get(kind, kind + 's')} from this network in the "
                             "last hour, as many as an hour takes: try again later.")
        if chars is not None:
            used = s.scalar(select(func.coalesce(func.sum(size_of), 0)).where(
                model.client == client.address, model.created_at > now - timedelta(days=1)))
            if int(used) + size > chars:
                raise StoreError(f"This network has stored {int(used):,} characters of {kind}s today, and "
                                 f"{chars:,} is as many as a day takes: try again tomorrow.")

    def shorten(self, path: str, query: str, *, client: Client | None = None) -> str:
        """The short code for this page path and query: the same code every time it is asked (a slide made
        twice shows one link), a new one the first time. Committed before it is returned. A new one is
        counted against the client's budget (spend)."""
        if len(path) > LINK_PATH_MAX or not all(ch.isalnum() or ch == "-" for ch in path):
            raise StoreError("Not a page of this app.")
        if len(query) > LINK_QUERY_MAX:
            raise StoreError(f"This link is longer than the {LINK_QUERY_MAX:,} characters a short link "
                             "keeps.")
        digest = hashlib.sha256(f"{path}?{query}".encode()).hexdigest()
        for _ in range(20):
            with self.reading() as s:
                found = s.scalar(select(ShortLink.code).where(ShortLink.digest == digest))
            if found:
                return found
            code = new_code()
            try:
                with self.writing() as s:
                    self.spend(s, "link", client, len(query))
                    s.add(ShortLink(code=code, digest=digest, path=path, query=query, created_at=utc_now(),
                                    client=client.address if client else None))
                return code
            except IntegrityError:
                continue        # that code was taken, or another replica just stored this link: look again
        raise StoreError("Could not store a short link; try again.")

    def expand(self, code: str) -> tuple[str, str] | None:
        """(page path, query) of a short code, or None for a code that is not (or no longer) stored."""
        with self.reading() as s:
            row = s.execute(select(ShortLink.path, ShortLink.query)
                            .where(ShortLink.code == normal_code(code)[:CODE_LENGTH])).first()
        return None if row is None else (row.path, row.query)

    def ping(self) -> bool:
        """Can the store be reached now? (One round trip; never raises.)"""
        try:
            with self.reading() as s:
                s.execute(select(1))
        except StoreDown:
            return False
        return True

    @staticmethod
    def nickname(name: str) -> tuple[str, str]:
        """A nickname as kept and its key (check_nickname, nickname_key): StoreError if it is not one."""
        name = check_nickname(name)
        return name, nickname_key(name)

    def teacher_row(self, s: Session, code: str, key: str | None) -> Class:
        c = s.scalar(select(Class).where(Class.code == normal_code(code)))
        if c is None or not key or not hmac.compare_digest(c.key_hash, hash_secret(key)):
            raise StoreError("Only the teacher's link can change this class.")
        return c

    def set_open(self, code: str, key: str, is_open: bool) -> None:
        """Close submissions now, or reopen them (no closing time)."""
        with self.writing() as s:
            c = self.teacher_row(s, code, key)
            c.closes_at = None if is_open else utc_now()

    def remove(self, code: str, key: str, *, submission: int | None = None,
               nickname: str | None = None) -> None:
        """Remove one submission, or one student with all their submissions."""
        with self.writing() as s:
            c = self.teacher_row(s, code, key)
            if submission is not None:
                sub = s.scalar(select(Submission).where(Submission.id == int(submission),
                                                        Submission.class_id == c.id))
                if sub is not None:
                    s.delete(sub)
            if nickname is not None:
                seat = s.scalar(select(Seat).where(Seat.class_id == c.id, Seat.nickname == nickname))
                if seat is not None:
                    s.execute(delete(Submission).where(Submission.seat_id == seat.id))
                    s.delete(seat)

    def remove_silent(self, code: str, key: str) -> int:
        """Remove every seat that never answered a lesson's question nor submitted a network (a flood of
        joins, or a tab opened twice): returns how many."""
        from store.models import Answer

        with self.writing() as s:
            c = self.teacher_row(s, code, key)
            silent = select(Seat.id).where(
                Seat.class_id == c.id, ~exists().where(Answer.seat_id == Seat.id),
                ~exists().where(Submission.seat_id == Seat.id))
            return int(s.execute(delete(Seat).where(Seat.id.in_(silent))).rowcount or 0)

    def seats(self, code: str, key: str) -> list[SeatInfo]:
        """Every student of the class, those who never submitted too, by nickname: for the teacher only."""
        with self.reading() as s:
            c = self.teacher_row(s, code, key)
            n = (select(func.count()).select_from(Submission).where(Submission.seat_id == Seat.id)
                 .correlate(Seat).scalar_subquery())
            rows = s.execute(select(Seat.nickname, n).where(Seat.class_id == c.id)
                             .order_by(Seat.nickname_key)).all()
        return [SeatInfo(c.code, nick, int(k)) for nick, k in rows]

    def end(self, code: str, key: str) -> None:
        """End the class: delete it, its seats and its submissions."""
        with self.writing() as s:
            c = self.teacher_row(s, code, key)
            s.execute(delete(Submission).where(Submission.class_id == c.id))
            s.execute(delete(Seat).where(Seat.class_id == c.id))
            s.delete(c)
        self.lesson_changed_here()   # a lesson class's pages see it gone at once (lesson_now)

    def export(self, code: str, key: str) -> list[dict]:
        """Every submission for the teacher: nickname, time, size, both scores, settings and weights."""
        with self.reading() as s:
            c = self.teacher_row(s, code, key)
            rows = s.execute(select(Submission, Seat.nickname).join(Seat, Seat.id == Submission.seat_id)
                             .where(Submission.class_id == c.id).order_by(Submission.created_at)).all()
        return [dict(nickname=nick, submitted=aware_utc(sub.created_at).isoformat(), parameters=sub.n_params,
                     public=sub.public, private=sub.private, spec=_json(sub.spec),
                     weights=_json(sub.weights)) for sub, nick in rows]

    # --- a teacher ----------------------------------------------------------------------------
    def create_class(self, problem: dict, *, max_params: int | None = None,
                     max_submissions: int | None = None,
                     closes_at: datetime | None = None, client: Client | None = None) -> tuple[str, str]:
        """A new challenge: returns (join code, teacher's key). The key is shown once and kept only hashed.
        Counted against the client's budget of starts (spend)."""
        key = secrets.token_urlsafe(24)
        for _ in range(20):
            code = new_code()
            try:
                with self.writing() as s:
                    self.spend(s, "start", client)
                    s.add(Class(code=code, key_hash=hash_secret(key),
                                problem=json.dumps(problem, sort_keys=True),
                                test_seed=LINK_SEEDS + secrets.randbelow(2**31 - 1 - LINK_SEEDS),
                                max_params=max_params,
                                max_submissions=max_submissions, closes_at=closes_at, paused=False,
                                revealed=False, hide_names=False, created_at=utc_now(),
                                client=client.address if client else None))
                self.purge()    # a server that runs for weeks deletes old classes too, not only at a start
                return code, key
            except IntegrityError:
                continue        # that code was taken: draw another
        raise StoreError("Could not find a free join code; try again.")

    def is_teacher(self, code: str, key: str | None) -> bool:
        if not key:
            return False
        with self.reading() as s:
            stored = s.scalar(select(Class.key_hash).where(Class.code == normal_code(code)))
        return stored is not None and hmac.compare_digest(stored, hash_secret(key))

    def set_flag(self, code: str, key: str, flag: str, value: bool) -> None:
        """Pause, reveal, hide names or close joining: the teacher's key is checked here, on the server."""
        if flag not in ("paused", "revealed", "hide_names", "joining_closed"):
            raise ValueError(flag)
        with self.writing() as s:
            setattr(self.teacher_row(s, code, key), flag, bool(value))
        self.lesson_changed_here()   # the pause is a lesson class's too (lesson_now)

    def test_seed(self, code: str) -> int:
        """The hidden test points' seed: for the server's scoring only, never for a page or a link."""
        with self.reading() as s:
            seed = s.scalar(select(Class.test_seed).where(Class.code == normal_code(code)))
        if seed is None:
            raise StoreError(f"No class has the code {code}.")
        return int(seed)

    # --- anyone -------------------------------------------------------------------------------
    def get_class(self, code: str) -> ClassInfo | None:
        with self.reading() as s:
            c = s.scalar(select(Class).where(Class.code == normal_code(code)))
            if c is None:
                return None
            return ClassInfo(c.code, json.loads(c.problem), c.max_params, c.max_submissions,
                             aware_utc(c.closes_at), c.paused, c.revealed, c.hide_names,
                             aware_utc(c.created_at), bool(c.joining_closed))

    # --- a student ----------------------------------------------------------------------------
    def join(self, code: str, nickname: str, *, client: Client | None = None) -> str:
        """A seat in the class: returns the seat's token (kept only hashed here).

        The class's row is locked before its seats are counted (PostgreSQL: FOR NO KEY UPDATE, which
        submissions' foreign-key checks do not wait for; SQLite: the write lock this transaction began
        with), so joins of one class take turns there: the cap of MAX_SEATS and the rate of
        JOINS_PER_MINUTE hold however many press Join at once, on every replica; so do a client's
        (ADDRESS_JOINS_PER_MINUTE from its address, BROWSER_SEATS for its browser), and the teacher's
        closing of joining."""
        name = check_nickname(nickname)
        if self.get_class(code) is None:   # a mistyped (or guessed) code costs a read, not the write lock
            raise NoClass(f"No class has the code {normal_code(code)}: check it on the board.")
        token = secrets.token_urlsafe(16)
        now = utc_now()
        try:
            with self.writing() as s:
                c = s.execute(select(Class.id, Class.code, Class.closes_at, Class.joining_closed)
                              .where(Class.code == normal_code(code)).with_for_update(key_share=True)).first()
                if c is None:   # ended a moment ago
                    raise NoClass(f"No class has the code {normal_code(code)}: check it on the board.")
                if c.closes_at is not None and now >= aware_utc(c.closes_at):
                    raise StoreError("This challenge has closed.")
                if c.joining_closed:
                    raise StoreError("Your teacher has closed joining: ask them to open it again.")
                seats = select(func.count()).select_from(Seat).where(Seat.class_id == c.id)
                self._client_may_join(s, seats, client, now)
                if s.scalar(seats) >= MAX_SEATS:
                    raise StoreError(f"This class is full ({MAX_SEATS} students).")
                if s.scalar(seats.where(Seat.joined_at > now - timedelta(minutes=1))) >= JOINS_PER_MINUTE:
                    raise StoreError(f"{JOINS_PER_MINUTE} students joined this class in the last minute, as "
                                     "many as a minute takes: join again in a moment.")
                s.add(Seat(class_id=c.id, token_hash=hash_secret(token), nickname=name,
                           nickname_key=nickname_key(name), joined_at=now, last_seen=now,
                           client=(client.address or None) if client else None,
                           browser=(client.browser or None) if client else None))
        except IntegrityError:
            raise StoreError(f"Someone in this class is already called {name}: choose another nickname.") \
                from None
        return token

    @staticmethod
    def _client_may_join(s: Session, seats, client: Client | None, now: datetime) -> None:
        """StoreError when this client has its seats in the class (`seats`: the class's, counted)."""
        if client is None:
            return
        if client.browser and s.scalar(seats.where(Seat.browser == client.browser)) >= BROWSER_SEATS:
            raise StoreError(f"This browser already holds {BROWSER_SEATS} seats in this class: go back to "
                             "your tab, or ask your teacher to remove one.")
        if client.address and s.scalar(seats.where(Seat.client == client.address,
                                                   Seat.joined_at > now - timedelta(minutes=1))) \
                >= ADDRESS_JOINS_PER_MINUTE:
            raise StoreError(f"{ADDRESS_JOINS_PER_MINUTE} students joined this class from your network "
                             "in the last minute: join again in a moment.")

    def seat_row(self, s: Session, code: str, token: str, lock: bool = False) -> tuple[Class, Seat] | None:
        q = (select(Class, Seat).join(Seat, Seat.class_id == Class.id)
             .where(Class.code == normal_code(code), Seat.token_hash == hash_secret(str(token))))
        if lock:
            q = q.with_for_update(of=Seat)
        row = s.execute(q).first()
        return (row[0], row[1]) if row else None

    def seat(self, code: str, token: str, *, playing: bool = False) -> SeatInfo | None:
        """Who holds this seat (None: no such seat in this class); marks them seen (and playing)."""
        with self.writing() as s:
            found = self.seat_row(s, code, token)
            if found is None:
                return None
            c, seat = found
            seat.last_seen = utc_now()
            if playing:
                seat.playing_at = seat.last_seen
            n = s.scalar(select(func.count()).select_from(Submission).where(Submission.seat_id == seat.id))
            return SeatInfo(c.code, seat.nickname, int(n))

    def submit(self, code: str, token: str, *, spec: dict, weights: dict, n_params: int, public: float,
               private: float) -> Receipt:
        """Keep a scored submission (committed before this returns) and say where it stands.

        Refused with a StoreError (nothing kept) when the class is paused or closed, the student has used
        every submission, or the network is over the class's parameter limit."""
        with self.writing() as s:
            found = self.seat_row(s, code, token, lock=True)
            if found is None:
                raise StoreError("This seat is not in the class: open the class link again to join.")
            c, seat = found
            if c.paused:
                raise StoreError("Your teacher paused the class: submit again when they resume. "
                                 "Nothing is lost: your network is still on this page.")
            if c.closes_at is not None and utc_now() >= aware_utc(c.closes_at):
                raise StoreError("This challenge has closed: no more submissions.")
            if c.max_params is not None and n_params > c.max_params:
                raise StoreError(f"This network has {n_params:,} parameters; the class allows at most "
                                 f"{c.max_params:,}. Use fewer units or layers.")
            text_weights = json.dumps(weights)
            last = s.scalars(select(Submission).where(Submission.seat_id == seat.id)
                             .order_by(Submission.created_at.desc(), Submission.id.desc()).limit(1)).first()
            used = s.scalar(select(func.count()).select_from(Submission).where(Submission.seat_id == seat.id))
            # The same network again (a double click, a reload that retrained the same epochs from the same
            # start): the submission it already is, whichever of this student's it was.
            before = s.execute(select(Submission.id, Submission.public).where(
                Submission.seat_id == seat.id, Submission.weights == text_weights).limit(1)).first()
            if before is not None:
                sub_id, pub = before.id, before.public
                left = None if c.max_submissions is None else c.max_submissions - used
                same = True
            elif last is not None and utc_now() - aware_utc(last.created_at) < MIN_GAP:
                raise StoreError("Wait a few seconds between two submissions.")
            else:
                same = False
            if not same and c.max_submissions is not None and used >= c.max_submissions:
                raise StoreError(f"You have used all {c.max_submissions} submissions.")
            if not same:
                sub = Submission(class_id=c.id, seat_id=seat.id, spec=json.dumps(spec, sort_keys=True),
                                 weights=text_weights, n_params=int(n_params), public=float(public),
                                 private=float(private), created_at=utc_now())
                s.add(sub)
                s.flush()
                sub_id, pub = sub.id, float(public)
                left = None if c.max_submissions is None else c.max_submissions - used - 1
            seat.last_seen = utc_now()
        rank = next((r.rank for r in self.leaderboard(code) if r.nickname == seat.nickname), 0)
        return Receipt(sub_id, pub, rank, left)

    # --- the board ----------------------------------------------------------------------------
    def leaderboard(self, code: str, *, reveal: bool | None = None) -> list[Row]:
        """Each student's best submission by public score (the latest among equals), best first.

        The private score is shown only once revealed (the class's flag, or `reveal` for the teacher);
        the order is then by private score, Kaggle's way."""
        info = self.get_class(code)
        if info is None:
            return []
        show = info.revealed if reveal is None else reveal
        with self.reading() as s:   # the columns the board needs (never the weights: the heavy part)
            rows = s.execute(
                select(Submission.id, Submission.public, Submission.private, Submission.n_params,
                       Submission.spec, Submission.created_at, Seat.nickname)
                .join(Seat, Seat.id == Submission.seat_id)
                .join(Class, Class.id == Submission.class_id).where(Class.code == info.code)
                .order_by(Submission.created_at, Submission.id)).all()
        rows = [(row, row.nickname) for row in rows]
        best: dict[str, tuple] = {}
        for sub, nick in rows:
            kept, n = best.get(nick, (None, 0))
            if kept is None or _score(sub.public) >= _score(kept.public):
                kept = sub
            best[nick] = (kept, n + 1)
        key = (lambda item: (-_score(item[1][0].private), -_score(item[1][0].public))) if show else \
            (lambda item: (-_score(item[1][0].public), _score(item[1][0].n_params)))
        out = []
        for i, (nick, (sub, n)) in enumerate(sorted(best.items(), key=key)):
            out.append(Row(i + 1, nick, sub.public, sub.private if show else None, sub.n_params,
                           _json(sub.spec), sub.id, n, aware_utc(sub.created_at)))
        return out

    def submissions(self, code: str) -> list[dict]:
        """Every submission of the class (for the class chart): nickname, size, scores, settings."""
        with self.reading() as s:
            rows = s.execute(
                select(Submission.id, Submission.n_params, Submission.public, Submission.private,
                       Submission.spec, Seat.nickname).join(Seat, Seat.id == Submission.seat_id)
                .join(Class, Class.id == Submission.class_id).where(Class.code == normal_code(code))
                .order_by(Submission.created_at)).all()
        return [dict(id=r.id, nickname=r.nickname, n_params=r.n_params, public=r.public, private=r.private,
                     spec=_json(r.spec)) for r in rows]

    def weights(self, submission: int) -> dict:
        with self.reading() as s:
            text = s.scalar(select(Submission.weights).where(Submission.id == int(submission)))
        if text is None:
            raise StoreError("No such submission.")
        return json.loads(text)

    def counts(self, code: str) -> Counts:
        now = utc_now()
        with self.reading() as s:
            cid = s.scalar(select(Class.id).where(Class.code == normal_code(code)))
            seats = s.execute(select(Seat.last_seen, Seat.playing_at).where(Seat.class_id == cid)).all()
            n_sub = s.scalar(select(func.count()).select_from(Submission).where(Submission.class_id == cid))
        active = sum(now - aware_utc(seen) <= ACTIVE for seen, _ in seats)
        playing = sum(p is not None and now - aware_utc(p) <= PLAYING for _, p in seats)
        return Counts(len(seats), active, playing, int(n_sub or 0))


def _alembic():
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    return cfg


def at_head(engine) -> bool:
    """Is the schema at Alembic's head? One read, no lock."""
    from alembic.runtime.migration import MigrationContext
    from alembic.script import ScriptDirectory

    with engine.connect() as conn:
        now = MigrationContext.configure(conn).get_current_revision()
    return now == ScriptDirectory.from_config(_alembic()).get_current_head()


def migrate(engine) -> None:
    """Bring the schema up to Alembic's head (a no-op when it is there)."""
    from alembic import command

    cfg = _alembic()
    with engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "head")

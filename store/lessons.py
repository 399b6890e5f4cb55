"""A lesson as a class activity, kept (issue 33): the teacher leads a class through a lesson's steps, the
class answers a step's question before it sees the result, and the room sees its own answers on Reveal.

A lesson class IS a `classes` row: the same join code, teacher's key, seats, pause flag and hidden
controls as a challenge (its `problem` is the trainer's default, so a challenge step works), with one
`lessons` row beside it (where the teacher is, which steps are open and revealed) and the students'
`answers` (one row per seat and step). Nothing of the class is copied: deleting it (Store.end, purge)
deletes its lesson and answers by ON DELETE CASCADE, on SQLite (foreign keys on) and PostgreSQL alike.

Every method goes through Store.reading() / Store.writing() (an outage is StoreDown), finds the teacher
with Store._teacher (the key checked here, on the server) and a student with Store._seat; every query is
SQLAlchemy's with bound parameters; every write is committed before the call returns. An answer is
written with the student's seat row locked and the lesson row share-locked (PostgreSQL; SQLite's write
lock holds both), so quick clicks keep one row per student and step, and no answer lands after its Reveal.
"""

from __future__ import annotations

import hashlib
import json
import operator
import secrets
import threading
import time
from dataclasses import dataclass
from functools import lru_cache

from sqlalchemy import delete, func, or_, select, update
from sqlalchemy.orm import Session

from lib import lessons
from lib.challenge import DEFAULT_PROBLEM
from store import base as _store  # the store's shared basics (store/__init__ builds on this room)
from store.models import Answer, Class, ClassLesson, LostHand, SavedLesson, Seat

# How old a lesson's state may be when a student's page compares itself with it (Store.lesson_now): one
# read per class per FRESH s per process, however many students ask; a move made through this process
# is seen at once. A tenth of a second: another replica's students see a Reveal within a second (with
# classroom/lesson.py's FOLLOW_EVERY, the page's run and engine/turns.py's front of the line), for at
# most 10 reads a second per class per process. bench/classroom.py's
# hostile class on 2 replicas (30 students, a flood of Joins, an outlier): at 0.25 s with the front of
# the line, the slowest screen of a Reveal 0.72-1.25 s (4 of 20 over a second); at 0.1 s 0.57-1.34 s
# (3 of 32 over a second; p50 0.33-0.65 s).
FRESH = 0.1
MODES = ("paced", "free")   # paced: students stay on the teacher's step; free: any step opened so far


@dataclass(frozen=True)
class LessonState:
    """Where a lesson class stands: everything a student's or the projector's screen follows."""

    code: str
    lesson: lessons.Lesson
    step: int                  # the teacher's step (0-based)
    opened: int                # the highest step opened so far
    mode: str                  # paced | free
    revealed: frozenset[int]   # steps whose answers are shown
    show_names: bool
    paused: bool               # the class's pause (the same flag as a challenge's)
    version: int               # changes on every teacher move (pages compare it through lesson_now)
    second: frozenset[int] = frozenset()   # steps asked again after a discussion (their second vote)

    @property
    def title(self) -> str:
        return self.lesson.title

    @property
    def steps(self) -> tuple[lessons.Step, ...]:
        return self.lesson.steps

    def open_to_students(self, step: int) -> bool:
        """May a student be on this step (paced: the teacher's only; free: any opened so far)?"""
        return step == self.step if self.mode == "paced" else 0 <= step <= self.opened

    def vote(self, step: int) -> int:
        """The vote a step's answers go to: 2 once the teacher asked again after a discussion, else 1."""
        return 2 if step in self.second else 1

    def taking_answers(self, step: int) -> bool:
        """Does this step take answers now (open, with a question, not revealed, not paused)?"""
        return (0 <= step < len(self.steps) and self.open_to_students(step) and not self.paused
                and self.steps[step].question is not None and step not in self.revealed)


@dataclass(frozen=True)
class StepRecord:
    """One question step of the class's record: how many answered, the share right, the numbers' spread."""

    step: int
    title: str
    kind: str
    answered: int
    share_right: float | None      # None for a poll or no answers
    spread: dict | None            # numbers: lib.lessons.spread; None for choices
    counts: tuple[int, ...] = ()   # choices: answers per choice
    vote: int = 1                  # 1, or 2: the vote after the discussion
    homework: str = ""             # a homework's lesson title (store/homework.py); "" for the class's lesson


@dataclass(frozen=True)
class Revealed:
    """A revealed step's answers: one Distribution per vote (two: on the same bars, to compare), and for
    a question asked twice how the room moved between them (lib.lessons.Moved)."""

    votes: tuple[lessons.Distribution, ...]
    moved: lessons.Moved | None = None


class Mine(dict):
    """A student's answers, {step: value} in each step's vote as the store stands (the second once the
    teacher asked again), with `first`: {step: value} of the first votes, and `lost`: the steps where this
    student's "I'm lost" is up."""

    def __init__(self, now=(), first=None, lost=frozenset()):
        super().__init__(now)
        self.first: dict[int, float | int] = dict(first or {})
        self.lost: frozenset[int] = frozenset(lost)

    def copy(self) -> Mine:
        return Mine(self, self.first, self.lost)


@lru_cache(maxsize=256)
def _parsed(steps_json: str) -> lessons.Lesson:
    """A stored lesson back (it was checked when stored; the text is the cache's key)."""
    return lessons.from_dict(json.loads(steps_json))


def _lesson_of(lesson: lessons.Lesson | dict, paths) -> lessons.Lesson:
    try:
        if isinstance(lesson, lessons.Lesson):
            return lessons.from_dict(lessons.to_dict(lesson), paths)    # the same checks as a file's
        return lessons.from_dict(lesson, paths)
    except ValueError as err:
        raise _store.StoreError(f"This lesson cannot be used: {err}.") from None


def _text(lesson: lessons.Lesson) -> str:
    return json.dumps(lessons.to_dict(lesson), sort_keys=True, ensure_ascii=False)


def _index(step, n: int) -> int:
    """A step's index (0-based) as a page may hand it (an int, a NumPy int; never a bool or text)."""
    try:
        i = operator.index(step) if not isinstance(step, bool) else None
    except TypeError:
        i = None
    if i is None or not 0 <= i < n:
        raise _store.StoreError(f"This lesson has steps 1 to {n}.")
    return int(i)


def _revealed(row: ClassLesson) -> frozenset[int]:
    return frozenset(int(i) for i in json.loads(row.revealed or "[]"))


def _second(row: ClassLesson) -> frozenset[int]:
    return frozenset(int(i) for i in json.loads(row.second or "[]"))


def _state(c: Class, row: ClassLesson) -> LessonState:
    return LessonState(c.code, _parsed(row.steps), row.step, row.opened, row.mode, _revealed(row),
                       bool(row.show_names), bool(c.paused), row.version, _second(row))


class _Shared:
    """Each lesson class's state as this process last read it, shared by every session: (when read, the
    `changes` it was read at, the state or the StoreDown met). A class's own lock makes a poll that finds
    it stale the one that reads; the others asking about that class meanwhile wait for that read, not read
    again, and no class waits for another's read (one lock for all held across the read made 10 classes
    wait on each other: p95 119 ms against 20 ms reads, /tmp measure in the commit's note). `lock` guards
    the dicts only, for moments."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.reading: dict[str, threading.Lock] = {}   # a lock per class code, held across its read
        self.seen: dict[str, tuple[float, int, LessonState | _store.StoreError | None]] = {}
        self.changes = 0   # lesson states changed through this process's store (monotonic)
        self.reads = 0     # reads of the store made for lesson_now (tests and benches count them)
        # a revealed step's answers per (code, step, the lesson's version): every student's page shows the
        # same room, and a Reveal's 30 page runs read it once per process, not 30 times (issue 44)
        self.reveals: dict[tuple[str, int, int], Revealed | None] = {}


DRAFT = "draft-"   # a draft's digest starts so (a saved lesson's is sha256 hex): store.lessons.keep_draft


def _draft():
    return SavedLesson.digest.startswith(DRAFT, autoescape=True)


class LessonStore:
    """Store's lesson methods (store.Store inherits them)."""

    @property
    def _shared(self) -> _Shared:
        shared = self.__dict__.get("_lessons_shared")
        if shared is None:
            shared = self.__dict__.setdefault("_lessons_shared", _Shared())
        return shared

    def lesson_changed_here(self) -> None:
        """A lesson's state (step, reveal, mode, pause, the class itself) changed through this store: the
        next lesson_now reads it at once, whatever its age."""
        with self._shared.lock:
            self._shared.changes += 1

    def lesson_now(self, code: str) -> LessonState | None:
        """lesson_state as every session of this process shares it: read at most once per FRESH s per
        class (another replica's move is seen within FRESH s), and at once after a change made here. The
        StoreDown of a store that is away is kept as long, so an outage costs one try per FRESH s."""
        code = _store.normal_code(code)
        shared = self._shared
        with shared.lock:
            one = shared.reading.setdefault(code, threading.Lock())
        with one:
            with shared.lock:
                got, changes = shared.seen.get(code), shared.changes
            now = time.monotonic()
            if got is None or now - got[0] >= FRESH or got[1] != changes:
                try:
                    state: LessonState | _store.StoreError | None = self.lesson_state(code)
                except _store.StoreError as err:   # StoreDown: the store away
                    state = err
                with shared.lock:
                    shared.reads += 1
                    for old in [c for c, v in shared.seen.items() if now - v[0] > 60.0]:
                        del shared.seen[old]   # classes nobody asked for in a minute
                        shared.reading.pop(old, None)
                    got = shared.seen[code] = (now, changes, state)
        if isinstance(got[2], _store.StoreError):
            raise got[2]
        return got[2]

    # --- the teacher -----------------------------------------------------------------------------------
    def start_lesson(self, lesson: lessons.Lesson | dict, *, paths=None, mode: str = "paced",
                     problem: dict | None = None, client: _store.Client | None = None) -> tuple[str, str]:
        """A new lesson class: its `classes` row and its lesson in one transaction, on step 0. Returns
        (join code, teacher's key), as create_class does. `paths`: the app's page paths a step may open
        (None: any path-like name). `problem`: the class's data for a challenge step (the trainer's
        default); its "hide" hides trainer controls for the class, as a challenge's does. Counted against
        the client's budget of starts (Store.spend); a saved lesson started is kept a year from now."""
        parsed = _lesson_of(lesson, paths)
        if mode not in MODES:
            raise _store.StoreError("A lesson is paced or free.")
        key = secrets.token_urlsafe(24)

        def its_lesson(s: Session, c: Class) -> None:   # in the class's own write, once it has its id
            s.add(ClassLesson(class_id=c.id, title=parsed.title, steps=_text(parsed), step=0,
                              opened=0, mode=mode, revealed="[]", second="[]", show_names=False, version=1,
                              updated_at=c.created_at))
            self._used(s, _text(parsed))

        code = _store.add_with_code(
            self,
            lambda code: Class(code=code, key_hash=_store.hash_secret(key),
                               client=client.address if client else None,
                               problem=json.dumps(problem or DEFAULT_PROBLEM, sort_keys=True),
                               test_seed=_store.LINK_SEEDS + secrets.randbelow(2**31 - 1 - _store.LINK_SEEDS),
                               max_params=None, max_submissions=None, closes_at=None, paused=False,
                               revealed=False, hide_names=False, created_at=_store.utc_now()),
            spend=("start", client, 0), fail="Could not find a free join code; try again.", then=its_lesson)
        self.purge()    # as a challenge's start does: a server that runs for weeks drops old classes
        return code, key

    def _teach(self, s: Session, code: str, key: str | None) -> tuple[Class, ClassLesson]:
        """The teacher's class and its lesson row, locked for the move (SQLite: the write lock)."""
        c = self.teacher_row(s, code, key)
        row = s.scalar(select(ClassLesson).where(ClassLesson.class_id == c.id).with_for_update())
        if row is None:
            raise _store.StoreError("This class has no lesson.")
        return c, row

    def _moved(self, c: Class, row: ClassLesson) -> LessonState:
        row.version += 1
        row.updated_at = _store.utc_now()
        return _state(c, row)

    def goto(self, code: str, key: str, step: int) -> LessonState:
        """Next / Back / a jump: every student's screen follows; steps up to the furthest are opened."""
        with self.writing() as s:
            c, row = self._teach(s, code, key)
            n = len(_parsed(row.steps).steps)
            step = _index(step, n)
            row.step, row.opened = step, max(row.opened, step)
            moved = self._moved(c, row)
        self.lesson_changed_here()
        return moved

    def set_mode(self, code: str, key: str, mode: str) -> LessonState:
        """paced: students stay on the teacher's step; free: they move between the steps opened so far."""
        if mode not in MODES:
            raise _store.StoreError("A lesson is paced or free.")
        with self.writing() as s:
            c, row = self._teach(s, code, key)
            row.mode = mode
            moved = self._moved(c, row)
        self.lesson_changed_here()
        return moved

    def reveal(self, code: str, key: str, step: int, revealed: bool = True) -> LessonState:
        """Show the class's answers to a step (and then its live view); it takes no more answers.
        revealed=False hides them again and reopens the question."""
        with self.writing() as s:
            c, row = self._teach(s, code, key)
            lesson = _parsed(row.steps)
            step = _index(step, len(lesson.steps))
            if lesson.steps[step].question is None:
                raise _store.StoreError("This step has no question to reveal.")
            now = set(_revealed(row))
            now = now | {step} if revealed else now - {step}
            row.revealed = json.dumps(sorted(now))
            moved = self._moved(c, row)
        self.lesson_changed_here()
        return moved

    def discuss(self, code: str, key: str, step: int) -> LessonState:
        """"Discuss with your neighbour": the step's question is asked again, and its answers from now on
        are its second vote (each student's first kept beside). Only a question not revealed yet."""
        with self.writing() as s:
            c, row = self._teach(s, code, key)
            lesson = _parsed(row.steps)
            step = _index(step, len(lesson.steps))
            if lesson.steps[step].question is None:
                raise _store.StoreError("This step has no question to ask again.")
            if step in _revealed(row):
                raise _store.StoreError("The answers to this step are revealed: hide them to ask again.")
            row.second = json.dumps(sorted(_second(row) | {step}))
            moved = self._moved(c, row)
        self.lesson_changed_here()
        return moved

    def clear_lost(self, code: str, key: str, step: int) -> int:
        """Take down every "I'm lost" on a step (the teacher's key checked here); returns how many. Every
        student's page follows (their toggles go down)."""
        with self.writing() as s:
            c, row = self._teach(s, code, key)
            step = _index(step, len(_parsed(row.steps).steps))
            n = int(s.execute(delete(LostHand).where(LostHand.class_id == c.id, LostHand.step == step))
                    .rowcount or 0)
            self._moved(c, row)
        self.lesson_changed_here()
        return n

    def set_show_names(self, code: str, key: str, show: bool) -> LessonState:
        with self.writing() as s:
            c, row = self._teach(s, code, key)
            row.show_names = bool(show)
            moved = self._moved(c, row)
        self.lesson_changed_here()
        return moved

    # --- anyone ----------------------------------------------------------------------------------------
    def lesson_state(self, code: str) -> LessonState | None:
        """The class's lesson as it stands (None: no such class, or a class without a lesson)."""
        with self.reading() as s:
            found = s.execute(select(Class, ClassLesson).join(ClassLesson, ClassLesson.class_id == Class.id)
                              .where(Class.code == _store.normal_code(code))).first()
            return None if found is None else _state(found[0], found[1])

    def answer_tally(self, code: str, step: int, vote: int = 1) -> tuple[int, int]:
        """(how many answered this step in this vote, how many joined the class) in one query: the
        projector's count."""
        with self.reading() as s:
            cid = select(Class.id).where(Class.code == _store.normal_code(code)).scalar_subquery()
            found = s.execute(select(
                select(func.count()).select_from(Answer)
                .where(Answer.class_id == cid, Answer.step == int(step), Answer.vote == int(vote))
                .scalar_subquery(),
                select(func.count()).select_from(Seat).where(Seat.class_id == cid).scalar_subquery())).first()
        return (int(found[0] or 0), int(found[1] or 0)) if found else (0, 0)

    def step_distribution(self, code: str, step: int) -> lessons.Distribution | None:
        """The class's answers to a step (its last vote) as the projector draws them, once revealed (None
        before: nobody, not even a page that asks, sees the room's answers while they may still change)."""
        found = self.step_reveal(code, step)
        return None if found is None else found.votes[-1]

    def step_reveal(self, code: str, step: int) -> Revealed | None:
        """A revealed step's answers: its one vote, or both votes on the same bars and how the room moved
        between them (None before Reveal, as step_distribution)."""
        with self.reading() as s:
            found = s.execute(select(ClassLesson).join(Class, Class.id == ClassLesson.class_id)
                              .where(Class.code == _store.normal_code(code))).first()
            if found is None or int(step) not in _revealed(found[0]):
                return None
            row = found[0]
            question = _parsed(row.steps).steps[int(step)].question
            rows = s.execute(select(Answer.seat_id, Answer.vote, Answer.value).where(
                Answer.class_id == row.class_id, Answer.step == int(step))).all()
        by_vote: dict[int, dict[int, float | int]] = {1: {}, 2: {}}
        for seat, vote, v in rows:
            by_vote.setdefault(int(vote), {})[int(seat)] = json.loads(v)
        if int(step) not in _second(row):
            return Revealed((lessons.distribution(question, by_vote[1].values()),))
        first, second = by_vote[1], by_vote[2]
        return Revealed(lessons.distributions(question, first.values(), second.values()),
                        lessons.moved(question, first, second))

    def reveal_now(self, code: str, step: int) -> Revealed | None:
        """step_reveal as every session of this process shares it, for the lesson's version lesson_now
        reads: the answers of a revealed step change only with a teacher's move (Discuss, Delete, Reveal
        again), and each move is a new version, so a Reveal's page runs read the room once per process."""
        ls = self.lesson_now(code)
        if ls is None:
            return None
        key = (ls.code, int(step), ls.version)
        shared = self._shared
        with shared.lock:
            if key in shared.reveals:
                return shared.reveals[key]
        got = self.step_reveal(code, step)
        with shared.lock:
            if len(shared.reveals) >= 256:   # the oldest first: dicts keep their order
                for old in list(shared.reveals)[:128]:
                    del shared.reveals[old]
            shared.reveals[key] = got
        return got

    def lost_count(self, code: str, step: int) -> int:
        """How many students' "I'm lost" are up on a step (never who): the projector's count."""
        with self.reading() as s:
            cid = select(Class.id).where(Class.code == _store.normal_code(code)).scalar_subquery()
            return int(s.scalar(select(func.count()).select_from(LostHand)
                                .where(LostHand.class_id == cid, LostHand.step == int(step))) or 0)

    # --- a student -------------------------------------------------------------------------------------
    def _student_step(self, s: Session, code: str, token: str, step) -> tuple[Class, Seat, LessonState, int]:
        """A student's write: their class and seat (locked), the lesson's state and the step as an index.
        StoreError for a seat not in the class or a class with no lesson."""
        found = self.seat_row(s, code, token, lock=True)
        if found is None:
            raise _store.StoreError("This seat is not in the class: open the class link again to join.")
        c, seat = found
        row = s.scalar(select(ClassLesson).where(ClassLesson.class_id == c.id).with_for_update(read=True))
        if row is None:
            raise _store.StoreError("This class has no lesson.")
        state = _state(c, row)
        return c, seat, state, _index(step, len(state.steps))

    def answer(self, code: str, token: str, step: int, value) -> float | int:
        """Keep a student's answer to a step's question (committed before this returns) and return it as
        kept. Changeable until the step is revealed: one row per student and step. Refused with a
        StoreError (nothing kept) when the step is not open to this student, has no question, is revealed,
        the class is paused, or the answer is not one (lib.lessons.check_answer's reason)."""
        with self.writing() as s:
            c, seat, state, step = self._student_step(s, code, token, step)
            if c.paused:
                raise _store.StoreError("Your teacher paused the class: answer again when they resume.")
            if not state.open_to_students(step):
                raise _store.StoreError("This step is not open: follow your teacher's screen."
                                        if step > state.opened else "The class has moved on from this step.")
            question = state.steps[step].question
            if question is None:
                raise _store.StoreError("This step has no question.")
            if step in state.revealed:
                raise _store.StoreError("The answers to this step are revealed: it takes no more answers.")
            try:
                kept = lessons.check_answer(question, value)
            except ValueError as err:
                raise _store.StoreError(f"{str(err)[:1].upper()}{str(err)[1:]}.") from None
            now, vote = _store.utc_now(), state.vote(step)
            mine = s.scalar(select(Answer).where(Answer.seat_id == seat.id, Answer.step == step,
                                                 Answer.vote == vote))
            if mine is None:
                s.add(Answer(class_id=c.id, seat_id=seat.id, step=step, vote=vote, value=json.dumps(kept),
                             created_at=now, updated_at=now))
            else:
                mine.value, mine.updated_at = json.dumps(kept), now
            seat.last_seen = now
        return kept

    def seat_answers(self, code: str, token: str) -> Mine | None:
        """This student's answers (Mine: {step: value} in each step's vote, the first votes, the steps
        where their "I'm lost" is up), or None when the class has no such seat: one read, and nothing
        written (Store.seat marks a seat seen)."""
        with self.reading() as s:
            found = s.execute(select(Seat.id, ClassLesson.second).join(Class, Class.id == Seat.class_id)
                              .outerjoin(ClassLesson, ClassLesson.class_id == Class.id)
                              .where(Class.code == _store.normal_code(code),
                                     Seat.token_hash == _store.hash_secret(str(token)))).first()
            if found is None:
                return None
            rows = s.execute(select(Answer.step, Answer.vote, Answer.value)
                             .where(Answer.seat_id == found[0])).all()
            lost = s.scalars(select(LostHand.step).where(LostHand.seat_id == found[0])).all()
        second = frozenset(int(i) for i in json.loads(found[1] or "[]"))
        votes = {(int(st), int(vote)): json.loads(v) for st, vote, v in rows}
        now = {st: v for (st, vote), v in votes.items() if vote == (2 if st in second else 1)}
        return Mine(now, {st: v for (st, vote), v in votes.items() if vote == 1}, (int(i) for i in lost))

    def set_lost(self, code: str, token: str, step: int, lost: bool = True) -> bool:
        """A student's "I'm lost" on a step they may be on, up or down (pressed again); returns it as kept.
        Refused (StoreError) for a seat not in the class or a step not open to them."""
        with self.writing() as s:
            c, seat, state, step = self._student_step(s, code, token, step)
            if not state.open_to_students(step):
                raise _store.StoreError("The class has moved on from this step.")
            up = s.scalar(select(LostHand).where(LostHand.seat_id == seat.id, LostHand.step == step))
            if lost and up is None:
                s.add(LostHand(class_id=c.id, seat_id=seat.id, step=step, created_at=_store.utc_now()))
            elif not lost and up is not None:
                s.delete(up)
        return bool(lost)

    # --- the teacher's view of the answers -----------------------------------------------------------------
    def answers(self, code: str, key: str, step: int, vote: int = 1) -> list[tuple[str, float | int]]:
        """Who answered what on a step in a vote, by nickname: for the teacher's own screen only."""
        with self.reading() as s:
            c = self.teacher_row(s, code, key)
            rows = s.execute(select(Seat.nickname, Answer.value).join(Seat, Seat.id == Answer.seat_id)
                             .where(Answer.class_id == c.id, Answer.step == int(step),
                                    Answer.vote == int(vote))
                             .order_by(Seat.nickname_key)).all()
        return [(nick, json.loads(v)) for nick, v in rows]

    def record(self, code: str, key: str) -> list[StepRecord]:
        """Every question step and vote (a second one where the teacher asked again): answers, the share
        right, and the numbers' median and spread."""
        with self.reading() as s:
            c, row = self._read_lesson(s, code, key)
            rows = s.execute(select(Answer.step, Answer.vote, Answer.value)
                             .where(Answer.class_id == c.id)).all()
        lesson, second = _parsed(row.steps), _second(row)
        by_step: dict[tuple[int, int], list] = {}
        for st, vote, v in rows:
            by_step.setdefault((int(st), int(vote)), []).append(json.loads(v))
        out = []
        for i, step in enumerate(lesson.steps):
            q = step.question
            if q is None:
                continue
            for vote in (1, 2) if i in second or (i, 2) in by_step else (1,):
                vals = by_step.get((i, vote), [])
                counts = lessons.distribution(q, vals).counts if q.kind == "choice" else ()
                out.append(StepRecord(i, step.title, q.kind, len(vals), lessons.share_right(q, vals),
                                      lessons.spread(vals) if q.kind == "number" else None, counts, vote))
        return out

    def _read_lesson(self, s: Session, code: str, key: str | None) -> tuple[Class, ClassLesson]:
        c = self.teacher_row(s, code, key)
        row = s.scalar(select(ClassLesson).where(ClassLesson.class_id == c.id))
        if row is None:
            raise _store.StoreError("This class has no lesson.")
        return c, row

    def export_answers(self, code: str, key: str) -> list[dict]:
        """Every answer for the teacher: nickname, step (from 1), its title, the vote (1, or 2 after a
        discussion), the answer (a choice's words), right (None for a poll), and when it was last changed
        (UTC, ISO)."""
        with self.reading() as s:
            c, row = self._read_lesson(s, code, key)
            rows = s.execute(select(Seat.nickname, Answer.step, Answer.vote, Answer.value, Answer.updated_at)
                             .join(Seat, Seat.id == Answer.seat_id).where(Answer.class_id == c.id)
                             .order_by(Answer.step, Seat.nickname_key, Answer.vote)).all()
        lesson = _parsed(row.steps)
        out = []
        for nick, st, vote, text, at in rows:
            step = lesson.steps[int(st)]
            v = json.loads(text)
            q = step.question
            shown = q.choices[int(v)] if q is not None and q.kind == "choice" else v
            out.append(dict(nickname=nick, step=int(st) + 1, title=step.title, vote=int(vote), answer=shown,
                            right=None if q is None else lessons.is_right(q, v),
                            time=_store.aware_utc(at).isoformat()))
        return out

    def delete_answers(self, code: str, key: str, step: int | None = None) -> int:
        """Delete the class's answers to one step (None: every step), both votes; returns how many. A step
        asked a second time is asked once again (the class answers it afresh, every page following)."""
        with self.writing() as s:
            c, row = self._teach(s, code, key)
            q = delete(Answer).where(Answer.class_id == c.id)
            if step is not None:
                q = q.where(Answer.step == int(step))
            n = int(s.execute(q).rowcount or 0)
            was = _second(row)
            again = was - {int(step)} if step is not None else frozenset()
            if again != was:
                row.second = json.dumps(sorted(again))
            if n or again != was:   # a new version: every page, and Store.reveal_now's room, reads it again
                self._moved(c, row)
        if n or again != was:
            self.lesson_changed_here()
        return n

    # --- saved lessons: a teacher's lesson under a code, as a short link ------------------------------------
    def save_lesson(self, lesson: lessons.Lesson | dict, *, paths=None,
                    client: _store.Client | None = None) -> str:
        """The six-letter code this lesson is kept under: the same code every time it is saved (its
        canonical text's sha256), a new one the first time, counted against the client's budget of saves
        (Store.spend). Committed before it is returned. Kept KEEP_UNUSED until it is opened or started."""
        parsed = _lesson_of(lesson, paths)
        text = _text(parsed)
        digest = hashlib.sha256(text.encode()).hexdigest()
        return _store.add_with_code(
            self,
            lambda code: SavedLesson(code=code, digest=digest, title=parsed.title, steps=text,
                                     created_at=_store.utc_now(), client=client.address if client else None),
            spend=("save", client, len(text)), fail="Could not save the lesson; try again.",
            same=select(SavedLesson.code).where(SavedLesson.digest == digest))

    def _purge_saved_lessons(self, s: Session) -> None:
        """Saved lessons go KEEP_LINKS after they were last opened or started, and KEEP_UNUSED after they
        were saved when nobody has opened or started one since (Store.purge calls this in its transaction)."""
        now = _store.utc_now()
        s.execute(delete(SavedLesson).where(or_(
            SavedLesson.used_at < now - _store.KEEP_LINKS,
            (SavedLesson.used_at.is_(None)) & (SavedLesson.created_at < now - _store.KEEP_UNUSED))))

    def _used(self, s: Session, text: str) -> None:
        """The saved lesson with this canonical text (if any) was opened or started: kept KEEP_LINKS more."""
        digest = hashlib.sha256(text.encode()).hexdigest()
        s.execute(update(SavedLesson).where(SavedLesson.digest == digest).values(used_at=_store.utc_now()))

    # --- drafts: the builder's unsaved lesson, kept as it changes (classroom/draft.py) --------------------
    # A draft is a saved_lessons row too (the same codes, the same budget, the same week's purge), but
    # written over in place: its digest is DRAFT + random hex, never a lesson text's sha256 (hex alone), so
    # save_lesson never finds one and a draft's writes never touch a saved lesson. Its created_at is its last
    # write: kept KEEP_UNUSED from its last change, and counted in the client's budget of saves (Store.spend)
    # in the hour and day it was last written.
    def keep_draft(self, lesson: lessons.Lesson | dict, *, code: str | None = None, paths=None,
                   client: _store.Client | None = None) -> str:
        """Write the builder's unsaved lesson over the draft under `code`; a new draft (counted against the
        client's budget of saves) when there is none, or no longer. Returns the draft's code, committed."""
        parsed = _lesson_of(lesson, paths)
        text = _text(parsed)
        code = _store.normal_code(code or "")[:_store.CODE_LENGTH]
        if code:
            with self.writing() as s:
                written = s.execute(update(SavedLesson).where(SavedLesson.code == code, _draft()).values(
                    title=parsed.title, steps=text, created_at=_store.utc_now())).rowcount
            if written:
                return code
        return _store.add_with_code(
            self,
            lambda code: SavedLesson(code=code, digest=DRAFT + secrets.token_hex(29), title=parsed.title,
                                     steps=text, created_at=_store.utc_now(),
                                     client=client.address if client else None),
            spend=("save", client, len(text)), fail="Could not keep the lesson; try again.")

    def load_draft(self, code: str, *, paths=None) -> lessons.Lesson | None:
        """The draft under this code (None: no such draft, a saved lesson's code, or purged). Read only: a
        draft restored is kept as long as it was."""
        code = _store.normal_code(code)[:_store.CODE_LENGTH]
        with self.reading() as s:
            text = s.scalar(select(SavedLesson.steps).where(SavedLesson.code == code, _draft()))
        return None if text is None else _lesson_of(json.loads(text), paths)

    def load_lesson(self, code: str, *, paths=None) -> lessons.Lesson | None:
        """The lesson saved under this code (None: no such code, or no longer kept); opened, it is kept
        KEEP_LINKS from now."""
        code = _store.normal_code(code)[:_store.CODE_LENGTH]
        with self.reading() as s:       # a wrong code costs a read, never the write lock
            text = s.scalar(select(SavedLesson.steps).where(SavedLesson.code == code))
        if text is None:
            return None
        with self.writing() as s:
            s.execute(update(SavedLesson).where(SavedLesson.code == code).values(used_at=_store.utc_now()))
        return _lesson_of(json.loads(text), paths)

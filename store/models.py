"""The class store's tables (SQLAlchemy 2). The schema itself is Alembic's (migrations/): these models
are how the code reads and writes it, and tests/unit/test_store.py checks they agree."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import Boolean, DateTime, Float, ForeignKey, Integer, String, Text, UniqueConstraint
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


class Base(DeclarativeBase):
    pass


class Class(Base):
    """One challenge: its join code, its teacher's key (hashed), the problem and its limits."""

    __tablename__ = "classes"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    code: Mapped[str] = mapped_column(String(6), unique=True, index=True)
    key_hash: Mapped[str] = mapped_column(String(64))          # sha256 of the teacher's key, hex
    problem: Mapped[str] = mapped_column(Text)         # JSON: the trainer view (problem, dataset, k, ...)
    test_seed: Mapped[int] = mapped_column(Integer)    # the hidden test points' seed: never sent anywhere
    max_params: Mapped[int | None] = mapped_column(Integer, nullable=True)
    max_submissions: Mapped[int | None] = mapped_column(Integer, nullable=True)
    closes_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    paused: Mapped[bool] = mapped_column(Boolean, default=False)
    revealed: Mapped[bool] = mapped_column(Boolean, default=False)
    hide_names: Mapped[bool] = mapped_column(Boolean, default=False)
    joining_closed: Mapped[bool] = mapped_column(Boolean, default=False)   # the teacher closed joining
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    client: Mapped[str | None] = mapped_column(String(32), nullable=True, index=True)   # who started it


class Seat(Base):
    """A student: a nickname and a random token (stored hashed) that keeps them the same student."""

    __tablename__ = "seats"
    __table_args__ = (UniqueConstraint("class_id", "nickname_key", name="uq_seat_nickname"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    class_id: Mapped[int] = mapped_column(ForeignKey("classes.id", ondelete="CASCADE"), index=True)
    token_hash: Mapped[str] = mapped_column(String(64), unique=True, index=True)
    nickname: Mapped[str] = mapped_column(String(24))
    nickname_key: Mapped[str] = mapped_column(String(24))      # store.nickname_key: "Ada" and "аda" are one
    joined_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    last_seen: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    playing_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    client: Mapped[str | None] = mapped_column(String(32), nullable=True)    # store.Client.address
    browser: Mapped[str | None] = mapped_column(String(32), nullable=True)   # store.Client.browser


class Submission(Base):
    """A network a student sent: its settings, its weights, its size and its two scores."""

    __tablename__ = "submissions"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    class_id: Mapped[int] = mapped_column(ForeignKey("classes.id", ondelete="CASCADE"), index=True)
    seat_id: Mapped[int] = mapped_column(ForeignKey("seats.id", ondelete="CASCADE"), index=True)
    spec: Mapped[str] = mapped_column(Text)                    # JSON: layers, bend, optimiser, rates, epochs
    weights: Mapped[str] = mapped_column(Text)                 # JSON: lib.train's export (Trainer.to_dict)
    n_params: Mapped[int] = mapped_column(Integer)
    public: Mapped[float] = mapped_column(Float)
    private: Mapped[float] = mapped_column(Float)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class ShortLink(Base):
    """A long link kept under a short code, for a slide: a page's URL path and its query, nothing else
    (never a class's seat or a teacher's key: ui/state.py leaves those out before it asks)."""

    __tablename__ = "short_links"
    code: Mapped[str] = mapped_column(String(6), primary_key=True)
    digest: Mapped[str] = mapped_column(String(64), unique=True, index=True)   # sha256 of path and query
    path: Mapped[str] = mapped_column(String(32))
    query: Mapped[str] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    client: Mapped[str | None] = mapped_column(String(32), nullable=True, index=True)   # who made it


class ClassLesson(Base):
    """A class led through a lesson (issue 33): at most one per class, which is its `classes` row (the same
    join code, teacher's key, seats, pause and hide). `steps` is lib.lessons' dict of the lesson."""

    __tablename__ = "lessons"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    class_id: Mapped[int] = mapped_column(ForeignKey("classes.id", ondelete="CASCADE"), unique=True)
    title: Mapped[str] = mapped_column(String(120))
    steps: Mapped[str] = mapped_column(Text)                   # JSON: lib.lessons.to_dict
    step: Mapped[int] = mapped_column(Integer, default=0)      # the step the teacher is on (0-based)
    opened: Mapped[int] = mapped_column(Integer, default=0)    # the highest step opened so far
    mode: Mapped[str] = mapped_column(String(8), default="paced")   # paced | free
    revealed: Mapped[str] = mapped_column(Text, default="[]")  # JSON: the revealed steps' indexes, sorted
    second: Mapped[str] = mapped_column(Text, default="[]")    # JSON: steps asked again (their second vote)
    show_names: Mapped[bool] = mapped_column(Boolean, default=False)
    version: Mapped[int] = mapped_column(Integer, default=0)   # +1 on every teacher move: cheap polling
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class Answer(Base):
    """One student's answer to one step's question in one vote (1, or 2 once the teacher asked again after
    a discussion): one row per seat, step and vote, changed until the reveal."""

    __tablename__ = "answers"
    __table_args__ = (UniqueConstraint("seat_id", "step", "vote", name="uq_answer_seat_step_vote"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    class_id: Mapped[int] = mapped_column(ForeignKey("classes.id", ondelete="CASCADE"), index=True)
    seat_id: Mapped[int] = mapped_column(ForeignKey("seats.id", ondelete="CASCADE"))
    step: Mapped[int] = mapped_column(Integer)
    vote: Mapped[int] = mapped_column(Integer, default=1)      # 1, or 2: the vote after the discussion
    value: Mapped[str] = mapped_column(Text)                   # JSON: a number, or a choice's index
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class LostHand(Base):
    """A student's "I'm lost" on one step (issue 45 item 8): one row per seat and step while it is up. The
    projector counts them; nobody's is ever shown by name."""

    __tablename__ = "lost_hands"
    __table_args__ = (UniqueConstraint("seat_id", "step", name="uq_lost_seat_step"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    class_id: Mapped[int] = mapped_column(ForeignKey("classes.id", ondelete="CASCADE"), index=True)
    seat_id: Mapped[int] = mapped_column(ForeignKey("seats.id", ondelete="CASCADE"))
    step: Mapped[int] = mapped_column(Integer)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class SavedLesson(Base):
    """A teacher's lesson kept under a six-letter code, as a short link is: the same lesson saved twice is
    one code (sha256 of its canonical text); kept KEEP_LINKS from when it was last opened or started, and
    KEEP_UNUSED when nobody has opened or started it since it was saved."""

    __tablename__ = "saved_lessons"
    code: Mapped[str] = mapped_column(String(6), primary_key=True)
    digest: Mapped[str] = mapped_column(String(64), unique=True, index=True)
    title: Mapped[str] = mapped_column(String(120))
    steps: Mapped[str] = mapped_column(Text)                   # JSON: lib.lessons.to_dict
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    client: Mapped[str | None] = mapped_column(String(32), nullable=True, index=True)   # who saved it
    used_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)  # last opened


class HomeworkAnswer(Base):
    """One answer to a lesson done as homework (issue 45 item 6): a class's student, by nickname, through a
    ready or saved lesson alone. No seat: the nickname is the student (keyed as a seat's is), one row per
    class, lesson, nickname and step, the first answer kept (its right answer was shown at once)."""

    __tablename__ = "homework_answers"
    __table_args__ = (UniqueConstraint("class_id", "lesson", "nickname_key", "step",
                                       name="uq_homework_answer"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    class_id: Mapped[int] = mapped_column(ForeignKey("classes.id", ondelete="CASCADE"), index=True)
    lesson: Mapped[str] = mapped_column(String(40))            # "course:recipe-card" or "saved:K7M2QX"
    title: Mapped[str] = mapped_column(String(120))            # the lesson's title when it was answered
    step_title: Mapped[str] = mapped_column(String(120))
    nickname: Mapped[str] = mapped_column(String(24))
    nickname_key: Mapped[str] = mapped_column(String(24))      # store.nickname_key
    step: Mapped[int] = mapped_column(Integer)
    kind: Mapped[str] = mapped_column(String(8))               # the question's: number | choice
    value: Mapped[str] = mapped_column(Text)                   # JSON: a number, or a choice's index
    right: Mapped[bool | None] = mapped_column(Boolean, nullable=True)   # None: a poll
    answer: Mapped[str] = mapped_column(Text)                  # the answer as words (a choice's phrase)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    client: Mapped[str | None] = mapped_column(String(32), nullable=True, index=True)   # store.Client.address

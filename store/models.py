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
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


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

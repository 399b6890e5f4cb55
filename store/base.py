"""What every room of the store shares: the codes' alphabet, how long links are kept, the one-line refusal,
and the clock. store/__init__.py (classes, seats, submissions, short links) and store/lessons.py (lessons
and answers) both build on it; store re-exports each name, so callers import them from `store`."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy.exc import IntegrityError

# No 0/O, 1/I/L: a code read off a projector is typed right.
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 6
LINK_SEEDS = 100_000               # a link's seed is below this: the hidden points' seed never is one
KEEP_LINKS = timedelta(days=365)  # a short link lasts a school year from when it was first made
KEEP_UNUSED = timedelta(days=7)   # a saved lesson nobody opened or started since it was saved: a week


@dataclass(frozen=True)
class Client:
    """Who asks, as the store counts them (issue 44): the address a request came from and the browser's
    cookie, each kept only as a digest (never the address itself). Empty: not known (a script, a test)."""

    address: str = ""
    browser: str = ""

    @classmethod
    def of(cls, address: str | None, cookie: str | None) -> Client:
        def digest(v: str | None) -> str:
            return hashlib.sha256(f"layerlab:{v}".encode()).hexdigest()[:32] if v else ""
        return cls(digest(address), digest(cookie))


class StoreError(ValueError):
    """A refusal a student or teacher can act on, in one line."""


def hash_secret(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def utc_now() -> datetime:
    return datetime.now(UTC)


def aware_utc(t: datetime | None) -> datetime | None:
    """SQLite hands back naive datetimes (it stores no zone): they were written in UTC."""
    return t.replace(tzinfo=UTC) if t is not None and t.tzinfo is None else t


def new_code() -> str:
    """A fresh code for a class, a saved lesson, a draft or a short link: CODE_LENGTH letters and digits
    without look-alikes (add_with_code draws another when the database says it is taken)."""
    import secrets

    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def add_with_code(store: Any, row: Callable[[str], Any], *, spend: tuple[str, Client | None, int], fail: str,
                  same: Any = None, then: Callable[[Any, Any], None] | None = None) -> str:
    """Add the row `row(code)` makes under a fresh code, in one write that first spends the client's budget
    (`spend`: the kind, the client and the size, as Store.spend takes them); returns the code, committed.
    A code already taken (IntegrityError) draws another, 20 times at most, then StoreError(`fail`): the one
    loop behind every class, saved lesson, draft and short link. `same`: a select of the code this row is
    already stored under (a link or a lesson kept before, or just now by another replica), looked up before
    each draw: the same row, the same code. `then(s, row)`: more of the same write once the row has its id
    (a lesson class's lesson)."""
    kind, client, size = spend
    for _ in range(20):
        if same is not None:
            with store.reading() as s:
                found = s.scalar(same)
            if found:
                return found
        code = new_code()
        try:
            with store.writing() as s:
                store.spend(s, kind, client, size)
                made = row(code)
                s.add(made)
                if then is not None:
                    s.flush()
                    then(s, made)
            return code
        except IntegrityError:
            continue        # that code was taken (or another replica stored this row just now): look again
    raise StoreError(fail)


def normal_code(code: str) -> str:
    """A join code as typed (any case, spaces) in its stored form."""
    return "".join(str(code).split()).upper()

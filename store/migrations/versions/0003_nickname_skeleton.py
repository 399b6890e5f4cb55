"""nickname keys become look-alike skeletons (store.nickname_key: NFKC, TR39 confusables, case folded)

Revision ID: 0003
Revises: 0002

Seats kept a nickname's casefold; the key is now store.nickname_key, under which "ada" and "аda" (a Cyrillic
а) are one name. Every seat's key is computed again. Two seats of one class that were two names and are now
one both stay (the later one's key gets its id, so the constraint holds); a new student cannot take either.
"""

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def _rekey(key_of) -> None:
    conn = op.get_bind()
    seats = conn.execute(sa.text("SELECT id, class_id, nickname FROM seats "
                                 "ORDER BY class_id, joined_at, id")).all()
    # First every key a value no name has, so no row meets another's old key on the way.
    conn.execute(sa.text("UPDATE seats SET nickname_key = '~' || CAST(id AS VARCHAR(20))"))
    taken: set[tuple[int, str]] = set()
    for seat_id, class_id, nickname in seats:
        key = key_of(nickname)
        if (class_id, key) in taken:
            key = (key[: 24 - len(f"~{seat_id}")] + f"~{seat_id}")
        taken.add((class_id, key))
        conn.execute(sa.text("UPDATE seats SET nickname_key = :k WHERE id = :i"), {"k": key, "i": seat_id})


def upgrade() -> None:
    from store import nickname_key

    _rekey(nickname_key)


def downgrade() -> None:
    _rekey(lambda name: str(name).casefold()[:24])

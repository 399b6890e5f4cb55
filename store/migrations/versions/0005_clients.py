"""who asks (issue 44): joins, starts, saves and short links counted per client; a class that closed
joining; a saved lesson kept a year only once it is used; nickname keys without invisible characters

Revision ID: 0005
Revises: 0004

A client is store.Client: the digest of an address and of a browser's cookie (never the address). Rows
made before this revision have none (NULL), and count for nobody. Every seat's nickname key is computed
again (store.nickname_key now drops default-ignorable characters and reads a capital I as an l), as 0003
did: two seats that are one name now both stay, and a new student can take neither.
"""

import importlib.util
from pathlib import Path

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None

COUNTED = ("classes", "short_links", "saved_lessons")   # the tables a client's budget counts rows of


def _rekey(key_of) -> None:
    here = Path(__file__).with_name("0003_nickname_skeleton.py")
    spec = importlib.util.spec_from_file_location("_m0003", here)
    m0003 = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(m0003)
    m0003._rekey(key_of)


def upgrade() -> None:
    from store import nickname_key

    # Plain ADD COLUMN (SQLite has it): never batch mode's copy of a table, whose DROP of the old `classes`
    # would cascade to every seat with foreign keys on.
    for table in COUNTED:
        op.add_column(table, sa.Column("client", sa.String(32), nullable=True))
        op.create_index(f"ix_{table}_client", table, ["client"])
    op.add_column("classes", sa.Column("joining_closed", sa.Boolean, nullable=False,
                                       server_default=sa.false()))
    op.add_column("seats", sa.Column("client", sa.String(32), nullable=True))
    op.add_column("seats", sa.Column("browser", sa.String(32), nullable=True))
    op.add_column("saved_lessons", sa.Column("used_at", sa.DateTime(timezone=True), nullable=True))
    _rekey(nickname_key)


def downgrade() -> None:
    op.drop_column("saved_lessons", "used_at")       # SQLite 3.35+ drops a column in place too
    op.drop_column("seats", "browser")
    op.drop_column("seats", "client")
    op.drop_column("classes", "joining_closed")
    for table in COUNTED:
        op.drop_index(f"ix_{table}_client", table_name=table)
        op.drop_column(table, "client")

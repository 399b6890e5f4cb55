"""classes, seats and submissions

Revision ID: 0001
Revises:
"""

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "classes",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("code", sa.String(6), nullable=False),
        sa.Column("key_hash", sa.String(64), nullable=False),
        sa.Column("problem", sa.Text, nullable=False),
        sa.Column("test_seed", sa.Integer, nullable=False),
        sa.Column("max_params", sa.Integer, nullable=True),
        sa.Column("max_submissions", sa.Integer, nullable=True),
        sa.Column("closes_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("paused", sa.Boolean, nullable=False, server_default=sa.false()),
        sa.Column("revealed", sa.Boolean, nullable=False, server_default=sa.false()),
        sa.Column("hide_names", sa.Boolean, nullable=False, server_default=sa.false()),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_classes_code", "classes", ["code"], unique=True)
    op.create_table(
        "seats",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("class_id", sa.Integer, sa.ForeignKey("classes.id", ondelete="CASCADE"), nullable=False),
        sa.Column("token_hash", sa.String(64), nullable=False),
        sa.Column("nickname", sa.String(24), nullable=False),
        sa.Column("nickname_key", sa.String(24), nullable=False),
        sa.Column("joined_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("last_seen", sa.DateTime(timezone=True), nullable=False),
        sa.Column("playing_at", sa.DateTime(timezone=True), nullable=True),
        sa.UniqueConstraint("class_id", "nickname_key", name="uq_seat_nickname"),
    )
    op.create_index("ix_seats_class_id", "seats", ["class_id"])
    op.create_index("ix_seats_token_hash", "seats", ["token_hash"], unique=True)
    op.create_table(
        "submissions",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("class_id", sa.Integer, sa.ForeignKey("classes.id", ondelete="CASCADE"), nullable=False),
        sa.Column("seat_id", sa.Integer, sa.ForeignKey("seats.id", ondelete="CASCADE"), nullable=False),
        sa.Column("spec", sa.Text, nullable=False),
        sa.Column("weights", sa.Text, nullable=False),
        sa.Column("n_params", sa.Integer, nullable=False),
        sa.Column("public", sa.Float, nullable=False),
        sa.Column("private", sa.Float, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_submissions_class_id", "submissions", ["class_id"])
    op.create_index("ix_submissions_seat_id", "submissions", ["seat_id"])


def downgrade() -> None:
    op.drop_table("submissions")
    op.drop_table("seats")
    op.drop_table("classes")

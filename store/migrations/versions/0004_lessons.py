"""lessons: a class led step by step, its students' answers, and teachers' saved lessons (issue 33)

Revision ID: 0004
Revises: 0003
"""

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "lessons",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("class_id", sa.Integer, sa.ForeignKey("classes.id", ondelete="CASCADE"), nullable=False),
        sa.Column("title", sa.String(120), nullable=False),
        sa.Column("steps", sa.Text, nullable=False),
        sa.Column("step", sa.Integer, nullable=False, server_default="0"),
        sa.Column("opened", sa.Integer, nullable=False, server_default="0"),
        sa.Column("mode", sa.String(8), nullable=False, server_default="paced"),
        sa.Column("revealed", sa.Text, nullable=False, server_default="[]"),
        sa.Column("show_names", sa.Boolean, nullable=False, server_default=sa.false()),
        sa.Column("version", sa.Integer, nullable=False, server_default="0"),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("class_id", name="uq_lessons_class_id"),
        sa.CheckConstraint("mode IN ('paced', 'free')", name="ck_lessons_mode"),
    )
    op.create_table(
        "answers",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("class_id", sa.Integer, sa.ForeignKey("classes.id", ondelete="CASCADE"), nullable=False),
        sa.Column("seat_id", sa.Integer, sa.ForeignKey("seats.id", ondelete="CASCADE"), nullable=False),
        sa.Column("step", sa.Integer, nullable=False),
        sa.Column("value", sa.Text, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("seat_id", "step", name="uq_answer_seat_step"),
    )
    op.create_index("ix_answers_class_id", "answers", ["class_id"])
    op.create_table(
        "saved_lessons",
        sa.Column("code", sa.String(6), primary_key=True),
        sa.Column("digest", sa.String(64), nullable=False),
        sa.Column("title", sa.String(120), nullable=False),
        sa.Column("steps", sa.Text, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_saved_lessons_digest", "saved_lessons", ["digest"], unique=True)


def downgrade() -> None:
    op.drop_index("ix_saved_lessons_digest", table_name="saved_lessons")
    op.drop_table("saved_lessons")
    op.drop_index("ix_answers_class_id", table_name="answers")
    op.drop_table("answers")
    op.drop_table("lessons")

"""homework (issue 45 item 6): a class's students answer a ready or saved lesson alone, by nickname

Revision ID: 0006
Revises: 0005

One row per class, lesson, nickname (keyed as a seat's is) and step; deleted with its class (ON DELETE
CASCADE), as a lesson's answers are.
"""

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "homework_answers",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("class_id", sa.Integer, sa.ForeignKey("classes.id", ondelete="CASCADE"), nullable=False),
        sa.Column("lesson", sa.String(40), nullable=False),
        sa.Column("title", sa.String(120), nullable=False),
        sa.Column("step_title", sa.String(120), nullable=False),
        sa.Column("nickname", sa.String(24), nullable=False),
        sa.Column("nickname_key", sa.String(24), nullable=False),
        sa.Column("step", sa.Integer, nullable=False),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("value", sa.Text, nullable=False),
        sa.Column("right", sa.Boolean, nullable=True),
        sa.Column("answer", sa.Text, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("client", sa.String(32), nullable=True),
        sa.UniqueConstraint("class_id", "lesson", "nickname_key", "step", name="uq_homework_answer"),
    )
    op.create_index("ix_homework_answers_class_id", "homework_answers", ["class_id"])
    op.create_index("ix_homework_answers_client", "homework_answers", ["client"])


def downgrade() -> None:
    op.drop_index("ix_homework_answers_client", table_name="homework_answers")
    op.drop_index("ix_homework_answers_class_id", table_name="homework_answers")
    op.drop_table("homework_answers")

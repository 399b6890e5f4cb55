"""votes: peer instruction's second vote and the quiet hand (issue 45 items 5 and 8)

Revision ID: 0007
Revises: 0006

An answer belongs to a vote: 1 (every answer before this revision), or 2 once the teacher asked the class
again after "Discuss with your neighbour"; one row per seat, step and vote. A lesson keeps the steps asked
again (`second`, JSON, as `revealed`). `lost_hands`: a student's "I'm lost" on a step, one row per seat and
step while it is up.

The answers' unique constraint changes, which SQLite does only by copying the table (batch mode): nothing
refers to `answers`, so its copy and DROP cascade to nothing. `lessons` and the new table: plain steps.
"""

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("answers", recreate="auto") as batch:
        batch.add_column(sa.Column("vote", sa.Integer, nullable=False, server_default="1"))
        batch.drop_constraint("uq_answer_seat_step", type_="unique")
        batch.create_unique_constraint("uq_answer_seat_step_vote", ["seat_id", "step", "vote"])
    op.add_column("lessons", sa.Column("second", sa.Text, nullable=False, server_default="[]"))
    op.create_table(
        "lost_hands",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("class_id", sa.Integer, sa.ForeignKey("classes.id", ondelete="CASCADE"), nullable=False),
        sa.Column("seat_id", sa.Integer, sa.ForeignKey("seats.id", ondelete="CASCADE"), nullable=False),
        sa.Column("step", sa.Integer, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("seat_id", "step", name="uq_lost_seat_step"),
    )
    op.create_index("ix_lost_hands_class_id", "lost_hands", ["class_id"])


def downgrade() -> None:
    op.drop_index("ix_lost_hands_class_id", table_name="lost_hands")
    op.drop_table("lost_hands")
    op.drop_column("lessons", "second")
    op.execute(sa.text("DELETE FROM answers WHERE vote <> 1"))   # one row per seat and step again
    with op.batch_alter_table("answers", recreate="auto") as batch:
        batch.drop_constraint("uq_answer_seat_step_vote", type_="unique")
        batch.create_unique_constraint("uq_answer_seat_step", ["seat_id", "step"])
        batch.drop_column("vote")

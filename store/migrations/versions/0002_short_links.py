"""short links for slides

Revision ID: 0002
Revises: 0001
"""

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "short_links",
        sa.Column("code", sa.String(6), primary_key=True),
        sa.Column("digest", sa.String(64), nullable=False),
        sa.Column("path", sa.String(32), nullable=False),
        sa.Column("query", sa.Text, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_short_links_digest", "short_links", ["digest"], unique=True)


def downgrade() -> None:
    op.drop_index("ix_short_links_digest", table_name="short_links")
    op.drop_table("short_links")

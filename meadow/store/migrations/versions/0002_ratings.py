"""Elo ratings per game, people and bots apart

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "ratings",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game", sa.String(length=40), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=True),
        sa.Column("bot", sa.String(length=40), nullable=True),
        sa.Column("rating", sa.Double(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("game", "bot"),
        sa.UniqueConstraint("game", "user_id"),
    )


def downgrade() -> None:
    op.drop_table("ratings")

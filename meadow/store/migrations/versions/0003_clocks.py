"""Clocks: time per move or per game, a grace period, the bot that takes over a seat

(server defaults fill the rows of tables made before)

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("seats", schema=None) as batch_op:
        batch_op.add_column(sa.Column("used_ms", sa.Integer(), nullable=False, server_default="0"))
        batch_op.add_column(sa.Column("left_at", sa.DateTime(timezone=True), nullable=True))

    with op.batch_alter_table("tables", schema=None) as batch_op:
        batch_op.add_column(sa.Column("move_seconds", sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column("game_seconds", sa.Integer(), nullable=True))
        batch_op.add_column(
            sa.Column("grace_seconds", sa.Integer(), nullable=False, server_default="30")
        )
        batch_op.add_column(
            sa.Column("takeover_bot", sa.String(length=40), nullable=False, server_default="easy")
        )
        batch_op.add_column(
            sa.Column(
                "turn_since",
                sa.DateTime(timezone=True),
                nullable=False,
                server_default=sa.func.now(),
            )
        )


def downgrade() -> None:
    with op.batch_alter_table("tables", schema=None) as batch_op:
        batch_op.drop_column("turn_since")
        batch_op.drop_column("takeover_bot")
        batch_op.drop_column("grace_seconds")
        batch_op.drop_column("game_seconds")
        batch_op.drop_column("move_seconds")

    with op.batch_alter_table("seats", schema=None) as batch_op:
        batch_op.drop_column("left_at")
        batch_op.drop_column("used_ms")

"""Table chat and mutes; rematches (a seat held for its player, the table offered next);
each seat's rating before and after its game

Revision ID: 0010
Revises: 0009
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "chat",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column(
            "table_id", sa.Integer(), sa.ForeignKey("tables.id", ondelete="CASCADE"), nullable=False
        ),
        sa.Column(
            "user_id", sa.Integer(), sa.ForeignKey("users.id", ondelete="CASCADE"), nullable=False
        ),
        sa.Column("seat", sa.Integer(), nullable=True),
        sa.Column("move", sa.Integer(), nullable=False),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("hidden_at", sa.DateTime(timezone=True), nullable=True),
    )
    op.create_index("ix_chat_table_id", "chat", ["table_id"])
    op.create_table(
        "mutes",
        sa.Column(
            "user_id", sa.Integer(), sa.ForeignKey("users.id", ondelete="CASCADE"), primary_key=True
        ),
        sa.Column(
            "muted_id",
            sa.Integer(),
            sa.ForeignKey("users.id", ondelete="CASCADE"),
            primary_key=True,
        ),
    )
    with op.batch_alter_table("tables", schema=None) as batch_op:
        batch_op.add_column(sa.Column("rematch_id", sa.Integer(), nullable=True))
        batch_op.create_foreign_key(
            "fk_tables_rematch_id", "tables", ["rematch_id"], ["id"], ondelete="SET NULL"
        )
    with op.batch_alter_table("seats", schema=None) as batch_op:
        batch_op.add_column(sa.Column("reserved_for", sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column("rating_before", sa.Double(), nullable=True))
        batch_op.add_column(sa.Column("rating_after", sa.Double(), nullable=True))
        batch_op.create_foreign_key(
            "fk_seats_reserved_for", "users", ["reserved_for"], ["id"], ondelete="SET NULL"
        )


def downgrade() -> None:
    with op.batch_alter_table("seats", schema=None) as batch_op:
        batch_op.drop_constraint("fk_seats_reserved_for", type_="foreignkey")
        batch_op.drop_column("rating_after")
        batch_op.drop_column("rating_before")
        batch_op.drop_column("reserved_for")
    with op.batch_alter_table("tables", schema=None) as batch_op:
        batch_op.drop_constraint("fk_tables_rematch_id", type_="foreignkey")
        batch_op.drop_column("rematch_id")
    op.drop_table("mutes")
    op.drop_index("ix_chat_table_id", table_name="chat")
    op.drop_table("chat")

"""People and moderation: confirmed e-mail addresses, admins, bans, deleted accounts; the
tokens of mailed links (password resets, address confirmations); the audit log of what
admins did; seats found by their person

Addresses stored before this migration count as unconfirmed: no notice goes to them until
their owner follows the link the next save of the address sends (docs/operations.md).

Revision ID: 0011
Revises: 0010
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


# Plain ALTER TABLE, never a batch: on SQLite a batch copies `users` into a new table and
# drops the old one, which the foreign keys of seats refuse (and those of sessions, chat,
# mutes and ratings would follow with ON DELETE CASCADE).
def _user_columns() -> list[sa.Column[object]]:
    return [
        sa.Column("email_confirmed", sa.Boolean(), nullable=False, server_default=sa.false()),
        sa.Column("pending_email", sa.String(200), nullable=True),
        sa.Column("is_admin", sa.Boolean(), nullable=False, server_default=sa.false()),
        sa.Column("banned_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("deleted_at", sa.DateTime(timezone=True), nullable=True),
    ]


def upgrade() -> None:
    for column in _user_columns():
        op.add_column("users", column)
    op.create_index("ix_seats_user_id", "seats", ["user_id"])
    op.create_table(
        "tokens",
        sa.Column("token_hash", sa.String(64), primary_key=True),
        sa.Column(
            "user_id", sa.Integer(), sa.ForeignKey("users.id", ondelete="CASCADE"), nullable=False
        ),
        sa.Column("purpose", sa.String(10), nullable=False),
        sa.Column("email", sa.String(200), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_tokens_user_id", "tokens", ["user_id"])
    op.create_table(
        "audit",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column(
            "actor_id", sa.Integer(), sa.ForeignKey("users.id", ondelete="SET NULL"), nullable=True
        ),
        sa.Column("actor", sa.String(80), nullable=True),
        sa.Column("action", sa.String(20), nullable=False),
        sa.Column(
            "user_id", sa.Integer(), sa.ForeignKey("users.id", ondelete="SET NULL"), nullable=True
        ),
        sa.Column(
            "table_id", sa.Integer(), sa.ForeignKey("tables.id", ondelete="SET NULL"), nullable=True
        ),
        sa.Column(
            "chat_id", sa.Integer(), sa.ForeignKey("chat.id", ondelete="SET NULL"), nullable=True
        ),
        sa.Column("detail", sa.Text(), nullable=True),
    )


def downgrade() -> None:
    op.drop_table("audit")
    op.drop_index("ix_tokens_user_id", table_name="tokens")
    op.drop_table("tokens")
    op.drop_index("ix_seats_user_id", table_name="seats")
    for column in reversed(_user_columns()):  # SQLite 3.35 and later drop a column in place
        op.drop_column("users", column.name)

"""When an account's e-mail address was confirmed (issue 43)

A password reset is not sent to an address confirmed less than a day ago while the address
it replaced may still undo the change (docs/security.md). Addresses confirmed before this
migration have no such moment: they count as confirmed long ago.

Revision ID: 0013
Revises: 0012
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None


# Plain ALTER TABLE, never a batch: see 0011 (the foreign keys to `users` refuse a copy).
def upgrade() -> None:
    op.add_column(
        "users", sa.Column("email_confirmed_at", sa.DateTime(timezone=True), nullable=True)
    )


def downgrade() -> None:
    op.drop_column("users", "email_confirmed_at")  # SQLite 3.35 and later drop a column in place

"""Tables resting out of memory: when each one's clock may next hand a seat to the bot

A host process lets a running table that sits idle, with nobody watching, leave its memory
(it is rebuilt from the move log when opened); `due_at` says when its clock must be looked
at again (docs/server.md).

Revision ID: 0012
Revises: 0011
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("tables", sa.Column("due_at", sa.DateTime(timezone=True), nullable=True))
    op.create_index("ix_tables_due_at", "tables", ["due_at"])


def downgrade() -> None:
    op.drop_index("ix_tables_due_at", table_name="tables")
    op.drop_column("tables", "due_at")  # SQLite 3.35 and later drop a column in place

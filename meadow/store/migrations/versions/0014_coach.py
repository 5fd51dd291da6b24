"""The coach: analyses of finished games, and hints at tables that allow them (issue 45)

`analyses`: one row a table, asked for once and kept. `claim` names the process computing
it, set by a guarded update, so that in a cluster exactly one process does the work
(docs/ai.md). `tables.hints`: the table allows hints (and is not rated); each seat counts the
hints it asked for and keeps its last one for the decision it was asked at.

Revision ID: 0014
Revises: 0013
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0014"
down_revision = "0013"
branch_labels = None
depends_on = None


# Plain ALTER TABLE, never a batch: see 0011 (the foreign keys refuse a copy).
def upgrade() -> None:
    op.add_column(
        "tables", sa.Column("hints", sa.Boolean(), nullable=False, server_default=sa.false())
    )
    op.add_column(
        "seats", sa.Column("hints_used", sa.Integer(), nullable=False, server_default="0")
    )
    op.add_column("seats", sa.Column("hint_move", sa.Integer(), nullable=True))
    op.add_column("seats", sa.Column("hint", sa.JSON(), nullable=True))
    op.create_table(
        "analyses",
        sa.Column(
            "table_id",
            sa.Integer(),
            sa.ForeignKey("tables.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("status", sa.String(10), nullable=False),
        sa.Column("requested_by", sa.Integer(), sa.ForeignKey("users.id", ondelete="SET NULL")),
        sa.Column("requested_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("claim", sa.String(40)),
        sa.Column("heard_at", sa.DateTime(timezone=True)),
        sa.Column("done_moves", sa.Integer(), nullable=False),
        sa.Column("total_moves", sa.Integer(), nullable=False),
        sa.Column("result", sa.JSON()),
        sa.Column("error", sa.String(200)),
        sa.Column("finished_at", sa.DateTime(timezone=True)),
    )
    op.create_index("ix_analyses_status", "analyses", ["status"])
    op.create_index("ix_analyses_requested_by", "analyses", ["requested_by"])


def downgrade() -> None:
    op.drop_index("ix_analyses_requested_by", table_name="analyses")
    op.drop_index("ix_analyses_status", table_name="analyses")
    op.drop_table("analyses")
    op.drop_column("seats", "hint")  # SQLite 3.35 and later drop a column in place
    op.drop_column("seats", "hint_move")
    op.drop_column("seats", "hints_used")
    op.drop_column("tables", "hints")

"""Sessions are kept by the SHA-256 of their token, not the token (the cookie keeps it)

Existing tokens are hashed in place: every browser signed in stays signed in.

Revision ID: 0007
Revises: 0006
"""

from __future__ import annotations

import hashlib

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None

_sessions = sa.table("sessions", sa.column("token", sa.String))


def upgrade() -> None:
    connection = op.get_bind()
    tokens = connection.execute(sa.select(_sessions.c.token)).scalars().all()
    # A token (43 characters) never equals a hash (64), so no renamed row meets another.
    if tokens:
        connection.execute(
            _sessions.update()
            .where(_sessions.c.token == sa.bindparam("old"))
            .values(token=sa.bindparam("new")),
            [{"old": token, "new": _hashed(token)} for token in tokens],
        )


def _hashed(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def downgrade() -> None:
    # A hash cannot be turned back into its token: everyone signs in again.
    op.execute(_sessions.delete())

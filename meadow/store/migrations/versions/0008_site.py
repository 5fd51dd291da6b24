"""The site's own name and secret, made once per database: several sites sharing one Redis
never hear each other's news, and the site signs what it alone may vouch for (a browser that
has logged in to a name before)

Revision ID: 0008
Revises: 0007
"""

from __future__ import annotations

import secrets

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    site = op.create_table(
        "site",
        sa.Column("key", sa.String(40), primary_key=True),
        sa.Column("value", sa.String(200), nullable=False),
    )
    op.bulk_insert(
        site,
        [
            {"key": "id", "value": secrets.token_hex(8)},
            {"key": "secret", "value": secrets.token_hex(32)},
        ],
    )


def downgrade() -> None:
    op.drop_table("site")

"""A unique key per name (NFKC, case-folded): `Alice`, `alice` and `ａｌｉｃｅ` are one name

Accounts that already share a key keep their names; the later ones (by id) get the key with
`#` and their id, so that the migration never fails and the first keeps the plain key.

Revision ID: 0006
Revises: 0005
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None

_users = sa.table(
    "users", sa.column("id", sa.Integer), sa.column("name", sa.String), sa.column("name_key")
)


def upgrade() -> None:
    # Added NOT NULL with a default, then filled: on SQLite, making a column NOT NULL later
    # copies the table, and dropping the old copy would cascade to every session.
    with op.batch_alter_table("users", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("name_key", sa.String(length=60), nullable=False, server_default="")
        )
    connection = op.get_bind()
    rows = connection.execute(sa.select(_users.c.id, _users.c.name).order_by(_users.c.id))
    keys = _keys(rows.all())
    if keys:
        connection.execute(
            _users.update()
            .where(_users.c.id == sa.bindparam("user_id"))
            .values(name_key=sa.bindparam("key")),
            [{"user_id": user_id, "key": key} for user_id, key in keys.items()],
        )
    op.create_index("ix_users_name_key", "users", ["name_key"], unique=True)
    if connection.dialect.name != "sqlite":  # SQLite keeps it: dropping it copies the table
        op.alter_column("users", "name_key", server_default=None)


def _keys(rows: Iterable[tuple[int, str]]) -> dict[int, str]:
    """Each account's key, in order of ids; a key already taken gets `#` and the id (no name
    holds a `#`, so that key is free)."""
    keys: dict[int, str] = {}
    taken: set[str] = set()
    for user_id, name in rows:
        key = unicodedata.normalize("NFKC", name).casefold()
        if key in taken:
            key = f"{key}#{user_id}"
        taken.add(key)
        keys[user_id] = key
    return keys


def downgrade() -> None:
    op.drop_index("ix_users_name_key", table_name="users")
    with op.batch_alter_table("users", schema=None) as batch_op:
        batch_op.drop_column("name_key")

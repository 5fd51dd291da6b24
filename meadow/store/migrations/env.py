"""Alembic environment: migrations run on the connection `Database.migrate` hands over."""

from __future__ import annotations

from alembic import context
from sqlalchemy import Connection, create_engine

from meadow.store.models import Base


def run(connection: Connection) -> None:
    context.configure(connection=connection, target_metadata=Base.metadata, render_as_batch=True)
    with context.begin_transaction():
        context.run_migrations()


_connection = context.config.attributes.get("connection")
if _connection is not None:
    run(_connection)
else:  # the alembic command line, with sqlalchemy.url set
    with create_engine(context.config.get_main_option("sqlalchemy.url") or "").connect() as c:
        run(c)

"""The migrations build the schema the models describe: a column added to a model without
its migration (or the other way round) fails here, not on a host's upgraded server."""

from __future__ import annotations

from pathlib import Path

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext

from meadow.store import Base, Database
from tests.server.conftest import fresh_postgres


def differences(url: str) -> list[object]:
    db = Database(url)
    db.migrate()
    try:
        with db.engine.connect() as connection:
            return list(compare_metadata(MigrationContext.configure(connection), Base.metadata))
    finally:
        db.engine.dispose()


def test_the_migrations_build_the_models_on_sqlite(tmp_path: Path) -> None:
    assert differences(f"sqlite:///{tmp_path / 'meadow.sqlite3'}") == []


def test_the_migrations_build_the_models_on_postgresql() -> None:
    with fresh_postgres() as url:
        assert differences(url) == []

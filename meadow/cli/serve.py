"""`meadow serve`: the Meadow server on this machine."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import TYPE_CHECKING, Any

import typer

from meadow.cli.app import app
from meadow.cli.common import check_writable_folder
from meadow.core.errors import MeadowError

if TYPE_CHECKING:
    from meadow.server.settings import Settings


@app.command()
def serve(
    host: str = typer.Option(None, help="Address to listen on (default 127.0.0.1)."),
    port: int = typer.Option(None, help="Port (default 8000)."),
    data_dir: Path = typer.Option(None, help="Data directory (default ./meadow-data)."),
) -> None:
    """Serve Meadow: the API (and the browser pages) with SQLite in the data directory, or
    the database in MEADOW_DATABASE_URL. SIGTERM stops it gently (docs/operations.md)."""
    import uvicorn

    from meadow.server import connections, logs, metrics
    from meadow.server.drain import MeadowServer
    from meadow.server.main import create_app

    overrides = {"host": host, "port": port, "data_dir": data_dir}
    config = settings(**{k: v for k, v in overrides.items() if v is not None})
    check_database(config, "--data-dir" if data_dir is not None else "MEADOW_DATA_DIR")
    web = create_app(config)
    listening = uvicorn.Config(
        web,
        host=config.host,
        port=config.port,
        log_level="info",
        log_config=logs.config(config.log_format),
        ws_per_message_deflate=config.ws_compression,
        # A frame larger than any request body is closed (1009) before it is read whole.
        ws_max_size=config.max_body_bytes,
        access_log=config.access_log,
        timeout_graceful_shutdown=int(config.drain_seconds + 0.999),
    )
    logging.captureWarnings(True)  # a library's warning is a line of the log like the rest
    log = logging.getLogger("meadow.server")
    # Bounds on what one connection takes: its head's time and size, and a cap on the
    # connections at once (meadow/server/connections.py). After the Config: its logging
    # shows the warning of a limit on open files that cannot be raised.
    most = connections.raise_open_file_limit(config.max_connections)
    listening.http = connections.http_protocol(connections.Bounds.of(config, most))
    server = MeadowServer(listening, web.state.drain, lambda: web.state.tables)
    log.info("Meadow on http://%s:%s (%s)", config.host, config.port, where(config))
    stop_metrics = lambda: None  # noqa: E731
    if config.metrics_address:
        try:
            stop_metrics = metrics.serve_apart(config.metrics_address)
        except OSError as exc:
            reason = exc.strerror or str(exc)
            setting = f"MEADOW_METRICS_ADDRESS={config.metrics_address}"
            raise MeadowError(f"{setting}: {reason}") from None
        log.info("metrics at http://%s/metrics", config.metrics_address)
    try:
        server.run()
    finally:
        stop_metrics()
    if not server.started:  # uvicorn said why (a port in use, a database that refused)
        raise SystemExit(3)


def settings(**overrides: Any) -> Settings:
    """The server's settings from the environment and `overrides`; a setting that is not
    valid is one line naming its variable, not a traceback."""
    from pydantic import ValidationError

    from meadow.server.settings import Settings

    try:
        return Settings(**overrides)
    except ValidationError as exc:
        problems = []
        for e in exc.errors(include_url=False):
            name = "_".join(str(p) for p in e["loc"])
            setting = (
                f"--{name.replace('_', '-')}" if name in overrides else f"MEADOW_{name.upper()}"
            )
            reason = str(e["ctx"]["error"]) if e["type"] == "value_error" else e["msg"]
            problems.append(f"{setting}: {reason}")
        raise MeadowError("; ".join(problems)) from None


def check_database(config: Settings, data_dir_setting: str = "MEADOW_DATA_DIR") -> None:
    """Open the database once before the server starts, so that a data directory that cannot
    be written or a database that does not answer is one line naming the setting, not the
    server's start-up failing with a traceback."""
    from sqlalchemy import create_engine
    from sqlalchemy.exc import SQLAlchemyError

    if config.database_url:
        setting = f"MEADOW_DATABASE_URL ({where(config)})"
        postgres = config.database_url.startswith("postgresql")
        # A host that drops packets would keep the person waiting for minutes.
        connect_args = {"connect_timeout": 10} if postgres else {}
        url = config.database_url
    else:
        setting = f"{data_dir_setting} {config.data_dir}"
        check_writable_folder(config.data_dir, data_dir_setting)
        connect_args = {}
        url = config.database()
    engine = create_engine(url, connect_args=connect_args)
    try:
        with engine.connect():
            pass
    except SQLAlchemyError as exc:
        reason = " ".join(str(getattr(exc, "orig", None) or exc).split())
        raise MeadowError(f"{setting}: cannot open the database: {reason}") from None
    finally:
        engine.dispose()


def where(config: Settings) -> str:
    """The database, as a log may show it: a URL's password hidden."""
    from sqlalchemy.engine import make_url

    if not config.database_url:
        return f"SQLite in {config.data_dir.resolve()}"
    try:
        return make_url(config.database_url).render_as_string(hide_password=True)
    except Exception:
        return "the database in MEADOW_DATABASE_URL"

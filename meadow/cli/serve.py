"""`meadow serve`: the Meadow server on this machine."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import TYPE_CHECKING, Any

import typer

from meadow.cli import app
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

    from meadow.server import logs, metrics
    from meadow.server.drain import MeadowServer
    from meadow.server.main import create_app

    overrides = {"host": host, "port": port, "data_dir": data_dir}
    config = settings(**{k: v for k, v in overrides.items() if v is not None})
    web = create_app(config)
    server = MeadowServer(
        uvicorn.Config(
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
        ),
        web.state.drain,
        lambda: web.state.tables,
    )
    logging.captureWarnings(True)  # a library's warning is a line of the log like the rest
    log = logging.getLogger("meadow.server")
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
        problems = "; ".join(
            f"MEADOW_{'_'.join(str(p) for p in e['loc']).upper()}: {e['msg']}" for e in exc.errors()
        )
        raise MeadowError(problems) from None


def where(config: Settings) -> str:
    """The database, as a log may show it: a URL's password hidden."""
    from sqlalchemy.engine import make_url

    if not config.database_url:
        return f"SQLite in {config.data_dir.resolve()}"
    try:
        return make_url(config.database_url).render_as_string(hide_password=True)
    except Exception:
        return "the database in MEADOW_DATABASE_URL"

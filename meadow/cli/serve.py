"""`meadow serve`: the Meadow server on this machine."""

from __future__ import annotations

from pathlib import Path

import typer

from meadow.cli import app, console


@app.command()
def serve(
    host: str = typer.Option(None, help="Address to listen on (default 127.0.0.1)."),
    port: int = typer.Option(None, help="Port (default 8000)."),
    data_dir: Path = typer.Option(None, help="Data directory (default ./meadow-data)."),
) -> None:
    """Serve Meadow: the API (and the browser pages) with SQLite in the data directory, or
    the database in MEADOW_DATABASE_URL."""
    import uvicorn

    from meadow.server.main import create_app
    from meadow.server.settings import Settings

    overrides = {"host": host, "port": port, "data_dir": data_dir}
    config = Settings(**{k: v for k, v in overrides.items() if v is not None})
    where = config.database_url or f"SQLite in {config.data_dir.resolve()}"
    console.print(f"Meadow on http://{config.host}:{config.port} ({where})")
    uvicorn.run(
        create_app(config),
        host=config.host,
        port=config.port,
        log_level="info",
        ws_per_message_deflate=config.ws_compression,
        # A frame larger than any request body is closed (1009) before it is read whole.
        ws_max_size=config.max_body_bytes,
        access_log=config.access_log,
    )

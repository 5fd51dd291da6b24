"""`meadow serve`: the Meadow server on this machine."""

from __future__ import annotations

import logging
import signal
from pathlib import Path
from typing import TYPE_CHECKING, Any

import typer

from meadow.cli.app import app
from meadow.cli.common import check_writable_folder
from meadow.core.errors import MeadowError

if TYPE_CHECKING:
    from collections.abc import Callable

    from meadow.server.settings import Settings


@app.command()
def serve(
    host: str = typer.Option(None, help="Address to listen on (default 127.0.0.1)."),
    port: int = typer.Option(None, help="Port (default 8000)."),
    data_dir: Path = typer.Option(None, help="Data directory (default ./meadow-data)."),
) -> None:
    """Serve Meadow: the API (and the browser pages) with SQLite in the data directory, or
    the database in MEADOW_DATABASE_URL. Every other setting is a MEADOW_* variable, each
    described in `meadow docs server`; the first run, the first admin and SIGTERM (a gentle
    stop) in `meadow docs operations`."""
    overrides = {"host": host, "port": port, "data_dir": data_dir}
    config = settings(**{k: v for k, v in overrides.items() if v is not None})
    # What can be checked is, before the database is made or migrated and before a line
    # says the server starts: a port taken is one line, not a "startup complete" then a
    # failure, with a fresh database left behind.
    check_listening(config.host, config.port, host is not None, port is not None)
    stop_metrics = serve_metrics(config)  # its address taken: one line, still no database
    try:
        check_database(config, "--data-dir" if data_dir is not None else "MEADOW_DATA_DIR")
        run(config)
    finally:
        stop_metrics()


def run(config: Settings) -> None:
    """Make the app (its database, migrated), listen, and end as the signal that stopped
    it asks."""
    import uvicorn

    from meadow.server import connections, logs
    from meadow.server.drain import MeadowServer
    from meadow.server.main import create_app

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
    if config.metrics_address:
        log.info("metrics at http://%s/metrics", config.metrics_address)
    server.run()
    if not server.started:  # uvicorn said why (a port in use, a database that refused)
        raise SystemExit(3)
    if server.stopped_by == signal.SIGINT:  # drained: the command line says "interrupted"
        raise KeyboardInterrupt
    if server.stopped_by == signal.SIGTERM:
        # Drained: the process ends by the signal, as uvicorn ends it (a supervisor reads
        # that as a clean stop), not through Python's exit, which would wait on a bot's
        # think still in flight and start workers for it as the process goes.
        logging.shutdown()
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        signal.raise_signal(signal.SIGTERM)


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
            if e["type"] in OUT_OF_RANGE:
                setting = f"{setting} {e['input']}"
                reason = f"out of range, {allowed(Settings, name)}"
            problems.append(f"{setting}: {reason}")
        raise MeadowError("; ".join(problems)) from None


OUT_OF_RANGE = ("greater_than", "greater_than_equal", "less_than", "less_than_equal")


def allowed(model: Any, name: str) -> str:
    """A numeric setting's range in words, from its Field's bounds: "1 to 256"."""
    bounds = {
        key: getattr(found, key)
        for found in model.model_fields[name].metadata
        for key in ("ge", "gt", "le", "lt")
        if getattr(found, key, None) is not None
    }

    def shown(value: float) -> str:
        return str(value) if isinstance(value, int) else f"{value:g}"

    low = shown(bounds["ge"]) if "ge" in bounds else f"more than {shown(bounds.get('gt', 0))}"
    high = shown(bounds["le"]) if "le" in bounds else f"less than {shown(bounds.get('lt', 0))}"
    return f"{low} to {high}" if "ge" in bounds else f"{low}, up to {high}"


def serve_metrics(config: Settings) -> Callable[[], None]:
    """Serve the metrics apart when MEADOW_METRICS_ADDRESS is set; what stops them.

    Raises:
        MeadowError: the address cannot be had.
    """
    if not config.metrics_address:
        return lambda: None
    from meadow.server import metrics

    try:
        return metrics.serve_apart(config.metrics_address)
    except OSError as exc:
        reason = exc.strerror or str(exc)
        raise MeadowError(f"MEADOW_METRICS_ADDRESS={config.metrics_address}: {reason}") from None


def check_listening(host: str, port: int, host_given: bool, port_given: bool) -> None:
    """Bind the address as uvicorn will, and let it go again.

    Raises:
        MeadowError: the host does not resolve, or the port cannot be had there.
    """
    import errno
    import socket

    host_setting = "--host" if host_given else "MEADOW_HOST"
    port_setting = "--port" if port_given else "MEADOW_PORT"
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    try:
        address = socket.getaddrinfo(host, port, family, socket.SOCK_STREAM)[0][4]
    except socket.gaierror as exc:
        raise MeadowError(f"{host_setting} {host}: no such host here: {exc.strerror}") from None
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as uvicorn binds
        try:
            probe.bind(address)
        except OSError as exc:
            if exc.errno == errno.EADDRINUSE:
                raise MeadowError(
                    f"port {port} on {host} is taken: {exc.strerror} (another server? "
                    f"choose another with {port_setting})"
                ) from None
            if exc.errno == errno.EACCES:
                raise MeadowError(
                    f"port {port} on {host}: {exc.strerror} (ports below 1024 need "
                    f"privileges; choose another with {port_setting})"
                ) from None
            raise MeadowError(
                f"{host_setting} {host}: cannot listen there: {exc.strerror}"
            ) from None


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

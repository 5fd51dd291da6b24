"""Server settings, from the environment (`MEADOW_...`) or the command line."""

from __future__ import annotations

import contextlib
import logging
import os
from functools import lru_cache
from pathlib import Path
from typing import Literal

from pydantic import Field, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

# Upper bounds: a setting past them is a slip (a unit mistaken, a zero too many), refused at
# start rather than a server that never limits or waits for days.
MOST_PER_WINDOW = 1_000_000  # rate limits, queues and sockets (tests set up to a million)
BOT_MOST_SECONDS = 600.0  # the longest think a server may allow; `meadow play` keeps to it
BOT_MOST_ITERATIONS = 1_000_000


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="MEADOW_", extra="ignore")

    data_dir: Path = Field(Path("meadow-data"), description="Where SQLite and logs live.")
    database_url: str | None = Field(
        None, description="SQLAlchemy URL; default: SQLite in the data directory."
    )
    host: str = "127.0.0.1"
    port: int = Field(8000, ge=1, le=65535)
    secure_cookies: bool = Field(False, description="Send cookies over HTTPS only.")
    session_days: int = Field(30, ge=1, le=3650)
    guests: bool = Field(True, description="Allow play without an account.")
    login_failures_per_name_and_address: int = Field(
        10,
        ge=1,
        le=MOST_PER_WINDOW,
        description="Failed log-ins for one name from one address, in login_failure_minutes; "
        "then 429 for that name from that address (other addresses log in as before).",
    )
    login_failures_per_name: int = Field(
        100,
        ge=1,
        le=MOST_PER_WINDOW,
        description="Failed log-ins for one name from all addresses, in login_failure_minutes; "
        "then 429 for that name, except from browsers that logged in to it before.",
    )
    login_failures_per_address: int = Field(
        50,
        ge=1,
        le=MOST_PER_WINDOW,
        description="Failed log-ins from one address whatever the names (one password tried "
        "on many names), in login_failure_minutes; then 429 for that address.",
    )
    login_failure_minutes: int = Field(
        5, ge=1, le=24 * 60, description="The window the failed log-ins are counted in."
    )
    password_hashing_concurrency: int = Field(
        2, ge=1, le=1024, description="Passwords hashed or checked at once (each takes a core)."
    )
    password_hash_memory_kib: int = Field(
        65536,
        ge=19456,
        le=1048576,
        description="Memory one password hash takes (argon2id, KiB). The least allowed is "
        "OWASP's minimum for argon2id, 19 MiB; more makes guessing a stolen hash dearer.",
    )
    password_hash_rounds: int = Field(
        3,
        ge=2,
        le=20,
        description="Passes over that memory a password hash makes (argon2id; OWASP's "
        "minimum with 19 MiB is 2). Hashes made before a change go on working.",
    )
    password_hashing_queue: int = Field(
        32,
        ge=0,
        le=MOST_PER_WINDOW,
        description="Sign-ups and log-ins waiting for a hashing slot; more get 503 at once.",
    )
    signups_per_address_per_hour: int = Field(
        10,
        ge=1,
        le=MOST_PER_WINDOW,
        description="New accounts from one address in an hour; then 429.",
    )
    guests_per_address_per_hour: int = Field(
        10,
        ge=1,
        le=MOST_PER_WINDOW,
        description="Guest accounts from one address in an hour; then 429.",
    )
    tables_per_address_per_hour: int = Field(
        30,
        ge=1,
        le=MOST_PER_WINDOW,
        description="New tables from one address in an hour; then 429.",
    )
    open_tables_per_host: int = Field(
        3, ge=1, le=1000, description="Open (not yet started) tables one person may host; then 409."
    )
    chat_lines_per_minute: int = Field(
        10,
        ge=1,
        le=MOST_PER_WINDOW,
        description="Chat messages one person may write in a minute; then 429.",
    )
    chat_lines_per_table_per_minute: int = Field(
        30,
        ge=1,
        le=MOST_PER_WINDOW,
        description="Chat messages everyone may write at one table in a minute; then 429.",
    )
    chat_lines_per_address_per_minute: int = Field(
        20,
        ge=1,
        le=MOST_PER_WINDOW,
        description="Chat messages people at one address may write in a minute; then 429.",
    )
    guest_days: int = Field(
        7,
        ge=1,
        le=3650,
        description="A guest account without a seat is deleted after so many idle days.",
    )
    open_table_hours: int = Field(
        24, ge=1, le=24 * 365, description="An open table untouched for so many hours is abandoned."
    )
    max_body_bytes: int = Field(64 * 1024, ge=16 * 1024, le=64 * 1024 * 1024)
    smtp_host: str | None = Field(None, description="SMTP server for notices; none: no e-mail.")
    smtp_port: int = Field(25, ge=1, le=65535)
    smtp_user: str | None = Field(None, description="If set: STARTTLS, then log in.")
    smtp_password: str | None = None
    smtp_from: str = "meadow@localhost"
    public_url: str = Field("http://127.0.0.1:8000", description="The address in e-mails.")
    reset_minutes: int = Field(
        60, ge=5, le=24 * 60, description="How long a mailed password-reset link works."
    )
    confirm_hours: int = Field(
        48, ge=1, le=30 * 24, description="How long a mailed address-confirmation link works."
    )
    address_undo_days: int = Field(
        7,
        ge=1,
        le=90,
        description="How long the link mailed to a confirmed address when it is changed or "
        "removed undoes the change (and ends every session of the account).",
    )
    mails_per_account_per_hour: int = Field(
        3,
        ge=1,
        le=1000,
        description="Reset and confirmation e-mails to one account in an hour; a reset asked "
        "for beyond it sends nothing (the answer stays the same), a confirmation gets 429.",
    )
    resets_per_address_per_hour: int = Field(
        10,
        ge=1,
        le=MOST_PER_WINDOW,
        description="Password resets asked for from one address in an hour; then 429.",
    )
    bot_workers: int = Field(2, ge=1, le=256, description="Processes that think for the bots.")
    idle_table_seconds: float = Field(
        600,
        ge=1,
        le=7 * 24 * 3600,
        description="A running table with no move and no look this long, nobody watching and "
        "a person to move, leaves memory (rebuilt from its log when opened).",
    )
    bot_max_iterations: int = Field(
        2000,
        ge=1,
        le=BOT_MOST_ITERATIONS,
        description="The largest MCTS budget in iterations a table may seat.",
    )
    bot_max_seconds: float = Field(
        3.0,
        gt=0,
        le=BOT_MOST_SECONDS,
        description="The largest MCTS budget in seconds a table may seat; no bot's think "
        "lasts longer, whatever it was given.",
    )
    analysis: bool = Field(
        True,
        description="Analyse finished games on request (the coach, docs/ai.md); off: every "
        "request for an analysis is refused with 403, and none is computed here.",
    )
    analysis_workers: int = Field(
        1,
        ge=1,
        le=64,
        description="Processes that analyse finished games, each at the lowest CPU priority "
        "(nice 19): live tables' bots keep their pace.",
    )
    analysis_cpu_share: float = Field(
        0.5,
        gt=0,
        le=1,
        description="The share of a core one analysis may take: after each decision judged, "
        "its worker rests so long that its work is at most this share of its time.",
    )
    analysis_seconds_per_move: float = Field(
        0.5, gt=0, le=30, description="The most one decision of an analysis is weighed for."
    )
    analysis_worlds: int = Field(
        32, ge=1, le=10_000, description="The most sampled worlds one decision is weighed in."
    )
    hint_seconds: float = Field(
        1.0, gt=0, le=10, description="The most a hint at a table that allows them is weighed for."
    )
    hint_worlds: int = Field(
        16, ge=1, le=1000, description="The most sampled worlds a hint's moves are weighed in."
    )
    analyses_per_person: int = Field(
        3,
        ge=1,
        le=1000,
        description="Analyses one person may have waiting or running at once; more get 429.",
    )
    ws_compression: bool = Field(
        False,
        description="Compress WebSocket messages: less traffic, more server CPU per move "
        "(a move's news is a few kilobytes).",
    )
    access_log: bool = Field(
        False,
        description="A log line per HTTP request (a proxy in front usually keeps one); "
        "warnings and errors are logged either way.",
    )
    redis_url: str | None = Field(
        None, description="Redis for several server processes on one database; none: one."
    )
    cluster_name: str | None = Field(
        None,
        description="Names this site's keys in Redis (several sites, one Redis); default: "
        "'meadow-' and an id made once per database, so that two sites never share one.",
    )
    lease_ms: int = Field(
        5000,
        ge=100,
        le=600_000,
        description="How long a table's host may be silent before another adopts it.",
    )
    log_format: Literal["text", "json"] = Field(
        "text",
        description="text: lines for a person; json: one JSON object a line, each with the "
        "request id of the request it was written for.",
    )
    metrics_address: str | None = Field(
        None,
        pattern=r"^[^\s:]*:\d{1,5}$",
        description="host:port of a second, small server with the Prometheus metrics alone "
        "(a private address); none: no such server.",
    )
    metrics_token: str | None = Field(
        None,
        min_length=16,
        description="Serve /metrics on the main port to requests with this bearer token; "
        "none: /metrics is not there (404).",
    )
    drain_seconds: float = Field(
        10,
        gt=0,
        le=3600,
        description="After SIGTERM: how long the process may take to finish what it was "
        "doing, hand its tables over and close its sockets before it exits regardless.",
    )
    head_timeout_seconds: float = Field(
        10,
        gt=0,
        le=300,
        description="How long a connection may take to send a request's head (its line and "
        "headers); then 408 and closed (docs/security.md, connections).",
    )
    max_head_bytes: int = Field(
        16 * 1024,
        ge=1024,
        le=1024 * 1024,
        description="The largest request head (line and headers); larger: 431.",
    )
    max_headers: int = Field(
        100, ge=10, le=10_000, description="Header fields in one request; more: 431."
    )
    max_connections: int = Field(
        10_000,
        ge=1,
        le=1_000_000,
        description="Connections one process serves at once, HTTP and WebSocket; a request "
        "beyond them gets 503. Lowered at start to half the open-file limit if that is less "
        "(with a warning).",
    )
    sockets_per_person: int = Field(
        20,
        ge=1,
        le=MOST_PER_WINDOW,
        description="Table sockets one person may hold open on one process; more are closed "
        "with 4429 and the reason.",
    )
    sockets_per_address: int = Field(
        100,
        ge=1,
        le=MOST_PER_WINDOW,
        description="Table sockets one address may hold open on one process, signed in or "
        "not; more are closed with 4429 and the reason.",
    )

    @field_validator("database_url")
    @classmethod
    def _readable_url(cls, url: str | None) -> str | None:
        """A URL SQLAlchemy can read, with a driver that is installed: refused at start, in one
        line, not when the first request opens the database."""
        if url is None:
            return None
        from sqlalchemy.engine import make_url
        from sqlalchemy.exc import ArgumentError, NoSuchModuleError

        try:
            url = _postgres_driver(url)
            make_url(url).get_dialect().import_dbapi()
        except ArgumentError:
            raise ValueError(
                "not a database URL (e.g. postgresql+psycopg2://user@host/name)"
            ) from None
        except NoSuchModuleError as exc:
            raise ValueError(f"no such database driver ({exc})") from None
        except ImportError as exc:
            raise ValueError(f"the database driver is not installed ({exc})") from None
        return url

    @field_validator("redis_url")
    @classmethod
    def _usable_redis(cls, url: str | None) -> str | None:
        """A Redis URL, and the package that speaks to it: refused at start, not by the
        first request that counts a limit."""
        if url is None:
            return None
        scheme = url.partition("://")[0]
        if scheme not in ("redis", "rediss", "unix"):
            raise ValueError(f"{url!r} is not a Redis URL (redis://host:6379/0)")
        try:
            import redis  # noqa: F401
        except ImportError:
            raise ValueError(
                "the redis package is not installed: pip install 'meadow-tabletop[cluster]'"
            ) from None
        return url

    @field_validator("public_url")
    @classmethod
    def _web_address(cls, url: str) -> str:
        if not url.startswith(("http://", "https://")):
            raise ValueError(f"{url!r} is not an address a browser opens (https://...)")
        return url

    def database(self) -> str:
        if self.database_url:
            return self.database_url
        self.data_dir.mkdir(parents=True, exist_ok=True)
        # Made here, private: SQLite would make it readable by every local user (the umask's
        # 0644), password hashes and e-mail addresses inside. Its -wal and -shm files take
        # the database file's mode; backups are 0600 too.
        with contextlib.suppress(FileExistsError):
            os.close(os.open(self.sqlite_file(), os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
        _keep_private(self.sqlite_file())
        return f"sqlite:///{self.sqlite_file().resolve()}"

    def sqlite_file(self) -> Path:
        """The SQLite database in the data directory (used when no database_url is set)."""
        return self.data_dir / "meadow.sqlite3"


def _keep_private(database: Path) -> None:
    """A database made before Meadow made it private (0644, or by another tool) is made so,
    with a line in the log: every local user could read its password hashes and addresses."""
    mode = database.stat().st_mode & 0o777
    if mode & 0o077:
        database.chmod(0o600)
        logging.getLogger("meadow.server").warning(
            "%s was readable by others (%o): now by its owner only (600)", database, mode
        )


def _postgres_driver(url: str) -> str:
    """`url` with a PostgreSQL driver that is installed: SQLAlchemy 2.1 reads a plain
    postgresql:// as psycopg 3, the `postgres` extra installs psycopg2, and many hosts
    write postgres:// (Heroku's form), which SQLAlchemy does not read at all."""
    scheme, sep, rest = url.partition("://")
    if not sep or scheme not in ("postgresql", "postgres"):
        return url
    import importlib.util

    for module, driver in (("psycopg", "psycopg"), ("psycopg2", "psycopg2")):
        if importlib.util.find_spec(module) is not None:
            return f"postgresql+{driver}://{rest}"
    raise ValueError(
        "no PostgreSQL driver is installed: pip install 'meadow-tabletop[postgres]' "
        "(psycopg2; the URL may then start postgresql:// or postgresql+psycopg2://)"
    )


@lru_cache
def get_settings() -> Settings:
    return Settings()

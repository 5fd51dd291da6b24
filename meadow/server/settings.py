"""Server settings, from the environment (`MEADOW_...`) or the command line."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="MEADOW_", extra="ignore")

    data_dir: Path = Field(Path("meadow-data"), description="Where SQLite and logs live.")
    database_url: str | None = Field(
        None, description="SQLAlchemy URL; default: SQLite in the data directory."
    )
    host: str = "127.0.0.1"
    port: int = 8000
    secure_cookies: bool = Field(False, description="Send cookies over HTTPS only.")
    session_days: int = 30
    guests: bool = Field(True, description="Allow play without an account.")
    login_attempts_per_minute: int = 10
    max_body_bytes: int = 64 * 1024
    smtp_host: str | None = Field(None, description="SMTP server for notices; none: no e-mail.")
    smtp_port: int = 25
    smtp_user: str | None = Field(None, description="If set: STARTTLS, then log in.")
    smtp_password: str | None = None
    smtp_from: str = "meadow@localhost"
    public_url: str = Field("http://127.0.0.1:8000", description="The address in e-mails.")
    bot_workers: int = Field(2, description="Processes that think for the bots.")
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
    cluster_name: str = Field(
        "meadow", description="Names this site's keys in Redis (several sites, one Redis)."
    )
    lease_ms: int = Field(
        5000, description="How long a table's host may be silent before another adopts it."
    )

    def database(self) -> str:
        if self.database_url:
            return self.database_url
        self.data_dir.mkdir(parents=True, exist_ok=True)
        return f"sqlite:///{(self.data_dir / 'meadow.sqlite3').resolve()}"


@lru_cache
def get_settings() -> Settings:
    return Settings()

"""`meadow admin`: moderate a Meadow site from its server's shell, on the database `meadow
serve` uses (MEADOW_DATABASE_URL, or SQLite in the data directory). Safe while servers run:
every action is decided in the database and written to the audit log, and each running
server carries it out within half a second (a banned person's seats go to a bot, their
sockets close, a hidden line leaves the pages)."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import typer
from rich.table import Table as Grid

from meadow.cli.app import app, console
from meadow.core.errors import MeadowError

# The server's parts are imported in the commands that use them, not here: `meadow --help`
# and `meadow games` load none of the server's stack (SQLAlchemy, FastAPI, argon2).
if TYPE_CHECKING:
    from sqlalchemy.orm import Session as DbSession

    from meadow.server import people
    from meadow.store import Database, User

T = TypeVar("T")

admin_app = typer.Typer(
    name="admin",
    help="Moderate the site: people, bans, admins, chat, tables, data (audited).",
    no_args_is_help=True,
)
app.add_typer(admin_app)

DATA_DIR = typer.Option(None, help="Data directory (default ./meadow-data), as for serve.")
PERSON = typer.Argument(..., help="A name (any case), or a number as #17.")


@contextmanager
def _store(data_dir: Path | None) -> Iterator[Database]:
    from meadow.cli.serve import check_database, settings
    from meadow.store import Database

    config = settings(**({"data_dir": data_dir} if data_dir is not None else {}))
    check_database(config, "--data-dir" if data_dir is not None else "MEADOW_DATA_DIR")
    try:
        db = Database(config.database())
        db.migrate()  # a fresh data directory works too; a current one is left as it is
    except Exception as exc:  # a wrong URL, a database that does not answer
        reason = " ".join(str(getattr(exc, "orig", None) or exc).split())
        raise MeadowError(f"cannot open the database: {type(exc).__name__}: {reason}") from None
    try:
        yield db
    finally:
        db.dispose()


def _act(data_dir: Path | None, action: Callable[[DbSession], T]) -> T:
    """Run `action` in one write transaction, committed if it raises nothing; a refusal
    becomes one line (MeadowError)."""
    from meadow.server.errors import ApiError

    with _store(data_dir) as db, db.write() as s:
        try:
            done = action(s)
        except ApiError as refused:
            raise MeadowError(refused.message) from None
        s.commit()
        return done


def _shell() -> people.Actor:
    from meadow.server.people import Actor

    return Actor.at_the_shell()


@admin_app.command("list")
def list_people(
    find: str = typer.Argument(None, help="Part of a name or e-mail address."),
    banned: bool = typer.Option(False, "--banned", help="Only banned people."),
    admins: bool = typer.Option(False, "--admins", help="Only admins."),
    guests: bool = typer.Option(False, "--guests", help="Guests too."),
    limit: int = typer.Option(100, min=1, help="At most this many, newest first."),
    data_dir: Path = DATA_DIR,
) -> None:
    """List people, newest first, or find them by part of a name or address."""
    from meadow.server import people

    def found(s: DbSession) -> list[dict[str, Any]]:
        users = people.people(s, find, banned=banned, admins=admins, guests=guests, limit=limit)
        return [people.summary(user) for user in users]

    rows = _act(data_dir, found)
    if not rows:
        console.print("nobody")
        return
    grid = Grid("#", "name", "e-mail", "since", "state")
    for row in rows:
        grid.add_row(
            str(row["id"]), row["name"], _address(row), row["created_at"][:10], _state(row)
        )
    console.print(grid)


def _address(row: dict[str, Any]) -> str:
    if row["email"] is None and row["pending_email"] is None:
        return "-"
    text = row["email"] or ""
    if row["email"] and not row["email_confirmed"]:
        text += " (unconfirmed)"
    if row["pending_email"]:
        text += f" → {row['pending_email']} (waits for its link)"
    return text.strip()


def _state(row: dict[str, Any]) -> str:
    marks = [
        word
        for word, on in (
            ("admin", row["admin"]),
            ("banned", row["banned_at"]),
            ("deleted", row["deleted_at"]),
            ("guest", row["guest"]),
        )
        if on
    ]
    return ", ".join(marks) or "-"


@admin_app.command()
def ban(
    person: str = PERSON,
    reason: str = typer.Option(None, help="Why (kept in the audit log)."),
    data_dir: Path = DATA_DIR,
) -> None:
    """Ban a person: no log-in, join, chat or play.

    Their sessions end now; running servers hand their running seats to the takeover bot
    and close their sockets."""
    from meadow.server import people

    def act(s: DbSession) -> str:
        user = people.find_person(s, person)
        people.ban(s, _shell(), user, reason)
        return user.name

    console.print(f"{_act(data_dir, act)} is banned")


@admin_app.command()
def unban(person: str = PERSON, data_dir: Path = DATA_DIR) -> None:
    """Lift a ban: the person may log in again (and take their seats back from the bots)."""
    from meadow.server import people

    def act(s: DbSession) -> str:
        user = people.find_person(s, person)
        people.unban(s, _shell(), user)
        return user.name

    console.print(f"{_act(data_dir, act)} is no longer banned")


@admin_app.command("make-admin")
def make_admin(person: str = PERSON, data_dir: Path = DATA_DIR) -> None:
    """Make a person an admin: the site's #/admin page and /api/admin are theirs."""
    console.print(f"{_set_admin(person, True, data_dir)} is an admin")


@admin_app.command("unmake-admin")
def unmake_admin(person: str = PERSON, data_dir: Path = DATA_DIR) -> None:
    """Make an admin an ordinary person again (at their next request)."""
    console.print(f"{_set_admin(person, False, data_dir)} is no longer an admin")


def _set_admin(person: str, on: bool, data_dir: Path | None) -> str:
    from meadow.server import people

    def act(s: DbSession) -> str:
        user = people.find_person(s, person)
        people.set_admin(s, _shell(), user, on)
        return user.name

    return _act(data_dir, act)


@admin_app.command()
def chat(
    table: int = typer.Argument(..., help="The table's number."),
    limit: int = typer.Option(50, min=1, help="The latest lines, at most."),
    data_dir: Path = DATA_DIR,
) -> None:
    """A table's chat with each line's number (for hide-chat), hidden lines marked."""
    from sqlalchemy import select

    from meadow.server import people
    from meadow.store import ChatMessage

    def lines(s: DbSession) -> list[tuple[int, str, str, str, bool]]:
        rows = s.scalars(
            select(ChatMessage)
            .where(ChatMessage.table_id == table)
            .order_by(ChatMessage.id.desc())
            .limit(limit)
        ).all()
        return [
            (r.id, people.iso(r.created_at) or "", r.user.name, r.text, r.hidden_at is not None)
            for r in reversed(rows)
        ]

    found = _act(data_dir, lines)
    if not found:
        console.print(f"nothing was said at table {table}")
        return
    grid = Grid("#", "at", "who", "text", "hidden")
    for number, at, name, text, hidden in found:
        grid.add_row(str(number), at[:19], name, text, "hidden" if hidden else "")
    console.print(grid)


@admin_app.command("hide-chat")
def hide_chat(
    line: int = typer.Argument(..., help="The chat line's number (see `meadow admin chat`)."),
    data_dir: Path = DATA_DIR,
) -> None:
    """Hide a chat line from everyone; running servers take it off the table's pages."""
    from meadow.server import people

    table = _act(data_dir, lambda s: people.hide_chat(s, _shell(), line).table_id)
    console.print(f"chat line {line} of table {table} is hidden")


@admin_app.command("close-table")
def close_table(
    table: int = typer.Argument(..., help="The table's number."),
    data_dir: Path = DATA_DIR,
) -> None:
    """Close an open or running table (status "abandoned").

    A running game ends there: no result, no rating changes, no further move; its page
    shows the last position."""
    from meadow.server import people

    was = _act(data_dir, lambda s: people.close_table(s, _shell(), table))
    console.print(f"table {table} ({was}) is closed")


@admin_app.command()
def export(
    person: str = PERSON,
    output: Path = typer.Option(None, "-o", "--output", help="Write here (default: print)."),
    data_dir: Path = DATA_DIR,
) -> None:
    """Everything the site keeps about a person, as JSON (no password hash, no secrets)."""
    from meadow.server import people

    def act(s: DbSession) -> dict[str, Any]:
        return people.export(s, _shell(), people.find_person(s, person))

    text = json.dumps(_act(data_dir, act), indent=2, ensure_ascii=False)
    if output is None:
        console.print(text, markup=False, highlight=False)
        return
    try:
        output.write_text(text + "\n", encoding="utf-8")
    except OSError as exc:
        raise MeadowError(f"cannot write {output}: {exc.strerror}") from None
    console.print(f"written to {output}")


@admin_app.command()
def erase(
    person: str = PERSON,
    yes: bool = typer.Option(False, "--yes", help="Do not ask."),
    data_dir: Path = DATA_DIR,
) -> None:
    """Erase a person's account, as they could delete it themselves.

    Name, password, addresses, settings, sessions, ratings and mutes go; their games and
    chat stay under a neutral name ("deleted player 17"); bots take their running seats."""
    from meadow.server import people

    if not yes and not typer.confirm(f"Erase the account {person!r} for good?"):
        raise MeadowError("nothing erased")

    def act(s: DbSession) -> str:
        user = people.find_person(s, person)
        people.erase(s, _shell(), user)
        return user.name

    console.print(f"{person} is erased; their games and chat now say {_act(data_dir, act)!r}")


@admin_app.command("reset-link")
def reset_link(
    person: str = PERSON,
    minutes: int = typer.Option(60, min=5, max=24 * 60, help="How long the link works."),
    data_dir: Path = DATA_DIR,
) -> None:
    """Print a link that sets a new password for the person, to hand over yourself.

    For a site without e-mail, or an address gone. It works once; the person's earlier
    reset links stop working."""
    from meadow.cli.serve import settings
    from meadow.server import people
    from meadow.server.errors import ApiError

    def act(s: DbSession) -> str:
        user = people.find_person(s, person)
        if user.password_hash is None or user.deleted_at is not None:
            raise ApiError(409, f"{user.name} has no password to reset (a guest, or deleted)")
        token = people.new_token(s, user.id, people.RESET, timedelta(minutes=minutes))
        people.audit(s, _shell(), people.RESET_LINK, user_id=user.id)
        return token

    token = _act(data_dir, act)
    base = settings().public_url.rstrip("/")
    console.print(f"{base}/#/reset/{token}", markup=False, highlight=False)


@admin_app.command()
def audit(
    limit: int = typer.Option(50, min=1, help="The latest entries, at most."),
    data_dir: Path = DATA_DIR,
) -> None:
    """What admins did, newest first: when, who, what, on whom or what."""
    from meadow.server import people

    def rows(s: DbSession) -> list[tuple[str, ...]]:
        return [
            (
                str(e.id),
                (people.iso(e.at) or "")[:19],
                e.actor or (e.acting.name if e.acting else "?"),
                e.action,
                _target(e.subject, e.table_id, e.chat_id),
                e.detail or "",
            )
            for e in people.audit_entries(s, limit)
        ]

    found = _act(data_dir, rows)
    if not found:
        console.print("nothing yet")
        return
    grid = Grid("#", "at", "who", "what", "on", "detail")
    for row in found:
        grid.add_row(*row)
    console.print(grid)


def _target(user: User | None, table: int | None, line: int | None) -> str:
    parts = []
    if user is not None:
        parts.append(user.name)
    if table is not None:
        parts.append(f"table {table}")
    if line is not None:
        parts.append(f"chat line {line}")
    return ", ".join(parts) or "-"

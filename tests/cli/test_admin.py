"""`meadow admin` at the shell, in-process through the real entry point, on an SQLite data
directory (the server tests run it against running servers, on PostgreSQL too)."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import pytest
from sqlalchemy import select

from meadow.store import AuditEntry, ChatMessage, Database, Seat, Session, Table, User
from tests.cli.test_cli import run


@pytest.fixture
def site(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Database:
    """A data directory with two people, a guest, a running table and its chat."""
    monkeypatch.setenv("MEADOW_DATA_DIR", str(tmp_path))
    monkeypatch.delenv("MEADOW_DATABASE_URL", raising=False)
    db = Database(f"sqlite:///{tmp_path / 'meadow.sqlite3'}")
    db.migrate()
    with db.write() as s:
        ada = User(name="Ada", password_hash="$argon2id$fake", email="ada@example.org")
        bo = User(name="bo", password_hash="$argon2id$fake", email_confirmed=True)
        bo.email = "bo@example.org"
        guest = User(name="guest-0badcafe", password_hash=None)
        s.add_all([ada, bo, guest])
        s.flush()
        s.add(Session(token_hash="a" * 64, user_id=ada.id, csrf="c", expires_at=_later()))
        table = Table(
            game="topiary",
            options={},
            players=2,
            seed="1",
            mode="live",
            status="running",
            invite="inv",
            host_id=bo.id,
        )
        table.seats = [Seat(number=0, user_id=bo.id), Seat(number=1, user_id=ada.id)]
        s.add(table)
        s.flush()
        s.add(ChatMessage(table_id=table.id, user_id=ada.id, seat=1, move=0, text="boo"))
        s.commit()
    yield db
    db.dispose()


def _later() -> datetime:
    return datetime(2999, 1, 1, tzinfo=UTC)


def admin(capsys, monkeypatch, *args: str, stdin: str = "") -> tuple[int, str, str]:
    code, out, err = run(capsys, monkeypatch, ["admin", *args], stdin)
    assert "Traceback" not in out + err
    return code, out, err


def test_list_and_find_people(site: Database, capsys, monkeypatch):
    code, out, _ = admin(capsys, monkeypatch, "list")
    assert code == 0
    assert "Ada" in out and "bo" in out and "guest-0badcafe" not in out
    assert "ada@example.org (unconfirmed)" in out
    code, out, _ = admin(capsys, monkeypatch, "list", "EXAMPLE.org", "--guests")
    assert "Ada" in out and "bo" in out and "guest" not in out.split("│")[1:2]
    code, out, _ = admin(capsys, monkeypatch, "list", "nobody-here")
    assert code == 0 and "nobody" in out
    code, out, _ = admin(capsys, monkeypatch, "list", "--guests")
    assert "guest-0badcafe" in out


def test_ban_and_unban(site: Database, capsys, monkeypatch):
    code, out, _ = admin(capsys, monkeypatch, "ban", "ADA", "--reason", "spam")
    assert (code, out.strip()) == (0, "Ada is banned")
    with site.open() as s:
        ada = s.scalar(select(User).where(User.name == "Ada"))
        assert ada.banned_at is not None
        assert s.scalars(select(Session)).all() == []  # signed out everywhere
    code, _, err = admin(capsys, monkeypatch, "ban", "Ada")
    assert code == 2 and "Ada is banned already" in err
    code, out, _ = admin(capsys, monkeypatch, "unban", "#1")
    assert (code, out.strip()) == (0, "Ada is no longer banned")
    code, _, err = admin(capsys, monkeypatch, "unban", "Ada")
    assert code == 2 and "Ada is not banned" in err


def test_admins_are_made_and_unmade(site: Database, capsys, monkeypatch):
    assert admin(capsys, monkeypatch, "make-admin", "bo")[1].strip() == "bo is an admin"
    code, _, err = admin(capsys, monkeypatch, "ban", "bo")
    assert code == 2 and "unmake them an admin first" in err
    code, _, err = admin(capsys, monkeypatch, "make-admin", "guest-0badcafe")
    assert code == 2 and "only an account may be an admin" in err
    code, out, _ = admin(capsys, monkeypatch, "list", "--admins")
    assert "bo" in out and "Ada" not in out
    assert admin(capsys, monkeypatch, "unmake-admin", "bo")[1].strip() == "bo is no longer an admin"


def test_chat_lines_are_listed_and_hidden(site: Database, capsys, monkeypatch):
    def row() -> str:
        code, out, _ = admin(capsys, monkeypatch, "chat", "1")
        assert code == 0
        return next(line for line in out.splitlines() if "boo" in line)

    assert "hidden" not in row()
    assert admin(capsys, monkeypatch, "hide-chat", "1")[1].strip() == (
        "chat line 1 of table 1 is hidden"
    )
    assert "hidden" in row()
    code, _, err = admin(capsys, monkeypatch, "hide-chat", "99")
    assert code == 2 and "there is no chat line 99" in err
    assert "nothing was said at table 5" in admin(capsys, monkeypatch, "chat", "5")[1]


def test_a_table_is_closed(site: Database, capsys, monkeypatch):
    assert admin(capsys, monkeypatch, "close-table", "1")[1].strip() == (
        "table 1 (running) is closed"
    )
    with site.open() as s:
        assert s.get(Table, 1).status == "abandoned"
    code, _, err = admin(capsys, monkeypatch, "close-table", "1")
    assert code == 2 and "table 1 is abandoned" in err
    code, _, err = admin(capsys, monkeypatch, "close-table", "7")
    assert code == 2 and "there is no table 7" in err


def test_export_and_erase(site: Database, capsys, monkeypatch, tmp_path: Path):
    out_file = tmp_path / "ada.json"
    code, out, _ = admin(capsys, monkeypatch, "export", "ada", "-o", str(out_file))
    assert code == 0 and f"written to {out_file}" in out
    data = json.loads(out_file.read_text())
    assert data["person"]["name"] == "Ada"
    assert data["chat"][0]["text"] == "boo" and data["tables"][0]["seat"] == 1
    assert "argon2" not in out_file.read_text()
    code, out, _ = admin(capsys, monkeypatch, "export", "bo")
    assert json.loads(out)["person"]["email"] == "bo@example.org"

    code, _, err = admin(capsys, monkeypatch, "erase", "Ada", stdin="n\n")
    assert code == 2 and "nothing erased" in err
    code, out, _ = admin(capsys, monkeypatch, "erase", "Ada", "--yes")
    assert code == 0 and "'deleted player 1'" in out
    with site.open() as s:
        gone = s.get(User, 1)
        assert (gone.name, gone.password_hash, gone.email) == ("deleted player 1", None, None)
        assert s.get(ChatMessage, 1).user_id == 1  # the line stays, under the neutral name
    code, _, err = admin(capsys, monkeypatch, "erase", "#1", "--yes")
    assert code == 2 and "the account was deleted" in err


def test_every_action_is_in_the_audit_log(site: Database, capsys, monkeypatch):
    assert admin(capsys, monkeypatch, "audit")[1].strip() == "nothing yet"
    admin(capsys, monkeypatch, "ban", "Ada", "--reason", "spam")
    admin(capsys, monkeypatch, "hide-chat", "1")
    admin(capsys, monkeypatch, "export", "bo")
    admin(capsys, monkeypatch, "list")  # reading is not an action
    with site.open() as s:
        entries = s.scalars(select(AuditEntry).order_by(AuditEntry.id)).all()
        assert [(e.action, e.user_id, e.detail) for e in entries] == [
            ("ban", 1, "spam"),
            ("hide-chat", 1, None),
            ("export", 2, None),
        ]
        assert all(e.actor.startswith("shell:") and e.actor_id is None for e in entries)
    code, out, _ = admin(capsys, monkeypatch, "audit")
    assert code == 0 and "hide-chat" in out and "spam" in out and "shell:" in out


def test_a_reset_link_to_hand_over(site: Database, capsys, monkeypatch):
    monkeypatch.setenv("MEADOW_PUBLIC_URL", "https://meadow.example.org/")
    code, out, _ = admin(capsys, monkeypatch, "reset-link", "bo")
    assert code == 0 and out.startswith("https://meadow.example.org/#/reset/")
    code, _, err = admin(capsys, monkeypatch, "reset-link", "guest-0badcafe")
    assert code == 2 and "no password to reset" in err


def test_an_unknown_person_or_database_is_one_line(site: Database, capsys, monkeypatch):
    code, _, err = admin(capsys, monkeypatch, "ban", "nobody")
    assert code == 2 and err.strip() == "error: there is nobody called 'nobody'"
    monkeypatch.setenv("MEADOW_DATABASE_URL", "postgresql+psycopg2://nobody@127.0.0.1:1/none")
    code, _, err = admin(capsys, monkeypatch, "list")
    assert code == 2 and "MEADOW_DATABASE_URL" in err and "cannot open the database" in err

"""Finished games out of the store, one JSON object per game: each is the game's record in the
replay download's format (`GameRecord.to_json`, what `GET /api/tables/{id}/record` answers)
with the table, its seats, when it ended and its final scores beside it."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from itertools import groupby
from typing import Any

from sqlalchemy import Connection, func, select

from meadow.core.errors import MeadowError
from meadow.core.record import GameRecord
from meadow.server.live import UNDO
from meadow.store.models import Move, Seat, Table, User

# Tables whose moves and seats are read in one query each: few round trips, bounded memory.
CHUNK = 200


def standing(actions: Iterable[str]) -> list[str]:
    """The moves of a log that stand: an undo line takes back the last standing move, and
    neither is part of the game's record (as `LiveTable.record` builds it).

    >>> standing(["a", "b", UNDO, "c"])
    ['a', 'c']
    """
    kept: list[str] = []
    for number, action in enumerate(actions, start=1):
        if action != UNDO:
            kept.append(action)
        elif kept:
            kept.pop()
        else:
            raise MeadowError(f"line {number} of the log undoes a move, but none stands")
    return kept


def table_record(
    game: str, players: int, options: dict[str, Any], seed: str | int, log: Iterable[str]
) -> GameRecord:
    """A table's record from its row and its log's actions in order."""
    return GameRecord(game, players, dict(options), int(seed), standing(log))


def aware(moment: datetime) -> datetime:
    """SQLite hands back the UTC times it stores without their zone."""
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


@dataclass
class Skipped:
    table: int
    reason: str


def finished_games(
    connection: Connection, game: str | None = None, since: datetime | None = None
) -> tuple[int, Iterator[dict[str, Any] | Skipped]]:
    """How many finished games match, and each one's line (or why it was skipped), in the
    order they ended. `since`: only games that ended at or after it."""
    ended = (
        select(Move.table_id, func.max(Move.created_at).label("finished_at"))
        .group_by(Move.table_id)
        .subquery()
    )
    query = (
        select(Table.id, Table.game, Table.players, Table.options, Table.seed, ended.c.finished_at)
        .join(ended, ended.c.table_id == Table.id)
        .where(Table.status == "finished")
        .order_by(ended.c.finished_at, Table.id)
    )
    if game is not None:
        query = query.where(Table.game == game)
    if since is not None:
        query = query.where(ended.c.finished_at >= since)
    tables = connection.execute(query).all()
    return len(tables), _lines(connection, tables)


def _lines(connection: Connection, tables: list[Any]) -> Iterator[dict[str, Any] | Skipped]:
    for start in range(0, len(tables), CHUNK):
        chunk = tables[start : start + CHUNK]
        ids = [row.id for row in chunk]
        logs = _grouped(
            connection.execute(
                select(Move.table_id, Move.action)
                .where(Move.table_id.in_(ids))
                .order_by(Move.table_id, Move.number)
            ),
            lambda row: row.action,
        )
        seats = _grouped(
            connection.execute(
                select(
                    Seat.table_id,
                    Seat.number,
                    Seat.bot,
                    User.name,
                    Seat.rating_before,
                    Seat.rating_after,
                )
                .outerjoin(User, User.id == Seat.user_id)
                .where(Seat.table_id.in_(ids))
                .order_by(Seat.table_id, Seat.number)
            ),
            _seat,
        )
        for row in chunk:
            yield _line(row, logs.get(row.id, []), seats.get(row.id, []))


def _grouped(rows: Iterable[Any], value: Callable[[Any], Any]) -> dict[int, list[Any]]:
    return {
        table: [value(row) for row in group]
        for table, group in groupby(rows, key=lambda row: row.table_id)
    }


def _seat(row: Any) -> dict[str, Any]:
    # The same keys as a table's seats in the API (`GET /api/tables/{id}`).
    rating = None
    if row.rating_before is not None and row.rating_after is not None:
        rating = {"before": row.rating_before, "after": row.rating_after}
    return {"seat": row.number, "person": row.name, "bot": row.bot, "rating": rating}


def _line(row: Any, log: list[str], seats: list[dict[str, Any]]) -> dict[str, Any] | Skipped:
    try:
        record = table_record(row.game, row.players, row.options, row.seed, log)
        final = record.replay()
    except MeadowError as exc:
        return Skipped(row.id, str(exc))
    if not final.is_over:
        return Skipped(row.id, "its moves do not end the game")
    result = final.result()
    return {
        "table": row.id,
        **record.to_json(),
        "finished_at": aware(row.finished_at).isoformat(),
        "seats": seats,
        "scores": list(result.scores),
        "ranking": [list(group) for group in result.ranking],
    }

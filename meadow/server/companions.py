"""The people one has played with: whom the profile lists, and whom a new table may keep a
seat for. Only finished games count, where both sat as people."""

from __future__ import annotations

from typing import Any

from sqlalchemy import Select, func, select
from sqlalchemy.orm import Session as DbSession
from sqlalchemy.orm import aliased

from meadow.store import Seat, Table, User

MOST = 50  # people listed, the most recently played with first


def played_with(s: DbSession, user_id: int) -> list[dict[str, Any]]:
    """Each person who finished a game at a table with `user_id`: their name, how many such
    games, and the latest (its table, game and when it ended)."""
    last = func.max(Table.updated_at)
    rows = s.execute(
        _finished_with(user_id, select(User.name, func.count(Table.id), last, func.max(Table.id)))
        .group_by(User.id, User.name)
        .order_by(last.desc(), User.name)
        .limit(MOST)
    ).all()
    latest = [row[3] for row in rows]
    games = dict(s.execute(select(Table.id, Table.game).where(Table.id.in_(latest))).all())
    return [
        {"name": name, "games": count, "last_table": table_id, "last_game": games[table_id]}
        for name, count, _, table_id in rows
    ]


def companion(s: DbSession, user_id: int, name: str) -> int | None:
    """The id of the person called `name` if they finished a game with `user_id`, else None
    (a stranger, or nobody of that name: the same answer, so names are not probed)."""
    return s.scalar(_finished_with(user_id, select(User.id)).where(User.name == name).limit(1))


def _finished_with(user_id: int, query: Select[Any]) -> Select[Any]:
    """`query` over the people (`User`) seated with `user_id` at finished tables (`Table`)."""
    mine, theirs = aliased(Seat), aliased(Seat)
    return (
        query.select_from(mine)
        .join(Table, Table.id == mine.table_id)
        .join(theirs, theirs.table_id == Table.id)
        .join(User, User.id == theirs.user_id)
        .where(mine.user_id == user_id, User.id != user_id, Table.status == "finished")
    )

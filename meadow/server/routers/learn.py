"""Learn to play: a guided first game of each title, on the real table page.

`POST /api/learn/{game}` seats the person at a private table of the guided game's deal
against the guide bot (which plays the written moves), with hints allowed and no rating; a
person who left one unfinished is sent back to it. `GET /api/learn/{game}` gives the page
what it shows: the learner's written move at each of its decisions, and where each note goes.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from fastapi import APIRouter, Depends, Request
from sqlalchemy import select
from sqlalchemy.orm import Session as DbSession

from meadow import games
from meadow.core.errors import MeadowError
from meadow.core.guided import LEARNER, guided
from meadow.server.deps import DatabaseRoute, db_session, signed_in, tables
from meadow.server.errors import ApiError, refusals
from meadow.server.tables import Tables
from meadow.store import Seat, Table, User

router = APIRouter(prefix="/api", tags=["learn"], route_class=DatabaseRoute)
GUIDE = "guide"


def _game(game_id: str) -> str:
    try:
        return games.get(game_id).id
    except MeadowError as unknown:
        raise ApiError(404, str(unknown)) from None


@router.get("/learn/{game_id}", responses=refusals(404))
def written(game_id: str) -> dict[str, Any]:
    """The guided game as the learner's page follows it: the learner's written move at each
    of its decisions (by move number) and the notes before them."""
    return _written(_game(game_id))


@cache
def _written(game_id: str) -> dict[str, Any]:
    script = guided(game_id)
    states = script.states()
    mine = {
        str(number): move
        for number, (state, move) in enumerate(zip(states, script.moves, strict=False), start=1)
        if state.to_move == LEARNER
    }
    notes = {str(number): list(keys) for number, keys in script.notes.items()}
    return {"game": game_id, "seat": LEARNER, "moves": mine, "notes": notes}


@router.post("/learn/{game_id}", status_code=201, responses=refusals(401, 403, 404, 429))
def learn(
    game_id: str,
    request: Request,
    user: User = Depends(signed_in),
    hub: Tables = Depends(tables),
    s: DbSession = Depends(db_session),
) -> dict[str, Any]:
    """Start the guided first game of a title, or go back to the one left unfinished."""
    game_id = _game(game_id)
    left = s.scalar(
        select(Table.id)
        .join(Seat, Seat.table_id == Table.id)
        .where(
            Table.host_id == user.id,
            Table.game == game_id,
            Table.status == "running",
            Seat.number == 1 - LEARNER,
            Seat.bot == GUIDE,
        )
        .order_by(Table.id.desc())
        .limit(1)
    )
    s.commit()  # hand the connection back: the tables open their own
    if left is not None:
        return {"id": left, "resumed": True}
    config = request.app.state.settings
    request.app.state.limits.spend_hourly(request, "new tables", config.tables_per_address_per_hour)
    script = guided(game_id)
    seats: list[str | None] = [None, None]
    seats[1 - LEARNER] = GUIDE
    table_id = hub.create(
        user,
        game_id,
        script.players,
        script.options,
        seats,
        "live",
        private=True,
        hints=True,
        seed=script.seed,
    )
    hub.start(table_id, user)
    return {"id": table_id, "resumed": False}

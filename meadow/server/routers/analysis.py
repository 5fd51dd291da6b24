"""The coach's routes: a finished game's analysis (ask for it, then follow it to the end), and
a hint at a table that allows them."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Depends
from starlette.requests import HTTPConnection

from meadow.server.coach import Coach
from meadow.server.deps import DatabaseRoute, ReadableTable, signed_in, tables
from meadow.server.errors import ApiError, refusals
from meadow.server.tables import Tables
from meadow.store import User

router = APIRouter(prefix="/api", tags=["analysis"], route_class=DatabaseRoute)


async def coach(connection: HTTPConnection) -> Coach:
    return connection.app.state.coach


@router.get("/tables/{table_id}/analysis", responses=refusals(404, 422))
def analysis(table_id: ReadableTable, the_coach: Coach = Depends(coach)) -> dict[str, Any]:
    """The analysis of a finished game: `none` (not asked for), `queued`, `running` (with
    the moves done of the moves in the game), `done` (with the analysis) or `failed`; and
    at a table that allowed hints, how many each seat asked for."""
    return the_coach.state(table_id)


@router.post(
    "/tables/{table_id}/analysis", status_code=202, responses=refusals(401, 403, 404, 409, 429)
)
def ask_for_analysis(
    table_id: ReadableTable,
    user: User = Depends(signed_in),
    hub: Tables = Depends(tables),
    the_coach: Coach = Depends(coach),
) -> dict[str, Any]:
    """Ask for a finished game's analysis (any game you may see): computed once, then kept
    for everyone who may see the game."""
    live = hub.current(table_id)
    if live.status != "finished":
        raise ApiError(409, "only a finished game is analysed")
    return the_coach.ask(table_id, user, len(live.record().actions))


@router.post("/tables/{table_id}/hint", responses=refusals(401, 403, 404, 409))
def ask_for_hint(
    table_id: ReadableTable,
    user: User = Depends(signed_in),
    hub: Tables = Depends(tables),
    the_coach: Coach = Depends(coach),
) -> dict[str, Any]:
    """The coach's move for your seat, on your turn, at a table created with hints allowed
    (a rated table refuses: 403). From your seat's view only; counted, and asked again for
    the same decision, the same hint without a count."""
    return the_coach.hint(hub, table_id, user)

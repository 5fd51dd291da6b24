"""The coach's analysis of a finished game: ask for it, then follow it to the end."""

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


NOT_ASKED = {"status": "none", "done_moves": 0, "total_moves": 0, "analysis": None, "error": None}


@router.get("/tables/{table_id}/analysis", responses=refusals(404, 422))
def analysis(table_id: ReadableTable, the_coach: Coach = Depends(coach)) -> dict[str, Any]:
    """The analysis of a finished game: `none` (not asked for), `queued`, `running` (with
    the moves done of the moves in the game), `done` (with the analysis) or `failed`."""
    return the_coach.state(table_id) or {**NOT_ASKED, "enabled": the_coach.enabled}


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

"""Games, the lobby, play and records: every HTTP route that touches a table (its socket is in
`routers.sockets`)."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from functools import cache
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, Path, Query, Request
from pydantic import BaseModel, Field, StrictBool, StringConstraints
from sqlalchemy import or_, select
from sqlalchemy.orm import Session as DbSession

from meadow import games
from meadow.bots import levels
from meadow.core.errors import MeadowError
from meadow.server import access, chat, companions, outbound
from meadow.server.access import MAX_ID
from meadow.server.coach import hints_used
from meadow.server.deps import (
    DatabaseRoute,
    ReadableTable,
    db_session,
    signed_in,
    tables,
    viewer,
)
from meadow.server.errors import ApiError, refusals
from meadow.server.live import LiveTable
from meadow.server.tables import Tables
from meadow.store import Rating, Seat, Table, User

router = APIRouter(prefix="/api", tags=["tables"], route_class=DatabaseRoute)

INVITE = re.compile(r"^[A-Za-z0-9_-]{1,64}$")  # what secrets.token_urlsafe makes
TableId = Annotated[int, Path(ge=1, le=MAX_ID, description="The table's number.")]
Step = Annotated[int, Path(ge=0, le=MAX_ID, description="Moves played, 0 for the start.")]


BotName = Annotated[str, StringConstraints(min_length=1, max_length=40)]


# Each game's id, and the spelling with '-' the command line uses.
GameId = Literal[
    tuple(sorted({g.id for g in games.all()} | {g.id.replace("_", "-") for g in games.all()}))
]  # type: ignore[valid-type]


class NewTable(BaseModel):
    game: GameId = Field(description="A game's id, as GET /api/games lists them.")
    players: int = Field(ge=1, le=8)
    options: dict[str, Any] = Field(default_factory=dict, max_length=20)
    seats: list[BotName | None] = Field(
        description="Per seat: a bot (a level: beginner, easy, medium, hard, expert; random, "
        "greedy, mcts:<iterations>, "
        "mcts:<seconds>s, within the budgets this server allows) or null for a person; the "
        "host takes the first seat for a person.",
        max_length=8,
    )
    mode: str = Field("live", pattern="^(live|async)$")
    move_seconds: int | None = Field(None, ge=5, le=7 * 86400, description="Time per decision.")
    game_seconds: int | None = Field(None, ge=30, le=30 * 86400, description="Time per seat.")
    grace_seconds: int = Field(30, ge=0, le=86400, description="Extra time before a bot steps in.")
    takeover_bot: str = Field(
        "easy", min_length=1, max_length=40, description="Who takes an abandoned seat."
    )
    private: StrictBool = Field(
        False, description="Listed nowhere: people come only through the invitation."
    )
    hints: StrictBool = Field(
        False,
        description="Hints allowed: any seat may ask the coach for a move on its turn. Shown "
        "to everyone; the game is not rated.",
    )
    keep_seat_for: str | None = Field(
        None,
        min_length=1,
        max_length=40,
        description="The name of a person you have finished a game with: the first seat for a "
        "person after yours is kept for them, and the table is among theirs.",
    )


CLOCK_FIELDS = {"move_seconds", "game_seconds", "grace_seconds", "takeover_bot"}


class Created(BaseModel):
    id: int
    invite: str


class MoveIn(BaseModel):
    move: int = Field(
        ge=1, le=MAX_ID, description="The number this move will have: moves made + 1."
    )
    action: str = Field(max_length=200, description="The action in the game's notation.")


class Joined(BaseModel):
    seat: int


@router.get("/games")
async def list_games(request: Request) -> list[dict[str, Any]]:
    """The games, their options, and the computer's levels in each: how long a level may
    think here (this server's bound included) and its rating where one was measured."""
    return _described(request.app.state.settings.bot_max_seconds)


@cache
def _described(most_seconds: float) -> list[dict[str, Any]]:
    # The games, their option schemas and their levels never change while the server runs.
    return [
        game.describe() | {"levels": levels.describe(game.id, most_seconds)} for game in games.all()
    ]


@router.post("/tables", status_code=201, responses=refusals(400, 401, 403, 404, 409, 413, 422, 429))
def create_table(
    body: NewTable,
    request: Request,
    user: User = Depends(signed_in),
    hub: Tables = Depends(tables),
    s: DbSession = Depends(db_session),
) -> Created:
    """A new open table. One person hosts a few open tables at most (409), and one address
    makes a few dozen tables an hour (429): nobody fills the lobby alone."""
    config = request.app.state.settings
    per_hour = config.tables_per_address_per_hour
    request.app.state.limits.spend_hourly(request, "new tables", per_hour)
    clock = body.model_dump(include=CLOCK_FIELDS)
    kept_for = None
    if body.keep_seat_for is not None:
        kept_for = companions.companion(s, user.id, body.keep_seat_for)
        if kept_for is None:
            raise ApiError(
                404, f"{body.keep_seat_for!r}: nobody of that name has finished a game with you"
            )
        s.commit()  # its connection back to the pool before the create takes one
    table_id = hub.create(
        user,
        body.game,
        body.players,
        body.options,
        body.seats,
        body.mode,
        clock,
        most_open=config.open_tables_per_host,
        private=body.private,
        hints=body.hints,
        kept_for=kept_for,
    )
    table = s.get(Table, table_id)
    assert table is not None
    return Created(id=table_id, invite=table.invite)


@router.get("/tables")
def open_tables(s: DbSession = Depends(db_session)) -> list[dict[str, Any]]:
    """Tables still looking for players (open, with a free seat kept for nobody), newest
    first."""
    free_seat = (
        select(Seat.id)
        .where(
            Seat.table_id == Table.id,
            Seat.user_id.is_(None),
            Seat.bot.is_(None),
            Seat.reserved_for.is_(None),
        )
        .exists()
    )
    found = s.scalars(
        select(Table)
        .where(Table.status == "open", free_seat, Table.private.is_(False))
        .order_by(Table.id.desc())
        .limit(100)
    ).all()
    return [_summary(table) for table in found]


@router.get("/tables/running")
def tables_to_watch(s: DbSession = Depends(db_session)) -> list[dict[str, Any]]:
    """Games in play that anyone may watch as a spectator (not private ones), the most
    recently active first."""
    found = s.scalars(
        select(Table)
        .where(Table.status == "running", Table.private.is_(False))
        .order_by(Table.updated_at.desc())
        .limit(50)
    ).all()
    return [_summary(table) for table in found]


@router.get("/tables/mine", responses=refusals(401))
def my_tables(
    user: User = Depends(signed_in), s: DbSession = Depends(db_session)
) -> list[dict[str, Any]]:
    """Your tables, open, running and finished, and those with a seat kept for you, the most
    recently active first."""
    found = s.scalars(
        select(Table)
        .where(
            select(Seat.id)
            .where(
                Seat.table_id == Table.id,
                or_(Seat.user_id == user.id, Seat.reserved_for == user.id),
            )
            .exists()
        )
        .order_by(Table.updated_at.desc())
        .limit(200)
    ).all()
    return [{**_summary(table), "your_seat": _seat_number(table, user.id)} for table in found]


def _seat_number(table: Table, user_id: int) -> int | None:
    return next((seat.number for seat in table.seats if seat.user_id == user_id), None)


@router.get("/tables/{table_id}", responses=refusals(404, 422))
def table_info(
    table_id: ReadableTable,
    user: User | None = Depends(viewer),
    hub: Tables = Depends(tables),
    s: DbSession = Depends(db_session),
) -> dict[str, Any]:
    """The table and, once it runs, the game as the asking seat (or a spectator) sees it."""
    live = hub.current(table_id)
    table = s.get(Table, table_id)
    assert table is not None
    seat = live.seat_of(user.id) if user else None
    info = _summary(table)
    info["your_seat"] = seat
    info["you_host"] = user is not None and table.host_id == user.id
    if user is not None and (seat is not None or info["you_host"]):
        info["invite"] = table.invite
    if table.private and access.is_member(table, user.id if user else None):
        info["spectator_key"] = access.spectator_key(table)  # a link to watch, for a friend
    muted = chat.muted_by(s, user.id if user else None)
    info["game_state"] = hub.sync(live, seat, live.moves_made, muted)
    _add_present_ratings(s, table, info["seats"])
    return info


def _add_present_ratings(s: DbSession, table: Table, shown: list[dict[str, Any]]) -> None:
    """Each seat's rating in this game as it stands now (a person's, or the bot level's, as
    the ratings page lists them), for the player panels during play; None until rated."""
    users = [seat.user_id for seat in table.seats if seat.user_id is not None]
    bots = [seat.bot for seat in table.seats if seat.bot is not None]
    rows = s.scalars(
        select(Rating).where(
            Rating.game == table.game, or_(Rating.user_id.in_(users), Rating.bot.in_(bots))
        )
    ).all()
    by_user = {row.user_id: row.rating for row in rows if row.user_id is not None}
    by_bot = {row.bot: row.rating for row in rows if row.bot is not None}
    for entry, seat in zip(shown, table.seats, strict=True):
        if seat.user_id is not None:
            entry["rated"] = by_user.get(seat.user_id)
        else:
            entry["rated"] = by_bot.get(seat.bot) if seat.bot is not None else None


@router.post("/tables/{table_id}/join", responses=refusals(401, 403, 404, 409, 413, 422))
def join(
    table_id: ReadableTable,
    user: User = Depends(signed_in),
    hub: Tables = Depends(tables),
    s: DbSession = Depends(db_session),
) -> Joined:
    """Take a free seat of a table listed in the lobby, or the seat kept for you (another
    private table is joined through its invitation: 403 here)."""
    table = s.get(Table, table_id)
    kept = table is not None and any(seat.reserved_for == user.id for seat in table.seats)
    if table is not None and table.private and not kept:
        raise ApiError(403, "this table is private: join it through its invitation")
    s.commit()
    return Joined(seat=hub.join(table_id, user))


@router.get("/invites/{code}", responses=refusals(404))
def invitation(code: str, s: DbSession = Depends(db_session)) -> dict[str, Any]:
    """The table an invitation link leads to."""
    return _summary(_invited(s, code))


@router.post("/invites/{code}/join", responses=refusals(401, 403, 404, 409, 413))
def join_by_invitation(
    code: str,
    user: User = Depends(signed_in),
    hub: Tables = Depends(tables),
    s: DbSession = Depends(db_session),
) -> Joined:
    table_id = _invited(s, code).id
    s.commit()  # hand the connection back: the join takes its own (one pool on PostgreSQL)
    return Joined(seat=hub.join(table_id, user))


def _invited(s: DbSession, code: str) -> Table:
    table = s.scalar(select(Table).where(Table.invite == code)) if INVITE.match(code) else None
    if table is None:
        raise ApiError(404, "this invitation leads nowhere (a typo, or the table is gone)")
    return table


@router.post(
    "/tables/{table_id}/leave", status_code=204, responses=refusals(401, 403, 404, 409, 413, 422)
)
def leave(
    table_id: ReadableTable, user: User = Depends(signed_in), hub: Tables = Depends(tables)
) -> None:
    hub.leave(table_id, user)


@router.post("/tables/{table_id}/reclaim", responses=refusals(401, 403, 404, 409, 413, 422))
def reclaim(
    table_id: ReadableTable, user: User = Depends(signed_in), hub: Tables = Depends(tables)
) -> Joined:
    """Take back your seat from the bot that plays it (after a time-out, or after leaving)."""
    return Joined(seat=hub.reclaim(table_id, user))


class Rematch(BaseModel):
    id: int = Field(description="The rematch's table.")
    seat: int | None = Field(description="Your seat there.")


@router.post("/tables/{table_id}/rematch", responses=refusals(401, 403, 404, 409, 413, 422))
def rematch(
    table_id: ReadableTable, user: User = Depends(signed_in), hub: Tables = Depends(tables)
) -> Rematch:
    """Play a finished game again with the same people, options, clocks and bots: the first
    player to ask hosts it, each other player's seat is kept for them, and asking again (or
    as another player) seats you there."""
    new_id = hub.rematch(table_id, user)
    return Rematch(id=new_id, seat=hub.get(new_id).seat_of(user.id))


@router.post(
    "/tables/{table_id}/start", status_code=204, responses=refusals(401, 403, 404, 409, 413, 422)
)
def start(
    table_id: ReadableTable, user: User = Depends(signed_in), hub: Tables = Depends(tables)
) -> None:
    hub.start(table_id, user)


@router.post("/tables/{table_id}/moves", responses=refusals(400, 401, 403, 404, 409, 413, 422))
def submit_move(
    table_id: ReadableTable,
    body: MoveIn,
    user: User = Depends(signed_in),
    hub: Tables = Depends(tables),
) -> dict[str, Any]:
    """Play one move. `move` must be the next move number: a stale or repeated submission
    gets 409 with the current number and is never applied twice."""
    seat = _playing_seat(hub, table_id, user)
    after, line = hub.submit(table_id, seat, body.move, body.action)
    return outbound.move_message(
        after, seat, line.number, seat, line.action, line.events, line.note
    )


def _playing_seat(hub: Tables, table_id: int, user: User) -> int:
    return seat_playing(hub.current(table_id), user.id)


def seat_playing(live: LiveTable, user_id: int | None) -> int:
    """The seat the person plays at this table (not one a bot has taken over)."""
    seat = live.seat_of(user_id)
    if seat is None:
        raise ApiError(403, "you have no seat at this table")
    if live.seats[seat][1] is not None:
        raise ApiError(403, f"bot {live.seats[seat][1]} plays your seat now")
    return seat


class UndoIn(BaseModel):
    move: int = Field(ge=1, le=MAX_ID, description="The number the undo will have: moves made + 1.")


@router.post("/tables/{table_id}/undo", responses=refusals(400, 401, 403, 404, 409, 413, 422))
def undo(
    table_id: ReadableTable,
    body: UndoIn,
    user: User = Depends(signed_in),
    hub: Tables = Depends(tables),
) -> dict[str, Any]:
    """Take back your last move within your turn, if it revealed nothing and used no chance."""
    return hub.undo(table_id, _playing_seat(hub, table_id, user), body.move)


@router.get("/turns", responses=refusals(401))
def your_turns(
    user: User = Depends(signed_in),
    hub: Tables = Depends(tables),
    s: DbSession = Depends(db_session),
) -> list[dict[str, Any]]:
    """Running tables where it is your move, the one waiting longest first."""
    mine = s.scalars(
        select(Table)
        .join(Seat)
        .where(Table.status == "running", Seat.user_id == user.id)
        .order_by(Table.updated_at)
    ).all()
    s.commit()  # the tables below may need connections of their own
    waiting = []
    for table in mine:
        live = hub.current(table.id)
        seat = live.seat_of(user.id)
        if live.state is not None and seat is not None and live.state.to_move == seat:
            waiting.append({**_summary(table), "your_seat": seat, "since": _utc(table.updated_at)})
    return waiting


@router.get("/tables/{table_id}/replay", responses=refusals(404, 409, 422))
def replay_log(table_id: ReadableTable, hub: Tables = Depends(tables)) -> dict[str, Any]:
    """A finished game's move log as everyone may now read it: each move's seat and events
    (the replay shows the log up to the step it is at)."""
    live = hub.current(table_id)
    if live.status != "finished":
        raise ApiError(409, "replays are for finished games")
    lines = [
        {"number": number, "seat": seat, "events": outbound.move_events(events, None)}
        for number, seat, events in live.record().log()
    ]
    return {"moves": lines}


@router.get("/tables/{table_id}/replay/{step}", responses=refusals(404, 409, 422))
def replay_step(
    table_id: ReadableTable,
    step: Step,
    hub: Tables = Depends(tables),
    seat: int | None = Query(
        None,
        ge=0,
        le=7,
        description="See the step as this seat saw it, with its choices if it was to move "
        "(how the analysis draws a better move): once a game is over, its whole record is "
        "open to whoever may see it.",
    ),
) -> dict[str, Any]:
    """A finished game as everyone may now see it, after move `step` (0: the start)."""
    live = hub.current(table_id)
    if live.status != "finished":
        raise ApiError(409, "replays are for finished games")
    record = live.record()  # the moves that stand: undone ones are not part of the game
    if not 0 <= step <= len(record.actions):
        raise ApiError(404, f"step {step}: the game has moves 0..{len(record.actions)}")
    # The step's events come from the same replay as its board, so the two cannot disagree.
    at = record.step(step)
    state = at.state
    if seat is not None and seat >= record.players:
        raise ApiError(404, f"seat {seat}: the game has seats 0..{record.players - 1}")
    shown = {
        "step": step,
        "moves": len(record.actions),
        "action": at.action,
        "seat": at.seat,
        "events": outbound.move_events(at.events, seat),
        "view": state.view(seat),
        "result": state.result().to_json() if state.is_over else None,
    }
    if seat is not None:
        position = outbound.position(state, seat, step)
        shown.update(to_move=state.to_move, legal=position["legal"], choices=position["choices"])
    return shown


@router.get("/ratings/{game_id}", responses=refusals(404))
def ratings(game_id: str, s: DbSession = Depends(db_session)) -> dict[str, Any]:
    """Elo ratings in one game: people, and the bot levels rated apart."""
    try:
        game = games.get(game_id)
    except MeadowError as unknown:
        raise ApiError(404, str(unknown)) from None
    rows = s.scalars(
        select(Rating).where(Rating.game == game.id).order_by(Rating.rating.desc())
    ).all()
    return {
        "game": game.id,
        "people": [
            {"name": r.user.name, "rating": r.rating, "games": r.games} for r in rows if r.user
        ],
        "bots": [{"bot": r.bot, "rating": r.rating, "games": r.games} for r in rows if r.bot],
    }


@router.get("/tables/{table_id}/record", responses=refusals(404, 409, 422))
def record(
    table_id: ReadableTable, hub: Tables = Depends(tables), s: DbSession = Depends(db_session)
) -> dict[str, Any]:
    """The whole record, seed included: only once the game is over."""
    live = hub.current(table_id)
    if live.status != "finished":
        raise ApiError(409, "the record (with its seed) is available once the game is over")
    record = live.record().to_json()
    if live.hints:  # the record says so: its moves were played with the coach's help at hand
        record["hints"] = hints_used(s, table_id)
    return record


def _summary(table: Table) -> dict[str, Any]:
    game = games.get(table.game)
    return {
        "id": table.id,
        "game": table.game,
        "title": game.title,
        "players": table.players,
        "options": table.options,
        "mode": table.mode,
        "private": table.private,
        "hints": table.hints,
        "status": table.status,
        "moves_made": table.moves_made,
        "clock": {
            "move_seconds": table.move_seconds,
            "game_seconds": table.game_seconds,
            "grace_seconds": table.grace_seconds,
            "turn_since": _utc(table.turn_since).isoformat(),
        },
        "rematch": table.rematch_id,
        "seats": [
            {
                "seat": seat.number,
                "person": seat.user.name if seat.user else None,
                "bot": seat.bot,
                "used_ms": seat.used_ms,
                "kept_for": seat.reserved.name if seat.reserved else None,
                "rating": _rating_change(seat),
            }
            for seat in table.seats
        ],
    }


def _rating_change(seat: Seat) -> dict[str, float] | None:
    """The seat's rating before and after the game, once it is over."""
    if seat.rating_before is None or seat.rating_after is None:
        return None
    return {"before": seat.rating_before, "after": seat.rating_after}


def _utc(moment: datetime) -> datetime:
    """SQLite hands times back without their zone; they were written in UTC, and a browser
    elsewhere must not read them as its local time."""
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)

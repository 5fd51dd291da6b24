"""Table chat and muting: the social half of a table."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Depends, Query, Request
from pydantic import (
    BaseModel,
    Field,
    ValidationError,
    ValidatorFunctionWrapHandler,
    field_validator,
)
from sqlalchemy.orm import Session as DbSession

from meadow.server import chat
from meadow.server.deps import (
    DatabaseRoute,
    ReadableTable,
    db_session,
    db_writer,
    settings,
    signed_in,
    site_limits,
    tables,
    viewer,
)
from meadow.server.errors import refusals
from meadow.server.limits import Limits, Rule, client_address
from meadow.server.routers.tables import MAX_ID
from meadow.server.settings import Settings
from meadow.server.tables import Tables
from meadow.store import User

router = APIRouter(prefix="/api", tags=["chat"], route_class=DatabaseRoute)


class ChatIn(BaseModel):
    # The schema says the bounds (a request it accepts is refused only for a line that is
    # blank once cleaned); a refusal says them in words.
    text: str = Field(
        min_length=1, max_length=chat.MAX_CHARS, description="Plain text; shown escaped."
    )

    @field_validator("text", mode="wrap")
    @classmethod
    def _bounds_in_words(cls, value: Any, handler: ValidatorFunctionWrapHandler) -> str:
        try:
            return handler(value)
        except ValidationError:
            if not isinstance(value, str):
                raise
            if not value:
                raise ValueError("a chat message needs some text") from None
            raise ValueError(
                f"a chat message is at most {chat.MAX_CHARS} characters, not {len(value)}"
            ) from None


@router.get("/tables/{table_id}/chat", responses=refusals(404, 422))
def chat_lines(
    table_id: ReadableTable,
    after: int = Query(0, ge=0, le=MAX_ID, description="Only lines numbered after this."),
    user: User | None = Depends(viewer),
    s: DbSession = Depends(db_session),
) -> list[dict[str, Any]]:
    """What was said at the table, oldest first (the replay shows it beside the moves:
    each line has the number of moves made when it was said). Lines by people you muted
    are left out."""
    muted = chat.muted_by(s, user.id if user else None)
    return chat.readable(chat.stored_lines(s, table_id, after), muted)


@router.post(
    "/tables/{table_id}/chat",
    status_code=201,
    responses=refusals(400, 401, 403, 404, 409, 413, 422, 429),
)
def say(
    request: Request,
    table_id: ReadableTable,
    body: ChatIn,
    user: User = Depends(signed_in),
    hub: Tables = Depends(tables),
    config: Settings = Depends(settings),
    limits: Limits = Depends(site_limits),
) -> dict[str, Any]:
    """Say something at the table, seated or watching. A person, a table and an address
    each have a few lines a minute at most (429), each of at most 500 characters of plain
    text."""
    text = chat.cleaned(body.text)  # a blank line is refused before it counts
    member = chat.is_member(hub, table_id, user.id)
    rules = _chat_rules(table_id, user, client_address(request), config, member)
    with limits.spending(rules):
        return chat.say(hub, table_id, user, text)


def _chat_rules(
    table_id: int, user: User, address: str, config: Settings, member: bool
) -> list[Rule]:
    """What a line counts against: its writer; its address, since fresh guests cost
    nothing and many are one flood from one address; and, for those watching, its table,
    which many addresses could flood together. The seats' own lines do not count there, so
    that a flood of watchers never silences the people playing."""
    rules = [
        Rule(f"chat:{user.id}", config.chat_lines_per_minute, 60, "chat messages"),
        Rule(
            f"chat-address:{address}",
            config.chat_lines_per_address_per_minute,
            60,
            "chat messages from your address",
        ),
    ]
    if not member:
        rules.append(
            Rule(
                f"chat-table:{table_id}",
                config.chat_lines_per_table_per_minute,
                60,
                "chat messages at this table from those watching it",
            )
        )
    return rules


@router.put(
    "/accounts/me/mutes/{name}", status_code=204, responses=refusals(400, 401, 403, 404, 422)
)
def mute(
    name: str,
    user: User = Depends(signed_in),
    hub: Tables = Depends(tables),
    w: DbSession = Depends(db_writer),
) -> None:
    """Read nothing more that `name` writes, at any table."""
    chat.mute(hub, w, user, name, muted=True)


@router.delete("/accounts/me/mutes/{name}", status_code=204, responses=refusals(401, 403, 404, 422))
def unmute(
    name: str,
    user: User = Depends(signed_in),
    hub: Tables = Depends(tables),
    w: DbSession = Depends(db_writer),
) -> None:
    chat.mute(hub, w, user, name, muted=False)

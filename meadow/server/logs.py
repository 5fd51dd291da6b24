"""The server's log: readable lines by default, one JSON object a line with
`MEADOW_LOG_FORMAT=json` (python-json-logger), and a request id in both the answer's
`X-Request-ID` header and every JSON line written while serving that request.

The id is the request's own `X-Request-ID` when that is a short, plain token (a proxy in
front made it: nginx's `$request_id`), or a new one. It lives in a context variable: the
request's task, and the worker threads it hands work to (which copy the context), log with
it; threads of the server's own (the log writer, the clocks) log without one.
"""

from __future__ import annotations

import copy
import logging
import re
import secrets
from contextvars import ContextVar
from typing import Any

from pythonjsonlogger.core import RESERVED_ATTRS
from pythonjsonlogger.json import JsonFormatter
from starlette.types import ASGIApp, Message, Receive, Scope, Send

REQUEST_ID: ContextVar[str | None] = ContextVar("meadow_request_id", default=None)

# What a request may name itself: short, and nothing a log reader could mistake for more.
SANE_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._:-]{0,63}")


class RequestId:
    """Gives each request and socket its id (plain ASGI, like `protect`)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        given = dict(scope.get("headers", [])).get(b"x-request-id", b"").decode("latin-1")
        request_id = given if SANE_ID.fullmatch(given) else secrets.token_hex(8)
        header = (b"x-request-id", request_id.encode())

        async def with_id(message: Message) -> None:
            if message["type"] in ("http.response.start", "websocket.accept"):
                message["headers"] = [*message.get("headers", []), header]
            await send(message)

        token = REQUEST_ID.set(request_id)
        await self.app(scope, receive, with_id)
        # Not reset when the request failed: the server's own line about the failure, written
        # in the same task, carries the id as well. (Each request has a task of its own.)
        REQUEST_ID.reset(token)


class WithRequestId(logging.Filter):
    """Puts the request id, if there is one, on each record a handler writes."""

    def filter(self, record: logging.LogRecord) -> bool:
        request_id = REQUEST_ID.get()
        if request_id is not None:
            record.request_id = request_id
        return True


class JsonLines(JsonFormatter):
    """One JSON object a line: time (UTC), level, logger, message, request_id when there is
    one, exc_info with a traceback; an access line has its method, path and status apart."""

    def __init__(self) -> None:
        super().__init__(
            "%(levelname)s %(name)s %(message)s",
            rename_fields={"levelname": "level", "name": "logger"},
            # uvicorn's coloured copy of some messages is for terminals.
            reserved_attrs=[*RESERVED_ATTRS, "color_message"],
            timestamp="time",
        )

    def add_fields(
        self, log_data: dict[str, Any], record: logging.LogRecord, message_dict: dict[str, Any]
    ) -> None:
        super().add_fields(log_data, record, message_dict)
        args = record.args
        if record.name == "uvicorn.access" and isinstance(args, tuple) and len(args) == 5:
            client, method, path, _version, status = args
            log_data.update(client=client, method=method, path=path, status=status)


def config(log_format: str) -> dict[str, Any]:
    """The logging configuration `uvicorn` applies at start: its own (readable lines) for
    "text", JSON lines for "json"; Meadow's loggers at INFO and everyone else's warnings
    through the same handlers."""
    from uvicorn.config import LOGGING_CONFIG

    settings: dict[str, Any] = copy.deepcopy(LOGGING_CONFIG)
    settings["filters"] = {"request_id": {"()": WithRequestId}}
    if log_format == "json":
        settings["formatters"]["json"] = {"()": JsonLines}
        for handler in settings["handlers"].values():
            handler["formatter"] = "json"
            handler["filters"] = ["request_id"]
    settings["loggers"]["meadow"] = {"handlers": ["default"], "level": "INFO", "propagate": False}
    settings["root"] = {"handlers": ["default"], "level": "WARNING"}
    return settings

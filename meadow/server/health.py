"""What a load balancer, a container's health check and Prometheus ask the process:
`/healthz` (alive), `/readyz` (fit to be sent requests) and `/metrics`.

Outside /api on purpose: no route of them counts against a limit, needs a session or a CSRF
header, or falls into the API's catch-all; none is in the API's description.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response

from meadow.server import metrics

log = logging.getLogger("meadow.server")

router = APIRouter(include_in_schema=False)

READY_SECONDS = 3.0  # a database or Redis slower than this to answer counts as not ready


@router.api_route("/healthz", methods=["GET", "HEAD"])
async def alive() -> JSONResponse:
    """The process answers: its event loop runs (nothing else is asked)."""
    return JSONResponse({"status": "alive"})


@router.api_route("/readyz", methods=["GET", "HEAD"])
async def ready(request: Request) -> JSONResponse:
    """200 when the process may be sent requests: not stopping, its database answers with
    the schema this code expects, and Redis answers (when the site has one); else 503 with
    the reason in a few words."""
    state = request.app.state
    if state.drain.draining:
        return _unready("draining", "the process is stopping; its tables go to the others")
    # One check at a time: a database that does not answer holds one thread, not one per
    # request of the balancer.
    checking: asyncio.Future[str | None] | None = getattr(state, "readiness", None)
    if checking is None or checking.done():
        checking = state.readiness = asyncio.ensure_future(asyncio.to_thread(_problem, state))
    try:
        problem = await asyncio.wait_for(asyncio.shield(checking), READY_SECONDS)
    except TimeoutError:
        problem = f"the database or Redis did not answer within {READY_SECONDS:.0f} s"
    if problem is not None:
        return _unready("unready", problem)
    return JSONResponse({"status": "ready"})


def _problem(state: Any) -> str | None:
    try:
        behind = state.db.schema_problem()
    except Exception as exc:
        log.warning("readyz: the database does not answer (%s)", type(exc).__name__)
        return "the database does not answer"
    if behind is not None:
        return behind
    try:
        state.tables.cluster.reachable()
    except Exception as exc:
        log.warning("readyz: Redis does not answer (%s)", type(exc).__name__)
        return "Redis does not answer"
    return None


def _unready(status: str, reason: str) -> JSONResponse:
    return JSONResponse({"status": status, "reason": reason}, status_code=503)


@router.get("/metrics")
async def prometheus(request: Request) -> Response:
    """The process's metrics, for a scraper that shows the token (`metrics.answer`)."""
    return metrics.answer(request)

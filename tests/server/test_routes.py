"""Every route of the server's routers, as FastAPI holds them (no server started)."""

from __future__ import annotations

import importlib
import inspect
import pkgutil

from fastapi import APIRouter
from fastapi.routing import APIRoute

import meadow.server
from meadow.server.deps import DatabaseRoute


def routers() -> list[APIRouter]:
    found = []
    for module in pkgutil.walk_packages(meadow.server.__path__, "meadow.server."):
        for value in vars(importlib.import_module(module.name)).values():
            if isinstance(value, APIRouter) and value not in found:
                found.append(value)
    return found


def test_every_plain_function_route_hands_its_connections_back_in_its_thread():
    # The lobby froze under a burst when a route kept its connection past its own thread
    # (tests/server/attacks/test_bursts.py); a router made without DatabaseRoute would again.
    plain = [
        route
        for router in routers()
        for route in router.routes
        if isinstance(route, APIRoute) and not inspect.iscoroutinefunction(route.endpoint)
    ]
    assert len(plain) > 20
    assert [route.path for route in plain if not isinstance(route, DatabaseRoute)] == []

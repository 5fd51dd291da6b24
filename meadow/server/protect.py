"""What every HTTP answer carries and every request that changes something must show: the
browser's security headers, and proof that the request comes from this site's own pages.

Plain ASGI, not Starlette's BaseHTTPMiddleware: a move's request passes through both, and
they must cost next to nothing."""

from __future__ import annotations

from urllib.parse import urlsplit

import orjson
from starlette.types import ASGIApp, Message, Receive, Scope, Send

# Scripts, styles, images and sockets only from this site; no page of it inside a frame.
# Inline styles stay allowed: SVG pieces are coloured through style attributes.
CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
    "img-src 'self' data:; connect-src 'self'; font-src 'self'; object-src 'none'; "
    "base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)
HSTS = "max-age=31536000"  # a year: only sent when the cookies are for HTTPS only

UNSAFE = frozenset({"POST", "PUT", "PATCH", "DELETE"})
SAME_SITE = frozenset({b"same-origin", b"none"})  # none: typed in, or a bookmark


class SecurityHeaders:
    """Adds the security headers to every HTTP answer (the pages, the API, the errors)."""

    def __init__(self, app: ASGIApp, https_only: bool) -> None:
        self.app = app
        self.headers = [
            (b"content-security-policy", CSP.encode()),
            (b"x-frame-options", b"DENY"),
            (b"x-content-type-options", b"nosniff"),
            (b"referrer-policy", b"same-origin"),  # invitation links never leave the site
            (b"cross-origin-opener-policy", b"same-origin"),
        ]
        if https_only:
            self.headers.append((b"strict-transport-security", HSTS.encode()))

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", []), *self.headers]
            await send(message)

        await self.app(scope, receive, with_headers)


class SameSite:
    """Refuses (403) a request that changes something when the browser says it comes from
    another site: `Sec-Fetch-Site`, or else an `Origin` that is not this host. Sign-up,
    log-in and "play as a guest" have no session to carry a CSRF token yet, and a page
    elsewhere must not swap a person's session for one of its own. Clients that are not
    browsers send neither header, and are no one's victim."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["method"] in UNSAFE and _cross_site(scope):
            body = orjson.dumps({"error": "a request from another site's page: refused"})
            await send(
                {
                    "type": "http.response.start",
                    "status": 403,
                    "headers": [(b"content-type", b"application/json")],
                }
            )
            await send({"type": "http.response.body", "body": body})
            return
        await self.app(scope, receive, send)


def _cross_site(scope: Scope) -> bool:
    headers = dict(scope.get("headers", []))
    fetch_site = headers.get(b"sec-fetch-site")
    if fetch_site is not None:
        return fetch_site not in SAME_SITE
    origin = headers.get(b"origin")
    if origin is None:
        return False
    host = headers.get(b"host", b"").decode("latin-1")
    return urlsplit(origin.decode("latin-1")).netloc != host

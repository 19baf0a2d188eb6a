"""The web server's HTTP side (Starlette): pages, the live updates, the static files, and
the limits that keep a hall full of phones (or one hostile client) from taking it over.

Read-only by construction: every route is GET (or HEAD); nothing a request carries is
written anywhere; the pages show only what the standings show.  Each client address has
a budget of requests (:class:`Limits`); live streams are counted in total and per
address; every response says what a browser may do with it (a strict
Content-Security-Policy: our own scripts and styles only, no frames).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections.abc import AsyncIterator, Callable
from importlib import resources
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, PlainTextResponse, Response, StreamingResponse
from starlette.routing import Route
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from firmware_py.games.punch_cards.web.feed import Feed
from firmware_py.games.punch_cards.web.limits import Limits
from firmware_py.games.punch_cards.web.pages import (
    QUERY_LIMIT,
    TITLE,
    document,
    player_main,
    search_main,
    standings_main,
)
from games.punch_cards import name_key

KEEPALIVE_S = 15.0
"""A live stream quiet this long gets the status again: the phone sees the server is
there (its own watchdog says "offline" after two missed), and proxies keep it open."""
RETRY_MS = 2_000
"""How soon a phone's EventSource reconnects after the stream drops."""
SECURITY_HEADERS = [
    (
        b"content-security-policy",
        b"default-src 'self'; img-src 'self' data:; frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
    ),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
]


class RateLimit:
    """A token bucket per client address: a page and its two static files cost three
    tokens; a client over budget gets 429 and Retry-After, everyone else is served."""

    IDLE_S = 300.0
    """A full bucket untouched this long is forgotten (the table stays small)."""

    def __init__(self, app: ASGIApp, limits: Limits) -> None:
        self.app = app
        self.limits = limits
        self.buckets: dict[str, tuple[float, float]] = {}
        self.swept = time.monotonic()

    def take(self, client: str, now: float) -> bool:
        tokens, at = self.buckets.get(client, (float(self.limits.burst), now))
        tokens = min(float(self.limits.burst), tokens + (now - at) * self.limits.rate_per_s)
        if tokens < 1.0:
            self.buckets[client] = (tokens, now)
            return False
        self.buckets[client] = (tokens - 1.0, now)
        if now - self.swept > self.IDLE_S:
            self.swept = now
            self.buckets = {c: v for c, v in self.buckets.items() if now - v[1] < self.IDLE_S}
        return True

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        if not self.take(client_of(scope), time.monotonic()):
            response = PlainTextResponse(
                "Too many requests: wait a few seconds.", status_code=429, headers={"Retry-After": "5"}
            )
            await response(scope, receive, _with_headers(send))
            return
        await self.app(scope, receive, _with_headers(send))


def _with_headers(send: Send) -> Send:
    async def sending(message: Message) -> None:
        if message["type"] == "http.response.start":
            message["headers"] = [*message.get("headers", []), *SECURITY_HEADERS]
        await send(message)

    return sending


def client_of(scope: Scope) -> str:
    client = scope.get("client")
    return str(client[0]) if client else "?"


def _asset(name: str) -> bytes:
    return resources.files("firmware_py.games.punch_cards.web").joinpath("assets", name).read_bytes()


class Streams:
    """Live streams open now, in all and per client address."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self.total = 0
        self.by_client: dict[str, int] = {}

    def open(self, client: str) -> bool:
        if self.total >= self.limits.streams or self.by_client.get(client, 0) >= self.limits.streams_per_client:
            return False
        self.total += 1
        self.by_client[client] = self.by_client.get(client, 0) + 1
        return True

    def close(self, client: str) -> None:
        self.total -= 1
        left = self.by_client[client] - 1
        if left:
            self.by_client[client] = left
        else:
            del self.by_client[client]


class LiveStream(StreamingResponse):
    """A server-sent event stream that gives its place back however it ends (the phone
    gone before the first byte included, when the generator never ran)."""

    def __init__(self, content: AsyncIterator[bytes], closed: Callable[[], None]) -> None:
        super().__init__(
            content, media_type="text/event-stream", headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"}
        )
        self.closed = closed

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        try:
            await super().__call__(scope, receive, send)
        finally:
            self.closed()


def _event(kind: str, data: dict[str, Any]) -> bytes:
    return f"event: {kind}\ndata: {json.dumps(data, ensure_ascii=False, separators=(',', ':'))}\n\n".encode()


class Pages:
    """Each view's live update, made once per feed version and sent to every phone on
    that view (500 phones on the standings cost one rendering a change)."""

    def __init__(self, feed: Feed) -> None:
        self.feed = feed
        self.made: dict[str, bytes] = {}
        self.version = -1

    def main(self, view: str) -> str:
        snap = self.feed.snapshot
        if view == "standings":
            return standings_main(snap)
        return player_main(snap, view.removeprefix("player:"))

    def update(self, view: str) -> bytes:
        if self.version != self.feed.version:
            self.made.clear()
            self.version = self.feed.version
        found = self.made.get(view)
        if found is None:
            found = _event("page", {"main": self.main(view), "status": self.feed.status.as_json()})
            self.made[view] = found
        return found


def create_app(feed: Feed, limits: Limits = Limits(), read_ledger: bool = True) -> Starlette:
    """The web app over ``feed``; ``read_ledger``: the app runs the feed's reading task
    while it serves (tests that set the feed by hand leave it off)."""

    @contextlib.asynccontextmanager
    async def lifespan(_app: Starlette) -> AsyncIterator[None]:
        reading = asyncio.create_task(feed.run()) if read_ledger else None
        try:
            yield
        finally:
            if reading is not None:
                reading.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await reading

    streams = Streams(limits)
    pages = Pages(feed)
    css, js = _asset("app.css"), _asset("app.js")

    def page(title: str, view: str, main: str, status_code: int = 200) -> HTMLResponse:
        return HTMLResponse(
            document(title, view, main, feed.status),
            status_code=status_code,
            headers={"Cache-Control": "no-store"},
        )

    async def standings(request: Request) -> Response:
        return page(f"{TITLE} standings", "standings", pages.main("standings"))

    async def player(request: Request) -> Response:
        name = str(request.path_params["name"])[:QUERY_LIMIT]
        key = name_key(name)
        snap = feed.snapshot
        found = snap is None or key in snap.players  # not read yet: the page waits for it, live
        view = f"player:{key}"
        return page(f"{name} · {TITLE}", view if found else "", pages.main(view), 200 if found else 404)

    async def search(request: Request) -> Response:
        query = request.query_params.get("q", "")[:QUERY_LIMIT]
        return page(f"Find a player · {TITLE}", "", search_main(feed.snapshot, query))

    async def events(request: Request) -> Response:
        view = request.query_params.get("view", "standings")[: QUERY_LIMIT + 7]
        if view != "standings" and not view.startswith("player:"):
            return PlainTextResponse("view is standings or player:<name>", status_code=400)
        if view.startswith("player:"):
            view = "player:" + name_key(view.removeprefix("player:"))
            snap = feed.snapshot
            if snap is not None and view.removeprefix("player:") not in snap.players:
                return PlainTextResponse("no such player", status_code=404)  # (so no page per made-up name)
        client = client_of(request.scope)
        if not streams.open(client):
            return PlainTextResponse(
                "Too many live pages open: try again shortly.", status_code=503, headers={"Retry-After": "10"}
            )

        async def stream() -> AsyncIterator[bytes]:
            yield f"retry: {RETRY_MS}\n\n".encode()
            while not feed.closing:
                version = feed.version
                yield pages.update(view)
                while not await feed.wait(version, KEEPALIVE_S):
                    yield _event("status", feed.status.as_json())

        return LiveStream(stream(), lambda: streams.close(client))

    async def static_css(request: Request) -> Response:
        return Response(css, media_type="text/css", headers={"Cache-Control": "max-age=300"})

    async def static_js(request: Request) -> Response:
        return Response(js, media_type="text/javascript", headers={"Cache-Control": "max-age=300"})

    routes = [
        Route("/", standings, methods=["GET", "HEAD"]),
        Route("/player/{name:path}", player, methods=["GET", "HEAD"]),
        Route("/search", search, methods=["GET", "HEAD"]),
        Route("/events", events, methods=["GET"]),
        Route("/static/app.css", static_css, methods=["GET", "HEAD"]),
        Route("/static/app.js", static_js, methods=["GET", "HEAD"]),
    ]
    app = Starlette(routes=routes, lifespan=lifespan)
    app.add_middleware(RateLimit, limits=limits)
    app.state.streams = streams
    return app

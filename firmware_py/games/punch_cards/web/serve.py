"""``ringside web``: the standings on phones, served beside the ledger by uvicorn.

The ledger is the cabinet config's (``[game.punch_cards] ledger``, else the data
folder's ``punch_cards.sqlite3``), opened read-only.  uvicorn's own limits back the
app's: at most :attr:`Limits.streams` + :data:`SPARE_CONNECTIONS` connections at once
(then 503), small request heads, short keep-alive.  SIGTERM stops it cleanly.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import signal
import socket
from types import FrameType
from typing import Any

from firmware_py.games.punch_cards.ledger import Ledger
from firmware_py.games.punch_cards.ledger_link import ledger_url
from firmware_py.games.punch_cards.web.feed import Feed
from firmware_py.games.punch_cards.web.limits import Limits
from hal.config import CabinetConfig

log = logging.getLogger("ringside.web")

DEFAULT_PORT = 8035
SPARE_CONNECTIONS = 200
"""Connections beyond the live streams: page loads and static files while all streams are open."""
GRACE_S = 2
"""On SIGTERM, open live streams are given this long, then cut (a phone reconnects by itself)."""
HEAD_LIMIT_BYTES = 16 * 1024
"""A request head larger than this is refused (h11's incomplete-event limit)."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--config", help="cabinet TOML naming the ledger (default: the shipped 2-station config)")
    parser.add_argument("--data", help="data folder holding punch_cards.sqlite3 when the config names no ledger")
    parser.add_argument("--host", default="0.0.0.0", help="address to listen on (default 0.0.0.0: the hall's network)")
    parser.add_argument("--port", type=int, default=DEFAULT_PORT, help=f"port (default {DEFAULT_PORT})")
    limits = Limits()
    parser.add_argument("--streams", type=int, default=limits.streams, help="live pages open at once, in all")
    parser.add_argument(
        "--streams-per-client",
        type=int,
        default=limits.streams_per_client,
        help="live pages open at once from one address (phones behind one NAT share one)",
    )
    parser.add_argument("--rate", type=float, default=limits.rate_per_s, help="requests a second per address")
    parser.add_argument("--burst", type=int, default=limits.burst, help="requests in a burst per address")


def feed_for(url: str) -> Feed:
    listen = url if url.startswith(("postgresql://", "postgres://")) else None
    return Feed(lambda: Ledger(url, read_only=True), listen_url=listen)


def uvicorn_config(app: Any, host: str, port: int, limits: Limits) -> Any:
    import uvicorn

    return uvicorn.Config(
        app,
        host=host,
        port=port,
        log_config=None,  # the cabinet's logging (stderr, the journal)
        access_log=False,
        server_header=False,
        proxy_headers=False,  # no proxy in front: the client's address is the socket's
        limit_concurrency=limits.streams + SPARE_CONNECTIONS,
        timeout_keep_alive=5,
        timeout_graceful_shutdown=GRACE_S,  # live streams never end by themselves
        h11_max_incomplete_event_size=HEAD_LIMIT_BYTES,
        lifespan="on",
    )


async def serve(url: str, host: str, port: int, limits: Limits) -> None:
    import uvicorn

    from firmware_py.games.punch_cards.web.server import create_app

    feed = feed_for(url)

    class Server(uvicorn.Server):
        """Ends the live streams as the server stops: they never end by themselves, and
        uvicorn waits for every open response before it exits."""

        async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
            feed.close()
            await super().shutdown(sockets)

        def handle_exit(self, sig: int, frame: FrameType | None) -> None:
            """A stop is one log line and exit 0 (uvicorn would die of the signal after
            shutting down), as ``ringside run`` stops."""
            if not self.should_exit:
                log.info("web: stopping (%s)", signal.Signals(sig).name)
            self.should_exit = True

    server = Server(uvicorn_config(create_app(feed, limits), host, port, limits))
    where = "PostgreSQL" if url.startswith(("postgresql://", "postgres://")) else url
    log.info("web: Punch Cards standings on http://%s:%d/ (ledger: %s, read-only)", host, port, where)
    await server.serve()


def run(config: CabinetConfig, args: argparse.Namespace) -> int:
    limits = Limits(
        rate_per_s=args.rate, burst=args.burst, streams=args.streams, streams_per_client=args.streams_per_client
    )
    asyncio.run(serve(ledger_url(config), args.host, args.port, limits))
    return 0

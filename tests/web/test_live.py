"""``ringside web`` as it runs (its own process, on loopback), read as a phone's
EventSource reads it: the standings at once, a duel as the next update, and live pages
past the per-address limit refused with 503 until one closes."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx2 as httpx
import pytest

from firmware_py.games.punch_cards.ledger import Ledger
from tests.web.support import WebServer, duel, new_ledger, serving

TIMEOUT = httpx.Timeout(30.0)


@pytest.fixture
def event(tmp_path: Path) -> Iterator[tuple[Ledger, WebServer]]:
    server = WebServer(tmp_path, None, "--streams-per-client", "2")
    with serving(new_ledger(tmp_path / "punch_cards.sqlite3"), server) as both:
        yield both


def pages(lines: Iterator[str]) -> Iterator[dict[str, Any]]:
    """Each ``page`` event's data."""
    kind = ""
    for line in lines:
        if line.startswith("event: "):
            kind = line[7:]
        elif line.startswith("data: ") and kind == "page":
            yield json.loads(line[6:])


def test_a_phone_gets_the_standings_then_each_duel_and_a_third_stream_waits(event: tuple[Ledger, WebServer]) -> None:
    ledger, server = event
    with httpx.Client(base_url=server.url, timeout=TIMEOUT) as http:
        with http.stream("GET", "/events", params={"view": "player:Bob"}) as first:
            assert first.headers["content-type"].startswith("text/event-stream")
            updates = pages(first.iter_lines())
            now = next(updates)
            assert now["status"]["state"] == "live" and "No duels yet." in now["main"]
            with http.stream("GET", "/events") as second:
                assert second.status_code == 200
                third = http.get("/events")
                assert third.status_code == 503 and third.headers["retry-after"] == "10"
            card = duel(ledger, "duel-1", "Bob", "Carla")
            after = next(updates)
            assert f"took card #{card}" in after["main"] and "Carla" in after["main"]
        with http.stream("GET", "/events") as again:  # the places were given back
            assert again.status_code == 200


@pytest.mark.realtime  # a signal into a running process
def test_a_stop_with_phones_connected_is_clean(event: tuple[Ledger, WebServer]) -> None:
    """SIGTERM ends the live streams (they never end by themselves) and the server exits 0
    with no traceback in its log (systemd's stop, an update's restart)."""
    _ledger, server = event
    assert server.process is not None
    with httpx.Client(base_url=server.url, timeout=TIMEOUT) as http, http.stream("GET", "/events") as stream:
        lines = stream.iter_lines()
        next(pages(lines))
        server.process.terminate()
        assert server.process.wait(30) == 0
        list(lines)  # the stream has ended: reading it to the end returns
    log = server.log.read_text()
    assert "Traceback" not in log and "ERROR" not in log and "Finished server process" in log

"""The web server beside an event's PostgreSQL ledger: a connection that cannot write,
and live updates by NOTIFY (sent when an entry commits, never for a refused one)."""

from __future__ import annotations

import asyncio

import psycopg
import pytest

from firmware_py.games.punch_cards.ledger import Ledger, LedgerClosed
from firmware_py.games.punch_cards.ledger.backends import ENTRY_CHANNEL
from firmware_py.games.punch_cards.web import feed as feed_module
from firmware_py.games.punch_cards.web.serve import feed_for
from tests.firmware_py.ledger.pg_server import PostgresServer
from tests.web.support import duel, new_ledger

WAIT_S = 20.0
"""Time allowed for an answer that comes at once when all is well (a loaded machine)."""


def test_the_web_reads_the_server_through_a_connection_that_cannot_write(postgres: PostgresServer) -> None:
    url = postgres.schema_url("web")
    new_ledger(url).close()
    reader = Ledger(url, read_only=True)
    before = reader.last_entry()
    with pytest.raises(Exception, match="read-only"):
        reader.register("k", "Zed", "ABCD")
    assert reader.last_entry() == before
    assert len(reader.standings()) == 5
    reader.close()


def test_every_entry_is_announced_when_it_commits_and_a_refused_one_is_not(postgres: PostgresServer) -> None:
    url = postgres.schema_url("web")
    ledger = new_ledger(url)
    with psycopg.connect(postgres.url, autocommit=True) as listener:
        listener.execute(f"LISTEN {ENTRY_CHANNEL}")
        duel(ledger, "duel-1", "Ann", "Bob")
        heard = list(listener.notifies(timeout=WAIT_S, stop_after=1))
        assert [n.channel for n in heard] == [ENTRY_CHANNEL]
        ledger.set_closing_time("close", ledger.now_us())
        assert len(list(listener.notifies(timeout=WAIT_S, stop_after=1))) == 1
        with pytest.raises(LedgerClosed):
            duel(ledger, "duel-2", "Carla", "Dmitri Ivanov")
        assert list(listener.notifies(timeout=1.0, stop_after=1)) == []
    ledger.close()


def test_the_feed_follows_the_server_by_notify_alone(postgres: PostgresServer, monkeypatch: pytest.MonkeyPatch) -> None:
    """With the heartbeat an hour away, only the cabinets' NOTIFY can bring a duel."""
    monkeypatch.setattr(feed_module, "HEARTBEAT_S", 3600.0)
    url = postgres.schema_url("web")
    ledger = new_ledger(url)

    async def scenario() -> tuple[int, int, str]:
        feed = feed_for(url)
        reading = asyncio.create_task(feed.run())
        while feed.snapshot is None:
            assert await feed.wait(feed.version, WAIT_S)
        first = feed.snapshot.entry
        card = await asyncio.to_thread(duel, ledger, "duel-1", "Ann", "Bob")
        while feed.snapshot.entry == first:
            assert await feed.wait(feed.version, WAIT_S), "no new snapshot after a duel"
        page = feed.snapshot.players["ann"]
        reading.cancel()
        return first, card, " ".join(f"{s}:{n}" for s, n in page.held)

    _first, card, held = asyncio.run(scenario())
    assert f"{card}:Bob" in held
    ledger.close()

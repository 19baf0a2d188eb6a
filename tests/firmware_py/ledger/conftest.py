"""Ledgers to test on: a SQLite file, and a schema of a throwaway PostgreSQL server started
once per test session on loopback (see :mod:`pg_server`).  In CI (``CI=true``) a missing
PostgreSQL is a failure; elsewhere its tests skip, saying how to install it."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from firmware_py.games.punch_cards.ledger import Ledger
from tests.firmware_py.ledger.pg_server import PostgresServer, find_bindir
from tests.firmware_py.ledger.support import FAST_PINS, SEED


class Clock:
    """Wall time for a ledger under test: Unix µs, moved by hand."""

    def __init__(self, now_us: int = 1_750_000_000_000_000) -> None:
        self.now_us = now_us

    def __call__(self) -> int:
        return self.now_us

    def advance(self, seconds: float) -> None:
        self.now_us += int(seconds * 1_000_000)


@pytest.fixture(scope="session")
def postgres() -> Iterator[PostgresServer]:
    bindir = find_bindir()
    if bindir is None:
        message = "no PostgreSQL server binaries (/usr/lib/postgresql/*/bin): apt-get install postgresql"
        if os.environ.get("CI") == "true":
            pytest.fail(f"{message} — .ci/run installs it; in CI a missing server is a failure")
        pytest.skip(message)
    server = PostgresServer(bindir)
    try:
        server.init()
        server.start()
        yield server
    finally:
        try:
            server.stop("immediate")
        finally:
            server.remove()


StoreFactory = Callable[[], str]


@pytest.fixture(params=["sqlite", "postgresql"])
def new_url(request: pytest.FixtureRequest, tmp_path: Path) -> StoreFactory:
    """Makes URLs of new, empty ledgers of one store kind (both kinds, by parameter)."""
    if request.param == "sqlite":
        made = iter(range(1_000_000))
        return lambda: str(tmp_path / f"ledger{next(made)}.sqlite3")
    server: PostgresServer = request.getfixturevalue("postgres")
    return server.schema_url


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def ledger(new_url: StoreFactory, clock: Clock) -> Iterator[Ledger]:
    opened = Ledger(new_url(), event_seed=SEED, clock=clock, pin_hasher=FAST_PINS, cabinet="test")
    yield opened
    opened.close()

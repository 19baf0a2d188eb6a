"""A PostgreSQL transaction that fails closes its pipeline without a second error on
stderr.  Issue 36: psycopg printed "error ignored terminating Pipeline" when a call failed
with answers still owed to its pipeline: a server error after a statement sent ahead, or
a connection cut by the call's deadline."""

from __future__ import annotations

import logging
import threading

import pytest

from firmware_py.games.punch_cards.ledger import Ledger, LedgerCorrupt, LedgerUnreachable
from firmware_py.games.punch_cards.ledger.backends import Tx, _shut
from tests.firmware_py.ledger.conftest import FAST_PINS, SEED
from tests.firmware_py.ledger.pg_server import PostgresServer


def refused_after_a_statement_sent_ahead(tx: Tx) -> None:
    tx.send("DELETE FROM meta")  # the ledger's trigger refuses it; the answer is owed
    raise ValueError("the work fails before reading it")


def cut_mid_call(tx: Tx) -> None:
    tx.send("SELECT 1")
    _shut(tx.conn.fileno(), threading.Event())  # type: ignore[attr-defined]  # as the deadline's timer does
    tx.value("SELECT 2")


@pytest.mark.parametrize(
    ("work", "raised"),
    [(refused_after_a_statement_sent_ahead, ValueError), (cut_mid_call, LedgerUnreachable)],
    ids=["server error owed", "connection cut"],
)
def test_a_failed_call_closes_its_pipeline_quietly(
    postgres: PostgresServer, caplog: pytest.LogCaptureFixture, work, raised: type[Exception]
) -> None:
    caplog.set_level(logging.WARNING, logger="psycopg")
    ledger = Ledger(postgres.schema_url(), event_seed=SEED, pin_hasher=FAST_PINS)
    try:
        if not ledger.backend.pipelined:  # type: ignore[attr-defined]
            pytest.skip("this libpq has no pipeline mode: no pipeline to close")
        ledger.register("ann", "Ann", "ABCD")
        with pytest.raises(raised):
            ledger.backend.run(work)
        assert [r.getMessage() for r in caplog.records if r.name.startswith("psycopg")] == []
        assert ledger.players() == ("Ann",)  # the next call finds the ledger as it was
        with pytest.raises(LedgerCorrupt):
            ledger.backend.run(lambda tx: tx.execute("DELETE FROM meta"))  # errors still come as before
    finally:
        ledger.close()

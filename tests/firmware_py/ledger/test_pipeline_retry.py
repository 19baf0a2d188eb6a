"""A transaction the server aborts (a serialization failure between cabinets) runs again on
the same connection, and nothing of the aborted try may stay behind.

psycopg prepares a statement once it has run five times.  A PREPARE that went out in a
pipeline the server then aborted never happened, yet psycopg counted it as done, and every
later use of that statement failed with 'prepared statement "_pg3_N" does not exist': not
a retryable error, so the duel was lost.  Found under load, where four cabinets fighting
over the same cards (``test_crash``) abort each other's transactions often enough."""

from __future__ import annotations

from firmware_py.games.punch_cards.ledger.backends import PostgresBackend, Tx
from tests.firmware_py.ledger.pg_server import PostgresServer

ABORT = "DO $$ BEGIN RAISE EXCEPTION 'another cabinet got there first' USING ERRCODE = 'serialization_failure'; END $$"


def test_a_transaction_aborted_in_its_pipeline_leaves_no_statement_behind(postgres: PostgresServer) -> None:
    backend = PostgresBackend(postgres.schema_url())
    try:
        backend.run(lambda tx: tx.execute("CREATE TABLE duel (n integer)"))
        for n in range(12):
            tries = []

            def record(tx: Tx, n: int = n, tries: list[int] = tries) -> int:
                tries.append(n)
                if len(tries) == 1:  # the first try of each duel is aborted by the server...
                    tx.send(ABORT)  # ...with the insert already sent behind it in the pipeline
                return tx.execute("INSERT INTO duel (n) VALUES (?)", (n,))

            assert backend.run(record) == 1
            assert len(tries) == 2
        rows = backend.run(lambda tx: tx.rows("SELECT n FROM duel ORDER BY n"), write=False)
        assert [n for (n,) in rows] == list(range(12))
    finally:
        backend.close()

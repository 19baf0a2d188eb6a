"""A value the ledger never writes, on either store, is a :class:`LedgerDamaged` naming its
place, with one log line; never the ``ValueError``, ``TypeError`` or ``KeyError`` that
once reached the cabinet's main loop (issue 36).  On PostgreSQL the typed columns keep
most wrong kinds out; its text columns (``meta``'s values, corner sets, JSON, PIN hashes)
still carry what another program put there.  (A value a CHECK refuses, an entry's kind,
is kept out by both: SQLite's quick check finds one put past it, and the file is refused.)"""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import Callable

import pytest

from firmware_py.games.punch_cards.ledger import Ledger, LedgerDamaged
from firmware_py.games.punch_cards.ledger.schema import sqlite_statements
from tests.firmware_py.ledger.conftest import FAST_PINS, SEED, StoreFactory


def hand_edit(url: str, statement: str) -> None:
    """Run ``statement`` on the ledger at ``url`` as another program would: past the
    ledger's "nothing changes" triggers."""
    if url.startswith("postgresql"):
        import psycopg

        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute("SET session_replication_role = replica")  # triggers off for this session
            conn.execute(statement)
        return
    db = sqlite3.connect(url)
    try:
        for (trigger,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'trigger'").fetchall():
            db.execute(f"DROP TRIGGER {trigger}")
        db.execute(statement)
        for made in sqlite_statements():
            if made.startswith("CREATE TRIGGER"):
                db.execute(made)
        db.commit()
    finally:
        db.close()


Reads = Callable[[Ledger], object]
CASES: dict[str, tuple[str, str, Reads | None]] = {
    "schema 'abc'": ("UPDATE meta SET value = 'abc' WHERE key = 'schema'", "meta row 'schema'", None),
    "schema ''": ("UPDATE meta SET value = '' WHERE key = 'schema'", "meta row 'schema'", None),
    "event_seed text": ("UPDATE meta SET value = 'seed' WHERE key = 'event_seed'", "meta row 'event_seed'", None),
    "event_seed missing": ("DELETE FROM meta WHERE key = 'event_seed'", "meta row 'event_seed'", None),
    "closing time text": (
        "INSERT INTO meta(key, value) VALUES ('closing_us', 'soon')",
        "meta row 'closing_us'",
        lambda ledger: ledger.closing_time(),
    ),
    "corners not corner sets": (
        "UPDATE cards SET corners = '1,2|x' WHERE serial = 1",
        "cards.corners of card 1",
        lambda ledger: ledger.collection("Ann"),
    ),
    "a last action not JSON": (
        "UPDATE entries SET last_action = '{\"type\"' WHERE id = 1",
        "entries.last_action of entry 1",
        lambda ledger: ledger.entries(),
    ),
    "a PIN hash no ledger wrote": (
        "UPDATE players SET pin_hash = 'scrypt$1073741824$8$1$00$00' WHERE name = 'Ann'",
        "players.pin_hash",
        lambda ledger: ledger.sign_in("Ann", "ABCD"),
    ),
}


@pytest.mark.parametrize("case", list(CASES))
def test_a_value_the_ledger_never_writes_is_a_ledger_error_on_both_stores(
    new_url: StoreFactory, case: str, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING, logger="ringside.ledger")
    statement, where, read = CASES[case]
    url = new_url()
    ledger = Ledger(url, event_seed=SEED, pin_hasher=FAST_PINS)
    ledger.register("ann", "Ann", "ABCD")
    ledger.close()
    hand_edit(url, statement)
    for _ in range(2):  # told once, however often it is read
        with pytest.raises(LedgerDamaged) as damaged:
            opened = Ledger(url, pin_hasher=FAST_PINS)
            try:
                assert read is not None, "opening the ledger should have found it"
                read(opened)
            finally:
                opened.close()
        assert where in damaged.value.where and "left as it is" in str(damaged.value)
    told = [r.getMessage() for r in caplog.records if r.name == "ringside.ledger"]
    assert len(told) == 1 and where in told[0], told

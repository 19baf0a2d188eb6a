"""A Punch Cards ledger as an event leaves it, and the ways to damage one value of it, for
the fault tests (no tests here)."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

from firmware_py.games.punch_cards.ledger import Ledger
from firmware_py.games.punch_cards.ledger.schema import sqlite_statements
from tests.firmware_py.ledger.conftest import FAST_PINS, SEED
from tests.firmware_py.ledger.support import decided_duel

PLAYERS = (("Ann", "ABCD"), ("Bob", "FEED"), ("Cid", "ACED"))
META_ROWS = ("schema", "event_seed", "closing_us")
"""Every row of the ledger's ``meta`` table (the template sets a closing time)."""
CLOSING_US = 4_102_444_800_000_000
"""The template's closing time: 2100-01-01, long after any test."""


def make_template(path: Path) -> Path:
    """A ledger holding a row of every kind: three players, a duel (Ann beat Bob), a trade
    (Bob and Cid) and its void, and a closing time; its WAL folded into the file."""
    ledger = Ledger(path, event_seed=SEED, pin_hasher=FAST_PINS, cabinet="template")
    for n, (name, pin) in enumerate(PLAYERS):
        ledger.register(f"register-{n}", name, pin)
    duel = decided_duel(ledger.duel_options("Ann", "Bob"), 0)
    assert duel is not None
    ledger.record_duel("duel", "Ann", "Bob", duel)
    bob, cid = ledger.collection("Bob"), ledger.collection("Cid")
    from games.punch_cards import TradeOffer

    trade = ledger.record_trade("trade", "Bob", "Cid", TradeOffer(((bob[0].serial,), (cid[0].serial,))))
    ledger.void("void", trade.entry, "test")
    ledger.set_closing_time("closing", CLOSING_US)
    ledger.close()
    return path


def columns(path: Path) -> list[tuple[str, str, str]]:
    """(table, column, declared type) of every column of the ledger at ``path``, read from
    its schema: a column added later is covered the day it is added."""
    db = sqlite3.connect(path)
    try:
        tables = [r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")]
        return [(t, r[1], r[2].upper()) for t in tables for r in db.execute(f"PRAGMA table_info({t})")]
    finally:
        db.close()


def changed(template: Path, path: Path, statement: str, *values: object) -> None:
    """``path``: a copy of ``template`` with ``statement`` run on it as a hand edit would
    (foreign keys and the ledger's "nothing changes" triggers out of the way)."""
    shutil.copy(template, path)
    db = sqlite3.connect(path)
    try:
        for (trigger,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'trigger'").fetchall():
            db.execute(f"DROP TRIGGER {trigger}")
        db.execute(statement, values)
        for trigger in sqlite_statements():
            if trigger.startswith("CREATE TRIGGER"):
                db.execute(trigger)  # put back as the ledger made them: opening it writes nothing
        db.commit()
    finally:
        db.close()

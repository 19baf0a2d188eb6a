"""The Punch Cards ledger: who holds which card, for the whole convention.

``Ledger(url)`` opens it: a SQLite file on the cabinet (the default) or one PostgreSQL
server shared by the event's cabinets (``postgresql://…``), same schema and same code.
"""

from firmware_py.games.punch_cards.ledger.errors import (
    IdempotencyConflict,
    LedgerBusy,
    LedgerClosed,
    LedgerCorrupt,
    LedgerDamaged,
    LedgerError,
    LedgerRefused,
    LedgerUnreachable,
    LedgerUnusable,
    PinLocked,
    PinRefused,
    StaleCards,
    UnknownPlayer,
    WrongPin,
)
from firmware_py.games.punch_cards.ledger.export import standings_csv, standings_html
from firmware_py.games.punch_cards.ledger.ledger import DuelRecord, Entry, EntryKind, Ledger, Move, Receipt
from firmware_py.games.punch_cards.ledger.pins import PinHasher

__all__ = [
    "DuelRecord",
    "Entry",
    "EntryKind",
    "IdempotencyConflict",
    "Ledger",
    "LedgerBusy",
    "LedgerClosed",
    "LedgerCorrupt",
    "LedgerDamaged",
    "LedgerError",
    "LedgerRefused",
    "LedgerUnreachable",
    "LedgerUnusable",
    "Move",
    "PinHasher",
    "PinLocked",
    "PinRefused",
    "Receipt",
    "StaleCards",
    "UnknownPlayer",
    "WrongPin",
    "standings_csv",
    "standings_html",
]

"""Values read back from the ledger, checked before they are used.

The ledger writes every column itself, so a value of the wrong kind (a name stored as a
blob, a holder as text, the schema version as ``'abc'``) means the file was changed by
something else.  Like the cabinet store's journal rows, each value is checked where it is
read: a bad one raises :class:`LedgerDamaged` naming its table, column and row, never a
``ValueError``, ``TypeError`` or ``KeyError`` that would reach the cabinet's main loop
(on SQLite a column holds whatever was put there; on PostgreSQL the typed columns are
sure, but the text ones still carry numbers, corner sets and JSON).
"""

from __future__ import annotations

import json
import re
from typing import Any

from firmware_py.games.punch_cards.ledger.errors import LedgerDamaged

_WHOLE_TEXT = re.compile(r"-?[0-9]{1,19}")
"""A whole number as the ledger writes one into a text column (``meta``'s values)."""
_CORNERS = re.compile(r"[0-9]{1,4}(,[0-9]{1,4})*(\|[0-9]{1,4}(,[0-9]{1,4})*){3}")
"""A card's four corner sets as :func:`corners` reads them: ``"3,7|1,2|9|4,5,6"``."""


def whole(value: object, where: str) -> int:
    """``value`` if it is a whole number (not a flag, a real, text or a blob)."""
    if type(value) is not int:
        raise LedgerDamaged(where, value, "a whole number")
    return value


def maybe_whole(value: object, where: str) -> int | None:
    return None if value is None else whole(value, where)


def text(value: object, where: str) -> str:
    if not isinstance(value, str):
        raise LedgerDamaged(where, value, "text")
    return value


def maybe_text(value: object, where: str) -> str | None:
    return None if value is None else text(value, where)


def whole_text(value: object, where: str) -> int:
    """A whole number the ledger keeps as text (``meta``'s schema, seed, closing time)."""
    if not isinstance(value, str) or not _WHOLE_TEXT.fullmatch(value):
        raise LedgerDamaged(where, value, "a whole number written as text")
    return int(value)


def corners(value: object, where: str) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
    """A card's corner sets as :func:`~firmware_py.games.punch_cards.ledger.ledger` writes them."""
    if not isinstance(value, str) or not _CORNERS.fullmatch(value):
        raise LedgerDamaged(where, value, "four corner sets")
    a, b, c, d = (tuple(int(n) for n in part.split(",")) for part in value.split("|"))
    return a, b, c, d


def json_object(value: object, where: str) -> dict[str, Any]:
    """A JSON object the ledger wrote (a request, a last action, a duel's record)."""
    try:
        found = json.loads(text(value, where))
    except ValueError:  # JSONDecodeError, and a number too long to read
        raise LedgerDamaged(where, value, "a JSON object") from None
    if not isinstance(found, dict):
        raise LedgerDamaged(where, value, "a JSON object")
    return found

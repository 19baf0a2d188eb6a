"""What a duel or a trade started from the lobby needs of it: the ledger link it records
through, and the way back with a word for each station (the lobby; a test's stand-in)."""

from __future__ import annotations

from typing import Protocol

from firmware_py.games.punch_cards.ledger_link import LedgerLink
from firmware_py.runtime.scene import Scene


class WayBack(Protocol):
    link: LedgerLink

    def back(self, now_us: int, messages: dict[int, tuple[str, bool]]) -> Scene:
        """Return to the lobby after the duel or trade, with a word for each station."""
        ...

"""What the main display and each duellist's private display may show.

Nobody sees the other's stake, corner or call before both have chosen; a reveal shows
only the chosen corners' numbers, never a whole card of the opponent's.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from games.punch_cards.cards import Card, Corner
from games.punch_cards.events import Revealed
from games.punch_cards.reveal import Call, DuelEnd


class Phase(Enum):
    ANSWER = "answer"
    STAKE = "stake"
    CORNER = "corner"
    CALL = "call"
    OVER = "over"


@dataclass(frozen=True)
class DuelPublicView:
    phase: Phase
    stakes: tuple[int, int] | None
    """Both staked serials, once both have staked."""
    stake_names: tuple[str, str] | None
    locked: tuple[bool, bool]
    """Who has made this step's choice."""
    play: int
    """1 for the first reveal, +1 for each play-again."""
    last_reveal: Revealed | None
    winner: int | None
    how: DuelEnd | None


@dataclass(frozen=True)
class DuelPlayerView:
    player: int
    public: DuelPublicView
    collection: tuple[Card, ...]
    """The duellist's own cards, numbers included."""
    stake: int | None
    corner: Corner | None
    call: Call | None
    may_refuse: bool
    """Seat 1 may refuse this challenge (only while answering)."""

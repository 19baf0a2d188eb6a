"""Facts a duel action caused.  None names a secret choice before both have made theirs."""

from __future__ import annotations

from dataclasses import dataclass

from games.protocol import Event
from games.punch_cards.cards import Corner, Numbers
from games.punch_cards.reveal import Call, DuelEnd, PlayAgain


@dataclass(frozen=True)
class ChallengeAnswered(Event):
    accepted: bool


@dataclass(frozen=True)
class Locked(Event):
    """``player`` has made this step's choice (a stake, a corner or a call: which one
    stays secret until both have chosen)."""

    player: int


@dataclass(frozen=True)
class StakesShown(Event):
    """Both stakes, by seat: card serials and the names written on them."""

    serials: tuple[int, int]
    names: tuple[str, str]


@dataclass(frozen=True)
class Revealed(Event):
    """The reveal: each seat's corner and the numbers seen "through the holes", both
    calls, who won each comparison, and what that decided."""

    play: int
    corners: tuple[Corner, Corner]
    numbers: tuple[Numbers, Numbers]
    calls: tuple[Call, Call]
    high: int | None
    low: int | None
    winner: int | None
    again: PlayAgain | None


@dataclass(frozen=True)
class DuelWon(Event):
    """``winner`` takes the loser's staked card ``taken``."""

    winner: int
    how: DuelEnd
    taken: int

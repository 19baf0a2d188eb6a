"""Facts a Punch! action caused, each something a display, LED bar or speaker can show.

Events are public: none names a card a boxer holds or has chosen but not revealed.
The only hand contents they show are what the rules make public (a re-deal's 4+ kind).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from games.protocol import Event
from games.punch.cards import Card
from games.punch.clash import Cause


class HandSource(Enum):
    """How a boxer got the hand for a round."""

    DEALT = "dealt"
    REDEALT = "redealt"
    DRAFTED = "drafted"
    LAST_TEN = "last_ten"


class GameEndReason(Enum):
    """How a Punch! game ends (``Outcome.how``): a boxer won the match wins needed."""

    MATCH_WINS = "match_wins"


class MatchEndReason(Enum):
    KNOCKOUT = "knockout"
    STAMINA = "stamina"
    TIE = "tie"


@dataclass(frozen=True)
class MatchStarted(Event):
    """Both boxers at 10 stamina with full decks; ``replay`` after a tied match."""

    match: int
    replay: bool


@dataclass(frozen=True)
class RoundStarted(Event):
    round: int


@dataclass(frozen=True)
class HandDealt(Event):
    """``player`` now holds a hand of 10 for ``round`` (its cards are in their view only)."""

    player: int
    round: int
    source: HandSource


@dataclass(frozen=True)
class Redealt(Event):
    """``player`` showed ``shown`` (every card of their hand's 4+ kinds) and re-dealt."""

    player: int
    shown: tuple[Card, ...]


@dataclass(frozen=True)
class HandKept(Event):
    """``player`` keeps the hand just dealt (standard rules, rounds 1 and 2).  Every boxer
    keeps or re-deals after every such deal, so this says nothing about the hand."""

    player: int


@dataclass(frozen=True)
class DraftChosen(Event):
    """``player`` has secretly drafted their hand."""

    player: int


@dataclass(frozen=True)
class CardChosen(Event):
    """``player`` has laid a card face down (which one stays secret)."""

    player: int


@dataclass(frozen=True)
class CardsRevealed(Event):
    """Both cards of the exchange, by seat."""

    cards: tuple[Card, Card]


@dataclass(frozen=True)
class StaminaChanged(Event):
    """``delta`` is the real change after the 0..10 limits; ``stamina`` the new value."""

    player: int
    delta: int
    stamina: int
    cause: Cause


@dataclass(frozen=True)
class Knockout(Event):
    """``player`` fell to 0 stamina; the match ends at once."""

    player: int


@dataclass(frozen=True)
class RoundEnded(Event):
    round: int


@dataclass(frozen=True)
class Break(Event):
    """The rest after ``after_round``: ``rest`` offered, ``gains`` really taken (capped)."""

    after_round: int
    rest: int
    gains: tuple[int, int]


@dataclass(frozen=True)
class MatchEnded(Event):
    """``winner`` None: a tie on stamina, so the match is replayed."""

    winner: int | None
    reason: MatchEndReason
    stamina: tuple[int, int]
    match_wins: tuple[int, int]


@dataclass(frozen=True)
class GameEnded(Event):
    winner: int

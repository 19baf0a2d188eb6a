"""Facts the engine reports, enough for the main display, LED bars, sound and log."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from games.karate_fight.cards import CardKind
from games.karate_fight.hits import HitKind
from games.karate_fight.jan_ken import Sign
from games.protocol import Event


class BoutReason(Enum):
    LAST_ATTACK = "last_attack"
    """The answer ran out of chances (or nobody could answer): the last attacker wins."""
    HIT = "hit"
    JAN_KEN = "jan_ken"
    """A Jan Ken card was played and this fighter won the Jan Ken."""
    NO_ONE_CAN_PLAY = "no_one_can_play"
    """No fighter in the game has a card left to play (see docs/rules/karate_fight.md)."""
    LAST_STANDING = "last_standing"
    """Every other fighter went out."""


class JanKenReason(Enum):
    JAN_KEN_CARD = "jan_ken_card"
    DEAD_HEAT = "dead_heat"
    TIME_UP = "time_up"
    """The time limit ran out with several fighters tied for most cards: the winner wins
    the fight."""


class WinReason(Enum):
    """How a fight was won: ``Outcome.how`` of a finished fight."""

    KARATE_MASTER = "karate_master"
    """Holds every card in play (the rulebook's only ending)."""
    MOST_CARDS = "most_cards"
    """Time limit: held the most cards in their pile when time ran out."""
    TIME_UP_JAN_KEN = "time_up_jan_ken"
    """Time limit: tied for most cards when time ran out and won the Jan Ken among the tied."""


class IgnoreReason(Enum):
    GRACE = "grace"
    JAN_KEN = "jan_ken"
    OUT_OF_GAME = "out_of_game"


@dataclass(frozen=True)
class CardPlayed(Event):
    fighter: int
    card: int
    kind: CardKind
    hit: HitKind | None
    t_us: int


@dataclass(frozen=True)
class DirectionReversed(Event):
    direction: int
    """+1: play passes to the left (next seat up), -1: to the right."""


@dataclass(frozen=True)
class ToPlay(Event):
    """Who plays next; with ``attacker`` set, they must answer within ``chances``."""

    fighter: int
    attacker: int | None
    chances: int | None


@dataclass(frozen=True)
class Reaction:
    """A fighter's slap on a Hit: ``reaction_us`` = slap stamp − reveal stamp."""

    fighter: int
    reaction_us: int


@dataclass(frozen=True)
class HitShowing(Event):
    """``early``: Coward's Blows struck while this Hit's card was not yet on screen,
    with their (negative) time to the reveal, so the display can say "1 µs too soon"."""

    kind: HitKind
    revealed_us: int
    early: tuple[Reaction, ...]


@dataclass(frozen=True)
class HitWon(Event):
    """``margin_us`` is known only once the runner-up slaps: see :class:`SlapIgnored`
    and the public view's ``last_hit``."""

    kind: HitKind
    winner: int
    revealed_us: int
    won_us: int
    reaction_us: int
    by_jan_ken: bool


@dataclass(frozen=True)
class DeadHeat(Event):
    kind: HitKind
    fighters: tuple[int, ...]
    won_us: int
    reaction_us: int


@dataclass(frozen=True)
class SlapIgnored(Event):
    """A slap that changes nothing; inside the grace it carries the fighter's reaction to
    the Hit just won and how far ``behind_us`` the winning slap it was."""

    fighter: int
    t_us: int
    reason: IgnoreReason
    reaction_us: int | None
    behind_us: int | None


@dataclass(frozen=True)
class CowardsBlow(Event):
    """``cards_paid`` 0 with :class:`FighterOut`: no cards left.  ``hit_pending``: the card
    just played causes this Hit but was not yet on screen (too soon, not too late)."""

    fighter: int
    t_us: int
    cards_paid: int
    hit_pending: HitKind | None


@dataclass(frozen=True)
class JanKenStarted(Event):
    reason: JanKenReason
    fighters: tuple[int, ...]


@dataclass(frozen=True)
class SignLocked(Event):
    """A fighter threw; the sign itself stays secret until everyone has."""

    fighter: int


@dataclass(frozen=True)
class ThrownSign:
    fighter: int
    sign: Sign


@dataclass(frozen=True)
class JanKenRound(Event):
    """``eliminated`` empty: a draw, ``remaining`` throw again."""

    round: int
    signs: tuple[ThrownSign, ...]
    eliminated: tuple[int, ...]
    remaining: tuple[int, ...]


@dataclass(frozen=True)
class JanKenWon(Event):
    winner: int
    reason: JanKenReason


@dataclass(frozen=True)
class BoutWon(Event):
    winner: int
    cards_taken: int
    reason: BoutReason


@dataclass(frozen=True)
class OutOfCards(Event):
    """Still fighting: may slap a Hit to re-enter."""

    fighter: int


@dataclass(frozen=True)
class Reentered(Event):
    fighter: int


@dataclass(frozen=True)
class FighterOut(Event):
    """Out of the game: a Coward's Blow with no cards left."""

    fighter: int


@dataclass(frozen=True)
class KarateMaster(Event):
    fighter: int


@dataclass(frozen=True)
class TimeUp(Event):
    """The time limit ran out: regulation is over at ``t_us``, the stamp of the first input
    at or after the limit (held back until a Jan Ken already running had finished).
    ``piles``: every fighter's pile size, which decides the fight; the ``centre`` cards
    are not counted; ``hit_void``: a Hit on the table that nobody won in time."""

    t_us: int
    piles: tuple[int, ...]
    centre: int
    hit_void: HitKind | None


@dataclass(frozen=True)
class FightWon(Event):
    """The final event of a fight decided by the time limit (a fight won by holding every
    card still ends with :class:`KarateMaster`)."""

    fighter: int
    reason: WinReason

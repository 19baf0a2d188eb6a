"""What the main display, the LED bars and each fighter's private display may show.

Nobody ever sees a pile's content (not even its owner's): only sizes.  A Jan Ken sign
is visible to its owner alone until the round is revealed.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from games.karate_fight.cards import CardKind
from games.karate_fight.events import JanKenReason, Reaction, ThrownSign, WinReason
from games.karate_fight.hits import HitKind
from games.karate_fight.jan_ken import Sign


class FighterStatus(Enum):
    FIGHTING = "fighting"
    OUT_OF_CARDS = "out_of_cards"
    """No cards but still in: may win a Hit to re-enter."""
    OUT = "out"


@dataclass(frozen=True)
class FighterView:
    seat: int
    pile_size: int
    status: FighterStatus
    cowards_blows: int
    """Coward's Blows this bout (the next one costs 2 cards once this is ≥ 1)."""
    fastest_us: int | None
    """Fastest reaction to a Hit this game (winning or not)."""


@dataclass(frozen=True)
class HitReport:
    """The last Hit judged, for the after-Hit screen: reactions in stamp order."""

    kind: HitKind
    revealed_us: int
    winner: int | None
    """``None`` while a dead heat is being settled by Jan Ken."""
    reactions: tuple[Reaction, ...]
    margin_us: int | None
    """Runner-up's reaction − winner's; 0 for a dead heat, ``None`` until a second slap."""


@dataclass(frozen=True)
class JanKenView:
    reason: JanKenReason
    fighters: tuple[int, ...]
    remaining: tuple[int, ...]
    locked: tuple[int, ...]
    """Who has thrown this round (not what)."""
    round: int
    last_round: tuple[ThrownSign, ...]


@dataclass(frozen=True)
class KaratePublicView:
    fighters: tuple[FighterView, ...]
    total_cards: int
    in_play: int
    """Cards dealt (54 less those set aside): a Karate Master holds all of them."""
    aside: int
    centre: tuple[CardKind, ...]
    """Face-up centre pile, bottom first (Coward's Blow cards go under)."""
    turn: int | None
    attacker: int | None
    chances: int | None
    direction: int
    awaiting_reveal: bool
    """The last card played is not on screen yet."""
    cards_played: int
    """Cards played this game: what a display names when it reports a reveal."""
    hit_showing: HitKind | None
    jan_ken: JanKenView | None
    last_hit: HitReport | None
    master: int | None
    """The Karate Master (holds every card); stays ``None`` for a fight won on time."""
    started_us: int | None = None
    """Stamp of the fight's first card: the time limit's clock starts here."""
    ends_us: int | None = None
    """``started_us`` + the time limit (``None``: no limit, or no card played yet).  A
    display counts down to it on its own clock."""
    time_up_us: int | None = None
    """Stamp at which regulation ended (see :class:`~games.karate_fight.events.TimeUp`)."""
    winner: int | None = None
    """Who won the fight, however (the Karate Master, or the winner on time)."""
    win_reason: WinReason | None = None


@dataclass(frozen=True)
class KaratePlayerView:
    seat: int
    public: KaratePublicView
    own_sign: Sign | None
    """This fighter's locked, not yet revealed Jan Ken sign."""

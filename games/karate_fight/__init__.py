"""Karate Fight: 2–4 fighters play cards from piles they never see; Hits are slapped and
judged to the microsecond by stamp.  See ``docs/rules/karate_fight.md`` for rule choices."""

from games.karate_fight.actions import PlayTop, Shown, Slaps, Throw, TimeCheck
from games.karate_fight.cards import CARD_KINDS, DECK_SIZE, CardKind, Technique, kind_of
from games.karate_fight.engine import SPEC, KarateAction, KarateFight
from games.karate_fight.events import (
    BoutReason,
    BoutWon,
    CardPlayed,
    CowardsBlow,
    DeadHeat,
    DirectionReversed,
    FighterOut,
    FightWon,
    HitShowing,
    HitWon,
    IgnoreReason,
    JanKenReason,
    JanKenRound,
    JanKenStarted,
    JanKenWon,
    KarateMaster,
    OutOfCards,
    Reaction,
    Reentered,
    SignLocked,
    SlapIgnored,
    ThrownSign,
    TimeUp,
    ToPlay,
    WinReason,
)
from games.karate_fight.hits import HitKind, hit_caused
from games.karate_fight.jan_ken import Sign, round_winners
from games.karate_fight.judging import Verdict, judge
from games.karate_fight.options import DEFAULT_GRACE_US, KarateOptions
from games.karate_fight.views import (
    FighterStatus,
    FighterView,
    HitReport,
    JanKenView,
    KaratePlayerView,
    KaratePublicView,
)

__all__ = [
    "CARD_KINDS",
    "DECK_SIZE",
    "DEFAULT_GRACE_US",
    "SPEC",
    "BoutReason",
    "BoutWon",
    "CardKind",
    "CardPlayed",
    "CowardsBlow",
    "DeadHeat",
    "DirectionReversed",
    "FightWon",
    "FighterOut",
    "FighterStatus",
    "FighterView",
    "HitKind",
    "HitReport",
    "HitShowing",
    "HitWon",
    "IgnoreReason",
    "JanKenReason",
    "JanKenRound",
    "JanKenStarted",
    "JanKenView",
    "JanKenWon",
    "KarateAction",
    "KarateFight",
    "KarateMaster",
    "KarateOptions",
    "KaratePlayerView",
    "KaratePublicView",
    "OutOfCards",
    "PlayTop",
    "Reaction",
    "Reentered",
    "Shown",
    "Sign",
    "SignLocked",
    "SlapIgnored",
    "Slaps",
    "Technique",
    "Throw",
    "ThrownSign",
    "TimeCheck",
    "TimeUp",
    "ToPlay",
    "Verdict",
    "WinReason",
    "hit_caused",
    "judge",
    "kind_of",
    "round_winners",
]

ENGINE = KarateFight
"""Found by name: ``games.registry`` reads it."""

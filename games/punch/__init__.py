"""Punch!: two boxers, three rounds of ten simultaneous card exchanges per match,
first to win three matches.  The rules as played here are in docs/rules/punch.md."""

from games.punch.actions import Draft, PlayCard, Redeal
from games.punch.bot import PunchBot
from games.punch.cards import CARDS, Card
from games.punch.clash import Cause
from games.punch.engine import SEAT_NAMES, SPEC, Punch
from games.punch.events import (
    Break,
    CardChosen,
    CardsRevealed,
    DraftChosen,
    GameEnded,
    GameEndReason,
    HandDealt,
    HandKept,
    HandSource,
    Knockout,
    MatchEnded,
    MatchEndReason,
    MatchStarted,
    Redealt,
    RoundEnded,
    RoundStarted,
    StaminaChanged,
)
from games.punch.options import PunchOptions, Rules
from games.punch.views import Phase, PunchPlayerView, PunchPublicView

__all__ = [
    "CARDS",
    "SEAT_NAMES",
    "SPEC",
    "Break",
    "Card",
    "CardChosen",
    "CardsRevealed",
    "Cause",
    "Draft",
    "DraftChosen",
    "GameEndReason",
    "GameEnded",
    "HandDealt",
    "HandKept",
    "HandSource",
    "Knockout",
    "MatchEndReason",
    "MatchEnded",
    "MatchStarted",
    "Phase",
    "PlayCard",
    "Punch",
    "PunchBot",
    "PunchOptions",
    "PunchPlayerView",
    "PunchPublicView",
    "Redeal",
    "Redealt",
    "RoundEnded",
    "RoundStarted",
    "Rules",
    "StaminaChanged",
]

ENGINE = Punch
"""Found by name: ``games.registry`` reads it."""

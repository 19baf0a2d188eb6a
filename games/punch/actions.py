"""What a boxer can do: play a card, decide on a re-deal, draft a hand.

All are journalled through :mod:`games.codec`, so fields are plain codable types.
"""

from __future__ import annotations

from dataclasses import dataclass

from games.protocol import Action
from games.punch.cards import Card


@dataclass(frozen=True)
class PlayCard(Action):
    """Lay ``card`` face down for this exchange; revealed once both boxers have chosen."""

    card: Card


@dataclass(frozen=True)
class Redeal(Action):
    """After a deal in rounds 1 and 2 (standard rules): ``False`` keeps the hand (always
    allowed), ``True`` shows its 4+ kind and re-deals (only for such a hand)."""

    redeal: bool


@dataclass(frozen=True)
class Draft(Action):
    """Take exactly these 10 cards from what is left of the deck (advanced rules)."""

    hand: tuple[Card, ...]


PUNCH_ACTIONS: tuple[type, ...] = (PlayCard, Redeal, Draft)

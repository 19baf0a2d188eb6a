"""The six card kinds of a Punch! deck and the deck's make-up.

Each kind is one button (A..F in declaration order) on a cabinet station, so the order
of :class:`Card` is part of the interface, and hands are counted in that order.
"""

from __future__ import annotations

from enum import Enum


class Card(Enum):
    """A playable card; the value is its journal spelling."""

    PUNCH_1 = "punch1"
    PUNCH_2 = "punch2"
    PUNCH_3 = "punch3"
    DO_NOTHING = "nothing"
    BLOCK = "block"
    DODGE = "dodge"

    @property
    def label(self) -> str:
        """Text printed on the card, for displays."""
        return _LABELS[self]

    @property
    def punch(self) -> int:
        """The punch value; 0 for cards that do not punch."""
        return _PUNCH_VALUES[self]

    @property
    def index(self) -> int:
        """Position in :data:`CARDS` (button order), for per-kind count tuples."""
        return _INDEX[self]


_LABELS = {
    Card.PUNCH_1: "Punch 1",
    Card.PUNCH_2: "Punch 2",
    Card.PUNCH_3: "Punch 3",
    Card.DO_NOTHING: "Do Nothing",
    Card.BLOCK: "Block",
    Card.DODGE: "Dodge & Punch Back",
}
_PUNCH_VALUES = {Card.PUNCH_1: 1, Card.PUNCH_2: 2, Card.PUNCH_3: 3}
_PUNCH_VALUES.update({c: 0 for c in Card if c not in _PUNCH_VALUES})

CARDS: tuple[Card, ...] = tuple(Card)
"""Every kind in button order."""
_INDEX = {card: i for i, card in enumerate(CARDS)}

COPIES_PER_KIND = 5
"""A deck holds five of each kind: 30 playable cards (the stamina and boxer cards are
tracked by the engine, not dealt)."""
DECK_COUNTS: tuple[int, ...] = (COPIES_PER_KIND,) * len(CARDS)
DECK_SIZE = COPIES_PER_KIND * len(CARDS)
HAND_SIZE = 10
ROUNDS = 3


def full_deck() -> list[Card]:
    """A fresh, unshuffled 30-card deck."""
    return [card for card in CARDS for _ in range(COPIES_PER_KIND)]


def counts_of(cards: list[Card] | tuple[Card, ...]) -> tuple[int, ...]:
    """How many of each kind ``cards`` holds, in :data:`CARDS` order."""
    counts = [0] * len(CARDS)
    for card in cards:
        counts[_INDEX[card]] += 1
    return tuple(counts)


def cards_of(counts: tuple[int, ...] | list[int]) -> tuple[Card, ...]:
    """The cards ``counts`` stands for, in :data:`CARDS` order."""
    return tuple(card for card, n in zip(CARDS, counts) for _ in range(n))

"""The six card kinds of a Punch! deck and the deck's make-up.

Each kind is one button (A..F in declaration order) on a cabinet station, so the order
of :class:`Card` is part of the interface, and hands are counted in that order.
"""

from __future__ import annotations

from enum import Enum


class Card(Enum):
    """A playable card; the value is its journal spelling.  ``label`` is the text printed
    on it, ``punch`` its punch value (0 for cards that do not punch), ``index`` its place
    in :data:`CARDS` (button order) for per-kind count tuples.  They are plain attributes
    and the hash is the identity's, because the engine reads them on every exchange."""

    label: str
    punch: int
    index: int

    def __new__(cls, value: str, label: str, punch: int) -> Card:
        card = object.__new__(cls)
        card._value_ = value
        card.label = label
        card.punch = punch
        card.index = len(cls.__members__)
        return card

    __hash__ = object.__hash__

    PUNCH_1 = ("punch1", "Punch 1", 1)
    PUNCH_2 = ("punch2", "Punch 2", 2)
    PUNCH_3 = ("punch3", "Punch 3", 3)
    DO_NOTHING = ("nothing", "Do Nothing", 0)
    BLOCK = ("block", "Block", 0)
    DODGE = ("dodge", "Dodge & Punch Back", 0)


CARDS: tuple[Card, ...] = tuple(Card)
"""Every kind in button order."""

COPIES_PER_KIND = 5
"""A deck holds five of each kind: 30 playable cards (the stamina and boxer cards are
tracked by the engine, not dealt)."""
HAND_SIZE = 10
ROUNDS = 3


def full_deck() -> list[Card]:
    """A fresh, unshuffled 30-card deck."""
    return [card for card in CARDS for _ in range(COPIES_PER_KIND)]


def counts_of(cards: list[Card] | tuple[Card, ...]) -> tuple[int, ...]:
    """How many of each kind ``cards`` holds, in :data:`CARDS` order."""
    counts = [0] * len(CARDS)
    for card in cards:
        counts[card.index] += 1
    return tuple(counts)


def cards_of(counts: tuple[int, ...] | list[int]) -> tuple[Card, ...]:
    """The cards ``counts`` stands for, in :data:`CARDS` order."""
    return tuple(card for card, n in zip(CARDS, counts) for _ in range(n))

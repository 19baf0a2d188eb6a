"""The six card kinds of a Punch! deck and the deck's make-up.

Each kind is one button (A..F in declaration order) on a cabinet station, so the order
of :class:`Card` is part of the interface, and hands are counted in that order.  What is
printed on the cards (labels, punch values, copies) lives in ``deck.json`` beside this
module, like every game's card data.
"""

from __future__ import annotations

import json
from enum import Enum
from pathlib import Path


class Card(Enum):
    """A playable card; the value is its journal spelling.  ``label`` is the text printed
    on it, ``punch`` its punch value (0 for cards that do not punch), ``index`` its place
    in :data:`CARDS` (button order) for per-kind count tuples.  They are plain attributes
    and the hash is the identity's, because the engine reads them on every exchange."""

    label: str
    punch: int
    index: int

    __hash__ = object.__hash__

    PUNCH_1 = "punch1"
    PUNCH_2 = "punch2"
    PUNCH_3 = "punch3"
    DO_NOTHING = "nothing"
    BLOCK = "block"
    DODGE = "dodge"


CARDS: tuple[Card, ...] = tuple(Card)
"""Every kind in button order."""


def _load_deck() -> int:
    """Give each card its printed label and punch value; return the copies per kind."""
    data = json.loads(Path(__file__).with_name("deck.json").read_text(encoding="utf-8"))
    rows = data["cards"]
    if [row["card"] for row in rows] != [card.value for card in CARDS]:
        raise ValueError("deck.json must list the six Punch! cards in button order")
    for index, (card, row) in enumerate(zip(CARDS, rows)):
        card.label = str(row["label"])
        card.punch = int(row["punch"])
        card.index = index
    return int(data["copies_per_kind"])


COPIES_PER_KIND = _load_deck()
"""A deck holds this many of each kind (5: 30 playable cards)."""
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

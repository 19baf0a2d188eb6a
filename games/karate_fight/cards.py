"""The Karate Fight deck: card kinds, techniques, chances, and the card-id table.

The rulebook names the cards but not how many of each; the counts live in ``deck.json``
beside this module (with the note on why they were chosen).  Every physical card has an
id 0..53 so tests can prove no card is ever lost or in two places.
"""

from __future__ import annotations

import json
from enum import Enum
from pathlib import Path


class Technique(Enum):
    ATTACK = "attack"
    DEFENSE = "defense"
    SKILL = "skill"


class CardKind(Enum):
    CHOP = "chop"
    PUNCH = "punch"
    KICK = "kick"
    THROW = "throw"
    DODGE = "dodge"
    BLOCK = "block"
    JUMP = "jump"
    EVADE = "evade"
    STRIKE = "strike"
    COUNTER = "counter"
    JAN_KEN = "jan_ken"

    @property
    def technique(self) -> Technique:
        return TECHNIQUE[self]

    @property
    def chances(self) -> int:
        """Chances the next fighter gets to answer this card as an attack (0: not one)."""
        return CHANCES[self]


DECK_SIZE = 54
TECHNIQUE_SIZES = {Technique.ATTACK: 16, Technique.DEFENSE: 28, Technique.SKILL: 10}
"""The rulebook's fixed figures; the data file must agree with them."""


def _load() -> tuple[dict[CardKind, Technique], dict[CardKind, int], tuple[CardKind, ...]]:
    data = json.loads((Path(__file__).with_name("deck.json")).read_text(encoding="utf-8"))
    technique: dict[CardKind, Technique] = {}
    chances: dict[CardKind, int] = {}
    cards: list[CardKind] = []
    for row in data["cards"]:
        kind = CardKind(row["kind"])
        technique[kind] = Technique(row["technique"])
        chances[kind] = int(row["chances"])
        cards.extend([kind] * int(row["count"]))
    if set(technique) != set(CardKind) or len(cards) != DECK_SIZE:
        raise ValueError("deck.json must list every card kind and 54 cards")
    for tech, size in TECHNIQUE_SIZES.items():
        if sum(1 for k in cards if technique[k] is tech) != size:
            raise ValueError(f"deck.json must hold {size} {tech.value} cards")
    return technique, chances, tuple(cards)


TECHNIQUE, CHANCES, CARD_KINDS = _load()
"""``CARD_KINDS[card_id]`` is the kind printed on that card."""

DEFENSES = frozenset(k for k in CardKind if k.technique is Technique.DEFENSE)
ATTACKS = frozenset(k for k in CardKind if k.technique is Technique.ATTACK)


def kind_of(card: int) -> CardKind:
    return CARD_KINDS[card]

"""Jan Ken (rock-paper-scissors) for any number of fighters, as the rulebook scores it.

One sign for all, or all three signs among more than two fighters: a draw, throw again.
Exactly two signs: everyone showing the losing sign is eliminated; the rest throw again
until one is left.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import Enum


class Sign(Enum):
    ROCK = "rock"
    PAPER = "paper"
    SCISSORS = "scissors"


BEATS = {Sign.ROCK: Sign.SCISSORS, Sign.PAPER: Sign.ROCK, Sign.SCISSORS: Sign.PAPER}
"""``BEATS[a] is b``: sign ``a`` beats sign ``b``."""


def round_winners(signs: Mapping[int, Sign]) -> tuple[int, ...] | None:
    """Fighters who survive a round (seat order), or ``None`` for a draw."""
    shown = set(signs.values())
    if len(shown) != 2:
        return None
    a, b = shown
    winning = a if BEATS[a] is b else b
    return tuple(sorted(f for f, s in signs.items() if s is winning))

"""Every hand a boxer may draft from what is left of their deck (advanced rules)."""

from __future__ import annotations

from functools import cache

from games.punch.cards import HAND_SIZE


@cache
def draftable_hands(pool: tuple[int, ...], size: int = HAND_SIZE) -> tuple[tuple[int, ...], ...]:
    """All count vectors of ``size`` cards that ``pool`` (counts per kind) can supply.

    A full deck allows 2,247 hands; the few pools a game meets are cached."""
    if not pool:
        return ((),) if size == 0 else ()
    rest_capacity = sum(pool[1:])
    hands = []
    for take in range(max(0, size - rest_capacity), min(pool[0], size) + 1):
        for tail in draftable_hands(pool[1:], size - take):
            hands.append((take, *tail))
    return tuple(hands)

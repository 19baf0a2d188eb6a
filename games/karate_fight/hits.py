"""Which Hit, if any, the card just played causes (the rulebook's five situations).

Only cards played in the current bout count; Coward's Blow cards go under the centre
pile and are never "played".  A Hit ends its bout, so at most one Hit per bout and no
card can complete two kinds at once (checked in the tests, not relied on here).
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import Enum

from games.karate_fight.cards import ATTACKS, DEFENSES, CardKind


class HitKind(Enum):
    CLUMSY_DEFENSE = "clumsy_defense"
    PERFECT_DEFENSE = "perfect_defense"
    STRIKE = "strike"
    FLURRY = "flurry"
    ULTIMATE_COMBO = "ultimate_combo"


def hit_caused(played: Sequence[CardKind]) -> HitKind | None:
    """The Hit caused by the last of ``played`` (this bout's cards in play order)."""
    if not played:
        return None
    last = played[-1]
    if last is CardKind.STRIKE:
        return HitKind.STRIKE
    if last in DEFENSES:
        if len(played) >= 2 and played[-2] is last:
            return HitKind.CLUMSY_DEFENSE
        if len(played) >= 4 and set(played[-4:]) == DEFENSES:
            return HitKind.PERFECT_DEFENSE
        return None
    if last in ATTACKS:
        if sum(1 for k in played if k is last) == 3:
            return HitKind.FLURRY
        if set(played) >= ATTACKS:
            return HitKind.ULTIMATE_COMBO
    return None

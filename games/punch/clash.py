"""How two revealed cards affect stamina: the whole card-interaction table in one place.

:func:`clash` states the rules once; :data:`STANDARD_CLASHES` is that function evaluated
for all 36 pairings at full punch values, so the hot path of a standard game is a lookup.
The No Mercy variant caps punch values by stamina, so it calls :func:`clash` directly.
"""

from __future__ import annotations

from enum import Enum
from typing import NamedTuple

from games.punch.cards import CARDS, Card


class Cause(Enum):
    """Why a boxer's stamina changed."""

    HIT = "hit"
    PUNCHED_BACK = "punched_back"
    REST = "rest"
    BREAK = "break"


class Effect(NamedTuple):
    """One boxer's stamina change before capping: ``amount`` < 0 is damage."""

    seat: int
    amount: int
    cause: Cause


REST_GAIN = 1
"""A Do Nothing card gains this much when the opponent throws no punch."""


def clash(cards: tuple[Card, Card], punches: tuple[int, int]) -> tuple[Effect, ...]:
    """The effects of ``cards`` (by seat) thrown with effective punch values ``punches``.

    At most one boxer loses stamina per exchange, which is why punches cancel to their
    difference and a Dodge only ever hurts the puncher."""
    punching = (punches[0] > 0, punches[1] > 0)
    if punching[0] and punching[1]:
        if punches[0] == punches[1]:
            return ()
        weaker = 0 if punches[0] < punches[1] else 1
        return (Effect(weaker, -abs(punches[0] - punches[1]), Cause.HIT),)
    for puncher in (0, 1):
        if punching[puncher]:
            target = 1 - puncher
            defence = cards[target]
            if defence is Card.DO_NOTHING:
                return (Effect(target, -punches[puncher], Cause.HIT),)
            if defence is Card.DODGE:
                return (Effect(puncher, -punches[puncher], Cause.PUNCHED_BACK),)
            return ()
    return tuple(Effect(seat, REST_GAIN, Cause.REST) for seat in (0, 1) if cards[seat] is Card.DO_NOTHING)


STANDARD_CLASHES: dict[tuple[Card, Card], tuple[Effect, ...]] = {
    (a, b): clash((a, b), (a.punch, b.punch)) for a in CARDS for b in CARDS
}
"""Every pairing at full punch values (the rules without No Mercy)."""

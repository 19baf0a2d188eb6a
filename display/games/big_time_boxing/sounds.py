"""Big Time Boxing's sound: the bell, a punch thrown (its whoosh) and landing by the damage
it did, blocks and cover-ups, a Big Hit's gasp, the knockdown and the count (the boxer up
on a heart, or counted out), the referee's warning, and the crowd at the end."""

from __future__ import annotations

from typing import Any

from display.audio import kit
from display.audio.cues import Call, Cue, GameSounds, Kind
from display.audio.ring import RING_CUES, strength_cue
from display.audio.synth import mix
from games.big_time_boxing.cards import BigHit
from games.big_time_boxing.events import (
    BigHitDrawn,
    Clinched,
    Count,
    CoveredUp,
    DamageCause,
    DamageTaken,
    Defended,
    FightEnded,
    GotUp,
    Injured,
    KnockedDown,
    PunchThrown,
    RoundStarted,
    Warned,
)

LANDED = {DamageCause.PUNCH, DamageCause.HEAD_BUTT}
"""Damage heard as a blow landing (an injury's and a knockdown's have their own cues)."""

CUES = {
    **RING_CUES,
    "punch_thrown": Cue(kind=Kind.EFFECT, recipe=lambda _s: kit.whoosh(0.16), what="a punch thrown (before it lands)"),
    "count_up": Cue(
        kind=Kind.VOICE,
        recipe=lambda _s: mix(*((0.45 * k, kit.tick(1500)) for k in range(4)), (1.9, kit.heartbeat())),
        what="the count, and the boxer gets up on a heart",
    ),
    "counted_out": Cue(
        kind=Kind.VOICE,
        recipe=lambda _s: mix(*((0.3 * k, kit.tick(1500 + 40 * k)) for k in range(10)), (3.1, kit.bell(3, 0.18))),
        what="counted out: ten, and the bell",
    ),
    "warned": Cue(kind=Kind.VOICE, recipe=lambda _s: kit.shout("e", 220, 0.3), what="the referee's warning"),
}


def calls(event: Any) -> tuple[Call, ...]:
    if isinstance(event, RoundStarted):
        return (Call(cue="bell"),)
    if isinstance(event, PunchThrown):
        return (Call(cue="punch_thrown"),)
    if isinstance(event, DamageTaken) and event.amount > 0 and event.cause in LANDED:
        return (Call(cue=strength_cue(event.amount)),)
    if isinstance(event, (Defended, CoveredUp, Clinched)):
        return (Call(cue="block"),)
    if isinstance(event, BigHitDrawn) and not event.ignored and event.big_hit is not BigHit.NONE:
        return (Call(cue="crowd_ooh"),)
    if isinstance(event, Injured):
        return (Call(cue="crowd_ooh"),)
    if isinstance(event, KnockedDown):
        return (Call(cue="knockdown"),)
    if isinstance(event, Count):
        return (Call(cue="count_up" if event.heart else "counted_out"),)
    if isinstance(event, GotUp):
        return (Call(cue="crowd"),)
    if isinstance(event, Warned):
        return (Call(cue="warned"),)
    if isinstance(event, FightEnded):
        return (Call(cue="bell_end"), Call(cue="crowd"))
    return ()


SOUNDS = GameSounds(cues=CUES, calls=calls)

"""Cues two boxing games share, one object each (so the cabinet holds one of each):
the bell, punches landing by strength, a block, a knockdown, the count and the crowd."""

from __future__ import annotations

from display.audio import kit
from display.audio.cues import Cue, Kind

RING_CUES = {
    "bell": Cue(kind=Kind.VOICE, recipe=lambda _s: kit.bell(1), what="the bell: a round starts"),
    "bell_end": Cue(kind=Kind.VOICE, recipe=lambda _s: kit.bell(3, 0.18), what="the bell: a round (or fight) ends"),
    "punch_light": Cue(kind=Kind.EFFECT, recipe=lambda _s: kit.punch(0.15), what="a light punch lands"),
    "punch_medium": Cue(kind=Kind.EFFECT, recipe=lambda _s: kit.punch(0.55, 2), what="a solid punch lands"),
    "punch_heavy": Cue(kind=Kind.EFFECT, recipe=lambda _s: kit.punch(1.0, 4), what="a heavy punch lands"),
    "block": Cue(kind=Kind.EFFECT, recipe=lambda _s: kit.block(), what="a punch blocked"),
    "knockdown": Cue(kind=Kind.EFFECT, recipe=lambda _s: kit.knockdown(), what="a boxer hits the canvas"),
    "count": Cue(kind=Kind.VOICE, recipe=lambda _s: kit.tick(1500), what="the referee's count, one tick a number"),
    "crowd": Cue(kind=Kind.EFFECT, recipe=lambda _s: kit.crowd(2.0), what="the crowd cheers (a match or fight won)"),
    "crowd_ooh": Cue(kind=Kind.EFFECT, recipe=lambda _s: kit.crowd(1.2, 23, excited=False), what="the crowd gasps"),
}

STRENGTHS = (("punch_light", 1), ("punch_medium", 2), ("punch_heavy", 1_000))
"""A landed punch's cue by the damage it did: 1, 2, 3 or more (both boxing games deal
1-3 a punch: a random playout's share is about 50/33/17 %)."""


def strength_cue(damage: int) -> str:
    return next(name for name, most in STRENGTHS if damage <= most)

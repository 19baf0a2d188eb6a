"""Punch!'s sound: the bell for each round, cards chosen and revealed, punches landing by
how much stamina they took, a punched-back block, the knockout's fall and count, and the
crowd when a match is won."""

from __future__ import annotations

from typing import Any

from display.audio import kit
from display.audio.cues import Call, Cue, GameSounds, Kind
from display.audio.ring import RING_CUES, strength_cue
from display.audio.synth import mix
from games.punch.clash import Cause
from games.punch.events import CardChosen, CardsRevealed, Knockout, MatchEnded, RoundEnded, RoundStarted, StaminaChanged

CUES = {
    **RING_CUES,
    "card_chosen": Cue(kind=Kind.EFFECT, recipe=lambda _s: kit.card_flip(), what="a card chosen, face down"),
    "reveal": Cue(kind=Kind.EFFECT, recipe=lambda _s: kit.reveal(), what="both cards revealed"),
    "knockout": Cue(
        kind=Kind.VOICE,
        recipe=lambda _s: mix((0, kit.knockdown()), *((0.7 + 0.45 * k, kit.tick(1500)) for k in range(3))),
        what="a knockout: the fall and the count",
    ),
}


def calls(event: Any) -> tuple[Call, ...]:
    if isinstance(event, RoundStarted):
        return (Call(cue="bell"),)
    if isinstance(event, RoundEnded):
        return (Call(cue="bell_end"),)
    if isinstance(event, CardChosen):
        return (Call(cue="card_chosen"),)
    if isinstance(event, CardsRevealed):
        return (Call(cue="reveal"),)
    if isinstance(event, StaminaChanged) and event.delta < 0:
        if event.cause is Cause.HIT:
            return (Call(cue=strength_cue(-event.delta)),)
        if event.cause is Cause.PUNCHED_BACK:
            return (Call(cue="block"),)
    if isinstance(event, Knockout):
        return (Call(cue="knockout"),)
    if isinstance(event, MatchEnded) and event.winner is not None:
        return (Call(cue="crowd"),)
    return ()


SOUNDS = GameSounds(cues=CUES, calls=calls)

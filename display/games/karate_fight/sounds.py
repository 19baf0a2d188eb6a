"""Karate Fight's sound: cards slapped down, the Hit card's kiai, the winner's Hit sting
in the winner's own pitch (never the loser's), the Coward's Blow, Jan Ken's chant, bouts
won with cards sliding over, the Karate Master's gong and time's klaxon."""

from __future__ import annotations

from typing import Any

from display.audio import kit
from display.audio.cues import Call, Cue, GameSounds, Kind
from display.audio.synth import mix, silence
from games.karate_fight.cards import CardKind
from games.karate_fight.events import (
    BoutWon,
    CardPlayed,
    CowardsBlow,
    DeadHeat,
    FighterOut,
    FightWon,
    HitShowing,
    HitWon,
    JanKenRound,
    JanKenStarted,
    JanKenWon,
    KarateMaster,
    TimeUp,
)

DEFENCES = {CardKind.DODGE, CardKind.BLOCK, CardKind.JUMP, CardKind.EVADE}

CUES = {
    "karate_card": Cue(kind=Kind.EFFECT, recipe=lambda _s: kit.slap(), what="a card slapped on the pile"),
    "karate_defence": Cue(
        kind=Kind.EFFECT,
        recipe=lambda _s: mix((0, kit.whoosh(0.18)), (0, kit.slap() * 0.6)),
        what="a defence card played (a dodge's whoosh)",
    ),
    "karate_hit": Cue(kind=Kind.VOICE, recipe=lambda _s: kit.shout("ai", 190, 0.4), what="a Hit card shows: HAI!"),
    "hit_won": Cue(
        kind=Kind.EFFECT,
        recipe=lambda s: mix((0, kit.punch(0.8)), (0.05, kit.sting_win(72 + kit.station_step(s)))),
        per_station=True,
        what="a Hit won: a blow and the winner's own sting",
    ),
    "dead_heat": Cue(
        kind=Kind.EFFECT, recipe=lambda _s: mix((0, kit.block()), (0.07, kit.block(9))), what="a Hit's dead heat"
    ),
    "cowards_blow": Cue(kind=Kind.EFFECT, recipe=lambda _s: kit.cowards_blow(), what="a Coward's Blow (too early)"),
    "jan_ken": Cue(kind=Kind.VOICE, recipe=lambda _s: kit.jan_ken(), what="Jan Ken starts: jan, ken, pon"),
    "jan_ken_throw": Cue(kind=Kind.EFFECT, recipe=lambda _s: kit.slap(43), what="a round of signs thrown"),
    "jan_ken_won": Cue(
        kind=Kind.EFFECT,
        recipe=lambda s: kit.sting_win(79 + kit.station_step(s)),
        per_station=True,
        what="Jan Ken won (the winner's pitch)",
    ),
    "bout_won": Cue(
        kind=Kind.EFFECT,
        recipe=lambda s: mix((0, kit.card_slide()), (0.2, kit.coin(76 + kit.station_step(s)))),
        per_station=True,
        what="a bout won: the pile slides to the winner",
    ),
    "fighter_out": Cue(kind=Kind.EFFECT, recipe=lambda _s: kit.knockdown(), what="a fighter is out of the fight"),
    "karate_master": Cue(
        kind=Kind.VOICE, recipe=lambda _s: mix((0, kit.gong()), (0.3, kit.crowd(1.6))), what="Karate Master: the gong"
    ),
    "time_up": Cue(kind=Kind.VOICE, recipe=lambda _s: kit.alarm(), what="time is up"),
    "karate_cheer": Cue(kind=Kind.EFFECT, recipe=lambda _s: kit.crowd(2.0, 51), what="the fight won: the crowd"),
    **{
        f"call_{kind.value}": Cue(
            kind=Kind.VOICE,
            recipe=lambda _s: silence(0.01),
            recorded_only=True,
            what=f"the announcer calls the card: {kind.value.replace('_', ' ')} (a recording only)",
        )
        for kind in CardKind
    },
}


def calls(event: Any) -> tuple[Call, ...]:
    if isinstance(event, CardPlayed):
        if event.kind is CardKind.JAN_KEN:
            return ()  # JanKenStarted follows with the chant
        slap = Call(cue="karate_defence" if event.kind in DEFENCES else "karate_card")
        return (slap, Call(cue=f"call_{event.kind.value}"))
    if isinstance(event, HitShowing):
        return (Call(cue="karate_hit"),)
    if isinstance(event, HitWon):
        return (Call(cue="hit_won", seat=event.winner),)
    if isinstance(event, DeadHeat):
        return (Call(cue="dead_heat"),)
    if isinstance(event, CowardsBlow):
        return (Call(cue="cowards_blow"),)
    if isinstance(event, JanKenStarted):
        return (Call(cue="jan_ken"),)
    if isinstance(event, JanKenRound):
        return (Call(cue="jan_ken_throw"),)
    if isinstance(event, JanKenWon):
        return (Call(cue="jan_ken_won", seat=event.winner),)
    if isinstance(event, BoutWon):
        return (Call(cue="bout_won", seat=event.winner),)
    if isinstance(event, FighterOut):
        return (Call(cue="fighter_out"),)
    if isinstance(event, KarateMaster):
        return (Call(cue="karate_master"),)
    if isinstance(event, TimeUp):
        return (Call(cue="time_up"),)
    if isinstance(event, FightWon):
        return (Call(cue="karate_cheer"),)
    return ()


SOUNDS = GameSounds(cues=CUES, calls=calls)

"""Tap Race's sound: a tap in the tapper's pitch, and the race won."""

from __future__ import annotations

from typing import Any

from games.tap_race.engine import RaceWon, Tapped

from display.audio import kit
from display.audio.cues import Call, Cue, GameSounds, Kind

CUES = {
    "tap_race_tap": Cue(
        kind=Kind.EFFECT,
        recipe=lambda s: kit.confirm(71 + kit.station_step(s)),
        per_station=True,
        what="a tap (the tapper's pitch)",
    ),
    "tap_race_won": Cue(kind=Kind.EFFECT, recipe=lambda _s: kit.sting_win(72), what="the race won"),
}


def calls(event: Any) -> tuple[Call, ...]:
    if isinstance(event, Tapped):
        return (Call(cue="tap_race_tap", seat=event.player),)
    if isinstance(event, RaceWon):
        return (Call(cue="tap_race_won"),)
    return ()


SOUNDS = GameSounds(cues=CUES, calls=calls)

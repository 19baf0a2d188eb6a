"""What a cue is: a named sound of one kind (effect, voice or music), rendered from a
recipe before play, and what a game's folder hands the cabinet: its cues and the map from
its engine's public events to the cues they play (``display/games/<name>/sounds.py``).

A cue may be a station's own (``per_station``): it is rendered once per station in that
station's pitch and played as ``<name>.<station>`` ("hit_won.1"), so a Hit is announced in
the winner's voice and never the loser's.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from enum import Enum
from typing import Any

from display.audio.synth import Wave


class Kind(Enum):
    """Which channels a cue plays on: slaps never cut the announcer, and neither cuts the music."""

    EFFECT = "effects"
    VOICE = "voice"
    MUSIC = "music"


@dataclass(frozen=True, kw_only=True)
class Cue:
    kind: Kind
    recipe: Callable[[int], Wave]
    """Renders the sound; its argument is the station (0 for a cue that is nobody's)."""
    per_station: bool = False
    what: str = ""
    """What a player hears it for (the ``make sounds`` sheet's caption)."""
    recorded_only: bool = False
    """Heard only from an operator's recording (``<name>.wav``): an announcer's word the
    synthesiser cannot say well (Karate Fight's card names); silent without one."""


@dataclass(frozen=True, kw_only=True)
class Call:
    """A cue an event plays; ``seat``: the seat whose own cue it is (its station's variant)."""

    cue: str
    seat: int | None = None
    otherwise: str | None = None
    """Played instead when ``seat`` is the computer's in a practice game (no station of
    this cabinet): a duel the player lost to the house."""


EventCalls = Callable[[Any], tuple[Call, ...]]
"""An engine event → the cues it plays (empty: none)."""


def no_calls(_event: Any) -> tuple[Call, ...]:
    return ()


@dataclass(frozen=True, kw_only=True)
class GameSounds:
    """A game's sound design: its cues by name and what its events play."""

    cues: Mapping[str, Cue]
    calls: EventCalls = no_calls


SILENT = GameSounds(cues={})
"""A game without a sound design: it plays, silently (the cabinet's scenes still sound)."""


def variant(name: str, station: int) -> str:
    """The played name of station ``station``'s variant of a per-station cue."""
    return f"{name}.{station}"

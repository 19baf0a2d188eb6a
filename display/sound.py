"""Callouts through the cabinet speaker: a card's name called out, a Hit, a knockout.

A callout is a name ("chop", "hit", "knockout").  The operator may drop recorded voice
files named ``<name>.wav`` into the configured folder; a name without a recording gets a
short synthesized cue (a pitch per name), so every callout is heard even on a fresh
cabinet.  With sound disabled in the config nothing is initialised.
"""

from __future__ import annotations

import array
import math
import zlib
from pathlib import Path

import pygame

RATE = 22_050


def _tone(name: str, ms: int = 140) -> pygame.mixer.Sound:
    """A decaying two-partial cue whose pitch is derived from the name (stable)."""
    base = 220 + zlib.crc32(name.encode()) % 660
    n = RATE * ms // 1000
    samples = array.array(
        "h",
        (
            int(
                9000
                * math.exp(-5 * i / n)
                * (math.sin(2 * math.pi * base * i / RATE) + 0.4 * math.sin(4 * math.pi * base * i / RATE))
                / 1.4
            )
            for i in range(n)
        ),
    )
    return pygame.mixer.Sound(buffer=samples.tobytes())


class Callouts:
    def __init__(self, folder: Path | None) -> None:
        if not pygame.mixer.get_init():
            pygame.mixer.init(frequency=RATE, size=-16, channels=1)
        self.folder = folder
        self._sounds: dict[str, pygame.mixer.Sound] = {}
        self.played: list[str] = []

    def sound(self, name: str) -> pygame.mixer.Sound:
        if name not in self._sounds:
            recorded = self.folder / f"{name}.wav" if self.folder is not None else None
            self._sounds[name] = pygame.mixer.Sound(str(recorded)) if recorded and recorded.is_file() else _tone(name)
        return self._sounds[name]

    def call(self, name: str) -> None:
        self.sound(name).play()
        self.played.append(name)
        del self.played[:-32]

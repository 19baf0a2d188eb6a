"""Colours, sizes and fonts: one look for every screen (arcade: big type, strong colour)."""

from __future__ import annotations

from functools import lru_cache

import pygame

BACKGROUND = (14, 16, 26)
PANEL = (28, 32, 48)
PANEL_EDGE = (60, 66, 92)
TEXT = (240, 240, 235)
DIM = (140, 146, 170)
GOLD = (255, 200, 40)
GOOD = (80, 220, 120)
BAD = (255, 80, 70)
WHITE = (255, 255, 255)

STATION_FALLBACK = ((229, 57, 53), (30, 136, 229), (67, 160, 71), (251, 192, 45))


def shade(color: tuple[int, int, int], factor: float) -> tuple[int, int, int]:
    """The colour darkened (factor < 1) or lightened toward white (factor > 1)."""
    if factor <= 1:
        return tuple(int(c * factor) for c in color)  # type: ignore[return-value]
    return tuple(int(c + (255 - c) * (factor - 1)) for c in color)  # type: ignore[return-value]


@lru_cache(maxsize=192)
def font(size: int, bold: bool = False) -> pygame.font.Font:
    """pygame's bundled default font: deterministic, so golden screenshots are stable."""
    f = pygame.font.Font(None, size)
    f.set_bold(bold)
    return f

"""Drawing a playing card face: one look for every game's cards (kind colour, big symbol)."""

from __future__ import annotations

from functools import lru_cache

import pygame

from display import draw, theme
from display.canvas import Canvas
from display.text import TextCache
from display.theme import font

Color = tuple[int, int, int]


@lru_cache(maxsize=256)
def fitting_size(words: str, width: int, largest: int) -> int:
    """The largest bold font size, down to 14, at which ``words`` fit in ``width`` px.

    Text width grows in proportion to the size, so one measurement at the largest size
    gives the answer (then checked): loading a font per candidate size cost 50 ms."""
    wide = font(largest, True).size(words)[0]
    size = max(14, min(largest, largest * width // max(1, wide)))
    while size > 14 and font(size, True).size(words)[0] > width:
        size -= 2
    return size


def card_face(
    surf: Canvas,
    text: TextCache,
    rect: pygame.Rect,
    symbol: str,
    label: str,
    color: Color,
    edge: Color = theme.WHITE,
) -> None:
    """A card with ``symbol`` large in the middle and ``label`` along the bottom."""
    shadow = rect.move(6, 8)
    draw.rect(surf, (0, 0, 0), shadow, border_radius=16)
    draw.rect(surf, (250, 248, 240), rect, border_radius=16)
    inner = rect.inflate(-16, -16)
    draw.rect(surf, color, inner, border_radius=12)
    draw.rect(surf, edge, rect, width=4, border_radius=16)
    size = fitting_size(symbol, inner.width - 12, rect.height // 2)
    text.draw(surf, symbol, size, theme.WHITE, (inner.centerx, inner.centery - rect.height // 10), "center", bold=True)
    label_size = fitting_size(label, inner.width - 8, 36)
    text.draw(surf, label, label_size, theme.WHITE, (inner.centerx, inner.bottom - 24), "center", bold=True)


def card_back(surf: Canvas, rect: pygame.Rect, color: Color) -> None:
    """A face-down card in a station's colour."""
    draw.rect(surf, (0, 0, 0), rect.move(6, 8), border_radius=16)
    draw.rect(surf, theme.shade(color, 0.6), rect, border_radius=16)
    clip = surf.get_clip()
    surf.set_clip(rect.inflate(-10, -10))
    for i in range(0, rect.width + rect.height, 22):
        a = (rect.x + min(i, rect.width), rect.y + max(0, i - rect.width))
        b = (rect.x + max(0, i - rect.height), rect.y + min(i, rect.height))
        draw.line(surf, theme.shade(color, 0.85), a, b, 6)
    surf.set_clip(clip)
    draw.rect(surf, theme.GOLD, rect, width=4, border_radius=16)

"""Drawing a playing card face: one look for every game's cards (kind colour, big symbol)."""

from __future__ import annotations

import pygame

from display import draw, theme
from display.canvas import Canvas, segment
from display.text import TextCache
from display.text import fitting_size as fitting_size  # where the game screens have it from

Color = tuple[int, int, int]
MIN_WORDS_WIDTH = 40
"""A card face narrower inside than this (turning over) shows no words: even the
smallest font would paint outside the card."""
LABEL_LEAST = 28
"""A card's label smaller than this on one line is set on two (the readability floor,
``display.layout.MIN_SIZE``)."""


@segment
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
    if inner.width < MIN_WORDS_WIDTH:  # turned nearly edge-on: words would stick out of the card
        return
    _symbol(surf, text, symbol, inner, (inner.centerx, inner.centery - rect.height // 10), rect.height)
    label_size = text.fitting_size(label, inner.width - 8, 36)
    lines = _two_lines(label)
    if label_size < LABEL_LEAST and lines is not None:  # too long for one line read from two metres: two
        size = min(text.fitting_size(line, inner.width - 8, 36) for line in lines)
        if size > label_size:  # fitted again where drawn: at the display's own scale a size rounds up
            room = inner.width - 8
            bottom = text.draw_fitted(
                surf, lines[1], size, theme.WHITE, (inner.centerx, inner.bottom - 8), room, "midbottom", True
            )
            text.draw_fitted(
                surf, lines[0], size, theme.WHITE, (inner.centerx, bottom.top + 2), room, "midbottom", True
            )
            return
    text.draw_fitted(
        surf, label, label_size, theme.WHITE, (inner.centerx, inner.bottom - 24), inner.width - 8, "center", True
    )


def _symbol(
    surf: Canvas, text: TextCache, symbol: str, inner: pygame.Rect, centre: tuple[int, int], card_height: int
) -> None:
    """The card's big symbol, on two lines when that makes it read bigger ("ON THE
    ROPES" from two metres)."""
    size = text.fitting_size(symbol, inner.width - 12, card_height // 2)
    lines = _two_lines(symbol)
    if lines is not None and size < card_height // 6:
        wrapped = min(text.fitting_size(line, inner.width - 12, card_height // 4) for line in lines)
        if wrapped > size:
            top = text.draw(surf, lines[0], wrapped, theme.WHITE, (centre[0], centre[1] + 2), "midbottom", bold=True)
            text.draw(surf, lines[1], wrapped, theme.WHITE, (centre[0], top.bottom), "midtop", bold=True)
            return
    text.draw(surf, symbol, size, theme.WHITE, centre, "center", bold=True)


def _two_lines(words: str) -> tuple[str, str] | None:
    """``words`` split at the space nearest its middle (None: one word)."""
    spaces = [i for i, c in enumerate(words) if c == " "]
    if not spaces:
        return None
    cut = min(spaces, key=lambda i: abs(len(words) / 2 - i))
    return words[:cut], words[cut + 1 :]


@segment
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

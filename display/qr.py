"""A QR code on the cabinet's screen: the attract screen and Punch Cards' lobby point
phones at the live standings (``[game.punch_cards] web_url``, served by ``ringside web``).

Drawn from segno's module matrix, black on white with the standard's quiet zone, every
module a whole number of pixels at the display's own resolution (a blurred or uneven
module is what makes a phone's camera give up), as large as the box allows."""

from __future__ import annotations

from functools import lru_cache

import pygame

from display import compose
from display.canvas import Canvas, RectLike

QUIET = 4
"""Modules of white around the symbol (the quiet zone a reader needs to find it)."""
DARK, LIGHT = (0, 0, 0), (255, 255, 255)


@lru_cache(maxsize=8)
def qr_modules(text: str) -> tuple[tuple[bool, ...], ...]:
    """The code's modules, row by row (True: dark), without the quiet zone."""
    import segno

    return tuple(tuple(bool(m) for m in row) for row in segno.make(text, error="m", micro=False).matrix)


@lru_cache(maxsize=8)
def _picture(text: str, px: int) -> pygame.Surface:
    modules = qr_modules(text)
    n = len(modules) + 2 * QUIET
    small = pygame.Surface((n, n))
    small.fill(LIGHT)
    for y, row in enumerate(modules):
        for x, dark in enumerate(row):
            if dark:
                small.set_at((x + QUIET, y + QUIET), DARK)
    return pygame.transform.scale(small, (n * px, n * px))  # nearest neighbour: crisp modules


def draw_qr(target: Canvas | pygame.Surface, text: str, box: RectLike) -> pygame.Rect:
    """``text`` as a QR code centred in ``box``, as large as fits in whole pixels per
    module; returns the pixels it painted (quiet zone included)."""
    area = target.px_rect(box) if isinstance(target, Canvas) else pygame.Rect(box)
    n = len(qr_modules(text)) + 2 * QUIET
    picture = _picture(text, max(1, min(area.width, area.height) // n))  # one surface per code: a frame unchanged
    where = picture.get_rect(center=area.center)
    if isinstance(target, Canvas):
        target.paint(compose.blit, (picture, where.topleft), where)  # into the frame's display list
    else:
        target.blit(picture, where)
    return where

"""Cached text rendering: a Pi renders text several times slower than it blits it."""

from __future__ import annotations

import pygame

from display.theme import font

Color = tuple[int, int, int]


class TextCache:
    """Rendered strings keyed by (text, size, colour, bold); bounded, oldest dropped first."""

    def __init__(self, limit: int = 512) -> None:
        self.limit = limit
        self._cache: dict[tuple[str, int, Color, bool], pygame.Surface] = {}

    def render(self, text: str, size: int, color: Color, bold: bool = False) -> pygame.Surface:
        key = (text, size, color, bold)
        surf = self._cache.get(key)
        if surf is None:
            if len(self._cache) >= self.limit:
                self._cache.pop(next(iter(self._cache)))
            surf = font(size, bold).render(text, True, color)
            self._cache[key] = surf
        return surf

    def draw(
        self,
        target: pygame.Surface,
        text: str,
        size: int,
        color: Color,
        pos: tuple[int, int],
        anchor: str = "topleft",
        bold: bool = False,
    ) -> pygame.Rect:
        """Blit ``text`` with ``pos`` at the named rect anchor (``center``, ``midtop``...)."""
        surf = self.render(text, size, color, bold)
        rect = surf.get_rect(**{anchor: pos})
        target.blit(surf, rect)
        return rect

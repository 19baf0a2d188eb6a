"""Cached text rendering: a Pi renders text several times slower than it blits it."""

from __future__ import annotations

import pygame

from display.theme import font

Color = tuple[int, int, int]
MIN_SIZE = 14
"""Text shrunk to fit is never drawn smaller than this."""


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
        max_width: int | None = None,
    ) -> pygame.Rect:
        """Blit ``text`` with ``pos`` at the named rect anchor (``center``, ``midtop``...);
        text wider than ``max_width`` is drawn smaller until it fits (a long name tag)."""
        surf = self.render(text, size, color, bold)
        while max_width is not None and surf.get_width() > max_width and size > MIN_SIZE:
            size -= 2
            surf = self.render(text, size, color, bold)
        rect = surf.get_rect(**{anchor: pos})
        target.blit(surf, rect)
        return rect

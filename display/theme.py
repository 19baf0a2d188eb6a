"""Colours, sizes and fonts: one look for every screen (arcade: big type, strong colour)."""

from __future__ import annotations

from functools import lru_cache
from typing import Protocol

import pygame
import pygame.freetype

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


DEFAULT_EM = 0.6875
"""pygame.font.Font(None, size) draws its bundled font at this share of ``size``: the
FreeType face is sized the same, so layouts keep their measures."""


SIZES_KEPT = 2048
"""Measured strings a face remembers (then it starts again): a few frames' worth."""

GLYPH_BUCKETS = 1024
"""Each FreeType face's glyph cache, in buckets of two glyphs.  pygame's default (64)
drops a glyph whenever three of a face's letters hash into one bucket, so an alphabet
warmed ahead (:mod:`display.ahead`) was loaded and rasterised again when measured: a
Big Time Boxing demo frame spent a fifth of its instructions reloading glyphs
(BENCHMARKS.md, issue 34).  It costs 8 KB of pointers a face."""


def _freetype() -> None:
    """FreeType started with :data:`GLYPH_BUCKETS` (``pygame.init`` starts it with 64;
    started again before the first face is opened: every face keeps the cache it was
    opened with, and nothing else in the program opens one)."""
    if pygame.freetype.get_init() and (pygame.freetype.get_cache_size() >= GLYPH_BUCKETS or Face.opened):
        return
    pygame.freetype.quit()
    pygame.freetype.init(cache_size=GLYPH_BUCKETS)


class Face:
    """One size of the bundled font with pygame.font's ``render``/``size``, drawn by
    FreeType (``pygame.freetype``) with its glyphs at their true fractional advances.

    SDL_ttf hints every glyph to whole pixels: at 14–20 px the rounding opens gaps
    inside words ("Blu e", "pil es", "fig hters").  FreeType's unhinted layout spaces
    the same string evenly; the boxes are padded to the line height as pygame.font's are."""

    opened = 0
    """Faces opened in this process (FreeType is not restarted under one)."""

    def __init__(self, size: int, bold: bool) -> None:
        _freetype()
        Face.opened += 1
        self.face = pygame.freetype.Font(None, max(1.0, size * DEFAULT_EM))  # fractional: 720p and 1080p alike
        self.face.pad = True
        self.face.kerning = False  # kerning cost half as much again per render (BENCHMARKS.md); evenness needs none
        self.face.wide = bold  # emboldened sideways only, as SDL_ttf's bold: an i keeps its dot apart
        self.face.strength = 0.08  # SDL_ttf's weight and width, to the pixel at 30–110
        self._sizes: dict[str, tuple[int, int]] = {}

    def render(self, text: str, antialias: bool, color: tuple[int, int, int]) -> pygame.Surface:
        if not text:
            return pygame.Surface((0, self.face.get_sized_height(0)), pygame.SRCALPHA)
        # Into a surface of SDL_ttf's pixel layout (ARGB): FreeType's own (ABGR) took the
        # slow path on every blit to the screen, 15 times the time (8 µs against 0.5).
        surf = pygame.Surface(self.size(text), pygame.SRCALPHA, 32)
        self.face.render_to(surf, (0, 0), text, color)
        return surf

    def metrics(self, text: str) -> list[tuple[float, ...] | None]:
        """Per character: its glyph's box and advance, None where the font has no glyph."""
        return list(self.face.get_metrics(text))

    def size(self, text: str) -> tuple[int, int]:
        """Measured once per string: screens measure the same strings every frame (a
        fitted name, a chip's box), and FreeType's layout costs more than SDL_ttf's."""
        known = self._sizes.get(text)
        if known is None:
            if len(self._sizes) >= SIZES_KEPT:
                self._sizes.clear()
            rect = self.face.get_rect(text) if text else pygame.Rect(0, 0, 0, self.face.get_sized_height(0))
            known = self._sizes[text] = (rect.width, rect.height)
        return known


UNHINTED_BELOW = 40
"""Type smaller than this (in pixels) is laid out by FreeType unhinted (:class:`Face`):
where SDL_ttf's whole-pixel hinting opened gaps inside words.  From here up a pixel of
rounding is lost in the letter and SDL_ttf draws it, five times quicker (BENCHMARKS.md:
a new headline or big number is the costly render of a frame); FreeType's sideways bold
and SDL_ttf's measure the same to a pixel, so a string keeps its width across the line."""


class Typeface(Protocol):
    """What drawing asks of a face: a string's size, and the string rendered."""

    def size(self, text: str, /) -> tuple[int, int]: ...

    def render(self, text: str, antialias: bool, color: tuple[int, int, int], /) -> pygame.Surface: ...


@lru_cache(maxsize=192)
def font(size: int, bold: bool = False) -> Face | pygame.font.Font:
    """pygame's bundled default font: deterministic, so golden screenshots are stable;
    evenly spaced where it is small (:data:`UNHINTED_BELOW`)."""
    if size < UNHINTED_BELOW:
        return Face(size, bold)
    f = pygame.font.Font(None, size)
    f.set_bold(bold)
    return f

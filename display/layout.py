"""What a frame put where: the strings drawn, the regions of live state, the banners.

A :class:`LayoutRecord` rides on a :class:`display.canvas.Canvas` when a test (or the
contact sheet) asks for it; :func:`problems` says what a player could not read:
text over text, text off the screen, a banner over live state.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum

import pygame

UNITS = (1280, 720)
"""The layout size every screen is designed in (a :class:`display.canvas.Canvas` maps it
onto the display's pixels)."""


class Cover(Enum):
    BANNER = "banner"
    """A notice over the game (KO!, HIT!): it must sit where no live state is."""
    MODAL = "modal"
    """Everything under it waits (PAUSED): what it hides is not being read."""


@dataclass(frozen=True)
class Drawn:
    rect: pygame.Rect
    what: str
    order: int


@dataclass(frozen=True)
class Shape:
    """A shape drawn (:mod:`display.draw`): the box it was asked to fill and the pixels
    it actually painted (as the units the record keeps), which must lie inside it."""

    box: pygame.Rect
    painted: pygame.Rect
    what: str
    order: int


@dataclass
class LayoutRecord:
    texts: list[Drawn] = field(default_factory=list)
    lives: list[Drawn] = field(default_factory=list)
    covers: list[tuple[Drawn, Cover]] = field(default_factory=list)
    shapes: list[Shape] = field(default_factory=list)
    cuts: list[Drawn] = field(default_factory=list)
    """Strings cut short to fit their width (the words in full, the rect drawn)."""
    _order: int = 0

    def _next(self) -> int:
        self._order += 1
        return self._order

    def text(self, rect: pygame.Rect, words: str) -> None:
        self.texts.append(Drawn(pygame.Rect(rect), words, self._next()))

    def live(self, rect: pygame.Rect, what: str) -> None:
        self.lives.append(Drawn(pygame.Rect(rect), what, self._next()))

    def cover(self, rect: pygame.Rect, what: str, kind: Cover) -> None:
        self.covers.append((Drawn(pygame.Rect(rect), what, self._next()), kind))

    def shape(self, box: pygame.Rect, painted: pygame.Rect, what: str) -> None:
        self.shapes.append(Shape(pygame.Rect(box), pygame.Rect(painted), what, self._next()))

    def cut(self, rect: pygame.Rect, words: str) -> None:
        self.cuts.append(Drawn(pygame.Rect(rect), words, self._next()))


INK_INSET = 0.18
"""A string's box includes the font's leading above and below the letters; this share of
its height is trimmed off each side before two strings count as overlapping."""


def ink(rect: pygame.Rect) -> pygame.Rect:
    """The part of a text box the letters fill."""
    dy = round(rect.height * INK_INSET)
    return rect.inflate(-2, -2 * dy)


def problems(rec: LayoutRecord, size: tuple[int, int] = UNITS) -> list[str]:
    """Every way this frame hides what a player must read (empty: none)."""
    out: list[str] = []
    screen = pygame.Rect(0, 0, *size)
    modal = max((d.order for d, kind in rec.covers if kind is Cover.MODAL), default=0)
    banners = [d for d, kind in rec.covers if kind is Cover.BANNER]

    def hidden(t: Drawn) -> bool:
        """Under a later cover: a pause hides everything, a banner what it spans."""
        return t.order < modal or any(b.order > t.order and b.rect.contains(ink(t.rect)) for b in banners)

    seen = [t for t in rec.texts if t.what.strip() and not hidden(t)]
    for t in seen:
        if not screen.contains(t.rect):
            out.append(f"text off the screen: {t.what!r} at {tuple(t.rect)}")
    for i, a in enumerate(seen):
        ia = ink(a.rect)
        for b in seen[i + 1 :]:
            if ia.colliderect(ink(b.rect)):
                out.append(f"text over text: {a.what!r} {tuple(a.rect)} and {b.what!r} {tuple(b.rect)}")
    for b in banners:
        if b.order < modal:
            continue
        for live in rec.lives:
            if modal < live.order < b.order and b.rect.colliderect(live.rect):
                out.append(f"banner {b.what!r} {tuple(b.rect)} covers live state {live.what!r} {tuple(live.rect)}")
    return out

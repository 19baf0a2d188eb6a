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


@dataclass(frozen=True, kw_only=True)
class Type:
    """How a string was drawn, for the readability check: its size in layout units (the
    font size asked for, at 1280×720), its ink and the colour behind it, and whether it
    is a detail (an axis tick, a caption) rather than something a player must read."""

    text: Drawn
    size: float
    ink: tuple[int, int, int]
    back: tuple[int, int, int]
    detail: bool
    bold: bool = False


@dataclass
class LayoutRecord:
    texts: list[Drawn] = field(default_factory=list)
    lives: list[Drawn] = field(default_factory=list)
    covers: list[tuple[Drawn, Cover]] = field(default_factory=list)
    shapes: list[Shape] = field(default_factory=list)
    cuts: list[Drawn] = field(default_factory=list)
    """Strings cut short to fit their width (the words in full, the rect drawn)."""
    types: list[Type] = field(default_factory=list)
    contrast: bool = True
    """Whether strings are recorded with the colour behind them (:attr:`types`, for
    :func:`unreadable`): a pixel sample per string, most of a recorded frame's cost, so
    checks that only need where words went (the frame check, story order) leave it out."""
    _order: int = 0

    def _next(self) -> int:
        self._order += 1
        return self._order

    def text(self, rect: pygame.Rect, words: str) -> None:
        self.texts.append(Drawn(pygame.Rect(rect), words, self._next()))

    def typed(
        self,
        rect: pygame.Rect,
        words: str,
        *,
        size: float,
        ink: tuple[int, int, int],
        back: tuple[int, int, int],
        detail: bool = False,
        bold: bool = False,
    ) -> None:
        """A string drawn (as :meth:`text`) with what its readability is judged on."""
        self.text(rect, words)
        self.types.append(Type(text=self.texts[-1], size=size, ink=ink, back=back, detail=detail, bold=bold))

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


# -- readable from two metres (issue 23) ---------------------------------------------------------
MIN_SIZE = 28
"""The smallest type a player must read, in layout units (the font size at 1280×720):
a line 20 px high at 720p and 30 px at 1080p, capitals 14 and 21 px.  From two metres
before a 32-inch screen a 720p capital of 14 px subtends about 0.22°, the least TV
interfaces allow for body text; the 14–18 px lines seen were sizes 20–26."""
MIN_DETAIL_SIZE = 22
"""A detail a player need not read to play (an axis tick, a caption under a chart)."""
LARGE_SIZE = 36
"""WCAG's large text (24 px at 96 dpi, 18.7 px bold: here size 36, bold from 28):
it may stand at the lower contrast."""
MIN_CONTRAST = 4.5
"""WCAG AA's ratio for body text, between the ink and what is behind it."""
MIN_LARGE_CONTRAST = 3.0
"""WCAG AA's ratio for large text; also what a detail must have."""


def luminance(c: tuple[int, int, int]) -> float:
    """WCAG relative luminance of an sRGB colour."""

    def channel(v: int) -> float:
        x = v / 255
        return x / 12.92 if x <= 0.03928 else ((x + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(v) for v in c)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: tuple[int, int, int], b: tuple[int, int, int]) -> float:
    """WCAG contrast ratio, 1 (none) to 21 (black on white)."""
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def unreadable(rec: LayoutRecord) -> list[str]:
    """Every string a player could not read from two metres: smaller than
    :data:`MIN_SIZE` (a detail: :data:`MIN_DETAIL_SIZE`) or fainter against what is
    behind it than :data:`MIN_CONTRAST` (large text and details: :data:`MIN_LARGE_CONTRAST`).  Strings under a
    modal cover (a pause) are not being read."""
    assert rec.contrast, "a record taken without contrast cannot be judged for it"
    modal = max((d.order for d, kind in rec.covers if kind is Cover.MODAL), default=0)
    out: list[str] = []
    for t in rec.types:
        if not t.text.what.strip() or t.text.order < modal:
            continue
        large = t.size >= LARGE_SIZE or (t.bold and t.size >= MIN_SIZE)
        least = MIN_DETAIL_SIZE if t.detail else MIN_SIZE
        ratio = MIN_LARGE_CONTRAST if t.detail or large else MIN_CONTRAST
        if t.size < least - 0.01:
            out.append(f"text too small: {t.text.what!r} at size {t.size:.0f} (least {least})")
        seen = contrast(t.ink, t.back)
        if seen < ratio:
            out.append(f"text too faint: {t.text.what!r} {t.ink} on {t.back}: {seen:.1f}:1 (least {ratio}:1)")
    return out

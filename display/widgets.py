"""Drawing pieces shared by every screen: panels, banners, segment bars, button hints.

Every game screen keeps :data:`BANNER_BAND` free of live state: a banner (KO!, ROUND 2,
HIT!) is drawn there and nowhere else, so it never hides what a player must read."""

from __future__ import annotations

import pygame

from display import draw, theme
from display.canvas import Canvas, segment
from display.layout import Cover
from display.text import TextCache

Color = tuple[int, int, int]
Target = Canvas | pygame.Surface

TITLE_HEIGHT = 64
BANNER_BAND = pygame.Rect(0, TITLE_HEIGHT + 4, 1280, 76)
"""The notice band under the title bar, reserved on every game screen for banners."""
PLAY_TOP = BANNER_BAND.bottom + 8
"""Where a game screen's own content starts, under the banner band."""
FOOTER_Y = 692
"""The centre line of a screen's key hints."""


@segment
def panel(
    surf: Target,
    rect: pygame.Rect,
    color: Color = theme.PANEL,
    edge: Color = theme.PANEL_EDGE,
    radius: int = 18,
) -> None:
    draw.rect(surf, color, rect, border_radius=radius)
    draw.rect(surf, edge, rect, width=3, border_radius=radius)


@segment
def title_bar(surf: Target, text: TextCache, left: str, centre: str = "", right: str = "") -> None:
    w = surf.get_width()
    draw.rect(surf, theme.PANEL, (0, 0, w, TITLE_HEIGHT))
    draw.line(surf, theme.GOLD, (0, TITLE_HEIGHT), (w, TITLE_HEIGHT), 3)
    title = text.draw(surf, left, 52, theme.GOLD, (24, 32), "midleft", bold=True)
    if centre:
        text.draw(surf, centre, 36, theme.TEXT, (w // 2, 32), "center", max_width=w - 2 * title.right - 40)
    if right:
        text.draw(surf, right, 30, theme.DIM, (w - 24, 32), "midright", max_width=w // 2 - 420)


@segment
def segment_bar(surf: Target, rect: pygame.Rect, level: float, segments: int, color: Color) -> None:
    """A vertical bar of ``segments`` blocks, bottom up, ``level`` in segments (fractions dim)."""
    gap = 6
    h = (rect.height - gap * (segments - 1)) / segments
    for i in range(segments):
        y = rect.bottom - (i + 1) * h - i * gap
        seg = pygame.Rect(rect.x, round(y), rect.width, round(h))
        fill = max(0.0, min(1.0, level - i))
        draw.rect(surf, theme.shade(color, 0.22), seg, border_radius=6)
        if fill > 0:
            lit = seg.copy()
            lit.width = round(seg.width * fill) if fill < 1 else seg.width
            draw.rect(surf, color, lit, border_radius=6)


@segment
def banner(
    surf: Target, text: TextCache, message: str, color: Color, band: pygame.Rect = BANNER_BAND, size: int = 64
) -> None:
    """A strip filling ``band`` with big centred text, for KO!, ROUND 2 and the like.
    Game screens leave the band free (the default, :data:`BANNER_BAND`); the text shrinks
    to fit the band's width."""
    draw.rect(surf, theme.shade(color, 0.8), band)
    draw.line(surf, theme.GOLD, band.topleft, (band.right, band.top), 4)
    draw.line(surf, theme.GOLD, (band.left, band.bottom - 1), (band.right, band.bottom - 1), 4)
    if isinstance(surf, Canvas) and surf.record is not None:
        surf.record.cover(surf.recorded(band), message, Cover.BANNER)
    text.draw(surf, message, size, theme.WHITE, band.center, "center", bold=True, max_width=band.width - 40)


@segment
def key_hint(
    surf: Target, text: TextCache, key: str, label: str, pos: tuple[int, int], color: Color = theme.GOLD
) -> int:
    """Draw a round button cap with ``key`` and its ``label``; return the x after it."""
    x, y = pos
    draw.circle(surf, color, (x + 18, y), 18)
    text.draw(surf, key, 28, theme.BACKGROUND, (x + 18, y), "center", bold=True)
    r = text.draw(surf, label, 30, theme.TEXT, (x + 44, y), "midleft")
    return r.right + 28


def paused_overlay(surf: Target, text: TextCache, message: str) -> None:
    """Dim the whole screen and say why the game waits (a pulled cable, say)."""
    w, h = surf.get_size()
    if isinstance(surf, Canvas):
        surf.shade((0, 0, w, h), (0, 0, 0, 170))
        if surf.record is not None:
            surf.record.cover(surf.recorded((0, 0, w, h)), "paused", Cover.MODAL)
    else:
        shade = pygame.Surface((w, h), pygame.SRCALPHA)
        shade.fill((0, 0, 0, 170))
        surf.blit(shade, (0, 0))
    banner(surf, text, "PAUSED", theme.PANEL_EDGE, pygame.Rect(0, h // 2 - 110, w, 140), 110)
    if message:
        text.draw(surf, message, 36, theme.WHITE, (w // 2, h // 2 + 60), "center", max_width=w - 80)


def seat_name(surf: Target, text: TextCache, name: str, size: int, max_width: int, bold: bool = True) -> str:
    """A seat's name to write in ``max_width``: whole when it fits, else without its
    level ("CPU 1 · EXPERT" → "CPU 1"): the seat is still told apart, and no name is cut
    short with an ellipsis where a shorter true one fits."""
    if text.measure(surf, name, size, bold)[0] <= max_width or " · " not in name:
        return name
    return name.split(" · ")[0]

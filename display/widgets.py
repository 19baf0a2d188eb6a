"""Drawing pieces shared by every screen: panels, banners, segment bars, button hints."""

from __future__ import annotations

import pygame

from display import theme
from display.text import TextCache

Color = tuple[int, int, int]


def panel(
    surf: pygame.Surface,
    rect: pygame.Rect,
    color: Color = theme.PANEL,
    edge: Color = theme.PANEL_EDGE,
    radius: int = 18,
) -> None:
    pygame.draw.rect(surf, color, rect, border_radius=radius)
    pygame.draw.rect(surf, edge, rect, width=3, border_radius=radius)


def title_bar(surf: pygame.Surface, text: TextCache, left: str, centre: str = "", right: str = "") -> None:
    w = surf.get_width()
    pygame.draw.rect(surf, theme.PANEL, (0, 0, w, 64))
    pygame.draw.line(surf, theme.GOLD, (0, 64), (w, 64), 3)
    text.draw(surf, left, 52, theme.GOLD, (24, 32), "midleft", bold=True)
    if centre:
        text.draw(surf, centre, 36, theme.TEXT, (w // 2, 32), "center")
    if right:
        text.draw(surf, right, 30, theme.DIM, (w - 24, 32), "midright")


def segment_bar(surf: pygame.Surface, rect: pygame.Rect, level: float, segments: int, color: Color) -> None:
    """A vertical bar of ``segments`` blocks, bottom up, ``level`` in segments (fractions dim)."""
    gap = 6
    h = (rect.height - gap * (segments - 1)) / segments
    for i in range(segments):
        y = rect.bottom - (i + 1) * h - i * gap
        seg = pygame.Rect(rect.x, round(y), rect.width, round(h))
        fill = max(0.0, min(1.0, level - i))
        pygame.draw.rect(surf, theme.shade(color, 0.22), seg, border_radius=6)
        if fill > 0:
            lit = seg.copy()
            lit.width = round(seg.width * fill) if fill < 1 else seg.width
            pygame.draw.rect(surf, color, lit, border_radius=6)


def banner(surf: pygame.Surface, text: TextCache, message: str, color: Color, y: int, size: int = 96) -> None:
    """A full-width strip with big centred text, for KO!, ROUND 2 and the like."""
    label = text.render(message, size, theme.WHITE, bold=True)
    strip = pygame.Rect(0, 0, surf.get_width(), label.get_height() + 36)
    strip.centery = y
    pygame.draw.rect(surf, theme.shade(color, 0.8), strip)
    pygame.draw.line(surf, theme.GOLD, strip.topleft, strip.topright, 4)
    pygame.draw.line(surf, theme.GOLD, strip.bottomleft, strip.bottomright, 4)
    surf.blit(label, label.get_rect(center=strip.center))


def key_hint(
    surf: pygame.Surface, text: TextCache, key: str, label: str, pos: tuple[int, int], color: Color = theme.GOLD
) -> int:
    """Draw a round button cap with ``key`` and its ``label``; return the x after it."""
    x, y = pos
    pygame.draw.circle(surf, color, (x + 18, y), 18)
    text.draw(surf, key, 28, theme.BACKGROUND, (x + 18, y), "center", bold=True)
    r = text.draw(surf, label, 30, theme.TEXT, (x + 44, y), "midleft")
    return r.right + 28


def paused_overlay(surf: pygame.Surface, text: TextCache, message: str) -> None:
    """Dim the whole screen and say why the game waits (a pulled cable, say)."""
    shade = pygame.Surface(surf.get_size(), pygame.SRCALPHA)
    shade.fill((0, 0, 0, 170))
    surf.blit(shade, (0, 0))
    h = surf.get_height()
    banner(surf, text, "PAUSED", theme.PANEL_EDGE, h // 2 - 40, 110)
    text.draw(surf, message, 36, theme.WHITE, (surf.get_width() // 2, h // 2 + 60), "center")

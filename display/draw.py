"""pygame.draw's shapes for a :class:`display.canvas.Canvas` (layout units, drawn at the
display's resolution) or a plain surface (pixels), so screens are written once."""

from __future__ import annotations

from collections.abc import Sequence

import pygame

from display.canvas import Canvas, RectLike

Color = tuple[int, ...]
Target = Canvas | pygame.Surface


def rect(target: Target, color: Color, r: RectLike, width: int = 0, border_radius: int = 0) -> pygame.Rect:
    if isinstance(target, Canvas):
        return pygame.draw.rect(
            target.surface, color, target.px_rect(r), target.px(width), target.px(border_radius) if border_radius else 0
        )
    return pygame.draw.rect(target, color, r, width, border_radius)


def circle(target: Target, color: Color, centre: tuple[float, float], radius: float, width: int = 0) -> pygame.Rect:
    if isinstance(target, Canvas):
        return pygame.draw.circle(target.surface, color, target.px_point(centre), target.px(radius), target.px(width))
    return pygame.draw.circle(target, color, centre, radius, width)


def line(target: Target, color: Color, a: tuple[float, float], b: tuple[float, float], width: int = 1) -> pygame.Rect:
    if isinstance(target, Canvas):
        return pygame.draw.line(target.surface, color, target.px_point(a), target.px_point(b), target.px(width))
    return pygame.draw.line(target, color, a, b, width)


def ellipse(target: Target, color: Color, r: RectLike, width: int = 0) -> pygame.Rect:
    if isinstance(target, Canvas):
        return pygame.draw.ellipse(target.surface, color, target.px_rect(r), target.px(width))
    return pygame.draw.ellipse(target, color, r, width)


def polygon(target: Target, color: Color, points: Sequence[tuple[float, float]], width: int = 0) -> pygame.Rect:
    if isinstance(target, Canvas):
        return pygame.draw.polygon(target.surface, color, [target.px_point(p) for p in points], target.px(width))
    return pygame.draw.polygon(target, color, points, width)


def lines(
    target: Target, color: Color, closed: bool, points: Sequence[tuple[float, float]], width: int = 1
) -> pygame.Rect:
    if isinstance(target, Canvas):
        return pygame.draw.lines(target.surface, color, closed, [target.px_point(p) for p in points], target.px(width))
    return pygame.draw.lines(target, color, closed, points, width)

"""pygame.draw's shapes for a :class:`display.canvas.Canvas` (layout units, drawn at the
display's resolution) or a plain surface (pixels), so screens are written once."""

from __future__ import annotations

from collections.abc import Sequence

import pygame

from display.canvas import Canvas, RectLike

Color = tuple[int, ...]
Target = Canvas | pygame.Surface


def rect(target: Target, color: Color, r: RectLike, width: int = 0, border_radius: int = 0) -> pygame.Rect:
    """A rectangle, filled (``width`` 0) or outlined, its corners rounded by ``border_radius``;
    painted only inside ``r`` whatever its size (:func:`fit_rect`)."""
    if isinstance(target, Canvas):
        surface = target.surface
        box, width, border_radius = (
            target.px_rect(r),
            target.px(width),
            target.px(border_radius) if border_radius else 0,
        )
    else:
        surface, box = target, pygame.Rect(r)
    fitted = fit_rect(box, width, border_radius)
    if fitted is None:
        return pygame.Rect(box.x, box.y, 0, 0)
    return pygame.draw.rect(surface, color, *fitted)


def fit_rect(box: pygame.Rect, width: int, border_radius: int) -> tuple[pygame.Rect, int, int] | None:
    """What pygame can draw inside ``box`` (pixels): None for an empty or inside-out box
    (a card turned edge-on, a rect inflated past nothing); a border as wide as half the
    box is the box filled; a radius at most half the smaller side.  Unclamped, pygame-ce
    paints a rounded border wider than its box as a block about 200 px wide around it
    (Punch!'s card flip drew a yellow slab over both cards on every reveal, issue 23)."""
    if box.width <= 0 or box.height <= 0:
        return None
    half = min(box.width, box.height) // 2
    if width > 0 and width >= half:
        width = 0
    return box, width, max(0, min(border_radius, half))


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

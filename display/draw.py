"""pygame.draw's shapes for a :class:`display.canvas.Canvas` (layout units, drawn at the
display's resolution) or a plain surface (pixels), so screens are written once.

On a canvas that carries a layout record every shape is written down with the box it
was asked to fill and the pixels pygame reports it painted
(:meth:`display.layout.LayoutRecord.shape`), so :mod:`display.frame_check` can see paint
outside a shape's box and a shape drawn over live state."""

from __future__ import annotations

from collections.abc import Sequence

import pygame

from display import compose
from display.canvas import Canvas, RectLike

Color = tuple[int, ...]
Target = Canvas | pygame.Surface


def _record(target: Canvas, box: pygame.Rect, painted: pygame.Rect, what: str) -> None:
    """Write a shape drawn on ``target`` (its pixels) into its layout record, if any."""
    if target.record is not None:
        target.record.shape(target.unit_rect(box, root=True), target.unit_rect(painted, root=True), what)


def _around(points: Sequence[tuple[int, int]], width: int) -> pygame.Rect:
    """The box of a line through ``points`` ``width`` pixels thick."""
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    pad = width // 2 + 1
    return pygame.Rect(min(xs) - pad, min(ys) - pad, max(xs) - min(xs) + 2 * pad + 1, max(ys) - min(ys) + 2 * pad + 1)


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
        painted = pygame.Rect(box.x, box.y, 0, 0)
    elif isinstance(target, Canvas):
        paint = compose.rounded_rect if fitted[2] else pygame.draw.rect
        painted = target.paint(paint, (color, tuple(fitted[0]), *fitted[1:]), fitted[0])
    else:
        painted = pygame.draw.rect(surface, color, *fitted)
    if isinstance(target, Canvas):
        _record(target, box, painted, "rect")
    return painted


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
        (x, y), r = target.px_point(centre), target.px(radius)
        box = pygame.Rect(x - r - 1, y - r - 1, 2 * r + 3, 2 * r + 3)
        painted = target.paint(pygame.draw.circle, (color, (x, y), r, target.px(width)), box)
        _record(target, box, painted, "circle")
        return painted
    return pygame.draw.circle(target, color, centre, radius, width)


def line(target: Target, color: Color, a: tuple[float, float], b: tuple[float, float], width: int = 1) -> pygame.Rect:
    if isinstance(target, Canvas):
        ends, px = [target.px_point(a), target.px_point(b)], target.px(width)
        box = _around(ends, px)
        painted = target.paint(pygame.draw.line, (color, ends[0], ends[1], px), box.inflate(2, 2))
        _record(target, box, painted, "line")
        return painted
    return pygame.draw.line(target, color, a, b, width)


def ellipse(target: Target, color: Color, r: RectLike, width: int = 0) -> pygame.Rect:
    if isinstance(target, Canvas):
        box = target.px_rect(r)
        painted = target.paint(pygame.draw.ellipse, (color, tuple(box), target.px(width)), box.inflate(2, 2))
        _record(target, box, painted, "ellipse")
        return painted
    return pygame.draw.ellipse(target, color, r, width)


def polygon(target: Target, color: Color, points: Sequence[tuple[float, float]], width: int = 0) -> pygame.Rect:
    if isinstance(target, Canvas):
        px_points, px = tuple(target.px_point(p) for p in points), target.px(width)
        box = _around(px_points, px)
        painted = target.paint(pygame.draw.polygon, (color, px_points, px), box.inflate(2, 2))
        _record(target, box, painted, "polygon")
        return painted
    return pygame.draw.polygon(target, color, points, width)


def lines(
    target: Target, color: Color, closed: bool, points: Sequence[tuple[float, float]], width: int = 1
) -> pygame.Rect:
    if isinstance(target, Canvas):
        px_points, px = tuple(target.px_point(p) for p in points), target.px(width)
        box = _around(px_points, px)
        painted = target.paint(pygame.draw.lines, (color, closed, px_points, px), box.inflate(2, 2))
        _record(target, box, painted, "lines")
        return painted
    return pygame.draw.lines(target, color, closed, points, width)

"""Motion as a pure function of time: where a moving thing is drawn ``now``, given when its
move started.

The game state is decided first and the screen catches up: a bar that changed at ``t``
eases from its old level to the new one over a few hundred milliseconds, a Hit flashes,
a knockdown shakes the ring.  Nothing here keeps state between frames, so the same
screen model at the same time always draws the same picture (golden screenshots stay
exact) and an animation can never hold back an input or a judgement.
"""

from __future__ import annotations

import math

import pygame

from display.canvas import Canvas

BAR_US = 200_000
"""A bar moves from its old level to its new one in this long: seen to move, and settled
before the next exchange of a quick Punch! (a press 210 ms after a reveal)."""
FLASH_US = 450_000
"""A Hit's flash fades in this long."""
SHAKE_US = 500_000
"""A knockdown shakes the ring this long."""
SLIDE_US = 250_000
"""A played card slides to its place in this long."""
FLIP_US = 180_000
"""A revealed card turns over in this long: quick, so the face is soon there to read."""
STILL_AFTER_US = 6_000_000
"""No play screen moves longer than this after its newest event (the longest: Big Time
Boxing's round score, up 4.5 s, and its cards dealt 0.7 s apart), unless its game says
it is moving (:attr:`display.games.registry.GameScreens.moving`): after it, a frame of the
same model is the same picture and is not drawn again (tests/display/test_compose.py
holds every game to it)."""


def progress(now_us: int, start_us: int, duration_us: int) -> float:
    """How far a move that started at ``start_us`` is at ``now_us``: 0 to 1."""
    if duration_us <= 0 or now_us >= start_us + duration_us:
        return 1.0
    return max(0.0, (now_us - start_us) / duration_us)


def ease_out(p: float) -> float:
    """Fast start, soft landing (cubic): how things move when they are hit."""
    p = min(1.0, max(0.0, p))
    return 1 - (1 - p) ** 3


def tween(old: float, new: float, now_us: int, start_us: int, duration_us: int = BAR_US) -> float:
    """The level drawn for a value that changed from ``old`` to ``new`` at ``start_us``."""
    return old + (new - old) * ease_out(progress(now_us, start_us, duration_us))


def flash(now_us: int, start_us: int, duration_us: int = FLASH_US) -> float:
    """A flash's strength: 1 at ``start_us``, fading to 0 (0 before it starts)."""
    if now_us < start_us:
        return 0.0
    return 1 - progress(now_us, start_us, duration_us)


def shake(now_us: int, start_us: int, amplitude_px: int = 14, duration_us: int = SHAKE_US) -> tuple[int, int]:
    """How far to offset a shaken picture: a damped wobble, still after ``duration_us``."""
    p = progress(now_us, start_us, duration_us)
    if now_us < start_us or p >= 1:
        return 0, 0
    damp = (1 - p) ** 2
    t = (now_us - start_us) / 1_000_000
    return round(amplitude_px * damp * math.sin(2 * math.pi * 13 * t)), round(
        amplitude_px * 0.6 * damp * math.sin(2 * math.pi * 9 * t + 1.0)
    )


def shake_surface(target: Canvas | pygame.Surface, offset: tuple[int, int], fill: tuple[int, int, int]) -> None:
    """Move the whole picture by ``offset`` (layout units on a canvas) and fill the strip
    it uncovers."""
    if isinstance(target, Canvas):
        dx, dy = target.px(offset[0]), target.px(offset[1])
        if dx or dy:
            whole = target.surface.get_rect()
            target.paint(_shake_area, (tuple(whole), (dx, dy), fill), whole, reads=True)
        return
    dx, dy = offset
    if dx == dy == 0:
        return
    surf = target
    surf.scroll(dx, dy)
    w, h = surf.get_size()
    if dx:
        surf.fill(fill, pygame.Rect(0 if dx > 0 else w + dx, 0, abs(dx), h))
    if dy:
        surf.fill(fill, pygame.Rect(0, 0 if dy > 0 else h + dy, w, abs(dy)))


def shake_area(
    target: Canvas | pygame.Surface, area: pygame.Rect, offset: tuple[int, int], fill: tuple[int, int, int]
) -> None:
    """Move only the picture inside ``area`` (units on a canvas) by ``offset``: a shaken
    ring, the rest of the screen still."""
    if offset == (0, 0):
        return
    if isinstance(target, Canvas):
        px = target.px_rect(area).clip(target.surface.get_rect())
        target.paint(_shake_area, (tuple(px), (target.px(offset[0]), target.px(offset[1])), fill), px, reads=True)
    else:
        shake_surface(target.subsurface(area.clip(target.get_rect())), offset, fill)


def _shake_area(
    surface: pygame.Surface, area: tuple[int, int, int, int], offset: tuple[int, int], fill: tuple[int, int, int]
) -> pygame.Rect:
    """Pixels: move the picture inside ``area`` of ``surface`` by ``offset``."""
    shake_surface(surface.subsurface(area), offset, fill)
    return pygame.Rect(area)


def pulse(now_us: int, start_us: int, per_second: float = 2.0) -> float:
    """A steady glow's strength, 0 to 1 and back ``per_second`` times, from ``start_us``
    (0 at the start): something waiting to be answered."""
    if now_us < start_us:
        return 0.0
    return 0.5 - 0.5 * math.cos(2 * math.pi * per_second * (now_us - start_us) / 1_000_000)


def mix(a: tuple[int, int, int], b: tuple[int, int, int], share: float) -> tuple[int, int, int]:
    """``a`` turned ``share`` (0 to 1) of the way to ``b``: a flash fading out."""
    k = min(1.0, max(0.0, share))
    return (round(a[0] + (b[0] - a[0]) * k), round(a[1] + (b[1] - a[1]) * k), round(a[2] + (b[2] - a[2]) * k))


def slide(
    start: tuple[int, int], end: tuple[int, int], now_us: int, start_us: int, duration_us: int = SLIDE_US
) -> tuple[int, int]:
    """Where a card sliding from ``start`` to ``end`` is drawn."""
    e = ease_out(progress(now_us, start_us, duration_us))
    return round(start[0] + (end[0] - start[0]) * e), round(start[1] + (end[1] - start[1]) * e)


def flip_width(now_us: int, start_us: int, duration_us: int = FLIP_US) -> tuple[float, bool]:
    """A card turning over: its drawn width as a share of its own (1 → 0 → 1) and whether
    its face is showing yet (after the half-way point)."""
    p = progress(now_us, start_us, duration_us)
    return abs(1 - 2 * p), p >= 0.5

"""The surface every screen draws on: layout units (1280×720) over a display of any size.

Screens are laid out once, in the units of a 1280×720 display.  A :class:`Canvas` maps
those units onto the real pixels (1920×1080 is 1.5 px a unit, the development window's
960×540 is 0.75), so shapes and text are drawn at the display's own resolution (crisp
type at any size, never a 720p bitmap stretched).  Drawing goes through
:mod:`display.draw` (shapes) and :class:`display.text.TextCache` (text), which both take a
Canvas or a plain pygame surface.

A canvas may carry a :class:`display.layout.LayoutRecord`: then every string drawn, every
region a screen marks as live state and every banner is written down, so a test can
check that nothing a player must read is covered, overlapped or off the screen.  With no
record the cost is one ``is None`` test per call.

A canvas may instead carry a :class:`display.compose.Frame`: then nothing is painted, each
paint operation is written into the frame's display list for
:class:`display.compose.Composer` to repaint only what changed (:meth:`Canvas.paint`).
A drawing marked :func:`segment` (a panel, a bar, a card) is then recorded once for its
inputs and put into later frames whole (:class:`display.compose.Segment`).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Hashable
from typing import Any, Concatenate, ParamSpec, TypeVar

import pygame

from display import compose
from display.layout import UNITS, LayoutRecord

RectLike = pygame.Rect | tuple[int, int, int, int]
P = ParamSpec("P")
R = TypeVar("R")


class Canvas:
    """A pygame surface seen in layout units; letterboxed when its shape is not 16:9."""

    def __init__(
        self,
        surface: pygame.Surface,
        record: LayoutRecord | None = None,
        area: pygame.Rect | None = None,
        frame: compose.Frame | None = None,
    ) -> None:
        """``area``: the pixels of ``surface`` the layout fills (all of it by default);
        ``frame``: record paint operations into it instead of painting ``surface``."""
        self.surface = surface
        self.record = record
        self.frame = frame
        area = area or surface.get_rect()
        self.scale = min(area.width / UNITS[0], area.height / UNITS[1])
        self.offset = (
            area.x + round((area.width - UNITS[0] * self.scale) / 2),
            area.y + round((area.height - UNITS[1] * self.scale) / 2),
        )
        self._root = (self.scale, self.offset)
        """The surface's own mapping: what the layout record's rects are in."""
        self._same = self.scale == 1 and self.offset == (0, 0)
        """Units are pixels (the cabinet's 1280×720): no arithmetic per shape."""
        self._whole: pygame.Rect | None = None
        """What filling the whole canvas paints: the surface (None), or an inset's area."""

    def inset(self, area: RectLike) -> Canvas:
        """A canvas that draws a whole screen shrunk into ``area`` of this one (a demo game
        above its band), recording into the same layout record in this one's units."""
        child = Canvas(self.surface, self.record, self.px_rect(area), self.frame)
        child._root = self._root
        child._same = False
        child._whole = child.px_rect((0, 0, *UNITS))
        return child

    # -- what screens ask of a surface, in units ---------------------------------------------
    def get_size(self) -> tuple[int, int]:
        return UNITS

    def get_width(self) -> int:
        return UNITS[0]

    def get_height(self) -> int:
        return UNITS[1]

    def paint(
        self, paint: compose.Paint, args: tuple[Hashable, ...], box: pygame.Rect, reads: bool = False
    ) -> pygame.Rect:
        """``paint(surface, *args)`` (pixels), which touches nothing outside ``box``: done
        now, or written into the frame being recorded (then ``box`` is returned: what it
        may paint).  ``reads``: it moves pixels already there (a shake)."""
        if self.frame is None:
            return paint(self.surface, *args)
        return self.frame.add(paint, args, box, reads)

    def segment(self, draw: Callable[..., R], *args: Any, **kwargs: Any) -> R:
        """``draw(self, *args, **kwargs)``; while recording a frame that keeps segments, its paint
        operations are recorded once for the same ``args`` (and this canvas's mapping and
        clip) and put into the frame as one :class:`display.compose.Segment`.  ``draw``
        must depend on nothing else (its args are the key: rects, lists and dicts in them
        are keyed by value)."""
        frame = self.frame
        if frame is None or frame.segments is None:
            return draw(self, *args, **kwargs)
        clip = frame.clip
        key = (
            draw,
            self.scale,
            self.offset,
            None if clip is None else tuple(clip),
            _keys(args),
            _key(kwargs) if kwargs else (),
        )
        segment = frame.segments.get(key)
        if segment is None:
            part = compose.Frame(frame.size, frame.segments)
            part.clip = clip
            self.frame = part
            try:
                result = draw(self, *args, **kwargs)
            finally:
                self.frame = frame
            segment = compose.Segment(part, result)
            frame.segments.put(key, segment)
        if segment.ops:
            frame.add(compose.replay, (segment,), segment.box)
            frame.readers += segment.readers
        frame.clip = segment.clip_after
        result = segment.result
        return pygame.Rect(result) if isinstance(result, pygame.Rect) else result  # type: ignore[return-value]

    def again(self, draw: Callable[..., None], *args: Hashable) -> None:
        """``draw(self, *args)``; while recording a frame that keeps segments, drawn for the
        same ``args`` (and this canvas's mapping and clip) as last time, its operations then
        are put in again, one by one: a demo's game unchanged while only its band blinks is
        not drawn again in Python, and what does change between two frames is still found
        operation by operation (as one :class:`display.compose.Segment` any change would
        repaint all of it).  ``draw`` must depend on nothing else."""
        frame = self.frame
        if frame is None or frame.segments is None:
            draw(self, *args)
            return
        clip = frame.clip
        slot = (draw, self.scale, self.offset, None if clip is None else tuple(clip))
        key = _keys(args)
        latest = frame.segments.latest.get(slot)
        if latest is None or latest[0] != key:
            part = compose.Frame(frame.size, frame.segments)
            part.clip = clip
            self.frame = part
            try:
                draw(self, *args)
            finally:
                self.frame = frame
            latest = frame.segments.latest[slot] = (key, compose.Segment(part, None))
        recorded = latest[1]
        frame.ops += recorded.ops
        frame.boxes += recorded.boxes
        frame.readers += recorded.readers
        frame.clip = recorded.clip_after

    def fill(self, color: tuple[int, ...], rect: RectLike | None = None) -> None:
        """Fill ``rect``, or the whole canvas: the surface, or an inset's own area (a demo
        game's background is not painted again under its band)."""
        if rect is None and self._whole is None:
            self.paint(compose.fill, (color, None), self.surface.get_rect())
            return
        px = self.px_rect(rect if rect is not None else (0, 0, *UNITS))
        self.paint(compose.fill, (color, tuple(px)), px)

    def set_clip(self, rect: RectLike | None) -> None:
        """Clip to ``rect``; one covering the whole surface is no clip, as a clip put back
        (``get_clip`` answers the whole surface when none is set) is kept: a frame's
        later operations then compare equal to the last frame's (else a card drawn
        clipped and put back repainted everything after it: a demo's band, its footer)."""
        clip = None if rect is None else self.px_rect(rect)
        if clip is not None and clip.contains(self.surface.get_rect()):
            clip = None
        if self.frame is not None:
            self.frame.clip = clip
        else:
            self.surface.set_clip(clip)

    def get_clip(self) -> pygame.Rect:
        if self.frame is not None:
            return self.unit_rect(self.frame.clip or self.surface.get_rect())
        return self.unit_rect(self.surface.get_clip())

    def shade(self, rect: RectLike, rgba: tuple[int, int, int, int]) -> None:
        """A translucent layer over ``rect`` (a demo band, a pause)."""
        px = self.px_rect(rect)
        self.paint(compose.shade, (tuple(px), rgba), px)

    def blit(self, image: pygame.Surface, topleft: tuple[float, float]) -> None:
        """Put a picture drawn at this canvas's own resolution (a figure asked for at
        ``px(size)`` pixels) with its top-left corner at ``topleft`` in units: no scaling,
        so it stays crisp."""
        at = self.px_point(topleft)
        self.paint(compose.blit, (image, at), image.get_rect(topleft=at))

    def recorded(self, r: RectLike) -> pygame.Rect:
        """``r`` as the layout record keeps it (the whole surface's units)."""
        return self.unit_rect(self.px_rect(r), root=True)

    # -- unit ↔ pixel ----------------------------------------------------------------------------
    def px(self, v: float) -> int:
        """A length in pixels (at least 1 for a non-zero length)."""
        if self._same:
            return round(v)
        n = round(v * self.scale)
        return n if n or not v else (1 if v > 0 else -1)

    def px_point(self, p: tuple[float, float]) -> tuple[int, int]:
        if self._same:
            return round(p[0]), round(p[1])
        return round(p[0] * self.scale) + self.offset[0], round(p[1] * self.scale) + self.offset[1]

    def px_rect(self, r: RectLike) -> pygame.Rect:
        r = pygame.Rect(r)
        if self._same:
            return r
        x0, y0 = self.px_point(r.topleft)
        x1, y1 = self.px_point(r.bottomright)
        return pygame.Rect(x0, y0, x1 - x0, y1 - y0)

    def unit_rect(self, r: pygame.Rect, root: bool = False) -> pygame.Rect:
        """Pixels to this canvas's units (``root``: to the whole surface's units)."""
        if self._same:
            return pygame.Rect(r)
        s, (ox, oy) = self._root if root else (self.scale, self.offset)
        x0, y0 = (r.x - ox) / s, (r.y - oy) / s
        x1, y1 = (r.right - ox) / s, (r.bottom - oy) / s
        return pygame.Rect(round(x0), round(y0), round(x1) - round(x0), round(y1) - round(y0))


def segment(draw: Callable[Concatenate[Any, P], R]) -> Callable[Concatenate[Any, P], R]:
    """Mark ``draw(target, *args)`` as a segment (:meth:`Canvas.segment`): on a recording
    canvas it is drawn once for the same arguments; on a surface or a canvas that paints
    (the layout record's) it is simply called."""

    @functools.wraps(draw)
    def recorded(target: Any, *args: P.args, **kwargs: P.kwargs) -> R:
        if isinstance(target, Canvas):
            return target.segment(draw, *args, **kwargs)
        return draw(target, *args, **kwargs)

    return recorded


PLAIN = {int, float, str, bool, type(None)}
"""Argument types that are their own key, taken as they are without a call (a frame
builds a key for every segment it puts in): numbers, words and flags, and every type
:func:`_key` has answered a value of as it is (a text cache, a station's look)."""


def _keys(values: tuple[Any, ...]) -> tuple[Hashable, ...]:
    """Each of ``values`` as a key (:func:`_key`)."""
    return tuple([v if type(v) in PLAIN else _key(v) for v in values])


def _key(value: Any) -> Hashable:
    """``value`` as a dictionary key: rects as tuples, lists as tuples, dicts as sorted pairs
    (a tuple that hashes as it is stays as it is: most arguments are colours and numbers)."""
    if isinstance(value, tuple):
        try:
            hash(value)
        except TypeError:
            return tuple(_key(v) for v in value)
        return value
    if isinstance(value, pygame.Rect):
        return ("rect", value.x, value.y, value.w, value.h)
    if isinstance(value, list):
        return tuple(_key(v) for v in value)
    if isinstance(value, dict):
        return tuple(sorted((k, _key(v)) for k, v in value.items()))
    PLAIN.add(type(value))  # neither a tuple, a rect, a list nor a dict: its own key, always
    return value  # type: ignore[no-any-return]


def live(target: Canvas | pygame.Surface, rect: RectLike, what: str) -> None:
    """Mark ``rect`` as live state (what a player must be able to read now): no banner
    may cover it.  Free when nothing records."""
    if isinstance(target, Canvas) and target.record is not None:
        target.record.live(target.recorded(rect), what)

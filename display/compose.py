"""Frames that cost what changed in them, not the whole screen.

A screen is still drawn from its model alone, whole, every frame (so the same model at
the same time always gives the same picture), but onto a canvas that *records*: each fill,
shape, text and picture is written down as a paint operation with the pixels it may touch
(:class:`Frame`, a display list) and nothing is painted.  :class:`Composer` compares the
frame with the one on screen and repaints only where they differ: every operation that
touches a changed rectangle is replayed in order, clipped to it, onto the retained
picture.  A frame that changed nothing paints nothing; the cards turning over repaint
the middle of the table, not the 1080p background, panels and labels around them.

Replaying every operation that touches a rectangle, from the screen's first (an opaque
fill of the whole surface), reproduces that rectangle exactly as a whole redraw would:
shapes, text and translucent layers are painted pixel by pixel under a clip.  An
operation that reads the pixels under it (a shaken area scrolls what is already there)
is replayed only over its whole area.  A frame that does not start with a whole-surface
fill is painted whole.

A screen's parts that depend on few inputs (a panel with its labels, a bar at a level, a
card face) are recorded once as a :class:`Segment`, kept in :class:`Segments` keyed by
those inputs, and put into later frames as one operation (:func:`replay`): the drawing
code does not run again, and comparing two frames compares the segment by identity, not
each of its operations.  Replayed under a clip it paints its own operations in order,
each under its own clip cut to that one, so the pixels are a whole redraw's.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Hashable
from typing import Any

import pygame

Box = tuple[int, int, int, int]
Paint = Callable[..., pygame.Rect]
"""A paint operation: called as ``paint(surface, *args)``, returns the pixels it painted."""
MAX_RECTS = 12
"""More changed rectangles than this are merged into fewer (each costs a pass over the
display list)."""
SEGMENTS_KEPT = 128
"""Recorded segments kept (the least recently used dropped): a busy screen puts
10–15 into a frame.  Bounded in count because a segment keeps the rendered strings it
blits alive after the text cache has let them go."""


class Frame:
    """One frame's display list: the paint operations in order, each with its clip and the
    box of pixels it may touch."""

    def __init__(self, size: tuple[int, int], segments: Segments | None = None) -> None:
        """``segments``: where recorded segments are kept between frames (none: none are)."""
        self.size = size
        self.segments = segments
        self.ops: list[tuple[Paint, tuple[Hashable, ...], Box | None]] = []
        self.boxes: list[pygame.Rect] = []
        self.readers: list[pygame.Rect] = []
        """Boxes of operations that read the pixels they move (shakes)."""
        self.clip: pygame.Rect | None = None

    def add(self, paint: Paint, args: tuple[Hashable, ...], box: pygame.Rect, reads: bool = False) -> pygame.Rect:
        """Write down ``paint(surface, *args)``, which touches no pixel outside ``box``; the
        box, clipped as the operation will be, is what it may paint."""
        clip = self.clip
        box = box.clip(clip) if clip is not None else box.clip((0, 0, *self.size))
        self.ops.append((paint, args, None if clip is None else (clip.x, clip.y, clip.w, clip.h)))
        self.boxes.append(box)
        if reads:
            self.readers.append(box)
        return box

    def starts_whole(self) -> bool:
        """Whether the first operation paints every pixel opaquely (a background fill)."""
        if not self.ops:
            return False
        paint, args, clip = self.ops[0]
        return paint is fill and clip is None and len(args[0]) == 3 and self.boxes[0].size == self.size  # type: ignore[arg-type]


class Segment:
    """A run of paint operations recorded once (:meth:`display.canvas.Canvas.segment`):
    equal only to itself, so a frame that puts the same segment in again is unchanged
    there without comparing its operations."""

    __slots__ = ("box", "boxes", "clip_after", "ops", "readers", "result")

    def __init__(self, frame: Frame, result: Any) -> None:
        """The operations ``frame`` recorded; ``result``: what drawing them returned."""
        self.ops = frame.ops
        self.boxes = frame.boxes
        self.readers = frame.readers
        self.clip_after = frame.clip
        """The clip the drawing left set."""
        self.result = result
        painted = [b for b in frame.boxes if b.w and b.h]
        self.box = painted[0].unionall(painted[1:]) if painted else pygame.Rect(0, 0, 0, 0)
        """Every pixel its operations may touch."""


class Segments:
    """Recorded segments by key (the drawing, the canvas's mapping and clip, the inputs),
    the least recently used dropped past :data:`SEGMENTS_KEPT`."""

    def __init__(self, kept: int = SEGMENTS_KEPT) -> None:
        self.kept = kept
        self._by_key: dict[Hashable, Segment] = {}
        self.latest: dict[Hashable, tuple[Hashable, Segment]] = {}
        """Per drawing put in again operation by operation (:meth:`display.canvas.Canvas.again`):
        its inputs last time and what it recorded (one each: it is reused by the next frame
        or never)."""

    def get(self, key: Hashable) -> Segment | None:
        segment = self._by_key.pop(key, None)
        if segment is not None:
            self._by_key[key] = segment  # (re)inserted last: the most recently used
        return segment

    def put(self, key: Hashable, segment: Segment) -> None:
        self._by_key[key] = segment
        while len(self._by_key) > self.kept:
            del self._by_key[next(iter(self._by_key))]


def replay(surface: pygame.Surface, segment: Segment) -> pygame.Rect:
    """Paint ``segment``'s operations in order, each under its own clip cut to the clip
    set now (what the composer repaints)."""
    limit = surface.get_clip()
    for (paint, args, clip), box in zip(segment.ops, segment.boxes, strict=True):
        if not box.colliderect(limit):
            continue
        area = limit.clip(clip) if clip is not None else limit
        if not area.w or not area.h:
            continue
        surface.set_clip(area)
        paint(surface, *args)
    surface.set_clip(limit)
    return segment.box


def fill(surface: pygame.Surface, color: tuple[int, ...], rect: Box | None) -> pygame.Rect:
    return surface.fill(color, rect)


def blit(surface: pygame.Surface, image: pygame.Surface, topleft: tuple[int, int]) -> pygame.Rect:
    return surface.blit(image, topleft)


def rounded_rect(surface: pygame.Surface, color: tuple[int, ...], rect: Box, width: int, radius: int) -> pygame.Rect:
    """``pygame.draw.rect`` with rounded corners, but under a clip that meets none of its
    corners' squares as the plain fills it paints there (the whole rect, or its four
    bands): pygame lays out a rounded rect whole whatever the clip (a boxer's panel
    repainted where its figure moved cost a quarter of a demo frame), and away from the
    corners its pixels are exactly these (``tests/display/test_compose.py``)."""
    clip = surface.get_clip()
    x, y, w, h = rect
    corners = ((x, y), (x + w - radius, y), (x, y + h - radius), (x + w - radius, y + h - radius))
    if any(clip.colliderect((cx, cy, radius, radius)) for cx, cy in corners):
        return pygame.draw.rect(surface, color, rect, width, radius)
    if width == 0:
        surface.fill(color, rect)
    else:
        for band in ((x, y, w, width), (x, y + h - width, w, width), (x, y, width, h), (x + w - width, y, width, h)):
            surface.fill(color, band)
    return clip.clip(rect)


def shade(surface: pygame.Surface, rect: Box, rgba: tuple[int, int, int, int]) -> pygame.Rect:
    """A translucent layer over ``rect``."""
    layer = pygame.Surface(rect[2:], pygame.SRCALPHA)
    layer.fill(rgba)
    return surface.blit(layer, rect[:2])


class Composer:
    """Keeps the picture on ``surface`` equal to the last frame composed, repainting only
    what changed."""

    def __init__(self, surface: pygame.Surface) -> None:
        self.surface = surface
        self.shown: Frame | None = None

    def forget(self) -> None:
        """The surface was painted by someone else: the next frame is painted whole."""
        self.shown = None

    def compose(self, frame: Frame) -> list[pygame.Rect]:
        """Bring the surface to ``frame``; the rectangles repainted (none: nothing changed)."""
        whole = self.surface.get_rect()
        if self.shown is None or not frame.starts_whole() or self.shown.size != frame.size:
            dirty = [whole]
        else:
            dirty = _merge(changed(self.shown, frame), frame.readers, whole)
        for rect in dirty:
            self._replay(frame, rect, None if rect == whole else rect)
        self.surface.set_clip(None)
        self.shown = frame
        return dirty

    def _replay(self, frame: Frame, rect: pygame.Rect, limit: pygame.Rect | None) -> None:
        surface = self.surface
        for (paint, args, clip), box in zip(frame.ops, frame.boxes, strict=True):
            if not box.colliderect(rect):
                continue
            if limit is None:
                surface.set_clip(clip)
            else:
                area = limit.clip(clip) if clip is not None else limit
                if not area.w or not area.h:
                    continue
                surface.set_clip(area)
            paint(surface, *args)


def changed(old: Frame, new: Frame) -> list[pygame.Rect]:
    """The boxes where ``new`` may differ from ``old``: operations only one of them has (or
    has more often); everything when the operations both have are in another order."""
    before, after = Counter(old.ops), Counter(new.ops)
    if before == after and old.ops == new.ops:
        return []
    rects = [box for op, box in zip(new.ops, new.boxes, strict=True) if after[op] != before.get(op, 0)]
    rects += [box for op, box in zip(old.ops, old.boxes, strict=True) if before[op] != after.get(op, 0)]
    kept_new = [op for op in new.ops if after[op] == before.get(op, 0)]
    kept_old = [op for op in old.ops if before[op] == after.get(op, 0)]
    if kept_new != kept_old:
        return [pygame.Rect(0, 0, *new.size)]
    return [r for r in rects if r.w and r.h]


def _merge(rects: list[pygame.Rect], readers: list[pygame.Rect], whole: pygame.Rect) -> list[pygame.Rect]:
    """Fewer, larger rectangles: overlapping ones joined, one that touches a reader's box
    grown over all of it, at most :data:`MAX_RECTS` (else the two nearest joined)."""
    out: list[pygame.Rect] = []
    pending = [r.clip(whole) for r in rects]
    while pending:
        r = pending.pop()
        if not r.w or not r.h:
            continue
        for box in readers:
            if r.colliderect(box) and not r.contains(box):
                r = r.union(box)
        hit = r.collidelist(out)
        if hit >= 0:
            pending.append(r.union(out.pop(hit)))
        else:
            out.append(r)
    while len(out) > MAX_RECTS:
        a = out.pop()
        i = min(range(len(out)), key=lambda k: _area(out[k].union(a)) - _area(out[k]) - _area(a))
        pending = [a.union(out.pop(i))]
        out = _merge(pending + out, readers, whole)
    return out


def _area(r: pygame.Rect) -> int:
    return r.w * r.h

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

import operator
from collections import Counter
from collections.abc import Callable, Hashable
from typing import Any, cast

import pygame

Box = tuple[int, int, int, int]
Paint = Callable[..., pygame.Rect]
"""A paint operation: called as ``paint(surface, *args)``, returns the pixels it painted."""
MAX_RECTS = 24
"""More changed rectangles than this are merged into fewer (each costs a pass over the
display list)."""
SEGMENTS_KEPT = 128
"""Recorded segments kept (the least recently used dropped): a busy screen puts
10–15 into a frame.  Bounded in count because a segment keeps the rendered strings it
blits alive after the text cache has let them go."""
MADE_WHEN_PAINTED: dict[Paint, Callable[..., object]] = {}
"""Paint operations that make the picture they paint when they first paint it (a figure
in a pose), each with what makes it from the operation's own arguments: a drawing that
only records (:mod:`display.ahead`'s planning) makes none, and the picture can be made
ahead, in a step of its own (:func:`made_when_painted`)."""
IN_PLACE = 4
"""Two display lists as long as each other are compared place by place when they differ
at no more than one place in this many (:func:`_differ`); else by counting operations,
which finds an operation moved or put in without marking all that follows it."""
CORNERS_KEPT = 64
"""Rounded rects' corner pictures kept (:func:`_corners`; the least recently used
dropped): a screen's cards, panels and chips in their few sizes and colours."""


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
        self._bounds = pygame.Rect(0, 0, *size)

    def add(self, paint: Paint, args: tuple[Hashable, ...], box: pygame.Rect, reads: bool = False) -> pygame.Rect:
        """Write down ``paint(surface, *args)``, which touches no pixel outside ``box``; the
        box, clipped as the operation will be, is what it may paint."""
        clip = self.clip
        box = box.clip(clip if clip is not None else self._bounds)
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


class _Kept:
    """A segment kept, and when it was last used (a count of uses)."""

    __slots__ = ("segment", "used")

    def __init__(self, segment: Segment, used: int) -> None:
        self.segment = segment
        self.used = used


class Segments:
    """Recorded segments by key (the drawing, the canvas's mapping and clip, the inputs),
    the least recently used dropped past :data:`SEGMENTS_KEPT`."""

    def __init__(self, kept: int = SEGMENTS_KEPT) -> None:
        self.kept = kept
        self._by_key: dict[Hashable, _Kept] = {}
        self._uses = 0
        self.latest: dict[Hashable, tuple[Hashable, Segment]] = {}
        """Per drawing put in again operation by operation (:meth:`display.canvas.Canvas.again`):
        its inputs last time and what it recorded (one each: it is reused by the next frame
        or never)."""

    def get(self, key: Hashable) -> Segment | None:
        """The segment kept for ``key``, now the most recently used (marked in place: a
        key holding a game's state hashes in Python, and a frame looks up a dozen)."""
        kept = self._by_key.get(key)
        if kept is None:
            return None
        self._uses += 1
        kept.used = self._uses
        return kept.segment

    def put(self, key: Hashable, segment: Segment) -> None:
        self._uses += 1
        self._by_key[key] = _Kept(segment, self._uses)
        if len(self._by_key) > self.kept:  # the least recently used goes
            del self._by_key[min(self._by_key.items(), key=_last_use)[0]]


def _last_use(item: tuple[Hashable, _Kept]) -> int:
    return item[1].used


def made_when_painted(frame: Frame) -> list[tuple[Paint, tuple[Hashable, ...]]]:
    """``frame``'s operations (its segments' too) that make their picture when painted
    (:data:`MADE_WHEN_PAINTED`), each once, in order."""
    out: dict[tuple[Paint, tuple[Hashable, ...]], None] = {}
    pending = [frame.ops]
    while pending:
        for paint, args, _clip in pending.pop():
            if paint is replay:
                pending.append(args[0].ops)  # type: ignore[attr-defined]
            elif paint in MADE_WHEN_PAINTED:
                out[paint, args] = None
    return list(out)


def replay(surface: pygame.Surface, segment: Segment) -> pygame.Rect:
    """Paint ``segment``'s operations in order, each under its own clip cut to the clip
    set now (what the composer repaints)."""
    limit = surface.get_clip()
    ops = segment.ops
    for i in limit.collidelistall(segment.boxes):  # the operations it touches, found without a Python step each
        paint, args, clip = ops[i]
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


_CORNERS: dict[Hashable, pygame.Surface] = {}


def rounded_rect(surface: pygame.Surface, color: tuple[int, ...], rect: Box, width: int, radius: int) -> pygame.Rect:
    """``pygame.draw.rect`` with rounded corners, painted as plain fills (the rect but its
    corners' squares, or its four sides) and, where the clip meets them, its corners'
    squares blitted from a picture of pygame's own, drawn once for the same colour, border
    and radius (:func:`_corners`).  pygame lays out a rounded rect whole whatever the clip:
    a card sliding or turning over, a panel repainted under a moving figure, laid it out
    every frame (a seventh of a Big Time Boxing demo frame).  The pixels are pygame's: away
    from the corners they are exactly these fills, and a rounded rect's corners are the
    same wherever it is (``tests/display/test_compose.py``).  For a rect
    :func:`display.draw.fit_rect` has clamped (its border under half its smaller side)."""
    clip = surface.get_clip()
    x, y, w, h = rect
    corners = ((x, y), (x + w - radius, y), (x, y + h - radius), (x + w - radius, y + h - radius))
    met = [(cx, cy) for cx, cy in corners if clip.colliderect((cx, cy, radius, radius))]
    if met and (surface.get_bitsize() != 32 or surface.get_masks()[3]):  # a colour key needs every shade
        return pygame.draw.rect(surface, color, rect, width, radius)
    across, down = w - 2 * radius, h - 2 * radius
    if width == 0 and not met:
        bands: tuple[Box, ...] = (rect,)
    elif width == 0:
        bands = ((x + radius, y, across, h), (x, y + radius, radius, down), (x + w - radius, y + radius, radius, down))
    else:
        bands = (
            (x + radius, y, across, width),
            (x + radius, y + h - width, across, width),
            (x, y + radius, width, down),
            (x + w - width, y + radius, width, down),
        )
    for band in bands:
        surface.fill(color, band)
    if met:
        picture = _corners(surface, color, width, radius)
        for cx, cy in met:
            surface.blit(picture, (cx, cy), (radius if cx > x else 0, radius if cy > y else 0, radius, radius))
    return clip.clip(rect)


def _corners(surface: pygame.Surface, color: tuple[int, ...], width: int, radius: int) -> pygame.Surface:
    """The four corner squares (``radius`` a side) of ``pygame.draw.rect(color, rect,
    width, radius)`` in one square picture ``2 * radius`` a side, each in its own corner,
    in ``surface``'s pixel format; what pygame does not paint there is colour-keyed out.
    They are the same for a rect of any size pygame can draw them in (its corners are laid
    out from its edges: checked for radii 1–39, borders 0–30, every size to 13 px past
    the least), so they are drawn once, on a square just large enough."""
    key = (color, width, radius, surface.get_masks())
    picture = _CORNERS.pop(key, None)
    if picture is None:
        side = 2 * (radius + width + 1)
        square = pygame.Surface((side, side), 0, surface)
        unpainted = (255 - color[0], *color[1:3])  # another red: never the colour's
        square.fill(unpainted)
        pygame.draw.rect(square, color, (0, 0, side, side), width, radius)
        picture = pygame.Surface((2 * radius, 2 * radius), 0, surface)
        far = side - radius
        for cx, cy in ((0, 0), (1, 0), (0, 1), (1, 1)):
            picture.blit(square, (cx * radius, cy * radius), (cx * far, cy * far, radius, radius))
        picture.set_colorkey(unpainted)
    _CORNERS[key] = picture  # (re)inserted last: the most recently used
    while len(_CORNERS) > CORNERS_KEPT:
        del _CORNERS[next(iter(_CORNERS))]
    return picture


OUTLINES = (rounded_rect, pygame.draw.rect)
"""Paint operations called ``(color, rect, width, radius)``: with a width, an outline that
paints within ``max(width, radius)`` of the rect's edges (:func:`_sides`)."""


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
        ops = frame.ops
        for i in rect.collidelistall(frame.boxes):  # the operations it touches, found without a Python step each
            paint, args, clip = ops[i]
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
    has more often); everything when the operations both have are in another order.  A
    segment put in where the old frame had another at the same place (a board whose edge
    turned gold as the turn passed) gives only the boxes where the two segments differ
    (:func:`_within`)."""
    if old.ops == new.ops:  # (compared before any is hashed)
        return []
    rects = _differ(old.ops, old.boxes, new.ops, new.boxes)
    if rects is None:
        return [pygame.Rect(0, 0, *new.size)]
    return [r for r in rects if r.w and r.h]


Op = tuple[Paint, tuple[Hashable, ...], Box | None]
Ops = list[Op]


def _differ(
    old_ops: Ops, old_boxes: list[pygame.Rect], new_ops: Ops, new_boxes: list[pygame.Rect]
) -> list[pygame.Rect] | None:
    """:func:`changed` of two display lists (a frame's or a segment's); None when the
    operations both have are in another order.  Lists as long as each other that differ
    at a few places (a frame whose clock moved a bar, a card, a figure) are compared place
    by place (:func:`_in_place`), which hashes nothing."""
    if len(old_ops) == len(new_ops):
        places = [i for i, same in enumerate(map(operator.eq, old_ops, new_ops)) if not same]
        if len(places) * IN_PLACE <= len(new_ops):
            return _in_place(old_ops, old_boxes, new_ops, new_boxes, places)
    before, after = Counter(old_ops), Counter(new_ops)
    added = [after[op] != before.get(op, 0) for op in new_ops]
    gone = [before[op] != after.get(op, 0) for op in old_ops]
    kept_new = [op for op, a in zip(new_ops, added, strict=True) if not a]
    kept_old = [op for op, g in zip(old_ops, gone, strict=True) if not g]
    if kept_new != kept_old:
        return None
    if not _replaced_segments(new_ops, added):
        return [box for box, a in zip(new_boxes, added, strict=True) if a] + [
            box for box, g in zip(old_boxes, gone, strict=True) if g
        ]
    return _within(_slots(old_ops, old_boxes, gone), _slots(new_ops, new_boxes, added))


def _in_place(
    old_ops: Ops, old_boxes: list[pygame.Rect], new_ops: Ops, new_boxes: list[pygame.Rect], places: list[int]
) -> list[pygame.Rect]:
    """The boxes of both lists' operations at ``places`` (where they differ): every other
    place holds the same operation in both, so a pixel outside those boxes is painted by
    the same operations in the same order.  Two segments at the same place and box give
    only where they differ."""
    rects: list[pygame.Rect] = []
    for i in places:
        rects += _between(old_ops[i], old_boxes[i], new_ops[i], new_boxes[i])
    return rects


def _between(was: Op, box_was: pygame.Rect, now: Op, box_now: pygame.Rect) -> list[pygame.Rect]:
    """Where two operations at the same place in their lists may paint differently: both
    boxes; two segments at the same place and box, where their operations differ; an
    outline whose colour alone changed (a board's edge turning gold as the turn passes),
    its four sides (:func:`_sides`), not what they enclose."""
    if was[2] == now[2] and box_was == box_now:
        if was[0] is replay and now[0] is replay:
            a, b = was[1][0], now[1][0]
            inner = _differ(a.ops, a.boxes, b.ops, b.boxes)  # type: ignore[attr-defined]
            if inner is not None:
                return inner
        elif was[0] is now[0] and was[0] in OUTLINES and was[1][1:] == now[1][1:]:
            rect, width, radius = cast(tuple[Box, int, int], was[1][1:])
            if width:
                return _sides(rect, max(width, radius), box_now)
    return [box_was, box_now]


def _sides(rect: Box, ring: int, box: pygame.Rect) -> list[pygame.Rect]:
    """The four sides, ``ring`` pixels deep, of ``rect``'s edge, within ``box``: all an
    outline that deep paints (a rounded one's corners lie within its radius)."""
    x, y, w, h = rect
    if 2 * ring >= min(w, h):
        return [box]
    sides = (
        (x, y, w, ring),
        (x, y + h - ring, w, ring),
        (x, y + ring, ring, h - 2 * ring),
        (x + w - ring, y + ring, ring, h - 2 * ring),
    )
    return [box.clip(side) for side in sides]


def _replaced_segments(ops: Ops, added: list[bool]) -> bool:
    """Whether any operation only ``ops`` has is a segment or an outline (one it may have
    replaced at the same place: :func:`_between`)."""
    return any(a and (op[0] is replay or op[0] in OUTLINES) for op, a in zip(ops, added, strict=True))


Slot = list[tuple[tuple[Paint, tuple[Hashable, ...], Box | None], pygame.Rect]]


def _slots(ops: Ops, boxes: list[pygame.Rect], only: list[bool]) -> list[Slot]:
    """The operations only this list has, grouped by the operations both have before them
    (slot ``k``: after the ``k``-th kept one), each with its box."""
    slots: list[Slot] = [[]]
    for op, box, o in zip(ops, boxes, only, strict=True):
        if o:
            slots[-1].append((op, box))
        else:
            slots.append([])
    return slots


def _within(old: list[Slot], new: list[Slot]) -> list[pygame.Rect]:
    """The boxes of the operations only one list has, slot by slot; where a slot of each
    has as many, the ``k``-th of each paired, a pair of segments at the same place gives
    only where they differ (:func:`_differ` of their operations): every pixel outside the
    boxes is then painted by the same operations in the same order in both lists."""
    rects: list[pygame.Rect] = []
    for was, now in zip(old, new, strict=True):
        if len(was) != len(now):
            rects += [box for _op, box in was] + [box for _op, box in now]
            continue
        for (op_was, box_was), (op_now, box_now) in zip(was, now, strict=True):
            rects += _between(op_was, box_was, op_now, box_now)
    return rects


def _merge(rects: list[pygame.Rect], readers: list[pygame.Rect], whole: pygame.Rect) -> list[pygame.Rect]:
    """Fewer, larger rectangles: overlapping ones joined where one rectangle covering both
    is no larger than the two (else both kept: what they share is repainted twice, and a
    panel's four sides with a chip across one of them are not joined into the whole
    panel), one that touches a reader's box grown over all of it, at most
    :data:`MAX_RECTS` (else the two nearest joined)."""
    out: list[pygame.Rect] = []
    pending = [r.clip(whole) for r in rects]
    while pending:
        r = pending.pop()
        if not r.w or not r.h:
            continue
        for box in readers:
            if r.colliderect(box) and not r.contains(box):
                r = r.union(box)
        for hit in r.collidelistall(out):
            if _area(r.union(out[hit])) <= _area(r) + _area(out[hit]):
                pending.append(r.union(out.pop(hit)))
                break
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

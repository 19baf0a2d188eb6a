"""Cached text rendering: a Pi renders text several times slower than it blits it."""

from __future__ import annotations

import unicodedata
from collections.abc import Callable

import numpy as np
import pygame

from display import compose
from display.canvas import Canvas
from display.theme import UNHINTED_BELOW, Typeface, font

Color = tuple[int, int, int]
MIN_SIZE = 14
"""Text shrunk to fit is never drawn smaller than this."""

BUDGET_BYTES = 2 * 2**20
"""Pixels kept rendered: three times the busiest frame's text (≈ 0.6 MB, a Karate Fight
result with its 110 px headline).  Bounded in bytes, not strings: one headline weighs as
much as a hundred labels, and 512 strings of any size held up to 16 MB; each evicted
surface also leaves the heap more fragmented, so the budget is kept small."""


SHRUNK_KEPT = 1024
"""Sizes of strings shrunk or fitted to a width remembered (then forgotten all at once): a
few screens' worth."""

NEW_STRING_INSTRUCTIONS = 250_000
"""About what a string new to a cache costs to fit or render at the sizes screens use,
faces open and warmed (a demo's first frame fitted and rendered ~40: 5.7 M of render)."""


class Later(Exception):
    """A drawing stopped: the cache's :attr:`TextCache.allowance` for new strings was spent."""


STAND_INS = str.maketrans({"✗": "×", "✓": "√", "→": "»", "←": "«"})
"""Symbols the bundled font has no glyph for (it would draw a box), with the nearest it has:
report lines written for a terminal (calibration's ✗ and →) read the same on the screen."""


class TextCache:
    """Rendered strings keyed by (text, size, colour, bold); the least recently drawn are
    dropped once the cached pixels pass ``budget_bytes``.

    The drawing methods take a :class:`display.canvas.Canvas` (sizes, places and widths
    in layout units; the type is rendered at the display's own resolution, and the string
    written to the canvas's layout record) or a plain surface (pixels)."""

    def __init__(self, budget_bytes: int = BUDGET_BYTES) -> None:
        self.budget_bytes = budget_bytes
        self.bytes = 0
        self._cache: dict[tuple[str, int, Color, bool], pygame.Surface] = {}
        self._shrink: dict[tuple[str, int, float, int, bool], int] = {}
        self._fits: dict[tuple[str, int, int, bool], tuple[str, int]] = {}
        self.allowance: int | None = None
        """Instructions a drawing may still spend on strings new to the cache (None: no
        limit); a new string asked past it raises :class:`Later` (the first is always
        allowed): a coming frame drawn ahead a bounded step at a time (``Renderer.prepare``)."""

    def _spend(self) -> None:
        """Account for a string new to the cache (:attr:`allowance`)."""
        if self.allowance is not None:
            if self.allowance <= 0:
                raise Later
            self.allowance -= NEW_STRING_INSTRUCTIONS

    def render(self, text: str, size: int, color: Color, bold: bool = False) -> pygame.Surface:
        key = (text, size, color, bold)
        surf = self._cache.pop(key, None)
        if surf is None:
            self._spend()
            surf = self.face(size, bold).render(text.translate(STAND_INS), True, color)
            self.bytes += _size(surf)
            while self.bytes > self.budget_bytes and self._cache:
                self.bytes -= _size(self._cache.pop(next(iter(self._cache))))
        self._cache[key] = surf  # (re)inserted last: the most recently drawn
        return surf

    def face(self, size: int, bold: bool) -> Typeface:
        """The face strings are measured and rendered in (:func:`display.theme.font`)."""
        return font(size, bold)

    def fitting_size(self, words: str, width: int, largest: int) -> int:
        """:func:`fitting_size` (a planning cache answers by estimate where it is not known)."""
        return fitting_size(words, width, largest)

    def fitted(self, text: str, size: int, color: Color, max_width: int, bold: bool = False) -> pygame.Surface:
        """``text`` no wider than ``max_width``: in smaller type (down to 3/4 of ``size``),
        else cut short with an ellipsis.  For text the cabinet does not choose (players'
        names from a convention-wide ledger), so no string can spill out of its place.
        The bundled font has no combining marks: an accent NFC cannot fold into its letter
        is left out rather than drawn as a box under the line."""
        return self.render(*self._fit(text, size, max_width, bold), color, bold)

    def draw_fitted(
        self,
        target: Canvas | pygame.Surface,
        text: str,
        size: int,
        color: Color,
        pos: tuple[int, int],
        max_width: int,
        anchor: str = "topleft",
        bold: bool = False,
        detail: bool = False,
    ) -> pygame.Rect:
        """:meth:`draw` of :meth:`fitted` text."""
        scale = target.scale if isinstance(target, Canvas) else 1.0
        shown, px = self._fit(text, _px(size, scale), int(max_width * scale), bold)
        drawn = size * px / _px(size, scale)  # the size it came to, for the readability record
        rect = _place(target, self.render(shown, px, color, bold), pos, anchor, text, (drawn, color, detail, bold))
        if shown.endswith("…") and not text.endswith("…") and isinstance(target, Canvas) and target.record is not None:
            target.record.cut(target.recorded(rect), text)
        return rect

    def draw(
        self,
        target: Canvas | pygame.Surface,
        text: str,
        size: int,
        color: Color,
        pos: tuple[int, int],
        anchor: str = "topleft",
        bold: bool = False,
        max_width: int | None = None,
        detail: bool = False,
    ) -> pygame.Rect:
        """Blit ``text`` with ``pos`` at the named rect anchor (``center``, ``midtop``...);
        text wider than ``max_width`` is drawn smaller until it fits (a long name tag).
        ``detail``: not something a player must read to play (an axis tick, a caption):
        the readability check holds it to a smaller least size."""
        scale = target.scale if isinstance(target, Canvas) else 1.0
        if max_width is not None:
            size = self._shrunk(text, size, scale, max_width, bold)
        surf = self.render(text, _px(size, scale), color, bold)
        return _place(target, surf, pos, anchor, text, (size, color, detail, bold))

    def _shrunk(self, text: str, size: int, scale: float, max_width: int, bold: bool) -> int:
        """The size :meth:`draw` writes ``text`` at to fit ``max_width``: 2 units smaller
        at a time, measured (a rendered string is exactly as wide) rather than rendered at
        every size on the way; remembered, as rendered strings are."""
        key = (text, size, scale, max_width, bold)
        known = self._shrink.get(key)
        if known is None:
            self._spend()
            shown = text.translate(STAND_INS)
            known = size
            while self.face(_px(known, scale), bold).size(shown)[0] > max_width * scale and known > MIN_SIZE:
                known -= 2
            if len(self._shrink) >= SHRUNK_KEPT:
                self._shrink.clear()
            self._shrink[key] = known
        return known

    def _fit(self, text: str, size: int, max_width: int, bold: bool) -> tuple[str, int]:
        """:func:`fit` in this cache's faces, remembered as rendered strings are (a card's
        label is fitted each frame it slides: its letters normalised and looked at one
        by one, a Python call each)."""
        key = (text, size, max_width, bold)
        known = self._fits.get(key)
        if known is None:
            self._spend()
            if len(self._fits) >= SHRUNK_KEPT:
                self._fits.clear()
            known = self._fits[key] = fit(text, size, max_width, bold, self.face)
        return known

    def measure(self, target: Canvas | pygame.Surface, text: str, size: int, bold: bool = False) -> tuple[int, int]:
        """How big ``text`` is drawn on ``target``, in its units."""
        scale = target.scale if isinstance(target, Canvas) else 1.0
        w, h = self.face(_px(size, scale), bold).size(text)
        return round(w / scale), round(h / scale)


FITTED_KEPT = 1024
"""Fitted sizes remembered (then forgotten all at once): a few games' cards, and a boxing
demo's words planned at every level its computers may play at (~300)."""
_fitted: dict[tuple[str, int, int], int] = {}


def fitting_size(words: str, width: int, largest: int) -> int:
    """The largest bold font size, down to 14, at which ``words`` fit in ``width`` px.

    Text width grows in proportion to the size, so one measurement at the largest size
    gives the answer (then checked): loading a font per candidate size cost 50 ms.
    Remembered for words as wide as these (:func:`_as_wide`), and for these words as
    they are (found without working out the others: a frame asks for many)."""
    key = (words, width, largest)
    size = _fitted.get(key)
    if size is None:
        wide = (_as_wide(words, largest), width, largest)
        size = _fitted.get(wide)
        if len(_fitted) >= FITTED_KEPT - 1:
            _fitted.clear()
        if size is None:
            size = _fitted[wide] = fitted_in(font, words, width, largest)
        _fitted[key] = size
    return size


def fitting_size_known(words: str, width: int, largest: int) -> int | None:
    """:func:`fitting_size`'s answer if it is remembered (nothing measured)."""
    known = _fitted.get((words, width, largest))
    return known if known is not None else _fitted.get((_as_wide(words, largest), width, largest))


FIGURES_AS_ZERO = str.maketrans("123456789", "000000000")


def _as_wide(words: str, largest: int) -> str:
    """Words exactly as wide as ``words`` in every bold face from :data:`MIN_SIZE` to
    ``largest``: the digits between its first and last letters as zeros, where those
    faces are all FreeType's (:data:`theme.UNHINTED_BELOW`).  The bundled font's figures
    are tabular and laid out unhinted, without kerning, so one is as wide as another
    inside a string (not at its ends, where a string's box is its ink's);
    ``tests/display/test_text_cache.py`` checks it at every size.  A boxing demo's two
    computers' words ("CPU 1 · HARD may defend: Uppercut", "CPU 2 · …") are fitted once,
    not once each: planning every level's words measured each in two to four faces while
    the title card waited."""
    if not MIN_SIZE <= largest < UNHINTED_BELOW or len(words) < 3:
        return words
    return words[0] + words[1:-1].translate(FIGURES_AS_ZERO) + words[-1]


def fitted_in(face: Callable[[int, bool], Typeface], words: str, width: int, largest: int) -> int:
    """:func:`fitting_size` measured in ``face``'s faces."""
    wide = face(largest, True).size(words)[0]
    size = max(14, min(largest, largest * width // max(1, wide)))
    while size > 14 and face(size, True).size(words)[0] > width:
        size -= 2
    return size


def fit(
    text: str, size: int, max_width: int, bold: bool = False, face: Callable[[int, bool], Typeface] = font
) -> tuple[str, int]:
    """What :meth:`TextCache.fitted` draws: ``text`` and the size it fits ``max_width`` at,
    down to 3/4 of ``size``, else the longest start of it that fits with an ellipsis
    (measured in ``face``'s faces)."""
    text = "".join(c for c in unicodedata.normalize("NFC", text) if not unicodedata.category(c).startswith("M"))
    for step in range(size, max(1, size * 3 // 4) - 1, -2):
        if face(step, bold).size(text)[0] <= max_width:
            return text, step
    small = max(1, size * 3 // 4)
    lo, hi = 0, len(text)
    while lo < hi:  # the longest prefix that fits with the ellipsis
        mid = (lo + hi + 1) // 2
        if face(small, bold).size(text[:mid] + "…")[0] <= max_width:
            lo = mid
        else:
            hi = mid - 1
    return text[:lo] + "…", small


def _px(size: int, scale: float) -> int:
    return max(1, round(size * scale))


def _place(
    target: Canvas | pygame.Surface,
    surf: pygame.Surface,
    pos: tuple[int, int],
    anchor: str,
    words: str,
    how: tuple[float, Color, bool, bool],
) -> pygame.Rect:
    """Blit a rendered string with ``pos`` at its ``anchor``; its rect in ``target``'s
    units.  ``how``: its size in units, its colour and whether it is a detail, for the
    layout record's readability check (with the colour behind it, read before the blit)."""
    if not isinstance(target, Canvas):
        rect = surf.get_rect(**{anchor: pos})
        target.blit(surf, rect)
        return rect
    rect = surf.get_rect(**{anchor: target.px_point(pos)})
    record = target.record
    back = _behind(target.surface, surf, rect) if record is not None and record.contrast else None
    target.paint(compose.blit, (surf, rect.topleft), rect)
    if record is not None:
        size, ink, detail, bold = how
        unit = target.unit_rect(rect, root=True)
        if back is not None:
            record.typed(unit, words, size=size, ink=ink, back=back, detail=detail, bold=bold)
        else:
            record.text(unit, words)
    return target.unit_rect(rect)


def _behind(surface: pygame.Surface, words: pygame.Surface, rect: pygame.Rect) -> Color:
    """The colour most often under a string's letters before it is drawn: what they are
    read against (sampled every ``step`` pixels where the rendered letters are solid; a
    tie goes to the colour met first, row by row).  Array slices, not ``get_at`` per
    pixel: this runs for every string of every frame a layout record is taken of."""
    w, h = words.get_size()
    step = max(1, min(w, h) // 12)
    x0, x1 = _sampled(rect.x, w, step, surface.get_width())
    y0, y1 = _sampled(rect.y, h, step, surface.get_height())
    if x0 >= x1 or y0 >= y1:
        return (0, 0, 0)
    alpha = pygame.surfarray.pixels_alpha(words) if words.get_flags() & pygame.SRCALPHA else None
    rgb = pygame.surfarray.pixels3d(surface)
    try:  # arrays are [x, y]: transposed, the mask picks row by row
        solid = (alpha if alpha is not None else pygame.surfarray.array_alpha(words))[x0:x1:step, y0:y1:step] >= 160
        under = rgb[rect.x + x0 : rect.x + x1 : step, rect.y + y0 : rect.y + y1 : step].transpose(1, 0, 2)[solid.T]
    finally:
        del alpha, rgb  # a surface stays locked while a pixel array of it lives
    if not len(under):
        return (0, 0, 0)
    keys = (under[:, 0].astype(np.int64) << 16) | (under[:, 1].astype(np.int64) << 8) | under[:, 2].astype(np.int64)
    colours, first, counts = np.unique(keys, return_index=True, return_counts=True)
    most = counts == counts.max()
    key = int(colours[most][np.argmin(first[most])])
    return (key >> 16, (key >> 8) & 255, key & 255)


def _sampled(at: int, length: int, step: int, bound: int) -> tuple[int, int]:
    """The span of offsets ``0, step, 2·step … < length`` whose pixel ``at + offset`` lies
    in ``[0, bound)``, as a slice's start and stop."""
    return (-at + step - 1) // step * step if at < 0 else 0, min(length, bound - at)


def _size(surf: pygame.Surface) -> int:
    return surf.get_pitch() * surf.get_height()

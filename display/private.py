"""Images for the stations' private 128×64 OLEDs: only what that player may see.

The drawing primitives every private layout uses (rows of text, a grid of one cell per
button, a titled list) and :func:`draw_private`, which hands a game's :class:`PrivateScreen` to that
game's registered layout and, for a moment after a refused press, writes why over the
layout's foot (:func:`with_refusal`): the one place a refusal is shown.  Every image
carries the text drawn on it in ``image.info`` (:func:`image_text`), so HIL checks and
recordings can read what a player was shown.
"""

from __future__ import annotations

import textwrap
import unicodedata
from collections.abc import Iterable
from functools import cache

from PIL import Image, ImageDraw, ImageFont

from display.games import registry
from display.models import PrivateModel, PrivateText

SIZE = (128, 64)
TEXT_KEY = "text"
"""Key in ``image.info`` of the lines drawn on a private image."""
TOPS_KEY = "tops"
"""Key in ``image.info`` of the top row (pixels) of each of those lines."""
LINE_CHARS = 21
"""Characters of the built-in font across the 128-pixel OLED."""
REFUSAL_PITCH = 10
"""Pixel rows per line of a refusal."""
LINE_HEIGHT = 11
"""Pixel rows the built-in font's letters take from a line's top."""


PUNCTUATION = str.maketrans({"–": "-", "—": "-", "‘": "'", "’": "'", "“": '"', "”": '"', "…": "...", "→": "->"})
"""Typography the bitmap font lacks, in the nearest Latin-1."""


def oled_safe(line: str) -> str:
    """``line`` in the characters the OLED's bitmap font has (Latin-1): dashes and quotes
    become their plain forms, accented letters lose what the font lacks, other scripts
    show as ``?`` (no words, a name or a refusal, may stop a private display drawing)."""
    out = []
    for char in line.translate(PUNCTUATION):
        if ord(char) < 256:
            out.append(char)
            continue
        if unicodedata.category(char).startswith("M"):
            continue
        base = "".join(c for c in unicodedata.normalize("NFKD", char) if ord(c) < 256)
        out.append(base or "?")
    return "".join(out)


@cache
def _font() -> ImageFont.ImageFont:
    """Pillow's built-in bitmap font: crisp on a 1-bit OLED and ten times quicker to draw
    than the scalable default (0.014 ms against 0.14 ms a line, measured)."""
    return ImageFont.load_default_imagefont()


def _tagged(img: Image.Image, lines: Iterable[object], tops: Iterable[int] = ()) -> Image.Image:
    """Write the ``lines`` drawn on ``img`` into it, with the ``tops`` (pixel rows) they
    start at where the layout gives them (:func:`with_refusal` then knows which it covers)."""
    img.info[TEXT_KEY] = tuple(str(line) for line in lines)
    img.info[TOPS_KEY] = tuple(tops)
    return img


def _rows(img: Image.Image, rows: Iterable[tuple[int, object]]) -> Image.Image:
    """:func:`_tagged` from (top pixel row, words) pairs."""
    drawn = list(rows)
    return _tagged(img, (line for _y, line in drawn), (y for y, _line in drawn))


def image_text(image: object) -> tuple[str, ...] | None:
    """The lines drawn on a private image, or None for an image not drawn here."""
    info = getattr(image, "info", None)
    return tuple(info[TEXT_KEY]) if isinstance(info, dict) and TEXT_KEY in info else None


def image_tops(image: Image.Image) -> tuple[int, ...]:
    """The top pixel row of each line of :func:`image_text`."""
    return tuple(image.info.get(TOPS_KEY, ()))


def text_lines(
    lines: list[str], inverted_row: int | None = None, size: tuple[int, int] = SIZE, rows: int = 5
) -> Image.Image:
    """Up to ``rows`` rows of small text (5, or 6 at the font's own 10-pixel pitch when a
    layout must say more); ``inverted_row`` is drawn white-on-black reversed."""
    img = Image.new("1", size, 0)
    draw = ImageDraw.Draw(img)
    row_h = size[1] // rows
    for i, line in enumerate(lines[:rows]):
        y = i * row_h
        if i == inverted_row:
            draw.rectangle((0, y, size[0] - 1, y + row_h - 1), fill=1)
            draw.text((2, y), line, fill=0, font=_font())
        else:
            draw.text((2, y), line, fill=1, font=_font())
    return _rows(img, [(i * row_h, line) for i, line in enumerate(lines[:rows])])


def grid(title: str, cells: list[str], footer: str, size: tuple[int, int] = SIZE) -> Image.Image:
    """A title row, a 2-column grid of up to 6 cells (one per button A–F), a footer row."""
    img = Image.new("1", size, 0)
    draw = ImageDraw.Draw(img)
    draw.rectangle((0, 0, size[0] - 1, 11), fill=1)
    draw.text((2, 0), title, fill=0, font=_font())
    half = size[0] // 2
    for i, cell in enumerate(cells[:6]):
        x, y = (i % 2) * half + 2, 13 + (i // 2) * 13
        draw.text((x, y), cell, fill=1, font=_font())
    draw.line((0, 52, size[0] - 1, 52), fill=1)
    draw.text((2, 53), footer, fill=1, font=_font())
    rows = [(0, title), *(((13 + (i // 2) * 13), cell) for i, cell in enumerate(cells[:6])), (53, footer)]
    return _rows(img, rows)


def listing(title: str, rows: list[str], footer: str = "", size: tuple[int, int] = SIZE) -> Image.Image:
    """A title row (inverted), up to four rows of a list (a hand of cards, one per button)
    and a footer under a rule: six lines of 21 characters at a 10-pixel pitch."""
    img = Image.new("1", size, 0)
    draw = ImageDraw.Draw(img)
    draw.rectangle((0, 0, size[0] - 1, 9), fill=1)
    draw.text((1, -1), title, fill=0, font=_font())
    for i, row in enumerate(rows[:4]):
        draw.text((1, 10 + i * 10), row, fill=1, font=_font())
    draw.line((0, 52, size[0] - 1, 52), fill=1)
    draw.text((1, 53), footer, fill=1, font=_font())
    return _rows(img, [(0, title), *((10 + i * 10, row) for i, row in enumerate(rows[:4])), (53, footer)])


def with_refusal(img: Image.Image, words: str) -> Image.Image:
    """``img`` with ``words`` (why a press was refused) in a reversed band over its foot,
    as many lines as they need up to all but the title row; the lines it covers leave
    the image's text, so :func:`image_text` says what the player can read."""
    width, height = img.size
    most = max(1, (height - 12) // REFUSAL_PITCH)
    lines = textwrap.wrap(oled_safe(words), LINE_CHARS, break_on_hyphens=False) or [""]
    if len(lines) > most:
        lines = [*lines[: most - 1], textwrap.shorten(" ".join(lines[most - 1 :]), LINE_CHARS, placeholder="...")]
    top = height - 1 - len(lines) * REFUSAL_PITCH
    draw = ImageDraw.Draw(img)
    said = image_text(img) or ()
    tops = image_tops(img)
    placed = len(tops) == len(said)
    if not placed:  # a layout that did not say where its lines are: taken as spread evenly
        tops = tuple(i * height // max(1, len(said)) for i in range(len(said)))
    rows = list(zip(tops, said, strict=True))
    cut = min((y for y, _line in rows if top - LINE_HEIGHT < y < top), default=top) if placed else top
    if cut < top:  # no half-covered line above the band
        draw.rectangle((0, cut, width - 1, top - 1), fill=0)
    draw.rectangle((0, top, width - 1, height - 1), fill=1)
    for i, line in enumerate(lines):
        draw.text((1, top + i * REFUSAL_PITCH), line, fill=0, font=_font())
    shown = [(y, line) for y, line in rows if y < cut]
    return _rows(img, [*shown, *((top + i * REFUSAL_PITCH, line) for i, line in enumerate(lines))])


def draw_private(screen: PrivateModel, size: tuple[int, int] = SIZE) -> Image.Image:
    """One station's private display: plain rows (:class:`PrivateText`), or a seat's
    private screen drawn by its game's registered layout, and why its last press was
    refused while that is shown (:attr:`PrivateScreen.refusal`)."""
    if isinstance(screen, PrivateText):
        return text_lines(list(screen.lines), screen.inverted, size)
    img = registry.screens(screen.game).private(screen, size)
    return with_refusal(img, screen.refusal) if screen.refusal else img


def card_rows(rows: list[tuple[str, str]], footer: str, size: tuple[int, int] = SIZE) -> Image.Image:
    """Up to six rows of a name and a count (the count right-aligned: a hand of cards,
    one per button, each called by its full name) at a 9-pixel pitch, and the footer in
    reverse under them: what the game waits for."""
    img = Image.new("1", size, 0)
    draw = ImageDraw.Draw(img)
    lines: list[tuple[int, str]] = []
    foot = size[1] - 10
    for i, (name, count) in enumerate(rows[: min(6, foot // 9)]):  # a 128×32 display: the first three
        y = i * 9 - 2  # the font's blank top rows above the screen: the sixth row's descenders clear the foot
        draw.text((1, y), name, fill=1, font=_font())
        draw.text((size[0] - 1 - draw.textlength(count, font=_font()), y), count, fill=1, font=_font())
        lines.append((max(0, y), f"{name} {count}"))
    draw.rectangle((0, foot, size[0] - 1, size[1] - 1), fill=1)
    draw.text((1, foot - 2), footer, fill=0, font=_font())  # capitals from foot + 1: a row of white above
    return _rows(img, [*lines, (foot - 2, footer)])

"""The frame check: glitches a player would see, found in a run of frames (issue 23).

Each frame is drawn with a :class:`~display.layout.LayoutRecord` (every string, shape,
live region, banner and cut-short string with its box) and its pixels kept for its
neighbours.  :func:`check_frames` reports, per frame:

- **paint outside its box**: a shape whose painted pixels leave the box it was asked to
  fill (pygame-ce's block around a rounded rect narrower than its border);
- **a single-frame flash**: a string, banner or shape shown for one flip only, on a
  place the frames either side leave empty (a moving thing is the same thing elsewhere,
  a ticking timer the same place's next value);
- **text cut short with room**: a string cut with an ellipsis while the band under it,
  inside the box it sits in, is empty: it could have taken a second line;
- **live state covered**: a string in a live region (a count, a score, an energy, a
  timer, a name) painted over by a later shape (an animation) or a banner;
- **hidden words on the main screen**: what a private display says only to its player
  (a refusal) written on the main screen;
- and everything :func:`display.layout.problems` finds (text over text, off the screen).

The frames come from any run: the HIL scenarios, the attract demos, a test's own.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import pygame

from display.layout import UNITS, Cover, Drawn, LayoutRecord, Shape, ink, problems
from display.renderer import Renderer

SLACK = 2
"""Units a shape's paint may pass its box by: rounding between layout units and pixels."""
FLASH_AREA = 64
"""Square units below which a thing shown for one flip is not seen (a 3×3 line's end)."""
ROOM_INSET = 8
"""Units inside a box's edge (its border, its margin) that do not count as room."""


@dataclass(frozen=True, kw_only=True)
class Shown:
    """One screen model as the display showed it: for ``flips`` frames in a row, while
    the private displays said ``secrets`` (words for one player only)."""

    name: str
    screen: Any
    flips: int = 1
    secrets: tuple[str, ...] = ()


@dataclass
class Drawing:
    shown: Shown
    record: LayoutRecord


def runs(frames: Iterable[tuple[str, Any, tuple[str, ...]]]) -> Iterator[Shown]:
    """(name, screen model, secrets) of every frame flipped, in order, as runs of the same
    model: a model shown for several flips is drawn and checked once."""
    current: Shown | None = None
    for name, screen, secrets in frames:
        if current is not None and screen == current.screen and secrets == current.secrets:
            current = Shown(name=current.name, screen=screen, flips=current.flips + 1, secrets=secrets)
            continue
        if current is not None:
            yield current
        current = Shown(name=name, screen=screen, secrets=secrets)
    if current is not None:
        yield current


def check_frames(shown: Iterable[Shown], renderer: Renderer | None = None) -> list[str]:
    """Every glitch in a run of frames, one line each naming the frame."""
    renderer = renderer or Renderer()
    out: list[str] = []
    window: list[Drawing] = []
    for s in shown:
        record = LayoutRecord(contrast=False)
        surface = renderer.draw(s.screen, record)
        drawing = Drawing(s, record)
        out += [f"{s.name}: {p}" for p in frame_problems(record, s.secrets, surface.get_size())]
        window = [*window[-2:], drawing]
        if len(window) == 3:
            out += [f"{window[1].shown.name}: {p}" for p in flash(*window)]
    return out


def frame_problems(rec: LayoutRecord, secrets: Sequence[str] = (), size: tuple[int, int] = UNITS) -> list[str]:
    """What one frame's layout record shows wrong (``secrets``: words that must not be on it)."""
    return [
        *problems(rec),
        *paint_outside(rec),
        *covered_live(rec),
        *cut_with_room(rec, size),
        *hidden_words(rec, secrets),
    ]


def paint_outside(rec: LayoutRecord) -> list[str]:
    return [
        f"paint outside its box: a {s.what} asked for {tuple(s.box)} painted {tuple(s.painted)}"
        for s in rec.shapes
        if s.painted.width > 0 and s.painted.height > 0 and not s.box.inflate(2 * SLACK, 2 * SLACK).contains(s.painted)
    ]


def _modal(rec: LayoutRecord) -> int:
    return max((d.order for d, kind in rec.covers if kind is Cover.MODAL), default=0)


def covered_live(rec: LayoutRecord) -> list[str]:
    """Strings of live state that a later shape paints over (a banner's own band is
    :func:`display.layout.problems`' to report; under a pause nothing is being read)."""
    modal = _modal(rec)
    out = []
    for t in rec.texts:
        if not t.what.strip() or t.order < modal:
            continue
        letters = ink(t.rect)
        region = next((live for live in rec.lives if live.rect.colliderect(letters)), None)
        if region is None:
            continue
        over = next((s for s in rec.shapes if s.order > t.order and _hides(s, letters)), None)
        if over is not None:
            out.append(
                f"live state covered: {t.what!r} {tuple(t.rect)} in {region.what!r} under a {over.what}"
                f" painted {tuple(over.painted)}"
            )
    return out


def _hides(s: Shape, letters: pygame.Rect) -> bool:
    """A shape over a quarter of a string's letters (a rule under a word, a cap beside
    it, the edge of a frame around it touch it without hiding it)."""
    clipped = s.painted.clip(letters)
    return clipped.width * clipped.height * 4 > letters.width * letters.height and s.box.colliderect(letters)


def cut_with_room(rec: LayoutRecord, size: tuple[int, int] = UNITS) -> list[str]:
    """Strings cut short while the box they sit in (a panel, else the screen) has a free
    band as wide and tall as the line below it: the words could have had a line more."""
    out = []
    screen = pygame.Rect(0, 0, *size)
    for cut in rec.cuts:
        box = _box_of(rec, cut).inflate(-2 * ROOM_INSET, -2 * ROOM_INSET).clip(screen)
        for y in range(cut.rect.bottom, box.bottom - cut.rect.height + 1, 2):
            band = pygame.Rect(cut.rect.x, y, cut.rect.width, cut.rect.height)
            if box.contains(band) and not _occupied(rec, cut, band):
                out.append(
                    f"text cut short with room below: {cut.what!r} at {tuple(cut.rect)}, free {tuple(band)} in {tuple(box)}"
                )
                break
    return out


def _box_of(rec: LayoutRecord, cut: Drawn) -> pygame.Rect:
    """The smallest shape drawn before ``cut`` that holds it (a panel), else the screen."""
    holders = [s.box for s in rec.shapes if s.order < cut.order and s.box.contains(cut.rect)]
    return min(holders, key=lambda r: r.width * r.height, default=pygame.Rect(0, 0, *UNITS))


def _occupied(rec: LayoutRecord, cut: Drawn, band: pygame.Rect) -> bool:
    """Anything but background in ``band``: another string, or a shape other than one
    drawn before the cut string behind the whole band (the panel it sits on)."""
    if any(ink(t.rect).colliderect(band) for t in rec.texts if t.rect != cut.rect):
        return True
    return any(
        s.painted.colliderect(band) and not (s.order < cut.order and s.painted.contains(band)) for s in rec.shapes
    )


def hidden_words(rec: LayoutRecord, secrets: Sequence[str]) -> list[str]:
    words = [t.what for t in rec.texts] + [c.what for c in rec.cuts]
    return [
        f"hidden words on the main screen: {secret!r} (said to one player only)"
        for secret in secrets
        if secret and any(secret in w for w in words)
    ]


Element = tuple[str, pygame.Rect]
"""What a frame shows, named so the same thing matches in the next frame wherever it moved
(a string by its words, a banner by its message, a shape by its kind and size), and where."""


def elements(rec: LayoutRecord) -> list[Element]:
    modal = _modal(rec)
    return [
        *((f"text {t.what!r}", t.rect) for t in rec.texts if t.what.strip() and t.order >= modal),
        *((f"banner {d.what!r}", d.rect) for d, _kind in rec.covers),
        *((f"{s.what} {s.painted.size}", s.painted) for s in rec.shapes if s.painted.width and s.painted.height),
    ]


def flash(before: Drawing, now: Drawing, after: Drawing) -> list[str]:
    """What ``now`` shows for one flip only: neither frame either side has it, anywhere,
    nor anything where it is (a timer ticking over is the same place's next value, a
    sliding card the same card elsewhere)."""
    if now.shown.flips > 1:
        return []
    around = elements(before.record) + elements(after.record)
    names = {name for name, _rect in around}
    out = []
    for name, rect in elements(now.record):
        if (
            rect.width * rect.height < FLASH_AREA
            or name in names
            or any(rect.colliderect(other) for _name, other in around)
        ):
            continue
        out.append(f"single-frame flash: {name} at {tuple(rect)}, in neither frame either side")
    return out

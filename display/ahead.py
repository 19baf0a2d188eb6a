"""Type prepared ahead of need: while the title card waits, the next demo's type faces are
opened and their letters rendered, a bounded step per idle frame.

A string is costly the first time it is drawn at a size: SDL_ttf opens the face, shapes
with a new HarfBuzz plan and rasterises each glyph (a 205 px bold digit 1.5 M
instructions); once a face holds its glyphs any string of them costs little
(BENCHMARKS.md, issue 34: the demo's first frames cost 5.5 M a frame at 1080p for this).
So the title card plans the next demo: its opening (a fresh engine of the featured game,
computers in every seat) and the first states of a random playout are drawn with
:class:`Sketches`, stand-in faces that measure by estimate, open nothing and note each
size and letter asked for (a card's words fitted for real, a step each, where the fitted
size is not yet known), and the pictures its operations make when painted (a boxer's
figure: ``display.compose.MADE_WHEN_PAINTED``) are made, a step after the draw that asked
for them; then each idle frame renders one face's letters, or part of them, into the real
faces (:func:`display.theme.font` keeps them).  What the sketches cannot
show (the demo plays other cards, a stamina falls further) is guessed only as far as the
letters go: a face that shows a digit gets all ten.
"""

from __future__ import annotations

import itertools
import string
from collections.abc import Callable, Generator, Hashable, Iterator
from dataclasses import dataclass
from typing import Any

import pygame

from display.compose import MADE_WHEN_PAINTED, Frame, Paint, Segments, made_when_painted
from display.models import AnyPlayScreen, AttractScreen, DemoScreen, PlayScreen, StationLook
from display.playout import playout
from display.text import TextCache, fitted_in, fitting_size, fitting_size_known
from display.theme import UNHINTED_BELOW, Typeface, font
from games import registry
from games.levels import Level

STEP_INSTRUCTIONS = 3_000_000
"""A step's estimated cost: the attract goal for a whole frame (issue 34)."""
FACE_INSTRUCTIONS = 2_500_000
"""A face's first render (opening, HarfBuzz's plan, the first glyph), measured at 40–205 px."""
MEASURE_INSTRUCTIONS = 300_000
"""A string's width measured in an open face (shaped whole: a fit of a boxing demo's head
words is measured in two to four faces).  At 400 k a step of fits cost about half its
estimate (the preparation ran past the title card's idle frames); at 200 k one cost 7.7 M."""
PLAYED = 12
"""States of a random playout sketched after the opening (Punch!'s first cards shown)."""
REFERENCE = 100
"""The size whose advances every stand-in face scales."""
ADVANCES_A_STEP = 24
"""Characters whose reference advance is measured in one step (about 1 M instructions)."""
WIDER = 1.04
"""Stand-in widths are this much wider than the reference's: a string shrunk to fit is
then planned down to the size it reaches (hinting widens large type a little), not one
step short of it."""


def glyph_instructions(size: int, bold: bool) -> int:
    """One glyph's first render at ``size`` px, as callgrind counted it (205 px: 0.2 M,
    bold 1.5 M; 40 px: 0.1 M)."""
    return 80_000 + int((size / REFERENCE) ** 2 * (350_000 if bold else 30_000))


Wanted = dict[tuple[int, bool], set[str]]
"""Per face (size in pixels, bold): the characters asked of it."""

_advances: dict[tuple[str, bool], float] = {}


def _advance(char: str, bold: bool) -> float:
    """``char``'s advance at :data:`REFERENCE` px (the reference face's, measured once)."""
    known = _advances.get((char, bold))
    if known is None:
        metrics = font(REFERENCE, bold).metrics(char)
        known = _advances[char, bold] = float(metrics[0][4]) if metrics and metrics[0] else REFERENCE / 2
    return known


WIDTHS_KEPT = 4096
"""Strings' reference widths remembered (then forgotten all at once): a plan's labels."""
_widths: dict[tuple[str, bool], float] = {}
_by_char: dict[bool, dict[str, float]] = {False: {}, True: {}}
"""The reference advances by character, regular and bold (summed without a Python call each)."""


def _reference_width(text: str, bold: bool) -> float:
    """``text``'s width at :data:`REFERENCE` px, summed once per string: a planning draw
    measures each label several times (fitted, placed, drawn), at several sizes, and
    every plan of a demo draws the same boards (the first plan of Big Time Boxing was
    a 7.8 M-instruction step, over a frame's budget)."""
    known = _widths.get((text, bold))
    if known is None:
        if len(_widths) >= WIDTHS_KEPT:
            _widths.clear()
        advances = _by_char[bold]
        for char in set(text).difference(advances):  # met for the first time
            advances[char] = _advance(char, bold)
        known = _widths[text, bold] = sum(map(advances.__getitem__, text))
    return known


def advance_steps() -> Iterator[None]:
    """The reference advances of printable ASCII, a step at a time (once a process: the
    sketches of any later plan measure with them; other characters are measured when met)."""
    for bold in (False, True):
        for start in range(32, 127, ADVANCES_A_STEP):
            for code in range(start, min(127, start + ADVANCES_A_STEP)):
                _advance(chr(code), bold)
            yield None


class Sketch:
    """A face's stand-in while a coming frame is planned: sizes estimated from the
    reference face's advances, blank surfaces of that size (views of one blank sheet:
    nothing allocated or cleared), each character noted."""

    def __init__(self, size: int, bold: bool, wanted: Wanted, sheet: pygame.Surface) -> None:
        self._size, self._bold, self._sheet = size, bold, sheet
        self._chars = wanted.setdefault((size, bold), set())

    def size(self, text: str, /) -> tuple[int, int]:
        self._chars.update(text)
        width = _reference_width(text, self._bold) * self._size / REFERENCE * WIDER
        return round(width), round(self._size * 1.15)

    def render(self, text: str, antialias: bool, color: tuple[int, int, int], /) -> pygame.Surface:
        w, h = self.size(text)
        return self._sheet.subsurface((0, 0, min(w, self._sheet.get_width()), min(h, self._sheet.get_height())))


class Sketches(TextCache):
    """A text cache whose faces are :class:`Sketch` es: a planning draw through it renders
    nothing and opens no face; :attr:`wanted` says what it asked for.  ``sheet``: the
    blank surface stand-ins are cut from (as large as any string drawn)."""

    def __init__(self, sheet: pygame.Surface) -> None:
        super().__init__(budget_bytes=2**40)
        self.wanted: Wanted = {}
        self.fits: set[tuple[str, int, int]] = set()
        """Fitted sizes asked for that are not known yet (:func:`display.text.fitting_size`)."""
        self._sheet = sheet
        self._faces: dict[tuple[int, bool], Sketch] = {}
        self.segments = Segments()
        """Segments the planning draws record and reuse among themselves (and nowhere else:
        theirs hold stand-ins)."""

    def asked(self) -> Wanted:
        """What has been asked for so far (a copy, for :meth:`back_to`)."""
        return {face: set(chars) for face, chars in self.wanted.items()}

    def back_to(self, asked: Wanted) -> None:
        """Forget what was asked for since :meth:`asked` answered ``asked``, and every
        string and segment made (some at sizes estimated: a card recorded before its
        words were measured would be put in again as it was, its faces never asked for)."""
        self.wanted.clear()
        self.wanted.update(asked)
        self._faces.clear()  # the stand-ins note into the sets just replaced
        self._cache.clear()
        self._fits.clear()
        self._shrink.clear()
        self.bytes = 0
        self.segments = Segments()

    def face(self, size: int, bold: bool) -> Typeface:
        """One stand-in per face (a plan asks for faces hundreds of times)."""
        sketch = self._faces.get((size, bold))
        if sketch is None:
            sketch = self._faces[size, bold] = Sketch(size, bold, self.wanted, self._sheet)
        return sketch

    def fitting_size(self, words: str, width: int, largest: int) -> int:
        """The real answer where it is remembered; else an estimate, and the question
        noted in :attr:`fits` (to be measured for real, then the frame planned again)."""
        known = fitting_size_known(words, width, largest)
        if known is not None:
            return known
        self.fits.add((words, width, largest))
        return fitted_in(self.face, words, width, largest)


def demo_sketches(screen: AttractScreen) -> Iterator[DemoScreen]:
    """The featured game's demo as it may look: its opening (what the game said as it
    began, just said) once for each level its computers may play at (their name tags
    differ), then the first :data:`PLAYED` states
    of a random playout (the first cards shown, a count that falls).  A fresh engine at
    the game's default options, as many seats as the game and the stations allow, every
    one a computer's.  Nothing if the game is not registered here or the cabinet has too
    few stations to show it."""
    title = screen.games[screen.featured] if 0 <= screen.featured < len(screen.games) else None
    engine_type = next((e for e in registry.engines() if e.spec.title == title), None)
    if engine_type is None:
        return
    spec = engine_type.spec
    players = min(spec.max_players, len(screen.stations))
    if players < spec.min_players:
        return
    engine = engine_type(spec.options_type(), players, 0)

    def demo(view: Any, events: tuple[Any, ...], now_us: int, level: Level) -> DemoScreen:
        seats = tuple(
            StationLook(f"CPU {n} · {level.name}" if players > 1 else f"CPU · {level.name}", look.color)
            for n, look in enumerate(screen.stations[:players], start=1)
        )
        play: AnyPlayScreen = PlayScreen(
            game=spec.name,
            title=spec.title,
            seats=seats,
            view=view,
            events=events,
            now_us=now_us,
            computers=(True,) * players,
        )
        return DemoScreen(play, spec.title, True)

    opening, told = engine.public_view(), tuple((0, event) for event in engine.opening_events)
    for level in Level:  # as a demo's first frame shows it: what the game said as it began, just said
        yield demo(opening, told, 0, level)
    for view, events, now_us in itertools.islice(playout(engine, 0), PLAYED):
        yield demo(view, events, now_us, Level.NORMAL)


@dataclass(frozen=True)
class Warm:
    """One step: render ``letters`` in the face of ``size`` px (bold or not)."""

    size: int
    bold: bool
    letters: str

    def __call__(self) -> None:
        font(self.size, self.bold).render(self.letters, True, (255, 255, 255))


FAMILIES = (frozenset(string.digits), frozenset(string.ascii_lowercase), frozenset(string.ascii_uppercase))
"""Letters given whole to a small face that shows any one of them (:func:`warm_steps`)."""


def foreseen(size: int, chars: set[str]) -> set[str]:
    """The letters to warm in a face asked for ``chars``: a face that shows a digit gets
    all ten (a score or a count shows others later); a small face (FreeType's, below
    :data:`display.theme.UNHINTED_BELOW`: the faces strings are measured in to fit, and
    labels) that shows a small letter gets every small letter, and capitals likewise: the
    demo says names, punches and windows the sketches never met, and each letter new to
    a face is loaded and rasterised in the frame that first measures it (a Big Time
    Boxing demo frame spent a fifth of its instructions so; a small glyph costs little
    here, a step or so per face)."""
    families = FAMILIES if size < UNHINTED_BELOW else FAMILIES[:1]
    return set(chars).union(*(family for family in families if family & chars)) - {" "}


def warm_steps(wanted: Wanted) -> Iterator[Warm]:
    """``wanted``'s faces in the order first asked for, each in steps of about
    :data:`STEP_INSTRUCTIONS` (at least one letter a step), with the letters
    :func:`foreseen` for each."""
    for (size, bold), chars in wanted.items():
        letters = sorted(foreseen(size, chars))
        cost, step = FACE_INSTRUCTIONS, ""
        for letter in letters:
            each = glyph_instructions(size, bold)
            if step and cost + each > STEP_INSTRUCTIONS:
                yield Warm(size, bold, step)
                cost, step = 0, ""
            cost, step = cost + each, step + letter
        if step:
            yield Warm(size, bold, step)


Fit = tuple[str, int, int]
"""Words to fit, the width, the largest size (:func:`display.text.fitting_size`)."""


def fit_steps(fits: list[Fit], measured: Wanted, face: Callable[[int, bool], Typeface]) -> Iterator[list[Fit]]:
    """``fits`` about :data:`STEP_INSTRUCTIONS` at a time (at least one a step).  A fit
    measures its words in the bold faces :func:`_measured_in` says, each
    :data:`MEASURE_INSTRUCTIONS`; a face not in ``measured`` costs :data:`FACE_INSTRUCTIONS` more
    and each letter new to it a glyph (counted as :func:`warm_steps` counts a render: a
    measure loads no more); ``measured`` notes them.  A fit a step was a step for each of
    a name's words at each level a demo's computers may play at, more steps than the
    title card has idle frames."""
    step: list[Fit] = []
    cost = 0
    for fit in fits:
        words, width, largest = fit
        each = 0
        for size in _measured_in(face, words, width, largest):
            each += MEASURE_INSTRUCTIONS
            chars = measured.get((size, True))
            if chars is None:
                each += FACE_INSTRUCTIONS
                chars = measured[size, True] = set()
            new = set(words) - chars
            each += len(new) * glyph_instructions(size, True)
            chars.update(new)
        if step and cost + each > STEP_INSTRUCTIONS:
            yield step
            step, cost = [], 0
        step.append(fit)
        cost += each
    if step:
        yield step


def _measured_in(face: Callable[[int, bool], Typeface], words: str, width: int, largest: int) -> set[int]:
    """The sizes :func:`display.text.fitted_in` may measure ``words`` in, estimated in
    ``face``'s faces: the largest, the first guess, each size down from it to the
    answer, and one below it (an estimate may stop a size short)."""
    wide = face(largest, True).size(words)[0]
    guess = max(14, min(largest, largest * width // max(1, wide)))
    answer = fitted_in(face, words, width, largest)
    return {largest, *range(guess, max(14, answer - 2) - 1, -2)}


_planned: dict[tuple[object, ...], Wanted] = {}
"""What each demo wants (by canvas size, game and stations), once planned: a demo comes
back every cycle, and its sizes and letters do not change."""
_sketched: dict[tuple[object, ...], list[DemoScreen]] = {}
"""Each planned demo's sketches (:func:`demo_sketches`: its opening at each level its
computers may play at, then its first states): drawn ahead for real (``ready``) after
its faces are warmed, so the demo's first frame, which repaints the whole screen,
renders and fits no string and records no segment, and its next ones render fewer."""
_warmed: dict[tuple[object, ...], tuple[int, int]] = {}
"""Per demo warmed: :func:`_faces_let_go` just after (the faces, like
:func:`display.theme.font`'s cache, are the process's, whichever renderer warmed them)."""


def _faces_let_go() -> tuple[int, int]:
    """(faces opened, faces let go) by :func:`display.theme.font`'s cache since it was
    last cleared: a face warmed is still open while the second number stays the same
    (the cache lets one go only when full) and the first has not fallen (cleared)."""
    info = font.cache_info()
    return info.misses, info.misses - info.currsize


def _still_open(then: tuple[int, int]) -> bool:
    """Whether every face open when :func:`_faces_let_go` said ``then`` still is."""
    opened, let_go = _faces_let_go()
    return opened >= then[0] and let_go == then[1]


class Ahead:
    """The work of preparing the next demo, done a step at a time (:meth:`step`).

    ``plan(screen, sketches, part)`` draws ``screen`` (``part``: that part of what its game
    may show later; None answered when there is none) with ``sketches`` (and its
    segments) somewhere nothing is shown; ``ready(screen)`` records ``screen`` as the renderer
    records a frame, painting nothing, within a step's allowance of new strings (False:
    not through yet, the next call goes on)."""

    def __init__(
        self,
        plan: Callable[[DemoScreen, Sketches, int | None], Frame | None],
        size: tuple[int, int],
        ready: Callable[[DemoScreen], bool] | None = None,
    ) -> None:
        """``size``: the canvas's (stand-in strings are cut from a blank sheet as wide);
        ``plan`` answers the display list it recorded."""
        self._plan = plan
        self._ready = ready
        self._size = size
        self._sheet: pygame.Surface | None = None
        self._for: tuple[object, ...] | None = None
        self._steps: Iterator[None] = iter(())
        self.finished = True
        """Whether no step is left (a step answered False, or nothing was set to prepare):
        a frame drawn then may leave the loop idle without first asking for a step."""

    def expect(self, screen: AttractScreen) -> None:
        """The title card ``screen`` is up: prepare its featured game's demo (planned
        again only when the featured game or the stations change)."""
        featured = screen.games[screen.featured] if 0 <= screen.featured < len(screen.games) else ""
        key = (self._size, featured, *screen.stations)
        if key != self._for:
            self._for = key
            self._steps = self._work(screen, key)
            self.finished = False

    def drop(self) -> None:
        """Another screen is up: nothing more is prepared for the last title card."""
        self._for, self._steps = None, iter(())
        self.finished = True

    def step(self) -> bool:
        """One bounded step of the preparation; False when none was left."""
        stepped = next(self._steps, False) is None
        self.finished = not stepped
        return stepped

    def _work(self, screen: AttractScreen, key: tuple[object, ...]) -> Iterator[None]:
        if key in _warmed and _still_open(_warmed[key]):
            return  # every face warmed for this demo is still open, holding its glyphs
        if key not in _planned:
            yield from self._sketch(screen, key)
        for warm in warm_steps(_planned[key]):
            warm()
            yield None
        if self._ready is not None:
            for sketch in _sketched[key]:  # its first frame at any level, then its first states, made
                while not self._ready(sketch):
                    yield None
                yield None
        _warmed[key] = _faces_let_go()

    def _sketch(self, screen: AttractScreen, key: tuple[object, ...]) -> Iterator[None]:
        """Plan ``screen``'s demo into :data:`_planned`."""
        if not _advances:
            yield from advance_steps()
        if self._sheet is None:
            self._sheet = pygame.Surface((self._size[0], self._size[1] // 4), pygame.SRCALPHA)  # taller than any type
            yield None
        sketches = Sketches(self._sheet)
        made: set[tuple[Paint, tuple[Hashable, ...]]] = set()
        measured: Wanted = {}
        _sketched[key] = []
        for sketch in demo_sketches(screen):
            _sketched[key].append(sketch)
            yield None  # the engine made, or a state played: a step of its own
            yield from self._fitted(sketch, sketches, made, None, measured)
        part = 0
        while _sketched[key] and (yield from self._fitted(_sketched[key][0], sketches, made, part, measured)):
            part += 1  # what its game says it may show later (every card of a stage), a part a step
        _planned[key] = sketches.wanted

    def _fitted(
        self,
        sketch: DemoScreen,
        sketches: Sketches,
        made: set[tuple[Paint, tuple[Hashable, ...]]],
        part: int | None,
        measured: Wanted,
    ) -> Generator[None, None, bool]:
        """A planning draw (:meth:`_draw`), then, while it fitted words to a width not met
        before, each measured for real (remembered), a step's worth at a time
        (:func:`fit_steps`; ``measured``: the faces and letters measured so far), and the draw again:
        what the draw asked for at sizes estimated is forgotten (faces never drawn in).
        False when ``part`` was asked and there is no such part."""
        while True:
            kept = sketches.asked()
            if not (yield from self._draw(sketch, sketches, made, part)):
                return False
            if not sketches.fits:
                return True
            sketches.back_to(kept)
            for fits in fit_steps(sorted(sketches.fits), measured, self._estimate):
                for words, width, largest in fits:
                    fitting_size(words, width, largest)
                yield None
            sketches.fits.clear()

    def _estimate(self, size: int, bold: bool) -> Sketch:
        """A stand-in face that notes its letters nowhere (an estimate of a fitted size)."""
        assert self._sheet is not None
        return Sketch(size, bold, {}, self._sheet)

    def _draw(
        self, sketch: DemoScreen, sketches: Sketches, made: set[tuple[Paint, tuple[Hashable, ...]]], part: int | None
    ) -> Generator[None, None, bool]:
        """A planning draw (a Python draw of one frame: about one step), then, in a step of
        their own, the pictures its operations make when painted that no earlier one asked
        for (the boxers' figures: the first planning draw of a boxing demo, which made
        them, was a 7.5 M-instruction step, over a busy frame's budget).  False, with no
        step taken, when ``part`` was asked and there is no such part."""
        frame = self._plan(sketch, sketches, part)
        if frame is None:
            return False
        yield None
        pictures = [op for op in made_when_painted(frame) if op not in made]
        if pictures:
            made.update(pictures)
            for paint, args in pictures:
                MADE_WHEN_PAINTED[paint](*args)
            yield None
        return True

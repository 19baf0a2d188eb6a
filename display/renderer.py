"""Draws any screen model onto a canvas of the display's own size (1280×720 by default,
1920×1080 on a big screen: laid out in 1280×720 units, drawn at full resolution); each
game's play screen (and its own result screen, if it has one) comes from
``display.games.registry``.

Frames are composed (:mod:`display.compose`): a screen is recorded as a display list and
only what changed since the last frame is repainted; :attr:`Renderer.dirty` says where.
A frame drawn with a layout record (the tests' and the frame check's) is painted whole,
directly, as every frame was before."""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import pygame

from display.ahead import Ahead, Sketches
from display.calibration_screen import CalibrationScreen, draw_calibration
from display.canvas import Canvas
from display.compose import Composer, Frame, Segments
from display.games import registry
from display.layout import UNITS, LayoutRecord
from display.models import (
    AnyResultScreen,
    AttractScreen,
    DemoScreen,
    JoinScreen,
    OptionsScreen,
    PlayScreen,
    ResultScreen,
    Screen,
    SelectScreen,
    ServiceScreen,
)
from display.motion import STILL_AFTER_US
from display.screens import (
    draw_attract,
    draw_demo,
    draw_demo_foreseen,
    draw_join,
    draw_options,
    draw_result,
    draw_select,
    draw_service,
)
from display.text import BUDGET_BYTES, Later, TextCache

CANVAS = UNITS
READY_ALLOWANCE = 1_000_000
"""What a step drawing a coming frame ahead (:meth:`Renderer._ready`) may spend on strings
new to the text cache (the drawing's own Python, recording a screen's segments the first
time, is 2–5 M more: the largest step of Punch!'s preparation was 6.7 M at 1.5 M)."""

SCREENS: dict[type, Callable[[Canvas, TextCache, Any], None]] = {
    AttractScreen: draw_attract,
    DemoScreen: draw_demo,
    SelectScreen: draw_select,
    JoinScreen: draw_join,
    OptionsScreen: draw_options,
    ResultScreen: draw_result,
    ServiceScreen: draw_service,
    CalibrationScreen: draw_calibration,
}


class Renderer:
    """Renders screen models to a canvas surface of the display's size."""

    def __init__(self, canvas: pygame.Surface | None = None, size: tuple[int, int] = CANVAS) -> None:
        if not pygame.font.get_init():
            pygame.font.init()
        self.canvas = canvas if canvas is not None else pygame.Surface(size)
        w, h = self.canvas.get_size()
        # Type is rendered at the display's resolution: the budget grows with it (at 1080p
        # the attract mode's strings outgrew 2 MB and were rendered again every frame).
        self.text = TextCache(budget_bytes=max(BUDGET_BYTES, BUDGET_BYTES * w * h // (UNITS[0] * UNITS[1])))
        self.composer = Composer(self.canvas)
        self.segments = Segments()
        """Parts of screens recorded once and put into later frames whole."""
        self.dirty: list[pygame.Rect] = []
        """The rectangles of the canvas the last :meth:`draw` repainted (none: unchanged)."""
        self._last: Screen | None = None
        self.ahead = Ahead(self._sketch, self.canvas.get_size(), self._ready)
        """The next demo's type, prepared while the title card waits (:meth:`prepare`)."""
        for game in registry.games():  # loaded now, not by a demo's first frame (0.1 s here)
            with contextlib.suppress(registry.NoScreens):  # said where it is drawn
                registry.screens(game)

    def _unmoved(self, screen: Screen) -> bool:
        """Whether ``screen`` is a play screen whose picture is already on the canvas: the
        model drawn last, later, both past :data:`display.motion.STILL_AFTER_US` since
        its newest event, and its game does not say it is moving.  Saves even recording
        the frame (a player thinking costs no drawing)."""
        last = self._last
        if not isinstance(screen, PlayScreen) or not isinstance(last, PlayScreen) or last.game != screen.game:
            return False
        newest = screen.events[-1][0] if screen.events else last.now_us
        if min(last.now_us, screen.now_us) < newest + STILL_AFTER_US:
            return False
        moving = registry.screens(screen.game).moving
        return (moving is None or not moving(screen)) and replace(last, now_us=screen.now_us) == screen

    def draw(self, screen: Screen, record: LayoutRecord | None = None) -> pygame.Surface:
        """Draw ``screen``; ``record``, if given, is filled with where text, live state
        and banners went (``display.layout``), and the frame is painted whole."""
        if isinstance(screen, AttractScreen):
            self.ahead.expect(screen)
        else:
            self.ahead.drop()
        if record is None and self._unmoved(screen):
            self.dirty = []
            return self.canvas
        self._last = screen
        if record is not None:
            self.composer.forget()
            self._draw(Canvas(self.canvas, record), screen)
            self.dirty = [self.canvas.get_rect()]
            return self.canvas
        frame = Frame(self.canvas.get_size(), self.segments)
        self._draw(Canvas(self.canvas, frame=frame), screen)
        self.dirty = self.composer.compose(frame)
        return self.canvas

    def layout(self, screen: Screen, record: LayoutRecord) -> None:
        """What :meth:`draw` with ``record`` records of where text, live state and banners
        go, without painting a pixel: the frame is recorded as the cabinet records one
        (a display list, here of no reused segments) and dropped; the canvas and what it
        shows are untouched.  Shapes record the box they may paint, not what they did.
        For checks of the words over whole games (the story's order, what a newcomer is
        told, words over words), which spent half their time painting panels."""
        self._draw(Canvas(self.canvas, record, frame=Frame(self.canvas.get_size())), screen)

    def prepare(self) -> bool:
        """For a frame with nothing to draw: one bounded step of preparing what the next
        screen will draw (:class:`display.ahead.Ahead`: a demo's type while the title
        card waits); False when nothing was left to prepare.  The canvas is not touched."""
        return self.ahead.step()

    @property
    def prepared(self) -> bool:
        """Whether :meth:`prepare` is known to have nothing left to do (no title card's
        demo being prepared, or its preparation through)."""
        return self.ahead.finished

    def _sketch(self, screen: DemoScreen, sketches: Sketches, part: int | None = None) -> Frame | None:
        """Draw ``screen`` with ``sketches`` into a display list that is never painted
        (its segments kept apart: none of them is reused by a frame shown); the list.
        ``part``: instead, that part of what its game may show later (None when there is
        no such part: :func:`draw_demo_foreseen`)."""
        frame = Frame(self.canvas.get_size(), sketches.segments)
        canvas = Canvas(self.canvas, frame=frame)
        if part is None:
            self._draw(canvas, screen, sketches)
        elif not draw_demo_foreseen(canvas, sketches, screen, part):
            return None
        return frame

    def _ready(self, screen: DemoScreen) -> bool:
        """Record ``screen`` as :meth:`draw` records a frame (its strings fitted and rendered
        into this renderer's text cache, its segments into its own), painting nothing and
        composing nothing, spending at most :data:`READY_ALLOWANCE` on strings new to the
        cache; False when that ran out first (what was made stays: the next call goes on)."""
        self.text.allowance = READY_ALLOWANCE
        try:
            self._draw(Canvas(self.canvas, frame=Frame(self.canvas.get_size(), self.segments)), screen)
        except Later:
            return False
        finally:
            self.text.allowance = None
        return True

    def _draw(self, canvas: Canvas, screen: Screen, text: TextCache | None = None) -> None:
        text = self.text if text is None else text
        if isinstance(screen, PlayScreen):
            registry.screens(screen.game).play(canvas, text, screen)
        elif isinstance(screen, ResultScreen) and (own := _own_result(screen)) is not None:
            own(canvas, text, screen)
        else:
            draw = SCREENS.get(type(screen))
            if draw is None:
                raise TypeError(f"no renderer for {type(screen).__name__}")
            draw(canvas, text, screen)


def _own_result(screen: AnyResultScreen) -> registry.ResultDrawer[Any, Any] | None:
    """The game's own result screen, if it registered one (a score sheet)."""
    return registry.screens(screen.final.game).result if screen.final is not None else None

"""Draws any screen model onto a canvas of the display's own size (1280×720 by default,
1920×1080 on a big screen: laid out in 1280×720 units, drawn at full resolution); each
game's play screen (and its own result screen, if it has one) comes from
``display.games.registry``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pygame

from display.calibration_screen import CalibrationScreen, draw_calibration
from display.canvas import Canvas
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
from display.screens import (
    draw_attract,
    draw_demo,
    draw_join,
    draw_options,
    draw_result,
    draw_select,
    draw_service,
)
from display.text import TextCache

CANVAS = UNITS

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
        self.text = TextCache()

    def draw(self, screen: Screen, record: LayoutRecord | None = None) -> pygame.Surface:
        """Draw ``screen``; ``record``, if given, is filled with where text, live state
        and banners went (``display.layout``)."""
        canvas = Canvas(self.canvas, record)
        if isinstance(screen, PlayScreen):
            registry.screens(screen.game).play(canvas, self.text, screen)
        elif isinstance(screen, ResultScreen) and (own := _own_result(screen)) is not None:
            own(canvas, self.text, screen)
        else:
            draw = SCREENS.get(type(screen))
            if draw is None:
                raise TypeError(f"no renderer for {type(screen).__name__}")
            draw(canvas, self.text, screen)
        return self.canvas


def _own_result(screen: AnyResultScreen) -> registry.ResultDrawer[Any, Any] | None:
    """The game's own result screen, if it registered one (a score sheet)."""
    return registry.screens(screen.final.game).result if screen.final is not None else None

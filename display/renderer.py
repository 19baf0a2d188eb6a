"""Draws any screen model onto the 1280×720 canvas; games register their play screens."""

from __future__ import annotations

from collections.abc import Callable

import pygame

from display.calibration_screen import CalibrationScreen, draw_calibration
from display.karate_screen import draw_karate
from display.models import (
    AttractScreen,
    JoinScreen,
    OptionsScreen,
    PlayScreen,
    ResultScreen,
    Screen,
    SelectScreen,
    ServiceScreen,
)
from display.punch_screen import draw_punch
from display.screens import draw_attract, draw_join, draw_options, draw_result, draw_select, draw_service
from display.text import TextCache

CANVAS = (1280, 720)

PlayDrawer = Callable[[pygame.Surface, TextCache, PlayScreen], None]
PLAY_SCREENS: dict[str, PlayDrawer] = {"punch": draw_punch, "karate_fight": draw_karate}
"""Each game's play screen, by game name."""

SCREENS: dict[type, Callable] = {
    AttractScreen: draw_attract,
    SelectScreen: draw_select,
    JoinScreen: draw_join,
    OptionsScreen: draw_options,
    ResultScreen: draw_result,
    ServiceScreen: draw_service,
    CalibrationScreen: draw_calibration,
}


class Renderer:
    """Renders screen models to a canvas surface (scaled to the window by the caller)."""

    def __init__(self, canvas: pygame.Surface | None = None) -> None:
        if not pygame.font.get_init():
            pygame.font.init()
        self.canvas = canvas if canvas is not None else pygame.Surface(CANVAS)
        self.text = TextCache()

    def draw(self, screen: Screen) -> pygame.Surface:
        if isinstance(screen, PlayScreen):
            PLAY_SCREENS[screen.game](self.canvas, self.text, screen)
        else:
            draw = SCREENS.get(type(screen))
            if draw is None:
                raise TypeError(f"no renderer for {type(screen).__name__}")
            draw(self.canvas, self.text, screen)
        return self.canvas

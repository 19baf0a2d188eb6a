"""Tap Race's screens: the main display shows every racer's taps; a racer's private
display shows their own count and what to press."""

from __future__ import annotations

import pygame
from games.tap_race.engine import TapRaceView
from PIL import Image

from display import theme
from display.canvas import Canvas
from display.models import PlayScreen, PrivateScreen
from display.private import text_lines
from display.text import TextCache
from display.widgets import PLAY_TOP, banner, panel, paused_overlay, title_bar


def draw_tap_race(surf: Canvas, text: TextCache, s: PlayScreen) -> None:
    v: TapRaceView = s.view
    w, _h = surf.get_size()
    surf.fill(theme.BACKGROUND)
    title_bar(surf, text, s.title, f"First to {v.taps_to_win} taps")
    cw = (w - 80) // len(s.seats)
    for i, (look, taps) in enumerate(zip(s.seats, v.taps, strict=True)):
        rect = pygame.Rect(40 + i * cw + 12, PLAY_TOP, cw - 24, 360)
        panel(surf, rect, theme.PANEL, look.color)
        text.draw(surf, look.name.upper(), 64, look.color, (rect.centerx, rect.y + 70), "center", bold=True)
        text.draw(surf, f"{taps}/{v.taps_to_win}", 120, theme.WHITE, (rect.centerx, rect.y + 220), "center", bold=True)
    if v.winner is not None:
        banner(surf, text, f"{s.seats[v.winner].name.upper()} WINS THE RACE", s.seats[v.winner].color)
    if s.paused:
        paused_overlay(surf, text, s.paused)


def draw_tap_race_private(screen: PrivateScreen, size: tuple[int, int]) -> Image.Image:
    v: TapRaceView = screen.view
    if v.winner is None:
        last = "A = tap!"
    else:
        last = "YOU WIN" if v.winner == screen.seat else "Race over"
    return text_lines([f"Tap Race {v.taps[screen.seat]}/{v.taps_to_win}", "", last], 0, size)

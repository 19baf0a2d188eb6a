"""The development window's strip under the main display: per station, what the cabinet's
own hardware would show — the private OLED (clearly marked PRIVATE) and the LED bar.

The strip and the main display above it fit a 768-pixel-high laptop screen together
(:data:`display.window.DEVELOPMENT_HEIGHT`); the OLEDs are drawn as large as a station's
share of the width allows, pixel for pixel (nearest neighbour)."""

from __future__ import annotations

import pygame
from PIL import Image

from display import draw, theme
from display.models import StationLook
from display.text import TextCache
from display.widgets import segment_bar

HEIGHT = 160
OLED_TOP = 46
"""Where the OLED's frame starts in the strip."""
LED_WIDTH = 22


def oled_scale(strip_width: int, stations: int, oled: tuple[int, int] = (128, 64)) -> float:
    """How many screen pixels an OLED pixel takes: up to 2, as the strip has room."""
    cw = strip_width // max(1, stations)
    fits_width = (cw - 24 - LED_WIDTH - 14 - 8) / oled[0]
    fits_height = (HEIGHT - OLED_TOP - 8 - 6) / oled[1]
    return max(0.5, min(2.0, fits_width, fits_height))


def draw_dev_panels(
    surf: pygame.Surface,
    text: TextCache,
    looks: tuple[StationLook, ...],
    oleds: list[Image.Image | None],
    leds: list[tuple[float, ...]],
) -> None:
    w = surf.get_width()
    surf.fill((6, 6, 10))
    draw.line(surf, theme.PANEL_EDGE, (0, 0), (w, 0), 3)
    cw = w // len(looks)
    for i, look in enumerate(looks):
        x = i * cw + 12
        image = oleds[i]
        size = image.size if image is not None else (128, 64)
        scale = oled_scale(w, len(looks), size)
        shown = (round(size[0] * scale), round(size[1] * scale))
        text.draw(surf, f"{look.name}  (station {i + 1})", 24, look.color, (x, 6), bold=True, max_width=cw - 24)
        text.draw(surf, "PRIVATE: only this player sees it", 18, theme.BAD, (x, 28), max_width=cw - 24)
        frame = pygame.Rect(x, OLED_TOP, shown[0] + 8, shown[1] + 8)
        draw.rect(surf, theme.BAD, frame, width=2, border_radius=6)
        if image is not None:
            rgb = image.convert("RGB").resize(shown, Image.Resampling.NEAREST)
            oled = pygame.image.frombytes(rgb.tobytes(), rgb.size, "RGB")
            surf.blit(oled, (frame.x + 4, frame.y + 4))
        bar = pygame.Rect(frame.right + 14, OLED_TOP, LED_WIDTH, HEIGHT - OLED_TOP - 8)
        segment_bar(surf, bar, sum(leds[i]), 10, look.color)
        text.draw(surf, "LED", 16, theme.DIM, (bar.centerx, OLED_TOP - 4), "midbottom")

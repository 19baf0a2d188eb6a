"""The development window's strip under the main display: per station, what the cabinet's
own hardware would show — the private OLED (clearly marked PRIVATE) and the LED bar."""

from __future__ import annotations

import pygame
from PIL import Image

from display import draw, theme
from display.models import StationLook
from display.text import TextCache
from display.widgets import segment_bar

HEIGHT = 190


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
        text.draw(surf, f"{look.name}  (station {i + 1})", 26, look.color, (x, 10), bold=True)
        text.draw(surf, "PRIVATE: only this player sees it", 20, theme.BAD, (x, 36))
        frame = pygame.Rect(x, 58, 256 + 8, 128 + 8)
        draw.rect(surf, theme.BAD, frame, width=2, border_radius=6)
        image = oleds[i]
        if image is not None:
            rgb = image.convert("RGB").resize((256, 128), Image.Resampling.NEAREST)
            oled = pygame.image.frombytes(rgb.tobytes(), rgb.size, "RGB")
            surf.blit(oled, (frame.x + 4, frame.y + 4))
        bar = pygame.Rect(frame.right + 14, 40, 26, HEIGHT - 52)
        segment_bar(surf, bar, sum(leds[i]), 10, look.color)
        text.draw(surf, "LED", 18, theme.DIM, (bar.centerx, 26), "midtop")

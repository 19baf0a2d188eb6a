"""The drawing helpers paint only inside the box they are given, whatever its size
(issue 23: a card turned edge-on, drawn with a 4 px border and 16 px corners, made
pygame-ce paint a block about 200 px wide over both cards on every Punch! reveal)."""

from __future__ import annotations

import pygame
import pytest

from display import draw
from display.canvas import Canvas

SIZES = [(w, h) for w in (-6, 0, 1, 2, 3, 4, 5, 7, 8, 9, 16, 33, 170) for h in (-3, 0, 1, 3, 8, 31, 240)]


def painted(surface: pygame.Surface) -> pygame.Rect:
    surface.set_colorkey((0, 0, 0))
    return surface.get_bounding_rect()


@pytest.mark.parametrize("width, radius", [(0, 0), (0, 16), (1, 3), (4, 16), (4, 0), (8, 40)])
def test_a_rect_of_any_size_paints_only_inside_itself(width: int, radius: int) -> None:
    for size in SIZES:
        surface = pygame.Surface((600, 600))
        box = pygame.Rect((300, 300), size)
        draw.rect(surface, (255, 230, 0), box, width, radius)
        ink = painted(surface)
        assert ink.width == 0 or box.contains(ink), f"{size} border {width} radius {radius}: painted {ink}"


def test_on_a_canvas_too_and_an_edge_on_card_still_shows_as_a_line() -> None:
    surface = pygame.Surface((1920, 1080))
    box = pygame.Rect(600, 100, 3, 240)  # layout units: 4.5 px wide at 1080p
    draw.rect(Canvas(surface), (255, 230, 0), box, width=4, border_radius=16)
    ink = painted(surface)
    assert ink.width > 0 and pygame.Rect(900, 150, 5, 360).contains(ink), ink


def test_the_clamp_is_what_keeps_the_paint_in(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without it pygame-ce paints the block the issue saw."""
    monkeypatch.setattr(draw, "fit_rect", lambda box, width, radius: (box, width, radius))
    surface = pygame.Surface((600, 600))
    draw.rect(surface, (255, 230, 0), pygame.Rect(300, 50, 4, 200), 4, 16)
    assert painted(surface).width > 150

"""The QR code the attract screen and the lobby draw is the code of the address they are
given, module for module, in whole pixels with its quiet zone, at any display size."""

from __future__ import annotations

import pygame
import pytest
import segno

from display.canvas import Canvas
from display.qr import QUIET, draw_qr, qr_modules

URL = "http://192.168.1.20:8035/"


def read_back(surface: pygame.Surface, painted: pygame.Rect, n: int) -> list[list[bool]]:
    """Each module's centre pixel, dark or not, quiet zone included."""
    px = painted.width // n
    return [
        [
            surface.get_at((painted.x + x * px + px // 2, painted.y + y * px + px // 2))[:3] == (0, 0, 0)
            for x in range(n)
        ]
        for y in range(n)
    ]


@pytest.mark.parametrize("size", [(1280, 720), (960, 540), (1920, 1080)])
def test_the_code_drawn_is_the_addresss_module_for_module(size: tuple[int, int]) -> None:
    surface = pygame.Surface(size)
    surface.fill((40, 30, 20))
    canvas = Canvas(surface)
    painted = draw_qr(canvas, URL, (1100, 20, 160, 160))
    expected = [list(map(bool, row)) for row in segno.make(URL, error="m", micro=False).matrix]
    n = len(expected) + 2 * QUIET
    assert painted.width == painted.height and painted.width % n == 0  # whole pixels a module
    assert painted.width // n >= 3 if size[0] >= 1280 else painted.width // n >= 2
    assert canvas.px_rect((1100, 20, 160, 160)).contains(painted)
    drawn = read_back(surface, painted, n)
    quiet = [row[:QUIET] + row[-QUIET:] for row in drawn] + drawn[:QUIET] + drawn[-QUIET:]
    assert not any(any(row) for row in quiet)
    assert [row[QUIET:-QUIET] for row in drawn[QUIET:-QUIET]] == expected
    assert len(qr_modules(URL)) == len(expected)

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


def region(surface: pygame.Surface, rect: pygame.Rect) -> bytes:
    return pygame.image.tobytes(surface.subsurface(rect), "RGB")


def test_the_attract_board_and_the_lobby_draw_the_code_of_the_address_they_are_given() -> None:
    """The attract screen (top right) and Punch Cards' lobby (the leaders' strip) show the
    configured address as a QR code, the very code ``draw_qr`` makes of it; without an
    address, none."""
    from dataclasses import replace

    from display.models import AttractBoard, AttractScreen, PlayScreen
    from display.renderer import Renderer
    from tests.display.test_punch_cards_screens import LOOKS, lobby

    board = AttractBoard(title="Punch Cards leaders", header=("#", "name"), rows=(("1.", "Ann"),), qr=URL)
    desks = replace(lobby(("Ann", "Bob", "Cy", "Di", "Ed")), web_url=URL)
    attract = AttractScreen(games=("Punch Cards",), featured=0, stations=LOOKS[:2], recent=(), blink=True, board=board)
    for screen, box in (
        (attract, (1084, 12, 184, 184)),
        (
            PlayScreen(game="punch_cards", title="Punch Cards", seats=LOOKS, view=desks, events=(), now_us=0),
            (1144, 596, 108, 108),
        ),
    ):
        renderer = Renderer()
        renderer.draw(screen)
        drawn = renderer.draw(replace(screen, blink=False) if isinstance(screen, AttractScreen) else screen)
        alone = pygame.Surface(drawn.get_size())
        painted = draw_qr(Canvas(alone), URL, box)
        assert region(drawn, painted) == region(alone, painted)
    plain = Renderer().draw(replace(attract, board=replace(board, qr="")))
    painted = draw_qr(Canvas(alone), URL, (1084, 12, 184, 184))
    assert region(plain, painted) != region(alone, painted)

"""On the cabinet's own screen a menu that did not change is not drawn again (an idle
cabinet costs almost no CPU); a game in play, the exhibition (no window) and the
development window (its panels move) are drawn every frame."""

from __future__ import annotations

from display.window import Window
from firmware_py.cabinet import Cabinet
from firmware_py.scenes import Attract
from tests.cabinet_driving import start_game


def test_an_unchanged_attract_screen_is_not_redrawn(config, sim, clock, store) -> None:
    window = Window((config.display.width, config.display.height))
    try:
        cabinet = Cabinet(config, sim, clock, store, window, log=lambda _l: None, seed=1)
        assert isinstance(cabinet.scene, Attract)
        cabinet.render()
        assert cabinet.drawn and cabinet.frames == 1
        clock.advance(16_667)
        cabinet.render()
        assert not cabinet.drawn and cabinet.frames == 1  # same model: the screen already shows it
        clock.advance(500_000)  # "Press START" blinks every half second
        cabinet.render()
        assert cabinet.drawn and cabinet.frames == 2
    finally:
        window.close()


def test_a_game_in_play_is_drawn_every_frame(config, sim, clock, store) -> None:
    window = Window((config.display.width, config.display.height))
    try:
        cabinet = Cabinet(config, sim, clock, store, None, log=lambda _l: None, seed=1)
        start_game(cabinet, sim)
        cabinet.window = window
        frames = cabinet.frames
        for _ in range(3):
            cabinet.render()
            assert cabinet.drawn
        assert cabinet.frames == frames + 3
    finally:
        window.close()


def test_without_a_window_every_frame_is_drawn(cabinet) -> None:
    for _ in range(3):
        cabinet.render()
        assert cabinet.drawn
    assert cabinet.frames == 3

"""On the cabinet's own screen a menu that did not change is not drawn again (an idle
cabinet costs almost no CPU); a game in play, the exhibition (no window) and the
development window (its panels move) are drawn every frame."""

from __future__ import annotations

import pytest

from display.window import Window
from firmware_py.runtime.cabinet import Cabinet
from firmware_py.runtime.scenes import DEMO_TICK_US, TITLE_US, Attract
from games.registry import BUILTIN
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


@pytest.mark.parametrize("game", range(len(BUILTIN)))
def test_a_demo_is_drawn_when_it_moves_or_its_clock_steps_not_every_frame(config, sim, clock, store, game) -> None:
    """Issue 13: attract demos stay under 5 % of a core.  Between two steps of the demo's
    clock (``DEMO_TICK_US``) a frame with no move and no blink is not drawn again."""
    window = Window((config.display.width, config.display.height))
    try:
        cabinet = Cabinet(config, sim, clock, store, window, log=lambda _l: None, seed=1)
        attract = cabinet.scene
        assert isinstance(attract, Attract)
        attract.demo_game = game
        attract.phase_us -= TITLE_US  # the title card's time is up: the demo starts
        before: tuple[int, int, bool] | None = None
        drawn = 0
        for frame in range(120):  # two seconds
            now = clock.now_us()
            cabinet.step(now)
            cabinet.render()
            assert attract.demo is not None
            state = (
                len(attract.demo.session.engine.journal),
                (now - attract.phase_us) // DEMO_TICK_US,
                ((now - attract.entered_us) // 500_000) % 2 == 0,
            )
            if frame > 0 and state == before:
                assert not cabinet.drawn, f"frame {frame}: nothing moved, yet the demo was drawn again"
            drawn += cabinet.drawn
            before = state
            clock.advance(16_667)
        assert drawn <= 120 // 3  # about 10 steps a second, plus moves and blinks: not 60
    finally:
        window.close()

"""Driving a simulated cabinet from tests: press buttons at chosen µs and let time run."""

from __future__ import annotations

from firmware_py.runtime.cabinet import Cabinet
from firmware_py.runtime.scenes import Play
from firmware_py.runtime.virtual_time import VirtualTimeDriver
from hal.events import Button
from hal.sim import SimCabinet

FRAME_US = 16_667
"""The tests' frame time (a 60 Hz display, rounded up)."""


def run_for(cabinet: Cabinet, sim: SimCabinet, duration_us: int, render: bool = True) -> None:
    """Let ``duration_us`` of virtual time pass on ``cabinet`` (whose hardware is ``sim``),
    stepping to every scheduled input, settle window end and frame, the first frame now."""
    assert cabinet.hw is sim, "run_for drives the cabinet's own sim hardware"
    VirtualTimeDriver(cabinet, FRAME_US, render=render).advance(duration_us)


def press(cabinet: Cabinet, sim: SimCabinet, station: int, button: Button, settle_us: int = 200_000) -> None:
    """Press and release a button now, then let ``settle_us`` pass."""
    sim.press(station, button, sim.clock.now_us(), hold_us=50_000)
    run_for(cabinet, sim, settle_us)


def start_game(cabinet: Cabinet, sim: SimCabinet, game: str = "punch", option_presses: tuple[Button, ...] = ()) -> Play:
    """From attract: station 0 picks ``game``, station 1 joins, options, fight."""
    press(cabinet, sim, 0, Button.START)
    names = [g.spec.name for g in cabinet.ctx.games]
    for _ in range(names.index(game)):
        press(cabinet, sim, 0, Button.B)
    press(cabinet, sim, 0, Button.START)
    press(cabinet, sim, 1, Button.START)
    for b in option_presses:
        press(cabinet, sim, 0, b)
    press(cabinet, sim, 0, Button.START)
    assert isinstance(cabinet.scene, Play), type(cabinet.scene).__name__
    return cabinet.scene


def start_session(cabinet: Cabinet, controls, options, stations: tuple[int, ...]) -> Play:
    """Skip the menus: start ``controls``' game with ``options`` between ``stations``."""
    play = Play.start(cabinet.ctx, cabinet.clock.now_us(), controls, options, stations)
    cabinet.scene = play
    return play

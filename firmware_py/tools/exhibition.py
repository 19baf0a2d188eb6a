"""The headless exhibition: computer players play a whole game through the full stack.

Bots press the sim backend's mock pins (never the engine directly): press → gpiozero
edge → debounce → scene/session → journal → engine → display, LED bars and OLEDs.  Time is
virtual, so a 10-minute match takes seconds, and the same seed plays the same match.
"""

from __future__ import annotations

import random
from pathlib import Path

from display.motion import FLIP_US
from firmware_py.games import registry
from firmware_py.runtime.cabinet import Cabinet
from firmware_py.runtime.computer_players import PRESS_GAP_US, ComputerPlayers
from firmware_py.runtime.scenes import Attract, Join, Options, Play, Result, Select
from firmware_py.runtime.virtual_time import VirtualTimeDriver
from games.levels import Level
from hal.clock import ManualClock
from hal.events import Button
from hal.sim import SimCabinet


class SimHands:
    """Through the simulated cabinet's mock pins and pad (the exhibition)."""

    def __init__(self, sim: SimCabinet) -> None:
        self.sim = sim

    def press(self, station: int, button: Button, at_us: int) -> None:
        self.sim.press(station, button, at_us)

    def slap(self, station: int, t_us: int, arrive_us: int, velocity: int) -> None:
        self.sim.slap(station, t_us, velocity=velocity, delay_us=arrive_us - t_us)


class ExhibitionDriver:
    """Plays the part of the people at the stations: walks the menus, then seats a
    computer player of ``level`` (the game's own, from its controls) at every station
    in the game, pressing the sim cabinet's pins and slapping its pads
    (:mod:`firmware_py.runtime.computer_players`)."""

    def __init__(self, cabinet: Cabinet, sim: SimCabinet, game: str, seed: int, level: Level = Level.NORMAL) -> None:
        self.cabinet = cabinet
        self.sim = sim
        self.game = game
        self.level = level
        self.rng = random.Random(seed)
        self.busy_until: dict[int, int] = {}
        self.seen_scene: object | None = None
        self.players: tuple[object, ComputerPlayers] | None = None
        """The computer players of the game in play, with the session they play in."""

    def _press(self, station: int, button: Button, at_us: int) -> int:
        start = max(at_us, self.busy_until.get(station, 0))
        self.sim.press(station, button, start)
        self.busy_until[station] = start + PRESS_GAP_US
        return start

    def _has_lobby(self) -> bool:
        return registry.entrance(self.game).has_lobby

    def act(self, now_us: int) -> None:
        scene = self.cabinet.scene
        new = scene is not self.seen_scene
        self.seen_scene = scene
        soon = now_us + 600_000
        if isinstance(scene, Attract) and new:
            self._press(0, Button.START, now_us + 1_500_000)
        elif isinstance(scene, Select) and new and self._has_lobby():
            # Its lobby is for people (names, PINs, a ledger): the bots play the game itself.
            controls = self.cabinet.ctx.game_named(self.game)()
            stations = tuple(range(controls.spec.min_players))
            options = controls.make_options({})
            self.cabinet.scene = Play.start(self.cabinet.ctx, now_us, controls, options, stations)
        elif isinstance(scene, Select) and new:
            for _ in range(self.cabinet.ctx.games.index(self.cabinet.ctx.game_named(self.game))):
                self._press(scene.host, Button.B, soon)
            self._press(scene.host, Button.START, soon)
        elif isinstance(scene, Join) and new:
            others = [s for s in range(len(self.cabinet.config.stations)) if s != scene.host]
            for s in others[: scene.controls.spec.max_players - 1]:
                self._press(s, Button.START, soon)
            if scene.controls.spec.min_players < scene.controls.spec.max_players:
                self._press(scene.host, Button.A, soon + 400_000)
        elif isinstance(scene, Options) and new:
            self._press(scene.host, Button.START, soon)
        elif isinstance(scene, Play):
            self._play(scene, now_us)

    def _play(self, scene: Play, now_us: int) -> None:
        """The game's seats are this driver's computer players, recorded as computers
        with the game (not people's records, issue 23), pressing the sim's own pins; a
        game resumed after a power cut is theirs again (not the scene's own players)."""
        session = scene.session
        if self.players is None or self.players[0] is not session:
            levels = dict.fromkeys(range(len(session.seats)), self.level)
            session.seat_computers({session.seats[seat]: level for seat, level in levels.items()}, now_us)
            scene.computers = None
            self.players = (session, ComputerPlayers(session.controls, levels, SimHands(self.sim), self.rng))
        self.players[1].act(session, now_us)


def run_exhibition(
    cabinet: Cabinet,
    sim: SimCabinet,
    clock: ManualClock,
    game: str | None = None,
    seed: int = 1,
    shots_dir: Path | None = None,
    max_virtual_s: int = 3600,
    fps: int = 60,
    level: Level = Level.NORMAL,
) -> bool:
    """Play one game (by name; default the first on the select screen) between computer
    players of ``level`` from the attract screen to the result screen.  Returns True when the game finished and the cabinet
    came back to attract.  An unknown game raises :class:`~games.registry.UnknownGame`
    before anything is played."""
    controls = cabinet.ctx.games[0] if game is None else cabinet.ctx.game_named(game)
    driver = ExhibitionDriver(cabinet, sim, controls.spec.name, seed, level)
    shots: dict[str, bool] = {}
    seen_result = False

    def act(t: int, is_frame: bool) -> None:
        if is_frame:  # the players look at the screen once a frame
            driver.act(t)

    def back_to_attract(t: int, is_frame: bool) -> bool:
        nonlocal seen_result
        if not is_frame:
            return False
        scene = cabinet.scene
        if shots_dir is not None:
            _maybe_shoot(cabinet, scene, shots, shots_dir)
        seen_result = seen_result or isinstance(scene, Result)
        return seen_result and isinstance(scene, Attract)

    # Every scheduled input at its exact µs, every settle window's end, every frame.
    end = clock.now_us() + max_virtual_s * 1_000_000
    return VirtualTimeDriver.at_fps(cabinet, fps).run_until(end, after_step=act, after=back_to_attract)


SHOT_AFTER_US = FLIP_US + 20_000
"""A notable moment is shot once the revealed cards have turned over (display.motion)."""

NOTABLE = (
    "CardsRevealed",
    "Knockout",
    "MatchEnded",
    "HitShowing",
    "HitWon",
    "CowardsBlow",
    "DeadHeat",
    "JanKenStarted",
    "KarateMaster",
    "WindowOpened",
)
"""Engine events worth a screenshot (the first of each kind), a moment after they happen."""


def _maybe_shoot(cabinet: Cabinet, scene: object, shots: dict[str, bool], shots_dir: Path) -> None:
    """A few screenshots a person would want to look at: each menu, notable play, the result."""
    name = type(scene).__name__.lower()
    if isinstance(scene, Play):
        recent = scene.session.recent
        if not recent:
            return
        t, event = recent[-1]
        kind = type(event).__name__
        if kind not in NOTABLE or (scene.session.engine.over and kind != "KarateMaster"):
            return
        if cabinet.clock.now_us() - t < SHOT_AFTER_US:
            return
        name = f"play-{kind.lower()}"
    if name in shots:
        return
    shots[name] = True
    path = cabinet.screenshot(shots_dir / f"{len(shots):02d}-{name}.png")
    cabinet.ctx.log(f"[screenshot] {path}")

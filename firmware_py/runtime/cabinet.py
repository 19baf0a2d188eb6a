"""The cabinet's main loop: poll the hardware, run the scene, drive the LED bars and
private displays, render and flip the main display, and report the flip time.

Time is whatever the clock says: real time on the cabinet and in the development window,
virtual time in the headless exhibition and HIL runs (the same loop, just faster).
"""

from __future__ import annotations

import logging
import random
from collections.abc import Callable
from pathlib import Path
from typing import cast

import pygame

from display.dev_panels import draw_dev_panels
from display.models import PrivateModel, StationLook
from display.private import draw_private
from display.renderer import Renderer
from display.window import Window
from firmware_py.games import registry as controls_registry
from firmware_py.process.version import describe
from firmware_py.runtime.cabinet_sound import KEPT, open_sound, sound_cache
from firmware_py.runtime.calibration_scene import CalibrationScene
from firmware_py.runtime.context import CabinetContext
from firmware_py.runtime.scene import Scene, ServiceScene, pressed
from firmware_py.runtime.scenes import Attract, Play
from firmware_py.runtime.service_menu import ServiceMenu
from firmware_py.runtime.session import GameSession
from firmware_py.runtime.store import Store, UnreadableJournal
from games.levels import Level
from games.registry import UnknownGame
from hal.cabinet_io import CabinetIO, StationReadback
from hal.clock import Clock
from hal.config import CabinetConfig
from hal.events import InputEvent, ServiceEvent, TypedEvent

cabinet_log = logging.getLogger("ringside")
"""The cabinet's own log lines (game events, scene changes): INFO in the journal."""


class Cabinet:
    def __init__(
        self,
        config: CabinetConfig,
        hardware: CabinetIO,
        clock: Clock,
        store: Store,
        window: Window | None = None,
        log: Callable[[str], None] = cabinet_log.info,
        seed: int | None = None,
        shutdown: Callable[[], str] | None = None,
        computer_level: Level = Level.NORMAL,
        audio: str = "device",
    ) -> None:
        """``shutdown``: what the service menu's Shut down runs (None on simulated hardware);
        ``computer_level``: the level the join screen first offers for computer players;
        ``audio``: where sound goes (``device``, or ``tape`` in virtual time, or ``none``:
        :func:`~firmware_py.runtime.cabinet_sound.open_sound`)."""
        self.config = config
        self.hw = hardware
        self.typed: list[TypedEvent] = []
        """A USB keyboard's typing since the last step (``firmware_py.tools.run`` fills it)."""
        self.clock = clock
        self.window = window
        self.renderer = (
            Renderer(canvas=window.main) if window is not None else Renderer(size=config.display.render_size())
        )
        self.frames = 0
        looks = tuple(StationLook(s.name, s.color) for s in config.stations)
        settle = max(s.slap.settle_us for s in config.stations)
        if config.padboard is not None:
            settle = max(settle, config.padboard.settle_us)
        games = controls_registry.offered()
        sound = open_sound(
            config.sound,
            [g.spec.name for g in games],
            len(config.stations),
            log,
            audio,
            kept=config.data_dir / KEPT if audio == "device" else None,
            cache=sound_cache(config.data_dir) if audio != "none" else None,
        )
        self.ctx = CabinetContext(
            config=config,
            store=store,
            looks=looks,
            games=games,
            seeds=random.Random(seed),
            log=log,
            settle_us=settle,
            sound=sound,
            hardware=hardware,
            shutdown=shutdown,
            version=describe(),
            computer_level=computer_level,
        )
        now = clock.now_us()
        self.scene: Scene = self._resume(now) or Attract(self.ctx, now)
        self._private_size = (config.stations[0].private_display.width, config.stations[0].private_display.height)
        self._leds: dict[int, float] = {}
        self._privates: dict[int, PrivateModel] = {}
        """Station → the private-display model last drawn there."""
        self._on_screen: object = None
        """The screen model last flipped to the window (menus that did not change are not redrawn)."""
        self.drawn = False
        """Whether the last :meth:`render` drew (False: the window already showed it)."""
        self._quiet: int | None = None
        """Until when the screen stays as the last frame left it, when that frame drew
        nothing and had nothing to prepare (:meth:`quiet_until`); None: not idle."""

    def _resume(self, now_us: int) -> Scene | None:
        """After a power cut, pick the unfinished game up from its journal.  A journal that
        cannot be read or replayed abandons only that game (kept in the store)."""
        store = self.ctx.store
        try:
            saved = store.unfinished()
        except UnreadableJournal as e:
            store.abandon_game(e.game_id, f"journal unreadable: {e.reason}")
            self.ctx.log(f"Could not resume game #{e.game_id}: {e.reason}; game abandoned, journal kept")
            return None
        if saved is None:
            return None
        try:
            controls = self.ctx.game_named(saved.game)
        except UnknownGame:
            controls = None
        if controls is None or max(saved.seats, default=len(self.ctx.looks)) >= len(self.ctx.looks):
            store.abandon_game(saved.id, "cannot resume on this cabinet")
            return None
        if not controls.resumes:
            store.abandon_game(saved.id, f"{controls.spec.title} games are not resumed")
            self.ctx.log(f"{controls.spec.title} #{saved.id} was cut short: abandoned (this game is not resumed)")
            return None
        looks = tuple(self.ctx.looks[s] for s in saved.seats)
        try:
            session = GameSession.resume(controls(), saved, looks, store, self.ctx.settle_us, now_us)
        except (ValueError, KeyError, TypeError) as e:
            # A journal this version cannot replay (IllegalAction is a ValueError): the
            # cabinet must still start; the journal stays in the store for a look.
            store.abandon_game(saved.id, f"journal does not replay: {e}")
            self.ctx.log(f"Could not resume {controls.spec.title} #{saved.id}: {e}; game abandoned, journal kept")
            return None
        self.ctx.log(f"Resuming {controls.spec.title} #{saved.id} after {len(saved.actions)} recorded actions")
        return Play(self.ctx, now_us, session)

    def step(self, now_us: int) -> None:
        """Handle every input up to ``now_us``, advance the scene, update LEDs and OLEDs."""
        events: list[InputEvent] = [*self.hw.poll(now_us), *self.typed]
        self.typed.clear()
        due = self.scene.next_due()
        if events or (due is not None and due <= now_us):
            self._quiet = None  # an input or a move on time may change what is shown: the next frame is taken
        for ev in events:
            if isinstance(ev, ServiceEvent):
                self._service(ev, now_us)
                continue
            nxt = self.scene.handle(ev, now_us)
            if nxt is not None:
                self.scene = nxt
        nxt = self.scene.tick(now_us)
        if nxt is None and self.scene.idle(now_us):
            nxt = Attract(self.ctx, now_us)
        if nxt is not None:
            self.scene = nxt
        if self.ctx.sound is not None:
            self.ctx.sound.follow(self.scene.heard(now_us), now_us, pressed=any(pressed(e) for e in events))
        self._outputs(now_us)

    def next_due(self) -> int | None:
        """When the scene next hands something over on time: the game's settle window
        releasing a held input, a computer player's press or slap (None: nothing)."""
        return self.scene.next_due()

    def quiet_until(self) -> int | None:
        """When the loop next needs a frame if no input arrives (None: at the next frame
        of its rate).  Only an idle cabinet's own screen waits: the last frame left the
        screen as it was, or drew a screen that still stood after its flip was told, with
        nothing to prepare, and the scene said then until when it stays so
        (:meth:`Scene.still_until`; the attract music's timer too); an input since ends
        the wait.  Most scenes say nothing, and a game in play or the
        development window draws every frame."""
        return self._quiet

    def _still_until(self, now_us: int) -> int | None:
        until = self.scene.still_until(now_us)
        music = self.ctx.sound.attract_due(now_us) if self.ctx.sound is not None else None
        return until if until is None or music is None else min(until, music)

    def _service(self, ev: ServiceEvent, now_us: int) -> None:
        if ev.on and not self.scene.is_service:
            self.scene = ServiceMenu(self.ctx, now_us, self.scene, calibration=CalibrationScene)
        elif not ev.on and self.scene.is_service:
            self.ctx.log("SERVICE key off")
            self.scene = cast(ServiceScene, self.scene).underneath  # only a ServiceScene is of the SERVICE kind

    def _outputs(self, now_us: int) -> None:
        """Drive only what changed: LED levels that moved, and each private display whose
        model (:meth:`Scene.private_model`: what it says now, from the scene's state as it
        is) differs from the one last drawn there.  Comparing models is cheap; drawing
        and the I2C write are the costly part, so only a changed model is drawn, and a
        background answer, a rival's sign-in or a refusal timing out shows at once."""
        for station, level in self.scene.led_levels(now_us).items():
            if self._leds.get(station) != level:
                self.hw.set_led_level(station, level)
                self._leds[station] = level
        for station in range(len(self.config.stations)):
            model = self.scene.private_model(station)
            if self._privates.get(station) != model:
                self._privates[station] = model
                self.hw.show_private(station, draw_private(model, self._private_size))

    def render(self) -> pygame.Surface:
        """Draw the scene; when a window is there, flip it and report when the frame is
        visible: the flip time plus the panel's measured latency (``[display] latency_us``,
        from the calibration's light sensor), so a reveal counts from then.

        On the cabinet's own screen (a window without development panels) a menu whose
        screen model has not changed since the last flip is not drawn again: the screen
        already shows it, and an idle attract screen then costs almost no CPU.  A game in
        play is drawn every frame (its reveals are timed by flips), at the cost of what
        changed in it: the renderer repaints and the window shows only those rectangles
        (``display.compose``)."""
        now = self.clock.now_us()
        screen = self.scene.screen(now)
        kept = self.window is not None and self.window.strip is None and self.scene.live_session() is None
        self.drawn = not (kept and screen == self._on_screen)
        self._quiet = None
        if not self.drawn:
            # a bounded step toward what comes next (a demo's type); with nothing left, idle
            if not self.renderer.prepare():
                self._quiet = self._still_until(now)
            return self.renderer.canvas
        self._on_screen = screen
        canvas = self.renderer.draw(screen)
        if self.window is not None:
            if self.window.strip is not None and (shown := self.hw.readback()) is not None:
                self._draw_dev_panels(self.window.strip, shown)
            self.window.present(canvas, self.renderer.dirty)
        self.frames += 1
        self.scene.frame_shown(self.clock.now_us() + self.config.display.latency_us, now)
        if kept and self.renderer.prepared and self.scene.screen(now) == screen:
            # What was drawn still stands after its flip was told and nothing is left to
            # prepare: idle now, not after a frame that would only find that out.
            self._quiet = self._still_until(now)
        return canvas

    def _draw_dev_panels(self, strip: pygame.Surface, shown: tuple[StationReadback, ...]) -> None:
        """The development window's strip: what the hardware read back from each station."""
        draw_dev_panels(
            strip,
            self.renderer.text,
            self.ctx.looks,
            [s.private_image for s in shown],
            [s.led_levels for s in shown],
        )

    def screenshot(self, path: Path) -> Path:
        path.parent.mkdir(parents=True, exist_ok=True)
        pygame.image.save(self.renderer.canvas, str(path))
        return path

"""The operator menu behind the SERVICE key: a list of pages, station 1's A/B move and
START opens.  The cabinet's own pages (stats, input test, LED test, the cabinet, sound,
slap-pad calibration, shut down) come first, then each offered game's (its ``ENTRANCE``)."""

from __future__ import annotations

import textwrap
from collections.abc import Callable

from display.models import ServiceScreen
from firmware_py.games import registry
from firmware_py.runtime.context import CabinetContext
from firmware_py.runtime.scene import Scene, ServicePage, ServiceScene, pressed
from hal.events import Button, ButtonEvent, InputEvent, SlapEvent

CalibrationOpener = Callable[[CabinetContext, int, ServiceScene], Scene]
"""Opens the calibration wizard's scene from the menu (the cabinet's own, or a test's)."""


class StatsPage(ServicePage):
    title = "Stats"

    def body(self, ctx: CabinetContext, now_us: int) -> tuple[str, ...]:
        store = ctx.store
        titles = {g.spec.name: g.spec.title for g in ctx.games}  # its title, not its id ("karate_fight")
        played = sorted(store.games_played().items())
        body = ["Games finished:"] + [f"  {titles.get(g, g)}: {n}" for g, n in played]
        for g in ctx.games:
            wins = store.wins_by_station(g.spec.name)
            if wins:
                body.append(
                    f"{g.spec.title} wins: "
                    + ", ".join(f"{ctx.looks[s].name} {n}" for s, n in sorted(wins.items()) if s < len(ctx.looks))
                )
        fastest = store.fastest("reaction")
        if fastest:
            body.append("Fastest reactions:")
            body += [
                f"  {ctx.looks[s].name if s is not None and s < len(ctx.looks) else '?'}: {v} µs  ({at})"
                for s, v, at in fastest
            ]
        return tuple(body)


class InputTestPage(ServicePage):
    title = "Input test"

    def __init__(self) -> None:
        self.inputs: list[str] = []

    def on_input(self, ctx: CabinetContext, ev: InputEvent) -> None:
        if isinstance(ev, ButtonEvent):
            what = f"{ev.button.value} {'down' if ev.pressed else 'up'}"
        elif isinstance(ev, SlapEvent):
            what = f"SLAP v={ev.velocity}"
        else:
            return
        self.inputs = [f"{ev.t_us / 1e6:12.6f}s  {ctx.looks[ev.station].name:6}  {what}", *self.inputs][:18]

    def body(self, ctx: CabinetContext, now_us: int) -> tuple[str, ...]:
        return ("Press any button or slap any pad:", *self.inputs)


class LedTestPage(ServicePage):
    title = "LED test"

    def __init__(self) -> None:
        self.since_us: int | None = None
        """When the sweep began: when the page was first highlighted."""

    def body(self, ctx: CabinetContext, now_us: int) -> tuple[str, ...]:
        return ("All LED bars sweep 0 → 10 segments.", "Every segment must light in order.")

    def led_levels(self, ctx: CabinetContext, now_us: int) -> dict[int, float] | None:
        if self.since_us is None:
            self.since_us = now_us
        level = ((now_us - self.since_us) // 300_000 % 11) / 10
        return {s: level for s in range(len(ctx.looks))}


class CabinetPage(ServicePage):
    title = "Cabinet"

    def body(self, ctx: CabinetContext, now_us: int) -> tuple[str, ...]:
        cfg = ctx.config
        body = [
            f"Cabinet: {cfg.name}",
            f"Software: {ctx.version}",
            f"Config: {cfg.source}",
            f"Data: {cfg.data_dir}",
            f"Stations: {len(cfg.stations)}",
            f"Settle window: {ctx.settle_us} µs",
        ]
        body += [f"  {s.name}: slap {s.slap.source}, LED chip {s.led_bar.chip}" for s in cfg.stations]
        if ctx.store.notice is not None:
            lines = textwrap.wrap(ctx.store.notice.detail, 64, break_long_words=False, break_on_hyphens=False)
            body += ["Store:", *(f"  {line}" for line in lines)]
        return tuple(body)


class SoundPage(ServicePage):
    """Volumes per kind and the attract screen's sound, changed while the cabinet runs and
    kept over restarts (the data folder's ``sound-settings.json``, over the config's
    ``[sound]`` until reset here).  C picks a row, D changes it, START plays a sample."""

    title = "Sound"
    ROWS = ("Effects volume", "Voice volume", "Music volume", "Attract screen", "Back to the config")
    SAMPLES = ("menu_pick", "fight", "fanfare", "attract_loop", "menu_pick")
    ATTRACT_STEPS = (("silent", 5), ("quiet", 5), ("every", 5), ("every", 10), ("every", 30))

    def __init__(self) -> None:
        self.row = 0

    def on_input(self, ctx: CabinetContext, ev: InputEvent) -> None:
        sound = ctx.sound
        if sound is None or not pressed(ev) or ev.station != 0:
            return
        if ev.button is Button.C:
            self.row = (self.row + 1) % len(self.ROWS)
        elif ev.button is Button.D and self.row < 3:
            volumes = list(sound.settings.volumes)
            volumes[self.row] = (volumes[self.row] // 10 * 10 + 10) % 110
            sound.change(volumes=(volumes[0], volumes[1], volumes[2]))
        elif ev.button is Button.D and self.row == 4:
            sound.reset()
        elif ev.button is Button.D:
            now = (sound.settings.attract, sound.settings.every_min)
            steps = self.ATTRACT_STEPS
            i = next((k for k, (a, m) in enumerate(steps) if (a, m) == now or (a == now[0] != "every")), -1)
            attract, every = steps[(i + 1) % len(steps)]
            sound.change(attract=attract, every_min=every)

    def start(self, ctx: CabinetContext, now_us: int, menu: ServiceScene) -> Scene | None:
        if ctx.sound is not None:
            ctx.sound.cue(self.SAMPLES[self.row], now_us)
        return None

    def body(self, ctx: CabinetContext, now_us: int) -> tuple[str, ...]:
        sound = ctx.sound
        if sound is None:
            return ("Sound is off: [sound] enabled = false in the cabinet config.",)
        s = sound.settings
        values = (
            *(f"{v} %" for v in s.volumes),
            sound.describe_attract(),
            "D resets" if sound.changed_here else "(as the config says)",
        )
        lines = [
            f"{'>' if k == self.row else ' '} {row}: {value}" for k, (row, value) in enumerate(zip(self.ROWS, values))
        ]
        cfg = sound.config
        mute = (
            "none"
            if cfg.mute_from is None or cfg.mute_until is None
            else f"{cfg.mute_from // 60:02d}:{cfg.mute_from % 60:02d}-{cfg.mute_until // 60:02d}:{cfg.mute_until % 60:02d}"
        )
        return (
            *lines,
            "",
            f"Mute window (config): {mute}{'  (muted now)' if sound.speaker.muted else ''}",
            f"Device: {sound.device}",
            "C: next row · D: change · START: hear a sample",
        )


class CalibrationPage(ServicePage):
    title = "Calibration"

    def __init__(self, opener: CalibrationOpener | None) -> None:
        self.opener = opener

    def body(self, ctx: CabinetContext, now_us: int) -> tuple[str, ...]:
        return (
            "Slap-pad calibration wizard (docs/calibration.md).",
            "START begins; A aborts at any step",
            "and the old profile stays in force.",
        )

    def start(self, ctx: CabinetContext, now_us: int, menu: ServiceScene) -> Scene | None:
        return self.opener(ctx, now_us, menu) if self.opener is not None else None


class ShutDownPage(ServicePage):
    """First START asks, the second one runs the configured command."""

    title = "Shut down"

    def __init__(self) -> None:
        self.confirming = False
        self.said = ""

    def start(self, ctx: CabinetContext, now_us: int, menu: ServiceScene) -> Scene | None:
        if ctx.shutdown is None:
            self.said = "Nothing to shut down: this is simulated hardware."
        elif not self.confirming:
            self.confirming = True
        else:
            self.confirming = False
            self.said = ctx.shutdown()
        return None

    def left(self) -> None:
        self.confirming = False

    def body(self, ctx: CabinetContext, now_us: int) -> tuple[str, ...]:
        if self.said:
            return (self.said,)
        if self.confirming:
            return ("Really shut the cabinet down?", "START: yes, shut down now", "A/B: no (move away)")
        return ("Powers the cabinet off safely.", "START, then START again to confirm.")


def cabinet_pages(calibration: CalibrationOpener | None) -> tuple[ServicePage, ...]:
    """The cabinet's own pages, in menu order (the games' come after them)."""
    return (
        StatsPage(),
        InputTestPage(),
        LedTestPage(),
        CabinetPage(),
        SoundPage(),
        CalibrationPage(calibration),
        ShutDownPage(),
    )


class ServiceMenu(ServiceScene):
    """The operator menu (SERVICE key on).  The scene that was running is kept and
    resumes when the key is turned off."""

    def __init__(
        self, ctx: CabinetContext, now_us: int, underneath: Scene, calibration: CalibrationOpener | None = None
    ) -> None:
        super().__init__(ctx, now_us)
        self._underneath = underneath
        self.cursor = 0
        games = tuple(p for g in ctx.games for p in registry.entrance(g.spec.name).service_pages(ctx))
        self.pages = cabinet_pages(calibration) + games
        ctx.log("SERVICE key on: operator menu")

    @property
    def underneath(self) -> Scene:
        return self._underneath

    @property
    def page(self) -> ServicePage:
        return self.pages[self.cursor]

    @property
    def titles(self) -> tuple[str, ...]:
        return tuple(p.title for p in self.pages)

    def on_input(self, ev: InputEvent, now_us: int) -> Scene | None:
        self.page.on_input(self.ctx, ev)
        if pressed(ev) and ev.station == 0 and ev.button in (Button.A, Button.B):
            self.page.left()
            self.cursor = (self.cursor + (1 if ev.button is Button.B else -1)) % len(self.pages)
        elif pressed(ev, Button.START) and ev.station == 0:
            return self.page.start(self.ctx, now_us, self)
        return None

    def screen(self, now_us: int) -> ServiceScreen:
        return ServiceScreen(
            title=self.page.title,
            items=self.titles,
            cursor=self.cursor,
            body=self.page.body(self.ctx, now_us),
            footer="Station 1: A/B move · turn the SERVICE key off to leave",
        )

    def led_levels(self, now_us: int) -> dict[int, float]:
        return self.page.led_levels(self.ctx, now_us) or super().led_levels(now_us)

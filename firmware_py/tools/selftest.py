"""``ringside selftest``: two checks an operator runs after editing a config or before a
convention opens.

Without ``--press`` it starts the cabinet on **simulated** hardware and checks every
part a game relies on — config, data folder and store, attract screen, every button of
every station, every LED segment, every private display — printing a line per check,
and a WARN line for what the real cabinet may miss (sound folder, padboard port).  The
buttons are pressed by the simulator on its own mock pins, so this proves the config
and the software, not the wiring: every such line says "(simulated)", and a config for
the real cabinet (``backend = "gpio"``) gets a first line saying so.

With ``--press`` (the real cabinet, the service stopped) it opens the real hardware and
asks a person, one prompt at a time, to press every button and slap every pad, each
within ``--timeout`` seconds, then asks whether each LED bar and private display lit.
A press that never comes, or that comes from another button (crossed wires), is a FAIL
naming the line to check.

Exit status: 0 every check passed, 1 a check failed, 2 the data folder cannot be used
(as ``ringside run`` would exit) or ``--press`` on a simulated config, 4 or 5 the real
hardware cannot be opened (as ``ringside run``)."""

from __future__ import annotations

import os
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from hal.cabinet_io import CabinetIO
from hal.clock import Clock
from hal.config import CabinetConfig
from hal.events import Button, ButtonEvent, InputEvent, SlapEvent

SIMULATED = "(simulated)"
"""Said on every line whose check the simulator's own mock pins and displays made."""


def run_selftest(config: CabinetConfig, out: Callable[[str], None] = print, t_start: float | None = None) -> int:
    from display.window import Window
    from firmware_py.process.version import describe
    from firmware_py.runtime.cabinet import Cabinet
    from firmware_py.runtime.scenes import Attract
    from firmware_py.runtime.store import Store
    from hal.clock import ManualClock
    from hal.sim import SimCabinet

    t_start = time.perf_counter() if t_start is None else t_start
    failures = 0
    out(describe())
    if config.backend == "gpio":
        out(
            "NOTE  simulated hardware: the buttons, LED bars and displays below are the simulator's own, so "
            "this checks the config, not the wiring; on the cabinet stop the service "
            "(sudo systemctl stop ringside) and run `ringside selftest --press` to press each button"
        )

    def check(ok: bool, what: str) -> None:
        nonlocal failures
        failures += not ok
        out(f"{'PASS' if ok else 'FAIL'}  {what}")

    clock = ManualClock(1_000_000)
    sim = SimCabinet(config, clock)
    with tempfile.TemporaryDirectory() as tmp:
        store = Store(Path(tmp) / "selftest.sqlite3")
        window = Window((config.display.width, config.display.height))
        said: list[str] = []
        cabinet = Cabinet(config, sim, clock, store, window, log=said.append, seed=1)
        _report_sound(config, said, check, out)
        cabinet.step(clock.now_us())
        cabinet.render()
        check(
            isinstance(cabinet.scene, Attract),
            f"attract screen shown {1000 * (time.perf_counter() - t_start):.0f} ms after start",
        )
        for station, sc in enumerate(config.stations):
            seen = []
            for button in Button:
                sim.press(station, button, clock.now_us() + 20_000, hold_us=20_000)
                clock_end = clock.now_us() + 60_000
                while (due := sim.next_due()) is not None and due <= clock_end:
                    seen += [e for e in sim.poll(due) if isinstance(e, ButtonEvent) and e.pressed]
                sim.poll(clock_end)
            got = [(e.station, e.button) for e in seen]
            check(
                got == [(station, b) for b in Button],
                f"{sc.name}: buttons A-F and START each give one press {SIMULATED}",
            )
            ok = True
            for n in range(11):
                sim.set_led_level(station, n / 10)
                ok &= sum(1 for v in sim.led_levels(station) if v > 0) == n
            check(ok, f"{sc.name}: LED bar lights 0..10 segments in order {SIMULATED}")
            sim.set_led_level(station, 0)
            cabinet.step(clock.now_us())
            image = sim.private[station].image
            check(
                image is not None and image.getbbox() is not None,
                f"{sc.name}: private display shows an image {SIMULATED}",
            )
        check(store.integrity_ok(), "store opens with WAL and passes integrity_check")
        store.close()
        window.close()
    sim.close()
    data_ok = _check_data_folder(config, check, out)
    _warn_missing_parts(config, out)
    out(f"{'all checks passed' if failures == 0 else f'{failures} check(s) FAILED'}")
    return 0 if failures == 0 else 1 if data_ok else 2


def _report_sound(
    config: CabinetConfig, said: list[str], check: Callable[[bool, str], None], out: Callable[[str], None]
) -> None:
    """The sound device the cabinet opened, as it told its log: a WARN when there is none
    (the cabinet plays silent: no reason to stop, but an operator must know before the
    doors open), or when SDL's dummy driver was asked for (it opens, and nothing is heard)."""
    if not config.sound.enabled:
        return
    missing = next((line for line in said if line.startswith("sound: no sound device")), None)
    if missing is not None:
        out(f"WARN  {missing}")
    elif os.environ.get("SDL_AUDIODRIVER") == "dummy":
        out("WARN  sound: SDL_AUDIODRIVER=dummy opens no device: nothing would be heard")
    else:
        opened = next((line for line in said if line.startswith("sound: ")), "sound: opened")
        check(True, f"{opened.split(';')[0]} opens")


def _check_data_folder(config: CabinetConfig, check: Callable[[bool, str], None], out: Callable[[str], None]) -> bool:
    """The check ``ringside run`` makes of the data folder, and a look at the store in it
    (read only: the running cabinet, if any, keeps it)."""
    from firmware_py.process import data_folder
    from firmware_py.runtime.store import inspect

    folder = config.data_dir
    try:
        data_folder.prepare(folder)
    except data_folder.DataFolderError as e:
        check(False, f"{e}; set cabinet.data_dir in the config or pass --data DIR")
        return False
    if not data_folder.writable(folder):
        out(f"WARN  data folder {folder} cannot be written: games would be played but not recorded")
        return True
    check(True, f"data folder {folder} is a writable folder")
    store = folder / "ringside.sqlite3"
    problem = inspect(store)
    if problem is None:
        check(True, f"store {store} {'passes quick_check' if store.exists() else 'will be created'}")
    elif problem.newer:
        out(f"WARN  store {store} is from a newer Ringside ({problem.reason}): run keeps it as it is, unrecorded")
    elif problem.damaged:
        out(f"WARN  store {store} cannot be used ({problem.reason}): run keeps it aside and starts a fresh one")
    else:
        out(f"WARN  store {store} cannot be read now ({problem.reason})")
    return True


def _warn_missing_parts(config: CabinetConfig, out: Callable[[str], None]) -> None:
    """What the simulated hardware cannot check but the cabinet will look for."""
    folder = config.sound.folder
    if config.sound.enabled and folder is not None and not folder.is_dir():
        out(f"WARN  sound folder {folder} is missing: synthesized cues will play instead")
    if config.padboard is not None and not Path(config.padboard.port).exists():
        out(f"WARN  padboard port {config.padboard.port} is missing: plug the board in (the cabinet waits for it)")


PRESS_TIMEOUT_S = 10.0
"""How long ``--press`` waits for each press or slap before calling it a FAIL."""


class PressTest:
    """``ringside selftest --press``: a person presses what the prompts ask for, on the real
    hardware (``hardware``: what :func:`hal.hardware.open_hardware` opened; tests pass it
    opened on gpiozero's mock pins).  ``read`` answers the yes/no questions (stdin)."""

    def __init__(
        self,
        config: CabinetConfig,
        hardware: CabinetIO,
        clock: Clock,
        out: Callable[[str], None] = print,
        read: Callable[[str], str] = input,
        timeout_s: float = PRESS_TIMEOUT_S,
    ) -> None:
        self.config = config
        self.hardware = hardware
        self.clock = clock
        self.out = out
        self.read = read
        self.timeout_s = timeout_s
        self.failures = 0

    def check(self, ok: bool, what: str) -> None:
        self.failures += not ok
        self.out(f"{'PASS' if ok else 'FAIL'}  {what}")

    def run(self) -> int:
        self.out(
            f"Real hardware of cabinet {self.config.name}: press what each line asks, within "
            f"{self.timeout_s:g} s (Ctrl-C stops)."
        )
        try:
            for station, sc in enumerate(self.config.stations):
                for button, pin in sc.buttons:
                    self.press(
                        station, button, f"BCM {pin}" + (f" on gpiochip {sc.input_chip}" if sc.input_chip else "")
                    )
                if sc.slap.source != "none":
                    self.slap(station)
                self.lights(station)
        except KeyboardInterrupt:
            self.out("stopped: not every part was checked")
            return 1
        finally:
            for station in range(len(self.config.stations)):
                self.hardware.set_led_level(station, 0)
        self.out("all checks passed" if self.failures == 0 else f"{self.failures} check(s) FAILED")
        return 0 if self.failures == 0 else 1

    def _wait(self, prompt: str, wanted: Callable[[InputEvent], bool]) -> InputEvent | None:
        """Show ``prompt``; the first press or slap within the timeout (None: none came)."""
        self.hardware.poll(self.clock.now_us())  # what came before the prompt is not an answer
        self.out(prompt)
        deadline = time.monotonic() + self.timeout_s
        while (left := deadline - time.monotonic()) > 0:
            self.hardware.wait(min(0.05, left))
            for e in self.hardware.poll(self.clock.now_us()):
                if wanted(e):
                    return e
        return None

    def _name(self, e: InputEvent) -> str:
        if isinstance(e, ButtonEvent):
            sc = self.config.stations[e.station]
            return f"{sc.name} {e.button.value} (BCM {sc.button_pin(e.button)})"
        if isinstance(e, SlapEvent):
            return f"the {self.config.stations[e.station].name} pad"
        return type(e).__name__

    def press(self, station: int, button: Button, line: str) -> None:
        name = self.config.stations[station].name
        got = self._wait(
            f"Press {name} {button.value} …",
            lambda e: (isinstance(e, ButtonEvent) and e.pressed) or isinstance(e, SlapEvent),
        )
        if got is None:
            self.check(
                False,
                f"{name} {button.value}: no press within {self.timeout_s:g} s: check its wire to {line} and ground",
            )
        elif isinstance(got, ButtonEvent) and (got.station, got.button) == (station, button):
            self.check(True, f"{name} {button.value} ({line}) gives a press")
        else:
            self.check(
                False,
                f"{name} {button.value}: {self._name(got)} answered instead: wires crossed? ({name} {button.value} is {line})",
            )

    def slap(self, station: int) -> None:
        sc = self.config.stations[station]
        where = f"BCM {sc.slap.pin}" if sc.slap.source == "gpio-edge" else f"padboard pad {sc.slap.pad}"
        got = self._wait(
            f"Slap the {sc.name} pad …",
            lambda e: isinstance(e, SlapEvent) or (isinstance(e, ButtonEvent) and e.pressed),
        )
        if got is None:
            self.check(False, f"{sc.name} pad: no slap within {self.timeout_s:g} s: check the pad's wiring ({where})")
        elif isinstance(got, SlapEvent) and got.station == station:
            velocity = f", velocity {got.velocity}" if got.velocity is not None else ""
            self.check(True, f"{sc.name} pad ({where}) gives a slap{velocity}")
        else:
            self.check(False, f"{sc.name} pad: {self._name(got)} answered instead ({sc.name}'s pad is {where})")

    def lights(self, station: int) -> None:
        from PIL import Image, ImageDraw

        sc = self.config.stations[station]
        self.hardware.set_led_level(station, 1.0)
        pd = sc.private_display
        shown = pd.driver != "none"
        if shown:
            image = Image.new("1", (pd.width, pd.height))
            ImageDraw.Draw(image).text((4, pd.height // 2 - 6), sc.name, fill=1)
            self.hardware.show_private(station, image)
        question = f"{sc.name}: are all {len(sc.led_bar.pins)} LED segments lit" + (
            f" and does the small screen read {sc.name!r}? [y/n] " if shown else "? [y/n] "
        )
        try:
            answer = self.read(question).strip().lower()
        except EOFError:
            answer = ""
        self.hardware.set_led_level(station, 0)
        bar = f"gpiochip {sc.led_bar.chip} lines {', '.join(map(str, sc.led_bar.pins))}"
        screen = f"; the {pd.driver} at {pd.address:#x} on I2C bus {pd.i2c_bus}" if shown else ""
        if answer in ("y", "yes"):
            self.check(True, f"{sc.name}: LED bar{' and private display' if shown else ''} light")
        else:
            reason = "no answer" if answer == "" else "answered no"
            self.check(
                False, f"{sc.name}: LED bar{' or private display' if shown else ''} ({reason}): check {bar}{screen}"
            )


def run_press_test(config: CabinetConfig, timeout_s: float = PRESS_TIMEOUT_S) -> int:
    """``ringside selftest --press``: open the real hardware as ``ringside run`` would (its
    exit codes when a part is missing) and run :class:`PressTest` on it."""
    import logging

    from firmware_py.process.exit_codes import EXIT_BAD_INPUT, EXIT_HARDWARE
    from firmware_py.tools.run import open_real_hardware
    from hal.clock import MonotonicClock

    log = logging.getLogger("ringside")
    if config.backend != "gpio":
        log.error(
            "ringside selftest --press: %s says backend = %r: --press checks the real cabinet's wiring "
            '(cabinet.backend = "gpio"); without it selftest checks the simulated one',
            config.source or "the config",
            config.backend,
        )
        return EXIT_BAD_INPUT
    clock = MonotonicClock()
    hardware, code = open_real_hardware(config, clock)
    if hardware is None:
        if code == EXIT_HARDWARE:
            log.error(
                "ringside selftest --press: is the cabinet running? It holds the lines: sudo systemctl stop ringside"
            )
        return code if code is not None else EXIT_HARDWARE
    try:
        return PressTest(config, hardware, clock, timeout_s=timeout_s).run()
    finally:
        hardware.close()

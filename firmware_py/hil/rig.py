"""The ``rig`` backend: a Raspberry Pi test rig wired to a real cabinet.

Rig outputs drive the cabinet's station inputs through series resistors (a press pulls
the cabinet's pulled-up button line low; a slap drives the comparator line to its active
level for ``slap_pulse_us``, or a padboard's test input), and every LED bar segment line
of the cabinet is read back on a rig input.  The runner drives the timeline in real time
(monotonic µs since the scenario started), spinning for the last millisecond before each
input so a drive lands within a few µs of its time; it records when each drive really
happened (the rig's timing fidelity) and every change of the LED lines it sees.

What a rig cannot see is reported as skipped, never as passed: private OLEDs, the
screen and the scene; engine events only when the rig config names the cabinet's event
log (``event_log``: a JSONL file the cabinet writes, reachable from the rig).

The rig config (TOML, pin table in docs/hil.md) names the pin factory, the lines, and
a lock file: two runs on one rig at once would drive the same pins, so the second stops
at once with a message naming the holder.
"""

from __future__ import annotations

import fcntl
import json
import os
import time
import tomllib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from firmware_py.hil.checks import Goldens, NotObservable, evaluate
from firmware_py.hil.observe import Recorder
from firmware_py.hil.result import Fidelity, ScenarioResult
from firmware_py.hil.scenario import Input, Scenario, ScenarioError, game_controls
from hal.clock import Clock, MonotonicClock
from hal.events import Button

NAME = "rig"
RIG_KEYS = {"rig", "station", "service"}
DEFAULT_LOCK = "/run/lock/ringside-rig.lock"
SPIN_US = 1_500
"""Sleep until this close to an input's time, then spin."""
MENU_GAP_US = 250_000


class RigError(RuntimeError):
    """The rig cannot run (bad config, busy, a pin it cannot open)."""


class RigBusy(RigError):
    pass


@dataclass(frozen=True)
class RigStation:
    buttons: dict[Button, int]
    slap: int | None
    led: tuple[int, ...]


@dataclass(frozen=True)
class RigConfig:
    name: str
    source: str
    factory: str
    """``lgpio`` on the rig Pi; ``mock`` (gpiozero MockFactory) for tests of the rig logic."""
    input_chip: int
    led_chip: int
    lock_file: Path
    slap_active_high: bool
    slap_pulse_us: int
    stations: tuple[RigStation, ...]
    service: int | None = None
    event_log: Path | None = None
    cabinet_config: Path | None = None
    extra: dict[str, Any] = field(default_factory=dict, compare=False)


# The default pin table (docs/hil.md): rig outputs on the rig Pi's header (gpiochip 0),
# the same BCM numbers as the cabinet inputs they drive so the harness wires 1:1; LED
# read-back on I/O expander chips (one per station), lines 0-9 bottom segment first.
DEFAULT_STATIONS: tuple[dict[str, Any], ...] = (
    {"buttons": {"A": 5, "B": 6, "C": 13, "D": 19, "E": 26, "F": 16, "START": 20}, "slap": 21, "led_chip": 1},
    {"buttons": {"A": 17, "B": 27, "C": 22, "D": 23, "E": 24, "F": 25, "START": 12}, "slap": 18, "led_chip": 2},
)


def load_rig_config(path: str | Path | None) -> RigConfig:
    if path is None:
        path = os.environ.get("RINGSIDE_RIG")
    if not path:
        raise RigError("no rig config: pass --rig FILE or set RINGSIDE_RIG (docs/hil.md)")
    p = Path(path)
    try:
        raw = tomllib.loads(p.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as e:
        raise RigError(f"{p}: cannot read rig config ({e})") from e
    return parse_rig_config(raw, str(p), p.parent)


def parse_rig_config(raw: dict[str, Any], source: str = "<rig>", base: Path = Path(".")) -> RigConfig:
    def fail(key: str, value: Any, expected: str) -> RigError:
        return RigError(f"{source}: {key} = {value!r}: expected {expected}")

    for k in raw:
        if k not in RIG_KEYS:
            raise fail(k, raw[k], f"one of {', '.join(sorted(RIG_KEYS))}")
    rig = raw.get("rig", {})
    allowed = {
        "name",
        "factory",
        "input_chip",
        "lock_file",
        "slap_active_high",
        "slap_pulse_us",
        "event_log",
        "cabinet_config",
    }
    for k in rig:
        if k not in allowed:
            raise fail(f"rig.{k}", rig[k], f"one of {', '.join(sorted(allowed))}")
    factory = rig.get("factory", "lgpio")
    if factory not in ("lgpio", "mock"):
        raise fail("rig.factory", factory, "lgpio (on the rig Pi) or mock (tests)")
    pulse = rig.get("slap_pulse_us", 2_000)
    if not isinstance(pulse, int) or not 50 <= pulse <= 100_000:
        raise fail("rig.slap_pulse_us", pulse, "an integer 50..100000")
    stations_raw = raw.get("station", [dict(s) for s in DEFAULT_STATIONS])
    if not isinstance(stations_raw, list) or not 1 <= len(stations_raw) <= 4:
        raise fail("station", stations_raw, "1 to 4 [[station]] tables")
    stations = []
    used: dict[tuple[int, int], str] = {}
    input_chip = rig.get("input_chip", 0)

    def claim(chip: int, line: int, key: str) -> int:
        if not isinstance(line, int) or isinstance(line, bool) or not 0 <= line <= 63:
            raise fail(key, line, "a line number 0-63")
        if (chip, line) in used:
            raise fail(key, line, f"a line not already used by {used[(chip, line)]}")
        used[(chip, line)] = key
        return line

    led_chips = []
    for i, st in enumerate(stations_raw):
        key = f"station[{i}]"
        for k in st:
            if k not in ("buttons", "slap", "led", "led_chip"):
                raise fail(f"{key}.{k}", st[k], "one of buttons, slap, led, led_chip")
        default = DEFAULT_STATIONS[i] if i < len(DEFAULT_STATIONS) else {}
        b = st.get("buttons", default.get("buttons"))
        if not isinstance(b, dict) or set(b) != {x.value for x in Button}:
            raise fail(f"{key}.buttons", b, "a table of the rig output lines for A-F and START")
        buttons = {Button(k): claim(input_chip, v, f"{key}.buttons.{k}") for k, v in b.items()}
        slap = st.get("slap", default.get("slap"))
        if slap is not None:
            slap = claim(input_chip, slap, f"{key}.slap")
        led_chip = st.get("led_chip", i + 1)
        led = st.get("led", list(range(10)))
        if not isinstance(led, list) or len(led) != 10:
            raise fail(f"{key}.led", led, "10 rig input lines, bottom segment first")
        stations.append(
            RigStation(buttons, slap, tuple(claim(led_chip, x, f"{key}.led[{j}]") for j, x in enumerate(led)))
        )
        led_chips.append(led_chip)
    service = raw.get("service", {}).get("pin") if isinstance(raw.get("service"), dict) else None
    if service is not None:
        claim(input_chip, service, "service.pin")
    ev = rig.get("event_log")
    cab = rig.get("cabinet_config")
    return RigConfig(
        name=str(rig.get("name", "rig")),
        source=source,
        factory=factory,
        input_chip=input_chip,
        led_chip=led_chips[0] if led_chips else 1,
        lock_file=Path(rig.get("lock_file", DEFAULT_LOCK)),
        slap_active_high=bool(rig.get("slap_active_high", True)),
        slap_pulse_us=pulse,
        stations=tuple(stations),
        service=service,
        event_log=(base / ev) if ev else None,
        cabinet_config=(base / cab) if cab else None,
        extra={"led_chips": tuple(led_chips)},
    )


# -- the lock ----------------------------------------------------------------------------
class RigLock:
    """An exclusive ``flock`` on the rig's lock file, holding the holder's pid and scenario."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._fd: int | None = None

    def acquire(self, what: str) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o664)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.pread(fd, 200, 0).decode(errors="replace").strip() or "another run"
            os.close(fd)
            raise RigBusy(f"the rig is busy ({self.path} held by {holder}); runs on one rig cannot overlap") from None
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"pid {os.getpid()}: {what}\n".encode(), 0)
        self._fd = fd

    def release(self) -> None:
        if self._fd is not None:
            os.ftruncate(self._fd, 0)
            fcntl.flock(self._fd, fcntl.LOCK_UN)
            os.close(self._fd)
            self._fd = None

    def __enter__(self) -> RigLock:
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()


# -- the pins ----------------------------------------------------------------------------
class RigPins:
    """The rig's gpiozero devices: outputs to the cabinet's inputs, inputs from its LEDs."""

    def __init__(self, rig: RigConfig, factories: dict[int, Any] | None = None) -> None:
        from gpiozero import DigitalInputDevice, DigitalOutputDevice

        self.rig = rig
        chips = {rig.input_chip, *rig.extra.get("led_chips", (rig.led_chip,))}
        self.factories = factories or _factories(rig, chips)
        out = self.factories[rig.input_chip]
        # A press pulls the cabinet's pulled-up line low: active_high=False, idle high.
        self.buttons = [
            {
                b: DigitalOutputDevice(pin, active_high=False, initial_value=False, pin_factory=out)
                for b, pin in st.buttons.items()
            }
            for st in rig.stations
        ]
        self.slaps = [
            DigitalOutputDevice(st.slap, active_high=rig.slap_active_high, initial_value=False, pin_factory=out)
            if st.slap is not None
            else None
            for st in rig.stations
        ]
        self.service = (
            DigitalOutputDevice(rig.service, active_high=False, initial_value=False, pin_factory=out)
            if rig.service is not None
            else None
        )
        led_chips = rig.extra.get("led_chips", tuple(rig.led_chip for _ in rig.stations))
        self.leds = [
            [
                DigitalInputDevice(line, pull_up=None, active_state=True, pin_factory=self.factories[chip])
                for line in st.led
            ]
            for st, chip in zip(rig.stations, led_chips)
        ]
        """Read as raw line levels: the cabinet's LED outputs are active high (lit = high)."""

    def button(self, station: int, button: Button, down: bool) -> None:
        dev = self.buttons[station][button]
        dev.on() if down else dev.off()

    def slap(self, station: int, on: bool) -> None:
        dev = self.slaps[station]
        if dev is None:
            raise NotObservable(f"rig station {station} has no slap line")
        dev.on() if on else dev.off()

    def service_key(self, on: bool) -> None:
        if self.service is None:
            raise RigError("the rig config has no [service] pin")
        self.service.on() if on else self.service.off()

    def led_segments(self, station: int) -> tuple[float, ...]:
        if station >= len(self.leds):
            raise NotObservable(f"the rig reads no LED bar of station {station}")
        return tuple(float(d.pin.state) for d in self.leds[station])

    def close(self) -> None:
        for devs in (*self.buttons,):
            for d in devs.values():
                d.close()
        for d in (*self.slaps, self.service):
            if d is not None:
                d.close()
        for bar in self.leds:
            for d in bar:
                d.close()


def _factories(rig: RigConfig, chips: set[int]) -> dict[int, Any]:
    if rig.factory == "mock":
        from gpiozero.pins.mock import MockFactory

        return {c: MockFactory() for c in chips}
    from gpiozero.pins.lgpio import LGPIOFactory

    return {c: LGPIOFactory(chip=c) for c in chips}


# -- the run -----------------------------------------------------------------------------
@dataclass
class TimedStep:
    at_us: int
    do: Callable[[], None]
    label: str
    key: tuple[Any, ...] | None = None


class RigProbe:
    def __init__(self, run: RigRun) -> None:
        self.run = run

    def led_segments(self, station: int) -> tuple[float, ...]:
        return self.run.pins.led_segments(station)

    def private_image(self, station: int) -> Any:
        raise NotObservable("a rig cannot read the private OLEDs")

    def private_text(self, station: int) -> tuple[str, ...] | None:
        raise NotObservable("a rig cannot read the private OLEDs")

    def screen_rgb(self) -> tuple[tuple[int, int], bytes]:
        raise NotObservable("a rig does not capture the main display")

    def scene_name(self) -> str:
        raise NotObservable("a rig cannot see the cabinet's scene")

    def paused(self) -> bool:
        raise NotObservable("a rig cannot see whether the game is paused")

    def link_state(self) -> dict[str, Any]:
        raise NotObservable("a rig cannot see the cabinet's padboard driver")

    def cues_played(self) -> None:
        raise NotObservable("a rig has no microphone on the speaker: the cues played are not visible")

    def engine_events(self) -> None:
        if self.run.rig.event_log is None:
            raise NotObservable("the rig config names no cabinet event_log: engine events are not visible")


class RigRun:
    """One scenario on the rig, in real time."""

    def __init__(
        self,
        scenario: Scenario,
        rig: RigConfig,
        out_dir: Path,
        log: Callable[[str], None] | None = None,
        clock: Clock | None = None,
        factories: dict[int, Any] | None = None,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.scenario = scenario
        self.rig = rig
        self.out_dir = out_dir
        self.echo = log
        self.clock = clock or MonotonicClock()
        self.factories = factories
        self.sleep = sleep
        self.rec = Recorder()
        self.drives: list[tuple[TimedStep, int]] = []

    def steps(self) -> list[TimedStep]:
        """Every pin change of the timeline (presses become down/up pairs), menus first
        when the scenario starts a game: the rig has no other way in."""
        sc = self.scenario
        out: list[TimedStep] = []
        self.offset = 0
        if sc.start == "game":
            menu, self.offset = self.menu_steps()
            out += menu
        for i in sc.inputs:
            out += self.input_steps(i, self.offset)
        return sorted(out, key=lambda s: s.at_us)

    def menu_steps(self) -> tuple[list[TimedStep], int]:
        """Attract → select the game → others join → options → play, by presses."""
        from firmware_py.games import registry as controls_registry

        sc = self.scenario
        controls = game_controls(sc.game)
        unreachable = [k for k in sc.options if k not in {m.field for m in controls.options_menu}]
        if unreachable:
            raise NotObservable(
                f"options {unreachable} cannot be set from the cabinet's menus; this scenario is for the sim"
            )
        host = sc.stations[0]
        presses: list[tuple[int, Button]] = [(host, Button.START)]
        presses += [(host, Button.B)] * controls_registry.names().index(sc.game) + [(host, Button.START)]
        spec = controls.spec
        for s in sc.stations[1:]:
            presses.append((s, Button.START))
        if len(sc.stations) < min(spec.max_players, len(self.rig.stations)):
            presses.append((host, Button.A))
        for j, item in enumerate(controls.options_menu):
            if item.field in sc.options:
                want = sc.options[item.field]
                values = [c[0].value if hasattr(c[0], "value") else c[0] for c in item.choices]
                if want not in values:
                    raise NotObservable(f"option {item.field}={want!r} is not on the options menu")
                presses += [(host, Button.B)] * values.index(want)
            if j < len(controls.options_menu) - 1:
                presses.append((host, Button.A))
        presses.append((host, Button.START))
        steps = []
        t = 0
        for station, b in presses:
            t += MENU_GAP_US
            steps += self._press(station, b, t, 60_000, None)
        return steps, t + MENU_GAP_US

    def _press(self, station: int, b: Button, at: int, hold: int, index: int | None) -> list[TimedStep]:
        steps = [
            TimedStep(
                at, lambda: self.pins.button(station, b, True), f"station {station} press {b.value}", (station, b, True)
            )
        ]
        if hold:
            steps.append(
                TimedStep(
                    at + hold,
                    lambda: self.pins.button(station, b, False),
                    f"station {station} release {b.value}",
                    (station, b, False),
                )
            )
        return steps

    def input_steps(self, i: Input, offset: int) -> list[TimedStep]:
        at = i.at_us - self.scenario.start_us + offset
        if i.action == "press":
            assert i.station is not None and i.button is not None
            return self._press(i.station, i.button, at, i.hold_us, i.index)
        if i.action == "release":
            assert i.station is not None and i.button is not None
            station, b = i.station, i.button
            return [
                TimedStep(
                    at,
                    lambda: self.pins.button(station, b, False),
                    f"station {station} release {b.value}",
                    (station, b, False),
                )
            ]
        if i.action == "slap":
            assert i.station is not None
            station = i.station
            return [
                TimedStep(at, lambda: self.pins.slap(station, True), f"station {station} slap", ("slap", station)),
                TimedStep(
                    at + self.rig.slap_pulse_us, lambda: self.pins.slap(station, False), f"station {station} slap end"
                ),
            ]
        if i.action == "service":
            on = i.on
            return [TimedStep(at, lambda: self.pins.service_key(on), f"SERVICE {'on' if on else 'off'}")]
        raise NotObservable(f"the rig cannot {i.action} the padboard (use a padboard in test mode; not wired)")

    def run(self) -> ScenarioResult:
        sc = self.scenario
        result = ScenarioResult(
            sc.name, sc.path, NAME, length_us=sc.length_us, out_dir=self.out_dir, timebase="real-time"
        )
        self.out_dir.mkdir(parents=True, exist_ok=True)
        lock = RigLock(self.rig.lock_file)
        t_wall = time.perf_counter()
        try:
            try:
                steps = self.steps()
            except NotObservable as e:
                result.status, result.message = "skip", str(e)
                return result
            lock.acquire(f"{sc.name} ({sc.path})")
            self.pins = RigPins(self.rig, self.factories)
            try:
                self._loop(steps, result)
            finally:
                self.pins.close()
        except (RigError, ScenarioError) as e:
            result.status, result.message = "error", str(e)
        finally:
            lock.release()
            result.wall_s = time.perf_counter() - t_wall
        result.fidelity = self._fidelity()
        result.engine_events = len(self.rec.events)
        return result.finish()

    def _wait_until(self, t0: int, at_us: int, stations: range) -> int:
        while True:
            now = self.clock.now_us() - t0
            if now >= at_us:
                return now
            left = at_us - now
            if left > SPIN_US:
                self._sample_leds(now, stations)
                self.sleep(min(left - SPIN_US, 5_000) / 1e6)
            else:
                self.sleep(0)  # spin, yielding the GIL

    def _sample_leds(self, now: int, stations: range) -> None:
        for s in stations:
            try:
                self.rec.led_levels(now, s, self.pins.led_segments(s))
            except NotObservable:
                pass

    def _loop(self, steps: list[TimedStep], result: ScenarioResult) -> None:
        """Drive every step at its time and check every checkpoint at its time; scenario
        times are shifted by the menu walk (``self.offset``) when the rig starts the game."""
        sc = self.scenario
        goldens = Goldens(sc, self.out_dir, False)
        probe = RigProbe(self)
        stations = range(len(self.rig.stations))
        timeline: list[tuple[int, int, Any]] = [(s.at_us, 0, s) for s in steps]
        timeline += [(e.at_us - sc.start_us + self.offset, 1, e) for e in sc.expects]
        timeline.sort(key=lambda x: (x[0], x[1]))
        t0 = self.clock.now_us()
        for at, _kind, item in timeline:
            now = self._wait_until(t0, at, stations)
            if isinstance(item, TimedStep):
                item.do()
                done = self.clock.now_us() - t0
                self.drives.append((item, done))
                self.rec.note(done, "drive", label=item.label, at_us=item.at_us, late_us=done - item.at_us)
            else:
                self.rec.now_us = now
                self._sample_leds(now, stations)
                self._load_events()
                for c in evaluate(item, self.rec, probe, goldens):
                    result.checks.append(c)
                    self.rec.note(now, "check", **c.as_json())
        self._wait_until(t0, sc.end_us - sc.start_us + self.offset, stations)

    def _load_events(self) -> None:
        """Engine events from the cabinet's event log, when the rig can read it: JSONL rows
        ``{"kind": "event", "t_us": µs since the game started, "event": {...}}``."""
        log = self.rig.event_log
        if log is None:
            return
        from firmware_py.hil.observe import EngineEvent

        self.rec.events = []
        try:
            lines = log.read_text(encoding="utf-8").splitlines()
        except OSError:
            return
        rows = [json.loads(line) for line in lines if line.strip()]
        starts = [i for i, r in enumerate(rows) if r.get("kind") == "game"]
        for row in rows[starts[-1] :] if starts else rows:  # the game in progress
            if row.get("kind") == "event":
                self.rec.events.append(
                    EngineEvent(int(row["t_us"]), int(row.get("step_us", row["t_us"])), None, row["event"])
                )

    def _fidelity(self) -> Fidelity:
        f = Fidelity()
        for step, done in self.drives:
            if step.key is None:
                continue
            f.inputs += 1
            err = done - step.at_us
            f.errors.append(err)
            f.exact += err == 0
            f.max_error_us = max(f.max_error_us, abs(err))
        return f

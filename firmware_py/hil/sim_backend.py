"""The ``sim`` backend: the real cabinet (:class:`~firmware_py.runtime.cabinet.Cabinet`) on the
sim hardware — gpiozero mock pins for buttons and LED bars, luma dummy OLEDs, the
dummy SDL video driver — in virtual time.

The loop steps exactly to every scheduled input µs, every checkpoint and every frame,
as the headless exhibition does: a press scheduled at 1 234 567 µs drives its mock pin
with the clock at 1 234 567 µs, so the gpio backend stamps the edge with exactly that.
Nothing here depends on the wall clock, so the same file gives the same result.
"""

from __future__ import annotations

import tempfile
import time
from collections import defaultdict, deque
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

from display.private import image_text
from firmware_py.hil.checks import Goldens, NotObservable, evaluate
from firmware_py.hil.observe import Recorder
from firmware_py.hil.result import Fidelity, ScenarioResult
from firmware_py.hil.scenario import Input, Scenario, ScenarioError, game_controls, make_options
from firmware_py.runtime.virtual_time import VirtualTimeDriver
from hal.events import ButtonEvent, PadLinkEvent, SlapEvent

NAME = "sim"
TIMELINE_LEAD_US = 50_000
"""In real time, how long after the cabinet is built its scenario time 0 comes."""


class BackendLacks(Exception):
    """This sim cabinet cannot do what the scenario asks (the scenario is skipped, saying why)."""


def uses_padboard_link(config: Any) -> bool:
    """Whether a station's slaps come over a padboard link: the sim backend then runs the
    padboard simulator and the real driver behind a pty on the wall clock, not virtual time."""
    return any(s.slap.source == "padboard" for s in config.stations)


def runs_in_real_time(scenario: Scenario) -> bool:
    """Whether this scenario plays on the wall clock on the sim backend (see
    :func:`uses_padboard_link`): its timing then depends on the machine keeping up."""
    from hal.config import load_config

    return uses_padboard_link(load_config(scenario.config))


def load_cabinet_config(scenario: Scenario, data_dir: Path) -> Any:
    from firmware_py.games.registry import check_settings
    from hal.config import ConfigError, load_config

    try:
        config = load_config(scenario.config)
        check_settings(config)
    except ConfigError as e:
        raise ScenarioError(
            "scenario.config", str(scenario.config), f"a valid cabinet config ({e})", str(scenario.path)
        ) from e
    n = len(config.stations)
    for s in scenario.stations:
        if s >= n:
            raise ScenarioError(
                "scenario.stations",
                list(scenario.stations),
                f"stations of this {n}-station cabinet (0-{n - 1})",
                str(scenario.path),
            )
    for i in scenario.inputs:
        if i.station is not None and i.station >= n:
            raise ScenarioError(
                f"input[{i.index}].station", i.station, f"a station of this {n}-station cabinet", str(scenario.path)
            )
    return replace(config, data_dir=data_dir)


class SimProbe:
    def __init__(self, run: SimRun) -> None:
        self.run = run

    def led_segments(self, station: int) -> tuple[float, ...]:
        return self.run.sim.led_levels(station)

    def private_image(self, station: int) -> Any:
        return self.run.sim.private[station].image

    def private_text(self, station: int) -> tuple[str, ...] | None:
        text = self.run.rec.private_text.get(station)
        if text is None:
            raise NotObservable(f"station {station}'s private display shows an image with no known text")
        return text

    def screen_rgb(self) -> tuple[tuple[int, int], bytes]:
        import pygame

        canvas = self.run.cabinet.renderer.canvas
        return canvas.get_size(), pygame.image.tobytes(canvas, "RGB")

    def scene_name(self) -> str:
        return type(self.run.cabinet.scene).__name__

    def paused(self) -> bool:
        session = self.run.cabinet.scene.live_session()
        return session is not None and session.paused is not None

    def engine_events(self) -> None:
        """Every engine event is seen on the sim."""

    def cues_played(self) -> None:
        """Every cue is recorded on the sim (its tape: ``sound.wav`` beside the report)."""

    def link_state(self) -> dict[str, Any]:
        link = self.run.link
        if link is None:
            raise NotObservable("no padboard driver behind this sim cabinet")
        c = link.source.counters
        return {
            "connected": link.source.connected,
            "garbage_bytes": c.garbage_bytes,
            "bad_frames": c.bad_frames,
            "reconnects": c.reconnects,
        }


class SimRun:
    """One scenario on the sim backend."""

    backend = NAME
    paced_timebase = "real-time"
    """``result.timebase`` when the loop is paced by a link's clock (``self.realtime``)."""

    def __init__(
        self,
        scenario: Scenario,
        out_dir: Path,
        update_goldens: bool = False,
        log: Callable[[str], None] | None = None,
        window: bool = True,
    ) -> None:
        self.scenario = scenario
        self.out_dir = out_dir
        self.update_goldens = update_goldens
        self.echo = log
        self.use_window = window
        self.rec = Recorder()
        self.frame_times: set[int] = set()
        self._hooked: set[int] = set()
        self.sessions: list[Any] = []
        self.t0 = 0
        """Cabinet µs at scenario time 0: 0 in virtual time; the link's clock once it is up
        when the padboard link runs in real time."""
        self.link: Any = None
        self.realtime: Any = None

    # -- set-up ----------------------------------------------------------------------
    def _build(self, data_dir: Path) -> None:
        from display.window import use_headless_drivers

        use_headless_drivers()
        from firmware_py.runtime.cabinet import Cabinet
        from firmware_py.runtime.store import Store
        from hal.clock import ManualClock
        from hal.sim import SimCabinet

        sc = self.scenario
        self.config = self._cabinet_config(data_dir)
        self.clock = ManualClock(sc.start_us)
        self.sim = SimCabinet(self.config, self.clock)
        self._open_link(data_dir)
        self.store = Store(data_dir / "ringside.sqlite3")
        self.window = None
        if self.use_window:
            from display.window import Window

            self.window = Window((self.config.display.width, self.config.display.height))
        self.cabinet = Cabinet(
            self.config, self.sim, self.clock, self.store, self.window, self._log, seed=sc.seed, audio="tape"
        )
        if self.cabinet.ctx.sound is not None:
            self.cabinet.ctx.sound.speaker.listeners.append(lambda t_us, name: self.rec.cue(t_us - self.t0, name))
        self._start_timeline()
        self._wrap_hardware()
        if sc.start == "game":
            self._start_game()
        self._schedule()

    def _cabinet_config(self, data_dir: Path) -> Any:
        return load_cabinet_config(self.scenario, data_dir)

    def _open_link(self, data_dir: Path) -> None:
        """The padboard simulator and driver in real time, for a config with a padboard
        (their handshake runs while the cabinet is built; ``data_dir`` is for a board
        that keeps files, as the emulated one does)."""
        if not uses_padboard_link(self.config):
            return
        from firmware_py.hil.padlink import PadboardLink, RealtimeClock

        self.realtime = RealtimeClock()
        self.link = PadboardLink(self.config, self.scenario.seed, self.realtime)

    def _start_timeline(self) -> None:
        """On the link's clock, scenario time 0 comes a little after the cabinet is built:
        building it takes 0.4-0.9 s, and a timeline begun before it started the loop that
        far behind the wall clock, so a slap it handed the simulator 30 ms ahead arrived
        after the simulator had sampled past it and was never seen (CI, under load).  The
        cabinet was built on the virtual clock's start: the boot scene is made again at
        the timeline's start (a fresh store holds no game to resume)."""
        if self.realtime is None:
            return
        from firmware_py.runtime.scenes import Attract

        sc = self.scenario
        self.t0 = self.realtime.now_us() + TIMELINE_LEAD_US - sc.start_us
        self.clock.set(self.t0 + sc.start_us)
        if sc.start != "game":
            self.cabinet.scene = Attract(self.cabinet.ctx, self.clock.now_us())
        self.rec.note(
            0, "timebase", t0_us=self.t0, why="padboard simulator and driver in real time: stamps are t0 + scenario µs"
        )

    def _log(self, line: str) -> None:
        self.rec.log(line)
        if self.echo is not None:
            self.echo(f"[{self.clock.now_us() / 1e6:10.6f}s] {line}")

    def _wrap_hardware(self) -> None:
        sim, rec = self.sim, self.rec
        poll, show = sim.poll, sim.show_private

        link = self.link

        def observed_poll(now_us: int) -> list[Any]:
            events = poll(now_us)
            if link is not None:
                events += link.poll(now_us)
            for ev in events:
                rec.input(now_us - self.t0, ev)
            return events

        def observed_show(station: int, image: Any) -> None:
            rec.private(rec.now_us, station, image_text(image))
            show(station, image)

        sim.poll = observed_poll  # type: ignore[method-assign]
        sim.show_private = observed_show  # type: ignore[method-assign]

    def _start_game(self) -> None:
        """Straight into play: the scenario's game, options and seed, stations → seats."""
        from firmware_py.runtime.scenes import Play
        from firmware_py.runtime.session import GameSession

        sc, ctx = self.scenario, self.cabinet.ctx
        controls = game_controls(sc.game)()
        options = make_options(type(controls), sc.options, str(sc.path))
        looks = tuple(ctx.looks[s] for s in sc.stations)
        start = self.t0 + sc.start_us
        session = GameSession.start(controls, options, sc.stations, looks, sc.seed, ctx.store, ctx.settle_us, start)
        ctx.log(
            f"== {controls.spec.title} #{session.game_id}: {' vs '.join(session.names)} (seed {sc.seed}, {options})"
        )
        self.cabinet.scene = Play(ctx, start, session)
        self._hook_session()

    def _hook_session(self) -> None:
        session = self.cabinet.scene.live_session()
        if session is None or id(session) in self._hooked:
            return
        self._hooked.add(id(session))
        self.sessions.append(session)
        for t_us, ev in list(session.recent):
            self.rec.engine_event(t_us - self.t0, ev)
        session.listeners.append(lambda t_us, ev: self.rec.engine_event(t_us - self.t0, ev))

    def _schedule(self) -> None:
        for inp in self.scenario.inputs:
            self._schedule_input(inp)

    def _schedule_input(self, inp: Input) -> None:
        sim, at = self.sim, self.t0 + inp.at_us
        if inp.action in ("press", "release"):
            assert inp.station is not None and inp.button is not None
            pin = sim.button_pin(inp.station, inp.button)
            if inp.action == "press":
                sim.at(at, pin.drive_low)
                if inp.hold_us:
                    sim.at(at + inp.hold_us, pin.drive_high)
            else:
                sim.at(at, pin.drive_high)
        elif inp.action == "slap":
            assert inp.station is not None
            if self.link is not None and self.link.handles(inp.station):
                station, velocity, link = inp.station, inp.velocity, self.link
                from firmware_py.hil.padlink import SLAP_LEAD_US

                hand = max(sim.clock.now_us(), at - SLAP_LEAD_US, self._link_remade_before(inp.at_us))
                sim.at(min(at, hand), lambda: link.slap(station, at, velocity))
            else:
                sim.slap(inp.station, at, inp.velocity, inp.delay_us)
        elif inp.action == "service":
            sim.service_key(inp.on, at)
        else:
            self._padboard_input(inp)

    def _link_remade_before(self, at_us: int) -> int:
        """Cabinet µs just after the last unplug or replug at or before scenario µs
        ``at_us`` (the simulator's board reboots with a new clock on a replug: a slap is
        handed to it only after), or t0."""
        remade = [i.at_us for i in self.scenario.inputs if i.action in ("unplug", "replug") and i.at_us <= at_us]
        return self.t0 + max(remade) + 1 if remade else self.t0

    def _padboard_input(self, inp: Input) -> None:
        """Unplug, replug and garbage on the padboard link.  With the padboard simulator
        behind the cabinet (a station with slap source ``padboard``) they go to it; on a
        cabinet with sim slaps only, unplug/replug are link events of the sim slap source
        and garbage (which only a serial link can carry) is refused."""
        padsim = getattr(self.sim, "padboard", None) or self.link
        if padsim is not None:
            fire = {"unplug": padsim.unplug, "replug": padsim.replug, "garbage": lambda: padsim.garbage(inp.count)}[
                inp.action
            ]
            self.sim.at(self.t0 + inp.at_us, fire)
            return
        if inp.action == "garbage":
            if not any(s.slap.source == "padboard" for s in self.config.stations):
                raise ScenarioError(
                    f"input[{inp.index}].garbage",
                    inp.count,
                    "a cabinet config with a padboard (a station with slap source padboard)",
                    str(self.scenario.path),
                )
            raise BackendLacks(
                "garbage on the padboard line needs the padboard simulator behind the sim cabinet, "
                "and hal.sim.SimCabinet has none (no .padboard): not wired yet"
            )
        ev = PadLinkEvent("sim", inp.action == "replug", inp.at_us, "scenario " + inp.action)
        self.sim.slaps.inject(ev, inp.at_us)

    # -- running --------------------------------------------------------------------------
    def run(self) -> ScenarioResult:
        sc = self.scenario
        result = ScenarioResult(sc.name, sc.path, self.backend, length_us=sc.length_us, out_dir=self.out_dir)
        self.out_dir.mkdir(parents=True, exist_ok=True)
        t0 = time.perf_counter()
        with tempfile.TemporaryDirectory(prefix="ringside-hil-") as tmp:
            try:
                self._build(Path(tmp))
                self._loop(result)
                result.fidelity = self._fidelity()
                result.frames = self.cabinet.frames
                result.timebase = self.paced_timebase if self.realtime is not None else "virtual"
                shot = self.cabinet.screenshot(self.out_dir / "final.png")
                result.files.append(str(shot))
                result.files += self._sound()
            except ScenarioError as e:
                result.status, result.message = "error", str(e)
            except BackendLacks as e:
                result.status, result.message = "skip", str(e)
            finally:
                self._close()
        result.wall_s = time.perf_counter() - t0
        result.engine_events = len(self.rec.events)
        return result.finish()

    def _sound(self) -> list[str]:
        """What the scenario sounded like (its tape, mixed): ``sound.wav`` beside the report."""
        from display.audio.output import Tape

        sound = self.cabinet.ctx.sound
        if sound is None or not isinstance(sound.speaker.output, Tape) or not sound.speaker.output.events:
            return []
        start = self.t0 + self.scenario.start_us
        return [str(sound.speaker.output.write_wav(self.out_dir / "sound.wav", start, self.clock.now_us()))]

    def _loop(self, result: ScenarioResult) -> None:
        sc, cabinet, sim, rec = self.scenario, self.cabinet, self.sim, self.rec
        fps = sc.fps or self.config.display.fps
        frame_us = 1_000_000 // fps
        goldens = Goldens(sc, self.out_dir, self.update_goldens)
        probe = SimProbe(self)
        checkpoints = deque(sc.expects)
        t0 = self.t0
        stations = range(len(self.config.stations))
        # Absolute cabinet µs; the recorder and the checks speak scenario time (− t0).
        # Frames on the grid of multiples of the frame time from the clock's zero, as the
        # cabinet's headless loop runs them: a recorded session's reveals land on the
        # same flips when it is replayed from its own start_us.
        driver = VirtualTimeDriver(cabinet, frame_us, first_frame_us=t0 - (-sc.start_us // frame_us) * frame_us)

        def next_checkpoint() -> int | None:
            return t0 + checkpoints[0].at_us if checkpoints else None

        def before_step(t: int) -> None:
            if self.realtime is not None:
                self.realtime.sleep_until(t)
            rec.now_us = t - t0

        def observe(t: int, is_frame: bool) -> None:
            self._hook_session()
            for s in stations:
                rec.led_levels(t - t0, s, sim.led_levels(s))
            rec.scene_now(t - t0, type(cabinet.scene).__name__)

        def check(t: int, is_frame: bool) -> bool:
            if is_frame:
                self.frame_times.add(t)
            while checkpoints and t0 + checkpoints[0].at_us == t:
                for c in evaluate(checkpoints.popleft(), rec, probe, goldens):
                    if c.status == "skip":
                        # The sim sees everything: what it cannot see is a broken scenario
                        # or a broken observer, never a pass.
                        c.status, c.message = "fail", f"not observable on the sim: {c.message}"
                    result.checks.append(c)
                    rec.note(t - t0, "check", **c.as_json())
            return False

        driver.run_until(t0 + sc.end_us, wake=next_checkpoint, before_step=before_step, after_step=observe, after=check)

    def _fidelity(self) -> Fidelity:
        injected: dict[tuple[Any, ...], list[int]] = defaultdict(list)
        for i in self.scenario.inputs:
            if i.action == "press":
                injected[(i.station, i.button, True)].append(i.at_us)
                if i.hold_us:
                    injected[(i.station, i.button, False)].append(i.at_us + i.hold_us)
            elif i.action == "release":
                injected[(i.station, i.button, False)].append(i.at_us)
            elif i.action == "slap":
                injected[("slap", i.station)].append(i.at_us)
        seen: dict[tuple[Any, ...], list[int]] = defaultdict(list)
        for _now, ev in self.rec.inputs_seen:
            if isinstance(ev, ButtonEvent):
                seen[(ev.station, ev.button, ev.pressed)].append(ev.t_us)
            elif isinstance(ev, SlapEvent):
                seen[("slap", ev.station)].append(ev.t_us)
        f = Fidelity()
        for key, stamps in injected.items():
            got = sorted(seen.get(key, []))
            for j, want in enumerate(sorted(stamps)):
                f.inputs += 1
                if j >= len(got):
                    f.unmatched += 1
                    continue
                err = got[j] - self.t0 - want
                f.errors.append(err)
                f.exact += err == 0
                f.max_error_us = max(f.max_error_us, abs(err))
        injected_at = {t + self.t0 for v in injected.values() for t in v}
        for session in self.sessions:
            for action in session.engine.journal:
                t_us = getattr(action, "t_us", None)
                if t_us is None or (t_us not in injected_at and t_us in self.frame_times):
                    continue
                f.actions += 1
                f.actions_exact += t_us in injected_at
        return f

    def _close(self) -> None:
        for name in ("link", "sim", "store"):
            obj = getattr(self, name, None)
            if obj is not None:
                try:
                    obj.close()
                except Exception:
                    pass
        window = getattr(self, "window", None)
        if window is not None:
            window.close()

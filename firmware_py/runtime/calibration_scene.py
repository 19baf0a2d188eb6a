"""The calibration wizard as a cabinet scene (SERVICE menu → Calibration).

The same :class:`~calibration.wizard.Wizard` as ``ringside calibrate``, driven by
station 1's buttons: START goes on (record, accept, save), B redoes, A aborts.  While a
step records, the screen shows every pad's live signal with its threshold and mask and
every detected slap with its velocity.  Turning the SERVICE key off, or A, aborts: the
settings in force before are re-applied, so the old profile stays in force.

Pads: a cabinet with a ``[padboard]`` records from the board, through the cabinet's own
link when one is open (found by port: the scene context does not carry the hardware yet),
else through a link of its own.  Without one (the development window, CI) the scene runs on
simulated pads and simulated hands do the prompted slapping, so the whole procedure can
be seen anywhere.  The recording is pumped from ``tick`` in step with the cabinet clock.

Display: with ``[display] photodiode_pin`` set, the steps end with the display step.  Its
page is the whole main screen flashing black and white (the wizard's
:class:`~calibration.display_latency.FlashRun` decides which, frame by frame); each
frame's flip is reported to it, and the light sensor on the spare input stamps when the
panel really shows it, so ``[display] latency_us`` is measured and saved in the profile.
On the simulated cabinet the sensor watches a simulated panel (:class:`SimPanel`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from pathlib import Path
from typing import Any

from calibration.capture import Recording
from calibration.display_latency import FLASHES, FlashRun, Sensor
from calibration.live import LivePadboard
from calibration.live_gpio import LiveGpioEdge, gpio_edge_stations
from calibration.profiles import ProfileStore, push, wizard_profile
from calibration.report import (
    criteria_lines,
    report_path,
    review_lines,
    review_verdicts,
    verdict_lines,
    verification_verdicts,
)
from calibration.runner import apply_settings
from calibration.stations import pad_names, station_pads
from calibration.wizard import ABORTED, CAPTURE, DONE, REVIEW, VERDICT, Wizard, pad_name
from display.calibration_screen import CalibrationScreen, PadTrace, paginate
from display.layout import UNITS
from display.models import PrivateText
from firmware_py.process.retention import prune
from firmware_py.runtime.calibration_pages import save_report, trace
from firmware_py.runtime.context import CabinetContext
from firmware_py.runtime.scene import Scene, ServiceScene, pressed
from firmware_py.sim.operator import ScriptedOperator
from firmware_py.sim.pad_sets import virtual_cabinet
from firmware_py.sim.panel import SimPanel
from hal.clock import MonotonicClock
from hal.events import Button, InputEvent
from hal.gpio_edge import GpioEdgeSource
from hal.light_sensor import LightSensor
from hal.padboard.driver import PadboardSource

LIVE_SPAN_US = 3_000_000
MAX_PUMP_US = 100_000  # virtual pads never run more than this ahead in one frame
PROFILE_NAME = "cabinet"


def default_source(ctx: CabinetContext) -> tuple[Any, Any, str]:
    """(source, simulated hands or None, words about it)."""
    cfg = ctx.config
    if cfg.padboard is not None and any(s.slap.source == "padboard" for s in cfg.stations):
        try:
            board = running_padboard(ctx, cfg.padboard.port)
            if board is not None:  # the cabinet's own link (the port is exclusive)
                return LivePadboard(board), None, f"padboard on {cfg.padboard.port}"
            return (
                LivePadboard(PadboardSource(cfg.padboard.port, MonotonicClock(), {})),
                None,
                f"padboard on {cfg.padboard.port}",
            )
        except Exception as e:
            raise RuntimeError(f"cannot open the padboard on {cfg.padboard.port}: {e}") from e
    edges = [x for x in getattr(ctx.hardware, "sources", ()) if isinstance(x, GpioEdgeSource)]
    if edges and gpio_edge_stations(cfg):  # the cabinet's own gpio-edge lines
        return LiveGpioEdge(edges, gpio_edge_stations(cfg), MonotonicClock()), None, "gpio-edge comparator lines"
    vp = virtual_cabinet("hall", seed=1)
    return vp, ScriptedOperator(vp), "simulated pads (this cabinet has no padboard): simulated hands slap"


@dataclass
class DisplayProbe:
    """The light sensor on the screen, and the simulated panel it watches (None on a real
    cabinet, whose panel is real)."""

    sensor: Sensor
    panel: SimPanel | None
    about: str

    def close(self) -> None:
        if self.panel is not None:
            self.panel.close()
        elif isinstance(self.sensor, LightSensor):
            self.sensor.close()


def default_display(ctx: CabinetContext) -> DisplayProbe | None:
    """The light sensor of ``[display] photodiode_pin`` (None: no display step): on the
    simulated cabinet's mock pins, watching a simulated panel; on a Pi, on gpiochip 0."""
    pin = ctx.config.display.photodiode_pin
    if pin is None:
        return None
    factories = getattr(ctx.hardware, "factories", None)
    if factories is not None:
        panel = SimPanel(None, factories[0], pin)
        return DisplayProbe(panel.sensor, panel, f"simulated panel, light sensor on GPIO {pin}")
    try:
        from gpiozero.pins.lgpio import LGPIOFactory

        return DisplayProbe(LightSensor(LGPIOFactory(chip=0), pin), None, f"light sensor on GPIO {pin}")
    except Exception as e:
        ctx.log(f"calibration: no display step, the light sensor on GPIO {pin} cannot be opened: {e}")
        return None


def running_padboard(ctx: CabinetContext, port: str) -> PadboardSource | None:
    """The cabinet's own connected PadboardSource on ``port``, if it has one open: the
    serial port is exclusive, so calibration records through the cabinet's link."""
    for source in getattr(ctx.hardware, "sources", ()):
        if isinstance(source, PadboardSource) and source.port == port and source.connected:
            return source
    return None


class CalibrationScene(ServiceScene):
    """Runs the wizard; an operator's scene, so the SERVICE key off leaves it (aborting)."""

    def __init__(
        self,
        ctx: CabinetContext,
        now_us: int,
        menu: ServiceScene,
        source_factory: Callable[[CabinetContext], tuple[Any, Any, str]] = default_source,
        targets: Sequence[int] | None = None,
        display_factory: Callable[[CabinetContext], DisplayProbe | None] = default_display,
    ) -> None:
        super().__init__(ctx, now_us)
        self.menu = menu
        self.message = ""
        self.rec: Recording | None = None
        self._clock0 = (0, 0)
        self.saved: Path | None = None
        self.display: DisplayProbe | None = None
        self.flash: FlashRun | None = None  # the display step, while it flashes
        self._flash_shown = False  # what the last frame drawn showed
        self.details = 0  # review and verdict: 0 the pads' verdicts, 1.. the pages of numbers (C turns)
        self._pages: tuple[tuple[object, ...], list[CalibrationScreen]] | None = None
        try:
            self.source, self.hands, self.about = source_factory(ctx)
        except RuntimeError as e:
            self.source, self.hands, self.about = None, None, str(e)
            self.wizard: Wizard | None = None
            ctx.log(f"calibration: {e}")
            return
        originals = {p: self.source.read_settings(p) for p in range(self.source.pads)}
        self.display = display_factory(ctx)
        pb = ctx.config.padboard
        kind = (
            "padboard"
            if isinstance(self.source, LivePadboard)
            else "gpio-edge"
            if isinstance(self.source, LiveGpioEdge)
            else "simulated"
        )
        stations = station_pads(ctx.config, self.source.pads, kind)  # only the pads a station reads
        self.wizard = Wizard(
            self.source.pads,
            list(targets) if targets else sorted(stations) or list(range(self.source.pads)),
            originals,
            analog=self.source.analog,
            names=pad_names(stations, self.source.pads),
            period_us=self.source.sample_period_us,
            display_flashes=FLASHES if self.display is not None else 0,
            probe=isinstance(self.source, LivePadboard) and bool(pb and pb.contact_probe),
        )
        ctx.log(f"calibration started on {self.about}")

    # -- leaving --------------------------------------------------------------------------
    @property
    def underneath(self) -> Scene:  # the cabinet reads this when the SERVICE key goes off
        self.abort("SERVICE key off")
        return self.menu.underneath

    def abort(self, why: str) -> None:
        w = self.wizard
        if w is None or w.state in (DONE, ABORTED):
            return
        if self.rec is not None and self.source is not None:
            self.source.end(self.rec)
            self.rec = None
        self.flash = None
        self._close_display()
        w.abort()
        if self.source is not None:
            apply_settings(self.source, w.restore())
        self.message = f"Aborted ({why}): the previous settings stay in force."
        self.ctx.log(f"calibration aborted ({why}); previous settings re-applied")

    # -- input ----------------------------------------------------------------------------
    def on_input(self, ev: InputEvent, now_us: int) -> Scene | None:
        if not pressed(ev) or ev.station != 0:
            return None
        w = self.wizard
        if w is None or w.state in (DONE, ABORTED):
            return self.menu if ev.button is Button.START else None
        if ev.button is Button.A:
            self.abort("operator")
            return None
        if w.state == CAPTURE and self.rec is None and self.flash is None and ev.button is Button.START:
            if w.step.kind == "display" and self.display is not None:
                self.flash = FlashRun(self.display.sensor, w.step.slaps)
            else:
                self._begin(now_us)
        elif w.state in (REVIEW, VERDICT) and ev.button is Button.C:
            self.details = (self.details + 1) % (1 + len(self._detail_pages(w)))
        elif w.state == REVIEW:
            self.details = 0
            if ev.button is Button.START:
                w.accept()
            elif ev.button is Button.B:
                w.redo()
        elif w.state == VERDICT:
            self.details = 0
            if ev.button is Button.START and w.passed:
                self._save(w)
            elif ev.button is Button.B:
                w.redo()
        return None

    def _begin(self, now_us: int) -> None:
        w = self.wizard
        assert w is not None and self.source is not None
        step = w.step
        apply_settings(self.source, step.settings)
        self.rec = Recording(
            step.kind,
            list(range(self.source.pads)),
            step.window_us,
            step.pad,
            step.slaps,
            min_gap_us=50_000 if step.kind == "flurry" else 150_000,
        )
        self.source.begin(self.rec)
        self._clock0 = (now_us, self.source.now_us())
        if self.hands is not None:
            self.hands.perform(step)

    def tick(self, now_us: int) -> Scene | None:
        if self.flash is not None and self.display is not None and self.wizard is not None:
            if self.display.panel is not None:
                self.display.panel.catch_up(now_us)
            self.flash.poll(now_us)
            if self.flash.done:
                result = self.flash.result()
                self.flash = None
                self.wizard.feed_display(result)
                self.ctx.log(f"calibration display step: {result.reasons[0]}")
            return None
        rec, src, w = self.rec, self.source, self.wizard
        if rec is None or src is None or w is None:
            return None
        if not getattr(src, "realtime", False):
            target = self._clock0[1] + (now_us - self._clock0[0])
            src.pump(rec, min(target, src.now_us() + MAX_PUMP_US, rec.deadline_us))
        if rec.finished(src.now_us()):
            cap = src.end(rec)
            self.rec = None
            w.feed(cap)
        return None

    def _save(self, w: Wizard) -> None:
        settings = w.finish()
        assert self.source is not None
        store = ProfileStore(self.ctx.config.data_dir)
        profile = wizard_profile(PROFILE_NAME, self.ctx.config.name, w, settings)
        self.saved = store.save(profile)
        push(self.source, profile)
        store.set_active(profile.name)
        try:
            save_report(w, report_path(self.ctx.config.data_dir, PROFILE_NAME, datetime.now()))
            prune(self.ctx.config.data_dir, self.ctx.config.retention)
        except Exception as e:
            self.ctx.log(f"calibration report not saved: {e}")
        self._close_display()
        self.message = f"Saved profile '{PROFILE_NAME}' and pushed it to the board's flash."
        self.ctx.log(f"calibration saved to {self.saved}")

    def _close_display(self) -> None:
        if self.display is not None:
            self.display.close()
            self.display = None

    # -- screen ---------------------------------------------------------------------------
    def frame_shown(self, t_us: int, now_us: int) -> None:
        """During the display step: the flash page's frame was flipped at ``t_us`` less the
        latency the cabinet adds (the flip itself is what is timed)."""
        if self.flash is None or self.display is None:
            return
        flip = t_us - self.ctx.config.display.latency_us
        self.flash.flipped(self._flash_shown, flip)
        if self.display.panel is not None:
            self.display.panel.flipped(self._flash_shown, flip)

    def screen(self, now_us: int) -> CalibrationScreen:
        if self.flash is not None:
            self._flash_shown = self.flash.bright
            done, n = self.flash.progress
            return CalibrationScreen(
                title="Display latency",
                step=f"Flash {done + 1} of {n}",
                progress=0.5,
                lines=(),
                traces=(),
                footer="A: abort",
                flash=self._flash_shown,
            )
        w = self.wizard
        looks = self.ctx.looks
        colors = [lk.color for lk in looks] or [(255, 200, 40)]
        if w is None:
            return CalibrationScreen(
                title="Slap pads",
                step="Calibration cannot start",
                progress=0.0,
                lines=(self.about,),
                traces=(),
                footer="START: back",
            )
        i, n = w.progress
        if w.state in (DONE, ABORTED):
            lines = (self.message, *(verdict_lines(w) if w.verdicts else ()))
            return CalibrationScreen(
                title="Slap pads",
                step="Done" if w.state == DONE else "Aborted",
                progress=1.0,
                lines=tuple(lines),
                traces=(),
                footer="START: back to the menu",
                alert=w.state == ABORTED,
            )
        if w.state in (REVIEW, VERDICT):
            pages = self._detail_pages(w)
            if 0 < self.details <= len(pages):
                page = pages[self.details - 1]
                more = "C: more numbers" if self.details < len(pages) else "C: back to the pads"
                return replace(page, footer=f"{more}   {page.footer}")
            if w.state == REVIEW:
                return CalibrationScreen(
                    title="Fitted settings",
                    step="Review: each pad",
                    progress=0.5,
                    lines=tuple(review_verdicts(w)),
                    traces=self._live_traces(colors),
                    footer="START: verify them   B: redo   A: abort   C: the numbers",
                    alert=not w.fit_ok,
                )
            return CalibrationScreen(
                title="Verification",
                step="PASS: save?" if w.passed else "FAILED: see what to do",
                progress=1.0,
                lines=tuple(verification_verdicts(w) + [line for line in verdict_lines(w) if "→" in line]),
                traces=self._live_traces(colors),
                footer=("START: save   " if w.passed else "") + "B: redo   A: abort   C: the numbers",
                alert=not w.passed,
            )
        step = w.step
        phase = 0.5 * i / n + (0.5 if step.phase == "verify" else 0.0)
        if self.rec is None:
            lines = (step.prompt, "", f"Pads: {self.about}", "Press START, then do it.")
            return CalibrationScreen(
                title=f"Step {i + 1} of {n}",
                step=step.prompt,
                progress=phase,
                lines=lines,
                traces=self._live_traces(colors),
                footer="START: record   A: abort (the old profile stays)",
            )
        hits = self.rec.hits()
        mine = [h for h in hits if step.pad is None or h.pad == step.pad]
        lines = (step.prompt, "", f"{len(mine)} of {step.slaps} slaps seen" if step.slaps else "recording…")
        return CalibrationScreen(
            title=f"Step {i + 1} of {n}: recording",
            step=step.prompt,
            progress=phase,
            lines=lines,
            traces=self._live_traces(colors),
            footer="A: abort (the old profile stays)",
        )

    def _detail_pages(self, w: Wizard) -> list[CalibrationScreen]:
        """The numbers behind the review's or the verdict's words, as pages that fit the
        screen (C turns them)."""
        review = w.state == REVIEW
        lines = review_lines(w) + criteria_lines(w) if review else verdict_lines(w)
        key = (review, w.passed if not review else None, tuple(lines))
        if self._pages is not None and self._pages[0] == key:  # wrapping measures every word: once
            return self._pages[1]
        screen = CalibrationScreen(
            title="Fitted settings: the numbers" if review else "Verification: the numbers",
            step="The values and why" if review else "Each check as measured",
            progress=0.5 if review else 1.0,
            lines=tuple(lines),
            traces=(),
            footer=("START: verify them" if review else "START: save" if w.passed else "") + "   B: redo   A: abort",
        )
        pages = paginate(screen, UNITS)
        self._pages = (key, pages)
        return pages

    def _live_traces(self, colors: Sequence[tuple[int, int, int]]) -> tuple[PadTrace, ...]:
        w, src = self.wizard, self.source
        if w is None or src is None:
            return ()
        settings = w.step.settings if w.state == CAPTURE else w.candidate()
        if self.rec is not None:
            times, samples, hits = self.rec.recent(LIVE_SPAN_US)
            return tuple(
                trace(
                    None,
                    p,
                    settings[p],
                    pad_name(p, w.names),
                    colors[p % len(colors)],
                    times=times,
                    samples=samples[p],
                    hits=hits,
                    span_us=LIVE_SPAN_US,
                )
                for p in w.targets  # the stations' pads: one no station reads is not shown
            )
        caps = w.verify_captures or w.captures
        if not caps:
            return ()
        cap = caps[-1]
        return tuple(
            trace(
                cap,
                p,
                settings[p],
                f"{pad_name(p, w.names)} · last step",
                colors[p % len(colors)],
                span_us=min(LIVE_SPAN_US, cap.duration_us),
            )
            for p in w.targets
        )

    def private_model(self, station: int) -> PrivateText:
        return PrivateText(("CALIBRATION", "", f"Pad {station + 1}"), 0)

    def led_levels(self, now_us: int) -> dict[int, float]:
        return {s: 0.0 for s in range(len(self.ctx.looks))}

"""From the pad's surface to the verdict, in virtual time: the chain slap judging rests on.

Physical slaps (which pad, the true µs the palm touched it, how hard) go through:

- **padboard**: the piezo model (:mod:`firmware_py.sim.piezo`: contact, rise, ring, noise,
  drift, crosstalk through the table) sampled as the board's DMA does (:class:`SimDma`),
  the board's own code (``Board`` with its detector) under a board clock with its own
  origin and ±100 ppm drift, the wire codec both ends share, the host's clock sync fitted
  to simulated pings over a jittery USB link, and the board's hold plus USB latency
  deciding when each slap reaches the host;
- **gpio-edge**: the same model into a comparator with hysteresis (its threshold pot at
  ``level`` counts) whose edges the kernel stamps a few µs late, delivered through the
  real :class:`hal.gpio_edge.GpioEdgeSource` on gpiozero mock pins, with or without the
  force correction from each first pulse's width (``walk``, as calibration fits it);

each slap stamped and arriving when the host would have it (:class:`Stamped`).  The
verdict — the session's settle window and Karate Fight's engine with a Hit showing — is
Karate's (:mod:`firmware_py.games.karate_fight.slap_verdict`).  Everything is seeded and
deterministic; no sleeping.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field

from gpiozero.pins.mock import MockFactory

from calibration.wizard import Wizard
from firmware_py.padboard.board import Board
from firmware_py.padboard.detector import (  # type: ignore[attr-defined]  # ticks_diff: MicroPython's, or its stand-in
    TICKS_MASK,
    ticks_diff,
)
from firmware_py.sim.padboard import PROBE_IRQ_US, BoardClock, SimDma, UsbJitter, ping_exchange
from firmware_py.sim.piezo import ModelSlap, PiezoModel, PiezoPad, SlapSignal
from hal.clock import ManualClock
from hal.edge_timing import EdgeWalk
from hal.events import SlapEvent
from hal.gpio_edge import GpioEdgeSource
from hal.padboard import wire
from hal.padboard.clocksync import ClockSync
from hal.padboard.settings import PadSettings

PING_US = 100_000
LEAD_US = 10_000  # the board samples this long before the first slap (its edge search looks back 6 ms)
TAIL_US = 25_000  # ... and this long after the last (scan, crosstalk wait, another pad's scan)
BLOCK = 40  # DMA frames handed to the board at once, as its main loop does


@dataclass(frozen=True)
class PhysicalSlap:
    """A palm touching pad ``pad`` at host µs ``t_us``; ``force``: the first peak it
    makes, in counts before the pad's gain."""

    pad: int
    t_us: int
    force: float


@dataclass(frozen=True)
class Table:
    """Pads on one table: each pad's analog behaviour and how much a slap on one shakes
    another (``crosstalk[from][to]``), arriving ``crosstalk_delay_us`` later."""

    pads: tuple[PiezoPad, ...]
    crosstalk: tuple[tuple[float, ...], ...]
    crosstalk_delay_us: int = 250

    def model(self, seed: int) -> PiezoModel:
        return PiezoModel(self.pads, seed=seed, crosstalk=self.crosstalk, crosstalk_delay_us=self.crosstalk_delay_us)


def row_table(pads: Sequence[PiezoPad], near: float = 0.2, falloff: float = 0.35, delay_us: int = 250) -> Table:
    """Pads in a row on one table: a neighbour gets ``near`` of a slap, each pad further
    away ``falloff`` times less."""
    n = len(pads)
    xt = tuple(tuple(0.0 if i == j else near * falloff ** (abs(i - j) - 1) for j in range(n)) for i in range(n))
    return Table(tuple(pads), xt, delay_us)


@dataclass(frozen=True)
class Stamped:
    """A slap as the host got it: station (= pad), its stamp and when it arrived (host
    µs), velocity (None on a comparator line) and, for the padboard, the error of the
    board's own onset (board µs, before clock sync)."""

    pad: int
    t_us: int
    arrived_us: int
    velocity: int | None = None
    board_error_us: int | None = None


class PadboardChain:
    """The padboard path for a run of cases on one board that stays up between them."""

    def __init__(
        self,
        table: Table,
        settings: Sequence[PadSettings],
        seed: int = 1,
        frame_us: int = 50,
        board_clock: BoardClock = BoardClock(offset_us=987_654_321, drift_ppm=100.0),
        jitter: UsbJitter = UsbJitter(),
        start_us: int = 1_000_000,
        warmup_s: float = 60.0,
        gapless: bool = False,
    ) -> None:
        """``gapless``: each case is sampled on from where the one before stopped, as a
        board samples, instead of from ``LEAD_US`` before its first slap (lighter, but a
        ring still sounding across the skip is cut)."""
        self.model = table.model(seed)
        self.gapless = gapless
        self._sampled_to: int | None = None  # board µs the last case was sampled to
        self.pads = len(table.pads)
        self.board_clock = board_clock
        self.jitter = jitter
        self._rng = random.Random(seed * 7 + 1)
        self.dma = SimDma(self.model, frame_us)
        self._out: list[tuple[int, bytes]] = []
        self._now_host = 0
        self.board = Board(self.pads, 250, self._write, [s.as_dict() for s in settings])
        self.sync = ClockSync()
        self._decoder = wire.FrameDecoder()
        self._next_ping = start_us
        self._last_arrival = 0
        self.now_us = start_us + int(warmup_s * 1e6)
        self._pings_until(self.now_us)

    def _pings_until(self, host_us: int) -> None:
        while self._next_ping <= host_us:
            self.sync.add(*ping_exchange(self.board_clock, self.jitter, self._rng, self._next_ping))
            self._next_ping += PING_US

    def _write(self, frame: bytes) -> None:
        arrive = self._now_host + int(self.jitter.back_us(self._rng))
        arrive = max(arrive, self._last_arrival)  # USB delivers in order
        self._last_arrival = arrive
        self._out.append((arrive, frame))

    def run(self, slaps: Sequence[PhysicalSlap]) -> list[Stamped]:
        """One case: the slaps (host µs, all after ``now_us``); the board samples from
        ``LEAD_US`` before the first to ``TAIL_US`` after the last."""
        bc = self.board_clock
        truth = []
        for s in slaps:
            b = bc.board_us(s.t_us)
            self.model.add(ModelSlap(s.pad, b, s.force))
            truth.append((s.pad, b))
        first = min(s.t_us for s in slaps)
        last = max(s.t_us for s in slaps)
        t = bc.board_us(first - LEAD_US)
        if self.gapless and self._sampled_to is not None:
            t = self._sampled_to
        end = bc.board_us(last + TAIL_US)
        frame = self.dma.frame_us
        while t < end:
            self._now_host = int(bc.host_us(t + BLOCK * frame))
            self.dma.feed(self.board, t, BLOCK)
            t += BLOCK * frame
        self._sampled_to = t
        out = []
        for arrive, data in self._out:
            self._pings_until(arrive)
            for msg_type, _seq, payload in self._decoder.feed(data):
                if msg_type != wire.SLAP:
                    continue
                pad, vel, onset, _peak = wire.unpack_slap(payload)
                near = [b for p, b in truth if p == pad]
                err = min((ticks_diff(onset, b & TICKS_MASK) for b in near), key=abs, default=None)
                out.append(Stamped(pad, self.sync.to_host(onset, arrive), arrive, vel, err))
        self._out.clear()
        self.now_us = max(self.now_us, last + TAIL_US + 1_000)
        return out


@dataclass
class _Line:
    high: bool = False
    edges: list[tuple[float, bool]] = field(default_factory=list)


class GpioEdgeChain:
    """The gpio-edge path: a comparator per pad (rising at ``levels[pad]`` counts over its
    bias, falling at half that), stamped by the kernel ``irq_us`` late, through the real
    :class:`GpioEdgeSource` on mock pins."""

    def __init__(
        self,
        table: Table,
        levels: Sequence[int],
        seed: int = 2,
        step_us: float = 10.0,
        irq_us: tuple[float, float] = (6.0, 14.0),
        mask_us: int = 25_000,
        settle_us: int = 6_000,
        walk: dict[int, EdgeWalk] | None = None,
    ) -> None:
        self.model = table.model(seed)
        self.pads = len(table.pads)
        self.levels = tuple(levels)
        self.step_us = step_us
        self.irq_us = irq_us
        self._rng = random.Random(seed * 11 + 3)
        self.clock = ManualClock(0)
        self.factory = MockFactory()
        self.source = GpioEdgeSource(
            self.factory,
            {p: 5 + p for p in range(self.pads)},
            ticks_to_us=lambda _ticks: self.clock.now_us(),
            mask_us=mask_us,
            settle_us=settle_us,
            walk=walk,
        )
        self.settle_us = settle_us

    def close(self) -> None:
        self.source.close()
        self.factory.reset()

    def edges(self, pad: int, t0: float, t1: float) -> list[tuple[float, bool]]:
        """The comparator's edges on ``pad`` from ``t0`` to ``t1`` (host µs), and on until the
        line is low again: (time, rising)."""
        line = _Line()
        level, fall = self.levels[pad], self.levels[pad] / 2
        noise = self.model.pads[pad].noise
        gauss = self._rng.gauss
        prev_t, prev_v = t0, 0.0
        t = t0
        while t < t1 or (line.high and t < t1 + 50_000):
            v = self.model.signal(pad, t) + gauss(0.0, noise)
            edge = (not line.high and v >= level) or (line.high and v < fall)
            if edge:
                at = level if not line.high else fall
                frac = (at - prev_v) / (v - prev_v) if v != prev_v else 1.0
                line.high = not line.high
                line.edges.append((prev_t + min(1.0, max(0.0, frac)) * (t - prev_t), line.high))
            prev_t, prev_v = t, v
            t += self.step_us
        return line.edges

    def run(self, slaps: Sequence[PhysicalSlap]) -> list[Stamped]:
        first = min(s.t_us for s in slaps)
        self.model.forget(first)
        for s in slaps:
            self.model.add(ModelSlap(s.pad, s.t_us, s.force))
        last = max(s.t_us for s in slaps)
        stamped = []
        for pad in range(self.pads):
            for t, rising in self.edges(pad, first - 500, last + 6_000):
                stamped.append((round(t + self._rng.uniform(*self.irq_us)), pad, rising))
        for stamp, pad, rising in sorted(stamped):
            self.clock.set(max(stamp, self.clock.now_us()))
            pin = self.factory.pin(5 + pad)
            if rising:
                pin.drive_high()
            else:
                pin.drive_low()
        out = []
        for ev in self.source.poll(self.clock.now_us()):
            if isinstance(ev, SlapEvent):
                out.append(Stamped(ev.station, ev.t_us, ev.t_us + self._rng.randrange(0, 1_000)))
        return out


def _wizard(
    table: Table,
    seed: int,
    comparator: Sequence[int] | None = None,
    edge_period_us: int | None = 50,
    probe: bool = False,
) -> tuple[Wizard, dict[int, PadSettings] | None]:
    from calibration.runner import run_wizard
    from calibration.virtual import VirtualPads
    from firmware_py.sim.operator import ScriptedOperator
    from firmware_py.sim.pad_sets import make_detector

    n = len(table.pads)
    vp = VirtualPads(
        SlapSignal(table.model(seed)),
        make_detector,
        n,
        comparator=comparator,
        edge_period_us=edge_period_us,
        probe_irq_us=PROBE_IRQ_US if probe else None,
    )
    wizard = Wizard(
        n, list(range(n)), {p: vp.read_settings(p) for p in range(n)}, analog=comparator is None, probe=probe
    )
    settings = run_wizard(wizard, vp, ScriptedOperator(vp, seed=seed, verdict_choice="force"))
    return wizard, settings


def calibrate(
    table: Table, seed: int = 1, edge_period_us: int | None = 50, probe: bool = False
) -> tuple[dict[int, PadSettings], bool]:
    """Every pad's settings as the calibration wizard fits them on this table (the
    scripted operator slapping virtual pads, the board's detector at the state rate, each
    hit's edge every ``edge_period_us``: None, a board that sends none; with ``probe``,
    the contact probe worn for a probe step per pad), and whether its verification
    passed (the settings are taken either way)."""
    wizard, settings = _wizard(table, seed, edge_period_us=edge_period_us, probe=probe)
    assert settings is not None, "the wizard did not fit this table"
    return settings, wizard.passed


def calibrate_gpio(table: Table, levels: Sequence[int], seed: int = 1) -> tuple[dict[int, EdgeWalk], bool]:
    """The force correction of each comparator line as the wizard fits it on this table
    (comparators at ``levels``), and whether its verification passed."""
    wizard, _settings = _wizard(table, seed, comparator=levels)
    return {p: EdgeWalk(r) for p, r in wizard.gpio_rings().items() if r}, wizard.passed

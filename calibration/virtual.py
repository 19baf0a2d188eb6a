"""Virtual pads: a piezo signal model and the board's own detector in virtual time.

Deterministic and fast (no sleeping): ten simulated minutes run in seconds.  The model
and detector are handed in by the caller (the cabinet passes
``firmware_py.sim.piezo.PiezoModel`` and ``firmware_py.padboard.detector.Detector``),
so this package keeps to its layer and still runs the very code the board runs.

The state machine runs on frames every ``sample_period_us`` (4 kHz), as the board's does;
each hit's rising edge comes every ``edge_period_us`` (20 kHz) from the model, as a board
whose DMA samples that fast sends it (``EDGE``): five times the frames only where they are
used, so a calibration stays fast.  Frames are sampled and fed to the detector a block
at a time, as the board's DMA hands them over: the same hits, stamps and edges as frame
by frame (tests/calibration/test_virtual_blocks.py), without a Python call per frame.

With ``probe_irq_us`` the calibration's contact probe is worn: every slap closes it at
its true contact, stamped that much late.

A scripted "operator" schedules slaps with :meth:`VirtualPads.slap` (force in counts
before the pad's gain); ``slaps`` keeps them as ground truth for tests and benchmarks.
Slaps reach the model just before their time, so thousands can be scheduled at once
without slowing every sample down.
With ``comparator`` set, the pads are gpio-edge pads: the signal goes through a
comparator (with hysteresis) instead of the detector, and every rising edge is a hit
without velocity, as the kernel would stamp it.
"""

from __future__ import annotations

import heapq
import random
from array import array
from collections.abc import Callable, Sequence
from typing import Any, Protocol

from calibration.capture import Capture, Recording
from hal.padboard import wire
from hal.padboard.messages import PadEdge, PadHit
from hal.padboard.settings import PadSettings

TICKS_MASK = (1 << 30) - 1
_HALF = 1 << 29
FRAME_MASK = (1 << 22) - 1  # the detector's frame numbers wrap here
RING_FRAMES = 1024  # frames the detector's ring holds (a power of two: it divides the frame numbers' wrap)
BLOCK_FRAMES = 160
"""Frames sampled and fed to the detector at once (its ``feed``, as the board's DMA
blocks are): the detector reads at most ~100 frames back (its scan, edge and crosstalk
windows), so the ring, less a block written ahead, still holds all it reads."""


def _ticks_diff(a: int, b: int) -> int:
    return ((a - b + _HALF) & TICKS_MASK) - _HALF


class SignalModel(Protocol):
    def block(self, t_us: int, period_us: int, most: int) -> list[list[int]]: ...

    def add_slap(self, pad: int, t_us: int, peak: float) -> None: ...

    def burst(self, pad: int, t_us: float, period_us: float, count: int) -> list[int]: ...


class VirtualPads:
    """``pads`` pads sampled every ``sample_period_us`` from ``model`` into a detector
    made by ``make_detector(list of settings dicts)``."""

    realtime = False

    def __init__(
        self,
        model: SignalModel,
        make_detector: Callable[[list[dict[str, int]]], Any],
        pads: int,
        settings: Sequence[PadSettings] | None = None,
        sample_period_us: int = 250,
        start_us: int = 1_000_000,
        comparator: Sequence[int] | None = None,
        edge_period_us: int | None = 50,
        probe_irq_us: tuple[float, float] | None = None,
    ) -> None:
        self.model = model
        self.edge_period_us = edge_period_us
        self.probe_irq_us = probe_irq_us  # the contact probe is worn: its stamp is this late
        self._touches: list[int] = []
        self._probe_rng = random.Random(0x9B0BE)
        self.pads = pads
        self.sample_period_us = sample_period_us
        self.analog = comparator is None
        self.comparator = tuple(comparator) if comparator is not None else None
        self._settings = list(settings or [PadSettings()] * pads)
        self.flash = list(self._settings)
        self.flash_writes = 0
        self._det = make_detector([s.as_dict() for s in self._settings])
        self._t = start_us
        self.slaps: list[tuple[int, int, float]] = []
        self.hits: list[PadHit] = []  # every hit ever, for tests
        self._pending: list[tuple[int, int, int, float]] = []  # handed to the model just in time
        self._ring = array("H", bytes(2 * RING_FRAMES * pads))  # the detector's, as the board's DMA ring
        self._k = 0  # the next frame's number
        self._cmp_base = [-1.0] * pads
        self._cmp_high = [False] * pads

    # -- the PadSource interface ---------------------------------------------------------
    def now_us(self) -> int:
        return self._t

    def read_settings(self, pad: int) -> PadSettings:
        return self._settings[pad]

    def write_settings(self, pad: int, settings: PadSettings) -> PadSettings:
        self._settings[pad] = settings
        self._det.configure(pad, settings.as_dict())
        return settings

    def save_settings(self) -> None:
        self.flash = list(self._settings)
        self.flash_writes += 1

    def begin(self, rec: Recording) -> None:
        rec.start(self._t)

    def pump(self, rec: Recording | None, until_us: int) -> None:
        """Simulate every frame before ``until_us``, a block at a time (see :data:`BLOCK_FRAMES`)."""
        period = self.sample_period_us
        n = self.pads
        ring = self._ring
        ring_frames = len(ring) // n
        cmp = self.comparator
        pending = self._pending
        t = self._t
        while t < until_us:
            k = self._k
            most = min(BLOCK_FRAMES, (until_us - t + period - 1) // period, ring_frames - k % ring_frames)
            while pending and pending[0][0] <= t + (most - 1 + 10) * period:  # each slap 10 frames early
                ts, _, pad, force = heapq.heappop(pending)
                self.model.add_slap(pad, ts, force)
            cols = self.model.block(t, period, most)
            count = len(cols[0])
            times = list(range(t, t + count * period, period))
            rows = list(zip(*cols)) if rec is not None or cmp is not None else []
            if cmp is None:
                at = (k % ring_frames) * n
                for j, col in enumerate(cols):
                    ring[at + j : at + count * n : n] = array("H", col)
                for found in self._det.feed(ring, k, count, t & TICKS_MASK, period):
                    self._hit(rec, times[-1], *found)
            else:
                for tf, s in zip(times, rows):
                    self._compare(rec, tf, s)
            if rec is not None:
                rec.add_frames(times, rows)
            self._k = (k + count) & FRAME_MASK
            t += count * period
        self._contacts(rec, t)
        self._t = t

    def _hit(self, rec: Recording | None, t: int, pad: int, onset: int, velocity: int, peak: int) -> None:
        """A hit the detector reported by frame time ``t`` (its onset in wrapped ticks):
        kept, and recorded with its edge."""
        hit = PadHit(pad, t - _ticks_diff(t & TICKS_MASK, onset), velocity, peak)
        self.hits.append(hit)
        if rec is not None:
            rec.add_hit(hit)
            self._edge(rec, hit)

    def _contacts(self, rec: Recording | None, t: int) -> None:
        """The probe's closings before ``t``, into ``rec``."""
        while self._touches and self._touches[0] < t:
            touched = heapq.heappop(self._touches)
            if rec is not None:
                rec.add_contact(touched)

    def _edge(self, rec: Recording, hit: PadHit) -> None:
        period = self.edge_period_us
        if period:
            t = hit.t_us - wire.EDGE_BEFORE_US
            count = min(wire.EDGE_MAX_SAMPLES, (wire.EDGE_BEFORE_US + wire.EDGE_AFTER_US) // period + 1)
            rec.add_edge(PadEdge(hit.pad, hit.t_us, t, period, tuple(self.model.burst(hit.pad, t, period, count))))

    def end(self, rec: Recording) -> Capture:
        return rec.capture(self._t)

    # -- scripting ------------------------------------------------------------------------
    def slap(self, pad: int, t_us: int, force: float) -> None:
        """A slap at virtual ``t_us`` (not before now) whose first peak is ``force``
        counts before the pad's gain."""
        if t_us < self._t:
            raise ValueError(f"slap at {t_us} µs is in the past (now {self._t} µs)")
        heapq.heappush(self._pending, (t_us, len(self.slaps), pad, force))
        self.slaps.append((pad, t_us, force))
        if self.probe_irq_us is not None:
            heapq.heappush(self._touches, t_us + round(self._probe_rng.uniform(*self.probe_irq_us)))

    def idle(self, duration_us: int) -> None:
        """Let time pass with nothing recorded (hits still land in ``self.hits``)."""
        self.pump(None, self._t + duration_us)

    def _compare(self, rec: Recording | None, t: int, s: Sequence[int]) -> None:
        assert self.comparator is not None
        for j, x in enumerate(s):
            base = self._cmp_base[j]
            if base < 0:
                base = float(x)
            dev = x - base
            level = self.comparator[j]
            if not self._cmp_high[j] and dev >= level:
                self._cmp_high[j] = True
                hit = PadHit(j, t, 0, 0)
                self.hits.append(hit)
                if rec is not None:
                    rec.add_hit(hit)
            elif self._cmp_high[j] and dev < level // 2:
                self._cmp_high[j] = False
            if abs(dev) < level:
                base += dev / 1024  # the coupling capacitor's slow follow
            self._cmp_base[j] = base

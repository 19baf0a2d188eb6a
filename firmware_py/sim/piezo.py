"""Signal model of piezo slap pads as the board's ADC sees them (host only).

A slap is a damped sine on top of the pad's bias: it starts at zero at the slap's
true onset, peaks within the first quarter period and rings down.  Each pad adds
Gaussian noise and a slow baseline drift; a slap leaks into every other pad, scaled
by the crosstalk ratio (one for all pairs, or a matrix ``[from][to]``) and a little
later.  Samples are clamped to the 16-bit range of
``read_u16``, so hard slaps clip like a real front end.  Deterministic for a seed.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from firmware_py.padboard.detector import velocity
from hal.padboard import wire


@dataclass(frozen=True)
class PiezoPad:
    """One pad's analog behaviour, in read_u16 counts and µs."""

    bias: int = 32768
    noise: float = 120.0  # standard deviation of the sample noise
    gain: float = 1.0  # scales every slap on this pad
    ring_hz: float = 250.0
    ring_tau_us: float = 8000.0
    drift: float = 400.0  # baseline drift amplitude ...
    drift_period_s: float = 7.0  # ... as a slow sine


@dataclass(frozen=True)
class ModelSlap:
    """A slap at board time ``t_us`` whose first peak is ``peak`` counts (before gain)."""

    pad: int
    t_us: int
    peak: float


def peak_for_velocity(v: int, settings: dict[str, int] | None = None) -> float:
    """The peak (counts above baseline) that the detector maps to velocity ``v``:
    the inverse of its velocity curve, so scripted slaps can be asked for by velocity."""
    s = wire.clamp_settings(settings or {})
    thr, sens, curve = s["threshold"], s["sensitivity"], s["curve"]
    if v >= 127:
        return float(sens)
    x = ((max(v, 1) - 1) / 126) ** (100 / curve)
    peak = thr + x * (sens - thr)
    while velocity(int(peak), thr, sens, curve) < v:  # undo rounding at the bottom
        peak += 1
    return peak


class PiezoModel:
    """Sample frames of ``len(pads)`` pads for a script of slaps."""

    def __init__(
        self,
        pads: Sequence[PiezoPad],
        seed: int = 0,
        crosstalk: float | Sequence[Sequence[float]] = 0.2,
        crosstalk_delay_us: int = 250,
    ) -> None:
        self.pads = tuple(pads)
        self.crosstalk = crosstalk
        self.crosstalk_delay_us = crosstalk_delay_us
        self._rng = random.Random(seed)
        self._active: list[list[tuple[float, float, PiezoPad]]] = [[] for _ in self.pads]

    def _norm(self, pad: PiezoPad) -> float:
        """First-peak value of sin(wt)·exp(-t/tau), to scale a slap to its peak."""
        w = 2 * math.pi * pad.ring_hz / 1e6
        tp = math.atan(w * pad.ring_tau_us) / w
        return math.sin(w * tp) * math.exp(-tp / pad.ring_tau_us)

    def add(self, slap: ModelSlap) -> None:
        """Schedule a slap (and its crosstalk on the other pads)."""
        for j, pad in enumerate(self.pads):
            if j == slap.pad:
                amp, t0 = slap.peak * self.pads[slap.pad].gain, slap.t_us
            else:
                ratio = self.crosstalk if isinstance(self.crosstalk, (int, float)) else self.crosstalk[slap.pad][j]
                amp = slap.peak * self.pads[slap.pad].gain * ratio * pad.gain
                t0 = slap.t_us + self.crosstalk_delay_us
            if amp > 0:
                self._active[j].append((float(t0), amp / self._norm(pad), pad))

    def sample(self, t_us: int) -> list[int]:
        """One frame at board time ``t_us``; slaps long rung out are forgotten."""
        out = []
        gauss = self._rng.gauss
        for j, pad in enumerate(self.pads):
            v = pad.bias + pad.drift * math.sin(2 * math.pi * t_us / (pad.drift_period_s * 1e6))
            v += gauss(0.0, pad.noise)
            live = []
            w = 2 * math.pi * pad.ring_hz / 1e6
            for t0, a, p in self._active[j]:
                dt = t_us - t0
                if dt > 8 * p.ring_tau_us:
                    continue
                live.append((t0, a, p))
                if dt > 0:
                    v += a * math.sin(w * dt) * math.exp(-dt / p.ring_tau_us)
            self._active[j] = live
            out.append(min(65535, max(0, int(v))))
        return out

    def frames(self, t0_us: int, t1_us: int, period_us: int) -> Iterator[tuple[int, list[int]]]:
        """``(t_us, samples)`` every ``period_us`` from ``t0_us`` up to ``t1_us``."""
        t = t0_us
        while t < t1_us:
            yield t, self.sample(t)
            t += period_us

"""Signal model of piezo slap pads as the board's ADC sees them (host only).

What makes slap timing hard is modelled on purpose (docs/slap-timing.md says where each
number comes from):

- **Contact is not instant.** A palm presses on the pad for a while: the force is a
  half-sine pulse of ``contact_us`` (for a slap whose first peak is
  :data:`CONTACT_REF_PEAK` counts), shorter for harder slaps (duration ∝ peak^−exp,
  Hertz contact).  The pad and its piezo answer that force as a damped resonator
  (``ring_hz``, ``ring_tau_us``), so the signal leaves the baseline smoothly (it starts
  like t³), peaks well over a millisecond after contact and rings down.  A soft slap
  reaches the threshold near its peak, a hard one early: the threshold crossing alone is
  late by up to a millisecond, and by how much depends on the force.
- **Sensors differ.** Gain, resonance, contact duration and a fixed ``delay_us`` from
  the pad's surface to its piezo are per pad; where the palm lands adds up to
  ``position_us`` per slap.
- **Real strikes can be bipolar** (issue 31, as recordings of real pads show them): a
  strike may open with a narrow first lobe (``lead``: a share of the main peak, the other
  way, under 250 µs wide) before the main swing, itself after a small ``pre`` swing; the
  main swing may go either way (``polarity``).  The defaults are the smooth monopolar
  pad; :data:`REAL_PAD_KINDS` holds bipolar ones.
- Each pad adds Gaussian noise and a slow baseline drift; a slap leaks into every other
  pad through the table (one ratio for all pairs, or a matrix ``[from][to]``), a little
  later, through that pad's own resonator.  Samples are clamped to the 16-bit range of
  ``read_u16``, so slaps past the rail clip like a real front end.

Deterministic for a seed; the per-slap landing spot has its own random stream, so the
noise a seed gives is the same whatever is slapped.
"""

from __future__ import annotations

import cmath
import itertools
import math
import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from firmware_py.padboard.detector import velocity
from hal.padboard import wire

CONTACT_REF_PEAK = 10_000.0
"""The first peak (counts, before the pad's gain) at which a slap's contact lasts ``contact_us``."""


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
    contact_us: float = 1000.0  # force pulse of a slap peaking at CONTACT_REF_PEAK ...
    contact_exp: float = 0.17  # ... and its duration ∝ peak^-contact_exp
    delay_us: float = 0.0  # from the pad's surface to its piezo (mechanics, front end)
    position_us: float = 30.0  # where the palm lands: 0..this more, per slap
    polarity: int = 1  # the main swing's sign
    lead: float = 0.0  # a first lobe against the main swing, this share of its peak (0: none) ...
    lead_us: float = 180.0  # ... this wide (a half-sine; shorter for harder slaps, as the contact) ...
    pre_us: float = 0.0  # ... starting this long after contact, which the pre swing fills:
    pre: float = 0.0  # a half-sine with the main swing, this share of the main peak


@dataclass(frozen=True)
class ModelSlap:
    """A slap that touches the pad at board time ``t_us`` and whose first peak is
    ``peak`` counts (before the pad's gain)."""

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
    return float(peak)


def contact_duration_us(pad: PiezoPad, peak: float) -> float:
    """How long the palm presses on ``pad`` in a slap whose first peak is ``peak`` counts."""
    return float(pad.contact_us * (max(peak, 1.0) / CONTACT_REF_PEAK) ** -pad.contact_exp)


class Pulse:
    """The pad's answer to one half-sine force pulse: ``value(dt)`` µs after contact,
    scaled so that its first peak is ``peak`` (signed: ``peak < 0`` swings down)."""

    def __init__(self, pad: PiezoPad, duration_us: float, peak: float) -> None:
        w = 2 * math.pi * pad.ring_hz / 1e6
        self.lam = complex(-1.0 / pad.ring_tau_us, w)
        self.d = duration_us
        self.a = math.pi / duration_us
        ia = 1j * self.a
        self.k1 = 1 / (ia - self.lam)
        self.k2 = 1 / (-ia - self.lam)
        self.after = self._during_c(duration_us) * cmath.exp(-self.lam * duration_us)
        self.scale = 1.0
        self.scale = peak / self._first_peak()
        self.end_us = duration_us + 8 * pad.ring_tau_us

    def _during_c(self, dt: float) -> complex:
        """e^{λt}·∫₀ᵗ sin(a s)e^{−λs} ds in closed form (complex; its imaginary part is the response)."""
        e_l = cmath.exp(self.lam * dt)
        return ((cmath.exp(1j * self.a * dt) - e_l) * self.k1 - (cmath.exp(-1j * self.a * dt) - e_l) * self.k2) / 2j

    def value(self, dt: float) -> float:
        if dt <= 0:
            return 0.0
        if dt < self.d:
            return self.scale * self._during_c(dt).imag
        return self.scale * (self.after * cmath.exp(self.lam * dt)).imag

    def _first_peak(self) -> float:
        """The response's first maximum (coarse scan, then golden-section refinement)."""
        step = self.d / 40
        best_t, best_v, t = 0.0, 0.0, step
        while t < self.d + math.pi / self.lam.imag:  # the first lobe ends within half a ring period
            v = self.value(t)
            if v > best_v:
                best_t, best_v = t, v
            elif best_v > 0 and v < 0.8 * best_v:
                break
            t += step
        a, b = max(0.0, best_t - step), best_t + step
        g = (math.sqrt(5) - 1) / 2
        for _ in range(30):
            c, d = b - g * (b - a), a + g * (b - a)
            if self.value(c) > self.value(d):
                b = d
            else:
                a = c
        return self.value((a + b) / 2)


class Lobe:
    """A half-sine swing ``width_us`` wide of height ``peak`` (signed), from ``start_us``
    after contact: a strike's narrow first lobe or its pre swing."""

    def __init__(self, start_us: float, width_us: float, peak: float) -> None:
        self.start = start_us
        self.w = width_us
        self.peak = peak
        self.end_us = start_us + width_us

    def value(self, dt: float) -> float:
        x = dt - self.start
        if x <= 0 or x >= self.w:
            return 0.0
        return self.peak * math.sin(math.pi * x / self.w)


class Strike:
    """Everything one contact puts on one pad: the main swing of ``peak`` (the
    resonator ``pad``'s answer to the contact) and, as the slapped pad ``shape`` has
    them, its pre swing and narrow first lobe; ``value(dt)`` µs after contact."""

    def __init__(self, pad: PiezoPad, shape: PiezoPad, duration_us: float, peak: float) -> None:
        main = peak * shape.polarity
        self.parts: list[Pulse | Lobe] = [Pulse(pad, duration_us, main)]
        scale = duration_us / shape.contact_us if shape.contact_us > 0 else 1.0
        if shape.pre > 0 and shape.pre_us > 0:
            self.parts.append(Lobe(0.0, shape.pre_us, shape.pre * main))
        if shape.lead > 0:
            self.parts.append(Lobe(shape.pre_us, shape.lead_us * scale, -shape.lead * main))
        self.end_us = max(p.end_us for p in self.parts)

    def value(self, dt: float) -> float:
        return sum(p.value(dt) for p in self.parts if dt <= p.end_us)


def normals(rng: random.Random, pairs: int = 512) -> Iterator[float]:
    """``rng.gauss(0.0, 1.0)``'s values, in its order and bit for bit (the same two draws
    and the same arithmetic a pair), made a block of ``pairs`` at a time: a frame's noise
    without a Python call per sample.  Draws ahead of use, so ``rng`` is this stream's alone."""

    def blocks() -> Iterator[list[float]]:
        draw, log, sqrt, cos, sin, two_pi = rng.random, math.log, math.sqrt, math.cos, math.sin, 2.0 * math.pi
        block = [0.0] * (2 * pairs)  # refilled: the chain has read it through by then
        while True:
            u = [draw() for _ in range(2 * pairs)]
            x2pi = [x * two_pi for x in u[0::2]]
            g2rad = [sqrt(-2.0 * log(1.0 - x)) for x in u[1::2]]
            block[0::2] = [cos(x) * g for x, g in zip(x2pi, g2rad)]
            block[1::2] = [sin(x) * g for x, g in zip(x2pi, g2rad)]
            yield block

    return itertools.chain.from_iterable(blocks())


def _add(vs: list[float], ts: Sequence[float], t0: float, strike: Strike) -> None:
    """``vs[f] += strike.value(ts[f] - t0)`` wherever that is after contact (bit for bit:
    a lone main swing's ring written out, as :meth:`Pulse.value` computes it)."""
    start = 0
    while start < len(ts) and ts[start] - t0 <= 0:
        start += 1
    if len(strike.parts) != 1:
        for f in range(start, len(ts)):
            vs[f] += strike.value(ts[f] - t0)
        return
    pulse = strike.parts[0]
    assert isinstance(pulse, Pulse)
    while start < len(ts) and ts[start] - t0 < pulse.d:
        vs[start] += pulse.value(ts[start] - t0)
        start += 1
    scale, after, lam, exp = pulse.scale, pulse.after, pulse.lam, cmath.exp
    for f in range(start, len(ts)):
        vs[f] += scale * (after * exp(lam * (ts[f] - t0))).imag


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
        self._noise = normals(random.Random(seed))
        self._drift_us = [p.drift_period_s * 1e6 for p in self.pads]
        # Per pad, what ``sample`` reads of it at every frame, looked up once.
        self._rest = [(j, p.bias, p.drift, self._drift_us[j], p.noise) for j, p in enumerate(self.pads)]
        self._landing = random.Random(seed ^ 0x5EED)
        self._burst_noise = random.Random(seed ^ 0xED6E)
        self._active: list[list[tuple[float, Strike]]] = [[] for _ in self.pads]

    def ratio(self, source: int, pad: int) -> float:
        """How much of a slap on ``source`` reaches ``pad`` through the table."""
        if isinstance(self.crosstalk, (int, float)):
            return float(self.crosstalk)
        return self.crosstalk[source][pad]

    def add(self, slap: ModelSlap) -> float:
        """Schedule a slap (and its crosstalk on the other pads); returns when its signal
        starts on its own pad (board µs: contact + the pad's delay + where the palm landed)."""
        src = self.pads[slap.pad]
        landed = slap.t_us + src.delay_us + self._landing.uniform(0.0, src.position_us)
        for j, pad in enumerate(self.pads):
            if j == slap.pad:
                amp, t0 = slap.peak * src.gain, landed
            else:
                amp = slap.peak * src.gain * self.ratio(slap.pad, j) * pad.gain
                t0 = landed - src.delay_us + self.crosstalk_delay_us
            if amp > 0:
                self._active[j].append((t0, Strike(pad, src, contact_duration_us(src, slap.peak), amp)))
        return landed

    def forget(self, t_us: float) -> None:
        """Drop the slaps that have rung out by ``t_us`` (``sample`` does so as it goes)."""
        self._active = [[(t0, p) for t0, p in a if t_us - t0 <= p.end_us] for a in self._active]

    def signal(self, pad: int, t_us: float) -> float:
        """The slaps' part of ``pad``'s signal at ``t_us`` (no noise, bias or drift)."""
        return sum(p.value(t_us - t0) for t0, p in self._active[pad])

    def baseline(self, pad: int, t_us: float) -> float:
        p = self.pads[pad]
        return p.bias + p.drift * math.sin(2 * math.pi * t_us / (p.drift_period_s * 1e6))

    def sample(self, t_us: float, stagger_us: float = 0.0) -> list[int]:
        """One frame at board time ``t_us`` (pad ``j`` sampled ``j * stagger_us`` later, as
        an ADC converting the pads in turn does); slaps long rung out are forgotten.
        (``baseline`` and ``gauss`` written out: the same values, without a call each.)"""
        out = []
        noise, sin, two_pi, actives = self._noise, math.sin, 2 * math.pi, self._active
        for j, bias, drift, drift_us, amp in self._rest:
            t = t_us + j * stagger_us
            v = bias + drift * sin(two_pi * t / drift_us) + next(noise) * amp
            active = actives[j]
            if active:
                live = []
                for t0, p in active:
                    dt = t - t0
                    if dt > p.end_us:
                        continue
                    live.append((t0, p))
                    if dt > 0:
                        v += p.value(dt)
                actives[j] = live
            x = int(v)
            out.append(x if 0 <= x <= 65535 else 0 if x < 0 else 65535)
        return out

    def block(self, t_us: int, period_us: int, most: int, stagger_us: float = 0.0) -> list[list[int]]:
        """Up to ``most`` frames from board time ``t_us``, ``period_us`` apart: the very
        samples ``sample`` gives frame by frame (the same arithmetic in the same order),
        one pad at a time instead of a Python loop per sample.  The block stops before
        the first frame after its first at which a slap rings out, so the slaps a
        ``burst`` sees after it are those it would see after any of its frames (bar
        slaps added for later, which have not started yet).  Returns the pads' columns."""
        times = [t_us + f * period_us for f in range(most)]
        count = most
        for j, active in enumerate(self._active):  # where the first slap rings out
            off = j * stagger_us
            last = times[-1] + off
            first = times[0] + off
            for t0, p in active:
                if last - t0 > p.end_us and not first - t0 > p.end_us:
                    f = 1
                    while times[f] + off - t0 <= p.end_us:
                        f += 1
                    count = min(count, f)
        del times[count:]
        n = len(self.pads)
        zs = list(itertools.islice(self._noise, count * n))
        sin, two_pi = math.sin, 2 * math.pi
        cols = []
        for j, bias, drift, drift_us, amp in self._rest:
            off = j * stagger_us
            ts = [t + off for t in times] if off else times  # an int time is the same float's
            vs = [bias + drift * sin(two_pi * t / drift_us) + z * amp for t, z in zip(ts, zs[j::n])]
            active = self._active[j]
            if active:
                live = []
                for t0, p in active:
                    if ts[0] - t0 > p.end_us:
                        continue
                    live.append((t0, p))
                    _add(vs, ts, t0, p)
                self._active[j] = live
            xs = list(map(int, vs))
            if xs and (min(xs) < 0 or max(xs) > 65535):
                xs = [x if 0 <= x <= 65535 else 0 if x < 0 else 65535 for x in xs]
            cols.append(xs)
        return cols

    def burst(self, pad: int, t_us: float, period_us: float, count: int) -> list[int]:
        """``count`` samples of ``pad`` from ``t_us``, ``period_us`` apart (the past is
        fine while its slaps have not rung out), with noise of their own so the frames'
        stays as it was: the samples a DMA board takes between a slower sampler's frames."""
        p = self.pads[pad]
        gauss = self._burst_noise.gauss
        out = []
        for k in range(count):
            t = t_us + k * period_us
            v = (
                self.baseline(pad, t)
                + gauss(0.0, p.noise)
                + sum(q.value(t - t0) for t0, q in self._active[pad] if t > t0)
            )
            out.append(min(65535, max(0, int(v))))
        return out

    def frames(self, t0_us: int, t1_us: int, period_us: int) -> Iterator[tuple[int, list[int]]]:
        """``(t_us, samples)`` every ``period_us`` from ``t0_us`` up to ``t1_us``."""
        t = t0_us
        while t < t1_us:
            yield t, self.sample(t)
            t += period_us


class SlapSignal:
    """A model as the calibration's virtual pads drive it (``calibration.virtual.SignalModel``)."""

    def __init__(self, model: PiezoModel) -> None:
        self.model = model
        self.block = model.block
        self.burst = model.burst

    def add_slap(self, pad: int, t_us: int, peak: float) -> None:
        self.model.add(ModelSlap(pad, t_us, peak))


REAL_PAD_KINDS: dict[str, PiezoPad] = {
    # a rubber-topped pad: a small first lobe against the main swing
    "rubber": PiezoPad(noise=60.0, ring_hz=250.0, ring_tau_us=2500.0, lead=0.55, lead_us=170.0),
    # a bare wooden board: a first lobe larger than the main swing, after a small pre
    # swing; the main swing goes down
    "wood": PiezoPad(
        noise=60.0, ring_hz=300.0, ring_tau_us=2000.0, polarity=-1, lead=1.15, lead_us=120.0, pre=0.06, pre_us=250.0
    ),
    # a stiff plate on foam: a wide first lobe (near 250 µs)
    "plate": PiezoPad(noise=60.0, ring_hz=220.0, ring_tau_us=3000.0, lead=0.35, lead_us=240.0),
}
"""Strike shapes as real recordings show them (issue 31; docs/slap-timing.md): bipolar,
narrow first lobes, either polarity.  Their long rings, second contacts and front-end
gain are not modelled here yet."""

"""Reading raw piezo samples: the noise floor at rest, and every slap in a trace.

This is the offline half of calibration: it looks at the raw signal itself, not at what
the detector made of it, so it still sees the soft slaps a bad threshold would miss.

- Noise: the baseline is followed exactly as the board's detector does (an IIR moving
  1/2**shift of the error per sample), so the peak |sample − baseline| at rest includes
  the noise *and* the lag behind a drifting baseline: what the threshold must clear.
- Slaps: a slap starts where |deviation| is above ``level`` and at least twice the held
  envelope of 2 ms before (a ring only decays, a new slap jumps up), and not
  within ``peak_window_us`` of the previous onset (its own rising edge); its peak is
  the largest |deviation| in the next ``peak_window_us`` (the baseline is frozen for
  that long, as the board freezes it while scanning); its ring is kept as the envelope
  per millisecond (the largest |deviation| in the 3 ms from there: a ring's half cycle
  is shorter, so no bin falls between two of its peaks) until the next slap.
- What follows a slap is not a slap: a rise under a third of the slap's peak
  (``FOLLOW_SHARE``, −9.5 dB) within ``FOLLOW_US`` of it, or while its ring is still over
  ``level``, is the palm's second contact or a bump of the ring (real pads show both,
  issue 31: 26–40 ms later at 10–17 % of the slap).  It stays part of the slap's ring, so
  the retrigger line is fitted over it; a slap of its own, in a flurry, is about as
  strong as the one before.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass

RAIL = 32767
"""Largest deviation a read_u16 sample can show from a mid-scale bias."""
CLIP_LOW, CLIP_HIGH = 64, 65535 - 64
FOLLOW_SHARE = 1 / 3
"""A rise under this share of the slap before it, while that one still rings or within
``FOLLOW_US`` of it, belongs to that slap (a second contact, a ring bump)."""
FOLLOW_US = 60_000


@dataclass(frozen=True)
class NoiseStats:
    """A pad at rest, in counts: ``peak`` is the largest |sample − tracked baseline|."""

    baseline: float
    sigma: float
    peak: int
    drift_per_s: float
    span: int
    clipped: int
    samples: int
    shift: int

    @property
    def flat(self) -> bool:
        return self.sigma < 1.5 and self.span <= 4


def tracked_deviation(samples: Sequence[int], shift: int, init: float | None = None) -> list[int]:
    """|sample − baseline| with the detector's integer IIR baseline (no freeze)."""
    base = int(init if init is not None else samples[0]) << 8
    out = []
    for x in samples:
        dev = x - (base >> 8)
        out.append(-dev if dev < 0 else dev)
        base += ((x << 8) - base) >> shift
    return out


def noise_stats(times: Sequence[int], samples: Sequence[int], shift: int = 10, period_us: int = 250) -> NoiseStats:
    n = len(samples)
    if n < 16:
        raise ValueError("too few samples for a noise floor")
    warm = min(n // 4, int(200_000 / period_us))
    init = statistics.fmean(samples[: max(warm, 8)])
    devs = tracked_deviation(samples, shift, init)[warm:]
    mean = statistics.fmean(samples)
    sigma = statistics.pstdev(samples[warm:]) if n - warm > 1 else 0.0
    # drift: the steepest change between 250 ms block means
    block = max(1, int(250_000 / period_us))
    means = [statistics.fmean(samples[i : i + block]) for i in range(0, n - block + 1, block)]
    drift = max((abs(b - a) for a, b in zip(means, means[1:])), default=0.0) / (block * period_us / 1e6)
    # sigma from sample-to-sample steps: white noise, not the slow drift
    diffs = [b - a for a, b in zip(samples[warm:], samples[warm + 1 :])]
    if len(diffs) > 1:
        sigma = statistics.pstdev(diffs) / math.sqrt(2)
    clipped = sum(1 for x in samples if x <= CLIP_LOW or x >= CLIP_HIGH)
    return NoiseStats(mean, sigma, max(devs) if devs else 0, drift, max(samples) - min(samples), clipped, n, shift)


@dataclass(frozen=True)
class Event:
    """One slap seen in a pad's raw trace."""

    pad: int
    onset_us: int
    peak: int
    peak_us: int
    clipped: bool
    envelope: tuple[int, ...]  # max |deviation| in [k, k + 3) ms from the onset, until the next slap
    index: int  # frame index of the onset


def find_events(
    pad: int,
    times: Sequence[int],
    samples: Sequence[int],
    level: float,
    shift: int = 10,
    peak_window_us: int = 6_000,
    hold_us: float = 10_000.0,
    max_ring_us: int = 200_000,
    period_us: int = 250,
) -> list[Event]:
    """Every slap in a trace (see the module docstring)."""
    n = len(samples)
    if n == 0:
        return []
    warm = min(n, int(100_000 / period_us))
    base = int(statistics.fmean(samples[: max(warm, 1)])) << 8
    decay = math.exp(-period_us / hold_us)
    held = 0.0
    devs = [0] * n
    onsets: list[int] = []
    quiet_until = -1
    refractory = max(1, peak_window_us // period_us)
    lag = max(1, 2000 // period_us)
    helds = [0.0] * lag  # the held envelope 2 ms ago: a rise is judged against what came before it
    for i, x in enumerate(samples):
        dev = x - (base >> 8)
        a = -dev if dev < 0 else dev
        devs[i] = a
        before = helds[i % lag]
        if i > quiet_until and a >= level and a >= 2 * before:
            onsets.append(i)
            quiet_until = i + refractory
        held = max(a, held * decay)
        helds[i % lag] = held
        if i > quiet_until:  # frozen only while a slap's peak is scanned, as on the board
            base += ((x << 8) - base) >> shift
    win = max(1, peak_window_us // period_us)
    per_ms = max(1, 1000 // period_us)
    peaks = [max(devs[i : min(i + win, onsets[k + 1] if k + 1 < len(onsets) else n)]) for k, i in enumerate(onsets)]
    strikes: list[int] = []  # indices into onsets
    for k, i in enumerate(onsets):
        if strikes:
            s = strikes[-1]
            near = (i - onsets[s]) * period_us <= FOLLOW_US or min(devs[max(onsets[s], i - per_ms) : i]) >= level
            if near and peaks[k] < FOLLOW_SHARE * peaks[s]:
                continue
        strikes.append(k)
    onsets = [onsets[k] for k in strikes]
    events = []
    for k, i in enumerate(onsets):
        nxt = onsets[k + 1] if k + 1 < len(onsets) else n
        j_end = min(i + win, nxt)
        seg = devs[i:j_end]
        pk = max(seg)
        pj = i + seg.index(pk)
        ring_end = min(nxt - 2 * per_ms if nxt < n else n, i + max_ring_us // period_us)  # not the next slap's rise
        env = tuple(max(devs[m : min(m + 3 * per_ms, ring_end)]) for m in range(i, ring_end, per_ms))
        clipped = any(samples[m] <= CLIP_LOW or samples[m] >= CLIP_HIGH for m in range(i, j_end))
        events.append(Event(pad, times[i], pk, times[pj], clipped, env, i))
    return events


@dataclass(frozen=True)
class CrosstalkSeen:
    """What pad ``pad`` showed while pad ``source`` was slapped (peak within the window)."""

    pad: int
    source: int
    source_peak: int
    peak: int
    delay_us: int  # from the source's onset to this pad's onset (half way up to its peak)
    envelope: tuple[int, ...]
    peak_delay_us: int = 0  # to this pad's peak: where a barely-reaching crosstalk is stamped

    @property
    def ratio(self) -> float:
        return self.peak / max(1, self.source_peak)


def crosstalk_seen(
    pad: int,
    source_events: Sequence[Event],
    times: Sequence[int],
    samples: Sequence[int],
    shift: int = 10,
    window_us: int = 6_000,
    ring_us: int = 100_000,
    period_us: int = 250,
) -> list[CrosstalkSeen]:
    """For each slap on another pad, the largest deviation this pad showed right after it."""
    if not samples:
        return []
    warm = min(len(samples), int(100_000 / period_us))
    devs = tracked_deviation(samples, shift, statistics.fmean(samples[: max(1, warm)]))
    out = []
    per_ms = max(1, 1000 // period_us)
    for k, ev in enumerate(source_events):
        i0 = max(0, ev.index - 4)
        i1 = min(len(samples), ev.index + window_us // period_us)
        if i1 <= i0:
            continue
        seg = devs[i0:i1]
        pk = max(seg)
        pj = i0 + next(k for k, v in enumerate(seg) if v * 2 >= pk)  # its onset: half way up
        pp = i0 + seg.index(pk)
        nxt = source_events[k + 1].index - 2 * per_ms if k + 1 < len(source_events) else len(samples)
        r1 = min(len(samples), nxt, ev.index + ring_us // period_us)
        env = tuple(max(devs[m : min(m + 3 * per_ms, r1)]) for m in range(ev.index, r1, per_ms))
        out.append(CrosstalkSeen(pad, ev.pad, ev.peak, pk, times[pj] - ev.onset_us, env, times[pp] - ev.onset_us))
    return out


def decay_tau_us(envelopes: Sequence[tuple[int, ...]], floor: float) -> float | None:
    """Time constant of the ring, fitted to log(envelope) after each peak, above ``floor``:
    one slope for every ring, each ring its own level (pooled with one level, the harder
    slaps' longer rings flattened the slope: 52 ms read for a 40 ms ring)."""
    sxy = sxx = 0.0
    points = 0
    for env in envelopes:
        if not env:
            continue
        k0 = env.index(max(env))
        xs: list[float] = []
        ys: list[float] = []
        for k in range(k0, len(env)):
            if env[k] <= floor:
                break
            xs.append(k * 1000.0)
            ys.append(math.log(env[k]))
        if len(xs) < 2:
            continue
        mx, my = statistics.fmean(xs), statistics.fmean(ys)
        sxx += sum((x - mx) ** 2 for x in xs)
        sxy += sum((x - mx) * (y - my) for x, y in zip(xs, ys))
        points += len(xs)
    if points < 4 or sxx <= 0:
        return None
    slope = sxy / sxx
    return -1.0 / slope if slope < 0 else None


def signed_deviation(samples: Sequence[int], shift: int = 10) -> list[int]:
    """sample − baseline (signed), the baseline started at the first samples' mean: for
    drawing a pad's signal around zero."""
    if not samples:
        return []
    init = statistics.fmean(samples[: min(len(samples), 200)])
    base = int(init) << 8
    out = []
    for x in samples:
        out.append(x - (base >> 8))
        base += ((x << 8) - base) >> shift
    return out

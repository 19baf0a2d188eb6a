"""A slap's main swing and the narrow first lobe against it, read from its raw capture
(the board's 20 kHz edge where it sent one): when each reached half its height.

The board times a strike on one of them (docs/slap-timing.md); calibration reads both, to
set the delay the board takes off each: the lobe's against the main swing's
(:mod:`calibration.lobe_fit`), or either against the contact probe's touch
(:mod:`calibration.onset_fit`).
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from dataclasses import dataclass

LOBE_BACK_US = 1_200  # the lobe is looked for this far before the main swing's half-peak crossing ...
LOBE_WIDE_US = 500  # ... over half its height for at most this long (the board's two state frames) ...
LOBE_NOISE = 5.0  # ... and standing this many noise sigmas
FULL_RATE_US = 125  # samples at most this far apart (the board's edge, not the 4 kHz stream) time a pre swing's start
FIT_NEAR_US = 100  # the edge's line is kept within this of the sample pair crossing half (the board's FIT_NEAR_US)


@dataclass(frozen=True)
class Swings:
    main_us: float  # when the main swing rose through half the hit's peak
    main_peak: float  # the main swing's own largest sample
    lobe_us: float | None  # when a narrow lobe against it rose through half its own height (None: none)
    pre_us: float | None = None  # where a pre swing before that lobe started, as the board times one (None: none)


def _crossing(ts: Sequence[int], vs: Sequence[float], j: int, level: float) -> float:
    """When the signal ``vs`` rose through ``level`` between samples ``j - 1`` and ``j``."""
    a, b = vs[j - 1], vs[j]
    return ts[j] - (ts[j] - ts[j - 1]) * (b - level) / (b - a) if b != a else float(ts[j])


def swings(
    times: Sequence[int],
    samples: Sequence[int],
    around: int,
    peak: int | None,
    sigma: float,
) -> Swings | None:
    """The main swing (the swing of ``peak``, whichever way: the one over half of it
    longest; None: of the slap's largest sample, and timed at half its own largest) of the
    slap stamped (or touched) at ``around``, and a narrow lobe against it in the
    ``LOBE_BACK_US`` before it that stands ``LOBE_NOISE`` sigmas; None where the signal
    before the slap was not quiet or no swing reached half the peak.  The lobe is timed
    as the board times it, at half its largest sample, whether it crossed the board's
    threshold or not (``Detector._top``).  A pre swing before that lobe (narrow, the main
    swing's way, in the ``LOBE_BACK_US`` before it, standing ``LOBE_NOISE`` times the
    noise: ``sigma`` or, over a ring, the signal's spread before the slap) is timed at its
    start (:func:`swing_start`): a wooden strike's, which rises from the contact.  The ring
    of a slap before may go on under it, up to a twentieth of the peak: the lobe's edge
    and the main swing's are steep there, and a flurry's slaps are most of those the board
    sends an edge of."""
    quiet = [x for t, x in zip(times, samples) if around - 4_000 <= t <= around - 2_000]
    idx = [j for j, t in enumerate(times) if around - 2_000 < t <= around + 3_000]
    spread = statistics.pstdev(quiet) if len(quiet) >= 4 else 0.0
    if len(quiet) < 4 or len(idx) < 8 or spread > max(2 * sigma + 1, (peak or 0) / 20):
        return None
    base = statistics.fmean(quiet)
    ts = [times[j] for j in idx]
    dev = [samples[j] - base for j in idx]
    own = peak is None
    half = (max(abs(x) for x in dev) if peak is None else peak) / 2
    best = None  # (how long over half the peak, sign, first sample of that run)
    for sign in (1, -1):
        j = 0
        while j < len(dev):
            if sign * dev[j] >= half:
                e = j
                while e + 1 < len(dev) and sign * dev[e + 1] >= half:
                    e += 1
                if j > 0 and (best is None or ts[e] - ts[j] > best[0]):
                    best = (ts[e] - ts[j], sign, j)
                j = e + 1
            else:
                j += 1
    if best is None:
        return None
    _w, sign, m = best
    vs = [sign * x for x in dev]
    e = m
    while e + 1 < len(vs) and vs[e + 1] >= half:
        e += 1
    top_main = max(vs[m : e + 1])
    if own:
        half = top_main / 2
        while m > 1 and vs[m - 1] >= half:
            m -= 1
    t_main = _crossing(ts, vs, m, half)
    against = [(-vs[j], j) for j in range(1, m) if ts[j] >= t_main - LOBE_BACK_US]
    if not against:
        return Swings(t_main, top_main, None)
    top, at = max(against)
    if top < LOBE_NOISE * sigma:
        return Swings(t_main, top_main, None)
    ls = [-x for x in vs]
    a = _narrow_from(ts, ls, at, top)
    if a is None:
        return Swings(t_main, top_main, None)
    t_lobe = _crossing(ts, ls, a + 1, top / 2)
    return Swings(t_main, top_main, t_lobe, _pre_start(ts, vs, a, t_lobe, max(sigma, spread)))


def _narrow_from(ts: Sequence[int], vs: Sequence[float], at: int, top: float) -> int | None:
    """The last sample before the run over half of ``top`` that sample ``at`` is in, where
    that run is narrow (over half for at most ``LOBE_WIDE_US``) and the signal was under
    half before it; else None."""
    a = at
    while a > 0 and vs[a] >= top / 2:
        a -= 1
    z = at
    while z + 1 < len(vs) and vs[z + 1] >= top / 2:
        z += 1
    return None if a == 0 or ts[z] - ts[a + 1] > LOBE_WIDE_US else a


def _pre_start(ts: Sequence[int], vs: Sequence[float], end: int, t_lobe: float, noise: float) -> float | None:
    """Where a pre swing (narrow, ``vs``'s way up) in the ``LOBE_BACK_US`` before a first
    lobe that reached half its height at ``t_lobe`` (sample ``end`` the last before it)
    started (:func:`swing_start`), where its largest sample stands ``LOBE_NOISE`` times
    ``noise``; else None."""
    seen = [(vs[j], j) for j in range(1, end + 1) if ts[j] >= t_lobe - LOBE_BACK_US]
    if not seen:
        return None
    top, at = max(seen)
    if top < LOBE_NOISE * noise or _narrow_from(ts, vs, at, top) is None:
        return None
    return swing_start(ts, vs, at, top)


def swing_start(ts: Sequence[int], vs: Sequence[float], at: int, top: float) -> float | None:
    """Where a narrow swing whose largest sample is ``top``, at ``at`` (``vs``: the signal
    less its baseline, the swing's way up), started: timed as the board times a pre swing
    (``Detector._half_time``, ``_stamped``), where the line through its edge at half its
    height meets the baseline.  The line is fitted through the edge's samples between a
    quarter and three quarters of ``top`` (walked back from ``at`` until one is at most a
    fifth), kept where it crosses half within ``FIT_NEAR_US`` (or a sample) of where the
    sample pair around half does; else it is that pair's.  None where the edge never
    comes under half, or is not at the full rate there (the board's edge: it times a pre
    swing at its half height at 4 kHz, which calibration does not use)."""
    half = top / 2
    x50 = rise = None
    band: list[tuple[int, float]] = []
    for j in range(at - 1, -1, -1):
        if ts[j + 1] - ts[j] > FULL_RATE_US:
            return None
        v = vs[j]
        if x50 is None and v < half:
            rise = (vs[j + 1] - v) / (ts[j + 1] - ts[j])
            x50 = ts[j] + (half - v) / rise
        if v <= top / 5:
            break
        if top / 4 <= v <= 3 * top / 4:
            band.append((ts[j], v))
    if x50 is None or rise is None:
        return None
    if len(band) >= 3:
        m = len(band)
        xs = [t - ts[at] for t, _ in band]  # from the top: µs since the epoch would swamp the sums
        sx = sum(xs)
        sy = sum(v for _, v in band)
        sxx = sum(x * x for x in xs)
        sxy = sum(x * v for x, (_, v) in zip(xs, band))
        den = m * sxx - sx * sx
        slope = (m * sxy - sx * sy) / den if den > 0 else 0.0
        if slope > 0:
            fit = ts[at] + (half - (sy - slope * sx) / m) / slope
            if abs(fit - x50) <= max(FIT_NEAR_US, ts[at] - ts[at - 1]):
                x50, rise = fit, slope
    if ts[at] > x50 and rise * (ts[at] - x50) < half:  # no slower than the line from half to the top (the board's)
        rise = half / (ts[at] - x50)
    return x50 - half / rise

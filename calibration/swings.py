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


@dataclass(frozen=True)
class Swings:
    main_us: float  # when the main swing rose through half the hit's peak
    main_peak: float  # the main swing's own largest sample
    lobe_us: float | None  # when a narrow lobe against it rose through half its own height (None: none)


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
    threshold or not (``Detector._top``).  The ring of a slap
    before may go on under it, up to a twentieth of the peak: the lobe's edge and the main
    swing's are steep there, and a flurry's slaps are most of those the board sends an
    edge of."""
    quiet = [x for t, x in zip(times, samples) if around - 4_000 <= t <= around - 2_000]
    idx = [j for j, t in enumerate(times) if around - 2_000 < t <= around + 3_000]
    if len(quiet) < 4 or len(idx) < 8 or statistics.pstdev(quiet) > max(2 * sigma + 1, (peak or 0) / 20):
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
    a = at
    while a > 0 and ls[a] >= top / 2:
        a -= 1
    z = at
    while z + 1 < len(ls) and ls[z + 1] >= top / 2:
        z += 1
    if a == 0 or ts[z] - ts[a + 1] > LOBE_WIDE_US:
        return Swings(t_main, top_main, None)
    return Swings(t_main, top_main, _crossing(ts, ls, a + 1, top / 2))

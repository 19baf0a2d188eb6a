"""How much of each other pad's signal to subtract from a pad before its edge is timed.

A slap on one pad reaches the others through the table, a little later and weaker.  When
a soft slap comes just before a hard one on another pad, that crosstalk rides on the
soft slap's rising edge and makes it look later and harder (docs/slap-timing.md).  The
board subtracts, from the pad it times, each other pad's signal that had a hit near it,
scaled by a gain and shifted by a lag (``xgain_from*`` ‰, ``xlag_from*`` µs).

Calibration measures both per pair from the prompted slaps (every capture records every
pad): around each slap on the source pad whose signal and this pad's were quiet before
it, this pad's signal from 1 ms before the slap to a quarter millisecond past the
crosstalk's peak here (its rise, what rides on an edge, and as far as the board looks) is compared with the source's, shifted by
each lag from 0 to 800 µs (the source's samples interpolated between frames, Catmull-Rom:
the signal is smooth at the state rate) and scaled by the least-squares gain; the lag
that leaves least, pooled over the pair's slaps, wins.  A pair whose crosstalk does not
show (it explains less than half of this pad's signal there, or is under four noise
sigmas) is not subtracted: subtracting it would only add the other pad's noise.

Two pads never ring quite alike, so some of a neighbour's crosstalk is always left after
the subtraction.  The board counts a hit whose subtracted signal still stands as a slap
of its own (never dropped as crosstalk) only if what is left is ``xclean_pct`` % of what
was taken or more: twice the largest share left over the window (the median over the
pair's slaps; pairs whose crosstalk is under ten noise sigmas, where the noise is most of
what is left, are not counted), at least 20 %.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass

from calibration.analysis import Event

LAGS_US = range(0, 801, 10)
BEFORE_US = 1_000  # the window starts this long before the source's slap ...
AFTER_PEAK_US = 250  # ... and ends this long after the crosstalk's peak here (the board looks that far) ...
RISE_END_US = 250  # the gain and lag are fitted up to this long before that peak (the rise: where edges are timed) ...
PEAK_WITHIN_US = 6_000  # ... searched this long after the slap
QUIET_US = (3_000, 1_000)  # the baseline: from this long before the slap to this long before
MIN_EXPLAINED = 0.5
MIN_SIGMAS = 4.0
LEFT_SIGMAS = 10.0  # crosstalk this strong (noise sigmas) tells what the subtraction leaves
LEFT_MARGIN = 2.0
CLEAN_MIN_PCT = 20


@dataclass(frozen=True)
class Segment:
    """One slap on the source pad: both pads' signals less their baselines, one sample
    per frame ``period_us`` apart."""

    source: tuple[float, ...]
    pad: tuple[float, ...]
    start: int  # first index of the window in both
    end: int  # one past its last
    rise_end: int  # one past the last of the crosstalk's rise (the part the gain and lag are fitted to)


@dataclass(frozen=True)
class Subtraction:
    """One pair's crosstalk: ``gain_pm`` ‰ of the source's signal arrives ``lag_us`` later."""

    source: int
    gain_pm: int
    lag_us: int
    slaps: int
    explained: float  # share of this pad's signal in the windows that the crosstalk explains
    reason: str
    left: float | None = None  # the largest share of the crosstalk the subtraction leaves (median over slaps)


def segment(
    ev: Event, times: Sequence[int], source: Sequence[int], pad: Sequence[int], sigma: float, src_sigma: float
) -> Segment | None:
    """The window around slap ``ev`` (on the source pad), or None when either pad was not
    quiet before it or the slap clipped."""
    if ev.clipped or not times:
        return None
    period = times[1] - times[0] if len(times) > 1 else 250
    i = ev.index
    q0, q1 = i - QUIET_US[0] // period, i - QUIET_US[1] // period
    start = i - BEFORE_US // period
    if q0 < 2 or i + 2 >= len(times):
        return None
    reach = range(i, min(len(times), i + PEAK_WITHIN_US // period))
    top = max(reach, key=lambda m: abs(pad[m] - pad[q1]))  # the crosstalk's peak here
    end = min(len(times), top + AFTER_PEAK_US // period + 1)
    rise_end = max(start + 4, top - RISE_END_US // period + 1)
    base = []
    for sig, s in ((source, src_sigma), (pad, sigma)):
        quiet = sig[q0:q1]
        if len(quiet) < 3 or statistics.pstdev(quiet) > 2 * s + 1:
            return None
        base.append(statistics.fmean(quiet))
    lo, hi = q0 - 2, min(len(times), end + 2)  # room for the interpolation and the lags
    return Segment(
        tuple(x - base[0] for x in source[lo:hi]),
        tuple(x - base[1] for x in pad[lo:hi]),
        start - lo,
        end - lo,
        min(end, rise_end) - lo,
    )


def _at(xs: Sequence[float], x: float) -> float:
    """Catmull-Rom interpolation of ``xs`` at fractional index ``x`` (0 outside)."""
    m = int(x // 1)
    if m < 1 or m + 2 >= len(xs):
        return 0.0
    f = x - m
    p0, p1, p2, p3 = xs[m - 1], xs[m], xs[m + 1], xs[m + 2]
    return p1 + 0.5 * f * (p2 - p0 + f * (2 * p0 - 5 * p1 + 4 * p2 - p3 + f * (3 * (p1 - p2) + p3 - p0)))


def _cost(segments: Sequence[Segment], lag_frames: float) -> tuple[float, float, float]:
    """(residual, gain, total) of the least-squares gain at this lag, pooled."""
    ss = sd = dd = 0.0
    for seg in segments:
        for m in range(seg.start, seg.rise_end):
            s = _at(seg.source, m - lag_frames)
            d = seg.pad[m]
            ss += s * s
            sd += s * d
            dd += d * d
    if ss <= 0:
        return dd, 0.0, dd
    g = sd / ss
    return dd - g * sd, g, dd


def fit_subtraction(source: int, segments: Sequence[Segment], sigma: float, period_us: int = 250) -> Subtraction:
    """The gain and lag of the crosstalk from ``source`` to this pad (``sigma``: its noise)."""
    if not segments:
        return Subtraction(
            source, 0, 0, 0, 0.0, f"pad {source + 1}: no clean slap to measure its crosstalk; not subtracted"
        )
    best = min(LAGS_US, key=lambda lag: _cost(segments, lag / period_us)[0])
    for step in (5, 2, 1):
        best = min((best - step, best, best + step), key=lambda lag: _cost(segments, max(0, lag) / period_us)[0])
    best = max(0, best)
    resid, g, total = _cost(segments, best / period_us)
    explained = 1 - resid / total if total > 0 else 0.0
    peak = max(abs(d) for seg in segments for d in seg.pad[seg.start : seg.end])
    gain = max(0, min(1000, round(g * 1000)))
    n = len(segments)
    if explained < MIN_EXPLAINED or peak < MIN_SIGMAS * sigma or gain == 0:
        return Subtraction(
            source,
            0,
            0,
            n,
            explained,
            f"pad {source + 1}: its crosstalk does not show here ({explained:.0%} of the signal, peak {peak:.0f}); "
            "not subtracted",
        )
    left = _left(segments, gain / 1000, best / period_us, sigma)
    return Subtraction(
        source,
        gain,
        best,
        n,
        explained,
        f"pad {source + 1}: {gain / 10:.1f} % of its signal arrives {best} µs later "
        f"(explains {explained:.0%} of this pad's signal over {n} slaps"
        + (f", leaves up to {left:.0%} of it" if left is not None else "")
        + "); subtracted before the edge is timed",
        left,
    )


def _left(segments: Sequence[Segment], g: float, lag_frames: float, sigma: float) -> float | None:
    """The median over strong slaps of the largest share of the crosstalk (in its own
    direction) that subtracting it leaves."""
    shares = []
    for seg in segments:
        window = range(seg.start, seg.end)
        top = max(window, key=lambda m: abs(seg.pad[m]))
        sgn = 1.0 if seg.pad[top] >= 0 else -1.0
        peak = sgn * seg.pad[top]
        if peak < LEFT_SIGMAS * sigma:
            continue
        left = max(sgn * (seg.pad[m] - g * _at(seg.source, m - lag_frames)) for m in window)
        shares.append(max(0.0, left) / peak)
    return statistics.median(shares) if shares else None


def clean_pct(subs: Sequence[Subtraction]) -> int | None:
    """``xclean_pct`` for a pad from its pairs: twice the most any subtraction leaves, at
    least 20 % (None: no pair measured it)."""
    lefts = [x.left for x in subs if x.gain_pm and x.left is not None]
    if not lefts:
        return None
    return max(CLEAN_MIN_PCT, min(1000, math.ceil(100 * LEFT_MARGIN * max(lefts))))

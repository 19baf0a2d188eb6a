"""The pad's lobe delay: how long after the palm's contact a narrow first lobe against the
main swing reaches half its height (issue 31).  The board times a strike that opens with
such a lobe on it, and takes this delay off its stamp (``lobe_us``); a wooden pad's lobe
comes a few hundred µs after contact, behind a pre swing too small to time.

No edge shows the contact itself, and a lobe has too few samples to fit a start to, so each
slap's lobe is timed against its own main swing: the board takes the onset curve off the
main swing's half-peak time, so the contact is that time less the curve, and the lobe's
delay is the curve less how long the main swing's half-peak comes after the lobe's.  A
stamp taken on the lobe then agrees with one taken on the main swing, as far as the curve
is right.  Read from each slap's raw capture (the board's 20 kHz edge where it sent one),
the median over the prompted slaps; checked on held-out slaps (the delay read from every
other slap must time the rest no worse than the one in force) and refused otherwise.
"""

from __future__ import annotations

import statistics
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from calibration.analysis import Event
from calibration.fit import on_board, said
from calibration.onset_fit import HELD_OUT_SLACK_US, MATCH_US, MIN_SLAPS, delay_us
from hal.padboard.messages import PadHit
from hal.padboard.settings import PadSettings

LOBE_BACK_US = 1_200  # the lobe is looked for this far before the main swing's half-peak crossing ...
LOBE_WIDE_US = 500  # ... over half its height for at most this long (the board's two state frames) ...
LOBE_NOISE = 5.0  # ... and standing this many noise sigmas


@dataclass(frozen=True)
class LobeFit:
    lobe_us: int
    slaps: int  # slaps whose lobe was timed
    reasons: tuple[str, ...]
    warnings: tuple[str, ...] = ()


def _crossing(ts: Sequence[int], vs: Sequence[float], j: int, level: float) -> float:
    """When the signal ``vs`` rose through ``level`` between samples ``j - 1`` and ``j``."""
    a, b = vs[j - 1], vs[j]
    return ts[j] - (ts[j] - ts[j - 1]) * (b - level) / (b - a) if b != a else float(ts[j])


def lobe_lead(times: Sequence[int], samples: Sequence[int], around: int, peak: int, sigma: float) -> float | None:
    """µs from where a narrow lobe against the main swing reached half its height to where
    the main swing (the swing of ``peak``, whichever way: the one over half of it longest)
    did, for the slap stamped at ``around``; None where the signal before it was not quiet
    or no such lobe stands ``LOBE_NOISE`` sigmas.  The ring of a slap before may go on
    under it, up to a twentieth of the peak: the lobe's edge and the main swing's are steep
    there, and a flurry's slaps are most of those the board sends an edge of."""
    quiet = [x for t, x in zip(times, samples) if around - 4_000 <= t <= around - 2_000]
    idx = [j for j, t in enumerate(times) if around - 2_000 < t <= around + 3_000]
    if len(quiet) < 4 or len(idx) < 8 or statistics.pstdev(quiet) > max(2 * sigma + 1, peak / 20):
        return None
    base = statistics.fmean(quiet)
    ts = [times[j] for j in idx]
    dev = [samples[j] - base for j in idx]
    half = peak / 2
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
    t_main = _crossing(ts, vs, m, half)
    against = [(-vs[j], j) for j in range(1, m) if ts[j] >= t_main - LOBE_BACK_US]
    if not against:
        return None
    top, at = max(against)
    if top < LOBE_NOISE * sigma:
        return None
    ls = [-x for x in vs]
    a = at
    while a > 0 and ls[a] >= top / 2:
        a -= 1
    z = at
    while z + 1 < len(ls) and ls[z + 1] >= top / 2:
        z += 1
    if a == 0 or ts[z] - ts[a + 1] > LOBE_WIDE_US:
        return None
    return t_main - _crossing(ts, ls, a + 1, top / 2)


def fit_lobe(
    pad: int,
    groups: Mapping[str, Sequence[tuple[Event, Sequence[int], Sequence[int]]]],
    hits: Sequence[PadHit],
    curve: PadSettings,
    base: PadSettings,
    sigma: float,
) -> LobeFit:
    """The lobe delay of ``pad`` from its prompted slaps (the raw ``(event, times, samples)``
    of each, and the board's hits), against the onset curve ``curve`` applies; ``base``: the
    settings the board ran with.  The delay in force is kept where fewer than ``MIN_SLAPS``
    slaps show such a lobe (a pad without one: nothing to take off) or where the delay read
    from half the slaps times the other half worse than it."""
    kept = f"kept at {base.lobe_us} µs"
    leads: list[float] = []
    for evs in groups.values():
        for ev, times, samples in evs:
            hit = min(hits, key=lambda h: abs(h.t_us - ev.onset_us), default=None)
            if hit is None or abs(hit.t_us - ev.onset_us) > MATCH_US or hit.peak <= 0 or ev.clipped:
                continue
            lead = lobe_lead(times, samples, hit.t_us, hit.peak, sigma)
            if lead is not None:
                leads.append(delay_us(hit.peak, curve.onset_us, curve.onset_exp) - lead)
    if len(leads) < MIN_SLAPS:
        return LobeFit(
            base.lobe_us,
            len(leads),
            (said("lobe delay", kept, f"only {len(leads)} slaps opened with a narrow lobe against the main swing"),),
        )
    new: list[float] = []
    old: list[float] = []
    for half in (0, 1):
        level = max(0, round(statistics.median(leads[half::2])))
        new += [abs(level - d) for d in leads[1 - half :: 2]]
        old += [abs(base.lobe_us - d) for d in leads[1 - half :: 2]]
    off, off_before = statistics.median(new), statistics.median(old)
    if off > off_before + HELD_OUT_SLACK_US:
        why = (
            f"read from half the slaps, it would time the other half's first lobes {off:.0f} µs off (median), "
            f"the delay in force {off_before:.0f} µs"
        )
        return LobeFit(
            base.lobe_us,
            len(leads),
            (said("lobe delay", kept, f"a new delay was refused: {why}"),),
            (f"pad {pad + 1}: the lobe delay was not changed: {why}; check the pad's mount and redo the calibration",),
        )
    lobe, limited = on_board(
        "lobe_us",
        max(0, round(statistics.median(leads))),
        "slaps this pad times on their first lobe are stamped late by the rest; check the pad's mount",
    )
    return LobeFit(
        lobe,
        len(leads),
        (
            said(
                "lobe delay",
                f"{lobe} µs",
                f"from contact to half a first lobe against the main swing, read from {len(leads)} slaps that opened "
                f"with one (the onset curve less how long the main swing's half-peak came after the lobe's); read "
                f"from half the slaps it timed the other half {off:.0f} µs off, the delay in force {off_before:.0f} µs",
            ),
        ),
        (limited,) if limited else (),
    )

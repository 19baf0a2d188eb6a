"""The pad's lobe delay: how long after the palm's contact a narrow first lobe against the
main swing reaches half its height (issue 31).  The board times a strike that opens with
such a lobe on it, and takes this delay off its stamp (``lobe_us``); a wooden pad's lobe
comes a few hundred µs after contact, behind a pre swing that the threshold misses on
soft slaps.

A pre swing that stands clear does show the contact: the board stamps a strike it times
on one at its start (its edge's line through half its height, down to the baseline), so
where ``MIN_STARTED`` prompted slaps open with a pre swing and a lobe after it, both clear
of the noise on the board's 20 kHz edge, the delay is measured from that start to the
lobe's half height, slap by slap, with no curve in it
(:func:`calibration.onset_fit.started_slaps`): lobe stamps then agree with pre-swing ones.
Read against the curve instead, wood's came ~100 µs early at × 4 (the edges' curve, 818
µs, too long), and at × 1 no delay was fitted at all (five slaps with a lobe, the hard
step's: the board reports no softer one at the threshold it calibrates with).

Otherwise no edge shows the contact itself, and a lobe has too few samples to fit a
start to, so each slap's lobe is timed against its own main swing: the board takes the
onset curve off the main swing's half-peak time, so the contact is that time less the
curve, and the lobe's delay is the curve less how long the main swing's half-peak comes
after the lobe's.  A stamp taken on the lobe then agrees with one taken on the main
swing, as far as the curve is right.  Read from each slap's raw capture (the board's 20 kHz edge where it sent one),
the median over the prompted slaps; checked on held-out slaps (the delay read from every
other slap must time the rest no worse than the one in force) and refused otherwise.

With the contact probe the contact is known: each probe slap's lobe is timed from the
glove's touch (:func:`calibration.onset_fit.probe_slaps`), with no curve in it.  Six such
slaps measure the delay alone; fewer (a pad whose soft slaps stay under the threshold the
board calibrates with) count with the prompted slaps', timed against the curve, which
the probe has then measured too (pre swings are not read then: the probe's touch is the
contact its curve was measured from).
"""

from __future__ import annotations

import statistics
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from calibration.analysis import Event
from calibration.fit import on_board, said
from calibration.onset_fit import (
    HELD_OUT_SLACK_US,
    MIN_PROBED,
    MIN_SLAPS,
    MIN_STARTED,
    PROBE_REMEDY,
    STARTED_HOW,
    STARTED_REMEDY,
    ContactSlap,
    delay_us,
    matched_hit,
    started_slaps,
)
from calibration.swings import swings
from hal.padboard.messages import PadHit
from hal.padboard.settings import PadSettings


@dataclass(frozen=True)
class LobeFit:
    lobe_us: int
    slaps: int  # slaps whose lobe was timed
    reasons: tuple[str, ...]
    warnings: tuple[str, ...] = ()


def fit_lobe(
    pad: int,
    groups: Mapping[str, Sequence[tuple[Event, Sequence[int], Sequence[int]]]],
    hits: Sequence[PadHit],
    curve: PadSettings,
    base: PadSettings,
    sigma: float,
    probed: Sequence[ContactSlap] = (),
) -> LobeFit:
    """The lobe delay of ``pad`` from its prompted slaps (the raw ``(event, times, samples)``
    of each, and the board's hits), against the onset curve ``curve`` applies; ``base``: the
    settings the board ran with.  With ``MIN_PROBED`` slaps of the probe step (``probed``)
    opening with a lobe, the delay is measured from the glove's touch instead, and the
    curve is not in it; with fewer, theirs count with the prompted slaps'.  With none,
    ``MIN_STARTED`` prompted slaps that open with a pre swing measure it from its start
    (:func:`~calibration.onset_fit.started_slaps`).  The delay in
    force is kept where fewer than ``MIN_SLAPS`` slaps show such a lobe (a pad without one:
    nothing to take off) or where the delay read from half the slaps times the other half
    worse than it."""
    kept = f"kept at {base.lobe_us} µs"
    touched = [s.lobe_us for s in probed if s.lobe_us is not None]
    if len(touched) >= MIN_PROBED:
        return _fitted(
            pad,
            touched,
            base,
            f"from the glove's touch to half a first lobe against the main swing, measured with the contact probe "
            f"on {len(touched)} of its slaps",
            PROBE_REMEDY,
        )
    started = [] if touched else [s.lobe_us for s in started_slaps(groups, hits, sigma) if s.lobe_us is not None]
    if len(started) >= MIN_STARTED:
        return _fitted(
            pad,
            started,
            base,
            f"from contact to half a first lobe against the main swing, {STARTED_HOW}, on {len(started)} slaps "
            "that opened with both",
            STARTED_REMEDY,
        )
    leads: list[float] = []
    for evs in groups.values():
        for ev, times, samples in evs:
            hit = matched_hit(ev, hits)
            seen = None if hit is None else swings(times, samples, hit.t_us, hit.peak, sigma)
            if hit is not None and seen is not None and seen.lobe_us is not None:
                leads.append(delay_us(hit.peak, curve.onset_us, curve.onset_exp) - (seen.main_us - seen.lobe_us))
    leads += touched
    if len(leads) < MIN_SLAPS:
        return LobeFit(
            base.lobe_us,
            len(leads),
            (said("lobe delay", kept, f"only {len(leads)} slaps opened with a narrow lobe against the main swing"),),
        )
    return _fitted(
        pad,
        leads,
        base,
        f"from contact to half a first lobe against the main swing, read from {len(leads)} slaps that opened with "
        f"one (the onset curve less how long the main swing's half-peak came after the lobe's"
        + (f"; {len(touched)} of them measured from the contact probe's touch" if touched else "")
        + ")",
        "check the pad's mount and redo the calibration",
    )


def _fitted(pad: int, delays: Sequence[float], base: PadSettings, how: str, remedy: str) -> LobeFit:
    """The median of ``delays`` (µs from contact to the lobe's half height, read as ``how``
    says) as the pad's lobe delay, where the median of every other one times the rest no
    worse than the delay in force; else that one kept, and the operator told why and what
    to do (``remedy``)."""
    kept = f"kept at {base.lobe_us} µs"
    leads = list(delays)
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
            (f"pad {pad + 1}: the lobe delay was not changed: {why}; {remedy}",),
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
                f"{how}; read from half the slaps it timed the other half {off:.0f} µs off, the delay in force "
                f"{off_before:.0f} µs",
            ),
        ),
        (limited,) if limited else (),
    )

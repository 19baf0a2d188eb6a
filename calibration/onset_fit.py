"""The pad's onset curve: how long after the palm's contact the rising edge reaches half
the hit's peak, as a function of the peak (the board subtracts it: docs/slap-timing.md).

Nobody can tell the cabinet when a palm really touched the pad, so each calibration slap's
contact is read from its own raw signal: the signal leaves the baseline smoothly (a force
rising from zero into the pad), so the rising edge from 8 % (or 4 noise sigmas) to 45 % of
the peak is fitted with ``c·(t − t0)^2.5`` and ``t0`` is the contact.  (A pad answering a
force that rises linearly starts like t³, one that follows the force like t²: 2.5 takes
neither side.  On the simulator's cabinets the fitted curve lands 10–60 µs short of the
truth, so stamps come out a little late, about alike on every pad; a real pad is checked
once against a contact switch, docs/slap-timing.md.)  The board's own half-peak
time of each slap comes from its hit (the stamp plus the delay it subtracted), so the
curve is fitted to exactly what the board measures, at its own sample rate.

The raw stream comes at the detector's state rate (4 kHz: a couple of samples on each
edge), but after each hit the board sends its rising edge as its DMA sampled it (20 kHz,
``EDGE``: :func:`with_edge`), five times the samples where the contact is read; with a
board that sends none, the 4 kHz stream is all there is.  The slaps of one prompted step,
about equally hard, are pooled: their edges, aligned at the board's half-peak times and
scaled by their peaks, give one delay at that step's peak.  The curve is
``onset_us × (peak / 10,000)^(−onset_exp / 1000)``; its slope (how the delay shrinks with
force: the contact shortens, Hertz) is kept from the physics, and its level is the
steps' delays moved to the reference peak along it, each weighted by its slaps and its edge's signal-to-noise (the
hard slaps' edges are the cleanest).  A slap whose signal was not quiet before it (the
ring of the one before) or that clipped is left out.

No edge shows what comes before the signal starts: the pad's mount and front end, and
the bending wave's way from where the palm lands to the piezo (tens of µs, the same on
every slap).  With the contact probe (a conductive glove whose touch on the pad's foil
the board stamps) the curve is measured instead: each probe slap's delay from the touch
to its main swing's half-peak crossing in its raw capture, whichever swing the board
timed it on, moved to the reference peak along the slope, and the median of them is the
level (:func:`probe_slaps`, :func:`contact_fit`); the same slaps' first lobes measure the
lobe delay (:mod:`calibration.lobe_fit`).

A wooden pad's strike gives its contact without the probe: it opens with a pre swing the
main swing's way, rising from the contact, which the board times at its start (its
edge's line through its half height, down to the baseline).  Where enough prompted slaps
show one, and a first lobe after it, clear of the noise on the board's 20 kHz edge, the
curve is measured against that start as against the probe's touch
(:func:`started_slaps`), and the rising edges' fit, which such a strike's edge misleads,
is not tried.
"""

from __future__ import annotations

import statistics
from bisect import bisect_left, bisect_right
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from calibration.analysis import Event
from calibration.capture import Capture
from calibration.fit import on_board, said
from calibration.swings import swings
from hal.padboard.messages import PadEdge, PadHit
from hal.padboard.settings import PadSettings

ONSET_REF = 10_000  # the detector's reference peak (firmware_py/padboard/detector.py)
START_EXP = 2.5  # the rising edge starts like (t − contact)^2.5
BAND = (0.08, 0.45)  # the part of the edge fitted, as fractions of the peak ...
NOISE_FLOOR = 4.0  # ... and at least this many noise sigmas up
MIN_SLAPS = 6
MATCH_US = 3_000  # a hit belongs to a raw slap whose onset is this close
MIN_PROBED = 6  # probe slaps needed to measure the curve
MIN_STARTED = 4  # slaps timed against their pre swing's start needed (two a half for the held-out check)
PROBE_SNR = 20.0  # a probe slap the board did not report is read where its main swing stands this many noise sigmas
PROBE_LATE_US = 8  # the probe's stamp is this late (a hard interrupt; to confirm on the first board)
HELD_OUT_SLACK_US = 25  # a fitted curve this much worse than the one in force on held-out slaps still ties
ON_EDGE_US = 150  # a hit timed on its main swing less the curve lands this close to that swing's half-peak crossing


@dataclass(frozen=True)
class OnsetFit:
    onset_us: int
    onset_exp: int
    slaps: int  # slaps whose edges the curve was fitted to
    reasons: tuple[str, ...]
    warnings: tuple[str, ...] = ()


def delay_us(peak: float, onset_us: int, onset_exp: int) -> float:
    """The detector's curve (``detector.onset_delay_us``, unrounded)."""
    if onset_us <= 0 or peak <= 0:
        return 0.0
    scale: float = (peak / ONSET_REF) ** (-onset_exp / 1000)
    return onset_us * scale


def half_peak_time(hit: PadHit, settings: PadSettings) -> float:
    """When the board saw the hit's rising edge at half its peak: its stamp plus the delay
    it subtracted with ``settings``."""
    return hit.t_us + delay_us(hit.peak, settings.onset_us, settings.onset_exp)


def probe_pairs(hits: Sequence[PadHit], contacts: Sequence[int]) -> list[tuple[PadHit, int]]:
    """Each hit with the probe's touch nearest its stamp (within ``MATCH_US``; a touch
    pairs with one hit at most): the true contacts of the probe step's slaps."""
    pairs = []
    free = sorted(contacts)
    for hit in sorted(hits, key=lambda h: h.t_us):
        near = min(free, key=lambda t: abs(t - hit.t_us), default=None)
        if near is not None and abs(near - hit.t_us) <= MATCH_US:
            pairs.append((hit, near))
            free.remove(near)
    return pairs


@dataclass(frozen=True)
class ContactSlap:
    """What one slap's raw capture shows against its contact (µs from it): the probe's
    touch (:func:`probe_slaps`) or its pre swing's start (:func:`started_slaps`)."""

    peak: int  # the hit's (of a slap the board did not report: its main swing's largest sample)
    main_us: float  # to the main swing's half-peak crossing: a point of the onset curve
    lobe_us: float | None  # to a narrow first lobe's half height (None: none seen)


def probe_slaps(captures: Sequence[Capture], pad: int, base: PadSettings, sigma: float) -> list[ContactSlap]:
    """The probe steps' slaps on ``pad``, each read against its touch from its raw capture:
    how long after the contact its main swing reached half its peak and its first lobe
    against it half its height (:func:`~calibration.swings.swings`), whichever of them the
    board timed.  A touch with a hit (:func:`probe_pairs`) is read on the board's 20 kHz
    edge where it sent one, at the hit's peak; a touch without one (a slap under the
    threshold the board calibrates with) on the raw stream alone, for its main swing only
    (a lobe is a sample or two there), where that stands ``PROBE_SNR`` noise sigmas
    (``sigma``: the pad's noise at rest).  A capture without raw samples gives the board's
    half-peak time (its stamp plus the curve in force, ``base``) for the main swing's, and
    no lobe; a slap whose signal before it was not quiet is left out."""
    out: list[ContactSlap] = []
    for c in captures:
        raw = c.samples.get(pad)
        edges = c.edges_on(pad)
        pairs = probe_pairs(c.hits_on(pad), c.contacts)
        for hit, touch in pairs:
            contact = touch - PROBE_LATE_US
            if not raw:
                out.append(ContactSlap(hit.peak, half_peak_time(hit, base) - contact, None))
                continue
            times, samples = with_edge(c.times, raw, edges, hit.t_us)
            seen = swings(times, samples, hit.t_us, hit.peak, sigma)
            if seen is not None:
                lobe = None if seen.lobe_us is None else seen.lobe_us - contact
                out.append(ContactSlap(hit.peak, seen.main_us - contact, lobe))
        if raw:
            paired = {t for _h, t in pairs}
            for touch in c.contacts:
                seen = None if touch in paired else swings(c.times, raw, touch, None, sigma)
                if seen is not None and seen.main_peak >= PROBE_SNR * sigma:
                    out.append(ContactSlap(round(seen.main_peak), seen.main_us - touch + PROBE_LATE_US, None))
    return out


def matched_hit(ev: Event, hits: Sequence[PadHit]) -> PadHit | None:
    """The board's hit of the prompted slap ``ev``: the one stamped within ``MATCH_US`` of
    its onset, where it has a peak and the slap did not clip; else None."""
    hit = min(hits, key=lambda h: abs(h.t_us - ev.onset_us), default=None)
    if hit is None or abs(hit.t_us - ev.onset_us) > MATCH_US or hit.peak <= 0 or ev.clipped:
        return None
    return hit


def started_slaps(
    groups: Mapping[str, Sequence[tuple[Event, Sequence[int], Sequence[int]]]], hits: Sequence[PadHit], sigma: float
) -> list[ContactSlap]:
    """The prompted slaps (``groups``, as :func:`fit_onset` takes them) that opened with a
    pre swing and a first lobe against the main swing after it, both clear of the noise,
    on the board's 20 kHz edge (:func:`~calibration.swings.swings`), each read against its
    pre swing's start: where the board stamps a slap it times on its pre swing (its
    edge's line at half height, down to the baseline), the contact as the board knows it.
    A wooden pad's strike opens so; the curve and the lobe delay read against that start
    make its main-swing and lobe stamps agree with its pre-swing ones."""
    out: list[ContactSlap] = []
    for evs in groups.values():
        for ev, times, samples in evs:
            hit = matched_hit(ev, hits)
            seen = None if hit is None else swings(times, samples, hit.t_us, hit.peak, sigma)
            if hit is not None and seen is not None and seen.lobe_us is not None and seen.pre_us is not None:
                out.append(ContactSlap(hit.peak, seen.main_us - seen.pre_us, seen.lobe_us - seen.pre_us))
    return out


def edge_samples(
    times: Sequence[int], samples: Sequence[int], t50: float, peak: int, sigma: float, window_us: int = 4_000
) -> list[tuple[float, float]]:
    """The slap that reached half its ``peak`` at ``t50``, as ``(t − t50, fraction of the
    peak)`` from ``window_us / 2`` before ``t50`` to just after it.  Empty when the signal
    before the slap was not quiet (a ring still going; ``sigma``: the pad's noise at rest)."""
    idx = [j for j, t in enumerate(times) if t50 - window_us <= t <= t50 + 2_000]
    quiet = [samples[j] for j in idx if times[j] <= t50 - window_us / 2]
    if len(idx) < 8 or len(quiet) < 4 or statistics.pstdev(quiet) > 2 * sigma + 1:
        return []
    base = statistics.fmean(quiet)
    after = [samples[j] - base for j in idx if times[j] >= t50]
    sign = 1.0 if max(after, default=0.0) >= -min(after, default=0.0) else -1.0
    return [
        (times[j] - t50, sign * (samples[j] - base) / peak) for j in idx if t50 - window_us / 2 < times[j] <= t50 + 100
    ]


def timed_on_main_swing(times: Sequence[int], samples: Sequence[int], t50: float, peak: int) -> bool:
    """True when ``t50`` (the board's stamp plus the curve's delay) is where the raw signal's
    swing that reaches the hit's ``peak`` first crosses half of it, within ``ON_EDGE_US``:
    the board timed the hit on that swing's edge less the curve, so the edge aligned at
    ``t50`` is the one the curve is about.  False for a hit the board timed on its first
    lobe (a narrow swing before the main one: the contact's own answer, no curve in its
    stamp, issue 31), whose ``t50`` lands a whole delay off any half-peak crossing."""
    quiet = [x for t, x in zip(times, samples) if t50 - 4_000 <= t <= t50 - 2_000]
    near = [(t, x) for t, x in zip(times, samples) if t50 - 2_000 < t <= t50 + 2_000]
    if len(quiet) < 4 or len(near) < 4:
        return False
    base = statistics.fmean(quiet)
    sign = 1.0 if max(x for _, x in near) - base >= base - min(x for _, x in near) else -1.0
    half = peak / 2
    for (ta, xa), (tb, xb) in zip(near, near[1:]):
        a, b = sign * (xa - base), sign * (xb - base)
        if b >= half:
            cross = tb if a >= half or b == a else ta + (tb - ta) * (half - a) / (b - a)
            return abs(cross - t50) <= ON_EDGE_US
    return False


def with_edge(
    times: Sequence[int], samples: Sequence[int], edges: Sequence[PadEdge], onset_us: int
) -> tuple[Sequence[int], Sequence[int]]:
    """A slap's signal at its best: the raw stream with the board's edge of the hit
    nearest ``onset_us`` (within ``MATCH_US``) in place of the frames it spans, from 5 ms
    before it (the quiet baseline) to 3 ms after; the raw stream alone without one."""
    edge = min(edges, key=lambda e: abs(e.onset_us - onset_us), default=None)
    if edge is None or abs(edge.onset_us - onset_us) > MATCH_US or not edge.samples:
        return times, samples
    lo, hi = edge.t_us, edge.t_us + (len(edge.samples) - 1) * edge.period_us
    a, z = bisect_left(times, lo - 5_000), bisect_right(times, hi + 3_000)  # the raw frames are in time order
    merged = [(t, x) for t, x in zip(times[a:z], samples[a:z]) if t < lo or t > hi]
    merged += zip(edge.times, edge.samples)
    merged.sort()
    return [t for t, _ in merged], [x for _, x in merged]


def fit_start(points: Sequence[tuple[float, float]], lo: float) -> tuple[float, float] | None:
    """``(t0, c)`` of ``g = c·(t − t0)^START_EXP`` fitted by least squares to the points
    whose fraction is within ``(lo, BAND[1])`` (then, once more, to the points in the time
    span where the first fit is: selecting by the noisy value itself would bias it)."""
    sel = [(t, g) for t, g in points if lo <= g <= BAND[1]]
    best = None
    for _ in range(2):
        if len(sel) < 4:
            return None
        best = _least_squares(sel)
        if best is None:
            return None
        t0, c = best
        t_lo = t0 + (lo / c) ** (1 / START_EXP)
        t_hi = t0 + (BAND[1] / c) ** (1 / START_EXP)
        sel = [(t, g) for t, g in points if t_lo <= t <= t_hi]
    return best


def _least_squares(points: Sequence[tuple[float, float]]) -> tuple[float, float] | None:
    def cost(t0: float) -> tuple[float, float]:
        us = [(t - t0) ** START_EXP if t > t0 else 0.0 for t, _ in points]
        suu = sum(u * u for u in us)
        if suu <= 0:
            return float("inf"), 0.0
        c = sum(u * g for u, (_, g) in zip(us, points)) / suu
        return sum((g - c * u) ** 2 for u, (_, g) in zip(us, points)), c

    first = min(t for t, _ in points)
    grid = [first - 5 * k for k in range(1, 400)]
    t0 = min(grid, key=lambda x: cost(x)[0])
    for step in (2.5, 1.0):
        t0 = min((t0 - 2 * step, t0 - step, t0, t0 + step, t0 + 2 * step), key=lambda x: cost(x)[0])
    c = cost(t0)[1]
    return (t0, c) if c > 0 else None


PROBE_HOW = "measured with the contact probe"
PROBE_REMEDY = "check the glove's wire and the pad's foil, and redo the probe step"
STARTED_HOW = "measured from the start of each slap's pre swing, where the board stamps one (the contact)"
STARTED_REMEDY = "check the pad's mount and redo the calibration"


def contact_fit(slaps: Sequence[ContactSlap], base: PadSettings, least: int, how: str, remedy: str) -> OnsetFit | None:
    """The curve measured from slaps read against their contact (the probe step's,
    :func:`probe_slaps`, or those that opened with a pre swing, :func:`started_slaps`;
    ``how`` says which, ``remedy`` what the operator does if it is refused; ``base``: the
    settings the board ran with): each slap's delay from the contact to its main swing's
    half-peak crossing, moved to the reference peak along the kept slope; the level is
    their median.  Checked on held-out slaps first: the level read from every other slap
    must time the rest no worse than the curve in force (within ``HELD_OUT_SLACK_US``), or
    that curve is kept.  None with fewer than ``least``."""
    clean = [s for s in slaps if s.peak > 0]
    if len(clean) < least:
        return None
    exp = base.onset_exp
    delays = [(s.peak, s.main_us) for s in clean]
    levels = [d * (p / ONSET_REF) ** (exp / 1000) for p, d in delays]
    new: list[float] = []
    old: list[float] = []
    for half in (0, 1):
        level = round(statistics.median(levels[half::2]))
        new += [abs(delay_us(p, level, exp) - d) for p, d in delays[1 - half :: 2]]
        old += [abs(delay_us(p, base.onset_us, base.onset_exp) - d) for p, d in delays[1 - half :: 2]]
    off, off_before = statistics.median(new), statistics.median(old)
    if off > off_before + HELD_OUT_SLACK_US:
        return kept_curve(
            base,
            len(clean),
            f"{how}, it would time the slaps it was not read from {off:.0f} µs off (median), the curve in force "
            f"{off_before:.0f} µs",
            remedy,
        )
    levels.sort()
    onset, limited = on_board(
        "onset_us",
        round(statistics.median(levels)),
        f"this pad's slaps are stamped off by the rest; {remedy}",
    )
    q1, q3 = levels[len(levels) // 4], levels[(3 * len(levels)) // 4]
    peaks = [s.peak for s in clean]
    lobes = sum(s.lobe_us is not None for s in clean)
    return OnsetFit(
        onset,
        exp,
        len(clean),
        (
            said(
                "onset curve",
                f"{onset} µs × (peak/10,000)^−{exp / 1000:.3f}",
                f"from contact to half the main swing's peak, {how} ({len(clean)} slaps, "
                f"peaks {min(peaks)}–{max(peaks)}, {lobes} of them opening with a first lobe; middle half "
                f"{q1:.0f}–{q3:.0f} µs at the reference peak; read from half the slaps it timed the other half "
                f"{off:.0f} µs off, the curve in force {off_before:.0f} µs)",
            ),
        ),
        (limited,) if limited else (),
    )


def probe_fit(probed: Sequence[ContactSlap], base: PadSettings) -> OnsetFit | None:
    """The curve measured with the contact probe (:func:`contact_fit`), from ``MIN_PROBED``
    of its slaps (:func:`probe_slaps`)."""
    return contact_fit(probed, base, MIN_PROBED, PROBE_HOW, PROBE_REMEDY)


def kept_curve(base: PadSettings, slaps: int, why: str, remedy: str, early: Sequence[str] = ()) -> OnsetFit:
    """The curve in force kept, because the one fitted would time this pad's slaps worse
    (``why``) or could not be checked; the review says so, and what to do (``remedy``),
    after the warnings ``early``."""
    kept = f"kept at {base.onset_us} µs × (peak/10,000)^−{base.onset_exp / 1000:.3f}"
    return OnsetFit(
        base.onset_us,
        base.onset_exp,
        slaps,
        (said("onset curve", kept, f"a new curve was refused: {why}"),),
        (*early, f"the onset curve was not changed: {why}; {remedy}"),
    )


def _level(points: Sequence[tuple[float, float, int]], sigma: float, exp: int) -> float:
    """The curve's level through steps' ``(peak, delay, slaps)``, each moved to the
    reference peak along the slope and weighted by its slaps and its edge's signal-to-noise."""
    weights = [n * (p / max(sigma, 1.0)) ** 2 for p, _, n in points]  # the cleaner the edge, the more it counts
    levels: list[float] = [d * (p / ONSET_REF) ** (exp / 1000) for p, d, _ in points]
    return sum(w * v for w, v in zip(weights, levels)) / sum(weights)


def held_out_us(points: Sequence[tuple[float, float, int]], sigma: float, base: PadSettings) -> tuple[float, float]:
    """Each step left out in turn: how far the curve read from the other steps misses
    that step's own delay, and how far the curve in force does (µs, averaged over slaps)."""
    new = old = 0.0
    for k, (p, d, n) in enumerate(points):
        level = round(_level([*points[:k], *points[k + 1 :]], sigma, base.onset_exp))
        new += n * abs(delay_us(p, level, base.onset_exp) - d)
        old += n * abs(delay_us(p, base.onset_us, base.onset_exp) - d)
    slaps = sum(n for _, _, n in points)
    return new / slaps, old / slaps


def fit_onset(
    pad: int,
    groups: Mapping[str, Sequence[tuple[Event, Sequence[int], Sequence[int]]]],
    hits: Sequence[PadHit],
    base: PadSettings,
    sigma: float,
    probed: Sequence[ContactSlap] | None = None,
) -> OnsetFit:
    """The onset curve of ``pad`` from its prompted slaps: per step (soft, hard, flurry:
    slaps of about one force) the raw ``(event, times, samples)`` of each slap, and the
    board's hits (``base``: the settings it ran with).  Each step's edges are pooled,
    aligned at the board's half-peak times, into one delay at that step's median peak;
    the curve goes through those points.  ``probed``: the probe step's slaps (None: no
    probe step, :func:`probe_slaps`); enough of them measure the curve instead.  Without
    those, ``MIN_STARTED`` slaps that opened with a pre swing (:func:`started_slaps`)
    measure it against the pre swing's start, before the rising edges are tried."""
    kept = f"kept at {base.onset_us} µs × (peak/10,000)^−{base.onset_exp / 1000:.3f}"
    fallback = ""
    if probed is not None:
        measured = probe_fit(probed, base)
        if measured is not None:
            return measured
        fallback = (
            f"pad {pad + 1}: the contact probe gave only {len(probed)} touches with a slap (at least {MIN_PROBED} "
            "needed): check the glove's wire and the pad's foil (or slap harder: the board reports only slaps over "
            "its threshold while it is calibrated); the curve was read without it"
        )
    started = contact_fit(started_slaps(groups, hits, sigma), base, MIN_STARTED, STARTED_HOW, STARTED_REMEDY)
    if started is not None:
        return replace(started, warnings=(fallback, *started.warnings)) if fallback else started
    points: list[tuple[float, float, int]] = []  # (peak, delay, slaps)
    on_lobe = 0  # slaps the board timed on their first lobe: the curve does not move their stamps
    for evs in groups.values():
        pooled: list[tuple[float, float]] = []
        peaks = []
        for ev, times, samples in evs:
            hit = matched_hit(ev, hits)
            if hit is None:
                continue
            t50 = half_peak_time(hit, base)
            if not timed_on_main_swing(times, samples, t50, hit.peak):
                on_lobe += 1
                continue
            pts = edge_samples(times, samples, t50, hit.peak, sigma)
            if pts:
                pooled += pts
                peaks.append(hit.peak)
        if len(peaks) < 3:
            continue
        fit = fit_start(pooled, max(BAND[0], NOISE_FLOOR * sigma / min(peaks)))
        if fit is not None and 50 < -fit[0] < 5_000:
            points.append((statistics.median(peaks), -fit[0], len(peaks)))
    slaps = sum(n for _, _, n in points)
    exp = base.onset_exp
    early = (fallback,) if fallback else ()
    lobes = (
        f" ({on_lobe} more the board timed on their first lobe, the contact's own answer: the curve does not "
        "move those stamps, and their edges would misread it)"
        if on_lobe
        else ""
    )
    if probed is None:
        remedy = "calibrate this pad with the contact probe (docs/calibration.md)"
    else:
        remedy = PROBE_REMEDY
    if on_lobe and slaps < MIN_SLAPS:
        return kept_curve(base, slaps, f"only {slaps} slaps showed a clean rising edge{lobes}", remedy, early)
    if not points or slaps < MIN_SLAPS:
        return OnsetFit(
            base.onset_us,
            base.onset_exp,
            slaps,
            (said("onset curve", kept, "as it was"),),
            (*early, f"pad {pad + 1}: only {slaps} slaps showed a clean rising edge; onset curve {kept}"),
        )
    if len(points) < 2:
        return kept_curve(
            base,
            slaps,
            f"only one step's slaps ({slaps}) showed a clean rising edge{lobes}, and a curve read from one force "
            "cannot be checked on slaps it was not read from",
            remedy,
            early,
        )
    off, off_before = held_out_us(points, sigma, base)
    if off > off_before + HELD_OUT_SLACK_US:
        return kept_curve(
            base,
            slaps,
            f"read from the other steps' slaps, it missed each step's own delay by {off:.0f} µs on average, the "
            f"curve in force by {off_before:.0f} µs (this pad's signal does not start as the fit expects: a "
            "narrow first swing before the main one, say)",
            remedy,
            early,
        )
    onset, limited = on_board(
        "onset_us",
        round(_level(points, sigma, exp)),
        "this pad's slaps are stamped off by the rest; check the pad's mount and front end",
    )
    detail = "; ".join(f"{d:.0f} µs at peak {p:.0f} ({n} slaps)" for p, d, n in sorted(points))
    reasons = (
        said(
            "onset curve",
            f"{onset} µs × (peak/10,000)^−{exp / 1000:.3f}",
            f"from contact to half the peak, read from the rising edges of the prompted slaps ({detail}){lobes}, "
            f"the hard ones counting most; checked on each step left out, {off:.0f} µs off on average (the curve "
            f"in force: {off_before:.0f} µs)",
        ),
    )
    return OnsetFit(onset, exp, slaps, reasons, (*early, *([limited] if limited else [])))

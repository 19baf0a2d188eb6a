"""Choosing one pad's detector settings from what was captured, like an e-drum module.

Every value comes with a sentence saying why, and with its margin:

- threshold: above the noise peak at rest (reported in dB above it, at least +6 dB) and
  below the softest prompted slap (at least 6 dB under it).  Inside that room it sits
  where both margins are equal, raised (if room is left) over the largest crosstalk
  peak a neighbour's slap put on this pad.
- sensitivity: the median hard-slap peak (kept under the ADC rail), so a hard slap
  reads 127.  curve: the exponent that puts the median soft slap at velocity 40.
- scan time: 1.5 × the slowest rise from onset to peak, one frame added (1–3 ms).
- report latency: scan + crosstalk window (+ another pad's scan) longer than the
  default settle window leaves the board (``hal.timing.PADBOARD_REPORT_US``) gives the
  settle window the cabinet then needs, :func:`settle_needed_us` (contact lead + that
  hold + transport, whole ms up): the profile carries it and the cabinet raises
  ``[padboard] settle_us`` to it while the profile is in force.
- the threshold looks only at the slaps the operator meant (:func:`intended`): a ring's
  bump or a palm's second contact, found between the slaps, is never the softest slap.
- mask time and the ring model: a short mask (2–9 ms: the strike's own swings; longer,
  with a warning, for a pad whose strike itself rings longer) and,
  after it, ``threshold + peak × pct/100 × exp(−t/decay)`` for ``ring_hold_ms``, such that
  every recorded ring, × 2 (6 dB, for a harder slap than any recorded), stays under the
  line after the mask, while every real slap of the flurry stays 25 % over it and its
  gap is ≥ 1.5 × the mask; of those, the one that asks least of a slap 20 ms after a
  full-force one.  The hold is where even a full-force slap's line falls under a quarter
  of the threshold.  A hit within 45 ms of a slap and under ``second_pct`` % of it is the
  palm landing again (30 %, lower if a real flurry slap came that weak).
- every value is reported as applied (the settings' ranges clamp nothing afterwards).
- crosstalk: the receiving pad's strongest ratio (its peak ÷ the slapped pad's peak)
  × 1.5 (+3.5 dB), as a percentage; off (0) when no neighbour's slap, scaled to a
  full-force slap, could reach this pad's threshold.  The same rule per slapped pad gives
  each pair its own ratio (a far pad shakes this one less than its neighbour, and a real
  slap on it must not be taken for crosstalk).  The window covers the latest
  crosstalk peak seen, or the latest time a crosstalk ring within half a noise peak of the
  threshold could first cross it (the peak delay × 1.5), + 1 ms, at most 6 ms.
- baseline: the slowest IIR (largest shift, 10 at most) whose lag behind the drift at
  rest costs ≤ 10 % more noise peak than the fastest.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass, field

from calibration.analysis import RAIL, CrosstalkSeen, Event, NoiseStats, decay_tau_us
from hal.padboard.settings import PadSettings
from hal.timing import PADBOARD_CONTACT_LEAD_US, PADBOARD_REPORT_US, PADBOARD_SETTLE_US, PADBOARD_TRANSPORT_US

NOISE_MARGIN = 2.0  # threshold ≥ noise peak × 2 (+6 dB)
SOFT_MARGIN = 2.0  # threshold ≤ softest slap ÷ 2 (−6 dB)
RING_MARGIN = 1.25  # crosstalk over threshold, real flurry slaps over the retrigger line
RING_SAFETY = 2.0  # a ring under the retrigger line (a harder slap rings longer, noise rides on it: +6 dB)
GAP_MARGIN = 1.5
XTALK_MARGIN = 1.5
SOFT_VELOCITY = 40
WINDOW_MAX_US = 6000  # scan + window delay each report: past PADBOARD_REPORT_US the review names the settle_us needed
MAX_SOURCES = 4  # pads a board has, and settings name one by one (xtalk_from0..3)
DECAYS_MS = tuple(range(2, 41)) + tuple(range(45, 66, 5))  # the ring's time constant (decay_us ≤ 65,535)
MASKS_MS = (*range(2, 10), 12, 15, 20, 25, 30, 40, 50, 65)
PCT_MAX = 400  # the ring model's share may exceed the peak: a strike that rings on at its own height, doubled
SHORT_MASK_MS = 9  # any mask up to this that works is taken before a longer one: fast slapping counts
FAST_MS = 20  # the ring model is judged by what it asks of a slap this long after a full-force one
HOLD_FRACTION = 4  # the ring model holds until a full-force slap's line is under threshold / this
HOLD_MAX_MS = 2000
SECOND_PCT = 30  # a hit under this % of the slap just before it (within SECOND_US) is a second contact
SECOND_US = 45_000  # the board's SECOND_CONTACT_US
BUMP_US = 400_000  # an event this soon after a slap, ...
BUMP_SHARE = 0.35  # ... under this share of it, is its ring's bump or the palm's second contact


def db(ratio: float) -> float:
    return 20 * math.log10(ratio) if ratio > 0 else float("-inf")


@dataclass(frozen=True)
class PadFit:
    """The chosen settings of one pad and why."""

    pad: int
    settings: PadSettings
    reasons: tuple[str, ...]
    margins: dict[str, float]
    warnings: tuple[str, ...] = ()
    problems: tuple[str, ...] = ()  # the fit could not meet a rule: calibration fails
    ring_tau_us: float | None = None
    extra: dict[str, float] = field(default_factory=dict)
    settle_us: int | None = None
    """The ``[padboard] settle_us`` these settings need, where more than the default."""

    @property
    def ok(self) -> bool:
        return not self.problems


def _round_up(x: float, step: int) -> int:
    return int(math.ceil(x / step) * step)


def fit_threshold(
    noise: NoiseStats, own: Sequence[Event], xt: Sequence[CrosstalkSeen]
) -> tuple[int, list[str], dict[str, float], list[str]]:
    reasons, warnings, problems = [], [], []
    npk = max(noise.peak, 1)
    soft_min = min(e.peak for e in own)
    lo = NOISE_MARGIN * npk
    hi = soft_min / SOFT_MARGIN
    xt_max = max((x.peak for x in xt), default=0)
    if lo <= hi:
        t = math.sqrt(lo * hi)
        why = "midway (in dB) between +6 dB over the noise peak and −6 dB under the softest slap"
        if xt_max * RING_MARGIN > t:
            t2 = min(hi, xt_max * RING_MARGIN)
            if t2 > t:
                t = t2
                why = (
                    f"raised over the largest crosstalk peak ({xt_max}) with 2 dB to spare"
                    if t2 >= xt_max * RING_MARGIN
                    else f"raised toward the largest crosstalk peak ({xt_max}) as far as the soft slaps allow; "
                    "crosstalk cancel drops the rest"
                )
    else:
        t = math.sqrt(npk * soft_min)
        why = "squeezed: soft slaps and noise are less than 12 dB apart, so it sits midway"
        if soft_min / npk < 2.0:
            problems.append(
                f"soft slaps ({soft_min}) barely rise over the noise at rest ({npk}): "
                "the pad is too noisy or too insensitive"
            )
        else:
            warnings.append(
                f"only {db(t / npk):.1f} dB over the noise and {db(soft_min / t):.1f} dB under the softest slap"
            )
    thr = max(1, int(round(t)))
    margins = {"noise_db": db(thr / npk), "soft_db": db(soft_min / thr)}
    reasons.append(
        f"threshold {thr}: {margins['noise_db']:+.1f} dB over the noise peak at rest ({npk}, σ {noise.sigma:.0f}), "
        f"{margins['soft_db']:.1f} dB under the softest slap ({soft_min}); {why}"
    )
    return thr, reasons, margins, warnings + [f"PROBLEM {p}" for p in problems]


def fit_velocity(thr: int, soft: Sequence[Event], hard: Sequence[Event]) -> tuple[int, int, list[str], list[str]]:
    warnings = []
    hard_peaks = sorted(e.peak for e in hard) or [thr * 8]
    sens = int(statistics.median(hard_peaks))
    cap = int(RAIL * 0.97)
    clipped = sum(1 for e in hard if e.clipped)
    if sens > cap:
        sens = cap
    sens = max(sens, thr + 2)
    soft_med = statistics.median(e.peak for e in soft) if soft else (thr + sens) / 2
    x = (soft_med - thr) / (sens - thr)
    if 0 < x < 1:
        curve = int(round(100 * math.log((SOFT_VELOCITY - 1) / 126) / math.log(x)))
        curve = max(25, min(400, curve))
    else:
        curve = 100
        warnings.append("soft and hard slaps were not told apart: linear curve kept")
    reasons = [
        f"sensitivity {sens}: the median hard slap ({int(statistics.median(hard_peaks))}, range "
        f"{hard_peaks[0]}–{hard_peaks[-1]}) reads 127"
        + (f"; {clipped} of {len(hard)} hard slaps hit the ADC rail" if clipped else ""),
        f"curve {curve}: the median soft slap ({int(soft_med)}) reads about {SOFT_VELOCITY}",
    ]
    return sens, curve, reasons, warnings


def fit_scan(own: Sequence[Event], period_us: int) -> tuple[int, str]:
    rise = max(e.peak_us - e.onset_us for e in own)
    scan = max(1000, min(3000, _round_up(rise * 1.5 + period_us, 250)))
    return scan, f"scan {scan / 1000:.2f} ms: the slowest rise from onset to peak took {rise / 1000:.2f} ms (× 1.5)"


def intended(events: Sequence[Event]) -> list[Event]:
    """The slaps the operator meant, in time order: an event within ``BUMP_US`` after a
    slap and under ``BUMP_SHARE`` of it is that slap's ring bump or second contact."""
    out: list[Event] = []
    for e in sorted(events, key=lambda e: e.onset_us):
        if not any(0 < e.onset_us - o.onset_us <= BUMP_US and e.peak < BUMP_SHARE * o.peak for o in out):
            out.append(e)
    return out


@dataclass(frozen=True)
class RingFit:
    """The mask, the ring model and the second-contact share chosen for one pad."""

    mask_us: int
    pct: int
    decay_us: int
    hold_ms: int
    second_pct: int
    reasons: tuple[str, ...]
    problems: tuple[str, ...]
    flurry_gap_x_mask: float
    warnings: tuple[str, ...] = ()


def _ring_excess(thr: int, rings: Sequence[tuple[int, tuple[int, ...]]]) -> list[tuple[int, list[tuple[int, float]]]]:
    """Per ring, ``(peak, [(ms, how far its envelope × RING_SAFETY is over the threshold)])``."""
    out = []
    for pk, env in rings:
        over = [(k, e * RING_SAFETY - thr) for k, e in enumerate(env) if e * RING_SAFETY > thr]
        if over and pk > 0:
            out.append((pk, over))
    return out


def _pct_needed(excess: Sequence[tuple[int, list[tuple[int, float]]]], mask_ms: int, tau_ms: int) -> int:
    """The smallest pct whose line covers every ring after ``mask_ms`` (may exceed 100)."""
    need = 0.0
    for pk, over in excess:
        for k, x in over:
            if k >= mask_ms:
                need = max(need, x / (pk * math.exp(-k / tau_ms)))
    return int(math.ceil(100 * need))


def fit_ring(
    thr: int, rings: Sequence[tuple[int, tuple[int, ...]]], flurry: Sequence[Event], full_peak: int = RAIL
) -> RingFit:
    """Mask, ring model and second-contact share from ``rings`` (peak, envelope per ms)
    and the flurry's real slaps (see the module docstring)."""
    pairs = [(a.peak, b.onset_us - a.onset_us, b.peak) for a, b in zip(flurry, flurry[1:])]
    fastest = min((g for _, g, _ in pairs), default=None)
    excess = _ring_excess(thr, rings)
    best: tuple[tuple[bool, bool, float, int], int, int, int] | None = None
    for mask_ms in MASKS_MS:
        for tau in DECAYS_MS:
            pct = _pct_needed(excess, mask_ms, tau)
            if pct > PCT_MAX:
                continue
            ok = all(
                g >= GAP_MARGIN * mask_ms * 1000
                and p2 >= RING_MARGIN * (thr + p1 * pct / 100 * math.exp(-g / 1000 / tau))
                for p1, g, p2 in pairs
            )
            cost = (not ok, mask_ms > SHORT_MASK_MS, full_peak * pct / 100 * math.exp(-FAST_MS / tau), mask_ms)
            if best is None or cost < best[0]:
                best = (cost, mask_ms, pct, tau)
    problems = []
    warnings = []
    if best is None:  # no line covers the rings past the longest mask
        mask_ms, pct, tau = MASKS_MS[-1], PCT_MAX, DECAYS_MS[-1]
        problems.append(
            f"the pad rings over its own slap's level for more than {mask_ms} ms: a ring would count as a new "
            "slap; damp the pad (foam under it, tighter mount)"
        )
    else:
        (failed, _long, _x, _m), mask_ms, pct, tau = best
        if failed:
            problems.append(
                f"the pad rings longer than the fastest flurry gap allows ({(fastest or 0) / 1000:.0f} ms): "
                "fast slaps would be lost; damp the pad (foam under it, tighter mount)"
            )
    if mask_ms > SHORT_MASK_MS:
        warnings.append(
            f"mask {mask_ms} ms: this pad's own strike rings that long, so slaps on it closer than "
            f"{mask_ms * GAP_MARGIN:.0f} ms apart are lost; a damped pad (foam under it) allows a shorter one"
        )
    line = full_peak * pct / 100
    hold = 0 if pct == 0 else min(HOLD_MAX_MS, max(1, math.ceil(tau * math.log(max(1.0, line * HOLD_FRACTION / thr)))))
    quick = [p2 / p1 for p1, g, p2 in pairs if g < SECOND_US and p1 > 0]
    second = SECOND_PCT
    if quick and min(quick) * 100 < SECOND_PCT * RING_MARGIN:
        second = max(0, int(min(quick) * 100 / RING_MARGIN))
    at_fast = int(line * math.exp(-FAST_MS / tau))
    reasons = (
        f"mask {mask_ms} ms: after a slap nothing new counts on this pad for {mask_ms} ms (its strike's own swings)"
        + (f"; the fastest real gap in the flurry was {fastest / 1000:.0f} ms" if fastest else ""),
        (
            f"ring model {pct} % of the slap's peak, decaying with {tau} ms, for {hold} ms: after the mask a new "
            f"slap must rise that much over the threshold, which every recorded ring (× 2) stays under; 20 ms "
            f"after a full-force slap a new one needs {at_fast} counts over the threshold"
            if pct
            else f"ring model off (0 %, {tau} ms, {hold} ms): every recorded ring is under the threshold once the mask ends"
        ),
        f"second contact {second} %: a hit within {SECOND_US // 1000} ms of a slap and under {second} % of it is the "
        "palm landing again, not a slap"
        + (f" (lowered: a real flurry slap came at {min(quick):.0%} of the one before)" if second < SECOND_PCT else ""),
    )
    return RingFit(
        mask_ms * 1000,
        pct,
        tau * 1000,
        hold,
        second,
        reasons,
        tuple(problems),
        (fastest / (mask_ms * 1000)) if fastest else float("nan"),
        tuple(warnings),
    )


def fit_crosstalk(thr: int, xt: Sequence[CrosstalkSeen], noise_peak: int = 0) -> tuple[int, int, list[str], list[str]]:
    warnings: list[str] = []
    seen = len(xt)
    xt = [x for x in xt if x.peak > 1.5 * noise_peak]  # the rest is this pad's own noise
    if seen and not xt:
        return 0, 2000, [f"crosstalk cancel off: none of {seen} neighbour slaps showed here above the noise"], warnings
    if not xt:
        return 50, 2000, ["crosstalk cancel left at 50 %: no neighbour was slapped during calibration"], warnings
    clear = [x for x in xt if x.peak >= 3 * noise_peak] or xt  # ratios not inflated by this pad's noise
    near = [x for x in clear if x.peak * RING_MARGIN >= thr / 2] or clear
    worst = max(near, key=lambda x: x.ratio)
    # scale each observation to a full-force slap: the source at the rail
    full = max(
        x.peak * (RAIL / max(1, x.source_peak)) if x.source_peak < RAIL * 0.9 else x.peak * XTALK_MARGIN for x in xt
    )
    reach = [x for x in xt if x.peak * RING_MARGIN >= thr]
    if full < thr / RING_MARGIN:
        return (
            0,
            2000,
            [
                f"crosstalk cancel off: the strongest neighbour slap put only {max(x.peak for x in xt)} here "
                f"(even at full force about {int(full)}, 2 dB under the threshold)"
            ],
            warnings,
        )
    pct = int(math.ceil(worst.ratio * 100 * XTALK_MARGIN))
    if pct > 100:
        pct = 100
        warnings.append(
            f"crosstalk from pad {worst.source + 1} reaches {worst.ratio:.0%} of the slap itself: "
            "move the pads apart or decouple them from the table"
        )
    # a crosstalk that barely reaches the threshold is stamped near its peak, or on a later
    # half-cycle of its ring that noise lifts over the threshold
    slowest = max((x.peak_delay_us for x in clear if x.peak * RING_MARGIN >= thr), default=0)
    late = max((latest_first_crossing_us(x.envelope, thr, noise_peak) for x in xt), default=0)
    # +1 ms: the board stamps the real slap up to a frame or so earlier than we see it
    window = max(1500, _round_up(max(1.5 * slowest, late) + 1000, 250))
    slowest = max(slowest, late)
    if window > WINDOW_MAX_US:
        warnings.append(
            f"crosstalk arrives up to {slowest / 1000:.1f} ms late; the window is capped at "
            f"{WINDOW_MAX_US / 1000:.0f} ms (it delays every report)"
        )
        window = WINDOW_MAX_US
    reasons = [
        f"crosstalk cancel {pct} %: a slap on pad {worst.source + 1} put {worst.peak} here, {worst.ratio:.0%} of its own "
        f"peak ({worst.source_peak}); × 1.5 for margin; {len(reach)} of {len(xt)} neighbour slaps reached the threshold",
        f"crosstalk window {window / 1000:.2f} ms: it peaked, or could first cross the threshold, at most "
        f"{slowest / 1000:.2f} ms after the real slap's onset (+ 1 ms)",
    ]
    return pct, window, reasons, warnings


def crosstalk_by_source(thr: int, xt: Sequence[CrosstalkSeen], noise_peak: int = 0) -> dict[int, int]:
    """The crosstalk ratio (pct, as :func:`fit_crosstalk` chooses it) of each slapped pad
    seen, for the pads the settings can name (0–3)."""
    out = {}
    for src in sorted({x.source for x in xt if x.source < MAX_SOURCES}):
        out[src] = fit_crosstalk(thr, [x for x in xt if x.source == src], noise_peak)[0]
    return out


def latest_first_crossing_us(env: Sequence[int], thr: int, noise_peak: int) -> int:
    """The latest time a crosstalk ring may first cross the threshold: surely once its
    envelope is half a noise peak over it; possibly wherever it is within half a noise
    peak under it (the envelope bins overlap by 3 ms, so the crossing is in the last
    bin's first ms)."""
    margin = noise_peak / 2
    certain = next((k for k, e in enumerate(env) if e >= thr + margin), len(env))
    possible = [k for k, e in enumerate(env[: certain + 1]) if e >= thr - margin]
    return (possible[-1] + 1) * 1000 if possible else 0


def fit_pad(
    pad: int,
    noise: NoiseStats,
    soft: Sequence[Event],
    hard: Sequence[Event],
    flurry: Sequence[Event],
    xt: Sequence[CrosstalkSeen],
    base: PadSettings,
    period_us: int = 250,
) -> PadFit:
    soft, hard, flurry = intended(soft), intended(hard), intended(flurry)
    own = [*soft, *hard, *flurry]
    # the slaps' rings (a bump's or a second contact's envelope is its slap's ring, which
    # the slap's line covers: the board drops the second contact and keeps that line)
    rings = [(e.peak, e.envelope) for e in own]
    if not own:
        return PadFit(pad, base, (), {}, (), ("no slaps were seen on this pad",))
    thr, reasons, margins, warns = fit_threshold(noise, [*soft, *flurry] or own, xt)
    sens, curve, r2, w2 = fit_velocity(thr, soft, hard)
    scan, r3 = fit_scan(own, period_us)
    rings += [(x.peak, x.envelope) for x in xt if x.peak >= thr]
    ring = fit_ring(thr, rings, flurry)
    r4 = list(ring.reasons)
    w4 = [*ring.warnings, *(f"PROBLEM {p}" for p in ring.problems)]
    m4 = {"flurry_gap_x_mask": ring.flurry_gap_x_mask}
    xpct, xwin, r5, w5 = fit_crosstalk(thr, xt, noise.peak)
    froms = crosstalk_by_source(thr, xt, noise.peak) if xpct else {}
    if froms:
        r5 = [
            *r5,
            "crosstalk per pad: "
            + ", ".join(f"from pad {src + 1} {pct} %" for src, pct in sorted(froms.items()))
            + " (each pair's own ratio × 1.5: a far pad shakes this one less)",
        ]
    settings = PadSettings(
        threshold=min(thr, 65535),
        sensitivity=max(2, min(sens, 65535)),
        curve=curve,
        scan_us=scan,
        mask_us=ring.mask_us,
        retrigger_pct=ring.pct,
        retrigger_decay_us=ring.decay_us,
        ring_hold_ms=ring.hold_ms,
        second_pct=ring.second_pct,
        xtalk_pct=xpct,
        xtalk_window_us=xwin,
        baseline_shift=noise.shift,
        **{f"xtalk_from{src}": pct for src, pct in froms.items()},
    )
    latency = max(scan, xwin if xpct else 0) + (scan if xpct else 0)
    settle = None
    if latency > PADBOARD_REPORT_US:
        settle = settle_needed_us(latency)
        r5 = [
            *r5,
            f"settle window {settle / 1000:.0f} ms: the board holds this pad's hits up to {latency / 1000:.1f} ms "
            f"after the slap (crosstalk window or scan, plus another pad's scan), more than the "
            f"{PADBOARD_REPORT_US / 1000:.0f} ms the default {PADBOARD_SETTLE_US / 1000:.0f} ms leaves it; "
            f"{PADBOARD_CONTACT_LEAD_US / 1000:.0f} ms contact + {latency / 1000:.1f} ms held + "
            f"{PADBOARD_TRANSPORT_US / 1000:.0f} ms transport: the profile raises [padboard] settle_us to it",
        ]
    floor = max(thr / 4, noise.peak)
    tau = decay_tau_us([e.envelope for e in own], floor)
    reasons_all = [
        *reasons,
        *r2,
        r3,
        *r4,
        *r5,
        f"baseline follow 1/2^{noise.shift} per sample: drift at rest {noise.drift_per_s:.0f} counts/s",
    ]
    if tau is not None:
        reasons_all.append(f"the ring decays with τ about {tau / 1000:.1f} ms")
    warnings = [w for w in [*warns, *w2, *w4, *w5] if not w.startswith("PROBLEM ")]
    problems = [w[len("PROBLEM ") :] for w in [*warns, *w4] if w.startswith("PROBLEM ")]
    return PadFit(
        pad, settings, tuple(reasons_all), {**margins, **m4}, tuple(warnings), tuple(problems), tau, settle_us=settle
    )


def settle_needed_us(held_us: int) -> int:
    """The settle window a padboard needs when it holds a hit ``held_us`` before sending
    it: the contact stamp's lead, the hold, the transport (as ``PADBOARD_SETTLE_US`` is
    made of), rounded up to a whole ms.  The default hold gives the default window."""
    return math.ceil((PADBOARD_CONTACT_LEAD_US + held_us + PADBOARD_TRANSPORT_US) / 1000) * 1000

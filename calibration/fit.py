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
- mask time and retrigger: among masks for which every recorded ring, × 2 (6 dB,
  for a harder slap than any recorded), stays under ``max(threshold, peak × pct × exp(−t/decay))`` after the mask, while every real
  slap of the flurry stays 25 % over it and its gap is ≥ 1.5 × the mask, the pair that
  re-opens the pad soonest (to a slap at the threshold) after the hardest slap seen.
  Only what the board can hold is searched (a mask and a fade of at most 65.5 ms): a ring
  that needs more is covered with 3 dB, and the review says so; one that the board
  cannot cover so gets its longest mask and slowest fade, said as limited.
- ring model, wherever the ring's time constant was fitted and that line's mask is
  longer (a long ring, or a short one whose palm's second contact the mask had to
  cover: 46–48 ms, which swallows fast slaps) or the line is limited or refused: a short
  mask (the scan + 3 ms), the retrigger line fading with the ring's own time constant
  from the share of the peak that keeps every recorded ring (before a second contact
  can come, 25 ms) 25 % under it (the peak itself where no ring stands over the
  threshold after the mask), over the threshold, and second contacts (a rise under 30 %
  of the slap before it over its ring) told apart from slaps (:func:`fit_ring_model`;
  issue 31).  Where that line too would need more than the board holds (over 400 %),
  the limited mask and line stay.

- crosstalk: the receiving pad's strongest ratio (its peak ÷ the slapped pad's peak)
  × 1.5 (+3.5 dB), as a percentage; off (0) when no neighbour's slap, scaled to a
  full-force slap, could reach this pad's threshold.  The same rule per slapped pad gives
  each pair its own ratio (a far pad shakes this one less than its neighbour, and a real
  slap on it must not be taken for crosstalk).  The window covers the latest
  crosstalk peak seen, or the latest time a crosstalk ring within half a noise peak of the
  threshold could first cross it (the peak delay × 1.5), + 1 ms, at most 6 ms.
- baseline: the slowest IIR (largest shift, 10 at most) whose lag behind the drift at
  rest costs ≤ 10 % more noise peak than the fastest.

Every value is said as applied, with what it means (:data:`MEANING`); a value the board
cannot take as fitted is limited to its range (:func:`on_board`) and the review says
what was wanted, what was applied and what it means for the player.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass, field

from calibration.analysis import RAIL, CrosstalkSeen, Event, NoiseStats, decay_tau_us
from hal.padboard import wire
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
PCTS = (0, 25, 40, 50, 60, 75, 90, 100)
MAX_SOURCES = 4  # pads a board has, and settings name one by one (xtalk_from0..3)
LIMITS = {name: (lo, hi) for name, _d, lo, hi in wire.SETTINGS_FIELDS}
"""What the board can hold of each setting (16-bit fields and their ranges)."""
MASK_MAX_US = LIMITS["mask_us"][1]
DECAYS_MS = tuple(d for d in (*range(2, 41), *range(45, 101, 5)) if d * 1000 <= LIMITS["retrigger_decay_us"][1])
RING_SAFETIES = ((RING_SAFETY, "6 dB"), (2**0.5, "3 dB"))
"""The ring's margin under the retrigger line, the most first: less only where the board's
longest mask and fade cannot give more (a ring level with the line is one noise spike from
a double: no less than 3 dB)."""

MEANING = {
    "threshold": "a slap counts once the signal rises this far, in ADC counts, over the pad's resting level",
    "sensitivity": "a slap this strong, or stronger, reads as the hardest (velocity 127)",
    "curve": "how velocities spread between the softest slap and the hardest",
    "scan": "how long after a slap starts the board looks for its peak, the slap's strength",
    "mask": "how long after a slap the pad takes no new slap, so its own ring is not one",
    "retrigger": "after the mask, a new slap must rise over this line, fading from the last slap's peak",
    "crosstalk cancel": "a hit this weak beside a slap on another pad is that slap shaking this pad, and is dropped",
    "crosstalk window": "how close two pads' hits must be for one to be the other's shaking",
    "baseline follow": "how fast the pad's resting level is followed as it wanders",
    "onset curve": "the time from the palm touching the pad to the moment the board times, taken off every stamp",
    "lobe delay": "the time from the palm touching the pad to a first swing against the main one, taken off a "
    "stamp the board times on that swing",
    "ring": "how the pad rings on after a slap: a new slap must rise over that ring (the retrigger line follows it)",
    "second contact": "a rise this small over the ring after a slap is the palm touching again, not a slap",
}
"""What each fitted value means, in the operator's words (the review shows it beside the value)."""


def said(name: str, value: str, why: str) -> str:
    """A fitted value as the review shows it: its name, value, meaning and reason."""
    return f"{name} {value} ({MEANING[name]}): {why}"


def on_board(name: str, wanted: int, what: str) -> tuple[int, str | None]:
    """``wanted`` as the board can hold it (inside the setting's range), and when it had to
    be limited, a sentence saying so (``what``: what the limit means for the player)."""
    lo, hi = LIMITS[name]
    applied = min(hi, max(lo, wanted))
    if applied == wanted:
        return applied, None
    return applied, f"{name} limited to {applied} (the board holds at most {hi}; the fit wanted {wanted}): {what}"


def limited(warnings: Sequence[str]) -> list[str]:
    """The values named as limited by the board in ``warnings`` (:func:`on_board`, :func:`fit_mask`)."""
    return [w.split(" limited ", 1)[0] for w in warnings if " limited " in w]


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
        said(
            "threshold",
            str(thr),
            f"{margins['noise_db']:+.1f} dB over the noise peak at rest ({npk}, σ {noise.sigma:.0f}), "
            f"{margins['soft_db']:.1f} dB under the softest slap ({soft_min}); {why}",
        )
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
        said(
            "sensitivity",
            str(sens),
            f"the median hard slap ({int(statistics.median(hard_peaks))}, range "
            f"{hard_peaks[0]}–{hard_peaks[-1]}) reads 127"
            + (f"; {clipped} of {len(hard)} hard slaps hit the ADC rail" if clipped else ""),
        ),
        said("curve", str(curve), f"the median soft slap ({int(soft_med)}) reads about {SOFT_VELOCITY}"),
    ]
    return sens, curve, reasons, warnings


def fit_scan(own: Sequence[Event], period_us: int) -> tuple[int, str]:
    rise = max(e.peak_us - e.onset_us for e in own)
    scan = max(1000, min(3000, _round_up(rise * 1.5 + period_us, 250)))
    return scan, said(
        "scan", f"{scan / 1000:.2f} ms", f"the slowest rise from onset to peak took {rise / 1000:.2f} ms (× 1.5)"
    )


def _last_violation_ms(
    env: Sequence[int], peak: int, thr: int, pct: int, decay_ms: int, safety: float = RING_SAFETY
) -> int:
    """The first ms from which the ring, × ``safety``, stays under the retrigger line.

    Walked from the ring's end back to its last ms over the line: the mask search asks
    this for every (pct, decay) it tries, and the ring's quiet tail costs no ``exp``."""
    for k in range(len(env) - 1, -1, -1):
        need = env[k] * safety
        if need < thr:
            continue
        line = peak * pct / 100 * math.exp(-k / decay_ms) if pct else 0.0
        if need >= max(thr, line):
            return k + 1
    return 0


Choice = tuple[tuple[int, int], int, int, int]  # (re-open time, mask), mask, pct, decay ms


def _search(
    thr: int,
    scan_us: int,
    rings: Sequence[tuple[int, tuple[int, ...]]],
    pairs: Sequence[tuple[int, int, int]],
    safety: float,
) -> tuple[Choice | None, Choice | None]:
    """The best (mask, pct, decay) that covers every ring × ``safety`` inside the board's
    mask and passes the flurry, and the best that covers the rings alone."""
    p_ref = max((pk for pk, _ in rings), default=thr)
    best: Choice | None = None
    fallback: Choice | None = None
    for pct in PCTS:
        for decay in DECAYS_MS if pct else (1,):
            need = max((_last_violation_ms(env, pk, thr, pct, decay, safety) for pk, env in rings), default=0)
            mask = max(need * 1000, scan_us + 1000)
            if mask > MASK_MAX_US:
                continue
            # how soon after the hardest slap a slap at the threshold counts again
            line = p_ref * pct / 100 / thr
            reopen = max(mask, int(decay * 1000 * math.log(line))) if pct and line > 1 else mask
            cost = (reopen, mask)
            if fallback is None or cost < fallback[0]:
                fallback = (cost, mask, pct, decay)
            if _flurry_passes(pairs, thr, mask, pct, decay) and (best is None or cost < best[0]):
                best = (cost, mask, pct, decay)
    return best, fallback


def _flurry_passes(pairs: Sequence[tuple[int, int, int]], thr: int, mask: int, pct: int, decay: int) -> bool:
    """Every flurry slap ``(peak before, gap, peak)`` comes 1.5 masks after the one before
    and 25 % over its retrigger line."""
    return all(
        g >= GAP_MARGIN * mask
        and p2 >= RING_MARGIN * max(thr, p1 * pct / 100 * math.exp(-g / 1000 / decay) if pct else 0)
        for p1, g, p2 in pairs
    )


def fit_mask(
    thr: int,
    scan_us: int,
    rings: Sequence[tuple[int, tuple[int, ...]]],
    flurry: Sequence[Event],
) -> tuple[int, int, int, list[str], list[str], dict[str, float]]:
    """Mask, retrigger pct and decay from ``rings`` (peak, envelope per ms) and the flurry,
    inside what the board can hold."""
    pairs = [(a.peak, b.onset_us - a.onset_us, b.peak) for a, b in zip(flurry, flurry[1:])]
    fastest = min((g for _, g, _ in pairs), default=None)
    warnings: list[str] = []
    problems = []
    damp = "damp the pad (foam under it, tighter mount)"
    best = fallback = None
    margin = ""
    for safety, words in RING_SAFETIES:
        best, fallback = _search(thr, scan_us, rings, pairs, safety)
        if fallback is not None:
            margin = words
            break
    longest = max((_last_violation_ms(env, pk, thr, 0, 1, 1.0) for pk, env in rings), default=0)
    slowest = DECAYS_MS[-1]
    if fallback is None:  # no mask the board holds covers the ring, even with 3 dB
        wanted = max(_last_violation_ms(env, pk, thr, 100, slowest, RING_SAFETIES[-1][0]) for pk, env in rings)
        p_ref = max((pk for pk, _ in rings), default=thr)
        reopen = max(MASK_MAX_US, int(slowest * 1000 * math.log(max(p_ref / thr, 1.0))))
        fallback = ((reopen, MASK_MAX_US), MASK_MAX_US, 100, slowest)
        best = fallback if _flurry_passes(pairs, thr, MASK_MAX_US, 100, slowest) else None
        warnings.append(
            f"mask limited to {MASK_MAX_US / 1000:g} ms (the board holds at most that): this pad's ring needs a "
            f"mask of {wanted} ms to stay 3 dB under the retrigger line fading as slowly as the board allows "
            f"({slowest} ms); "
            f"a hard slap's ring may be counted twice: {damp}"
        )
    elif margin != "6 dB":
        warnings.append(
            f"mask and retrigger limited by the board: the ring stays only {margin} under the retrigger line (6 dB wanted): the board holds a mask of "
            f"at most {MASK_MAX_US / 1000:g} ms and a fade of at most {slowest} ms; a slap harder than the hard "
            f"ones may be counted twice: {damp}"
        )
    if best is None:
        assert fallback is not None
        assert fastest is not None  # with no flurry gaps every choice fits: a gap failed them all
        best = fallback
        problems.append(
            f"the pad rings longer than the fastest flurry gap allows ({fastest / 1000:.0f} ms): "
            f"fast slaps would be lost; {damp}"
        )
    (reopen, _), mask, pct, decay = best
    if not margin:
        covered = "no mask the board holds keeps every recorded ring 3 dB under the retrigger line"
    else:
        covered = f"every recorded ring stays {margin} under the retrigger line after it"
    reasons = [
        said(
            "mask",
            f"{mask / 1000:g} ms",
            f"{covered} (the longest stayed over the threshold for {longest} ms)"
            + (
                f"; the fastest real gap in the flurry was {fastest / 1000:.0f} ms ({fastest / mask:.1f}× the mask)"
                if fastest
                else ""
            ),
        ),
        (
            said(
                "retrigger",
                f"{pct} % of the peak decaying with {decay} ms",
                "rides over the ring after the mask and under every following real slap; after the hardest slap "
                f"a threshold-level slap counts again after {reopen / 1000:.0f} ms",
            )
            if pct
            else said("retrigger", "off", "the ring is under the threshold once the mask ends")
        ),
    ]
    margins = {"flurry_gap_x_mask": (fastest / mask) if fastest else float("nan")}
    return mask, pct, decay * 1000 if pct else 15000, reasons, warnings + [f"PROBLEM {p}" for p in problems], margins


RING_MASK_US = 3000  # the ring model's mask after the scan: the strike's own first swings
RING_BEFORE_SECOND_MS = 25  # the ring is read before a palm's second contact can come (26 ms on)
SECOND_PCT = 30  # a second contact rises 10–17 % of the slap over its ring (issue 31): 30 % tells it apart


def fit_ring_model(
    thr: int, scan_us: int, tau_us: float, own: Sequence[Event], flurry: Sequence[Event]
) -> tuple[int, int, int, int, list[str], list[str]]:
    """Mask, retrigger pct and decay, second-contact pct of the ring model (module
    docstring) from the pad's own slaps ``own``, their ring's fitted ``tau_us`` and the
    flurry (whose real slaps must clear the line and count as slaps), with the review's
    reasons and warnings.  Where no recorded ring stands over the threshold after the
    mask (a ring of a few ms), the line starts at the peak itself: the ring's own fade."""
    decay, _ = on_board("retrigger_decay_us", round(tau_us), "")
    mask = scan_us + RING_MASK_US
    ratios = [
        e.envelope[k] / (e.peak * math.exp(-k * 1000 / tau_us))
        for e in own
        if e.peak > 0
        for k in range(math.ceil(mask / 1000), min(len(e.envelope), RING_BEFORE_SECOND_MS))
        if e.envelope[k] >= thr
    ]
    wanted = _round_up(max(ratios) * RING_MARGIN * 100, 5) if ratios else 100
    pct, limit = on_board("retrigger_pct", max(wanted, 100), "a hard slap's ring may be counted twice")
    warnings = [limit] if limit else []
    lost = [
        (p1, g, p2)
        for p1, g, p2 in ((a.peak, b.onset_us - a.onset_us, b.peak) for a, b in zip(flurry, flurry[1:]))
        if p2 < thr + max(pct / 100 * p1 * math.exp(-g / decay), p1 * math.exp(-g / decay) + SECOND_PCT / 100 * p1)
    ]
    if lost:
        warnings.append(
            f"{len(lost)} of the flurry's slaps did not rise over the ring line of the slap before them: "
            "fast slaps that soft after a hard one are not counted"
        )
    reasons = [
        said(
            "ring",
            f"τ {tau_us / 1000:.0f} ms, applied",
            f"the pad's own ring fades with τ {tau_us / 1000:.0f} ms: the retrigger line below follows it, and "
            "second contacts are told apart from slaps, so the mask can be short enough for fast slaps",
        ),
        said("mask", f"{mask / 1000:g} ms", "the scan and 3 ms: the strike's own first swings"),
        said(
            "retrigger",
            f"{pct} % of the peak decaying with {decay / 1000:g} ms, over the threshold",
            f"the ring's own fade; every recorded ring stayed {db(pct / 100 / max(ratios)):.1f} dB under it "
            f"(the first {RING_BEFORE_SECOND_MS} ms, before a second contact)"
            if ratios
            else "the ring's own fade from the peak; no recorded ring stood over the threshold once the mask ended",
        ),
        said(
            "second contact",
            f"{SECOND_PCT} %",
            "a palm touches again 10–40 ms after a slap at 10–17 % of it: what rises less than this share of "
            "the slap over its ring is that, not a slap",
        ),
    ]
    return mask, pct, decay, SECOND_PCT, reasons, warnings


def fit_crosstalk(thr: int, xt: Sequence[CrosstalkSeen], noise_peak: int = 0) -> tuple[int, int, list[str], list[str]]:
    warnings: list[str] = []
    seen = len(xt)
    xt = [x for x in xt if x.peak > 1.5 * noise_peak]  # the rest is this pad's own noise
    if seen and not xt:
        return (
            0,
            2000,
            [said("crosstalk cancel", "off", f"none of {seen} neighbour slaps showed here above the noise")],
            warnings,
        )
    if not xt:
        return (
            50,
            2000,
            [said("crosstalk cancel", "left at 50 %", "no neighbour was slapped during calibration")],
            warnings,
        )
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
                said(
                    "crosstalk cancel",
                    "off",
                    f"the strongest neighbour slap put only {max(x.peak for x in xt)} here "
                    f"(even at full force about {int(full)}, 2 dB under the threshold)",
                )
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
        said(
            "crosstalk cancel",
            f"{pct} %",
            f"a slap on pad {worst.source + 1} put {worst.peak} here, {worst.ratio:.0%} of its own "
            f"peak ({worst.source_peak}); × 1.5 for margin; {len(reach)} of {len(xt)} neighbour slaps reached the threshold",
        ),
        said(
            "crosstalk window",
            f"{window / 1000:.2f} ms",
            f"it peaked, or could first cross the threshold, at most {slowest / 1000:.2f} ms after the real slap's "
            "onset (+ 1 ms)",
        ),
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
    own = [*soft, *hard, *flurry]
    if not own:
        return PadFit(pad, base, (), {}, (), ("no slaps were seen on this pad",))
    thr, reasons, margins, warns = fit_threshold(noise, [*soft, *flurry] or own, xt)
    sens, curve, r2, w2 = fit_velocity(thr, soft, hard)
    scan, r3 = fit_scan(own, period_us)
    rings = [(e.peak, e.envelope) for e in own] + [(x.peak, x.envelope) for x in xt if x.peak >= thr]
    mask, pct, decay, r4, w4, m4 = fit_mask(thr, scan, rings, flurry)
    floor = max(thr / 4, noise.peak)
    tau = decay_tau_us([e.envelope for e in own], floor)
    second = 0
    ring_model = fit_ring_model(thr, scan, tau, own, flurry) if tau is not None else None
    line_fails = limited(w4) or any(w.startswith("PROBLEM ") for w in w4)
    if ring_model is not None and not limited(ring_model[5]) and (line_fails or ring_model[0] < mask):
        mask, pct, decay, second, r4, w4 = ring_model
    else:
        ring_model = None
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
        threshold=thr,
        sensitivity=sens,
        curve=curve,
        scan_us=scan,
        mask_us=mask,
        retrigger_pct=pct,
        retrigger_decay_us=decay,
        xtalk_pct=xpct,
        xtalk_window_us=xwin,
        baseline_shift=noise.shift,
        second_pct=second,
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
    reasons_all = [
        *reasons,
        *r2,
        r3,
        *r4,
        *r5,
        said("baseline follow", f"1/2^{noise.shift} per sample", f"drift at rest {noise.drift_per_s:.0f} counts/s"),
    ]
    hold = ring_hold_us(own, tau, noise.peak)
    if tau is not None and ring_model is None:
        reasons_all.append(
            f"ring (for information, not applied: the mask and retrigger line above cover it): fades with "
            f"τ {tau / 1000:.0f} ms"
            + (f" and lasts about {hold / 1000:.0f} ms over the noise after the hardest slap" if hold else "")
        )
    warnings = [w for w in [*warns, *w2, *w4, *w5] if not w.startswith("PROBLEM ")]
    problems = [w[len("PROBLEM ") :] for w in [*warns, *w4] if w.startswith("PROBLEM ")]
    return PadFit(
        pad,
        settings,
        tuple(reasons_all),
        {**margins, **m4},
        tuple(warnings),
        tuple(problems),
        tau,
        {"ring_hold_us": hold} if hold else {},
        settle_us=settle,
    )


def ring_hold_us(own: Sequence[Event], tau_us: float | None, noise_peak: int) -> int | None:
    """How long the hardest slap's ring stays over the noise peak at rest: where its
    envelope falls under it, or, cut short by the next slap, where the fitted fade
    ``tau_us`` takes it there."""
    if not own or tau_us is None:
        return None
    e = max(own, key=lambda x: x.peak)
    floor = max(noise_peak, 1)
    under = next((k for k, v in enumerate(e.envelope) if v < floor), None)
    if under is not None:
        return under * 1000
    last = e.envelope[-1] if e.envelope else e.peak
    return int(len(e.envelope) * 1000 + tau_us * math.log(max(last, floor) / floor))


def settle_needed_us(held_us: int) -> int:
    """The settle window a padboard needs when it holds a hit ``held_us`` before sending
    it: the contact stamp's lead, the hold, the transport (as ``PADBOARD_SETTLE_US`` is
    made of), rounded up to a whole ms.  The default hold gives the default window."""
    return math.ceil((PADBOARD_CONTACT_LEAD_US + held_us + PADBOARD_TRANSPORT_US) / 1000) * 1000

"""Fitting every calibrated pad from all the captures of a wizard run.

Every capture records every pad, so the hard slaps on one pad are also the crosstalk
measurement of all the others ("slaps on each other pad while watching this one").
The pad's own prompted slaps, raw signal and the board's hits together, give its onset
curve (:mod:`calibration.onset_fit`); the other pads' prompted slaps seen on it give how
much of each to subtract before its edge is timed (:mod:`calibration.crosstalk_fit`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

from calibration.analysis import CrosstalkSeen, Event, NoiseStats, crosstalk_seen, find_events, noise_stats
from calibration.capture import Capture
from calibration.crosstalk_fit import Segment, clean_pct, fit_subtraction, segment
from calibration.diagnosis import Fault, diagnose
from calibration.fit import MAX_SOURCES, PadFit, fit_pad
from calibration.lobe_fit import fit_lobe
from calibration.onset_fit import fit_onset, probe_slaps, with_edge
from hal.padboard.settings import PadSettings

SHIFTS = (10, 9, 8, 7)


def choose_noise(cap: Capture, pad: int, period_us: int) -> NoiseStats:
    """Noise at the slowest baseline follow whose peak is within 10 % of the best."""
    stats = [noise_stats(cap.times, cap.samples[pad], s, period_us) for s in SHIFTS]
    best = min(s.peak for s in stats)
    return next(s for s in stats if s.peak <= best * 1.1)


def events_of(cap: Capture, pad: int, noise: NoiseStats, period_us: int) -> list[Event]:
    level = max(noise.peak * 1.5, noise.sigma * 6, 8)
    return find_events(pad, cap.times, cap.samples[pad], level, shift=noise.shift, period_us=period_us)


def prompted_slaps(evs: list[Event], noise: NoiseStats, prompted: int) -> list[Event]:
    """A prompted step's slaps: a rise under twice the noise peak at rest is the noise (hum
    on the drift, an unlucky sum), not a slap, when the prompted number of slaps stand
    over it (such a rise once set a plate's threshold at 1.2 × the noise peak, issue 31);
    else every event, and a pad too quiet to tell its slaps from the noise is refused as such."""
    over = [e for e in evs if e.peak >= 2 * noise.peak]
    return over if prompted and len(over) >= prompted else evs


def fit_all(
    captures: Sequence[Capture],
    targets: Sequence[int],
    base: Mapping[int, PadSettings],
    period_us: int = 250,
) -> tuple[dict[int, PadFit], dict[int, list[Fault]], dict[int, NoiseStats]]:
    rest = next(c for c in captures if c.kind == "rest")
    pads = sorted(rest.samples)
    noise = {p: choose_noise(rest, p, period_us) for p in pads}
    prompted = [c for c in captures if c.kind in ("soft", "hard", "flurry", "neighbours") and c.pad is not None]
    own: dict[int, dict[str, list[Event]]] = {p: {"soft": [], "hard": [], "flurry": []} for p in pads}
    rising: dict[int, dict[str, list[tuple[Event, Sequence[int], Sequence[int]]]]] = {p: {} for p in pads}
    for c in prompted:
        if c.kind == "neighbours":
            continue
        assert c.pad is not None  # prompted keeps only captures that name their pad
        evs = prompted_slaps(events_of(c, c.pad, noise[c.pad], period_us), noise[c.pad], c.prompted)
        own[c.pad][c.kind] += evs
        board_edges = c.edges_on(c.pad)
        rising[c.pad].setdefault(c.kind, []).extend(
            (e, *with_edge(c.times, c.samples[c.pad], board_edges, e.onset_us)) for e in evs
        )
    xt: dict[int, list[CrosstalkSeen]] = {p: [] for p in pads}
    segments: dict[int, dict[int, list[Segment]]] = {p: {} for p in pads}  # [pad][source]
    for c in prompted:
        assert c.pad is not None
        if c.kind == "neighbours":
            slapped = [p for p in pads if p != c.pad]
        else:
            slapped = [c.pad]
        for src in slapped:
            evs = (
                events_of(c, src, noise[src], period_us)
                if c.kind == "neighbours"
                else own_events(c, src, noise, period_us)
            )
            for p in pads:
                if p != src:
                    xt[p] += crosstalk_seen(p, evs, c.times, c.samples[p], noise[p].shift, period_us=period_us)
                    if c.kind != "neighbours" and src < MAX_SOURCES:
                        for e in evs:
                            seg = segment(e, c.times, c.samples[src], c.samples[p], noise[p].sigma, noise[src].sigma)
                            if seg is not None:
                                segments[p].setdefault(src, []).append(seg)
    fits: dict[int, PadFit] = {}
    faults: dict[int, list[Fault]] = {}
    for p in targets:
        o = own[p]
        fit = fit_pad(p, noise[p], o["soft"], o["hard"], o["flurry"], xt[p], base[p], period_us)
        hits = [h for c in prompted if c.pad == p and c.kind != "neighbours" for h in c.hits_on(p)]
        probes = [c for c in captures if c.kind == "probe" and c.pad == p]
        probed = probe_slaps(probes, p, base[p], noise[p].sigma) if probes else None
        onset = fit_onset(p, rising[p], hits, base[p], noise[p].sigma, probed)
        curve = replace(base[p], onset_us=onset.onset_us, onset_exp=onset.onset_exp)
        lobe = fit_lobe(p, rising[p], hits, curve, base[p], noise[p].sigma, probed or ())
        subs = [fit_subtraction(src, segments[p].get(src, []), noise[p].sigma, period_us) for src in pads if src != p]
        subs = [x for x in subs if x.source < MAX_SOURCES]
        sub_settings = {f"xgain_from{x.source}": x.gain_pm for x in subs}
        sub_settings.update({f"xlag_from{x.source}": x.lag_us for x in subs if x.gain_pm})
        clean = clean_pct(subs)
        if clean is not None:
            sub_settings["xclean_pct"] = clean
        fits[p] = replace(
            fit,
            settings=replace(
                fit.settings, onset_us=onset.onset_us, onset_exp=onset.onset_exp, lobe_us=lobe.lobe_us, **sub_settings
            ),
            reasons=(
                *fit.reasons,
                *onset.reasons,
                *lobe.reasons,
                *(f"crosstalk subtraction from {x.reason}" for x in subs),
                *(
                    [
                        f"a hit timed with crosstalk subtracted is a slap of its own when what is left is "
                        f"≥ {clean} % of what was taken (twice the most a subtraction left)"
                    ]
                    if clean is not None
                    else []
                ),
            ),
            warnings=(*fit.warnings, *onset.warnings, *lobe.warnings),
        )
        faults[p] = diagnose(
            p,
            noise[p],
            [*o["soft"], *o["hard"], *o["flurry"]],
            o["soft"],
            period_us,
            fits[p].settings.threshold if fits[p].ok else None,
        )
    return fits, faults, noise


def own_events(cap: Capture, pad: int, noise: Mapping[int, NoiseStats], period_us: int) -> list[Event]:
    return events_of(cap, pad, noise[pad], period_us)

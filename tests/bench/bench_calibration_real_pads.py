"""Calibration on pads shaped as real pads are (issue 31): what the wizard's fit makes of
them, and how the settings it applies do on fresh slaps.

Each pad is one of the piezo model's ``REAL_PAD_KINDS`` behind a quiet front end (σ 6
counts) at a gain of × 1, 4 or 8, with the ring real pads have (τ 33–45 ms), every slap
followed 26–40 ms later by the palm's second contact at 10–17 %
(``tests.calibration.real_pad_runs``); "short ring" pads keep the model's 2–3 ms ring, so
the second contact stands alone.  One calibration per pad (8 soft, 5 hard, a flurry of 8,
seed 1), then 30 soft and 30 hard fresh slaps (seed 50) with the applied settings; the
onset error is also measured with the default onset curve on the same slaps; then 40
fast slaps (bursts of four 15–25 ms apart, seed 60), counted and timed.  The detector is the
board's own."""

from __future__ import annotations

import statistics
from dataclasses import replace

from calibration.fit import limited
from calibration.fit_cabinet import fit_all
from hal.padboard.settings import PadSettings
from tests.bench.harness import Figure
from tests.calibration.real_pad_runs import RealPadRun, play, play_fast, real_pad

TITLE = "Calibration on real-pad signals: thresholds, rings, onset"
PADS = [(kind, gain, True) for kind in ("rubber", "wood", "plate") for gain in (1.0, 4.0, 8.0)] + [
    (kind, 4.0, False) for kind in ("rubber", "wood", "plate")
]


def p99(late_us: tuple[int, ...]) -> float:
    """The 99th percentile of the stamps' |error| (nearest rank)."""
    late = sorted(abs(x) for x in late_us)
    return late[min(len(late) - 1, round(0.99 * (len(late) - 1)))] if late else float("nan")


def run() -> list[Figure]:
    out = []
    for kind, gain, long_ring in PADS:
        pad = real_pad(kind, gain, long_ring=long_ring)
        fits, _faults, noise = fit_all(RealPadRun(pad, 1).calibration(), [0], {0: PadSettings()})
        fit = fits[0]
        s = fit.settings
        got = play(pad, s)
        fast = play_fast(pad, s)
        default = play(pad, replace(s, onset_us=PadSettings().onset_us, onset_exp=PadSettings().onset_exp))
        name = f"{kind} × {gain:g}{'' if long_ring else ', short ring'}"
        held = limited(fit.warnings)
        out += [
            Figure(
                f"{name}: slaps counted twice",
                100 * got.doubled / got.slaps,
                "per 100 slaps",
                "≤ 0.2",
                f"found {got.found} of {got.slaps}; threshold {s.threshold} (noise peak {noise[0].peak}); "
                f"sensitivity {s.sensitivity}; mask {s.mask_us / 1000:g} ms, retrigger {s.retrigger_pct} % / "
                f"{s.retrigger_decay_us / 1000:g} ms"
                + (f"; limited: {', '.join(held)}" if held else "")
                + ("" if fit.ok else "; fit refused: " + fit.problems[0].split(":")[0]),
            ),
            Figure(
                f"{name}: onset error, median absolute",
                got.median_error_us,
                "µs",
                "",
                f"onset curve {s.onset_us} µs{' (kept)' if s.onset_us == PadSettings().onset_us else ''}; "
                f"default curve {default.median_error_us:.0f} µs; ring τ fitted "
                f"{(fit.ring_tau_us or 0) / 1000:.0f} ms (model {pad.ring_tau_us / 1000:.0f}); p99 {p99(got.late_us):.0f} µs",
            ),
            Figure(
                f"{name}: fast slaps counted once",
                100 * fast.once / fast.slaps,
                "%",
                "",
                f"{fast.slaps} slaps in bursts of 4, 15–25 ms apart; {fast.extra} hits more than the slaps; "
                f"onset |error| median {statistics.median(abs(x) for x in fast.late_us):.0f} µs, "
                f"p99 {p99(fast.late_us):.0f} µs",
            ),
        ]
    return out

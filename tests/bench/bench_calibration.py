"""Slap-pad calibration: detection, false triggers and crosstalk before and after, on
three simulated cabinets of different noise; and the operator's time per pad.

Each cabinet (``firmware_py.sim.pad_sets.SIM_CABINETS``: quiet, hall, rough) is scored
with the shipped default settings and with the settings the wizard fitted, the wizard
driven by the scripted operator (three runs, seeds 1–3).  Scoring uses fresh pads (other
seeds): soft slaps one at a time (detection; extra hits are doubles), hands off
(false triggers, scaled to an hour), then every pad slapped at full force while the others
are watched (crosstalk triggers).  All in virtual time: the board's own detector on the
piezo signal model.  Operator time is the wizard's recording time (calibration and
verification, 10 s hands-off check), divided by the number of pads.
"""

from __future__ import annotations

import statistics
import time

from firmware_py.sim.pad_sets import SIM_CABINETS
from firmware_py.sim.proof import calibrate_sim, score
from hal.padboard.settings import PadSettings
from tests.bench.harness import Figure

TITLE = "Slap-pad calibration: before and after, operator time"
RUNS = 3
SOFT_PER_PAD = 100
IDLE_BEFORE_S = 600.0
IDLE_AFTER_S = 200.0  # per run: 600 s over the three calibrations


def _pooled(scores: list, n: int) -> tuple[float, float, int, int, float]:
    slaps = sum(s.soft_slaps[p] for s in scores for p in range(n))
    det = sum(s.soft_detected[p] for s in scores for p in range(n))
    extra = sum(s.extra_hits[p] for s in scores for p in range(n))
    false = sum(s.false_triggers[p] for s in scores for p in range(n))
    hours = sum(s.idle_s for s in scores) / 3600
    xt = sum(s.crosstalk[p] for s in scores for p in range(n))
    return 100 * det / slaps, false / hours, xt, extra, sum(s.full_slaps[p] for s in scores for p in range(n))


def run() -> list[Figure]:
    figures: list[Figure] = []
    op_time: list[float] = []
    slaps_per_pad: list[float] = []
    wall: list[float] = []
    for cab, spec in SIM_CABINETS.items():
        n = len(spec.pads)
        before = score(cab, [PadSettings()] * n, seed=50, soft_per_pad=SOFT_PER_PAD, idle_s=IDLE_BEFORE_S)
        after = []
        passed = 0
        for seed in range(1, RUNS + 1):
            t0 = time.perf_counter()
            wizard, _vp, op, settings = calibrate_sim(cab, seed=seed, operator_seed=seed + 6)
            wall.append(time.perf_counter() - t0)
            caps = [*wizard.captures, *wizard.verify_captures]
            op_time.append(sum(c.duration_us for c in caps) / 1e6 / n)
            slaps_per_pad.append(len(op.truth) / n)
            if settings is None:
                continue
            passed += 1
            after.append(
                score(
                    cab, [settings[p] for p in range(n)], seed=50 + seed, soft_per_pad=SOFT_PER_PAD, idle_s=IDLE_AFTER_S
                )
            )
        b = _pooled([before], n)
        a = _pooled(after, n) if after else (0.0, float("nan"), -1, -1, 0)
        label = f"{cab} ({n} pads; {spec.about})"
        figures += [
            Figure(
                f"{cab}: soft slaps detected, default", b[0], "%", "", f"{n * SOFT_PER_PAD} soft slaps; {b[3]} doubles"
            ),
            Figure(
                f"{cab}: soft slaps detected, calibrated",
                a[0],
                "%",
                "≥ 99 %",
                f"{len(after) * n * SOFT_PER_PAD} soft slaps over {len(after)} calibrations; {a[3]} doubles",
            ),
            Figure(
                f"{cab}: false triggers, default",
                b[1],
                "per sim. hour",
                "",
                f"{IDLE_BEFORE_S / 60:.0f} sim. min hands off, all pads",
            ),
            Figure(
                f"{cab}: false triggers, calibrated",
                a[1],
                "per sim. hour",
                "0",
                f"{len(after) * IDLE_AFTER_S / 60:.0f} sim. min hands off, all pads",
            ),
            Figure(
                f"{cab}: crosstalk triggers, default", b[2], "hits", "", f"{b[4]} full-force slaps, neighbours watched"
            ),
            Figure(f"{cab}: crosstalk triggers, calibrated", a[2], "hits", "0", f"{a[4]} full-force slaps"),
            Figure(f"{cab}: wizard runs that passed verification", passed, f"of {RUNS}", f"{RUNS}", label),
        ]
    probe_time, probe_passed = [], 0
    for cab, spec in SIM_CABINETS.items():
        wizard, _vp, _op, settings = calibrate_sim(cab, seed=1, operator_seed=7, probe=True)
        caps = [*wizard.captures, *wizard.verify_captures]
        probe_time.append(sum(c.duration_us for c in caps) / 1e6 / len(spec.pads))
        probe_passed += settings is not None
    figures += [
        Figure(
            "operator time per pad with the contact probe (recording), median",
            statistics.median(probe_time),
            "s",
            "≤ 60 s",
            f"one run per cabinet, {probe_passed} of {len(probe_time)} passed verification; + 12 probe slaps per pad",
        ),
        Figure(
            "operator time per pad (recording), median",
            statistics.median(op_time),
            "s",
            "≤ 60 s",
            f"max {max(op_time):.1f} s over {len(op_time)} runs; calibrate + verify, 10 s hands-off check",
        ),
        Figure(
            "prompted slaps per pad, median",
            statistics.median(slaps_per_pad),
            "slaps",
            "",
            "soft 8, hard 5, flurry 8, verify 10 soft + 4 hard",
        ),
        Figure(
            "wizard compute time per run, median",
            statistics.median(wall),
            "s",
            "",
            "virtual time: capture, fit and verify of a whole cabinet",
        ),
    ]
    return figures

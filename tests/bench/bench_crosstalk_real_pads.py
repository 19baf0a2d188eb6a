"""Slaps on one pad that the neighbours count too, and who slapped first: crosstalk and
Karate verdicts on real-pad signals (issue 31).

Four pads of one of the piezo model's ``REAL_PAD_KINDS`` (long rings, a quiet front end:
``tests.calibration.real_pad_runs``) in a row on one table (a neighbour gets 20 % of a
slap, further pads 7 % and 2.5 %), behind a front end of gain × 1, 4 or 8, as
``bench_probe_real_pads`` has them.  The wizard calibrates the table (the scripted
operator, seed 1, no contact probe) and verifies it; then single slaps (soft, medium,
hard as ``bench_slap_accuracy``'s, any pad, 300 ms apart) go through the board's own
detector with the fitted settings, at the board's 20 kHz and at the simulator's 4 kHz.
A hit on another pad from 2 ms before a slap to the end of its run is that slap's
crosstalk taken for a slap: in Karate Fight, a slap by the fighter beside.  Then pairs and
triples of slaps 100 µs apart (``bench_slap_accuracy``'s cases: half on neighbouring pads,
any forces, 300 ms apart) at 20 kHz go through Karate Fight's verdict as the cabinet
delivers them, on the settings the wizard fits without the contact probe and with it: the
Hit must go to the fighter whose palm touched first (the issue: ≥ 99 % right at 100 µs).
In Karate Fight a Hit comes with a card turned, seconds after the last; the same cases
~76 ms apart, the last case's rings still sounding on every pad and sampled without
gaps as a board samples, are the last rows.
"""

from __future__ import annotations

import os
import random

from firmware_py.games.karate_fight.slap_verdict import verdict
from firmware_py.sim.slap_chain import TAIL_US, PadboardChain, PhysicalSlap, calibrate, row_table
from tests.bench.bench_slap_accuracy import PADBOARD_SETTLE_US, REVEAL_BEFORE_US, cases, force, nearest
from tests.bench.harness import Figure
from tests.calibration.real_pad_runs import real_pad

TITLE = "Crosstalk and Karate verdicts on real-pad signals (issue 31)"
SLAPS = 200  # per table and rate
PAIRS, TRIPLES = 80, 20  # 100 µs apart, per table
APART_US = 100
GAP_US = 300_000  # from the end of one case's run to the next case: these pads' rings (33-45 ms) have died
RINGING_GAP_US = 50_000  # ... and one where they still sound (bench_slap_accuracy's spacing)
PADS = [(kind, gain) for kind in ("rubber", "wood", "plate") for gain in (1.0, 4.0, 8.0)]
RATES = ((50, "20 kHz"), (250, "4 kHz"))


def wrong_pad_hits(chain: PadboardChain, n: int, seed: int) -> tuple[int, int]:
    """(hits on a pad not slapped, slaps found on their own pad) over ``n`` single slaps."""
    rng = random.Random(seed)
    wrong = found = 0
    for _ in range(n):
        _name, f = force(rng)
        s = PhysicalSlap(rng.randrange(4), chain.now_us + GAP_US, f)
        got = chain.run([s])
        wrong += sum(g.pad != s.pad and g.t_us >= s.t_us - 2_000 for g in got)
        found += nearest(got, s) is not None
    return wrong, found


def right_verdicts(chain: PadboardChain, pairs: int, triples: int, seed: int, gap_us: int = GAP_US) -> int:
    """How many of ``pairs + triples`` cases, ``APART_US`` apart, Karate Fight's verdict
    gives to the first slapper; each case ``gap_us`` after the chain's last run ended."""
    rng = random.Random(seed)
    right = 0
    for case in cases(rng, APART_US, pairs, triples):
        t0 = chain.now_us + gap_us
        got = chain.run([PhysicalSlap(p, t0 + dt, f) for p, dt, _name, f in case])
        right += verdict(got, t0 - REVEAL_BEFORE_US, PADBOARD_SETTLE_US) == case[0][0]
    return right


def run() -> list[Figure]:
    scale = float(os.environ.get("RINGSIDE_BENCH_N", "1.0"))
    n = max(20, round(SLAPS * scale))
    pairs, triples = max(8, round(PAIRS * scale)), max(2, round(TRIPLES * scale))
    out = []
    for kind, gain in PADS:
        table = row_table([real_pad(kind, gain / 8)] * 4, near=0.2, falloff=0.35)
        settings, verified = calibrate(table, seed=1)
        fitted = [settings[p] for p in range(4)]
        for frame_us, rate in RATES:
            wrong, found = wrong_pad_hits(PadboardChain(table, fitted, seed=7, frame_us=frame_us), n, 99)
            out.append(
                Figure(
                    f"{kind} × {gain:g}, {rate}: hits on another pad",
                    wrong,
                    f"in {n} slaps",
                    "0",
                    f"{found} of {n} found on their own pad; thresholds "
                    f"{', '.join(str(s.threshold) for s in fitted)}, crosstalk cancel from a neighbour "
                    f"{fitted[1].xtalk_pct} %; the wizard's verification {'passed' if verified else 'failed'}",
                )
            )
        probed, _ok = calibrate(table, seed=1, probe=True)
        for how, chosen in (("no contact probe", fitted), ("with the contact probe", [probed[p] for p in range(4)])):
            right = right_verdicts(PadboardChain(table, chosen, seed=8), pairs, triples, 2026)
            out.append(
                Figure(
                    f"{kind} × {gain:g}, 20 kHz: Karate verdicts right at {APART_US} µs, {how}",
                    100 * right / (pairs + triples),
                    "%",
                    "≥ 99 %",
                    f"{right} of {pairs + triples} ({pairs} pairs, {triples} triples), half the pairs on "
                    "neighbouring pads; the wizard's settings",
                )
            )
        right = right_verdicts(PadboardChain(table, fitted, seed=8, gapless=True), pairs, triples, 2026, RINGING_GAP_US)
        out.append(
            Figure(
                f"{kind} × {gain:g}, 20 kHz: Karate verdicts right at {APART_US} µs, the last case's rings sounding",
                100 * right / (pairs + triples),
                "%",
                "≥ 99 %",
                f"{right} of {pairs + triples}; each case ~{(RINGING_GAP_US + TAIL_US + 1_000) // 1000} ms after the one "
                "before, sampled without gaps as a board samples; no contact probe",
            )
        )
    return out

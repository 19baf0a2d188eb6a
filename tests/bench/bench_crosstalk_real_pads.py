"""Slaps on one pad that the neighbours count too: crosstalk on real-pad signals (issue 31).

Four pads of one of the piezo model's ``REAL_PAD_KINDS`` (long rings, a quiet front end:
``tests.calibration.real_pad_runs``) in a row on one table (a neighbour gets 20 % of a
slap, further pads 7 % and 2.5 %), behind a front end of gain × 1, 4 or 8, as
``bench_probe_real_pads`` has them.  The wizard calibrates the table (the scripted
operator, seed 1, no contact probe) and verifies it; then single slaps (soft, medium,
hard as ``bench_slap_accuracy``'s, any pad, 300 ms apart) go through the board's own
detector with the fitted settings, at the board's 20 kHz and at the simulator's 4 kHz.
A hit on another pad from 2 ms before a slap to the end of its run is that slap's
crosstalk taken for a slap: in Karate Fight, a slap by the fighter beside.
"""

from __future__ import annotations

import os
import random

from firmware_py.sim.slap_chain import PadboardChain, PhysicalSlap, calibrate, row_table
from tests.bench.bench_slap_accuracy import force, nearest
from tests.bench.harness import Figure
from tests.calibration.real_pad_runs import real_pad

TITLE = "Crosstalk on real-pad signals: slaps the neighbours count too (issue 31)"
SLAPS = 200  # per table and rate
GAP_US = 300_000
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


def run() -> list[Figure]:
    n = max(20, round(SLAPS * float(os.environ.get("RINGSIDE_BENCH_N", "1.0"))))
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
    return out

"""Strikes shaped as real pads make them (issue 31): the board's detector, fed as the
board feeds it (20 kHz, 12 bits, the DMA ring, blocks of 40), on each of the piezo
model's ``REAL_PAD_KINDS`` (a narrow first lobe against the main swing, either polarity).
No contact delay is set, so a stamp timed on the first lobe lands ~20–60 µs after that
lobe starts (where it reaches half its height; a wooden pad's starts 250 µs after
contact, after a small pre swing: where that stands clear of the noise the strike is
timed on it, up to 250 µs before the lobe) and one timed on the main swing hundreds of
µs later.  Long rings, second contacts and front-end gain: ``calibration_real_pads``."""

from __future__ import annotations

import random
import statistics

from firmware_py.padboard.detector import ticks_diff
from firmware_py.sim.piezo import REAL_PAD_KINDS
from tests.bench.harness import Figure
from tests.firmware_py.padboard.test_real_pads import board_hits

TITLE = "Slaps from real pads: strikes with a narrow first lobe"
STRIKES = 100
APART_US = 120_011  # each strike rings out before the next
THRESHOLD = 900


def run() -> list[Figure]:
    out = []
    for kind, pad in REAL_PAD_KINDS.items():
        rng = random.Random(7)
        contacts = [40_000 + APART_US * n for n in range(STRIKES)]
        peaks = [rng.uniform(1500.0, 8000.0) for _ in contacts]
        hits = board_hits(pad, contacts, peaks, {"threshold": THRESHOLD})
        late: list[int] = []
        found = doubled = 0
        for c in contacts:
            mine = [h for h in hits if -2000 <= ticks_diff(h[1], c) < APART_US - 2000]
            if mine:
                found += 1
                doubled += len(mine) - 1
                late.append(ticks_diff(mine[0][1], c + int(pad.pre_us)))
        late.sort()
        p99 = late[min(len(late) - 1, round(0.99 * (len(late) - 1)))] if late else 0
        note = f"{STRIKES} strikes, main swing 1,500–8,000 counts, threshold {THRESHOLD}; {doubled} doubled"
        out.append(Figure(f"{kind}: strikes found", 100 * found / STRIKES, "%", "≥ 99.5 %", note))
        if late:
            out.append(
                Figure(f"{kind}: stamp after the first lobe starts, median", statistics.median(late), "µs", "", "")
            )
            out.append(
                Figure(f"{kind}: stamp after the first lobe starts, p99", p99, "µs", "", f"earliest {late[0]} µs")
            )
    return out

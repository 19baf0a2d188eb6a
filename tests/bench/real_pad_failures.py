"""Issue 31's failures, counted on the widened piezo model (before/after in BENCHMARKS.md).

    python tests/bench/real_pad_failures.py

Runs the board's detector as the board feeds it (20 kHz, 12 bits, DMA blocks of 40) on
the real pad kinds and prints, per failure, what it did: which swing was stamped, hard
hits doubled by the ring at gain, second contacts counted, fast strokes counted.  Run it
in a tree with main's ``detector.py``, ``wire.py`` and ``settings.py`` (and this
branch's ``piezo.py``) for the before column.
"""

from __future__ import annotations

import random
import statistics
from dataclasses import replace

from firmware_py.sim.padboard import DetectorSink, SimDma
from firmware_py.sim.piezo import ModelSlap, PiezoModel, PiezoPad, real_pad


def run(pad: PiezoPad, slaps: list[tuple[int, float]], settings: dict[str, int]) -> list[tuple[int, int, int, int]]:
    """Hits of one pad slapped at ``(t_us, peak at the ADC)``."""
    model = PiezoModel([pad], seed=1, crosstalk=0.0)
    for t, peak in slaps:
        model.add(ModelSlap(0, t, peak / pad.gain))
    sink = DetectorSink([settings])
    dma = SimDma(model, 50)
    t, end = 0, max(t for t, _ in slaps) + 400_000
    while t < end:
        dma.feed(sink, t, 40)
        t += 2000
    return sink.hits


def main() -> None:
    rng = random.Random(1)
    for kind in ("rubber", "wood", "plate"):
        pad = real_pad(kind, 2.0)
        slaps = [(50_000 + 300_007 * n, rng.uniform(1500, 6000)) for n in range(30)]
        quiet = {"threshold": 900, "xtalk_pct": 0, "onset_us": 0, "lead_us": 0, "mask_us": 60000}
        hits = run(pad, slaps, {**quiet, "retrigger_pct": 100, "retrigger_decay_us": 60000})
        errs = [
            min((h[1] - int(t + pad.pre_us) for h in hits), key=abs)
            for t, _ in slaps
            if hits  # ticks: no wrap this early
        ]
        print(
            f"stamp vs first lobe, {kind} x2: median {statistics.median(errs):+.0f} us, max {max(errs):+d}, "
            f"more than 300 us late {sum(e > 300 for e in errs)} of {len(slaps)}"
        )
    for kind in ("rubber", "wood", "plate"):
        for gain in (1.0, 4.0):
            pad = replace(real_pad(kind, gain), second=0.0)
            slaps = [(50_000 + 600_000 * n, rng.uniform(18000, 26000) * pad.gain) for n in range(14)]
            hits = run(pad, slaps, {"xtalk_pct": 0})
            print(f"ring, {kind} x{gain:.0f}, default settings: {len(slaps)} hard hits -> {len(hits)} hits")
    pad = replace(real_pad("plate", 4.0), second=1.0)
    slaps = [(50_000 + 600_000 * n, rng.uniform(6000, 26000) * pad.gain) for n in range(14)]
    print(
        f"second contacts, plate x4, retrigger off: {len(slaps)} slaps -> {len(run(pad, slaps, {'xtalk_pct': 0, 'retrigger_pct': 0}))} hits"
    )
    print(
        f"second contacts, plate x4, default settings: {len(slaps)} slaps -> {len(run(pad, slaps, {'xtalk_pct': 0}))} hits"
    )
    for kind in ("rubber", "wood", "plate"):
        pad, t, slaps = real_pad(kind, 2.0), 50_000, []
        for n in range(24):
            slaps.append((t, rng.uniform(4000, 8000)))
            t += rng.randrange(15_000, 25_001) + (400_000 if n % 6 == 5 else 0)
        print(
            f"fast slapping, {kind} x2, strokes 15-25 ms apart: {len(slaps)} -> {len(run(pad, slaps, {'xtalk_pct': 0, 'threshold': 600}))} hits"
        )


if __name__ == "__main__":
    main()

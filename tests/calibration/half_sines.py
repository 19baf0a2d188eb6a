"""Synthetic strikes for the calibration's readings: a slap's raw 20 kHz capture built
from half sines (a pre swing, a first lobe, the main swing), each placed to the µs."""

from __future__ import annotations

import math
from collections.abc import Sequence

from calibration.analysis import Event

BIAS = 32768
Swing = tuple[float, float, float]  # (start µs, width µs, height in counts, signed)


def capture(t0: int, swings: Sequence[Swing]) -> tuple[Event, list[int], list[int]]:
    """The prompted slap at ``t0`` (its event, the capture's times and samples, 5 ms
    before to 4 ms after, every 50 µs): quiet, then each of ``swings`` as a half sine."""
    times = list(range(t0 - 5_000, t0 + 4_000, 50))
    out = []
    for t in times:
        v = 0.0
        for start, width, height in swings:
            if start < t < start + width:
                v += height * math.sin(math.pi * (t - start) / width)
        out.append(BIAS + round(v))
    return Event(0, t0, 3_000, t0 + 1_000, False, (), 0), times, out

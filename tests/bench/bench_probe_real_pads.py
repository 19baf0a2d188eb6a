"""The contact probe's onset error on pads shaped as real pads are (issue 31: p99 ≤ 50 µs).

Four pads of one of the piezo model's ``REAL_PAD_KINDS`` (bipolar strikes, narrow first
lobes, long rings τ 33–45 ms, quiet front end σ 6 counts: ``tests.calibration.real_pad_runs``)
on one table (a neighbour gets 20 % of a slap, further pads 7 % and 2.5 %), behind a front
end of gain × 1, 4 or 8 (the operator's slaps of 3,000–26,000 counts taken as × 8's, so
the model's gain is an eighth of it: main swings of ~375–3,250 counts × the gain, as the
real-pad calibration runs have).  The wizard calibrates the table with the contact probe
worn (the scripted operator, seed 1); then single slaps (soft, medium, hard as
``bench_slap_accuracy``'s, any pad, 300 ms apart so a ring has faded to a few %) go
through the board's own detector at 20 kHz (DMA, blocks of 40) with the fitted settings:
the error is the board's onset less the true contact (board µs), and "with the default
curve" the same slaps on the same settings but the onset curve the board starts with.

The board subtracts no curve from a strike it times on its first lobe, so the probe's
curve cannot move those stamps.  The same slaps once more with a curve of 3 ms tell them
apart (a stamp that does not move was timed on a lobe), and "with a lobe delay" is what
the errors would be if the board took a per-pad constant off those stamps as it takes the
curve off the others, the constant read by the probe (here: the median lobe-timed error
of every other slap, applied to the rest): a projection, the board has no such setting.
"""

from __future__ import annotations

import os
import random
import statistics
from dataclasses import replace

from firmware_py.sim.slap_chain import PadboardChain, PhysicalSlap, calibrate, row_table
from hal.padboard.settings import PadSettings
from tests.bench.bench_slap_accuracy import force, nearest
from tests.bench.harness import Figure, percentile
from tests.calibration.real_pad_runs import real_pad

TITLE = "The contact probe on real-pad signals (issue 31)"
SLAPS = 200  # per table
GAP_US = 300_000
PADS = [(kind, gain) for kind in ("rubber", "wood", "plate") for gain in (1.0, 4.0, 8.0)]


def errors(chain: PadboardChain, n: int, seed: int) -> list[int | None]:
    """Board onset errors (µs) of ``n`` single slaps (None: not found)."""
    rng = random.Random(seed)
    out: list[int | None] = []
    for _ in range(n):
        _name, f = force(rng)
        s = PhysicalSlap(rng.randrange(4), chain.now_us + GAP_US, f)
        g = nearest(chain.run([s]), s)
        out.append(None if g is None else g.board_error_us)
    return out


def with_lobe_delay(errs: list[int], lobe: list[bool]) -> list[float]:
    """``errs`` with the lobe-timed ones (``lobe``) less the median of the other half's
    lobe-timed errors (even slaps from odd and odd from even: read from slaps it is not
    applied to)."""
    out: list[float] = []
    for k, (e, on_lobe) in enumerate(zip(errs, lobe)):
        other = [x for j, (x, timed) in enumerate(zip(errs, lobe)) if timed and j % 2 != k % 2]
        out.append(e - statistics.median(other) if on_lobe and other else e)
    return out


def run() -> list[Figure]:
    n = max(20, round(SLAPS * float(os.environ.get("RINGSIDE_BENCH_N", "1.0"))))
    out = []
    for kind, gain in PADS:
        table = row_table([real_pad(kind, gain / 8)] * 4, near=0.2, falloff=0.35)
        settings, verified = calibrate(table, seed=1, probe=True)
        fitted = [settings[p] for p in range(4)]
        got = errors(PadboardChain(table, fitted, seed=7), n, 99)
        default = [replace(s, onset_us=PadSettings().onset_us, onset_exp=PadSettings().onset_exp) for s in fitted]
        before = [e for e in errors(PadboardChain(table, default, seed=7), n, 99) if e is not None]
        moved = errors(PadboardChain(table, [replace(s, onset_us=3000) for s in fitted], seed=7), n, 99)
        both = [(e, e == m) for e, m in zip(got, moved) if e is not None]
        errs, lobe = [e for e, _ in both], [k for _, k in both]
        missed = n - len(errs)
        projected = with_lobe_delay(errs, lobe)
        curves = ", ".join(f"{s.onset_us}" for s in fitted)
        out += [
            Figure(
                f"{kind} × {gain:g}: onset error p99, contact probe",
                percentile([abs(e) for e in errs], 99),
                "µs",
                "≤ 50",
                f"{len(errs)} single slaps ({missed} not found); median {statistics.median(errs):+.0f} µs; "
                f"onset curves {curves} µs; verification {'passed' if verified else 'failed'}",
            ),
            Figure(
                f"{kind} × {gain:g}: onset error p99, default curve",
                percentile([abs(e) for e in before], 99),
                "µs",
                "",
                f"the same slaps and settings, onset curve {PadSettings().onset_us} µs; median "
                f"{statistics.median(before):+.0f} µs",
            ),
            Figure(
                f"{kind} × {gain:g}: onset error p99, contact probe with a lobe delay (projected)",
                percentile([abs(e) for e in projected], 99),
                "µs",
                "≤ 50",
                f"{sum(lobe)} of {len(errs)} timed on their first lobe, median "
                f"{statistics.median([e for e, k in zip(errs, lobe) if k] or [0]):+.0f} µs; main swing median "
                f"{statistics.median([e for e, k in zip(errs, lobe) if not k] or [0]):+.0f} µs",
            ),
        ]
    return out

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

The board takes the onset curve off a stamp timed on the main swing, the lobe delay
(``lobe_us``) off one timed on a narrow first lobe against it, and nothing off one timed
on a pre swing the main swing's way (wood's, from the contact).  The same slaps once more
with the curve at 3 ms and the lobe delay 1 ms longer tell the three apart by how far each
stamp moves; the note gives each kind's median error.  "With neither delay" is the same
slaps on the same settings but the onset curve the board starts with and no lobe delay.
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


def timed_on(got: int, moved: int) -> str:
    """Which swing a stamp was timed on, from how far it moved (``got`` to ``moved``) when
    the curve went to 3 ms (2 ms or more earlier, whatever the peak) and the lobe delay
    1 ms up (see the module's docstring)."""
    shift = got - moved
    return "pre swing" if shift == 0 else "lobe" if shift < 1_500 else "main swing"


def kinds_note(errs: list[int], kinds: list[str]) -> str:
    """How many stamps of each kind and their median errors."""
    return "; ".join(
        f"{k}: {sum(x == k for x in kinds)}, median {statistics.median([e for e, x in zip(errs, kinds) if x == k]):+.0f} µs"
        for k in ("lobe", "main swing", "pre swing")
        if k in kinds
    )


def run() -> list[Figure]:
    n = max(20, round(SLAPS * float(os.environ.get("RINGSIDE_BENCH_N", "1.0"))))
    out = []
    for kind, gain in PADS:
        table = row_table([real_pad(kind, gain / 8)] * 4, near=0.2, falloff=0.35)
        settings, verified = calibrate(table, seed=1, probe=True)
        fitted = [settings[p] for p in range(4)]
        got = errors(PadboardChain(table, fitted, seed=7), n, 99)
        default = [
            replace(s, onset_us=PadSettings().onset_us, onset_exp=PadSettings().onset_exp, lobe_us=0) for s in fitted
        ]
        before = [e for e in errors(PadboardChain(table, default, seed=7), n, 99) if e is not None]
        shifted = [replace(s, onset_us=3_000, lobe_us=s.lobe_us + 1_000) for s in fitted]
        moved = errors(PadboardChain(table, shifted, seed=7), n, 99)
        both = [(e, m) for e, m in zip(got, moved) if e is not None and m is not None]
        errs = [e for e, _ in both]
        kinds = [timed_on(e, m) for e, m in both]
        missed = n - sum(e is not None for e in got)
        delays = ", ".join(f"{s.onset_us}/{s.lobe_us}" for s in fitted)
        out += [
            Figure(
                f"{kind} × {gain:g}: onset error p99, contact probe",
                percentile([abs(e) for e in errs], 99),
                "µs",
                "≤ 50",
                f"{len(errs)} single slaps ({missed} not found); median {statistics.median(errs):+.0f} µs; "
                f"{kinds_note(errs, kinds)}; onset curve / lobe delay per pad {delays} µs; verification "
                f"{'passed' if verified else 'failed'}",
            ),
            Figure(
                f"{kind} × {gain:g}: onset error p99, neither delay",
                percentile([abs(e) for e in before], 99),
                "µs",
                "",
                f"the same slaps and settings, onset curve {PadSettings().onset_us} µs and no lobe delay; median "
                f"{statistics.median(before):+.0f} µs",
            ),
        ]
    return out

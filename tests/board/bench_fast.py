"""``python -m tests.board.bench_fast [--no-ring] [BURSTS [KIND GAIN [DETECTOR_PY]]]``: the
emulated padboard's CPU on fast slaps over a long ring (issue 31), for BENCHMARKS.md.

bench_board's burst (single slaps 70 ms apart, default settings) never takes the
detector's ring path: a hit is timed over a ring predicted with its phase
(``Detector._over_ring``, the ring carried back over ~6 ms and a scan and taken off, the
edge walked on what is left) only when the pad runs the ring model (``second_pct``, which the calibration fits
to a long-ringing pad) and a slap lands on the ring of the one before.  So here every pad
runs the settings the wizard fits for a real pad of KIND behind a front end of GAIN
(default plate × 4, tests/calibration/real_pad_runs.py, as issue 31's host figures),
written into the board's settings file in its flash image, where main.start() loads them
as a calibrated board boots (the emulator does not write flash).  The burst is
``play_fast``'s: BURSTS bursts of four slaps 15–25 ms apart (each 0.8–1.25 × the one
before, the last with the palm's second contact 26–40 ms later), 0.4 s apart, round the
three pads; no crosstalk (the fit saw one pad alone); between the bursts the pads rest at
the pad's own noise (the emulator's default σ 7.5 counts is over this quiet pad's fitted
threshold).  DETECTOR_PY: a detector.py to boot instead of the tree's (an older one, to
compare on the same slaps).  The figures count from LEAD_US before the first contact to 60
ms after the last; the detector's ``_onset``, ``_over_ring`` (the ring-less path, within
``_onset``) and ``_phase_fit`` are timed per call on the chip.  ``--no-ring``: the same
settings with the ring model off (``second_pct`` 0), to tell its cost from the rest of the
detector's on the same slaps.  An emulator bench: ``make test`` never runs it."""

from __future__ import annotations

import random
import statistics
import sys
import tempfile
from dataclasses import replace
from pathlib import Path

from calibration.fit_cabinet import fit_all
from firmware_py.hil.board import emulator, image, slaps
from firmware_py.padboard import settings_store
from firmware_py.padboard.detector import TICKS_MASK, ticks_diff
from firmware_py.sim.piezo import ModelSlap, PiezoModel, PiezoPad
from hal.padboard.settings import PadSettings
from tests.board import measure
from tests.calibration.real_pad_runs import HARD, SECOND_SHARE, SECOND_US, SOFT, RealPadRun, real_pad

LEAD_US = 10_000  # the burst's figures count from this long before its first contact
START_US = 3_000_000  # emulated time the waveforms leave main.py to start in (compiling and starting it took ~2.6 s)
BURST_GAP_US = 400_000  # play_fast's
TAIL_US = 300_000  # a burst's waveform runs this long after its last contact (the ring is in the noise)
SEED = 60


def fitted(pad: PiezoPad) -> PadSettings:
    """The settings the calibration wizard fits for ``pad`` (at its 4 kHz, one pad)."""
    fits, _faults, _noise = fit_all(RealPadRun(pad, 1).calibration(), [0], {0: PadSettings()})
    return fits[0].settings


def plan(start: int, bursts: int) -> tuple[list[list[tuple[int, int, float]]], list[tuple[int, int, float]]]:
    """Per burst, its contacts (pad, µs, force before the gain) with the second contact
    last; and the slaps alone (no second contacts), in order."""
    r = random.Random(SEED)
    batches, contacts = [], []
    t = start
    for b in range(bursts):
        pad = b % slaps.PADS
        f = r.uniform(SOFT[1], HARD[1])
        batch = []
        for n in range(4):
            batch.append((pad, t, f))
            contacts.append((pad, t, f))
            if n == 3:
                batch.append((pad, t + r.randrange(*SECOND_US), f * r.uniform(*SECOND_SHARE)))
            f *= r.uniform(0.8, 1.25)
            t += r.randrange(15_000, 25_000)
        batches.append(batch)
        t += BURST_GAP_US
    return batches, contacts


def waveform(pad: PiezoPad, batch: list[tuple[int, int, float]], t0: int, t1: int, seed: int) -> list[list[int]]:
    """12-bit samples per board pad every ``slaps.STEP_US`` of ``pad``'s model with ``batch`` in it."""
    model = PiezoModel([pad] * slaps.PADS, seed=seed, crosstalk=0.0)
    for p, t, force in batch:
        model.add(ModelSlap(p, t, force))
    out: list[list[int]] = [[] for _ in range(slaps.PADS)]
    for t in range(t0, t1, slaps.STEP_US):
        for i, x in enumerate(model.sample(t, 0.0)):
            out[i].append(min(4095, max(0, x >> 4)))
    return out


def injected(board: emulator.EmulatedPadboard, pad: PiezoPad, bursts: int) -> list[tuple[int, int, float]]:
    """:func:`plan` queued on the board from START_US ahead of its clock, which stands still
    while the host samples and sends the waveforms (megabytes: sent with the clock running,
    as slaps.inject_all does, the first bursts had passed before main.py started)."""
    board.control(op="hold", on=True)
    try:
        batches, contacts = plan(board.now_us() + START_US + slaps.BEFORE_US, bursts)
        for b, batch in enumerate(batches):
            t0 = batch[0][1] - slaps.BEFORE_US
            t1 = max(t for _, t, _ in batch) + TAIL_US
            for ch, values in enumerate(waveform(pad, batch, t0, t1, SEED + b)):
                board.control(op="adc", ch=ch, t0_ns=t0 * 1000, dt_ns=slaps.STEP_US * 1000, v=values)
    finally:
        board.control(op="hold", on=False)
    return contacts


def counted(found: tuple[tuple[int, int, int, int], ...], contacts: list[tuple[int, int, float]]) -> dict[str, str]:
    """play_fast's counts on the board's SLAPs: each slap's stamps from 2 ms before to 5 ms
    after its contact on its pad; once, missed, and the hits that are no slap's first."""
    firsts = []
    for pad, t, _f in contacts:
        near = [ticks_diff(onset, t & TICKS_MASK) for p, _v, onset, _pk in found if p == pad]
        firsts.append(sorted(d for d in near if -2_000 <= d <= 5_000))
    signed = sorted(f[0] for f in firsts if f)
    errs = sorted(abs(e) for e in signed)
    p99 = errs[min(len(errs) - 1, round(0.99 * (len(errs) - 1)))] if errs else 0
    return {
        "slaps once": f"{sum(1 for f in firsts if len(f) == 1)} of {len(contacts)}",
        "missed": str(sum(1 for f in firsts if not f)),
        "extra hits": str(len(found) - sum(1 for f in firsts if f)),
        "|onset error| median / p99": f"{statistics.median(errs) if errs else 0:.0f} / {p99} µs",
        "onset error, earliest / median / latest": (
            f"{signed[0]:+} / {statistics.median(signed):+.0f} / {signed[-1]:+} µs" if signed else "none"
        ),
    }


def main() -> None:
    args = [a for a in sys.argv[1:] if a != "--no-ring"]
    bursts = int(args[0]) if args else 9
    kind, gain = (args[1], float(args[2])) if len(args) > 2 else ("plate", 4.0)
    pad = real_pad(kind, gain)
    settings = fitted(pad)
    if "--no-ring" in sys.argv[1:]:
        settings = replace(settings, second_pct=0)
    print(f"{kind} × {gain:g}, fitted: {settings.as_dict()}")
    with tempfile.TemporaryDirectory(prefix="board-bench-fast-") as tmp:
        stored = Path(tmp) / settings_store.FILENAME
        settings_store.save(str(stored), [settings.as_dict()] * slaps.PADS)
        files = {stored.name: stored.read_bytes()}
        if len(args) > 3:
            files["detector.py"] = Path(args[3]).read_bytes()
        board = emulator.EmulatedPadboard(image.filesystem(files), Path(tmp), bootsel=True, noise=pad.noise / 16)
        with board:
            board.wait_usb()
            # drift-free: each waveform starts and ends at the rest level the emulator reads between them
            contacts = injected(board, replace(pad, drift=0.0), bursts)
            until, since = contacts[-1][1] + 60_000, contacts[0][1] - LEAD_US
            b = measure.budget(board, until_us=until, from_us=since, timed=True)
    if b.elapsed_us < until - since - 2 * LEAD_US:
        raise RuntimeError(f"main.py served {b.elapsed_us} µs of the {until - since} µs burst: it started late")
    print(
        f"burst: loop busy {100 * b.share:.1f} % of the time ({100 * b.detector_us / max(1, b.busy_us):.0f} % of it "
        f"in the detector), {b.cycles_per_block:,.0f} cycles per 2 ms block, longest block {b.longest_block_us} µs, "
        f"longest pass gap {b.longest_pass_us} µs, ADC {b.frame_rate_hz:,.0f} frames/s, dropped {b.dropped} of "
        f"{b.adc_frames}, free heap {b.free_heap}, {b.blocks:,} calls of {b.frames / max(1, b.blocks):.1f} frames"
    )
    for name, (calls, us, longest) in b.timed.items():
        print(f"{name}: {calls} calls, {us / max(1, calls):,.0f} µs a call on average, longest {longest} µs")
    for k, v in counted(b.slaps, contacts).items():
        print(f"{k}: {v}")


if __name__ == "__main__":
    main()

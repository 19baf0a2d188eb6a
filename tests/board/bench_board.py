"""``python -m tests.board.bench_board [PER_BAND TIES [raw]]``: the emulated padboard's
figures for BENCHMARKS.md (issue 32), beside the simulator's on the same slaps; with
``raw``, the board streams raw frames and edges throughout as every calibration step
has it do (RAW_CAPTURE), and the CPU figures are that mode's.

One board booted with BOOTSEL held; main.py's own start() and serve() run over the raw
REPL (mp/budget.py): idle, then through a burst of single slaps in three velocity bands
and Karate near-ties (two pads 100 µs apart, either first), counted from LEAD_US before
its first contact to 60 ms after its last.  The simulator's column runs
the board's detector under CPython on the same piezo model, sampled as its SimDma does."""

from __future__ import annotations

import statistics
import sys
import tempfile
from pathlib import Path

from firmware_py.hil.board import emulator, image, slaps
from firmware_py.padboard.detector import Detector
from firmware_py.sim.padboard import SimDma
from firmware_py.sim.piezo import ModelSlap, PiezoModel, PiezoPad, peak_for_velocity
from hal.padboard import wire
from hal.padboard.settings import PadSettings
from tests.board import measure

BANDS = {"soft (v 5-20)": (5, 12, 20), "medium (v 30-80)": (30, 55, 80), "hard (v 100-127)": (100, 115, 127)}
TIE_US = 100
SPACING_US = 70_000  # apart from the next slap or tie: each goes in as a waveform of its own
CROSSTALK = 0.1
LEAD_US = 10_000  # the burst's figures count from this long before its first contact
START_US = 300_000  # emulated time the burst's waveforms leave main.py to start in (mp/budget.py)
RAW_CAPTURE = (0b001, 16, wire.RAW_EDGES)
"""RAW_START as ``ringside calibrate`` sends it for one pad: pad 1, 16 frames a block, edges."""


def plan(start: int, per_band: int, ties: int) -> tuple[list[tuple[int, int, float]], list[str], list[tuple[int, int]]]:
    """Contacts (pad, µs, peak), the band of each, and the index pairs of the near-ties."""
    contacts, bands, pairs = [], [], []
    t = start
    for name, vs in BANDS.items():
        for i in range(per_band):
            contacts.append((len(contacts) % 3, t, peak_for_velocity(vs[i % len(vs)])))
            bands.append(name)
            t += SPACING_US
    for i in range(ties):
        a, b = i % 3, (i + 1) % 3
        va, vb = [(60, 60), (100, 80), (40, 60), (127, 100)][i % 4]  # within the crosstalk ratio
        first, second = (a, va), (b, vb)
        if i % 2:
            first, second = second, first
        contacts.append((first[0], t, peak_for_velocity(first[1])))
        contacts.append((second[0], t + TIE_US, peak_for_velocity(second[1])))
        bands += ["tie", "tie"]
        pairs.append((len(contacts) - 2, len(contacts) - 1))
        t += SPACING_US
    return contacts, bands, pairs


def injected(
    board: emulator.EmulatedPadboard, per_band: int, ties: int
) -> tuple[list[tuple[int, int, float]], list[str], list[tuple[int, int]]]:
    """:func:`plan` from far enough ahead of the emulator's clock that every waveform
    reaches it in time and main.py has started before the first (the host samples them
    all first: the lead doubles until they do), then queued on the board."""
    ahead = 600_000
    while True:
        contacts, bands, pairs = plan(board.now_us() + ahead, per_band, ties)
        batches, seeds = [], []
        for i, c in enumerate(contacts):
            if i and c[1] - contacts[i - 1][1] == TIE_US:
                continue  # a near-tie's second slap goes in with its first
            batches.append([d for d in contacts[i : i + 2] if d[1] - c[1] <= TIE_US])
            seeds.append(i)
        try:
            slaps.inject_all(board, batches, seeds, CROSSTALK, START_US)
        except slaps.TooLate:
            ahead *= 2
            continue
        return contacts, bands, pairs


def simulated(contacts: list[tuple[int, int, float]]) -> tuple[tuple[int, int, int, int], ...]:
    """The board's detector under CPython on the same slaps, 20 kHz frames by SimDma."""
    model = PiezoModel([PiezoPad(drift=0.0)] * slaps.PADS, seed=1, crosstalk=CROSSTALK)
    for p, t, peak in contacts:
        model.add(ModelSlap(p, t, peak))
    hits: list[tuple[int, int, int, int]] = []

    class Sink:
        detector = Detector(slaps.PADS, [PadSettings().as_dict()] * slaps.PADS)

        def on_block(self, ring, first, count, t_first, frame_us, shift, stagger) -> None:  # type: ignore[no-untyped-def]
            hits.extend(self.detector.feed(ring, first, count, t_first, frame_us, shift, stagger))

    dma = SimDma(model, 50)
    sink = Sink()
    t = contacts[0][1] - 300_000
    while t < contacts[-1][1] + 100_000:
        dma.feed(sink, t, 40)  # type: ignore[arg-type]
        t += 40 * 50
    return tuple((p, v, onset, peak) for p, onset, v, peak in hits)


def figures(
    found: tuple[tuple[int, int, int, int], ...],
    contacts: list[tuple[int, int, float]],
    bands: list[str],
    pairs: list[tuple[int, int]],
) -> dict[str, str]:
    errors = dict(measure.onset_errors(found, contacts))
    out = {}
    for name in BANDS:
        errs = sorted(abs(errors[i]) for i, b in enumerate(bands) if b == name and i in errors)
        n = sum(1 for b in bands if b == name)
        if errs:
            p99 = errs[min(len(errs) - 1, round(0.99 * (len(errs) - 1)))]
            out[name] = f"{statistics.median(errs):.0f} / {p99} µs ({len(errs)} of {n} found)"
        else:
            out[name] = f"none of {n} found"
    right = wrong = tie = missing = 0
    for a, b in pairs:
        if a not in errors or b not in errors:
            missing += 1
            continue
        sa = contacts[a][1] + errors[a]
        sb = contacts[b][1] + errors[b]
        if sa < sb:
            right += 1
        elif sa == sb:
            tie += 1
        else:
            wrong += 1
    out["karate"] = f"{right} right, {wrong} wrong, {tie} tied, {missing} missed of {len(pairs)}"
    total = len(contacts)
    out["slaps"] = f"{len(found)} SLAPs for {total} contacts"
    return out


def main() -> None:
    per_band, ties = (int(a) for a in (sys.argv[1:3] if len(sys.argv) > 2 else ("8", "12")))
    raw = RAW_CAPTURE if sys.argv[3:4] == ["raw"] else None
    with (
        tempfile.TemporaryDirectory(prefix="board-bench-") as tmp,
        emulator.EmulatedPadboard(image.filesystem(), Path(tmp), bootsel=True) as board,
    ):
        board.wait_usb()
        idle = measure.budget(board, blocks=100, raw=raw)
        contacts, bands, pairs = injected(board, per_band, ties)
        burst = measure.budget(board, until_us=contacts[-1][1] + 60_000, from_us=contacts[0][1] - LEAD_US, raw=raw)
    sim = simulated(contacts)
    for name, b in (("idle", idle), ("burst", burst)):
        print(
            f"{name}: {b.cycles_per_block:,.0f} cycles per 2 ms block "
            f"({100 * b.cycles_per_block / measure.BLOCK_CYCLES:.0f} % of the {measure.BLOCK_CYCLES:,} a block lasts), "
            f"loop busy {100 * b.share:.0f} % of the time "
            f"({100 * b.detector_us / max(1, b.busy_us):.0f} % of it in the detector), "
            f"longest block {b.longest_block_us} µs, longest pass gap {b.longest_pass_us} µs, "
            f"ADC {b.frame_rate_hz:,.0f} frames/s, dropped {b.dropped} of {b.adc_frames}, free heap {b.free_heap}, "
            f"sent {b.frames_sent} frames ({b.bytes_sent:,} bytes), "
            f"{b.blocks:,} calls of {b.frames / max(1, b.blocks):.1f} frames on average"
        )
    board_fig, sim_fig = figures(burst.slaps, contacts, bands, pairs), figures(sim, contacts, bands, pairs)
    print("| figure | emulated board | simulator |")
    for k in board_fig:
        print(f"| {k} | {board_fig[k]} | {sim_fig[k]} |")


if __name__ == "__main__":
    main()

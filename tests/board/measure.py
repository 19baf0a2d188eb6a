"""Figures from the emulated board: main.py's own loop timed on the chip (mp/budget.py
over the raw REPL), and slap onsets against the contacts the host injected."""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

from firmware_py.hil.board.emulator import EmulatedPadboard
from firmware_py.padboard.detector import TICKS_MASK, frame_diff, ticks_diff

SCRIPT = Path(__file__).with_name("mp") / "budget.py"
TIMED = ("_onset", "_over_ring", "_phase_fit")  # as mp/budget.py's TIMED
CLOCK_MHZ = 125  # the RP2040's default system clock: cycles per emulated µs
BLOCK_FRAMES = 40  # main.BLOCK: frames per block (2 ms at 20 kHz)
FRAME_US = 50  # main.FRAME_US
BLOCK_CYCLES = CLOCK_MHZ * BLOCK_FRAMES * FRAME_US  # cycles a block's 2 ms of frames last
BOARD_STAMP_US = 100
"""A slap's stamp on the board against its contact, on the piezo model's waveforms
(issue 31's first-lobe timing; 10-40 µs measured here).  Mapped to the host's clock, the
clock sync's band comes on top: a round-trip sync lands somewhere inside it, where depends
on the host thread's latency in emulated time (docs/board-testing.md)."""


@dataclass(frozen=True)
class Budget:
    free_heap: int  # bytes after main.start(), gc.collect()
    blocks: int
    busy_us: int  # in Board.on_block ...
    detector_us: int  # ... of which in Detector.feed
    longest_block_us: int
    frames: int
    longest_pass_us: int  # between two looks at the DMA's write pointer
    elapsed_us: int  # from the first pass to the latest
    adc_frames: int  # frames the ADC and DMA wrote meanwhile
    dropped: int  # frames the DMA overwrote before the loop read them
    slaps: tuple[tuple[int, int, int, int], ...]  # (pad, velocity, onset ticks, peak)
    frames_sent: int  # frames the board wrote to the host (SLAPs, and RAW and EDGE while raw streams) ...
    bytes_sent: int  # ... and their bytes
    timed: dict[str, tuple[int, int, int]]
    """Per detector method mp/budget.py times (TIMED: a hit's onset, the part of it over a
    predicted ring, a ring's phase fit): calls, µs in them, the longest call's µs."""
    started_us: int
    """Board ticks of serve()'s first pass: what the detector saw came from then on."""

    @property
    def cycles_per_block(self) -> float:
        """Cycles spent per 2 ms of frames (40 frames × 3 pads)."""
        return self.busy_us * CLOCK_MHZ / self.frames * BLOCK_FRAMES

    @property
    def share(self) -> float:
        """Share of the CPU the detector and protocol take (goal ≤ 0.5)."""
        return self.busy_us / self.elapsed_us

    @property
    def frame_rate_hz(self) -> float:
        """Frames the ADC and DMA took per second (from the DMA's write pointer)."""
        return self.adc_frames * 1e6 / self.elapsed_us


def budget(
    board: EmulatedPadboard,
    blocks: int = 1 << 30,
    until_us: int = -1,
    from_us: int = -1,
    timeout: float = 3600,
    raw: tuple[int, int, int] | None = None,
    timed: bool = False,
) -> Budget:
    """main.py's start() and serve() on ``board`` (booted with BOOTSEL held, at its REPL)
    for ``blocks`` blocks or until the block holding emulated µs ``until_us``; with
    ``from_us``, the figures (and slaps) count from the block holding that µs on; with
    ``raw`` (RAW_START's pad mask, frames per block, flags), raw frames stream throughout;
    with ``timed``, the detector's TIMED methods are timed per call (their wrappers' code
    then counts in the free heap figure: ~1.5 KB)."""
    code = SCRIPT.read_text().replace("BLOCKS = 250", f"BLOCKS = {int(blocks)}")
    code = code.replace("UNTIL = -1", f"UNTIL = {until_us & TICKS_MASK if until_us >= 0 else -1}")
    code = code.replace("FROM = -1", f"FROM = {from_us & TICKS_MASK if from_us >= 0 else -1}")
    code = code.replace("RAW = None", f"RAW = {raw!r}")
    if not timed:
        head, rest = code.split("# methods timed\n")
        code = head + rest.split("# methods timed: end\n")[1]
    out = board.exec_raw(code, timeout=timeout)
    line = next(x for x in out.splitlines() if x.startswith("BUDGET "))
    free, stats, dropped, slaps, (frames_sent, bytes_sent), timings = ast.literal_eval(line.removeprefix("BUDGET "))
    n, busy, longest, frames, gap, _passes, first, last, f_first, f_last, det = stats
    adc = frame_diff(f_last, f_first)
    elapsed = ticks_diff(last, first)
    return Budget(
        free,
        n,
        busy,
        det,
        longest,
        frames,
        gap,
        elapsed,
        adc,
        dropped,
        tuple(map(tuple, slaps)),
        frames_sent,
        bytes_sent,
        {name: (timings[3 * j], timings[3 * j + 1], timings[3 * j + 2]) for j, name in enumerate(TIMED)},
        first,
    )


def onset_errors(
    slaps: tuple[tuple[int, int, int, int], ...], contacts: list[tuple[int, int, float]]
) -> list[tuple[int, int]]:
    """Per injected contact (pad, emulated µs, peak) with a slap on its pad within 5 ms:
    (index into ``contacts``, onset − contact µs).  Board ticks are emulated µs (the
    timer counts from the emulator's start) wrapped at 2**30."""
    out = []
    for i, (pad, t, _peak) in enumerate(contacts):
        near = [ticks_diff(onset, t & TICKS_MASK) for p, _v, onset, _pk in slaps if p == pad]
        near = [d for d in near if abs(d) <= 5000]
        if near:
            out.append((i, min(near, key=abs)))
    return out

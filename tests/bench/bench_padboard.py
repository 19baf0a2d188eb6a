"""Padboard: clock-sync error, detector onset-stamp error, host parser throughput.

Clock sync runs in virtual time (no sleeping): pings every 100 ms through the
simulator's USB model (0.1–2 ms one-way, asymmetric: host→board uniform, board→host
an exponential tail) to a board clock drifting ±100 ppm, wrapping at 2**30 µs; after
60 s of warm-up, board stamps at random instants are mapped and compared with truth.
The detector runs the board's own code on the piezo model (contact, ring, noise, drift,
crosstalk, random sample phase) fed frame by frame at 4 kHz; its stamp is the board's
estimate of the palm's contact (docs/slap-timing.md; the board itself samples at 20 kHz
by DMA: bench_slap_accuracy measures that, end to end).  The parser decodes RAW blocks
as the driver does (frame decode, payload unpack, per-frame clock mapping).
"""

from __future__ import annotations

import random

from firmware_py.padboard.detector import TICKS_MASK, ticks_diff
from firmware_py.sim.padboard import BoardClock, UsbJitter, detect, ping_exchange
from firmware_py.sim.piezo import ModelSlap, PiezoModel, PiezoPad, peak_for_velocity
from hal.padboard import wire
from hal.padboard.clocksync import ClockSync
from hal.padboard.settings import PadSettings
from tests.bench.harness import Figure, median_rate, percentile

TITLE = "Padboard: clock sync, detector, parser"
PERIOD_US = 250
BOARD_PADS = 4
BOARD_RAW_SAMPLES_PER_S = BOARD_PADS * 1_000_000 // PERIOD_US  # 16,000: all pads at 4 kHz


def clock_sync_errors(runs: int = 4) -> list[float]:
    errors: list[float] = []
    jitter = UsbJitter()
    mask = (1 << 30) - 1
    for run in range(runs):
        rng = random.Random(100 + run)
        board = BoardClock(offset_us=rng.randrange(1 << 40), drift_ppm=100.0 if run % 2 == 0 else -100.0)
        sync = ClockSync()
        h = 1_000_000
        for i in range(1200):
            sync.add(*ping_exchange(board, jitter, rng, h))
            h += 100_000
            if i >= 600:
                for _ in range(3):
                    true = h - rng.uniform(0, 100_000)
                    arrived = int(true + rng.uniform(2_000, 6_000))
                    errors.append(abs(sync.to_host(board.board_us(true) & mask, arrived) - true))
    return errors


def onset_errors(velocities: list[int], slaps: int, seed: int) -> list[float]:
    """|stamp − true contact| in µs, one slap every 150 ms on alternating pads."""
    rng = random.Random(seed)
    model = PiezoModel([PiezoPad()] * 2, seed=seed, crosstalk=0.2)
    truth: dict[int, list[int]] = {0: [], 1: []}
    t = 50_000
    for i in range(slaps):
        onset = t + rng.randrange(PERIOD_US)
        pad = i % 2
        model.add(ModelSlap(pad, onset, peak_for_velocity(rng.choice(velocities))))
        truth[pad].append(onset)
        t += 150_000
    settings = [PadSettings().as_dict()] * 2
    hits = detect(model.frames(0, t, PERIOD_US), settings)
    errors = []
    for pad, onset, _v, _p in hits:
        errors.append(min(abs(ticks_diff(onset, o & TICKS_MASK)) for o in truth[pad]))
    if len(hits) != slaps:
        raise AssertionError(f"detector found {len(hits)} hits for {slaps} slaps")
    return errors


def raw_stream(blocks: int) -> tuple[bytes, int]:
    """Bytes of ``blocks`` RAW frames (4 pads, 16 frames each) and the samples in them."""
    rng = random.Random(1)
    out = bytearray()
    t = 1000
    for seq in range(blocks):
        payload = bytearray(wire.raw_header(t, 0b1111, 16))
        for _ in range(16):
            payload += (PERIOD_US).to_bytes(2, "little")
            for _ in range(BOARD_PADS):
                payload += rng.randrange(30000, 36000).to_bytes(2, "little")
            t += PERIOD_US
        out += wire.encode_frame(wire.RAW, seq, bytes(payload))
    return bytes(out), blocks * 16 * BOARD_PADS


def parse(stream: bytes, sync: ClockSync | None) -> int:
    dec = wire.FrameDecoder()
    samples = 0
    for i in range(0, len(stream), 512):  # USB reads come in bulk-packet multiples
        for _t, _s, payload in dec.feed(stream[i : i + 512]):
            first, pads, frames = wire.unpack_raw(payload)
            if sync is not None:
                ticks = first
                for dt, _ in frames:
                    ticks += dt
                    sync.to_host(ticks, 2_000_000)
            samples += len(frames) * len(pads)
    return samples


def run() -> list[Figure]:
    figures = []
    cs = clock_sync_errors()
    figures += [
        Figure(
            "clock-sync error p50", percentile(cs, 50), "µs", "", f"{len(cs):,} mapped stamps, 4 runs, ±100 ppm drift"
        ),
        Figure(
            "clock-sync error p99",
            percentile(cs, 99),
            "µs",
            "≤ 50",
            "0.1–2 ms asymmetric USB jitter, 10 pings/s, 60 s window",
        ),
        Figure("clock-sync error max", max(cs), "µs", "", "after 60 s of warm-up"),
    ]
    soft = onset_errors([5, 8, 15, 30, 60, 100, 127], 400, seed=1)
    weak = onset_errors([3, 4], 200, seed=2)
    figures += [
        Figure(
            "onset-stamp error p50", percentile(soft, 50), "µs", "", f"{len(soft)} slaps, velocity 5–127, 4 kHz frames"
        ),
        Figure(
            "onset-stamp error p99", percentile(soft, 99), "µs", "≤ 250 (1 sample)", "noise σ 120, drift, crosstalk 0.2"
        ),
        Figure("onset-stamp error max", max(soft), "µs", "≤ 250 (1 sample)", ""),
        Figure(
            "onset-stamp error p99, barely above threshold",
            percentile(weak, 99),
            "µs",
            "",
            "velocity 3–4 (peak ≈ 1.2× threshold): little edge above the noise to time",
        ),
    ]
    stream, _samples = raw_stream(500)
    plain, _ = median_rate(lambda: parse(stream, None))
    sync = ClockSync()
    sync.add(1_000_000, 1000, 1_000_200)
    mapped, _ = median_rate(lambda: parse(stream, sync))
    figures += [
        Figure("parser: RAW samples decoded", plain, "samples/s", "", "frame decode + CRC + unpack, 512-byte reads"),
        Figure(
            "parser ratio to board's top raw rate",
            plain / BOARD_RAW_SAMPLES_PER_S,
            "×",
            "≥ 10",
            f"board top rate assumed {BOARD_RAW_SAMPLES_PER_S:,} samples/s (4 pads × 4 kHz)",
        ),
        Figure(
            "parser ratio incl. clock mapping",
            mapped / BOARD_RAW_SAMPLES_PER_S,
            "×",
            "≥ 10",
            "as the driver does it: every frame's time mapped to HAL µs",
        ),
    ]
    return figures

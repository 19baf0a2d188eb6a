"""Slaps for the emulated padboard: the project's piezo model (firmware_py/sim/piezo.py)
sampled on the host and queued as ADC waveforms at emulated times."""

from __future__ import annotations

from collections.abc import Sequence

from firmware_py.hil.board.emulator import EmulatedPadboard
from firmware_py.sim.piezo import ModelSlap, PiezoModel, PiezoPad

PADS = 3  # main.CHANNELS: ADC0..ADC2
STEP_US = 5  # waveform resolution: the ADC converts a pad every 50 µs, 16.7 µs apart
BEFORE_US = 2_000  # a slap's waveform starts this long before its contact ...
AFTER_US = 60_000  # ... and ends this long after (its ring has died into the noise)
SEND_LEAD_US = 20_000
"""A waveform is sent only if it starts at least this far ahead of the emulator's clock:
the emulator runs on while the host samples the model, and its three channels must all
arrive before their start."""


class TooLate(ValueError):
    """The emulator's clock passed (or nearly passed) a waveform's start while the host
    sampled it; nothing of it was sent, so no pad got half a slap."""


def waveform(
    slaps: Sequence[tuple[int, int, float]], t0_us: int, t1_us: int, seed: int, crosstalk: float
) -> list[list[int]]:
    """12-bit samples per pad every STEP_US from ``t0_us`` to ``t1_us`` of the model with
    ``slaps`` (pad, contact µs, peak counts) in it."""
    model = PiezoModel([PiezoPad(drift=0.0)] * PADS, seed=seed, crosstalk=crosstalk)
    for pad, t, peak in slaps:
        model.add(ModelSlap(pad, t, peak))
    out: list[list[int]] = [[] for _ in range(PADS)]
    for t in range(t0_us, t1_us, STEP_US):
        for i, x in enumerate(model.sample(t, 0.0)):
            out[i].append(min(4095, max(0, x >> 4)))
    return out


def inject(
    board: EmulatedPadboard, slaps: Sequence[tuple[int, int, float]], seed: int = 0, crosstalk: float = 0.1
) -> None:
    """Queue ``slaps`` (pad, contact in emulated µs, peak) as one waveform on every pad;
    TooLate when the emulator is already within SEND_LEAD_US of its start."""
    inject_all(board, [slaps], [seed], crosstalk)


def inject_all(
    board: EmulatedPadboard,
    batches: Sequence[Sequence[tuple[int, int, float]]],
    seeds: Sequence[int],
    crosstalk: float = 0.1,
    lead_us: int = SEND_LEAD_US,
) -> None:
    """:func:`inject` for several batches of slaps (each a waveform of its own, ``seeds``
    one each): all sampled first, then all sent, or none (TooLate) if the emulator came
    within ``lead_us`` of the earliest start meanwhile."""
    waves = []
    for slaps, seed in zip(batches, seeds, strict=True):
        t0 = min(t for _, t, _ in slaps) - BEFORE_US
        t1 = max(t for _, t, _ in slaps) + AFTER_US
        waves.append((t0, waveform(slaps, t0, t1, seed, crosstalk)))
    now = board.now_us()
    first = min(t0 for t0, _ in waves)
    if first < now + lead_us:
        raise TooLate(f"a waveform starting at {first} µs, sampled by {now} µs of emulated time")
    for t0, values_per_pad in waves:
        for ch, values in enumerate(values_per_pad):
            board.control(op="adc", ch=ch, t0_ns=t0 * 1000, dt_ns=STEP_US * 1000, v=values)

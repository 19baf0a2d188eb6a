"""The padboard's own firmware (main.py and its files, MicroPython v1.28.0) on an
emulated RP2040: it boots from a littlefs image built here, samples three pads by ADC
round robin and DMA at 20 kHz, stamps slaps from the piezo model's waveforms, and the
cabinet's driver reads it over USB-CDC through pyserial's socket://.

Uses ../shared/tools/rp2040/micropython-v1.28.0-RPI_PICO.bin and bootrom-b1.json after
checking their SHA-256 (image.py); docs/board-testing.md says how to rebuild them.
Only ``make board-test`` collects this file (conftest.py)."""

from __future__ import annotations

import statistics
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from firmware_py.sim.piezo import peak_for_velocity
from hal.padboard.driver import LinkTiming, PadboardSource
from hal.slap_source import SlapEvent
from tests.board import emulator, image, measure, micropython, slaps

pytestmark = [pytest.mark.board, pytest.mark.slow]

SLOW = 40
"""Emulated time runs 0.05-0.4x wall time here: the driver's timeouts (wall clock) are
stretched this much, its clock is the emulator's (emulator.EmulatedClock)."""
EMULATED_TIMING = LinkTiming(
    handshake_timeout_s=1.0 * SLOW, link_timeout_s=1.5 * SLOW, command_timeout_s=1.0 * SLOW, backoff_max_s=2.0
)


def test_the_emulator_runs_the_checked_image() -> None:
    """The figures are the image's: a different binary is refused, naming the fix."""
    assert image.checked(image.FIRMWARE, image.FIRMWARE_SHA256).name == "micropython-v1.28.0-RPI_PICO.bin"
    with pytest.raises(image.ImageError, match="rebuild it"):
        image.checked(image.BOOTROM, image.FIRMWARE_SHA256)


@pytest.fixture(scope="module")
def repl_board(tmp_path_factory: pytest.TempPathFactory) -> Iterator[emulator.EmulatedPadboard]:
    """Booted with BOOTSEL held: main.py returns to the REPL, the tests run its parts."""
    with emulator.EmulatedPadboard(image.filesystem(), tmp_path_factory.mktemp("repl"), bootsel=True) as board:
        board.wait_usb()
        yield board


def test_main_loop_keeps_up_with_20_khz_on_three_pads(repl_board: emulator.EmulatedPadboard) -> None:
    """main.start() and serve() as the board runs them, idle: frames at 20 kHz from the
    ADC's round robin by DMA, none dropped; the free heap is what the MicroPython tests cap at."""
    got = measure.budget(repl_board, blocks=100)
    assert abs(got.frame_rate_hz - 20_000) < 200, got
    assert got.dropped == 0, got
    assert abs(got.free_heap - micropython.PICO_FREE_HEAP) <= 4096, got  # else update the cap


def test_board_stamps_injected_slaps_at_their_contact(repl_board: emulator.EmulatedPadboard) -> None:
    """Slaps of every force on each pad, from the piezo model's waveforms: one SLAP each,
    stamped at the palm's contact within one 4 kHz state frame (as the simulator's tests)."""
    start = repl_board.now_us() + 400_000
    contacts = [(i % 3, start + i * 40_000, peak_for_velocity(v)) for i, v in enumerate([8, 30, 60, 100, 127, 20])]
    slaps.inject(repl_board, contacts, seed=5)
    got = measure.budget(repl_board, blocks=(400_000 + 6 * 40_000 + 60_000) // 2000 + 50)
    errors = measure.onset_errors(got.slaps, contacts)
    assert [i for i, _ in errors] == list(range(len(contacts))), got.slaps
    assert len(got.slaps) == len(contacts), got.slaps
    assert all(abs(e) <= 250 for _, e in errors), errors


def test_cabinet_driver_reads_the_emulated_board(tmp_path: Path) -> None:
    """hal/padboard's driver on socket:// as on /dev/ringside-padboard: handshake, clock
    sync, and each slap delivered once to its station at its contact."""
    with emulator.EmulatedPadboard(image.filesystem(), tmp_path) as board:
        board.wait_usb()
        source = PadboardSource(board.url, board.clock, {0: 0, 1: 1, 2: 2}, timing=EMULATED_TIMING)
        try:
            deadline = time.monotonic() + 60 * SLOW
            while not source.connected:
                assert time.monotonic() < deadline, source.last_error
                time.sleep(0.5)
            start = board.now_us() + 300_000
            contacts = [(i % 3, start + i * 50_000, peak_for_velocity(v)) for i, v in enumerate([15, 70, 127])]
            slaps.inject(board, contacts, seed=2)
            board.wait_emulated(300_000 + 3 * 50_000 + 200_000)
            events = [e for e in source.poll(board.clock.now_us()) if isinstance(e, SlapEvent)]
        finally:
            source.close()
    assert [e.station for e in events] == [p for p, _, _ in contacts], events
    errors = [e.t_us - t for e, (_, t, _) in zip(events, contacts)]
    assert all(abs(x) <= 400 for x in errors), errors  # the stamp's own error plus the clock sync's
    assert statistics.median(abs(x) for x in errors) <= 250, errors

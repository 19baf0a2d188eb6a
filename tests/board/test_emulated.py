"""The padboard's own firmware (main.py and its files, MicroPython v1.28.0) on an
emulated RP2040: it boots from a littlefs image built here, samples three pads by ADC
round robin and DMA at 20 kHz, stamps slaps from the piezo model's waveforms, and the
cabinet's driver reads it over USB-CDC through pyserial's socket://.

Uses ../shared/tools/rp2040/micropython-v1.28.0-RPI_PICO.bin and bootrom-b1.json after
checking their SHA-256 (image.py); docs/board-testing.md says how to rebuild them.
Only ``make board-test`` collects this file (conftest.py)."""

from __future__ import annotations

import random
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


def test_adc_and_dma_take_20_khz_frames_of_three_pads(repl_board: emulator.EmulatedPadboard) -> None:
    """main.start() as the board runs it: the ADC's round robin paced by its divider and
    copied by DMA into the ring gives frames at 20 kHz; the free heap after start-up is
    what the MicroPython tests cap at."""
    got = measure.budget(repl_board, blocks=30)
    assert abs(got.frame_rate_hz - 20_000) < 100, got
    assert abs(got.free_heap - micropython.PICO_FREE_HEAP) <= 4096, got  # else update the cap


@pytest.mark.xfail(
    strict=True,
    reason="issue 32, measured: at 125 MHz the idle loop takes ~4.9 ms of CPU per 2 ms block of "
    "3 pads at 20 kHz (~245 %, goal <= 50 %), so the DMA overwrites frames (BENCHMARKS.md)",
)
def test_main_loop_keeps_up_with_20_khz_on_three_pads(repl_board: emulator.EmulatedPadboard) -> None:
    """serve() hands every frame to the board, none overwritten by the DMA first."""
    got = measure.budget(repl_board, blocks=30)
    assert got.dropped == 0, got


@pytest.mark.xfail(
    strict=True,
    reason="issue 32, measured: the loop drops frames (CPU ~248 % idle, ~379 % in a burst at 125 MHz), "
    "so slaps are missed or mis-stamped (BENCHMARKS.md)",
)
def test_board_stamps_injected_slaps_at_their_contact(repl_board: emulator.EmulatedPadboard) -> None:
    """Slaps of every force on each pad, from the piezo model's waveforms: one SLAP each,
    stamped at the palm's contact within one 4 kHz state frame (as the simulator's tests)."""
    start = repl_board.now_us() + 400_000
    contacts = [(i % 3, start + i * 40_000, peak_for_velocity(v)) for i, v in enumerate([8, 30, 60, 100, 127, 20])]
    slaps.inject(repl_board, contacts, seed=5)
    got = measure.budget(repl_board, until_us=contacts[-1][1] + 60_000)
    errors = measure.onset_errors(got.slaps, contacts)
    assert [i for i, _ in errors] == list(range(len(contacts))), got.slaps
    assert len(got.slaps) == len(contacts), got.slaps
    assert all(abs(e) <= 250 for _, e in errors), errors


def connected_source(board: emulator.EmulatedPadboard) -> PadboardSource:
    """The cabinet's driver on the board's socket://, once main.py serves (after its 1 s
    BOOTSEL window: HELLOs sent while it boots, minutes of wall time here, are answered
    in a heap when it starts, and the driver takes them for a renumbering board)."""
    board.wait_usb()
    board.wait_emulated(1_300_000)
    source = PadboardSource(board.url, board.clock, {0: 0, 1: 1, 2: 2}, timing=EMULATED_TIMING)
    deadline = time.monotonic() + 60 * SLOW
    while not source.connected:
        if time.monotonic() > deadline:
            source.close()
            raise AssertionError(f"the driver never connected: {source.last_error}")
        time.sleep(0.5)
    return source


@pytest.fixture(scope="module")
def linked(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[emulator.EmulatedPadboard, PadboardSource]]:
    """The board running main.py, the cabinet's driver connected to it."""
    with emulator.EmulatedPadboard(image.filesystem(), tmp_path_factory.mktemp("linked")) as board:
        source = connected_source(board)
        try:
            yield board, source
        finally:
            source.close()


def test_cabinet_driver_links_to_the_emulated_board(linked: tuple[emulator.EmulatedPadboard, PadboardSource]) -> None:
    """hal/padboard's driver on socket:// as on /dev/ringside-padboard: the board's own
    main.py answers HELLO with its INFO, and pings sync the clocks."""
    _board, source = linked
    assert source.connected
    assert source.info is not None and source.info.firmware == "ringside-padboard 2.1" and source.info.pads == 3
    assert source.sync.count >= EMULATED_TIMING.sync_pings


@pytest.mark.xfail(
    strict=True,
    reason="issue 32, measured: the loop drops frames (CPU ~248 % idle at 125 MHz), so slaps are missed "
    "or mis-measured (one run: 2 of 3 delivered, a velocity 70 read as 9; BENCHMARKS.md)",
)
def test_cabinet_driver_reads_slaps_from_the_emulated_board(
    linked: tuple[emulator.EmulatedPadboard, PadboardSource],
) -> None:
    """Each slap delivered once to its station, stamped at its contact."""
    board, source = linked
    start = board.now_us() + 300_000
    contacts = [(i % 3, start + i * 50_000, peak_for_velocity(v)) for i, v in enumerate([15, 70, 127])]
    slaps.inject(board, contacts, seed=2)
    board.wait_emulated(300_000 + 3 * 50_000 + 200_000)
    events = [e for e in source.poll(board.clock.now_us()) if isinstance(e, SlapEvent)]
    assert [e.station for e in events] == [p for p, _, _ in contacts], events
    errors = [e.t_us - t for e, (_, t, _) in zip(events, contacts)]
    assert all(abs(x) <= 400 for x in errors), errors  # the stamp's own error plus the clock sync's
    assert statistics.median(abs(x) for x in errors) <= 250, errors


def slapping(
    board: emulator.EmulatedPadboard, source: PadboardSource, seconds: float, unplug_at: float | None
) -> dict[str, int]:
    """Slaps every 250 ms round the pads for ``seconds`` of emulated time, with the board
    unplugged and replugged once at ``unplug_at`` s; how the link delivered them."""
    rng = random.Random(32)
    start = board.now_us() + 200_000
    contacts = [
        (i % 3, start + i * 250_000 + rng.randrange(1000), peak_for_velocity(rng.choice([10, 30, 60, 100, 127])))
        for i in range(int(seconds * 4))
    ]
    queued = 0
    outage: tuple[int, int] | None = None
    events: list[SlapEvent] = []
    while True:
        now = board.now_us()
        while queued < len(contacts) and contacts[queued][1] < now + 400_000:
            if contacts[queued][1] - slaps.BEFORE_US > now:
                slaps.inject(board, [contacts[queued]], seed=queued)
            queued += 1
        if unplug_at is not None and outage is None and now >= start + unplug_at * 1e6:
            board.control(op="unplug")
            time.sleep(2)
            board.control(op="replug")
            outage = (now, now)
        if outage is not None and outage[0] == outage[1] and source.connected:
            outage = (outage[0], board.now_us())
        events += [e for e in source.poll(board.clock.now_us()) if isinstance(e, SlapEvent)]
        if now > contacts[-1][1] + 200_000:
            break
        time.sleep(0.3)
    down = range(outage[0] - 100_000, outage[1] + 100_000) if outage else range(0)
    matched = [0] * len(contacts)
    strays = 0
    for e in events:
        near = [i for i, (p, t, _) in enumerate(contacts) if p == e.station and abs(e.t_us - t) <= 5_000]
        if near:
            matched[near[0]] += 1
        else:
            strays += 1
    live = [i for i, (_, t, _) in enumerate(contacts) if t not in down]
    counters = source.counters
    return {
        "slaps": len(live),
        "lost": sum(1 for i in live if matched[i] == 0),
        "doubled": sum(1 for i in live if matched[i] > 1) + strays,
        "during_outage": len(contacts) - len(live),
        "outage_us": outage[1] - outage[0] if outage else 0,
        "reconnects": counters.reconnects,
        "resyncs": counters.resyncs,
        "gaps": counters.gaps,
        "duplicates": counters.duplicates,
    }


@pytest.mark.soak
def test_sixty_seconds_of_slapping_with_an_unplug(tmp_path: Path) -> None:
    """60 s of emulated slapping through the driver, the board unplugged and replugged
    half way: no slap lost or doubled while the link is up, and the link comes back."""
    with emulator.EmulatedPadboard(image.filesystem(), tmp_path) as board:
        source = connected_source(board)
        try:
            got = slapping(board, source, 60.0, unplug_at=30.0)
        finally:
            source.close()
    print("link over emulated slapping:", got)
    assert got["lost"] == 0 and got["doubled"] == 0, got
    assert got["outage_us"] > 0, got

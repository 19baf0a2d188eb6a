"""The padboard driver never trusts a sequence number or a stamp it cannot explain.

Issue 10, defect 4: one CRC-valid frame numbered 1000 ahead was taken as a slap 155 s
off, after which the real slaps were dropped as "duplicates" while the link said it
was up; a board restarting its numbering without a handshake lost slaps the same way.
Here forged frames and a board that restarts its numbering go over the simulator's real
pty: the driver drops the link and syncs again (the game pauses meanwhile: a
``PadLinkEvent`` down, then up), and every real slap after that arrives, stamped right.
"""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest

from firmware_py.sim.padboard import BoardClock, PadboardSimulator
from hal.padboard import wire
from hal.padboard.driver import PadboardSource
from tests.hal.padboard.test_link import CLOCK, FAST, STAMP_TOLERANCE_US, Collector, slap_soon, wait_for

pytestmark = pytest.mark.slow
"""Every test here takes more than a moment: ``make check`` leaves them to ``make test``."""

TICKS = (1 << 30) - 1


@pytest.fixture
def sim() -> Iterator[PadboardSimulator]:
    with PadboardSimulator(pads=2, seed=8, clock=CLOCK) as s:
        yield s


@pytest.fixture
def src(sim: PadboardSimulator) -> Iterator[PadboardSource]:
    s = PadboardSource(sim.port, CLOCK, {0: 0, 1: 1}, timing=FAST)
    yield s
    s.close()


def forge(sim: PadboardSimulator, ahead: int, msg_type: int, payload: bytes) -> int:
    """Put a frame with a good CRC on the wire, numbered ``ahead`` past the board's next."""
    with sim._lock:  # the simulator's own lock: the board does not send meanwhile
        seq = (sim.board.seq + ahead) & 0xFFFF
        sim._faults.garbage.append(wire.encode_frame(msg_type, seq, payload))
    return seq


def forged_slap(sim: PadboardSimulator, off_us: int) -> bytes:
    onset = sim.board_clock.board_us(CLOCK.now_us() + off_us) & TICKS
    return wire.pack_slap(0, 100, onset, 900)


def restart_numbering(sim: PadboardSimulator, new_clock: bool = False) -> None:
    """The board starts its numbering again without a HELLO (a firmware restart that
    kept the USB link), with a new clock origin too if ``new_clock``."""
    with sim._lock:
        sim.board.seq = 0
        if new_clock:
            sim.board_clock = BoardClock(sim.board_clock.offset_us + 777_777_777, sim.board_clock.drift_ppm)
            sim._next_frame = sim.board_clock.board_us(CLOCK.now_us())


def resynced_then_slaps_arrive(sim: PadboardSimulator, src: PadboardSource, got: Collector, resyncs: int = 1) -> None:
    wait_for(lambda: src.counters.resyncs >= resyncs and src.connected and len(got.links()) >= 2)
    down, up = got.links()[:2]
    assert not down.connected and down.detail.startswith("resynchronising") and up.connected
    truth = [slap_soon(sim, pad, 90, ahead) for pad, ahead in ((0, 40_000), (1, 160_000), (0, 280_000), (1, 400_000))]
    wait_for(lambda: len(got.slaps()) >= 4)
    time.sleep(0.1)
    slaps = got.slaps()
    assert [s.station for s in slaps] == [0, 1, 0, 1]
    for s, t in zip(slaps, truth):
        assert abs(s.t_us - t) <= STAMP_TOLERANCE_US, (s, t)


def test_a_forged_frame_1000_ahead_is_not_a_slap(sim: PadboardSimulator, src: PadboardSource) -> None:
    got = Collector(src)
    wait_for(lambda: src.counters.frames_ok >= 12)
    forge(sim, 1000, wire.SLAP, forged_slap(sim, 155_000_000))
    resynced_then_slaps_arrive(sim, src, got)
    assert src.counters.duplicates == 0


def test_a_forged_next_frame_with_an_implausible_stamp_is_dropped(sim: PadboardSimulator, src: PadboardSource) -> None:
    got = Collector(src)
    wait_for(lambda: src.counters.frames_ok >= 12)
    forge(sim, 0, wire.SLAP, forged_slap(sim, 155_000_000))
    wait_for(lambda: src.counters.resyncs >= 1)
    assert src.counters.implausible == 1
    resynced_then_slaps_arrive(sim, src, got)


@pytest.mark.parametrize("after", [40, 0])
def test_a_board_that_restarts_its_numbering_is_synced_again(
    sim: PadboardSimulator, src: PadboardSource, after: int
) -> None:
    """``after`` frames requested first: 40 puts the numbers the board restarts from
    beyond the driver's history, 0 inside it (where they look like repeats)."""
    got = Collector(src)
    for _ in range(after):
        src.request_health()
    restart_numbering(sim)
    resynced_then_slaps_arrive(sim, src, got)
    assert src.counters.duplicates == 0


def test_a_board_that_restarts_with_a_new_clock_is_synced_again(sim: PadboardSimulator, src: PadboardSource) -> None:
    got = Collector(src)
    for _ in range(40):
        src.request_health()
    restart_numbering(sim, new_clock=True)
    resynced_then_slaps_arrive(sim, src, got)

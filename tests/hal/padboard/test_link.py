"""The padboard driver against the simulator over a real pty, in real time.

Only outcomes are asserted (events, counters, mapped stamps within a generous bound),
never durations; every wait is a poll with a generous timeout.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator

import pytest

from firmware_py.sim.padboard import PadboardSimulator
from hal.clock import MonotonicClock
from hal.events import PadLinkEvent, SlapEvent
from hal.padboard import wire
from hal.padboard.driver import LinkTiming, PadboardError, PadboardSource, ProtocolVersionError
from hal.padboard.messages import PadEdge, RawBlock
from hal.padboard.settings import PadSettings

# Mapped stamps are judged against the truth within a bound the clock sync holds while the
# driver's thread is scheduled in time; parallel workers on two cores starved it to 4.7 ms.
pytestmark = pytest.mark.realtime

CLOCK = MonotonicClock()
FAST = LinkTiming(backoff_first_s=0.02, backoff_max_s=0.2)
STAMP_TOLERANCE_US = 3_000  # detector ≤ 250 µs + early clock sync + a loaded 2-core box


def wait_for(cond: Callable[[], bool], timeout_s: float = 10.0) -> None:
    deadline = time.monotonic() + timeout_s
    while not cond():
        if time.monotonic() > deadline:
            raise AssertionError("condition not met in time")
        time.sleep(0.01)


class Collector:
    def __init__(self, src: PadboardSource) -> None:
        self.src = src
        self.events: list[SlapEvent | PadLinkEvent] = []

    def pump(self) -> Collector:
        self.events += self.src.poll(CLOCK.now_us())
        return self

    def slaps(self) -> list[SlapEvent]:
        return [e for e in self.pump().events if isinstance(e, SlapEvent)]

    def links(self) -> list[PadLinkEvent]:
        return [e for e in self.pump().events if isinstance(e, PadLinkEvent)]


@pytest.fixture
def sim() -> Iterator[PadboardSimulator]:
    with PadboardSimulator(pads=2, seed=3, clock=CLOCK) as s:
        yield s


@pytest.fixture
def src(sim: PadboardSimulator) -> Iterator[PadboardSource]:
    s = PadboardSource(sim.port, CLOCK, {0: 1, 1: 0}, timing=FAST)
    yield s
    s.close()


def slap_soon(sim: PadboardSimulator, pad: int, velocity: int, ahead_us: int = 30_000) -> int:
    return sim.slap(pad, CLOCK.now_us() + ahead_us, velocity)


@pytest.mark.slow
def test_padboard_link_handshake_and_mapped_slaps(sim: PadboardSimulator, src: PadboardSource) -> None:
    assert src.connected and src.info is not None
    assert (src.info.version, src.info.pads, src.info.tick_bits) == (wire.PROTOCOL_VERSION, 2, 30)
    assert src.name == "padboard" and src.settle_us > 0
    truth = [slap_soon(sim, 0, 90), slap_soon(sim, 1, 40, 120_000), slap_soon(sim, 0, 20, 220_000)]
    got = Collector(src)
    wait_for(lambda: len(got.slaps()) >= 3)
    time.sleep(0.1)
    slaps = got.slaps()
    assert [s.station for s in slaps] == [1, 0, 1]  # pad 0 → station 1, pad 1 → station 0
    assert all(s.source == "padboard" and 1 <= s.velocity <= 127 for s in slaps)
    assert abs(slaps[0].velocity - 90) <= 12 and abs(slaps[2].velocity - 20) <= 6
    for s, t in zip(slaps, truth):
        assert abs(s.t_us - t) <= STAMP_TOLERANCE_US, (s, t)


@pytest.mark.slow
def test_padboard_link_garbage_and_bit_flips_are_counted_and_skipped(
    sim: PadboardSimulator, src: PadboardSource
) -> None:
    sim.garbage(300)
    sim.corrupt_next(2)
    wait_for(lambda: src.counters.bad_frames >= 3)
    assert src.counters.garbage_bytes >= 300
    truth = slap_soon(sim, 1, 70)
    got = Collector(src)
    wait_for(lambda: len(got.slaps()) == 1)
    assert abs(got.slaps()[0].t_us - truth) <= STAMP_TOLERANCE_US
    assert src.connected


@pytest.mark.slow
def test_padboard_link_gap_is_recovered_and_duplicates_never_count_twice(
    sim: PadboardSimulator, src: PadboardSource
) -> None:
    sim.drop_next(1, wire.SLAP)
    truth = slap_soon(sim, 0, 60)
    got = Collector(src)
    wait_for(lambda: len(got.slaps()) == 1)
    assert src.counters.gaps >= 1 and src.counters.recovered >= 1
    assert abs(got.slaps()[0].t_us - truth) <= STAMP_TOLERANCE_US
    sim.duplicate_next(1, wire.SLAP)
    slap_soon(sim, 1, 60)
    wait_for(lambda: len(got.slaps()) == 2 and src.counters.duplicates >= 1)
    time.sleep(0.2)
    assert len(got.slaps()) == 2


@pytest.mark.slow
def test_padboard_link_unplug_pauses_then_recovers(sim: PadboardSimulator, src: PadboardSource) -> None:
    got = Collector(src)
    sim.unplug()
    wait_for(lambda: len(got.links()) == 1)
    down = got.links()[0]
    assert not down.connected and down.source == "padboard" and down.detail
    assert not src.connected
    with pytest.raises(PadboardError):
        src.read_settings(0)
    sim.replug()
    wait_for(lambda: len(got.links()) == 2)
    assert got.links()[1].connected and src.connected
    assert src.counters.reconnects == 1
    truth = slap_soon(sim, 1, 80)
    wait_for(lambda: len(got.slaps()) == 1)
    assert got.slaps()[0].station == 0 and abs(got.slaps()[0].t_us - truth) <= STAMP_TOLERANCE_US


def test_padboard_link_wrong_protocol_version_is_a_clear_error() -> None:
    with (
        PadboardSimulator(pads=2, protocol_version=wire.PROTOCOL_VERSION + 1, clock=CLOCK) as sim,
        pytest.raises(
            ProtocolVersionError,
            match=rf"protocol v{wire.PROTOCOL_VERSION + 1}.*host speaks v{wire.PROTOCOL_VERSION}.*reflash",
        ),
    ):
        PadboardSource(sim.port, CLOCK, {0: 0}, timing=FAST)


@pytest.mark.slow
def test_padboard_link_missing_port_reports_down_then_connects(tmp_path) -> None:
    sim = PadboardSimulator(pads=2, clock=CLOCK)
    sim.unplug()
    src = PadboardSource(sim.port, CLOCK, {0: 0}, timing=FAST)
    try:
        got = Collector(src)
        assert [e.connected for e in got.links()] == [False]
        sim.replug()
        sim.start()
        wait_for(lambda: len(got.links()) == 2)
        assert got.links()[1].connected
    finally:
        src.close()
        sim.stop()


@pytest.mark.slow
def test_padboard_link_settings_saved_to_flash_survive_a_reboot(sim: PadboardSimulator, src: PadboardSource) -> None:
    chosen = PadSettings(threshold=1500, scan_us=1500, xtalk_pct=40)
    assert src.write_settings(1, chosen) == chosen
    assert src.read_settings(1) == chosen
    assert src.read_settings(0) == PadSettings()
    src.save_settings()
    got = Collector(src)
    sim.unplug()
    sim.replug()
    wait_for(lambda: any(e.connected for e in got.links()))
    assert src.read_settings(1) == chosen
    with pytest.raises(PadboardError, match="status 1"):
        src.read_settings(7)


@pytest.mark.slow
def test_padboard_link_raw_stream_and_health(sim: PadboardSimulator, src: PadboardSource) -> None:
    blocks: list[RawBlock] = []
    src.start_raw([1], blocks.append, frames_per_block=20)
    wait_for(lambda: len(blocks) >= 5)
    src.stop_raw()
    b = blocks[-1]
    assert b.pads == (1,) and len(b.t_us) == len(b.samples) == 20
    steps = [t2 - t1 for t1, t2 in zip(b.t_us, b.t_us[1:])]
    assert all(240 <= s <= 260 for s in steps)  # 250 µs board frames, seen through 100 ppm drift
    assert abs(b.t_us[-1] - CLOCK.now_us()) < 2_000_000
    assert all(abs(s[0] - 32768) < 3000 for s in b.samples)
    health = src.request_health()
    assert health.frames > 0 and health.dropped == 0
    assert 3900 < health.sample_rate_hz < 4100
    assert len(health.pads) == 2 and all(abs(p.baseline - 32768) < 1500 for p in health.pads)


@pytest.mark.slow
def test_padboard_link_streams_each_hits_edge_for_calibration(sim: PadboardSimulator, src: PadboardSource) -> None:
    """With ``on_edge``, every hit's rising edge follows it at the board's sampling rate,
    mapped to host time like its stamp; after stop_raw, none."""
    edges: list[PadEdge] = []
    col = Collector(src)
    src.start_raw([0, 1], lambda _b: None, on_edge=edges.append)
    slap_soon(sim, 0, 90)
    wait_for(lambda: len(edges) >= 1 and len(col.slaps()) >= 1)
    src.stop_raw()
    [edge] = edges
    [slap] = col.slaps()
    assert edge.pad == 0 and slap.station == 1  # pad 0 is station 1 here
    assert abs(edge.onset_us - slap.t_us) <= 2  # the same stamp, mapped the same way
    assert edge.period_us == sim.frame_us
    assert abs(edge.t_us - (edge.onset_us - wire.EDGE_BEFORE_US)) <= edge.period_us
    assert max(edge.samples) - min(edge.samples) > 5_000  # the rise is in it
    slap_soon(sim, 1, 90)
    wait_for(lambda: len(col.slaps()) >= 2)
    assert len(edges) == 1


@pytest.mark.slow
def test_padboard_link_reports_contact_probe_touches_in_host_time() -> None:
    """A board with the contact probe worn: each slap's touch reaches ``on_contact`` in
    host µs, a few µs after the true contact (the board's interrupt)."""
    with PadboardSimulator(pads=2, seed=3, clock=CLOCK, probe=True) as sim:
        src = PadboardSource(sim.port, CLOCK, {0: 1, 1: 0}, timing=FAST)
        try:
            touches: list[int] = []
            wait_for(lambda: src.info is not None)
            src.start_raw([0, 1], lambda _b: None, on_contact=touches.append)
            true = [slap_soon(sim, 1, 60), slap_soon(sim, 0, 100, ahead_us=200_000)]
            wait_for(lambda: len(touches) >= 2)
            src.stop_raw()
            assert len(touches) == 2
            assert all(abs(t - c) <= STAMP_TOLERANCE_US for t, c in zip(touches, true)), (touches, true)
        finally:
            src.close()


@pytest.mark.slow
def test_padboard_link_simulator_port_at_a_chosen_path(tmp_path) -> None:
    port = str(tmp_path / "ringside-padboard")
    with PadboardSimulator(pads=1, clock=CLOCK, port=port) as sim:
        assert sim.port == port
        src = PadboardSource(port, CLOCK, {0: 0}, timing=FAST)
        try:
            hits = []
            src.on_hit = hits.append
            # A first handshake a starved process could not finish in time is made again by
            # the reader thread; until then the link is down (the game paused) and a slap
            # is not the game's.
            wait_for(lambda: src.connected)
            truth = slap_soon(sim, 0, 100)
            wait_for(lambda: len(hits) == 1)
            assert hits[0].pad == 0 and hits[0].peak > 20_000 and abs(hits[0].t_us - truth) <= STAMP_TOLERANCE_US
        finally:
            src.close()

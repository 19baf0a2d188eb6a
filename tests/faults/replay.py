"""A hostile frame source on the padboard link: old, valid slap frames replayed.

Issue 22: five old slap frames every 120 ms, while 40 slaps were played, lost 14-17 of
them, delivered 7-17 twice (stamps under 1 ms apart) and took the link down six times,
about 4 s.  :func:`replay_attack` plays that over the simulator's real pty and counts
what reached the game; ``python -m tests.faults.replay`` prints the figures.
"""

from __future__ import annotations

import random
import threading
import time
from dataclasses import dataclass, field

from firmware_py.sim.padboard import PadboardSimulator, _frame_type
from hal.clock import MonotonicClock
from hal.events import PadLinkEvent, SlapEvent
from hal.padboard import wire
from hal.padboard.driver import LinkTiming, PadboardSource

CLOCK = MonotonicClock()
FAST = LinkTiming(backoff_first_s=0.02, backoff_max_s=0.2)
STAMP_TOLERANCE_US = 3_000
"""As the link tests allow: detector ≤ 250 µs, an early clock sync, a loaded 2-core box."""


class Replayer:
    """Records every SLAP frame the board sends; from :meth:`start`, puts ``burst`` of
    them, drawn at random from all recorded so far, on the wire every ``period_s``."""

    def __init__(self, sim: PadboardSimulator, burst: int = 5, period_s: float = 0.12, seed: int = 22) -> None:
        self.sim = sim
        self.burst = burst
        self.period_s = period_s
        self.recorded: list[bytes] = []
        self.sent = 0
        self._rng = random.Random(seed)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="replayer", daemon=True)
        write = sim.board._write

        def tap(frame: bytes) -> None:
            if _frame_type(frame) == wire.SLAP:
                self.recorded.append(frame)
            write(frame)

        sim.board._write = tap

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(timeout=5)

    def _run(self) -> None:
        while not self._stop.wait(self.period_s):
            with self.sim._lock:  # the simulator's own lock: between two of the board's frames
                frames = [self._rng.choice(self.recorded) for _ in range(self.burst)] if self.recorded else []
                self.sim._faults.garbage += frames
                self.sent += len(frames)


@dataclass
class ReplayFigures:
    slaps: int
    delivered: int = 0
    lost: int = 0
    twice: int = 0
    misplaced: int = 0
    """Delivered, but stamped further than :data:`STAMP_TOLERANCE_US` from the truth."""
    extra: int = 0
    """Slaps delivered where none was played (an old one again, stamped off its first)."""
    replayed: int = 0
    links_down: int = 0
    down_s: float = 0.0
    counters: dict[str, int] = field(default_factory=dict)

    def line(self) -> str:
        c = self.counters
        return (
            f"{self.slaps} slaps, {self.replayed} old frames replayed: {self.lost} lost, {self.twice} delivered twice, "
            f"{self.extra} extra, {self.misplaced} misstamped; link down {self.links_down} times ({self.down_s:.2f} s); "
            f"dropped as stray {c.get('stray', 0)}, duplicates {c.get('duplicates', 0)}, repeats "
            f"{c.get('repeats', 0)}, implausible {c.get('implausible', 0)}; resyncs {c.get('resyncs', 0)}"
        )


def replay_attack(
    slaps: int = 40, warmup: int = 10, spacing_us: int = 100_000, seed: int = 8, restart: bool = False
) -> ReplayFigures:
    """``warmup`` slaps recorded first, then ``slaps`` more, ``spacing_us`` apart on
    alternating pads, with the replay running from the first of them to the end.
    ``restart``: halfway, the board restarts its numbering (a firmware restart that kept
    the USB link): the link must sync again while the replay goes on."""
    with PadboardSimulator(pads=2, seed=seed, clock=CLOCK) as sim:
        replayer = Replayer(sim)
        src = PadboardSource(sim.port, CLOCK, {0: 0, 1: 1}, timing=FAST)
        events: list[SlapEvent | PadLinkEvent] = []
        try:
            for n in range(warmup):
                sim.slap(n % 2, CLOCK.now_us() + 30_000, 90)
                time.sleep(spacing_us / 1e6)
            time.sleep(0.3)
            events += src.poll(CLOCK.now_us())
            replayer.start()
            start = CLOCK.now_us() + 50_000
            truth = [(n % 2, sim.slap(n % 2, start + n * spacing_us, 90)) for n in range(slaps)]
            halfway = truth[slaps // 2][1] - spacing_us // 2
            while CLOCK.now_us() < truth[-1][1] + 500_000:
                events += src.poll(CLOCK.now_us())
                if restart and CLOCK.now_us() >= halfway:
                    restart = False
                    with sim._lock:
                        sim.board.seq = 0
                time.sleep(0.01)
            replayer.stop()
            time.sleep(0.3)
            events += src.poll(CLOCK.now_us())
            end = CLOCK.now_us()
            counters = src.counters.__dict__.copy()
        finally:
            src.close()
    figures = ReplayFigures(slaps=slaps, replayed=replayer.sent, counters=counters)
    delivered = [e for e in events if isinstance(e, SlapEvent) and e.t_us >= start - spacing_us // 2]
    figures.delivered = len(delivered)
    for station, t in truth:
        near = [e for e in delivered if e.station == station and abs(e.t_us - t) <= spacing_us // 2]
        figures.lost += not near
        figures.twice += len(near) > 1
        figures.misplaced += bool(near) and min(abs(e.t_us - t) for e in near) > STAMP_TOLERANCE_US
    down_at = None
    for e in events:
        if isinstance(e, PadLinkEvent):
            if not e.connected:
                figures.links_down += 1
                down_at = e.t_us
            elif down_at is not None:
                figures.down_s += (e.t_us - down_at) / 1e6
                down_at = None
    if down_at is not None:  # still down at the end
        figures.down_s += (end - down_at) / 1e6
    figures.extra = sum(
        not any(e.station == s and abs(e.t_us - t) <= spacing_us // 2 for s, t in truth) for e in delivered
    )
    return figures


if __name__ == "__main__":
    for restart in (False, True):
        print("the board restarts its numbering halfway:" if restart else "a steady link:")
        for seed in (8, 9, 10):
            print(" ", replay_attack(seed=seed, restart=restart).line())

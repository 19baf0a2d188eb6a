"""The padboard behind a sim cabinet, for scenarios on a config whose stations use slap
source ``padboard``: the padboard simulator (the board's own firmware logic and the
piezo signal model behind a pty) and the real host driver (:class:`PadboardSource`:
pyserial, handshake, clock sync, resend, reconnect) reading it.

Both run threads in real time, so a scenario using them runs in real time too (the sim
backend then paces its loop to the wall clock, see ``sim_backend``).  Their µs stamps
carry the clock sync's error and their reconnects the driver's backoff: results are
the same every run only where the expectations allow for that (windows, fields, not
exact stamps).  Used when ``hal.sim.SimCabinet`` has no padboard of its own.
"""

from __future__ import annotations

import time
from typing import Any

SLAP_LEAD_US = 250_000
"""A slap is handed to the simulator this long before its time (never before an unplug
or replug ahead of it): samples already taken are not taken again, and the loop handing
it may run that far behind the wall clock on a loaded machine (a cold first frame)."""


class RealtimeClock:
    """Monotonic µs since this object was made (shared by simulator, driver and cabinet)."""

    def __init__(self) -> None:
        self.origin = time.monotonic_ns() // 1000

    def now_us(self) -> int:
        return time.monotonic_ns() // 1000 - self.origin

    def sleep_until(self, t_us: int) -> None:
        while True:
            left = t_us - self.now_us()
            if left <= 0:
                return
            time.sleep(min(left, 2_000) / 1e6)


class PadboardLink:
    def __init__(self, config: Any, seed: int, clock: RealtimeClock) -> None:
        from firmware_py.sim.padboard import PadboardSimulator
        from hal.padboard.driver import LinkTiming, PadboardSource

        pads = {sc.slap.pad: station for station, sc in enumerate(config.stations) if sc.slap.source == "padboard"}
        self.pad_of = {station: pad for pad, station in pads.items()}
        self.clock = clock
        self.sim = PadboardSimulator(pads=max(2, max(pads) + 1), seed=seed, clock=clock).start()
        try:
            # Quick reconnects: a scenario pulls the cable for a second, not an evening.
            self.source = PadboardSource(
                self.sim.port,
                clock,
                pads,
                settle_us=config.padboard.settle_us,
                timing=LinkTiming(backoff_first_s=0.02, backoff_max_s=0.2),
            )
        except Exception:
            self.sim.stop()
            raise

    def handles(self, station: int) -> bool:
        return station in self.pad_of

    def slap(self, station: int, t_us: int, velocity: int | None) -> None:
        self.sim.slap(self.pad_of[station], t_us, velocity if velocity is not None else 64)

    def unplug(self) -> None:
        self.sim.unplug()

    def replug(self) -> None:
        self.sim.replug()

    def garbage(self, n: int) -> None:
        self.sim.garbage(n)

    def poll(self, now_us: int) -> list[Any]:
        return self.source.poll(now_us)

    def close(self) -> None:
        try:
            self.source.close()
        finally:
            self.sim.stop()

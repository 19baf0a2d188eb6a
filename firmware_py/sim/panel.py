"""A main display that is not there: frames become visible some time after their flip,
and a light sensor on a mock pin sees them, in virtual time.

A real panel shows a flipped frame after its input lag plus however far down its
scan-out the sensor sits, so each flash's lag varies by up to a frame; ``lag_us`` is the
shortest and ``spread_us`` the variation (uniform).  Used by the calibration wizard's
display step on the simulator (the scripted operator's ``panel``) and by its tests.
"""

from __future__ import annotations

import heapq
import random

from hal.clock import ManualClock
from hal.light_sensor import LightSensor


class SimPanel:
    def __init__(
        self,
        clock: ManualClock,
        pin_factory,
        pin: int,
        lag_us: int = 24_000,
        spread_us: int = 16_667,
        seed: int = 1,
        dark: bool = False,
    ) -> None:
        """``dark``: the sensor never sees light (not facing the screen, unplugged)."""
        self.clock = clock
        self.lag_us = lag_us
        self.spread_us = spread_us
        self.dark = dark
        self._rng = random.Random(seed)
        self._pin = pin_factory.pin(pin)
        self.sensor = LightSensor(pin_factory, pin, ticks_to_us=lambda _ticks: clock.now_us())
        self._changes: list[tuple[int, bool]] = []

    def show(self, bright: bool) -> int:
        """Flip a dark or bright frame now; it lights the sensor later.  Returns the flip µs."""
        flip = self.clock.now_us()
        if not self.dark:
            heapq.heappush(self._changes, (flip + self.lag_us + self._rng.randrange(self.spread_us + 1), bright))
        return flip

    def wait(self, us: int) -> None:
        """Let ``us`` of virtual time pass, the sensor's line changing on the way."""
        end = self.clock.now_us() + us
        while self._changes and self._changes[0][0] <= end:
            t, bright = heapq.heappop(self._changes)
            self.clock.set(max(t, self.clock.now_us()))
            if bright:
                self._pin.drive_high()
            else:
                self._pin.drive_low()
        self.clock.set(end)

    def close(self) -> None:
        self.sensor.close()

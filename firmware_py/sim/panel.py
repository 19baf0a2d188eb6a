"""A main display that is not there: frames become visible some time after their flip,
and a light sensor on a mock pin sees them, in virtual time.

A real panel shows a flipped frame after its input lag plus however far down its
scan-out the sensor sits, so each flash's lag varies by up to a frame; ``lag_us`` is the
shortest and ``spread_us`` the variation (uniform).  Used by the calibration wizard's
display step on the simulator: driven by a show/wait pair (the scripted operator's
``panel``) or by the cabinet's frames (the calibration scene reports each flip with
:meth:`flipped` and lets the light arrive with :meth:`catch_up`), and by their tests.
"""

from __future__ import annotations

import heapq
import random

from gpiozero.pins import Factory

from hal.clock import ManualClock
from hal.light_sensor import LightSensor


class SimPanel:
    def __init__(
        self,
        clock: ManualClock | None,
        pin_factory: Factory,
        pin: int,
        lag_us: int = 24_000,
        spread_us: int = 16_667,
        seed: int = 1,
        dark: bool = False,
    ) -> None:
        """``dark``: the sensor never sees light (not facing the screen, unplugged).
        ``clock``: for :meth:`show` and :meth:`wait` (None when frames are flipped by a
        cabinet that reports them with :meth:`flipped`)."""
        self.clock = clock
        self.lag_us = lag_us
        self.spread_us = spread_us
        self.dark = dark
        self._rng = random.Random(seed)
        self._pin = pin_factory.pin(pin)
        self._stamp = 0  # the sensor's edges are stamped when the light really changed
        self.sensor = LightSensor(pin_factory, pin, ticks_to_us=lambda _ticks: self._stamp)
        self._changes: list[tuple[int, bool]] = []
        self._lit: bool | None = None
        self._last = 0

    def show(self, bright: bool) -> int:
        """Flip a dark or bright frame now; it lights the sensor later.  Returns the flip µs."""
        assert self.clock is not None, "show() flips on the panel's own clock"
        flip = self.clock.now_us()
        self.flipped(bright, flip)
        return flip

    def flipped(self, bright: bool, flip_us: int) -> None:
        """A dark or bright frame was flipped at ``flip_us``: it reaches the sensor later
        (a frame like the one before changes nothing)."""
        if not self.dark:
            t = flip_us + self.lag_us + self._rng.randrange(self.spread_us + 1)
            self._last = max(t, self._last)  # a panel shows its frames in order
            heapq.heappush(self._changes, (self._last, bright))

    def catch_up(self, t_us: int) -> None:
        """Every change of light up to ``t_us`` reaches the sensor's line."""
        while self._changes and self._changes[0][0] <= t_us:
            t, bright = heapq.heappop(self._changes)
            if bright == self._lit:
                continue
            self._lit = bright
            self._stamp = max(t, self._stamp)
            if bright:
                self._pin.drive_high()
            else:
                self._pin.drive_low()

    def wait(self, us: int) -> None:
        """Let ``us`` of virtual time pass, the sensor's line changing on the way."""
        assert self.clock is not None, "wait() passes the panel's own clock"
        end = self.clock.now_us() + us
        self.catch_up(end)
        self.clock.set(end)

    def close(self) -> None:
        self.sensor.close()

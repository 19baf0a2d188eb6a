"""The one clock: monotonic microseconds as integers.

Every input event is stamped in this clock at its source.  ``MonotonicClock`` reads
``CLOCK_MONOTONIC`` (the clock the kernel uses for GPIO edge stamps); ``ManualClock``
is virtual time for the simulator and tests, advanced only by whoever drives it.
"""

from __future__ import annotations

import time
from typing import Protocol


class Clock(Protocol):
    def now_us(self) -> int: ...


class MonotonicClock:
    """Real time: ``CLOCK_MONOTONIC`` in whole microseconds."""

    def now_us(self) -> int:
        return time.monotonic_ns() // 1000


class ManualClock:
    """Virtual time that moves only when told; never goes backwards."""

    def __init__(self, start_us: int = 0) -> None:
        self._now = start_us

    def now_us(self) -> int:
        return self._now

    def set(self, t_us: int) -> None:
        if t_us < self._now:
            raise ValueError(f"clock cannot go back from {self._now} to {t_us} µs")
        self._now = t_us

    def advance(self, delta_us: int) -> int:
        self.set(self._now + delta_us)
        return self._now

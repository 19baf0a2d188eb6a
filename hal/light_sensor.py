"""A light sensor on the screen: when a frame is really visible, not just flipped.

A panel shows a flipped frame 10–50 ms later (its input lag and scan-out), so a reveal
that counts from the flip gives the fighters a head start they never had.  An optional
photodiode (or any light sensor module with a digital output, e.g. a photodiode into a
comparator) taped to a screen corner, on a GPIO line (``[display] photodiode_pin``), lets
calibration time that lag (:mod:`calibration.display_latency`); the cabinet then reports
reveals at flip + lag (``[display] latency_us``).

Like a gpio-edge slap line, the line's edges are stamped by the kernel (gpiozero's
pin-level ``when_changed``), never by when Python got to them, and the handler is kept
referenced here because the pin holds it weakly.
"""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Callable
from typing import Any

from gpiozero import InputDevice

from hal.gpio import kernel_ticks_to_us


class LightSensor:
    """Stamped light-on edges of a sensor on ``pin``; ``active_high``: the line goes high
    when it sees light (False: an open-collector module pulled up, low on light)."""

    def __init__(
        self,
        pin_factory: Any,
        pin: int | str,
        ticks_to_us: Callable[[float], int] = kernel_ticks_to_us,
        active_high: bool = True,
        keep: int = 64,
    ) -> None:
        self._ticks_to_us = ticks_to_us
        self._lock = threading.Lock()
        self._edges: deque[int] = deque(maxlen=keep)
        self.device = InputDevice(pin, pull_up=not active_high, pin_factory=pin_factory)
        self.device.pin.edges = "rising" if active_high else "falling"
        self.device.pin.when_changed = self._on_edge

    def _on_edge(self, ticks: float, state: bool) -> None:
        t_us = self._ticks_to_us(ticks)
        with self._lock:
            self._edges.append(t_us)

    def first_light_after(self, t_us: int) -> int | None:
        """The first light-on edge stamped at or after ``t_us`` (None: none yet)."""
        with self._lock:
            return next((t for t in self._edges if t >= t_us), None)

    def close(self) -> None:
        self.device.pin.when_changed = None
        self.device.close()

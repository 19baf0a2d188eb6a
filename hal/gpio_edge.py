"""The gpio-edge slap source: piezo → comparator → GPIO line, stamped by the kernel.

gpiozero's pin-level ``when_changed(ticks, state)`` is the only hook that carries the
edge's stamp (on the lgpio factory: the kernel's CLOCK_MONOTONIC event time, in
seconds), so that is what we use, on the active edge only.  No library debounce: lgpio
debounce reports the edge late by the debounce period, so ``bounce_time`` is never
set; a comparator's chatter during one slap is swallowed by our own mask time instead.
Handlers run on a gpiozero thread on a Pi, so edges go through a queue that
:meth:`GpioEdgeSource.poll` drains; the handlers are kept referenced here because the
pin holds them weakly.  There is no velocity on a comparator line.

A line given an :class:`~hal.edge_timing.EdgeWalk` (calibration measures it per pad) is
watched on both edges: its slap is stamped when the first pulse ends, at the rising edge
less the force bias that pulse's width means (docs/slap-timing.md), so it reaches
:meth:`poll` up to ``walk.longest_pulse_us`` later.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable, Mapping
from typing import Any

from gpiozero import InputDevice

from hal.edge_timing import EdgeWalk
from hal.events import PadLinkEvent, SlapEvent
from hal.gpio import kernel_ticks_to_us
from hal.timing import GPIO_EDGE_MASK_US, GPIO_EDGE_SETTLE_US

SOURCE = "gpio-edge"


class GpioEdgeSource:
    """Slaps from comparator lines: ``pins`` maps station → GPIO pin on ``pin_factory``.

    ``mask_us``: one mask time for every line, or one per station (calibration fits a
    mask per pad; lines of one gpiochip share a source, never a mask).
    ``active_high``: the comparator drives the line high during a slap (pulled down
    otherwise); False for an open-collector comparator (LM393) pulled up.
    ``ticks_to_us`` converts the factory's tick value to HAL µs (tests on
    ``MockFactory`` may supply their own).
    """

    name = SOURCE

    def __init__(
        self,
        pin_factory: Any,
        pins: Mapping[int, int | str],
        ticks_to_us: Callable[[float], int] = kernel_ticks_to_us,
        mask_us: int | Mapping[int, int] = GPIO_EDGE_MASK_US,
        settle_us: int = GPIO_EDGE_SETTLE_US,
        active_high: bool = True,
        walk: Mapping[int, EdgeWalk] | None = None,
    ) -> None:
        self.settle_us = settle_us
        if isinstance(mask_us, Mapping) and not pins.keys() <= mask_us.keys():
            raise ValueError(f"no mask time for station(s) {sorted(pins.keys() - mask_us.keys())}")
        self.masks_us = {s: mask_us[s] for s in pins} if isinstance(mask_us, Mapping) else dict.fromkeys(pins, mask_us)
        """Each station's mask time: no new slap on its line for this long after one."""
        self.masked = 0  # edges swallowed by the mask time (chatter, rings)
        self._ticks_to_us = ticks_to_us
        self._edges: queue.SimpleQueue[tuple[int, int]] = queue.SimpleQueue()
        self.wake: threading.Event | None = None
        """Set after every queued edge, so a sleeping main loop wakes for it."""
        self.on_edge: Callable[[int, int], None] | None = None
        """Called with (station, t_us) for every edge before the mask (calibration
        watches the chatter the mask exists for); runs on the pin's thread."""
        self._last: dict[int, int] = {}
        self._walk = dict(walk or {})
        self._rise: dict[int, int] = {}
        self._handlers: list[Callable[[float, bool], None]] = []
        self._devices: list[InputDevice] = []
        for station, pin in pins.items():
            device = InputDevice(pin, pull_up=not active_high, pin_factory=pin_factory)
            self._devices.append(device)
            self._watch(device, station, active_high)

    def _watch(self, device: InputDevice, station: int, active_high: bool) -> None:
        walk = self._walk.get(station)

        def on_edge(ticks: float, state: bool) -> None:
            t_us = self._ticks_to_us(ticks)
            if walk is not None:
                if bool(state) == active_high:
                    self._rise[station] = t_us
                    if self.on_edge is not None:
                        self.on_edge(station, t_us)
                    return
                rise = self._rise.pop(station, None)
                if rise is None:
                    return
                width = t_us - rise
                # a pulse far wider than a slap's first swing is no slap's: its force is unknown
                t_us = rise - walk.delay_us(width) if width <= 2 * walk.longest_pulse_us else rise
            elif self.on_edge is not None:
                self.on_edge(station, t_us)
            self._edges.put((station, t_us))
            if self.wake is not None:
                self.wake.set()

        if walk is not None:
            device.pin.edges = "both"
        else:
            device.pin.edges = "rising" if active_high else "falling"
        device.pin.when_changed = on_edge
        self._handlers.append(on_edge)

    def poll(self, now_us: int) -> list[SlapEvent | PadLinkEvent]:
        """Slaps whose edge came at least its line's mask time after the previous one's."""
        out: list[SlapEvent | PadLinkEvent] = []
        while True:
            try:
                station, t_us = self._edges.get_nowait()
            except queue.Empty:
                return out
            last = self._last.get(station)
            if last is not None and t_us - last < self.masks_us[station]:
                self.masked += 1
                continue
            self._last[station] = t_us
            out.append(SlapEvent(station, t_us, None, SOURCE))

    def close(self) -> None:
        for device in self._devices:
            device.pin.when_changed = None
            device.close()
        self._handlers.clear()

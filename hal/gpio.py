"""The gpio backend: station buttons, the SERVICE key and LED bars as gpiozero devices.

The same code runs on a Pi (lgpio pin factory, kernel edge stamps) and in CI (gpiozero's
``MockFactory`` with ``MockPWMPin``).  Buttons use pin-level ``when_changed(ticks,
state)`` because only that carries the edge's stamp; handlers are kept referenced here
because gpiozero holds them weakly.  Edges may arrive on a gpiozero thread, so they go
through a queue that :meth:`GpioCabinet.poll` drains on the main loop.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable, Mapping
from typing import Any

from gpiozero import InputDevice, LEDBarGraph

from hal.config import CabinetConfig
from hal.debounce import Debouncer
from hal.events import Button, ButtonEvent, InputEvent, ServiceEvent
from hal.timing import BUTTON_DEBOUNCE_US

SERVICE = -1
"""Station index used internally for the SERVICE key's line."""


def kernel_ticks_to_us(ticks: float) -> int:
    """lgpio hands the kernel's CLOCK_MONOTONIC edge stamp as seconds: to HAL µs."""
    return round(ticks * 1_000_000)


class GpioCabinet:
    """Inputs and LED bars of every station, on the pin factories given per gpiochip."""

    def __init__(
        self,
        config: CabinetConfig,
        factories: Mapping[int, Any],
        ticks_to_us: Callable[[float], int] = kernel_ticks_to_us,
        lockout_us: int = BUTTON_DEBOUNCE_US,
    ) -> None:
        self.config = config
        self._ticks_to_us = ticks_to_us
        self._edges: queue.SimpleQueue[tuple[int, Button | None, bool, int]] = queue.SimpleQueue()
        self.wake = threading.Event()
        """Set after every queued edge, so a sleeping main loop wakes for it."""
        self._handlers: list[Callable[[float, bool], None]] = []
        self._inputs: list[InputDevice] = []
        self._debouncers: dict[tuple[int, Button | None], Debouncer] = {}
        for station, sc in enumerate(config.stations):
            for button, pin in sc.buttons:
                self._watch(
                    InputDevice(pin, pull_up=True, pin_factory=factories[sc.input_chip]), station, button, lockout_us
                )
        if config.service_pin is not None:
            self._watch(
                InputDevice(config.service_pin, pull_up=True, pin_factory=factories[0]), SERVICE, None, lockout_us
            )
        self.led_bars = [
            LEDBarGraph(*sc.led_bar.pins, pwm=sc.led_bar.pwm, pin_factory=factories[sc.led_bar.chip])
            for sc in config.stations
        ]
        self._segments: list[list[float | None]] = [[None] * len(bar) for bar in self.led_bars]
        """Each bar's segment values as last written (None: not written yet)."""

    def _watch(self, device: InputDevice, station: int, button: Button | None, lockout_us: int) -> None:
        def on_edge(ticks: float, state: bool) -> None:
            # Active low: the line reads False while the switch is closed.
            self._edges.put((station, button, not state, self._ticks_to_us(ticks)))
            self.wake.set()

        device.pin.edges = "both"
        device.pin.when_changed = on_edge
        self._handlers.append(on_edge)
        self._inputs.append(device)
        self._debouncers[(station, button)] = Debouncer(lockout_us)

    def poll(self, now_us: int) -> list[InputEvent]:
        """Debounced events since the last poll, in the order their edges happened."""
        out: list[InputEvent] = []
        while True:
            try:
                station, button, pressed, t_us = self._edges.get_nowait()
            except queue.Empty:
                break
            state = self._debouncers[(station, button)].edge(pressed, t_us)
            if state is not None:
                out.append(self._event(station, button, state, t_us))
        for (station, button), deb in self._debouncers.items():
            settled = deb.poll(now_us)
            if settled is not None:
                out.append(self._event(station, button, *settled))
        return out

    @staticmethod
    def _event(station: int, button: Button | None, pressed: bool, t_us: int) -> InputEvent:
        if button is None:
            return ServiceEvent(on=pressed, t_us=t_us)
        return ButtonEvent(station, button, pressed, t_us)

    def set_led_level(self, station: int, level: float) -> None:
        """Light ``level`` (0..1) of the station's bar; fractions dim the top segment on PWM bars.

        Only the segments whose value changes are written: a step of the attract screen's
        breathing chase moves one or two of ten, and each write through gpiozero costs
        (a quarter of a ms here for a whole bar, issue 34's idle CPU).  The values are
        ``LEDBarGraph.value``'s own, so the bar ends as that setter leaves it."""
        bar = self.led_bars[station]
        count = len(bar)
        level = min(1.0, max(0.0, level))
        if self.config.stations[station].led_bar.pwm:
            values = [min(1.0, max(0.0, count * level - index)) for index in range(count)]
        else:
            lit = round(level * count)
            values = [1.0 if index < lit else 0.0 for index in range(count)]
        written = self._segments[station]
        for index, (led, value) in enumerate(zip(bar.leds, values, strict=True)):
            if written[index] != value:
                led.value = value
                written[index] = value

    def close(self) -> None:
        for d in (*self._inputs, *self.led_bars):
            d.close()
        self._handlers.clear()

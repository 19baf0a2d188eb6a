"""The sim backend: the gpio backend on gpiozero mock pins, driven at chosen µs times.

Everything runs in virtual time (:class:`~hal.clock.ManualClock`).  Scheduled inputs are
fired at exactly their time: the clock is set to the input's µs, then the mock pin is
driven, so the gpio backend stamps the edge with that time through the same
``when_changed`` path a Pi uses.  Slaps come through :class:`SimSlapSource`, where each
slap has its own stamp and its own arrival time (to model transport skew).
"""

from __future__ import annotations

import heapq
import itertools
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from gpiozero.pins.mock import MockFactory, MockPWMPin
from PIL import Image

from hal.cabinet_io import CabinetIO, StationReadback
from hal.clock import ManualClock
from hal.config import CabinetConfig
from hal.events import Button, InputEvent, PadLinkEvent, SlapEvent
from hal.gpio import GpioCabinet
from hal.private_display import PrivateDisplay, open_dummy


class SimPin(MockPWMPin):
    """gpiozero's mock PWM pin with a bounded state history.  ``MockPin`` appends every
    change to ``states`` forever: the attract screen's LED chase alone changes 20
    segments a second (about 10 MB an hour in the idle development window), and a game's
    presses and LED levels added ~0.1 MB.  The latest states stay for a look."""

    HISTORY = 64
    states: deque[Any]

    def clear_states(self) -> None:
        super().clear_states()
        self.states = deque(self.states, maxlen=self.HISTORY)


class SimSlapSource:
    """Slaps injected with a stamp and an arrival time; ``poll`` yields those that arrived."""

    name = "sim"

    def __init__(self, settle_us: int) -> None:
        self.settle_us = settle_us
        self.wake: threading.Event | None = None
        """Never set: slaps are injected on the main loop's thread, and
        :meth:`SimCabinet.wait` sleeps only until the next one is due."""
        self._pending: list[tuple[int, int, SlapEvent | PadLinkEvent]] = []
        self._seq = itertools.count()

    def inject(self, event: SlapEvent | PadLinkEvent, arrive_us: int) -> None:
        heapq.heappush(self._pending, (arrive_us, next(self._seq), event))

    def next_arrival(self) -> int | None:
        return self._pending[0][0] if self._pending else None

    def poll(self, now_us: int) -> list[SlapEvent | PadLinkEvent]:
        out = []
        while self._pending and self._pending[0][0] <= now_us:
            out.append(heapq.heappop(self._pending)[2])
        return out

    def close(self) -> None:
        self._pending.clear()


@dataclass(order=True)
class _Scheduled:
    t_us: int
    seq: int
    fire: Callable[[], None] = field(compare=False)


class SimCabinet(CabinetIO):
    """A whole simulated cabinet: mock-pin buttons and LED bars, dummy OLEDs, sim slaps."""

    def __init__(self, config: CabinetConfig, clock: ManualClock) -> None:
        self.config = config
        self.clock = clock
        chips = {0} | {s.led_bar.chip for s in config.stations} | {s.input_chip for s in config.stations}
        self.factories = {chip: MockFactory(pin_class=SimPin) for chip in sorted(chips)}
        self.gpio = GpioCabinet(config, self.factories, ticks_to_us=lambda _ticks: clock.now_us())
        settle = max(s.slap.settle_us for s in config.stations)
        self.slaps = SimSlapSource(settle)
        self.sources = [self.slaps]
        self.private: list[PrivateDisplay] = [open_dummy(s.private_display) for s in config.stations]
        self._schedule: list[_Scheduled] = []
        self._seq = itertools.count()

    # -- driving inputs -----------------------------------------------------------------
    def at(self, t_us: int, fire: Callable[[], None]) -> None:
        """Run ``fire`` when virtual time reaches ``t_us``."""
        if t_us < self.clock.now_us():
            raise ValueError(f"cannot schedule at {t_us} µs, it is already {self.clock.now_us()} µs")
        heapq.heappush(self._schedule, _Scheduled(t_us, next(self._seq), fire))

    def press(self, station: int, button: Button, t_us: int, hold_us: int = 60_000) -> None:
        """Schedule a press at ``t_us`` and its release ``hold_us`` later."""
        pin = self.button_pin(station, button)
        self.at(t_us, pin.drive_low)
        self.at(t_us + hold_us, pin.drive_high)

    def button_pin(self, station: int, button: Button) -> SimPin:
        sc = self.config.stations[station]
        pin: SimPin = self.factories[sc.input_chip].pin(sc.button_pin(button))
        return pin

    def service_key(self, on: bool, t_us: int) -> None:
        if self.config.service_pin is None:
            raise ValueError("this cabinet config has no [service] pin")
        pin = self.factories[0].pin(self.config.service_pin)
        self.at(t_us, pin.drive_low if on else pin.drive_high)

    def slap(self, station: int, t_us: int, velocity: int | None = 100, delay_us: int = 0) -> None:
        """A slap stamped ``t_us`` that reaches the process ``delay_us`` later."""
        self.slaps.inject(SlapEvent(station, t_us, velocity, self.slaps.name), t_us + delay_us)

    def next_due(self) -> int | None:
        """Virtual time of the next scheduled input or slap arrival."""
        times = [
            t for t in (self._schedule[0].t_us if self._schedule else None, self.slaps.next_arrival()) if t is not None
        ]
        return min(times) if times else None

    def fire_due(self, now_us: int) -> None:
        """Fire every scheduled input up to ``now_us``, each at its exact time."""
        while self._schedule and self._schedule[0].t_us <= now_us:
            item = heapq.heappop(self._schedule)
            # In virtual time the loop steps to every item, so it fires exactly on time;
            # a real-time loop may reach it late, and then it fires now.
            self.clock.set(max(item.t_us, self.clock.now_us()))
            item.fire()
        self.clock.set(max(now_us, self.clock.now_us()))

    def wait(self, timeout_s: float) -> None:
        """Real-time use (development window): sleep until the next scheduled input or
        slap arrival, at most ``timeout_s``.  Virtual-time loops never call this."""
        due = self.next_due()
        if due is not None:
            timeout_s = min(timeout_s, max(0.0, (due - time.monotonic_ns() // 1000) / 1_000_000))
        time.sleep(timeout_s)

    # -- the CabinetIO interface -------------------------------------------------------
    def poll(self, now_us: int) -> list[InputEvent]:
        self.fire_due(now_us)
        return [*self.gpio.poll(now_us), *self.slaps.poll(now_us)]

    def set_led_level(self, station: int, level: float) -> None:
        self.gpio.set_led_level(station, level)

    def show_private(self, station: int, image: Image.Image) -> None:
        self.private[station].show(image)

    def readback(self) -> tuple[StationReadback, ...]:
        """Every station's OLED frame and LED levels, for the development window."""
        return tuple(StationReadback(d.image, self.led_levels(s)) for s, d in enumerate(self.private))

    def led_levels(self, station: int) -> tuple[float, ...]:
        """Each segment's brightness as read back from its mock pin (bottom first)."""
        return tuple(float(led.value) for led in self.gpio.led_bars[station])

    def close(self) -> None:
        self.gpio.close()
        for f in self.factories.values():
            f.reset()

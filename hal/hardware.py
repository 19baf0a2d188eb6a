"""The real cabinet: gpiozero on the lgpio pin factory, the slap sources the config names,
luma OLEDs, behind :class:`hal.cabinet_io.CabinetIO` like the simulated cabinet, so the
cabinet loop does not know which it drives."""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

from PIL import Image

from hal.cabinet_io import CabinetIO, StationReadback
from hal.clock import Clock
from hal.config import CabinetConfig, ConfigError
from hal.events import InputEvent
from hal.gpio import GpioCabinet
from hal.hardware_errors import HardwareError, gpiochip_error, lgpio_missing, padboard_port_missing
from hal.oled_worker import OledWorkers
from hal.private_display import PrivateDisplay, open_oled
from hal.slap_source import SlapSource


class CabinetHardware(CabinetIO):
    """Buttons and LED bars (gpio), every slap source, every private display.

    Private displays are written by worker threads (:mod:`hal.oled_worker`), one per
    I2C bus (``buses``: each station's bus), so the main loop never waits on I2C."""

    def __init__(
        self,
        gpio: GpioCabinet,
        sources: list[SlapSource],
        private: list[PrivateDisplay | None],
        buses: list[int] | None = None,
    ) -> None:
        self.gpio = gpio
        self.sources = sources
        self.private = private
        bus_of = buses if buses is not None else [0] * len(private)
        self.oleds = OledWorkers([(bus_of[s], d.device) if d is not None else None for s, d in enumerate(private)])
        for source in sources:
            source.wake = gpio.wake

    def wait(self, timeout_s: float) -> None:
        """Sleep until an input arrives on any thread, or ``timeout_s`` passes."""
        self.gpio.wake.wait(timeout_s)
        self.gpio.wake.clear()

    def poll(self, now_us: int) -> list[InputEvent]:
        events: list[InputEvent] = self.gpio.poll(now_us)
        for source in self.sources:
            events += source.poll(now_us)
        return events

    def next_due(self) -> int | None:
        """Real inputs come as they come (and wake :meth:`wait`)."""
        return None

    def set_led_level(self, station: int, level: float) -> None:
        self.gpio.set_led_level(station, level)

    def show_private(self, station: int, image: Image.Image) -> None:
        """Hand the image to the station's OLED worker (returns at once)."""
        self.oleds.show(station, image)

    def led_levels(self, station: int) -> tuple[float, ...]:
        """Each segment's brightness as its pin holds it (bottom first): what ``--record`` notes."""
        return tuple(float(led.value) for led in self.gpio.led_bars[station])

    def readback(self) -> tuple[StationReadback, ...] | None:
        """The players look at the real OLEDs and LED bars: nothing to mirror."""
        return None

    def close(self) -> None:
        self.oleds.close()
        for source in self.sources:
            source.close()
        self.gpio.close()


def chips_used(config: CabinetConfig) -> list[int]:
    """Every gpiochip the config names (chip 0, the Pi's header, always)."""
    return sorted({0} | {s.led_bar.chip for s in config.stations} | {s.input_chip for s in config.stations})


def lgpio_factories(config: CabinetConfig) -> dict[int, Any]:
    """One lgpio pin factory per gpiochip the config uses; a missing lgpio or a chip that
    cannot be opened is one :class:`HardwareError` line."""
    try:
        from gpiozero.pins.lgpio import LGPIOFactory
    except ImportError as e:
        raise lgpio_missing(str(e)) from None
    factories: dict[int, Any] = {}
    for chip in chips_used(config):
        try:
            factories[chip] = LGPIOFactory(chip=chip)
        except Exception as e:  # lgpio.error, gpiozero's PinError: all mean "this chip, not now"
            for f in factories.values():
                f.close()
            raise gpiochip_error(chip, str(e)) from None
    return factories


def slap_sources(config: CabinetConfig, factories: Mapping[int, Any], clock: Clock) -> list[SlapSource]:
    """The sources the stations' ``slap`` tables name: gpio-edge lines grouped per chip
    (each line keeps its station's own mask time and ring walk), one padboard for every station on it."""
    from hal.edge_timing import EdgeWalk
    from hal.gpio_edge import GpioEdgeSource

    sources: list[SlapSource] = []
    edge_chips: dict[int, dict[int, int]] = {}
    for station, sc in enumerate(config.stations):
        if sc.slap.source == "gpio-edge" and sc.slap.pin is not None:
            edge_chips.setdefault(sc.input_chip, {})[station] = sc.slap.pin
    for chip, pins in sorted(edge_chips.items()):
        masks = {s: config.stations[s].slap.mask_us for s in pins}
        settle = max(config.stations[s].slap.settle_us for s in pins)
        walk = {s: EdgeWalk(config.stations[s].slap.ring_us) for s in pins if config.stations[s].slap.ring_us}
        sources.append(GpioEdgeSource(factories[chip], pins, mask_us=masks, settle_us=settle, walk=walk))
    pads = {
        sc.slap.pad: station
        for station, sc in enumerate(config.stations)
        if sc.slap.source == "padboard" and sc.slap.pad is not None
    }
    if pads:
        from hal.padboard.driver import PadboardSource

        if config.padboard is None:
            raise ConfigError("padboard", None, "a [padboard] table (a station uses slap source padboard)")
        port = config.padboard.port
        if "://" not in port and not os.path.exists(port):  # pyserial URLs (socket://) are not files
            raise padboard_port_missing(port)
        sources.append(PadboardSource(config.padboard.port, clock, pads, settle_us=config.padboard.settle_us))
    return sources


def open_hardware(
    config: CabinetConfig,
    clock: Clock,
    factories: Mapping[int, Any] | None = None,
    i2c_buses: Mapping[int, Any] | None = None,
) -> CabinetHardware:
    """Open everything the config describes on a Raspberry Pi.

    ``factories``: a gpiozero pin factory per gpiochip (default: lgpio's); ``i2c_buses``:
    an open smbus-like object per I2C bus number (default: smbus2 opens each).  Tests
    pass gpiozero's ``MockFactory`` and a recording bus, so this exact wiring runs in CI.
    A part that cannot be opened raises :class:`HardwareError`; whatever was opened by
    then is closed again."""
    opened = factories is None
    pins = dict(factories) if factories is not None else lgpio_factories(config)
    gpio = None
    sources: list[SlapSource] = []
    private: list[PrivateDisplay | None] = []
    try:
        gpio = GpioCabinet(config, pins)
        sources = slap_sources(config, pins, clock)
        for s in config.stations:
            pd = s.private_display
            bus = i2c_buses.get(pd.i2c_bus) if i2c_buses is not None else None
            private.append(open_oled(pd, bus, s.name) if pd.driver != "none" else None)
    except (HardwareError, ConfigError):
        _close_partial(gpio, sources, pins if opened else {})
        raise
    except Exception as e:  # a line another process holds, a padboard of another protocol version
        _close_partial(gpio, sources, pins if opened else {})
        raise HardwareError(f"cannot open the cabinet hardware: {type(e).__name__}: {e}") from None
    return CabinetHardware(gpio, sources, private, [s.private_display.i2c_bus for s in config.stations])


def _close_partial(gpio: GpioCabinet | None, sources: list[SlapSource], factories: Mapping[int, Any]) -> None:
    for source in sources:
        source.close()
    if gpio is not None:
        gpio.close()
    for f in factories.values():
        f.close()

"""The real cabinet: gpiozero on the lgpio pin factory, the slap sources the config names,
luma OLEDs.  One object with the same interface the simulated cabinet offers, so the
cabinet loop does not know which it drives."""

from __future__ import annotations

from typing import Any

from hal.clock import Clock
from hal.config import CabinetConfig, ConfigError
from hal.events import InputEvent
from hal.gpio import GpioCabinet
from hal.private_display import PrivateDisplay, open_oled
from hal.slap_source import SlapSource


class CabinetHardware:
    """Buttons and LED bars (gpio), every slap source, every private display."""

    def __init__(self, gpio: GpioCabinet, sources: list[SlapSource], private: list[PrivateDisplay | None]) -> None:
        self.gpio = gpio
        self.sources = sources
        self.private = private
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

    def set_led_level(self, station: int, level: float) -> None:
        self.gpio.set_led_level(station, level)

    def show_private(self, station: int, image: Any) -> None:
        display = self.private[station]
        if display is not None:
            display.show(image)

    def close(self) -> None:
        for source in self.sources:
            source.close()
        self.gpio.close()


def lgpio_factories(config: CabinetConfig) -> dict[int, Any]:
    """One lgpio pin factory per gpiochip the config uses (chip 0: the Pi's header)."""
    from gpiozero.pins.lgpio import LGPIOFactory

    chips = {0} | {s.led_bar.chip for s in config.stations} | {s.input_chip for s in config.stations}
    return {chip: LGPIOFactory(chip=chip) for chip in sorted(chips)}


def slap_sources(config: CabinetConfig, factories: dict[int, Any], clock: Clock) -> list[SlapSource]:
    """The sources the stations' ``slap`` tables name: gpio-edge lines grouped per chip,
    one padboard for every station on it."""
    from hal.edge_timing import EdgeWalk
    from hal.gpio_edge import GpioEdgeSource

    sources: list[SlapSource] = []
    edge_chips: dict[int, dict[int, int]] = {}
    for station, sc in enumerate(config.stations):
        if sc.slap.source == "gpio-edge" and sc.slap.pin is not None:
            edge_chips.setdefault(sc.input_chip, {})[station] = sc.slap.pin
    for chip, pins in sorted(edge_chips.items()):
        mask = max(config.stations[s].slap.mask_us for s in pins)
        settle = max(config.stations[s].slap.settle_us for s in pins)
        walk = {s: EdgeWalk(config.stations[s].slap.ring_us) for s in pins if config.stations[s].slap.ring_us}
        sources.append(GpioEdgeSource(factories[chip], pins, mask_us=mask, settle_us=settle, walk=walk))
    pads = {sc.slap.pad: station for station, sc in enumerate(config.stations) if sc.slap.source == "padboard"}
    if pads:
        from hal.padboard.driver import PadboardSource

        if config.padboard is None:
            raise ConfigError("padboard", None, "a [padboard] table (a station uses slap source padboard)")
        sources.append(PadboardSource(config.padboard.port, clock, pads, settle_us=config.padboard.settle_us))
    return sources


def open_hardware(config: CabinetConfig, clock: Clock) -> CabinetHardware:
    """Open everything the config describes on a Raspberry Pi."""
    factories = lgpio_factories(config)
    gpio = GpioCabinet(config, factories)
    private = [open_oled(s.private_display) if s.private_display.driver != "none" else None for s in config.stations]
    return CabinetHardware(gpio, slap_sources(config, factories, clock), private)

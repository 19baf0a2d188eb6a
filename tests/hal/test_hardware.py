"""The real-cabinet wiring on stand-in pin factories: which slap sources a config opens."""

from __future__ import annotations

from dataclasses import replace

from gpiozero.pins.mock import MockFactory, MockPWMPin

from hal.clock import ManualClock
from hal.config import SlapConfig
from hal.events import Button
from hal.gpio import GpioCabinet
from hal.gpio_edge import GpioEdgeSource
from hal.hardware import CabinetHardware, slap_sources


def test_gpio_edge_lines_of_a_chip_share_one_source(config) -> None:
    factories = {c: MockFactory(pin_class=MockPWMPin) for c in (0, 1, 2)}
    (source,) = slap_sources(config, factories, ManualClock())
    assert isinstance(source, GpioEdgeSource)
    assert source.settle_us == max(s.slap.settle_us for s in config.stations)
    for f in factories.values():
        f.reset()


def test_padboard_stations_share_one_padboard(config) -> None:
    from firmware_py.sim.padboard import PadboardSimulator
    from hal.config import PadboardConfig
    from hal.padboard.driver import PadboardSource

    board = PadboardSimulator(pads=2, seed=1).start()
    try:
        stations = tuple(
            replace(s, slap=SlapConfig("padboard", None, i, 40_000, 6000)) for i, s in enumerate(config.stations)
        )
        cfg = replace(config, stations=stations, padboard=PadboardConfig(board.port, 12_000))
        factories = {c: MockFactory(pin_class=MockPWMPin) for c in (0, 1, 2)}
        (source,) = slap_sources(cfg, factories, ManualClock())
        assert isinstance(source, PadboardSource)
        assert source.pad_stations == {0: 0, 1: 1}
        source.close()
    finally:
        board.stop()


def test_cabinet_hardware_merges_buttons_and_slaps(config) -> None:
    factories = {c: MockFactory(pin_class=MockPWMPin) for c in (0, 1, 2)}
    gpio = GpioCabinet(config, factories)
    hw = CabinetHardware(gpio, slap_sources(config, factories, ManualClock()), [None, None])
    factories[0].pin(config.stations[0].slap.pin).drive_high()
    factories[0].pin(config.stations[1].button_pin(Button.A)).drive_low()
    kinds = sorted(type(e).__name__ for e in hw.poll(10**13))
    assert kinds == ["ButtonEvent", "SlapEvent"]
    hw.show_private(0, None)  # no display configured there: nothing to do
    hw.close()

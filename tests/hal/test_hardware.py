"""The real-cabinet wiring on stand-in pin factories: which slap sources a config opens,
and what the opened sources do with the edges they are given."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

import pytest
from gpiozero.pins.mock import MockFactory, MockPWMPin

from calibration.live_gpio import apply_gpio_masks
from hal.cabinet_io import CabinetIO
from hal.clock import ManualClock
from hal.config import CabinetConfig, PrivateDisplayConfig, SlapConfig, load_config
from hal.events import Button, SlapEvent
from hal.gpio import GpioCabinet
from hal.gpio_edge import GpioEdgeSource
from hal.hardware import CabinetHardware, open_hardware, slap_sources
from hal.timing import GPIO_EDGE_MASK_US


class KernelPin(MockPWMPin):
    """A mock pin whose edges carry a chosen kernel time (seconds, as lgpio hands them
    over), so the real ``kernel_ticks_to_us`` path stamps them."""

    now_s = 0.0

    def _change_state(self, value: bool) -> bool:
        if self._state == value:
            return False
        self._state = value
        self._last_change = KernelPin.now_s
        return True


@pytest.fixture
def kernel_factories() -> Iterator[dict[int, MockFactory]]:
    factories = {c: MockFactory(pin_class=KernelPin) for c in range(6)}
    yield factories
    for f in factories.values():
        f.reset()


def without_oleds(config: CabinetConfig) -> CabinetConfig:
    none = PrivateDisplayConfig(driver="none", i2c_bus=1, address=0x3C)
    return replace(config, stations=tuple(replace(s, private_display=none) for s in config.stations))


def slap_at(factories: dict[int, MockFactory], config: CabinetConfig, station: int, t_us: int) -> None:
    """The comparator of ``station`` fires at ``t_us`` (kernel time)."""
    sc = config.stations[station]
    pin = factories[sc.input_chip].pin(sc.slap.pin)
    KernelPin.now_s = t_us / 1_000_000
    pin.drive_high()
    KernelPin.now_s = (t_us + 200) / 1_000_000
    pin.drive_low()


def slaps(hw: CabinetHardware) -> list[tuple[int, int]]:
    return [(e.station, e.t_us) for e in hw.poll(10**13) if isinstance(e, SlapEvent)]


def test_opened_lines_keep_each_pads_fitted_mask(config, kernel_factories) -> None:
    """Fitted 12 ms and 18 ms stay 12 and 18 ms on the one source of their gpiochip."""
    cfg = without_oleds(apply_gpio_masks(config, {0: 12_000, 1: 18_000}))
    hw = open_hardware(cfg, ManualClock(), kernel_factories)
    (source,) = hw.sources
    assert isinstance(source, GpioEdgeSource) and source.masks_us == {0: 12_000, 1: 18_000}
    for t in (1_000_000, 1_013_000, 1_026_000):  # 13 ms apart: past pad 1's mask, inside pad 2's
        slap_at(kernel_factories, cfg, 0, t)
        slap_at(kernel_factories, cfg, 1, t + 500)
    assert slaps(hw) == [(0, 1_000_000), (1, 1_000_500), (0, 1_013_000), (0, 1_026_000), (1, 1_026_500)]
    hw.close()


def test_a_pad_fitted_alone_leaves_its_neighbour_the_default(config, kernel_factories) -> None:
    cfg = without_oleds(apply_gpio_masks(config, {0: 15_000}))
    hw = open_hardware(cfg, ManualClock(), kernel_factories)
    (source,) = hw.sources
    assert isinstance(source, GpioEdgeSource) and source.masks_us == {0: 15_000, 1: GPIO_EDGE_MASK_US}
    gap = 16_000
    for station in (0, 1):
        slap_at(kernel_factories, cfg, station, 2_000_000)
        slap_at(kernel_factories, cfg, station, 2_000_000 + gap)
        slap_at(kernel_factories, cfg, station, 2_000_000 + GPIO_EDGE_MASK_US + 1_000)
    assert slaps(hw) == [
        (0, 2_000_000),
        (0, 2_000_000 + gap),
        (0, 2_000_000 + GPIO_EDGE_MASK_US + 1_000),
        (1, 2_000_000),
        (1, 2_000_000 + GPIO_EDGE_MASK_US + 1_000),
    ]
    hw.close()


def test_lines_on_two_gpiochips_each_keep_their_mask(kernel_factories) -> None:
    config = without_oleds(load_config("hal/data/cabinet-4.toml"))
    cfg = apply_gpio_masks(config, {0: 10_000, 1: 20_000, 2: 30_000, 3: 5_000})
    hw = open_hardware(cfg, ManualClock(), kernel_factories)
    masks = {}
    for source in hw.sources:
        assert isinstance(source, GpioEdgeSource)
        masks.update(source.masks_us)
    assert masks == {0: 10_000, 1: 20_000, 2: 30_000, 3: 5_000}
    for station in range(4):
        slap_at(kernel_factories, cfg, station, 3_000_000)
        slap_at(kernel_factories, cfg, station, 3_000_000 + 12_000)
    assert sorted(slaps(hw)) == [
        (0, 3_000_000),
        (0, 3_012_000),
        (1, 3_000_000),
        (2, 3_000_000),
        (3, 3_000_000),
        (3, 3_012_000),
    ]
    hw.close()


def test_the_real_cabinet_offers_the_cabinet_interface_and_no_readback(config, kernel_factories) -> None:
    hw = open_hardware(without_oleds(config), ManualClock(), kernel_factories)
    assert isinstance(hw, CabinetIO)
    assert hw.next_due() is None  # real inputs come as they come
    assert hw.readback() is None  # players look at the real OLEDs and LED bars
    hw.set_led_level(0, 0.5)
    assert [led.value for led in hw.gpio.led_bars[0]] == [1] * 5 + [0] * 5
    hw.close()


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
            replace(s, slap=SlapConfig(source="padboard", pin=None, pad=i, mask_us=40_000, settle_us=6000))
            for i, s in enumerate(config.stations)
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

"""``open_hardware`` — the real cabinet's wiring — on gpiozero's MockFactory pins and
fake-rpi's I2C bus: the wiring table, luma's real OLED drivers at the configured
addresses, and the one-line errors for parts that cannot be opened."""

from __future__ import annotations

import sys
import types
from dataclasses import replace

import pytest
from gpiozero.pins.mock import MockFactory, MockPWMPin
from PIL import Image, ImageDraw

from hal.clock import ManualClock
from hal.config import PadboardConfig, SlapConfig
from hal.events import Button, ButtonEvent, SlapEvent
from hal.gpio import GpioCabinet
from hal.hardware import lgpio_factories, open_hardware
from hal.hardware_errors import DriverMissing, HardwareError
from tests.i2c_bus import RecordingSMBus, Ssd1306Ram


@pytest.fixture
def factories():
    f = {c: MockFactory(pin_class=MockPWMPin) for c in (0, 1, 2)}
    yield f
    for factory in f.values():
        factory.reset()


def test_the_wiring_table_on_mock_pins_and_a_recorded_i2c_bus(config, factories) -> None:
    bus = RecordingSMBus(present={0x3C, 0x3D})
    hw = open_hardware(config, ManualClock(), factories=factories, i2c_buses={1: bus})
    try:
        # luma's ssd1306 driver started both displays, at the configured addresses.
        assert {w.address for w in bus.writes} == {0x3C, 0x3D}
        blue = config.stations[1]
        factories[0].pin(blue.button_pin(Button.B)).drive_low()
        factories[0].pin(config.stations[0].slap.pin).drive_high()
        events = hw.poll(10**13)
        assert [(e.station, e.button) for e in events if isinstance(e, ButtonEvent)] == [(1, Button.B)]
        assert [e.station for e in events if isinstance(e, SlapEvent)] == [0]
        hw.set_led_level(0, 0.5)
        red_bar = config.stations[0].led_bar
        assert [factories[red_bar.chip].pin(p).state for p in red_bar.pins] == [1] * 5 + [0] * 5
        assert hw.led_levels(0) == (1.0,) * 5 + (0.0,) * 5
        hand = Image.new("1", (128, 64))
        ImageDraw.Draw(hand).text((2, 2), "Punch 1 x2", fill=255)
        hw.show_private(1, hand)
        assert hw.oleds.flush()
        ram = Ssd1306Ram()
        ram.feed(bus.writes, 0x3D)
        from hal.oled_worker import page_bytes

        assert [bytes(p) for p in ram.ram] == page_bytes(hand)
        untouched = Ssd1306Ram()
        untouched.feed(bus.writes, 0x3C)
        assert all(not any(p) for p in untouched.ram)
    finally:
        hw.close()


def test_an_oled_that_does_not_answer_is_one_line_naming_station_and_address(config, factories) -> None:
    bus = RecordingSMBus(present={0x3C})
    with pytest.raises(HardwareError) as e:
        open_hardware(config, ManualClock(), factories=factories, i2c_buses={1: bus})
    assert str(e.value).startswith(
        "station Blue's private display (ssd1306 at 0x3D on I2C bus 1) does not answer (I2C device not found"
    )
    assert "i2cdetect -y 1" in str(e.value) and "\n" not in str(e.value)
    GpioCabinet(config, factories).close()  # what was opened was closed again: the lines are free


def test_a_missing_padboard_port_names_the_port_and_the_udev_rule(config, factories, tmp_path) -> None:
    port = str(tmp_path / "ringside-padboard")
    stations = tuple(
        replace(s, slap=SlapConfig(source="padboard", pin=None, pad=i, mask_us=40_000, settle_us=6000))
        for i, s in enumerate(config.stations)
    )
    cfg = replace(config, stations=stations, padboard=PadboardConfig(port, 12_000))
    with pytest.raises(HardwareError, match=rf"padboard port {port} does not exist: is the padboard plugged in\?"):
        open_hardware(cfg, ManualClock(), factories=factories, i2c_buses={1: RecordingSMBus()})
    GpioCabinet(cfg, factories).close()


def test_lgpio_missing_is_an_install_hint(config, monkeypatch) -> None:
    monkeypatch.setitem(sys.modules, "gpiozero.pins.lgpio", None)  # import fails as without lgpio
    with pytest.raises(DriverMissing, match=r"the lgpio library is not installed .*python3-lgpio"):
        lgpio_factories(config)


def test_a_gpiochip_that_cannot_be_opened_is_named_and_the_others_are_closed(config, monkeypatch) -> None:
    opened, closed = [], []

    class FakeFactory:
        def __init__(self, chip: int) -> None:
            if chip == 2:
                raise OSError("can not open gpiochip")
            opened.append(chip)
            self.chip = chip

        def close(self) -> None:
            closed.append(self.chip)

    monkeypatch.setitem(sys.modules, "gpiozero.pins.lgpio", types.SimpleNamespace(LGPIOFactory=FakeFactory))
    with pytest.raises(HardwareError, match=r"^gpiochip 2 cannot be opened") as e:
        lgpio_factories(config)
    assert "\n" not in str(e.value)
    assert opened == closed == [0, 1]


def test_a_gpiochip_without_permission_names_the_group(tmp_path, monkeypatch) -> None:
    import grp
    import os

    from hal import hardware_errors

    (tmp_path / "gpiochip0").touch()
    monkeypatch.setattr(hardware_errors.os, "access", lambda *_a: False)
    message = str(hardware_errors.gpiochip_error(0, "can not open gpiochip", dev=tmp_path))
    group = grp.getgrgid(os.stat(tmp_path / "gpiochip0").st_gid).gr_name
    assert "is not readable and writable by user" in message and f"belongs to group {group}" in message
    missing = str(hardware_errors.gpiochip_error(3, "can not open gpiochip", dev=tmp_path))
    assert "gpiochip3 does not exist" in missing and "gpiodetect" in missing

"""The screen's light sensor: a GPIO line whose light-on edges keep the kernel's stamps."""

from __future__ import annotations

import gc

import pytest
from gpiozero.pins.mock import MockFactory

from hal.clock import ManualClock
from hal.config import ConfigError, parse_config
from hal.light_sensor import LightSensor
from tests.hal.test_config import DEFAULT


@pytest.fixture
def factory():
    f = MockFactory()
    yield f
    f.reset()


@pytest.mark.slow
def test_light_sensor_keeps_the_stamp_of_every_light_on_edge(factory: MockFactory) -> None:
    clock = ManualClock(1_000)
    sensor = LightSensor(factory, 17, ticks_to_us=lambda _t: clock.now_us())
    pin = factory.pin(17)
    for t in (5_000, 9_000):
        clock.set(t)
        pin.drive_high()
        clock.set(t + 2_000)
        pin.drive_low()  # light off: not an edge we time
    gc.collect()  # the pin holds its handler weakly: the sensor keeps it alive
    clock.set(20_000)
    pin.drive_high()
    assert sensor.first_light_after(0) == 5_000
    assert sensor.first_light_after(5_001) == 9_000
    assert sensor.first_light_after(9_001) == 20_000
    assert sensor.first_light_after(20_001) is None
    sensor.close()


def test_light_sensor_pulled_up_module_sees_light_on_the_falling_edge(factory: MockFactory) -> None:
    clock = ManualClock(0)
    sensor = LightSensor(factory, 18, ticks_to_us=lambda _t: clock.now_us(), active_high=False)
    pin = factory.pin(18)
    clock.set(3_000)
    pin.drive_low()
    clock.set(4_000)
    pin.drive_high()
    assert sensor.first_light_after(0) == 3_000
    assert sensor.first_light_after(3_001) is None
    sensor.close()


def test_config_display_latency_and_photodiode_pin() -> None:
    cfg = parse_config(DEFAULT.replace("[display]", "[display]\nlatency_us = 21000\nphotodiode_pin = 7"))
    assert (cfg.display.latency_us, cfg.display.photodiode_pin) == (21_000, 7)
    assert parse_config(DEFAULT).display.latency_us == 0


def test_config_photodiode_pin_must_be_a_free_line() -> None:
    with pytest.raises(ConfigError, match=r"display.photodiode_pin") as e:
        parse_config(DEFAULT.replace("[display]", "[display]\nphotodiode_pin = 99"))
    assert "0 to 27" in str(e.value)
    taken = DEFAULT.replace("[display]", "[display]\nphotodiode_pin = 2")  # SDA of the private displays
    with pytest.raises(ConfigError, match=r"display.photodiode_pin.*I2C SDA"):
        parse_config(taken)
    with pytest.raises(ConfigError, match=r"display.latency_us"):
        parse_config(DEFAULT.replace("[display]", "[display]\nlatency_us = -5"))

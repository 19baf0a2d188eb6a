"""The gpio backend on gpiozero's MockFactory: the code path a Pi runs."""

from __future__ import annotations

import gc
from dataclasses import replace

import pytest
from gpiozero.pins.mock import MockFactory, MockPWMPin

from hal.events import Button, ButtonEvent, ServiceEvent
from hal.gpio import GpioCabinet, kernel_ticks_to_us


def make(config, stamp=lambda ticks: round(ticks * 1e6)):
    factories = {c: MockFactory(pin_class=MockPWMPin) for c in (0, 1, 2)}
    return GpioCabinet(config, factories, ticks_to_us=stamp), factories


def test_press_is_stamped_from_the_edge_ticks(config) -> None:
    cab, f = make(config)
    pin = f[0].pin(config.stations[1].button_pin(Button.C))
    pin.drive_low()
    (ev,) = cab.poll(10**12)
    assert isinstance(ev, ButtonEvent)
    assert (ev.station, ev.button, ev.pressed) == (1, Button.C, True)
    # MockPin stamps edges with time.monotonic(); the event carries that stamp, not "now".
    assert ev.t_us == round(pin._last_change * 1e6)
    cab.close()


def test_bounce_burst_gives_one_press(config) -> None:
    cab, f = make(config)
    pin = f[0].pin(config.stations[0].button_pin(Button.A))
    stamps = iter([0, 100, 400, 900, 1500])
    cab._ticks_to_us = lambda _t: next(stamps)
    for _ in range(2):
        pin.drive_low()
        pin.drive_high()
    pin.drive_low()
    events = cab.poll(2000)
    assert [(e.button, e.pressed) for e in events] == [(Button.A, True)]
    cab.close()


@pytest.mark.slow
def test_handlers_survive_garbage_collection(config) -> None:
    """gpiozero holds pin callbacks weakly; ours must be kept alive by the backend."""
    cab, f = make(config)
    gc.collect()
    f[0].pin(config.stations[0].button_pin(Button.START)).drive_low()
    assert any(isinstance(e, ButtonEvent) for e in cab.poll(10**12))
    cab.close()


def test_service_key_events(config) -> None:
    cab, f = make(config)
    f[0].pin(config.service_pin).drive_low()
    (ev,) = cab.poll(10**12)
    assert isinstance(ev, ServiceEvent) and ev.on
    cab.close()


def test_led_bar_whole_segments_without_pwm(config) -> None:
    cab, f = make(config)
    cab.set_led_level(0, 0.7)
    pins = [f[1].pin(p).state for p in config.stations[0].led_bar.pins]
    assert [bool(s) for s in pins] == [True] * 7 + [False] * 3
    cab.close()


def test_led_bar_fractions_with_pwm(config) -> None:
    bar = replace(config.stations[0].led_bar, pwm=True)
    cfg = replace(config, stations=(replace(config.stations[0], led_bar=bar), config.stations[1]))
    cab, f = make(cfg)
    cab.set_led_level(0, 0.45)
    pins = [float(f[1].pin(p).state) for p in cfg.stations[0].led_bar.pins]
    assert pins == [1.0, 1.0, 1.0, 1.0, 0.5, 0, 0, 0, 0, 0]
    cab.close()


def test_kernel_ticks_are_seconds_to_microseconds() -> None:
    assert kernel_ticks_to_us(12.000001) == 12_000_001


@pytest.mark.parametrize("pwm", [False, True])
def test_a_new_level_writes_only_the_segments_it_changes(config, monkeypatch, pwm) -> None:
    """Issue 34's idle CPU: the attract screen's breathing chase steps the bars ten times
    a second, one or two segments each; the others are not written again (each write
    through gpiozero costs), and the bar shows what the whole bar's setter would."""
    bar = replace(config.stations[0].led_bar, pwm=pwm)
    cfg = replace(config, stations=(replace(config.stations[0], led_bar=bar), config.stations[1]))
    cab, f = make(cfg)
    writes = []
    set_state = MockPWMPin._set_state
    monkeypatch.setattr(MockPWMPin, "_set_state", lambda pin, value: (writes.append(pin), set_state(pin, value)))
    pins = [f[1].pin(p) for p in cfg.stations[0].led_bar.pins]
    cab.set_led_level(0, 0.3)
    assert len(writes) == 10  # the first level: every segment written
    for level, changed in ((0.4, 1), (0.4, 0), (0.35 if pwm else 0.2, 1 if pwm else 2), (0.0, 4 if pwm else 2)):
        writes.clear()
        cab.set_led_level(0, level)
        assert len(writes) == changed, (level, writes)
        ours = [p.state for p in pins]
        cab.led_bars[0].value = level if pwm else round(level * 10) / 10  # gpiozero's own setter
        assert [p.state for p in pins] == ours
    cab.close()

"""gpio-edge pads calibrated for real: the cabinet's comparator lines are recorded edge by
edge (chatter included), and the fitted mask times take effect when the cabinet opens the
lines."""

from __future__ import annotations

from dataclasses import replace

from gpiozero.pins.mock import MockFactory, MockPWMPin

from calibration.capture import Recording
from calibration.gpio_fit import fit_gpio
from calibration.live_gpio import LiveGpioEdge, apply_gpio_masks, gpio_edge_stations
from calibration.profiles import ProfileStore, config_with_active_profile, new_profile
from hal.clock import ManualClock
from hal.gpio_edge import GpioEdgeSource


def test_every_edge_before_the_mask_is_recorded_per_pad(config) -> None:
    factory = MockFactory(pin_class=MockPWMPin)
    clock = ManualClock(1_000_000)
    stations = gpio_edge_stations(config)
    pins = {s: config.stations[s].slap.pin for s in stations}
    source = GpioEdgeSource(factory, pins, ticks_to_us=lambda _t: clock.now_us(), mask_us=25_000)
    live = LiveGpioEdge([source], stations, clock)
    rec = Recording("single", list(range(live.pads)), duration_us=2_000_000, pad=1, prompted=1)
    live.begin(rec)
    line = factory.pin(pins[1])
    for t in (1_100_000, 1_101_500, 1_103_000, 1_104_000):  # one slap: the comparator chatters
        clock.set(t)
        line.drive_high()
        clock.set(t + 300)
        line.drive_low()
    cap = live.end(rec)
    assert live.pads == 2
    assert [(h.pad, h.t_us) for h in cap.hits] == [(1, 1_100_000), (1, 1_101_500), (1, 1_103_000), (1, 1_104_000)]
    assert source.on_edge is None  # the line is the cabinet's again
    fit = fit_gpio(1, [cap], None)
    assert fit.mask_us >= 4_000  # the mask covers the chatter it saw
    source.close()
    factory.reset()


def test_fitted_masks_take_effect_when_the_cabinet_opens_the_lines(config) -> None:
    cfg = apply_gpio_masks(config, {0: 12_000, 1: 18_000})
    assert [s.slap.mask_us for s in cfg.stations] == [12_000, 18_000]
    store = ProfileStore(config.data_dir)
    store.save(new_profile("hall", config.name, "gpio-edge", {}, {0: 15_000}))
    assert config_with_active_profile(config, log=lambda _l: None) == config  # not pushed yet
    store.set_active("hall")
    lines: list[str] = []
    active = config_with_active_profile(config, log=lines.append)
    assert [s.slap.mask_us for s in active.stations] == [15_000, config.stations[1].slap.mask_us]
    assert "hall" in lines[0]
    padboard_cfg = replace(
        config,
        stations=tuple(
            replace(s, slap=replace(s.slap, source="padboard", pad=i)) for i, s in enumerate(config.stations)
        ),
    )
    assert gpio_edge_stations(padboard_cfg) == []

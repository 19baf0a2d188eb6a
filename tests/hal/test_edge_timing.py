"""A comparator line's force bias: corrected by its first pulse's width (hal.edge_timing)
where the gpio-edge source stamps, only on lines calibration gave a ring period."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

import pytest
from gpiozero.pins.mock import MockFactory

from calibration.gpio_fit import ring_period_us
from firmware_py.sim.piezo import ModelSlap, PiezoModel, PiezoPad
from hal.edge_timing import NOMINAL_RING_US, NOMINAL_WALK, EdgeWalk
from hal.gpio_edge import GpioEdgeSource

RING_US = NOMINAL_RING_US  # the nominal pad's ring period, as calibration measures it


@pytest.fixture
def factory() -> Iterator[MockFactory]:
    f = MockFactory()
    yield f
    f.reset()


def first_pulse(pad: PiezoPad, force: float, level: float = 2000) -> tuple[float, float]:
    """(rising edge after contact, width) of a comparator rising at ``level`` and falling
    at half of it, on the noise-free model."""
    model = PiezoModel([replace(pad, noise=0.0, drift=0.0, position_us=0.0)])
    model.add(ModelSlap(0, 0, force))
    t = 0.0
    while model.signal(0, t) < level:
        t += 1
    rise = t
    while model.signal(0, t) >= level / 2:
        t += 1
    return rise, t - rise


def test_edge_walk_curve_is_the_nominal_pads_first_swing() -> None:
    """The table in hal (which may not import the simulator) is the model's own curve."""
    walk = EdgeWalk(RING_US)
    for force in (2200.0, 3000.0, 5000.0, 9000.0, 16000.0, 26000.0):
        rise, width = first_pulse(PiezoPad(), force)
        assert abs(walk.delay_us(round(width)) - rise) <= 25, (force, rise, width)
    assert all(a[0] < b[0] and a[1] > b[1] for a, b in zip(NOMINAL_WALK, NOMINAL_WALK[1:]))


def rising_edges(pad: PiezoPad, force: float, level: float = 2000) -> list[int]:
    """Every rising edge of the comparator after one slap (the chatter of its ring)."""
    model = PiezoModel([replace(pad, noise=0.0, drift=0.0, position_us=0.0)])
    model.add(ModelSlap(0, 0, force))
    edges, high, t = [], False, 0
    while t < 40_000:
        v = model.signal(0, t)
        if not high and v >= level:
            edges.append(t)
        high = v >= level if not high else v >= level / 2
        t += 2
    return edges


@pytest.mark.slow
@pytest.mark.parametrize("ring_hz", [200.0, 220.0, 290.0])
def test_edge_walk_scales_with_the_pads_ring(ring_hz: float) -> None:
    """Another pad's curve, with its period measured as calibration does (the chatter's
    spacing): what is left is far under the force bias it removes."""
    pad = replace(PiezoPad(), ring_hz=ring_hz)
    walk = EdgeWalk(ring_period_us([rising_edges(pad, 26000.0)]))
    rises = []
    for force in (2200.0, 3000.0, 5000.0, 9000.0, 16000.0, 26000.0):
        rise, width = first_pulse(pad, force)
        rises.append(rise)
        assert abs(walk.delay_us(round(width)) - rise) <= 40, (force, rise, width)
    assert max(rises) - min(rises) > 800  # the bias of the rising edge alone


def test_edge_walk_needs_a_period() -> None:
    with pytest.raises(ValueError, match="ring_us=0"):
        EdgeWalk(0)


def test_gpio_edge_line_with_a_walk_is_stamped_at_its_rise_less_the_delay_its_width_means(factory) -> None:
    walk = EdgeWalk(RING_US)
    stamps = iter([10_000, 11_000, 50_000, 52_000, 90_000, 90_200])
    src = GpioEdgeSource(factory, {0: 17, 1: 27}, ticks_to_us=lambda _t: next(stamps), mask_us=5_000, walk={0: walk})
    raw: list[tuple[int, int]] = []
    src.on_edge = lambda station, t: raw.append((station, t))
    pin = factory.pin(17)
    for _ in range(2):  # a narrow first pulse (soft slap), then a wide one (hard slap)
        pin.drive_high()
        pin.drive_low()
    other = factory.pin(27)  # no walk: as stamped before, rising edge only
    other.drive_high()
    other.drive_low()
    got = [(e.station, e.t_us) for e in src.poll(0)]
    assert got == [(0, 10_000 - walk.delay_us(1_000)), (0, 50_000 - walk.delay_us(2_000)), (1, 90_000)]
    assert walk.delay_us(1_000) > walk.delay_us(2_000) + 400  # the soft slap was stamped much later
    assert raw == [(0, 10_000), (0, 50_000), (1, 90_000)]  # calibration still sees the raw rising edges
    src.close()


def test_gpio_edge_pulse_too_wide_for_a_slap_keeps_its_rising_edge(factory) -> None:
    walk = EdgeWalk(RING_US)
    stamps = iter([1_000, 1_000 + 3 * walk.longest_pulse_us])
    src = GpioEdgeSource(factory, {0: 17}, ticks_to_us=lambda _t: next(stamps), walk={0: walk})
    factory.pin(17).drive_high()
    factory.pin(17).drive_low()
    assert [e.t_us for e in src.poll(0)] == [1_000]
    src.close()

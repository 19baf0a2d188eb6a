"""gpio-edge slap source on gpiozero's MockFactory: stamps, mask time, threads, weak refs."""

from __future__ import annotations

import gc
import threading
import time
from collections.abc import Iterator

import pytest
from gpiozero.pins.mock import MockFactory

from hal.events import SlapEvent
from hal.gpio_edge import GpioEdgeSource
from hal.timing import GIL_SWITCH_US, GPIO_EDGE_SETTLE_US


@pytest.fixture
def factory() -> Iterator[MockFactory]:
    f = MockFactory()
    yield f
    f.reset()


def scripted(stamps: list[int]):
    """A ticks_to_us that hands out chosen stamps, one per edge (MockFactory cannot)."""
    it = iter(stamps)
    return lambda _ticks: next(it)


def pulse(factory: MockFactory, pin: int, high: bool = True) -> None:
    p = factory.pin(pin)
    if high:
        p.drive_high()
        p.drive_low()
    else:
        p.drive_low()
        p.drive_high()


def test_gpio_edge_stamps_are_the_pin_ticks_in_hal_us(factory: MockFactory) -> None:
    src = GpioEdgeSource(factory, {0: 17, 1: 27})
    before = time.monotonic_ns() // 1000
    pulse(factory, 27)
    after = time.monotonic_ns() // 1000 + 1
    events = src.poll(after)
    assert len(events) == 1
    e = events[0]
    assert isinstance(e, SlapEvent) and e.station == 1 and e.velocity is None and e.source == "gpio-edge"
    assert before <= e.t_us <= after
    src.close()


def test_gpio_edge_mask_time_swallows_chatter_not_the_next_slap(factory: MockFactory) -> None:
    stamps = [1_000, 1_400, 9_000, 25_999, 27_000, 45_000]
    src = GpioEdgeSource(factory, {0: 17}, ticks_to_us=scripted(stamps), mask_us=25_000)
    for _ in stamps:
        pulse(factory, 17)
    assert [e.t_us for e in src.poll(0)] == [1_000, 27_000]
    assert src.masked == 4
    src.close()


def test_gpio_edge_mask_is_per_station(factory: MockFactory) -> None:
    src = GpioEdgeSource(factory, {0: 17, 1: 27}, ticks_to_us=scripted([100, 150]))
    pulse(factory, 17)
    pulse(factory, 27)
    assert [(e.station, e.t_us) for e in src.poll(0)] == [(0, 100), (1, 150)]
    src.close()


def test_gpio_edge_each_line_keeps_its_own_mask_time(factory: MockFactory) -> None:
    """Calibration fits a mask per pad: 12 ms on one line and 18 ms on the other stay so,
    though both lines share one source."""
    stamps = [0, 13_000, 26_000, 1_000, 14_000, 20_000]
    src = GpioEdgeSource(factory, {0: 17, 1: 27}, ticks_to_us=scripted(stamps), mask_us={0: 12_000, 1: 18_000})
    assert src.masks_us == {0: 12_000, 1: 18_000}
    for pin in (17, 17, 17, 27, 27, 27):
        pulse(factory, pin)
    assert [(e.station, e.t_us) for e in src.poll(0)] == [(0, 0), (0, 13_000), (0, 26_000), (1, 1_000), (1, 20_000)]
    assert src.masked == 1
    src.close()


def test_gpio_edge_a_line_without_a_mask_time_is_refused(factory: MockFactory) -> None:
    with pytest.raises(ValueError, match=r"no mask time for station\(s\) \[1\]"):
        GpioEdgeSource(factory, {0: 17, 1: 27}, mask_us={0: 12_000})


def test_gpio_edge_never_uses_library_debounce_and_takes_the_active_edge_only(factory: MockFactory) -> None:
    src = GpioEdgeSource(factory, {0: 17, 1: 27}, ticks_to_us=scripted([10, 20_000_000]), active_high=False)
    for d in src._devices:
        assert d.pin.bounce is None
        assert d.pin.edges == "falling"
    factory.pin(17).drive_low()  # active
    factory.pin(17).drive_high()  # release: no event
    assert [e.t_us for e in src.poll(0)] == [10]
    src.close()


@pytest.mark.slow
def test_gpio_edge_handlers_survive_garbage_collection(factory: MockFactory) -> None:
    src = GpioEdgeSource(factory, {0: 17}, ticks_to_us=scripted([5, 50_000]))
    gc.collect()
    pulse(factory, 17)
    gc.collect()
    pulse(factory, 17)
    assert [e.t_us for e in src.poll(0)] == [5, 50_000]
    src.close()


def test_gpio_edge_edges_from_another_thread_arrive_through_poll(factory: MockFactory) -> None:
    stamps = [i * 100_000 for i in range(1, 51)]
    src = GpioEdgeSource(factory, {0: 17}, ticks_to_us=scripted(stamps))
    worker = threading.Thread(target=lambda: [pulse(factory, 17) for _ in stamps])
    worker.start()
    got: list[int] = []
    deadline = time.monotonic() + 10
    while len(got) < len(stamps) and time.monotonic() < deadline:
        got += [e.t_us for e in src.poll(0)]
    worker.join()
    assert got == stamps
    src.close()


def test_gpio_edge_settle_default_is_small_but_covers_a_gil_switch() -> None:
    assert GIL_SWITCH_US < GPIO_EDGE_SETTLE_US <= 10_000
    assert GpioEdgeSource(MockFactory(), {}).settle_us == GPIO_EDGE_SETTLE_US

"""The simulated cabinet: the same interface as the real one, outputs read back for the
development window, and mock pins that do not hoard their history."""

from __future__ import annotations

import inspect

import pytest

from hal.cabinet_io import CabinetIO, StationReadback
from hal.events import Button
from hal.hardware import CabinetHardware
from hal.sim import SimCabinet, SimPin

INTERFACE = [
    name for name, member in vars(CabinetIO).items() if inspect.isfunction(member) and not name.startswith("_")
]


def test_both_cabinets_implement_every_method_of_the_interface_with_its_signature() -> None:
    assert set(INTERFACE) == {"poll", "wait", "next_due", "set_led_level", "show_private", "readback", "close"}
    for cls in (SimCabinet, CabinetHardware):
        for name in INTERFACE:
            method = getattr(cls, name)
            assert method is not getattr(CabinetIO, name), f"{cls.__name__}.{name} is not implemented"
            assert list(inspect.signature(method).parameters) == list(
                inspect.signature(getattr(CabinetIO, name)).parameters
            ), f"{cls.__name__}.{name}"


def test_the_simulated_cabinet_reads_its_outputs_back(sim: SimCabinet) -> None:
    from PIL import Image

    assert isinstance(sim, CabinetIO)
    assert [type(s).__name__ for s in sim.sources] == ["SimSlapSource"]
    image = Image.new("1", (128, 64))
    image.putpixel((3, 4), 1)
    sim.show_private(1, image)
    sim.set_led_level(0, 0.3)
    shown = sim.readback()
    assert len(shown) == 2 and all(isinstance(s, StationReadback) for s in shown)
    assert shown[0].led_levels == (1.0, 1.0, 1.0) + (0.0,) * 7
    assert shown[0].private_image is None  # nothing shown there yet
    assert shown[1].private_image is not None and shown[1].private_image.getpixel((3, 4)) != 0


def test_the_simulated_cabinet_names_its_next_scheduled_input(sim: SimCabinet, clock) -> None:
    assert sim.next_due() is None
    sim.press(0, Button.A, clock.now_us() + 5_000)
    sim.slap(1, clock.now_us() + 1_000, delay_us=3_000)
    assert sim.next_due() == clock.now_us() + 4_000


@pytest.mark.slow
def test_mock_pins_keep_a_bounded_history(sim: SimCabinet, clock) -> None:
    """gpiozero's MockPin appends every state change forever; an hour of LED changes
    and presses in the development window must not pile up."""
    t = clock.now_us() + 10_000
    for i in range(5_000):
        sim.set_led_level(0, (i % 11) / 10)
        sim.press(1, Button.A, t + i * 100_000, hold_us=50_000)
    sim.poll(t + 5_000 * 100_000)
    pins = [p for f in sim.factories.values() for p in f.pins.values()]
    assert pins and all(isinstance(p, SimPin) for p in pins)
    assert max(len(p.states) for p in pins) == SimPin.HISTORY
    pin = sim.button_pin(1, Button.A)
    assert [s.state for s in list(pin.states)[-2:]] == [False, True]  # the latest stay: pressed, released

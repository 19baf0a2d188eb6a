"""What the cabinet's main loop may ask of its hardware, real or simulated.

:class:`hal.hardware.CabinetHardware` (a Pi's gpiozero lines, slap sources and OLEDs)
and :class:`hal.sim.SimCabinet` (mock pins, dummy OLEDs, injected slaps) both implement
it, so the runtime never knows which one it drives and never imports the simulator.
What only some hardware can do is a capability the interface names, not a type check:
:meth:`CabinetIO.readback` says whether the outputs can be read back for the
development window's panels.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from PIL import Image

from hal.events import InputEvent
from hal.slap_source import SlapSource


@dataclass(frozen=True)
class StationReadback:
    """What one station's outputs show now, as read back from the hardware."""

    private_image: Image.Image | None
    """The frame on the private display (None: nothing shown yet)."""
    led_levels: tuple[float, ...]
    """Each LED segment's brightness, bottom first."""


@runtime_checkable
class CabinetIO(Protocol):
    sources: Sequence[SlapSource]
    """The slap sources, for scenes that record through a device directly (calibration
    uses the open padboard link or gpio-edge lines).  A slap-pad link going down or up
    reaches the loop through :meth:`poll` as a ``PadLinkEvent``."""

    def poll(self, now_us: int) -> list[InputEvent]:
        """Every input up to ``now_us`` (debounced buttons, the SERVICE key, slaps,
        slap-pad link changes) since the last poll."""
        ...

    def wait(self, timeout_s: float) -> None:
        """Sleep until an input may have arrived, at most ``timeout_s``."""
        ...

    def next_due(self) -> int | None:
        """When the hardware itself next has an input due, where it knows (a simulated
        cabinet's schedule); None when inputs come as they come."""
        ...

    def set_led_level(self, station: int, level: float) -> None:
        """Light ``level`` (0..1) of the station's LED bar."""
        ...

    def show_private(self, station: int, image: Image.Image) -> None:
        """Show ``image`` on the station's private display (if it has one)."""
        ...

    def readback(self) -> tuple[StationReadback, ...] | None:
        """What every station's private display and LED bar show, where the hardware can
        read them back (the simulated cabinet: the development window draws them); None
        on a real cabinet, whose players look at the real ones."""
        ...

    def close(self) -> None: ...

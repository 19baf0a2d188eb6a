"""Input events: what a station or the cabinet did, and when (HAL µs, stamped at source)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum


class Button(Enum):
    """A station's buttons: six action buttons A–F and START."""

    A = "A"
    B = "B"
    C = "C"
    D = "D"
    E = "E"
    F = "F"
    START = "START"


ACTION_BUTTONS: tuple[Button, ...] = (Button.A, Button.B, Button.C, Button.D, Button.E, Button.F)


@dataclass(frozen=True)
class ButtonEvent:
    """A debounced press (``pressed=True``) or release of a station button."""

    station: int
    button: Button
    pressed: bool
    t_us: int


@dataclass(frozen=True)
class SlapEvent:
    """One slap on a station's pad.  ``velocity`` 1–127, or None where the source has none
    (gpio-edge).  ``source`` names the transport, whose worst skew sets the settle window."""

    station: int
    t_us: int
    velocity: int | None
    source: str


@dataclass(frozen=True)
class ServiceEvent:
    """The SERVICE key inside the coin door was turned on or off."""

    on: bool
    t_us: int


@dataclass(frozen=True)
class PadLinkEvent:
    """A slap-pad transport went down (cable pulled) or came back."""

    source: str
    connected: bool
    t_us: int
    detail: str = ""


@dataclass(frozen=True)
class TypedEvent:
    """A USB keyboard plugged into the cabinet (or the development window in typing mode,
    F3): ``text`` typed, or an editing ``key`` ("backspace", "enter").  It belongs to no
    station: the scene decides who is typing (Punch Cards' lobby: the desk entering a name)."""

    t_us: int
    text: str = ""
    key: str = ""


InputEvent = ButtonEvent | SlapEvent | ServiceEvent | PadLinkEvent | TypedEvent

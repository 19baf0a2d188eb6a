"""The keyboard backend for development: keys stand in for the stations' buttons, slap
pads and the SERVICE key.  Keys drive the sim backend's mock pins at the moment they are
pressed, so a developer exercises the same gpiozero path the cabinet uses.

A USB keyboard plugged into the cabinet types text (:class:`UsbTyping`): Punch Cards' name
entry takes it.  In the development window F3 switches the keys between the stations'
buttons and typing."""

from __future__ import annotations

import pygame

from hal.events import Button, TypedEvent
from hal.sim import SimCabinet

# Station → its keys for A, B, C, D, E, F, START, and its slap pad.
STATION_KEYS: tuple[tuple[tuple[int, ...], int, int], ...] = (
    ((pygame.K_q, pygame.K_w, pygame.K_e, pygame.K_a, pygame.K_s, pygame.K_d), pygame.K_1, pygame.K_z),
    ((pygame.K_u, pygame.K_i, pygame.K_o, pygame.K_j, pygame.K_k, pygame.K_l), pygame.K_2, pygame.K_m),
    ((pygame.K_r, pygame.K_t, pygame.K_y, pygame.K_f, pygame.K_g, pygame.K_h), pygame.K_3, pygame.K_v),
    ((pygame.K_KP7, pygame.K_KP8, pygame.K_KP9, pygame.K_KP4, pygame.K_KP5, pygame.K_KP6), pygame.K_4, pygame.K_KP0),
)
SERVICE_KEY = pygame.K_F2
TYPING_KEY = pygame.K_F3
EDIT_KEYS = {pygame.K_BACKSPACE: "backspace", pygame.K_RETURN: "enter", pygame.K_KP_ENTER: "enter"}
QUIT_KEYS = (pygame.K_ESCAPE,)

KEYMAP_TEXT = """\
             A B C / D E F     START   slap
station 1    Q W E / A S D       1       Z
station 2    U I O / J K L       2       M
station 3    R T Y / F G H       3       V
station 4    keypad 7 8 9/4 5 6  4    keypad 0
SERVICE key: F2 (toggles)    quit: Esc
F3: the keys type text, as a USB keyboard does (toggles; Punch Cards' names)"""


class UsbTyping:
    """A USB keyboard's typing as :class:`~hal.events.TypedEvent`: text as typed (SDL's
    text input: layouts, dead keys and compose work), Backspace and Enter."""

    def __init__(self) -> None:
        self.typed: list[TypedEvent] = []

    def handle(self, event: pygame.event.Event, now_us: int) -> None:
        if event.type == pygame.TEXTINPUT and event.text:
            self.typed.append(TypedEvent(now_us, text=event.text))
        elif event.type == pygame.KEYDOWN and event.key in EDIT_KEYS:
            self.typed.append(TypedEvent(now_us, key=EDIT_KEYS[event.key]))

    def take(self) -> list[TypedEvent]:
        """What was typed since the last call."""
        out, self.typed = self.typed, []
        return out


class KeyboardInput:
    """Turns pygame key events into presses on the sim cabinet's pins."""

    def __init__(self, sim: SimCabinet) -> None:
        self.sim = sim
        self.service_on = False
        self.typing = UsbTyping()
        self.typing_on = False
        """F3: the keys type text instead of pressing the stations' buttons."""
        self._keys: dict[int, tuple[int, Button | None]] = {}
        buttons = (Button.A, Button.B, Button.C, Button.D, Button.E, Button.F)
        for station, (actions, start, slap) in enumerate(STATION_KEYS[: len(sim.config.stations)]):
            for key, button in zip(actions, buttons, strict=True):
                self._keys[key] = (station, button)
            self._keys[start] = (station, Button.START)
            self._keys[slap] = (station, None)

    def handle(self, event: pygame.event.Event, now_us: int) -> bool:
        """Apply one pygame event; return False when the developer asked to quit."""
        if event.type == pygame.QUIT or (event.type == pygame.KEYDOWN and event.key in QUIT_KEYS):
            return False
        if event.type == pygame.TEXTINPUT and self.typing_on:
            self.typing.handle(event, now_us)
        if event.type not in (pygame.KEYDOWN, pygame.KEYUP):
            return True
        down = event.type == pygame.KEYDOWN
        if event.key == TYPING_KEY and down:
            self.typing_on = not self.typing_on
            return True
        if self.typing_on:
            self.typing.handle(event, now_us)
            return True
        if event.key == SERVICE_KEY and down and self.sim.config.service_pin is not None:
            self.service_on = not self.service_on
            self.sim.service_key(self.service_on, now_us)
            return True
        target = self._keys.get(event.key)
        if target is None:
            return True
        station, button = target
        if button is None:
            if down:
                self.sim.slap(station, now_us, velocity=100)
            return True
        pin = self.sim.button_pin(station, button)
        self.sim.at(now_us, pin.drive_low if down else pin.drive_high)
        return True

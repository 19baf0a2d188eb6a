"""A USB keyboard's typing (issue 23: names typed on a keyboard where one is plugged in)
and the development window's F3, which turns its keys from station buttons into typing."""

from __future__ import annotations

import pygame

from hal.events import Button, TypedEvent
from hal.keyboard import TYPING_KEY, KeyboardInput, UsbTyping
from hal.sim import SimCabinet


def key(kind: int, k: int) -> pygame.event.Event:
    return pygame.event.Event(kind, key=k)


def test_text_backspace_and_enter_become_typed_events() -> None:
    usb = UsbTyping()
    usb.handle(pygame.event.Event(pygame.TEXTINPUT, text="Zoë"), 5)
    usb.handle(key(pygame.KEYDOWN, pygame.K_BACKSPACE), 6)
    usb.handle(key(pygame.KEYDOWN, pygame.K_RETURN), 7)
    usb.handle(key(pygame.KEYDOWN, pygame.K_q), 8)  # a letter comes as its TEXTINPUT, not twice
    assert usb.take() == [TypedEvent(5, text="Zoë"), TypedEvent(6, key="backspace"), TypedEvent(7, key="enter")]
    assert usb.take() == []


def test_f3_turns_the_development_keys_into_typing_and_back(sim: SimCabinet) -> None:
    keys = KeyboardInput(sim)
    pin = sim.button_pin(0, Button.A)  # station 1's A is Q
    now = sim.clock.now_us()
    assert keys.handle(key(pygame.KEYDOWN, TYPING_KEY), now)
    keys.handle(key(pygame.KEYDOWN, pygame.K_q), now)
    keys.handle(pygame.event.Event(pygame.TEXTINPUT, text="q"), now)
    sim.poll(now)
    assert keys.typing.take() == [TypedEvent(now, text="q")]
    assert pin.state  # not pressed (the pin is pulled up): typing
    keys.handle(key(pygame.KEYDOWN, TYPING_KEY), now)
    keys.handle(key(pygame.KEYDOWN, pygame.K_q), now)
    keys.handle(pygame.event.Event(pygame.TEXTINPUT, text="q"), now)
    sim.poll(now)
    assert keys.typing.take() == [] and not pin.state  # a station button again

"""Tap Race at the cabinet: A taps, any other action button is refused with a word; the
LED bar fills towards the winning count."""

from __future__ import annotations

from enum import Enum
from typing import ClassVar

from games.tap_race.engine import RaceWon, Tap, Tapped, TapRace, TapRaceEnding

from firmware_py.runtime.controls import GameControls, OptionItem, Refusal
from games.protocol import Action, Event
from hal.events import Button


class TapRaceControls(GameControls[TapRace, None, None]):
    blurb = "Test-only: the first to tap A three times wins."
    endings: ClassVar[dict[Enum, str]] = {TapRaceEnding.FIRST_THERE: "first to the line"}
    options_menu = (OptionItem("Taps to win", "taps_to_win", ((3, "3"), (5, "5"))),)

    def on_button(self, engine: TapRace, seat: int, button: Button, t_us: int) -> Action | Refusal | None:
        if button is Button.A:
            return Tap(seat)
        if button is Button.START:
            return None
        return Refusal(seat, "Tap A!")

    def led_level(self, engine: TapRace, seat: int) -> float:
        v = engine.public_view()
        return v.taps[seat] / v.taps_to_win

    def bot_presses(self, engine: TapRace, seat: int, action: Action) -> tuple[Button, ...]:
        if isinstance(action, Tap):
            return (Button.A,)
        raise TypeError(f"no presses for {action!r}")

    def result_lines(self, engine: TapRace, names: tuple[str, ...]) -> tuple[str, tuple[str, ...]]:
        outcome = engine.outcome()
        headline = f"{names[outcome.winner].upper()} WINS THE RACE" if outcome and outcome.winner is not None else ""
        return headline, tuple(f"{n}: {t} taps" for n, t in zip(names, engine.public_view().taps, strict=True))

    def describe(self, event: Event, names: tuple[str, ...]) -> str | None:
        if isinstance(event, Tapped):
            return f"{names[event.player]} taps ({event.taps})"
        if isinstance(event, RaceWon):
            return f"*** {names[event.player]} WINS THE RACE ***"
        return None

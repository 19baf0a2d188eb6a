"""Tap Race at the cabinet, found by name."""

from display.games.tap_race import SCREENS
from firmware_py.games.tap_race.controls import TapRaceControls

from firmware_py.runtime.controls import drawn_by

CONTROLS = drawn_by(TapRaceControls, SCREENS)

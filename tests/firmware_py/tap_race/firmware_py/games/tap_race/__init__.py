"""Tap Race at the cabinet, found by name."""

from firmware_py.games.tap_race.controls import TapRaceControls

CONTROLS = TapRaceControls

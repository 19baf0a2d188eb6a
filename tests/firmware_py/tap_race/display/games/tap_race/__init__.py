"""Tap Race's screens and sounds, found by name."""

from display.games.tap_race.screens import draw_tap_race, draw_tap_race_private
from display.games.tap_race.sounds import SOUNDS

from display.games.registry import GameScreens

SCREENS = GameScreens(play=draw_tap_race, private=draw_tap_race_private, sounds=SOUNDS)

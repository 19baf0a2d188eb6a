"""Tap Race's screens and sounds, found by name."""

from display.games.tap_race.screens import draw_tap_race, draw_tap_race_private
from display.games.tap_race.sounds import SOUNDS
from games.tap_race.engine import TapRace

from display.games.registry import game_screens

SCREENS = game_screens(TapRace, play=draw_tap_race, private=draw_tap_race_private, sounds=SOUNDS)

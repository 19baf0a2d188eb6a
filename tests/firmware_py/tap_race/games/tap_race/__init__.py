"""Tap Race's engine (the first to tap A three times wins), found by name."""

from games.tap_race.engine import TapRace

ENGINE = TapRace

"""Karate Fight at the cabinet: its controls (A plays, the slap pad hits, Jan Ken on
A–C) and the story of the fight with its photo finishes."""

from display.games.karate_fight import SCREENS
from firmware_py.games.karate_fight.controls import KarateControls
from firmware_py.runtime.controls import drawn_by

CONTROLS = drawn_by(KarateControls, SCREENS)

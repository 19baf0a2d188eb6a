"""Punch! at the cabinet: its controls (A–F lay a card kind each) and the story of the
game told from its journal for the result screen."""

from display.games.punch import SCREENS
from firmware_py.games.punch.controls import PunchControls
from firmware_py.runtime.controls import drawn_by

CONTROLS = drawn_by(PunchControls, SCREENS)

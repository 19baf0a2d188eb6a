"""Punch! at the cabinet: its controls (A–F lay a card kind each) and the story of the
game told from its journal for the result screen."""

from firmware_py.games.punch.controls import PunchControls

CONTROLS = PunchControls

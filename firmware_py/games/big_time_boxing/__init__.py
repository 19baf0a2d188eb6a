"""Big Time Boxing at the cabinet: its controls, with the defence, combo and escape
windows the cabinet times."""

from display.games.big_time_boxing import SCREENS
from firmware_py.games.big_time_boxing.controls import BigTimeBoxingControls
from firmware_py.runtime.controls import drawn_by

CONTROLS = drawn_by(BigTimeBoxingControls, SCREENS)

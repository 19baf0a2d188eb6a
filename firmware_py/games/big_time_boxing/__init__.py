"""Big Time Boxing at the cabinet: its controls, with the defence, combo and escape
windows the cabinet times."""

from firmware_py.games.big_time_boxing.controls import BigTimeBoxingControls

CONTROLS = BigTimeBoxingControls

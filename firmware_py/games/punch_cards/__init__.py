"""Punch Cards at the cabinet: its controls, the lobby where players sign in, the duel,
the trade, the on-screen keyboard, the operator's service pages, and the ledger (who
holds which card, for the whole event) with the cabinet's link to it.

The ledger lives here, not beside the cabinet's store: only Punch Cards has cards that
change hands across games and cabinets, and nothing cabinet-wide reads it."""

from display.games.punch_cards import SCREENS
from firmware_py.games.punch_cards.controls import PunchCardsControls
from firmware_py.games.punch_cards.entrance import PunchCardsEntrance
from firmware_py.runtime.controls import drawn_by

CONTROLS = drawn_by(PunchCardsControls, SCREENS)
ENTRANCE = PunchCardsEntrance()

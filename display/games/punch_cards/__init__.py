"""Punch Cards on the cabinet's displays: the lobby, the duel and the trade on the main
screen, and a player's desk, duel and keyboard on their private display."""

from display.games.punch_cards.private import draw_punch_cards_private
from display.games.punch_cards.screen import draw_punch_cards
from display.games.punch_cards.sounds import SOUNDS
from display.games.registry import AnyGameScreens, GameScreens

SCREENS: AnyGameScreens = GameScreens(play=draw_punch_cards, private=draw_punch_cards_private, sounds=SOUNDS)
"""Not yet ``game_screens(PunchCardsDuel, ...)``: the lobby and trade put views of the
cabinet's (``PunchCardsTable``, a desk) through the same screens as the duel's."""

"""Punch Cards on the cabinet's displays: the lobby, the duel and the trade on the main
screen, and a player's desk, duel and keyboard on their private display."""

from display.games.punch_cards.private import draw_punch_cards_private
from display.games.punch_cards.screen import draw_punch_cards
from display.games.punch_cards.sounds import SOUNDS
from display.games.registry import GameScreens

SCREENS = GameScreens(play=draw_punch_cards, private=draw_punch_cards_private, sounds=SOUNDS)

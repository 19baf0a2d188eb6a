"""Punch! on the cabinet's displays: the play screen, a boxer's private display and the
story of the game as its result screen."""

from display.games.punch.private import draw_punch_private
from display.games.punch.result import draw_punch_result
from display.games.punch.screen import draw_punch
from display.games.punch.sounds import SOUNDS
from display.games.registry import game_screens
from games.punch import Punch

SCREENS = game_screens(Punch, play=draw_punch, private=draw_punch_private, result=draw_punch_result, sounds=SOUNDS)

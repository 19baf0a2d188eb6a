"""Big Time Boxing on the cabinet's displays: the ring, a boxer's private display (his
hand) and the score sheet as its result screen."""

from display.games.big_time_boxing.private import draw_big_time_boxing_private
from display.games.big_time_boxing.screen import draw_big_time_boxing, draw_score_sheet, foreseen
from display.games.big_time_boxing.sounds import SOUNDS
from display.games.registry import game_screens
from games.big_time_boxing import BigTimeBoxing

SCREENS = game_screens(
    BigTimeBoxing,
    play=draw_big_time_boxing,
    private=draw_big_time_boxing_private,
    result=draw_score_sheet,
    sounds=SOUNDS,
    foreseen=foreseen,
)

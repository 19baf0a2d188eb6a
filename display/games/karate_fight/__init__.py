"""Karate Fight on the cabinet's displays: the play screen with its photo finish, a
fighter's private display and the story of the fight as its result screen."""

from display.games.karate_fight.private import draw_karate_private
from display.games.karate_fight.result import draw_karate_result
from display.games.karate_fight.screen import draw_karate, glowing
from display.games.registry import GameScreens

SCREENS = GameScreens(play=draw_karate, private=draw_karate_private, result=draw_karate_result, moving=glowing)

"""Karate Fight on the cabinet's displays: the play screen with its photo finish, a
fighter's private display and the story of the fight as its result screen."""

from display.games.karate_fight.private import draw_karate_private
from display.games.karate_fight.result import draw_karate_result
from display.games.karate_fight.screen import draw_karate, glowing
from display.games.karate_fight.sounds import SOUNDS
from display.games.registry import game_screens
from games.karate_fight import KarateFight

SCREENS = game_screens(
    KarateFight, play=draw_karate, private=draw_karate_private, result=draw_karate_result, sounds=SOUNDS, moving=glowing
)

"""Karate Fight at the cabinet: its controls (A plays, the slap pad hits, Jan Ken on
A–C) and the story of the fight with its photo finishes."""

from firmware_py.games.karate_fight.controls import KarateControls

CONTROLS = KarateControls

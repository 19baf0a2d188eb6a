"""How strong a computer opponent plays: one ladder shared by every game's bots."""

from __future__ import annotations

from enum import Enum


class Level(Enum):
    """The levels a lone player picks on the join screen, weakest first."""

    EASY = "easy"
    NORMAL = "normal"
    HARD = "hard"
    EXPERT = "expert"

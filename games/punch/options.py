"""The variants a Punch! game is played with, chosen before it starts."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum


class Rules(Enum):
    """How hands are formed: dealt at random (standard) or drafted freely (advanced)."""

    STANDARD = "standard"
    ADVANCED = "advanced"


@dataclass(frozen=True)
class PunchOptions:
    """``no_mercy``: a punch never hits harder than its thrower's stamina.
    ``matches_to_win``: the rulebook says 3; shorter games are for exhibitions and tests."""

    rules: Rules = Rules.STANDARD
    no_mercy: bool = False
    matches_to_win: int = 3

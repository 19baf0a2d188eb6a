"""Tap Race, a game that exists only in the tests: the first to press A three times
wins.  It is a plug-in shaped as every game is: three folders, one per layer —
``games/tap_race/`` (engine), ``display/games/tap_race/`` (screens) and
``firmware_py/games/tap_race/`` (controls) — which :func:`plug_in` lays beside the
shipped games' folders without touching any file of theirs; the one line that offers
it is ``games.registry.add("tap_race")`` (tests/firmware_py/test_third_game.py)."""

from __future__ import annotations

from pathlib import Path

import display.games
import firmware_py.games
import games

HERE = Path(__file__).resolve().parent
FOLDERS = (
    (games, HERE / "games"),
    (display.games, HERE / "display" / "games"),
    (firmware_py.games, HERE / "firmware_py" / "games"),
)
"""Each layer's games package and the folder that holds Tap Race's part of it."""


def plug_in() -> None:
    """Lay the three folders beside the shipped games' (a plug-in installed beside the
    cabinet would be on the package path the same way); idempotent."""
    for package, folder in FOLDERS:
        if str(folder) not in package.__path__:
            package.__path__.append(str(folder))

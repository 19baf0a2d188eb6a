"""Each game's screens, found by the game's name: ``display.games.<name>`` has ``SCREENS``.

The renderer draws play and result screens and the cabinet draws private displays
through this registry, so neither keeps a list of games: the one list is
``games.registry``.  A test may :func:`register` screens for a name of its own.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from PIL import Image

from display.canvas import Canvas
from display.models import AnyPlayScreen, AnyPrivateScreen, AnyResultScreen
from display.text import TextCache
from games import registry as games_registry

PlayDrawer = Callable[[Canvas, TextCache, AnyPlayScreen], None]
"""Draws a game in play onto the main display's canvas."""
PrivateLayout = Callable[[AnyPrivateScreen, tuple[int, int]], Image.Image]
"""Draws one seat's private display as a 1-bit image of the given size."""
ResultDrawer = Callable[[Canvas, TextCache, AnyResultScreen], None]
"""Draws a game's own result screen (a score sheet) from the result and its final play screen."""


@dataclass(frozen=True, kw_only=True)
class GameScreens:
    play: PlayDrawer
    private: PrivateLayout
    result: ResultDrawer | None = None
    """None: the cabinet's common result screen (headline and lines)."""
    moving: Callable[[AnyPlayScreen], bool] | None = None
    """Whether a play screen animates with no end in sight (a glow pulsing until it is
    answered); None: never.  Otherwise its picture is still
    :data:`display.motion.STILL_AFTER_US` after its newest event, and not redrawn."""


class NoScreens(LookupError):
    """A game with no screens; the message says where they belong."""

    def __str__(self) -> str:
        return str(self.args[0])


_planted: dict[str, GameScreens] = {}


def register(game: str, screens: GameScreens) -> None:
    """Screens for a name that has no folder (a test's planted screen)."""
    _planted[game] = screens


def unregister(game: str) -> None:
    _planted.pop(game, None)


def games() -> tuple[str, ...]:
    """Every offered game, in select-screen order."""
    return games_registry.names()


def screens(game: str) -> GameScreens:
    """The screens of ``game``; :class:`NoScreens` says where they belong."""
    if game in _planted:
        return _planted[game]
    try:
        found = getattr(games_registry.game_module("display.games", game), "SCREENS", None)
    except (games_registry.UnknownGame, games_registry.GameFolderMissing):
        found = None
    if not isinstance(found, GameScreens):
        raise NoScreens(
            f"no screens for game {game!r}: display/games/{game}/__init__.py defines SCREENS = GameScreens(...) "
            f"(games with screens: {', '.join(games_registry.names())})"
        )
    return found

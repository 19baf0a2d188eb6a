"""Each game's screens, registered once: its main play screen and its private OLED layout.

A game's screen module registers both, by game name (``register(SPEC.name, play=...,
private=...)``); the renderer draws play screens and the cabinet's private displays are
drawn through this registry, so neither keeps a list of games.  Built-in games' screen
modules are in :data:`BUILTIN` (one line each); a test or a plug-in may :func:`register`
more.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass

from PIL import Image

from display.canvas import Canvas
from display.models import PlayScreen, PrivateScreen, ResultScreen
from display.text import TextCache

BUILTIN = (
    "display.punch_screen",
    "display.karate_screen",
    "display.big_time_boxing_screen",
    "display.punch_cards_screen",
    "display.punch_result",
    "display.karate_result",
)
"""The screen modules of the games that ship; importing one registers its screens."""

PlayDrawer = Callable[[Canvas, TextCache, PlayScreen], None]
"""Draws a game in play onto the main display's canvas."""
PrivateLayout = Callable[[PrivateScreen, tuple[int, int]], Image.Image]
"""Draws one seat's private display as a 1-bit image of the given size."""
ResultDrawer = Callable[[Canvas, TextCache, ResultScreen], None]
"""Draws a game's own result screen (a score sheet) from the result and its final play screen."""


@dataclass(frozen=True)
class GameScreens:
    play: PlayDrawer
    private: PrivateLayout
    result: ResultDrawer | None = None
    """None: the cabinet's common result screen (headline and lines)."""


class NoScreens(LookupError):
    """A game with no screens registered; the message says how to register them."""

    def __str__(self) -> str:
        return str(self.args[0])


_SCREENS: dict[str, GameScreens] = {}


def register(game: str, play: PlayDrawer, private: PrivateLayout, result: ResultDrawer | None = None) -> None:
    """Add a game's screens.  Registering a name twice with other screens is an error."""
    screens = GameScreens(play, private, result)
    known = _SCREENS.get(game)
    if known is not None and known != screens:
        raise ValueError(f"screens for game {game!r} are registered already")
    _SCREENS[game] = screens


def register_result(game: str, result: ResultDrawer) -> None:
    """Give a game whose screens are registered its own result screen (a module of its
    own: the story of the game), in place of the cabinet's common one."""
    known = screens(game)
    if known.result is not None and known.result != result:
        raise ValueError(f"a result screen for game {game!r} is registered already")
    _SCREENS[game] = GameScreens(known.play, known.private, result)


def unregister(game: str) -> None:
    """Remove a game's screens (tests that register a game of their own clean up with this)."""
    _SCREENS.pop(game, None)


def _load_builtin() -> None:
    for module in BUILTIN:
        importlib.import_module(module)


def games() -> tuple[str, ...]:
    """Every game with screens registered, built-ins first."""
    _load_builtin()
    return tuple(_SCREENS)


def screens(game: str) -> GameScreens:
    """The screens of ``game``; :class:`NoScreens` names the games that have some."""
    _load_builtin()
    try:
        return _SCREENS[game]
    except KeyError:
        raise NoScreens(
            f"no screens registered for game {game!r} (its screen module calls display.registry.register; "
            f"registered: {', '.join(sorted(_SCREENS))})"
        ) from None

"""Each game's screens and sounds, found by the game's name: ``display.games.<name>``
declares ``SCREENS`` (its sound design among them).

The renderer draws play and result screens and the cabinet draws private displays
through this registry, so neither keeps a list of games: the one list is
``games.registry``.  A test may :func:`register` screens for a name of its own.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from PIL import Image

from display.audio.cues import SILENT, GameSounds
from display.canvas import Canvas
from display.models import PlayScreen, PrivateScreen, ResultScreen
from display.text import TextCache
from games import registry as games_registry
from games.protocol import Engine

PlayerView = TypeVar("PlayerView")
PublicView = TypeVar("PublicView")
PlayStory = TypeVar("PlayStory")
"""What the game's controls tell its play screen (``GameControls.play_story``)."""
ResultStory = TypeVar("ResultStory")
"""What the game's controls tell its result screen (``GameControls.result_story``)."""

PlayDrawer = Callable[[Canvas, TextCache, PlayScreen[PublicView, PlayStory]], None]
"""Draws a game in play onto the main display's canvas."""
PartDrawer = Callable[[Canvas, TextCache, PlayScreen[PublicView, PlayStory], int], bool]
"""Draws the given part of something drawn a part at a time; False: there is no such part."""
PrivateLayout = Callable[[PrivateScreen[PlayerView], tuple[int, int]], Image.Image]
"""Draws one seat's private display as a 1-bit image of the given size."""
ResultDrawer = Callable[[Canvas, TextCache, ResultScreen[PublicView, ResultStory]], None]
"""Draws a game's own result screen (a score sheet) from the result and its final play screen."""


@dataclass(frozen=True, kw_only=True)
class GameScreens(Generic[PlayerView, PublicView, PlayStory, ResultStory]):
    """A game's screens, generic over the views its engine gives and the stories its
    controls tell: :func:`game_screens` checks them against the engine."""

    play: PlayDrawer[PublicView, PlayStory]
    private: PrivateLayout[PlayerView]
    result: ResultDrawer[PublicView, ResultStory] | None = None
    """None: the cabinet's common result screen (headline and lines)."""
    sounds: GameSounds = SILENT
    """The game's sound design (its ``sounds.py``'s ``SOUNDS``); :data:`SILENT`: it plays
    silently (the cabinet's scenes still sound)."""
    moving: Callable[[PlayScreen[PublicView, PlayStory]], bool] | None = None
    """Whether a play screen animates with no end in sight (a glow pulsing until it is
    answered); None: never.  Otherwise its picture is still
    :data:`display.motion.STILL_AFTER_US` after its newest event, and not redrawn."""
    foreseen: PartDrawer[PublicView, PlayStory] | None = None
    """Draws, over a play screen, the words the screen may show that a demo's first
    states may not (each card a stage may turn over), a part (a planning step's worth) at
    a time: only ever into the attract mode's planning (:mod:`display.ahead`), so a demo
    whose seed shows them fits and renders them in faces opened and warmed ahead; None:
    its demo's first states say enough."""


AnyGameScreens = GameScreens[Any, Any, Any, Any]
"""Some game's screens, as the renderer holds them."""


def game_screens(
    engine: type[Engine[Any, Any, PlayerView, PublicView]],
    *,
    play: PlayDrawer[PublicView, PlayStory],
    private: PrivateLayout[PlayerView],
    result: ResultDrawer[PublicView, ResultStory] | None = None,
    sounds: GameSounds = SILENT,
    moving: Callable[[PlayScreen[PublicView, PlayStory]], bool] | None = None,
    foreseen: PartDrawer[PublicView, PlayStory] | None = None,
) -> GameScreens[PlayerView, PublicView, PlayStory, ResultStory]:
    """The screens of the game whose engine is ``engine``: mypy checks that the play and
    result screens draw that engine's public view and the private layout its seat's view
    (the engine is only read by the type checker)."""
    return GameScreens(play=play, private=private, result=result, sounds=sounds, moving=moving, foreseen=foreseen)


class NoScreens(LookupError):
    """A game with no screens; the message says where they belong."""

    def __str__(self) -> str:
        return str(self.args[0])


_planted: dict[str, AnyGameScreens] = {}


def register(game: str, screens: AnyGameScreens) -> None:
    """Screens for a name that has no folder (a test's planted screen)."""
    _planted[game] = screens


def unregister(game: str) -> None:
    _planted.pop(game, None)


def games() -> tuple[str, ...]:
    """Every offered game, in select-screen order."""
    return games_registry.names()


def screens(game: str) -> AnyGameScreens:
    """The screens of ``game``; :class:`NoScreens` says where they belong."""
    if game in _planted:
        return _planted[game]
    try:
        return games_registry.declared("display.games", game, "SCREENS", GameScreens)
    except (games_registry.UnknownGame, games_registry.GameFolderMissing, TypeError):
        raise NoScreens(
            f"no screens for game {game!r}: display/games/{game}/__init__.py defines SCREENS = GameScreens(...) "
            f"(games with screens: {', '.join(games_registry.names())})"
        ) from None

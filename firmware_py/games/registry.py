"""Each game's controls at the cabinet, found by the game's name:
``firmware_py.games.<name>`` has ``CONTROLS``.

The select and attract screens, service stats, resuming after a power cut, the
exhibition, HIL scenarios and ``ringside run --game`` all read the games in the one
order of ``games.registry`` (the select screen's).
"""

from __future__ import annotations

from firmware_py.runtime.controls import AnyControls, GameControls
from firmware_py.runtime.entrance import PLAIN, GameEntrance
from games import registry as games_registry
from games.registry import UnknownGame
from hal.config import CabinetConfig, TableReader


def controls_type(name: str) -> type[AnyControls]:
    """The controls of game ``name``; :class:`~games.registry.UnknownGame` names the valid ones."""
    found = getattr(games_registry.game_module("firmware_py.games", name), "CONTROLS", None)
    if not (isinstance(found, type) and issubclass(found, GameControls)):
        raise UnknownGame(
            f"game {name!r} has no controls: firmware_py/games/{name}/__init__.py defines CONTROLS (a GameControls)"
        )
    return found


def check_settings(config: CabinetConfig) -> None:
    """Every ``[game.<name>]`` table of ``config`` names a game offered here and passes
    that game's own check; :class:`~hal.config.ConfigError` (one line) otherwise."""
    reader = TableReader(config.source)
    for name, table in config.games.items():
        if name not in games_registry.names():
            raise reader.fail(f"game.{name}", dict(table), f"a table named after a game: {', '.join(names())}")
        controls_type(name).read_settings(table, reader)


def offered() -> tuple[type[AnyControls], ...]:
    """Every game's controls in select-screen order."""
    return tuple(controls_type(n) for n in games_registry.names())


def names() -> tuple[str, ...]:
    return games_registry.names()


def entrance(name: str) -> GameEntrance:
    """Game ``name``'s own way in (its folder's ``ENTRANCE``), or the cabinet's plain one."""
    found = getattr(games_registry.game_module("firmware_py.games", name), "ENTRANCE", PLAIN)
    if not isinstance(found, GameEntrance):
        raise TypeError(f"firmware_py/games/{name}/__init__.py: ENTRANCE must be a GameEntrance")
    return found

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
from hal.config import CabinetConfig, TableReader


class EnginesDisagree(TypeError):
    """A game's controls drive another engine than the one its ``games`` folder declares."""


def controls_type(name: str) -> type[AnyControls]:
    """The controls of game ``name`` (its folder's ``CONTROLS``), checked to drive the
    engine its ``games`` folder declares; :class:`~games.registry.UnknownGame` names the
    valid games."""
    found: type[AnyControls] = games_registry.declared_class("firmware_py.games", name, "CONTROLS", GameControls)
    engine = games_registry.engine_type(name)
    if found.engine_type is not engine:
        raise EnginesDisagree(
            f"game {name!r}: {found.__name__}.engine_type is {found.engine_type.__name__}, but games/{name}/ "
            f"declares ENGINE = {engine.__name__}: the controls drive the game's own engine"
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
    return games_registry.declared("firmware_py.games", name, "ENTRANCE", GameEntrance, PLAIN)

"""The games this house plays, registered once: every list of games reads from here.

A game's package registers its engine class; the cabinet's select screen, the exhibition,
HIL scenarios, the recorder and ``--game`` all ask this registry.  Built-in games are the
packages in :data:`BUILTIN` (one line each); a test or a plug-in may :func:`register` more.
"""

from __future__ import annotations

import importlib
from typing import Any

from games.protocol import Engine, GameSpec

AnyEngine = Engine[Any, Any]

BUILTIN = (
    "games.punch",
    "games.karate_fight",
    "games.big_time_boxing",
    "games.punch_cards",
)
"""The packages of the games that ship; importing one registers its engine."""

_ENGINES: dict[str, type[AnyEngine]] = {}


class UnknownGame(KeyError):
    """A game name nobody registered; the message lists the valid names."""

    def __str__(self) -> str:
        return str(self.args[0])


def register(engine_type: type[AnyEngine]) -> type[AnyEngine]:
    """Add a game (usable as a class decorator).  Registering a name twice with another
    class is an error: two games must never answer to one name."""
    name = engine_type.spec.name
    known = _ENGINES.get(name)
    if known is not None and known is not engine_type:
        raise ValueError(f"game {name!r} is registered already by {known.__qualname__}")
    _ENGINES[name] = engine_type
    return engine_type


def unregister(name: str) -> None:
    """Remove a game (tests that register a game of their own clean up with this)."""
    _ENGINES.pop(name, None)


def _load_builtin() -> None:
    for module in BUILTIN:
        importlib.import_module(module)


def engines() -> tuple[type[AnyEngine], ...]:
    """Every registered engine class, built-ins first, in registration order."""
    _load_builtin()
    return tuple(_ENGINES.values())


def specs() -> tuple[GameSpec, ...]:
    return tuple(e.spec for e in engines())


def engine_type(name: str) -> type[AnyEngine]:
    """The engine class called ``name``; :class:`UnknownGame` names the valid ones."""
    _load_builtin()
    try:
        return _ENGINES[name]
    except KeyError:
        raise UnknownGame(f"unknown game {name!r}: choose one of {', '.join(sorted(_ENGINES))}") from None

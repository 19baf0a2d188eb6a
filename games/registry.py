"""The games this house plays: the one list of game names, and each game's engine by name.

Every layer finds a game by its name: ``games.<name>`` (its engine), ``display.games.<name>``
(its screens) and ``firmware_py.games.<name>`` (its controls at the cabinet), as Klipper
loads ``extras.<name>``.  The games that ship are :data:`BUILTIN`; a plug-in adds a
fourth folder to each layer's ``games`` package and one line, :func:`add`.  The select
screen, the exhibition, HIL scenarios, the recorder and ``--game`` all read this order.
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import Any, TypeVar

from games.protocol import Engine, GameSpec

AnyEngine = Engine[Any, Any, Any, Any]

T = TypeVar("T")

BUILTIN = ("punch", "karate_fight", "big_time_boxing", "punch_cards")
"""The games that ship, in select-screen order."""

_names: list[str] = list(BUILTIN)


class UnknownGame(KeyError):
    """A game name nobody registered; the message lists the valid names."""

    def __str__(self) -> str:
        return str(self.args[0])


class GameFolderMissing(LookupError):
    """A registered name without its folder in one layer; the message says which."""

    def __str__(self) -> str:
        return str(self.args[0])


def add(name: str) -> None:
    """Offer one more game (a plug-in's one line); it comes after the ones before it."""
    if not name.isidentifier():
        raise ValueError(f"a game name is a Python identifier (its folders are named after it), not {name!r}")
    if name not in _names:
        _names.append(name)


def remove(name: str) -> None:
    """Stop offering a game added with :func:`add` (tests clean up with this)."""
    if name in BUILTIN:
        raise ValueError(f"{name!r} ships with the cabinet and cannot be removed")
    if name in _names:
        _names.remove(name)


def names() -> tuple[str, ...]:
    """Every game offered, in select-screen order."""
    return tuple(_names)


def check(name: str) -> str:
    """``name`` if it is offered; :class:`UnknownGame` names the valid ones."""
    if name not in _names:
        raise UnknownGame(f"unknown game {name!r}: choose one of {', '.join(_names)}")
    return name


def game_module(package: str, name: str) -> ModuleType:
    """The part of game ``name`` in the layer whose games live in ``package``
    (``"games"``, ``"display.games"``, ``"firmware_py.games"``)."""
    module = f"{package}.{check(name)}"
    try:
        return importlib.import_module(module)
    except ModuleNotFoundError as e:
        if e.name != module:
            raise
        raise GameFolderMissing(f"game {name!r} has no folder {module.replace('.', '/')}/") from None


_REQUIRED: Any = object()


def _declaration(package: str, name: str, attribute: str, default: object) -> object:
    found = getattr(game_module(package, name), attribute, default)
    if found is _REQUIRED:
        raise GameFolderMissing(f"game {name!r}: {_init(package, name)} defines {attribute}")
    return found


def _init(package: str, name: str) -> str:
    return f"{package.replace('.', '/')}/{name}/__init__.py"


def declared(package: str, name: str, attribute: str, kind: type[T], default: T = _REQUIRED) -> T:
    """The one declaration of game ``name`` in a layer: ``<package>.<name>``'s
    ``attribute`` (``SCREENS``, ``ENTRANCE``), an instance of ``kind``.  Every layer
    finds its part of a game this one way (:func:`declared_class` for a class); a
    missing or mistyped declaration is one line saying which file defines what.
    ``default`` stands in for a declaration a game may omit."""
    found = _declaration(package, name, attribute, default)
    if not isinstance(found, kind):
        raise TypeError(f"{_init(package, name)}: {attribute} must be a {kind.__name__}, not {found!r}")
    return found


def declared_class(package: str, name: str, attribute: str, base: type) -> type:
    """Like :func:`declared`, for a declaration that is a class (``ENGINE``, ``CONTROLS``)."""
    found = _declaration(package, name, attribute, _REQUIRED)
    if not (isinstance(found, type) and issubclass(found, base)):
        raise TypeError(f"{_init(package, name)}: {attribute} must be a subclass of {base.__name__}, not {found!r}")
    return found


def engine_type(name: str) -> type[AnyEngine]:
    """The engine class of game ``name`` (its package's ``ENGINE``)."""
    engine: type[AnyEngine] = declared_class("games", name, "ENGINE", Engine)
    return engine


def engines() -> tuple[type[AnyEngine], ...]:
    """Every offered game's engine class, in select-screen order."""
    return tuple(engine_type(n) for n in _names)


def specs() -> tuple[GameSpec, ...]:
    return tuple(e.spec for e in engines())

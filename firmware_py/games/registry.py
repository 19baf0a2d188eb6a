"""The games this cabinet offers, registered once: each game's controls.

The select and attract screens, service stats, resuming after a power cut, the
exhibition, HIL scenarios and ``ringside run --game`` all read this list, in this order
(the select screen's).  Built-in games' controls modules are in :data:`BUILTIN` (one
line each, in select-screen order); a test or a plug-in may :func:`register` more,
which come after them.
"""

from __future__ import annotations

import importlib
from itertools import count

from firmware_py.controls import GameControls
from games.registry import UnknownGame

BUILTIN = (
    "firmware_py.controls_punch",
    "firmware_py.controls_karate",
    "firmware_py.controls_big_time_boxing",
    "firmware_py.controls_punch_cards",
)
"""The controls modules of the games that ship; importing one registers its controls."""

_CONTROLS: dict[str, tuple[int, type[GameControls]]] = {}
_ORDER = count()


def register(controls_type: type[GameControls]) -> type[GameControls]:
    """Add a game's controls, under its engine spec's name.  Registering a name twice
    with another class is an error: two games must never answer to one name."""
    name = controls_type.spec.name
    known = _CONTROLS.get(name)
    if known is not None and known[1] is not controls_type:
        raise ValueError(f"game {name!r} has controls registered already: {known[1].__qualname__}")
    if known is None:
        _CONTROLS[name] = (next(_ORDER), controls_type)
    return controls_type


def unregister(name: str) -> None:
    """Remove a game (tests that register a game of their own clean up with this)."""
    _CONTROLS.pop(name, None)


def _load_builtin() -> None:
    for module in BUILTIN:
        importlib.import_module(module)


def _rank(entry: tuple[int, type[GameControls]]) -> tuple[int, int]:
    seq, controls_type = entry
    module = controls_type.__module__
    return (BUILTIN.index(module) if module in BUILTIN else len(BUILTIN), seq)


def offered() -> tuple[type[GameControls], ...]:
    """Every game's controls in select-screen order: the built-ins as :data:`BUILTIN`
    lists them (whichever was imported first), then the rest as they were registered."""
    _load_builtin()
    return tuple(c for _seq, c in sorted(_CONTROLS.values(), key=_rank))


def names() -> tuple[str, ...]:
    return tuple(c.spec.name for c in offered())


def controls_type(name: str) -> type[GameControls]:
    """The controls of game ``name``; :class:`~games.registry.UnknownGame` names the valid ones."""
    _load_builtin()
    entry = _CONTROLS.get(name)
    if entry is None:
        raise UnknownGame(f"unknown game {name!r}: choose one of {', '.join(names())}")
    return entry[1]

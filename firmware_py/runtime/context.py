"""What every scene of the cabinet shares: its config, store, stations' looks, the games
it offers, its seeds and log, the sound and the hardware.  A module of its own so that
scenes, a game's controls and its own scenes are typed over it without importing one
another."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from display.models import StationLook
from firmware_py.runtime.controls import AnyControls
from firmware_py.runtime.store import Store
from games.levels import Level
from games.registry import UnknownGame
from hal.cabinet_io import CabinetIO
from hal.config import CabinetConfig

if TYPE_CHECKING:
    from firmware_py.runtime.cabinet_sound import CabinetSound


@dataclass(kw_only=True)
class CabinetContext:
    config: CabinetConfig
    store: Store
    looks: tuple[StationLook, ...]
    games: tuple[type[AnyControls], ...]
    """The games offered, in select-screen order (the registry's, at start-up)."""
    seeds: random.Random
    log: Callable[[str], None]
    settle_us: int
    sound: CabinetSound | None = None
    """The speaker and what plays when (None: ``[sound] enabled = false``, or a quiet demo)."""
    hardware: CabinetIO | None = None
    """The cabinet's hardware, for scenes that talk to a device directly (calibration
    records through the open padboard link)."""
    shutdown: Callable[[], str] | None = None
    """Powers the cabinet off (the service menu's Shut down, after a confirmation);
    returns the line to show.  None where there is nothing to power off (simulation)."""
    version: str = ""
    """``ringside 0.1.0 (commit …)``: shown on the service menu's Cabinet page."""
    computer_level: Level = Level.NORMAL
    """The level the join screen first offers for computer players (``ringside run --level``)."""
    game_state: dict[str, object] = field(default_factory=dict)
    """What a game keeps while the cabinet runs, by game name (Punch Cards' ledger
    connection), so its scenes and the attract screen share it: each game keeps a typed
    record of its own here and checks its type where it reads it."""

    def game_named(self, name: str) -> type[AnyControls]:
        """The controls of a game this cabinet offers; :class:`UnknownGame` names the offered ones."""
        for controls in self.games:
            if controls.spec.name == name:
                return controls
        raise UnknownGame(f"unknown game {name!r}: choose one of {', '.join(g.spec.name for g in self.games)}")

"""A game's own way in at the cabinet, for a game that needs more than join → options →
play: its lobby (Punch Cards: sign in with a name and a PIN), a live table for the
attract screen (its leaderboard) and its pages in the operator menu.  A game's folder
offers one as ``ENTRANCE``; a game without one uses :data:`PLAIN`."""

from __future__ import annotations

from typing import ClassVar

from display.models import AttractBoard
from firmware_py.runtime.context import CabinetContext
from firmware_py.runtime.scene import Scene, ServicePage


class GameEntrance:
    """The cabinet's own join → options → play, no attract table, no operator pages."""

    has_lobby: ClassVar[bool] = False
    """Whether :meth:`lobby` opens a scene of the game's own (the exhibition plays it so)."""

    def lobby(self, ctx: CabinetContext, now_us: int, host: int) -> Scene | None:
        """The scene the select screen opens for this game; None: the cabinet's join."""
        return None

    def attract_board(self, ctx: CabinetContext, now_us: int) -> AttractBoard | None:
        """A live table of this game for the attract screen."""
        return None

    def service_pages(self, ctx: CabinetContext) -> tuple[ServicePage, ...]:
        """Operator-menu items this game adds."""
        return ()


PLAIN = GameEntrance()

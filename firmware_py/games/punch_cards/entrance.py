"""Punch Cards' own way in at the cabinet: its lobby (a desk per station where players
sign in with a name and a PIN), the ledger's leaders on the attract screen and its pages
in the operator menu."""

from __future__ import annotations

from display.models import AttractBoard
from firmware_py.games.punch_cards.ledger_link import headline, link_for
from firmware_py.games.punch_cards.lobby import Lobby
from firmware_py.games.punch_cards.service_pages import service_pages
from firmware_py.runtime.context import CabinetContext
from firmware_py.runtime.entrance import GameEntrance
from firmware_py.runtime.scene import Scene, ServicePage

BOARD_ROWS = 5
"""Leaders shown on the attract screen."""


class PunchCardsEntrance(GameEntrance):
    has_lobby = True

    def lobby(self, ctx: CabinetContext, now_us: int, host: int) -> Scene | None:
        return Lobby(ctx, now_us, host)

    def attract_board(self, ctx: CabinetContext, now_us: int) -> AttractBoard | None:
        link = link_for(ctx)
        if not link.exists():
            return None
        table = link.board(now_us)  # as last read, in the background: never waits
        if table is None:
            return None
        if isinstance(table, str):  # why, with a server's address, is the log's and the lobby's
            return AttractBoard(title="Punch Cards", header=(), rows=(), note=headline(table))
        if not table:
            return None
        rows = tuple((f"{s.rank}.", s.name, str(s.points), str(s.cards)) for s in table[:BOARD_ROWS])
        return AttractBoard(
            title="Punch Cards leaders",
            header=("#", "name", "points", "cards"),
            rows=rows,
            note=f"{len(table)} players: duel at START",
        )

    def service_pages(self, ctx: CabinetContext) -> tuple[ServicePage, ...]:
        return service_pages()

"""The cabinet's way to the Punch Cards ledger: opened on first use (a PostgreSQL server
that cannot be reached yet is tried again later, the cabinet runs on), kept in the
cabinet context so the lobby, the duel, the attract screen's leaderboard and the
operator's menu share one connection.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable
from pathlib import Path

from firmware_py.games.punch_cards.ledger import Ledger, LedgerError
from firmware_py.games.punch_cards.settings import settings_of
from firmware_py.runtime.context import CabinetContext
from games.punch_cards import SPEC, Standing
from hal.config import CabinetConfig

LEDGER_FILE = "punch_cards.sqlite3"
"""The ledger's file in the data folder when the config names no ledger."""
RETRY_US = 2_000_000
"""How often a ledger write that could not reach the ledger is tried again."""
BOARD_REFRESH_US = 5_000_000
"""The attract screen's leaderboard is read again this often (5,000 players: ~0.1 s)."""


def ledger_url(config: CabinetConfig) -> str:
    return settings_of(config).ledger or f"sqlite://{Path(config.data_dir) / LEDGER_FILE}"


class LedgerLink:
    """One ledger for the cabinet; ``opener`` makes it (tests give ledgers of their own)."""

    def __init__(self, url: str, opener: Callable[[], Ledger]) -> None:
        self.url = url
        self._opener = opener
        self._ledger: Ledger | None = None
        self._board: tuple[int, tuple[Standing, ...] | str] | None = None
        self._closing: tuple[int, int | str | None] | None = None

    @classmethod
    def for_config(cls, config: CabinetConfig) -> LedgerLink:
        url = ledger_url(config)
        seed = settings_of(config).event_seed
        return cls(url, lambda: Ledger(url, event_seed=seed, cabinet=config.name))

    @property
    def ledger(self) -> Ledger:
        """The open ledger; :class:`~firmware_py.games.punch_cards.ledger.LedgerUnreachable` (or another
        :class:`LedgerError`) when it cannot be opened now."""
        if self._ledger is None:
            self._ledger = self._opener()
        return self._ledger

    def exists(self) -> bool:
        """Whether there may be players to show: a SQLite ledger not yet created has none
        (the attract screen must not create files)."""
        if self._ledger is not None or not self.url.startswith("sqlite://"):
            return True
        return Path(self.url[len("sqlite://") :]).exists()

    def board(self, now_us: int) -> tuple[Standing, ...] | str:
        """The standings (best first), read at most every :data:`BOARD_REFRESH_US`, or
        why they cannot be read."""
        if self._board is None or now_us - self._board[0] >= BOARD_REFRESH_US or now_us < self._board[0]:
            try:
                table: tuple[Standing, ...] | str = self.ledger.standings()
            except LedgerError as e:
                table = str(e)
            self._board = (now_us, table)
        return self._board[1]

    def closing(self, now_us: int) -> int | str | None:
        """The closing time (Unix µs, None: not set), read at most every
        :data:`BOARD_REFRESH_US`, or why it cannot be read."""
        if self._closing is None or now_us - self._closing[0] >= BOARD_REFRESH_US or now_us < self._closing[0]:
            try:
                value: int | str | None = self.ledger.closing_time()
            except LedgerError as e:
                value = str(e)
            self._closing = (now_us, value)
        return self._closing[1]

    def wall_us(self) -> int:
        """The ledger's clock (Unix µs): closing times and lockouts are in its time."""
        return self._ledger.now_us() if self._ledger is not None else time.time_ns() // 1000

    def changed(self) -> None:
        """Something was recorded: the next leaderboard and closing time are read afresh."""
        self._board = self._closing = None

    def close(self) -> None:
        if self._ledger is not None:
            self._ledger.close()
            self._ledger = None


def link_for(ctx: CabinetContext) -> LedgerLink:
    """The cabinet's ledger link, made on first use from the cabinet config."""
    link: LedgerLink | None = ctx.game_state.get(SPEC.name)
    if link is None:
        link = ctx.game_state[SPEC.name] = LedgerLink.for_config(ctx.config)
    return link


def new_key(what: str) -> str:
    """An idempotency key for one ledger write (kept while it is retried)."""
    return f"{what}-{uuid.uuid4().hex}"

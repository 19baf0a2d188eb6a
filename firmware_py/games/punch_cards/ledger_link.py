"""The cabinet's way to the Punch Cards ledger: opened on first use (a PostgreSQL server
that cannot be reached yet is tried again later, the cabinet runs on), kept in the
cabinet context so the lobby, the duel, the attract screen's leaderboard and the
operator's menu share one connection.

Every ledger call waits on a server or a disk, and sign-in and registration hash a PIN
(about 200 ms on a Pi): none runs on the main loop.  :meth:`LedgerLink.call` gives the
call to the link's :class:`~firmware_py.runtime.background.Worker` (opening the ledger
there first if needed) and hands back a job the scene reads on a later frame, saying
meanwhile that it waits.  A call that has not answered within :data:`ANSWER_S` is told
to the player as :data:`NOT_ANSWERING`; writes carry an idempotency key, so sending one
again after a late answer records it once.  The leaderboard and the closing time are
read in the background too and shown as last read.
"""

from __future__ import annotations

import logging
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Generic, TypeVar

from firmware_py.games.punch_cards.ledger import (
    Ledger,
    LedgerBusy,
    LedgerCorrupt,
    LedgerDamaged,
    LedgerError,
    LedgerUnreachable,
    LedgerUnusable,
)
from firmware_py.games.punch_cards.settings import settings_of
from firmware_py.runtime.background import Job, NoAnswer, Worker
from firmware_py.runtime.context import CabinetContext
from games.punch_cards import SPEC, Standing
from hal.config import CabinetConfig

T = TypeVar("T")
log = logging.getLogger("ringside.ledger")

LEDGER_FILE = "punch_cards.sqlite3"
"""The ledger's file in the data folder when the config names no ledger."""
RETRY_US = 2_000_000
"""How often a ledger write that could not reach the ledger is tried again."""
WAIT_SHOWN_US = 300_000
"""A wait on the ledger is put on screen only once it has lasted this long: a local ledger
answers within a frame or two, and a "Saving…" shown for one frame is a flash, not news."""
BOARD_REFRESH_US = 5_000_000
"""The attract screen's leaderboard is read again this often: the newest entry's number,
and the standings only when it has changed (5,000 players: ~0.2 s of a Pi's CPU)."""
ANSWER_S = 6.0
"""How long a scene waits for the ledger before saying it is not answering (below the
backend's own socket deadline, so the player hears first; far below systemd's watchdog,
which the loop keeps fed meanwhile anyway)."""
NOT_ANSWERING = "The ledger is not answering - try again"
BUSY = "The ledger is busy - try again"
CANNOT_READ = "The ledger cannot be read - tell the operator"
"""A ledger holding what it never writes (the detail, with table, column and row, is in
the log): the same call will fail again until the operator mends or restores it."""


def ledger_url(config: CabinetConfig) -> str:
    return settings_of(config).ledger or f"sqlite://{Path(config.data_dir) / LEDGER_FILE}"


def words(e: BaseException, retrying: bool = False) -> str:
    """What a player is told of a failed ledger call: a refusal's own sentence; for a
    ledger that cannot be reached or did not answer, a plain sentence (no host, port or
    driver error on the main screen: those go to the log).  ``retrying``: the cabinet
    sends it again by itself, so the player is not asked to."""
    if isinstance(e, (NoAnswer, LedgerUnreachable)):
        return NOT_ANSWERING.split(" - ")[0] if retrying else NOT_ANSWERING
    if isinstance(e, LedgerBusy):
        return BUSY.split(" - ")[0] if retrying else BUSY
    if isinstance(e, (LedgerDamaged, LedgerCorrupt, LedgerUnusable)):
        return CANNOT_READ
    return str(e)


def headline(reason: str) -> str:
    """The line over a Punch Cards screen (the lobby's title bar, the attract screen's
    leaderboard) while the ledger fails for ``reason`` (what :func:`words` said)."""
    if reason == CANNOT_READ:
        return "The ledger cannot be read: tell the operator"
    return "The ledger is not answering: duels are not recorded"


def shown_wait(waiting: str, since_us: int, now_us: int) -> str:
    """``waiting`` (what a scene waits on the ledger for) if it has waited long enough to
    say so (:data:`WAIT_SHOWN_US`), else nothing."""
    return waiting if waiting and now_us - since_us >= WAIT_SHOWN_US else ""


def passing(e: BaseException) -> bool:
    """Whether the same call may succeed if sent again (not a refusal)."""
    return isinstance(e, (NoAnswer, LedgerUnreachable, LedgerBusy))


def standings_since(ledger: Ledger, known: int | None) -> tuple[int, tuple[Standing, ...] | None]:
    """The newest entry's number and the standings, or None for them when that number is
    still ``known`` (nothing was recorded since they were worked out)."""
    mark = ledger.last_entry()
    return mark, None if mark == known else ledger.standings()


class LedgerLink:
    """One ledger for the cabinet; ``opener`` makes it (tests give ledgers of their own),
    on the link's worker thread; ``answer_s``: :data:`ANSWER_S`."""

    def __init__(
        self, url: str, opener: Callable[[], Ledger], worker: Worker | None = None, answer_s: float = ANSWER_S
    ) -> None:
        self.url = url
        self._opener = opener
        self._ledger: Ledger | None = None
        self.worker = worker if worker is not None else Worker(f"{SPEC.name} ledger")
        self.answer_s = answer_s
        self._board: tuple[int, tuple[Standing, ...] | str] | None = None
        self._board_job: Job[tuple[int, tuple[Standing, ...] | None]] | None = None
        self._board_mark: int | None = None
        """The newest entry when the standings shown were worked out."""
        self._closing: tuple[int, int | str | None] | None = None
        self._closing_job: Job[tuple[int | None, int]] | None = None
        self._clock_offset_us = 0
        """The ledger's clock minus this machine's, as last read with the closing time."""
        self._board_stale = self._closing_stale = False
        self._told = ""
        """The last failure of a background read told in the log (each new one once)."""

    @classmethod
    def for_config(cls, config: CabinetConfig) -> LedgerLink:
        url = ledger_url(config)
        seed = settings_of(config).event_seed
        return cls(url, lambda: Ledger(url, event_seed=seed, cabinet=config.name))

    def _open(self) -> Ledger:
        """The open ledger (on the worker thread only): :class:`LedgerUnreachable` (or
        another :class:`LedgerError`) when it cannot be opened now."""
        if self._ledger is None:
            self._ledger = self._opener()
        return self._ledger

    def call(self, what: str, work: Callable[[Ledger], T], timeout_s: float | None = None) -> Job[T]:
        """Run ``work(ledger)`` off the main loop; the job is read on a later frame."""
        return self.worker.submit(what, lambda: work(self._open()), self.answer_s if timeout_s is None else timeout_s)

    def exists(self) -> bool:
        """Whether there may be players to show: a SQLite ledger not yet created has none
        (the attract screen must not create files)."""
        if self._ledger is not None or not self.url.startswith("sqlite://"):
            return True
        return Path(self.url[len("sqlite://") :]).exists()

    @staticmethod
    def _due(read: tuple[int, object] | None, stale: bool, now_us: int) -> bool:
        return read is None or stale or now_us - read[0] >= BOARD_REFRESH_US or now_us < read[0]

    def board(self, now_us: int) -> tuple[Standing, ...] | str | None:
        """The standings (best first) as last read, or why they could not be read; None
        before the first answer.  Read again in the background at most every
        :data:`BOARD_REFRESH_US` (and after :meth:`changed`); never waits."""
        job = self._board_job
        if job is not None and job.ready():
            self._board_job = None
            table: tuple[Standing, ...] | str
            try:
                mark, fresh = job.result()
                table = fresh if fresh is not None else self._board[1] if self._board is not None else ()
                self._board_mark = mark if isinstance(table, tuple) else None
            except (LedgerError, NoAnswer) as e:
                table, self._board_mark = words(e), None
                self._tell(e)
            self._board = (now_us, table)
        elif job is None and self._due(self._board, self._board_stale, now_us):
            known = self._board_mark
            self._board_job = self.call("standings", lambda ledger: standings_since(ledger, known))
            self._board_stale = False
        return None if self._board is None else self._board[1]

    def closing(self, now_us: int) -> int | str | None:
        """The closing time (Unix µs, None: not set) as last read, or why it could not be
        read (None too before the first answer); read in the background like
        :meth:`board`."""
        job = self._closing_job
        if job is not None and job.ready():
            self._closing_job = None
            try:
                at, ledger_now = job.result()
                value: int | str | None = at
                self._clock_offset_us = ledger_now - time.time_ns() // 1000
            except (LedgerError, NoAnswer) as e:
                value = words(e)
                self._tell(e)
            self._closing = (now_us, value)
        elif job is None and self._due(self._closing, self._closing_stale, now_us):
            self._closing_job = self.call("closing time", lambda ledger: (ledger.closing_time(), ledger.now_us()))
            self._closing_stale = False
        return None if self._closing is None else self._closing[1]

    def _tell(self, e: BaseException) -> None:
        """Why a background read failed, in the log once (the screens say it plainly; a
        damaged value the ledger has told already)."""
        if not isinstance(e, LedgerDamaged) and str(e) != self._told:
            self._told = str(e)
            log.warning("Punch Cards ledger: %s", e)

    def closed_now(self) -> bool:
        """Whether the closing time, as last read, has passed (the ledger itself refuses
        a late write in any case)."""
        at = self._closing[1] if self._closing is not None else None
        return isinstance(at, int) and at <= self.wall_us()

    def wall_us(self) -> int:
        """The ledger's clock (Unix µs) as last read, moved on by this machine's: closing
        times and lockouts are in its time.  Never waits."""
        return time.time_ns() // 1000 + self._clock_offset_us

    def changed(self) -> None:
        """Something was recorded: the leaderboard and closing time are read afresh (the
        last ones stay on screen until then)."""
        self._board_stale = self._closing_stale = True

    def close(self) -> None:
        """Close the ledger (on the worker, after what it is doing)."""
        ledger, self._ledger = self._ledger, None
        if ledger is not None:
            self.worker.submit("close", ledger.close, self.answer_s)
        self.worker.close()


@dataclass(frozen=True)
class CabinetState:
    """What Punch Cards keeps while the cabinet runs (in ``ctx.game_state`` under its
    name), so its scenes and the attract screen share it."""

    link: LedgerLink
    closing_heard: bool | None = None
    """Whether the lobby last saw the event closed (None: no lobby has looked yet)."""


def state_of(ctx: CabinetContext) -> CabinetState:
    """Punch Cards' state in this cabinet, made on first use from the cabinet config."""
    held = ctx.game_state.get(SPEC.name)
    if held is None:
        state = CabinetState(LedgerLink.for_config(ctx.config))
        ctx.game_state[SPEC.name] = state
        return state
    if not isinstance(held, CabinetState):
        raise TypeError(f"ctx.game_state[{SPEC.name!r}] holds a {type(held).__name__}, not Punch Cards' CabinetState")
    return held


def link_for(ctx: CabinetContext) -> LedgerLink:
    """The cabinet's ledger link, made on first use from the cabinet config."""
    return state_of(ctx).link


def new_key(what: str) -> str:
    """An idempotency key for one ledger write (kept while it is retried)."""
    return f"{what}-{uuid.uuid4().hex}"


@dataclass(frozen=True)
class Saved(Generic[T]):
    """The ledger recorded the write; ``answer``: what it gave back."""

    answer: T


@dataclass(frozen=True)
class Retrying:
    """The ledger could not be reached or did not answer: the write goes again after
    :data:`RETRY_US` (``first``: this is the first such failure of the write)."""

    error: LedgerError | NoAnswer
    first: bool


@dataclass(frozen=True)
class Refused:
    """The ledger refused the write: it is not sent again."""

    error: LedgerError | NoAnswer


class LedgerWrite(Generic[T]):
    """One write to the ledger, sent off the main loop and sent again (the caller keeps
    its idempotency key, so a late answer counts once) until the ledger records or refuses
    it: a duel's result and a trade are saved this one way.  ``saying``: what the screen
    says while it waits (shown once :data:`WAIT_SHOWN_US` has passed); ``until``: what a
    retry adds after the reason (": the result shows once it has recorded the duel")."""

    def __init__(self, link: LedgerLink, what: str, saying: str, until: str) -> None:
        self.link = link
        self.what = what
        self.saying = saying
        self.until = until
        self.waiting = ""
        """Why the screen waits (empty: it does not)."""
        self.waiting_since_us = 0
        self.retry_us = 0
        """When a write that could not reach the ledger goes again (0: it has not failed)."""
        self.job: Job[T] | None = None

    def due(self, now_us: int) -> bool:
        """Whether :meth:`step` has something to do now: an answer to read, or a send."""
        return self.job is not None or now_us >= self.retry_us

    def shown(self, now_us: int) -> str:
        """What the screen says of the wait at ``now_us`` (see :func:`shown_wait`)."""
        return shown_wait(self.waiting, self.waiting_since_us, now_us)

    def step(self, now_us: int, work: Callable[[Ledger], T]) -> Saved[T] | Retrying | Refused | None:
        """Send ``work`` to the link's worker, or read its answer: None while there is
        none yet (or the write was just sent)."""
        job = self.job
        if job is None:
            if not self.waiting:
                self.waiting_since_us = now_us
            self.job = self.link.call(self.what, work)
            self.waiting = self.waiting or self.saying
            return None
        if not job.ready():
            return None
        self.job = None
        try:
            answer = job.result()
        except (LedgerError, NoAnswer) as e:
            if passing(e):
                first = not self.retry_us
                self.waiting = f"{words(e, retrying=True)}: {self.until}"
                self.retry_us = now_us + RETRY_US
                return Retrying(e, first)
            self.waiting = ""
            return Refused(e)
        self.waiting = ""
        self.link.changed()
        return Saved(answer)

"""The last good snapshot of the ledger, kept fresh for every open page.

One task reads the ledger (its blocking calls on a worker thread, one at a time, so a
slow ledger slows only this task, never a page): on SQLite it asks for the newest entry
every :data:`POLL_S`; on PostgreSQL it waits on the cabinets' NOTIFY of each new entry
(LISTEN, psycopg's async connection) and checks every :data:`HEARTBEAT_S` that the
server still answers.  A new entry means a new snapshot; a ledger that cannot be read
leaves the last good snapshot in place and the status says so ("ledger not answering").
Pages wait on :meth:`Feed.wait` and are woken together when anything changes.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from typing import Any

from firmware_py.games.punch_cards.ledger import Ledger
from firmware_py.games.punch_cards.ledger.backends import ENTRY_CHANNEL
from firmware_py.games.punch_cards.web.pages import Liveness, Status
from firmware_py.games.punch_cards.web.snapshot import Snapshot, read_snapshot

log = logging.getLogger("ringside.web")

POLL_S = 0.5
"""How often a SQLite ledger's newest entry is asked for (one indexed query)."""
HEARTBEAT_S = 5.0
"""How often a PostgreSQL ledger is asked whether it still answers (NOTIFY brings the changes)."""
SETTLE_S = 0.1
"""After a NOTIFY, further ones this soon are read together (four cabinets at once)."""


class Feed:
    """``open_ledger`` opens a read-only :class:`Ledger` (called again after a failure)."""

    def __init__(self, open_ledger: Callable[[], Ledger], listen_url: str | None = None) -> None:
        self.open_ledger = open_ledger
        self.listen_url = listen_url
        """A PostgreSQL URL to LISTEN on; None: poll (SQLite)."""
        self.ledger: Ledger | None = None
        self.snapshot: Snapshot | None = None
        self.liveness = Liveness.STALE
        self.checked_us: int | None = None
        self.version = 0
        """Counts changes of what a page shows (snapshot or status)."""
        self._changed = asyncio.Event()
        self._poke = asyncio.Event()
        self._failure: str | None = None
        self.closing = False
        """The server is stopping: every live stream ends (a phone reconnects by itself)."""

    def close(self) -> None:
        self.closing = True
        self._publish()

    @property
    def status(self) -> Status:
        return Status(self.liveness, self.checked_us, None if self.snapshot is None else self.snapshot.closing_us)

    async def wait(self, version: int, timeout: float) -> bool:
        """Until the feed moves past ``version`` (True) or ``timeout`` passes (False)."""
        if self.version != version:
            return True
        changed = self._changed
        try:
            await asyncio.wait_for(changed.wait(), timeout)
        except TimeoutError:
            return False
        return True

    def _publish(self) -> None:
        self.version += 1
        changed, self._changed = self._changed, asyncio.Event()
        changed.set()

    # -- reading the ledger (on a worker thread) ---------------------------------------
    def _check(self, known: int | None) -> tuple[int, Snapshot | None, int]:
        """(newest entry, a new snapshot if it moved on, the ledger's time)."""
        if self.ledger is None:
            self.ledger = self.open_ledger()
        entry = self.ledger.last_entry()
        if entry != known:
            snap = read_snapshot(self.ledger)
            return snap.entry, snap, snap.read_at_us
        return entry, None, self.ledger.now_us()

    def _drop_ledger(self) -> None:
        if self.ledger is not None:
            with contextlib.suppress(Exception):
                self.ledger.close()
            self.ledger = None

    async def refresh(self) -> None:
        """Read the ledger once; publish what changed."""
        known = None if self.snapshot is None else self.snapshot.entry
        try:
            _entry, snap, now_us = await asyncio.to_thread(self._check, known)
        except Exception as e:  # whatever the ledger did, the phones keep the last snapshot
            await asyncio.to_thread(self._drop_ledger)
            reason = str(e) or type(e).__name__
            if reason != self._failure:
                log.warning("web: cannot read the ledger (%s); serving the standings as of %s", reason, self.checked_us)
                self._failure = reason
            if self.liveness is not Liveness.STALE:
                self.liveness = Liveness.STALE
                self._publish()
            return
        if self._failure is not None:
            log.info("web: the ledger answers again")
            self._failure = None
        minute_before = None if self.checked_us is None else self.checked_us // 60_000_000
        self.checked_us = now_us
        if snap is not None:
            self.snapshot = snap
        if snap is not None or self.liveness is not Liveness.LIVE or now_us // 60_000_000 != minute_before:
            self.liveness = Liveness.LIVE
            self._publish()

    # -- what makes it read ----------------------------------------------------------------
    async def run(self) -> None:
        """Read at start, then on every change signal or tick, until cancelled."""
        listener = asyncio.create_task(self._listen()) if self.listen_url else None
        interval = HEARTBEAT_S if self.listen_url else POLL_S
        try:
            while True:
                await self.refresh()
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._poke.wait(), interval)
                if self._poke.is_set():
                    await asyncio.sleep(SETTLE_S)
                    self._poke.clear()
        finally:
            if listener is not None:
                listener.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await listener
            await asyncio.to_thread(self._drop_ledger)

    async def _listen(self) -> None:
        """LISTEN for new entries; a lost connection is opened again (meanwhile the
        heartbeat still reads, so a change is late by at most :data:`HEARTBEAT_S`)."""
        import psycopg

        assert self.listen_url is not None
        while True:
            try:
                conn: Any = await psycopg.AsyncConnection.connect(self.listen_url, autocommit=True, connect_timeout=3)
                async with conn:
                    await conn.execute(f"LISTEN {ENTRY_CHANNEL}")
                    self._poke.set()  # anything missed while not listening
                    async for _ in conn.notifies():
                        self._poke.set()
            except psycopg.Error as e:
                log.debug("web: LISTEN connection lost (%s); again in %g s", e, HEARTBEAT_S)
            await asyncio.sleep(HEARTBEAT_S)

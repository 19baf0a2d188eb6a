"""Where the ledger lives: a SQLite file on the cabinet, or one PostgreSQL server for an
event with several cabinets.  Both run the same SQL (written with ``?`` placeholders) in
the same transactions; a backend only says how to begin one, how to retry it, and what
its errors mean.

- SQLite: WAL, ``synchronous=FULL`` (a commit survives a power cut), foreign keys on;
  every write transaction is ``BEGIN IMMEDIATE``, so writers queue for the lock and each
  sees everything committed before it.  A file that is not SQLite, is damaged, or holds
  another application's tables is refused (:class:`LedgerUnusable`), never written to; a
  sound file on a disk that refuses writes (full) is unreachable, and said to be so.
- PostgreSQL (psycopg 3): every write transaction is SERIALIZABLE and is run again from
  the start when the server reports a serialization failure or deadlock; a lost connection
  is reopened and the transaction run again (every write carries an idempotency key, so a
  commit whose answer was lost is found, not repeated).  A server that cannot be reached
  raises :class:`LedgerUnreachable`.

  No call waits on the server for ever: connecting gives up after
  :data:`CONNECT_TIMEOUT_S`; the server cancels a statement after
  :data:`STATEMENT_TIMEOUT_MS` and drops a session left idle inside a transaction; TCP
  keepalives and ``tcp_user_timeout`` find a host that has gone away; and a call that has
  had no answer after :data:`CALL_TIMEOUT_S` (a server that accepts and never answers:
  a stopped VM, a SIGSTOP, which the kernel's keepalive answers still cover) has its
  socket shut from a timer, so the wait ends with :class:`LedgerUnreachable` ("not
  answering"); the connection is then opened afresh on the next call.  A write cut so
  may have committed: it is sent again with the same idempotency key, never twice.
"""

from __future__ import annotations

import contextlib
import os
import random
import socket
import sqlite3
import threading
import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TypeVar
from urllib.parse import urlsplit

from firmware_py.games.punch_cards.ledger.errors import (
    LedgerBusy,
    LedgerCorrupt,
    LedgerUnreachable,
    LedgerUnusable,
)
from firmware_py.games.punch_cards.ledger.schema import postgres_statements, sqlite_statements

T = TypeVar("T")
Params = Sequence[Any]

RETRIES = 12
"""Serialization failures a PostgreSQL write is retried through before :class:`LedgerBusy`."""
RECONNECTS = 2
"""Times a lost PostgreSQL connection is reopened within one call."""
BUSY_TIMEOUT_MS = 10_000
"""How long a SQLite writer waits for another writer's lock."""
CONNECT_TIMEOUT_S = 3
STATEMENT_TIMEOUT_MS = 5_000
"""The server cancels one statement after this long (a lock held elsewhere, a slow plan)."""
IDLE_IN_TRANSACTION_MS = 15_000
"""The server ends a session that left a transaction open this long (a cabinet gone)."""
CALL_TIMEOUT_S = 8.0
"""A whole ledger call (one transaction, its retries included) without an answer for
this long is cut: more than the statement timeout, so a live server answers first."""
KEEPALIVE_IDLE_S, KEEPALIVE_INTERVAL_S, KEEPALIVE_COUNT = 5, 2, 3
"""TCP keepalive probes: a peer whose host has gone is found dead after about 5 + 3 × 2 s."""
TCP_USER_TIMEOUT_MS = 10_000
"""Data sent and not acknowledged this long closes the connection (a host gone)."""


class Tx(ABC):
    """One open transaction: run SQL, read rows."""

    @abstractmethod
    def execute(self, sql: str, params: Params = ()) -> int:
        """Run one statement; return how many rows it changed."""

    @abstractmethod
    def many(self, sql: str, rows: Sequence[Params]) -> None:
        """Run one statement for each of ``rows`` (one round trip where the server allows)."""

    @abstractmethod
    def rows(self, sql: str, params: Params = ()) -> list[tuple[Any, ...]]: ...

    def send(self, sql: str, params: Params = ()) -> Callable[[], int]:
        """Run one statement whose answer is not needed yet: a server may send it with
        the statements that follow, in one round trip.  Returns a way to ask how many
        rows it changed (which waits for it); its errors come by then, or by the commit."""
        changed = self.execute(sql, params)
        return lambda: changed

    def row(self, sql: str, params: Params = ()) -> tuple[Any, ...] | None:
        found = self.rows(sql, params)
        return found[0] if found else None

    def value(self, sql: str, params: Params = ()) -> Any:
        found = self.row(sql, params)
        return None if found is None else found[0]

    @abstractmethod
    def now_us(self) -> int:
        """The ledger's own time (Unix µs): the one clock that decides closing time and PIN
        lockouts for every cabinet writing to it, however far their own clocks drift."""


class Backend(ABC):
    dialect: str
    place: str
    """Where the ledger is, for the log: its file, or its server's URL without a password."""

    @abstractmethod
    def run(self, work: Callable[[Tx], T], write: bool = True) -> T:
        """Run ``work`` in one transaction and commit it; ``write=False`` gives a
        consistent read-only snapshot.  Errors from ``work`` roll everything back."""

    @abstractmethod
    def create_schema(self) -> None: ...

    @abstractmethod
    def integrity_problems(self) -> list[str]:
        """What the database engine itself finds wrong with its files (SQLite's
        integrity and foreign-key checks; nothing for a server that checks as it writes)."""

    @abstractmethod
    def close(self) -> None: ...


# -- SQLite -------------------------------------------------------------------------------
class _SQLiteTx(Tx):
    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db

    def execute(self, sql: str, params: Params = ()) -> int:
        return self.db.execute(sql, tuple(params)).rowcount

    def many(self, sql: str, rows: Sequence[Params]) -> None:
        self.db.executemany(sql, [tuple(r) for r in rows])

    def rows(self, sql: str, params: Params = ()) -> list[tuple[Any, ...]]:
        return self.db.execute(sql, tuple(params)).fetchall()

    def now_us(self) -> int:
        """A SQLite ledger is a file on one machine: that machine's clock is the ledger's."""
        return time.time_ns() // 1000


class SQLiteBackend(Backend):
    dialect = "sqlite"

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.place = str(self.path)
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            # Used by one thread at a time, not necessarily the one that opened it (a
            # cabinet may keep its ledger calls off the main loop).
            self.db = sqlite3.connect(
                self.path, isolation_level=None, timeout=BUSY_TIMEOUT_MS / 1000, check_same_thread=False
            )
        except (OSError, sqlite3.OperationalError) as e:
            raise LedgerUnreachable(f"cannot open {self.path}: {e}") from e
        try:
            self._refuse_foreign()
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=FULL")
            self.db.execute("PRAGMA foreign_keys=ON")
        except sqlite3.DatabaseError as e:
            self.db.close()
            if (getattr(e, "sqlite_errorcode", 0) or 0) & 0xFF not in DAMAGED_CODES:
                raise self._operational(e) from e  # the disk, not the file: a sound ledger stays where it is
            raise LedgerUnusable(  # "file is not a database", "malformed"
                f"{self.path} is not a readable Punch Cards ledger ({e}): move it aside to start a new one, "
                f"or restore it from a backup"
            ) from e
        except LedgerUnusable:
            self.db.close()
            raise

    def _refuse_foreign(self) -> None:
        """A damaged file (SQLite's quick check, a few ms a megabyte) is not written to, and
        another application's SQLite file (tables, and no ledger ``meta`` table) is not
        made a ledger by adding ours beside its own."""
        tables = {row[0] for row in self.db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        damage = [row[0] for row in self.db.execute("PRAGMA quick_check(3)") if row[0] != "ok"]
        if damage:
            raise LedgerUnusable(
                f"{self.path} is damaged ({'; '.join(damage)}): restore it from a backup, "
                f"or move it aside to start a new one"
            )
        if tables and "meta" not in tables:
            shown = ", ".join(sorted(tables)[:4]) + (", …" if len(tables) > 4 else "")
            raise LedgerUnusable(
                f"{self.path} belongs to another application (tables {shown}): "
                f"point [game.punch_cards] ledger at a file of its own"
            )

    def run(self, work: Callable[[Tx], T], write: bool = True) -> T:
        db = self.db
        try:
            db.execute("BEGIN IMMEDIATE" if write else "BEGIN")
        except sqlite3.OperationalError as e:
            raise self._operational(e) from e
        try:
            result = work(_SQLiteTx(db))
            db.execute("COMMIT")
            return result
        except sqlite3.IntegrityError as e:
            db.execute("ROLLBACK")
            raise LedgerCorrupt(f"the ledger's constraints refused a write: {e}") from e
        except sqlite3.OperationalError as e:
            if db.in_transaction:
                db.execute("ROLLBACK")
            raise self._operational(e) from e
        except sqlite3.DatabaseError as e:  # the file was damaged under a running cabinet
            if db.in_transaction:
                db.execute("ROLLBACK")
            raise LedgerCorrupt(f"{self.path} is damaged ({e}): restore it from a backup") from e
        except BaseException:
            if db.in_transaction:
                db.execute("ROLLBACK")
            raise

    def _operational(self, e: sqlite3.DatabaseError) -> Exception:
        text = str(e)
        code = (getattr(e, "sqlite_errorcode", 0) or 0) & 0xFF
        if "locked" in text or "busy" in text:
            return LedgerBusy(f"the ledger file stayed locked by another writer for {BUSY_TIMEOUT_MS} ms")
        if "keeps its history" in text:
            return LedgerCorrupt(f"the ledger's constraints refused a write: {e}")
        if code in (sqlite3.SQLITE_FULL, sqlite3.SQLITE_IOERR):
            return LedgerUnreachable(f"{self.path} cannot be written ({e}): {_disk_words(self.path)}")
        return LedgerUnreachable(f"{self.path}: {e}")

    def create_schema(self) -> None:
        def create(tx: Tx) -> None:
            for statement in sqlite_statements():
                tx.execute(statement)

        self.run(create)

    def integrity_problems(self) -> list[str]:
        try:
            problems = [row[0] for row in self.db.execute("PRAGMA integrity_check") if row[0] != "ok"]
            problems += [f"foreign key broken: {row}" for row in self.db.execute("PRAGMA foreign_key_check")]
        except sqlite3.DatabaseError as e:
            return [f"{self.path} is damaged: {e}"]
        return problems

    def close(self) -> None:
        self.db.close()


DAMAGED_CODES = {sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB}
"""SQLite result codes that say the file itself is bad; any other failure (a full disk,
an I/O error, read-only) is the place the ledger is kept, not the ledger."""
FULL_BELOW_BYTES = 1 << 20
"""Free space under which the disk is called full."""


def _disk_words(path: Path) -> str:
    """What an operator is told of a disk that refused the ledger's write: it is full (or
    limited), and the ledger, sound, is kept as it is (moving it aside would lose the
    event's record)."""
    try:
        stats = os.statvfs(path.parent)
        free = stats.f_bavail * stats.f_frsize
    except OSError:
        free = None
    full = "the disk is full" if free is not None and free < FULL_BELOW_BYTES else "the disk is full or refuses writes"
    room = "" if free is None else f", {free // (1 << 20)} MB free"
    return f"{full}{room}: make room on it; the ledger is kept as it is (do not move it aside)"


# -- PostgreSQL ---------------------------------------------------------------------------
class _PostgresTx(Tx):
    """A transaction in psycopg's pipeline mode: statements go out without waiting for
    each other's answers, and the connection waits only where an answer is read (rows,
    a row count, the commit), so ``BEGIN`` and what :meth:`send` sends cost no round trip
    of their own."""

    def __init__(self, conn: Any, pipeline: Any) -> None:
        self.conn = conn
        self.pipeline = pipeline

    def execute(self, sql: str, params: Params = ()) -> int:
        return self.send(sql, params)()

    def send(self, sql: str, params: Params = ()) -> Callable[[], int]:
        cur = self.conn.execute(sql.replace("?", "%s"), tuple(params))

        def changed() -> int:
            if cur.pgresult is None and self.pipeline is not None:
                self.pipeline.sync()
            return int(cur.rowcount)

        return changed

    def many(self, sql: str, rows: Sequence[Params]) -> None:
        with self.conn.cursor() as cur:
            cur.executemany(sql.replace("?", "%s"), [tuple(r) for r in rows])

    def rows(self, sql: str, params: Params = ()) -> list[tuple[Any, ...]]:
        return list(self.conn.execute(sql.replace("?", "%s"), tuple(params)).fetchall())

    def now_us(self) -> int:
        """The server's clock (``clock_timestamp()``: the time of this statement, not of the
        transaction's start, which a retried or long transaction would hold back)."""
        return int(self.value("SELECT (EXTRACT(EPOCH FROM clock_timestamp()) * 1000000)::bigint"))


class PostgresBackend(Backend):
    dialect = "postgresql"

    def __init__(self, url: str) -> None:
        import psycopg  # only a multi-cabinet event needs it

        self.psycopg = psycopg
        self.url = url
        self.place = _safe_url(url)
        self.conn: Any = None
        self.call_timeout_s = CALL_TIMEOUT_S
        self.pipelined = bool(psycopg.Pipeline.is_supported())
        """psycopg's pipeline mode needs libpq 14 or later (the binary wheel brings its own);
        without it every statement waits for its answer, as before."""
        self._connect()

    def _connect(self) -> None:
        from psycopg.conninfo import conninfo_to_dict

        given = str(conninfo_to_dict(self.url).get("options") or "")
        timeouts = f"-c statement_timeout={STATEMENT_TIMEOUT_MS} -c idle_in_transaction_session_timeout={IDLE_IN_TRANSACTION_MS}"
        try:
            self.conn = self.psycopg.connect(
                self.url,
                autocommit=True,
                # No prepared statements: psycopg counts a PREPARE sent in a pipeline the server
                # then aborted (a serialization failure) as done, and the retry fails on the
                # statement that was never prepared (tests/firmware_py/ledger/test_pipeline_retry.py).
                prepare_threshold=None,
                connect_timeout=CONNECT_TIMEOUT_S,
                tcp_user_timeout=TCP_USER_TIMEOUT_MS,
                options=f"{given} {timeouts}".strip(),  # set at connection: no round trip of its own
                keepalives=1,
                keepalives_idle=KEEPALIVE_IDLE_S,
                keepalives_interval=KEEPALIVE_INTERVAL_S,
                keepalives_count=KEEPALIVE_COUNT,
            )
        except self.psycopg.Error as e:
            self.conn = None
            raise LedgerUnreachable(f"cannot connect to {_safe_url(self.url)}: {_first_line(e)}") from e

    def run(self, work: Callable[[Tx], T], write: bool = True) -> T:
        errors = self.psycopg.errors
        retryable = (errors.SerializationFailure, errors.DeadlockDetected)
        reconnects = duplicates = 0
        begin = "BEGIN ISOLATION LEVEL SERIALIZABLE" if write else "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY"
        cut = threading.Event()
        deadline = time.monotonic() + self.call_timeout_s
        for attempt in range(RETRIES):
            if self.conn is None or self.conn.closed or self.conn.broken:
                self._connect()
            conn = self.conn
            timer = threading.Timer(max(0.0, deadline - time.monotonic()), _shut, (conn.fileno(), cut))
            timer.daemon = True
            timer.start()
            try:
                return self._attempt(conn, begin, work)
            except retryable:
                self._rollback()
                time.sleep(random.uniform(0, 0.002 * 2 ** min(attempt, 6)))
            except errors.UniqueViolation as e:
                # Two cabinets inserting the same key at once: the one that lost sees the
                # winner's row when run again.  A duplicate that stays is a broken write.
                self._rollback()
                duplicates += 1
                if duplicates > 2:
                    raise LedgerCorrupt(f"the ledger's constraints refused a write: {_first_line(e)}") from e
            except self.psycopg.OperationalError as e:
                self._rollback()
                if cut.is_set():  # the timer shut the socket: not answering, not worth a reconnect now
                    conn.close()
                    raise LedgerUnreachable(
                        f"{_safe_url(self.url)} is not answering: no answer within {self.call_timeout_s:g} s"
                    ) from e
                if conn.closed or conn.broken:
                    reconnects += 1
                    if reconnects > RECONNECTS:
                        raise LedgerUnreachable(
                            f"lost the connection to {_safe_url(self.url)}: {_first_line(e)}"
                        ) from e
                    continue
                raise LedgerUnreachable(f"{_safe_url(self.url)}: {_first_line(e)}") from e
            except self.psycopg.IntegrityError as e:
                self._rollback()
                raise LedgerCorrupt(f"the ledger's constraints refused a write: {_first_line(e)}") from e
            except errors.RaiseException as e:
                self._rollback()
                raise LedgerCorrupt(f"the ledger's constraints refused a write: {_first_line(e)}") from e
            except BaseException:
                self._rollback()
                raise
            finally:
                timer.cancel()
        raise LedgerBusy(f"other cabinets kept changing the same cards through {RETRIES} tries: try again")

    def _attempt(self, conn: Any, begin: str, work: Callable[[Tx], T]) -> T:
        """One try of a transaction, in a pipeline where libpq has them.  An error of the
        work leaves the pipeline's block normally and is raised after it: a pipeline left
        by an exception that cannot close clean (answers owed on a lost connection, a
        statement after a failed one) makes psycopg print a second error on stderr
        ("error ignored terminating Pipeline"); this way that second error is taken here,
        and the first, the one that matters, is raised."""
        failure: BaseException | None = None
        answered: list[T] = []
        try:
            with conn.pipeline() if self.pipelined else contextlib.nullcontext() as pipeline:
                try:
                    conn.execute(begin)
                    answered.append(work(_PostgresTx(conn, pipeline)))
                    conn.execute("COMMIT")
                except BaseException as e:  # raised below, once the pipeline is closed
                    failure = e
        except self.psycopg.Error:
            if failure is None:
                raise
        if failure is not None:
            raise failure
        return answered[0]

    def _rollback(self) -> None:
        conn = self.conn
        if conn is None or conn.closed or conn.broken:
            return
        try:
            conn.execute("ROLLBACK")
        except self.psycopg.Error:
            conn.close()

    def create_schema(self) -> None:
        def create(tx: Tx) -> None:
            tx.execute("SELECT pg_advisory_xact_lock(7101)")  # cabinets starting together create it once
            for statement in postgres_statements():
                tx.conn.execute(statement)  # type: ignore[attr-defined]

        self.run(create)

    def integrity_problems(self) -> list[str]:
        return []

    def close(self) -> None:
        if self.conn is not None:
            self.conn.close()


def _shut(fd: int, cut: threading.Event) -> None:
    """A call's deadline passed: shut its connection's socket (from the timer's thread),
    so the wait on it ends at once with an error instead of lasting as long as the
    server stays silent."""
    cut.set()
    try:
        dup = os.dup(fd)
    except OSError:
        return  # closed meanwhile: nothing is waiting on it
    with socket.socket(fileno=dup) as sock:
        try:
            sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass


def _first_line(e: BaseException) -> str:
    return (str(e).strip().splitlines() or [type(e).__name__])[0]


def _safe_url(url: str) -> str:
    """The URL without its password, for messages."""
    parts = urlsplit(url)
    host = parts.hostname or "localhost"
    port = f":{parts.port}" if parts.port else ""
    return f"{parts.scheme}://{host}{port}{parts.path}"


def open_backend(url: str | Path) -> Backend:
    """``postgresql://…`` (or ``postgres://…``): the event's server; ``sqlite:///path`` or
    a plain path: a file on this cabinet."""
    text = str(url)
    scheme = urlsplit(text).scheme
    if scheme in ("postgresql", "postgres"):
        return PostgresBackend(text)
    if scheme == "sqlite":
        path = text[len("sqlite://") :]
        if not path:
            raise ValueError("a sqlite ledger URL names a file: sqlite:///path/to/ledger.sqlite3")
        return SQLiteBackend(path)
    if scheme and len(scheme) > 1:
        raise ValueError(f"ledger URL {text!r}: use postgresql://… or sqlite:///path (or a plain file path)")
    return SQLiteBackend(text)

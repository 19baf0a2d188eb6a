"""The cabinet's SQLite store: every game's journal, results and stats.

WAL with ``synchronous=FULL``: a committed write survives a power cut.  The session
writes each action here *before* its effects are shown, so after a power cut the game
resumes from its journal exactly where it was.  One file per cabinet, never shared over
a network (and one process per data folder: :mod:`firmware_py.instance_lock`).

A store that cannot be used never stops the cabinet: :func:`open_store` checks it at
start (``quick_check``, schema version, the columns this version reads); a damaged one
is moved aside under a name with the time, never deleted, and the cabinet plays on a
fresh store; a data folder that cannot be written (read-only, disk full) leaves the
cabinet playing on a store in memory.  Either way :attr:`Store.notice` tells the
operator what happened and where the old file is.
"""

from __future__ import annotations

import json
import logging
import sqlite3
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from games.levels import Level

log = logging.getLogger("ringside.store")

SCHEMA_VERSION = 2
"""1: the first; 2: ``games.computers`` (which seats the computer played)."""

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY,
    game TEXT NOT NULL,
    options TEXT NOT NULL,
    players INTEGER NOT NULL,
    seed INTEGER NOT NULL,
    seats TEXT NOT NULL,              -- JSON list: station index of each seat
    started_at TEXT NOT NULL,
    ended_at TEXT,
    winner_station INTEGER,
    reason TEXT,
    computers TEXT NOT NULL DEFAULT '{}'  -- JSON: station -> level of each computer player; {}: people only
);
CREATE TABLE IF NOT EXISTS actions (
    game_id INTEGER NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,
    action TEXT NOT NULL,
    PRIMARY KEY (game_id, seq)
);
CREATE TABLE IF NOT EXISTS records (
    id INTEGER PRIMARY KEY,
    game_id INTEGER NOT NULL REFERENCES games(id),
    kind TEXT NOT NULL,               -- 'match' (a Punch! match), 'reaction' (µs) ...
    station INTEGER,
    value INTEGER,
    detail TEXT NOT NULL DEFAULT '',
    at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS records_kind ON records(kind, value);
CREATE TABLE IF NOT EXISTS time_bases (
    game_id INTEGER NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,             -- actions journaled when this process took the game up
    cabinet_us INTEGER NOT NULL,      -- that process's clock then ...
    game_us INTEGER NOT NULL,         -- ... and the game's time then
    at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS probes (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    at TEXT NOT NULL
);
"""

COLUMNS = {
    "games": {
        "id",
        "game",
        "options",
        "players",
        "seed",
        "seats",
        "started_at",
        "ended_at",
        "winner_station",
        "reason",
        "computers",
    },
    "actions": {"game_id", "seq", "action"},
    "records": {"id", "game_id", "kind", "station", "value", "detail", "at"},
}
"""What this version reads from a store; a store missing any of it cannot be used.
(``time_bases`` and ``probes`` came later in the same schema version: created when absent.)"""

TABLES = COLUMNS.keys() | {"time_bases", "probes"}
"""Every table of a store (the schema's)."""

MIGRATIONS: dict[int, tuple[tuple[str, str, str], ...]] = {
    2: (("games", "computers", "TEXT NOT NULL DEFAULT '{}'"),),
}
"""Columns each schema version added (table, column, definition): an older store is
checked for the columns it should already have and gains the new ones on opening, its
rows kept as they are (a game from before version 2 was played by people only)."""

PEOPLE_ONLY = "computers = '{}'"
"""Games with no computer player (``begin_game`` writes exactly ``{}`` for those)."""

DAMAGED_CODES = {sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB}
"""SQLite result codes that say the file itself is bad; any other failure to open or
write (read-only, disk full, I/O, locked) is the place it is kept, not the file."""


class StoreUnusable(Exception):
    """The store cannot be used: ``damaged`` when the file itself is bad (move it aside),
    else the folder or disk refuses it (read-only, full), or ``newer``: a newer Ringside
    made it (a rollback must find it); either way keep it where it is."""

    def __init__(self, path: Path, reason: str, damaged: bool, newer: bool = False) -> None:
        reason = " ".join(reason.split())  # quick_check's report spans lines: the log takes one
        super().__init__(f"{path}: {reason}")
        self.path = path
        self.reason = reason
        self.damaged = damaged
        self.newer = newer


class UnreadableJournal(ValueError):
    """One unfinished game's rows cannot be read back (invalid JSON, a gap in its
    journal): that game is abandoned, the rest of the store is fine."""

    def __init__(self, game_id: int, reason: str) -> None:
        super().__init__(f"game #{game_id}: {reason}")
        self.game_id = game_id
        self.reason = reason


@dataclass(frozen=True)
class StoreNotice:
    """What the operator must know about the store since start: a short line for the
    attract screen, the whole story for the log and the service menu."""

    headline: str
    detail: str


@dataclass(frozen=True, kw_only=True)
class SavedGame:
    """An unfinished game as stored: enough to rebuild it by replaying ``actions``.

    ``game_us``: the game's time when it was last taken up (0 if never), so its time
    continues across restarts whatever the new process's clock says."""

    id: int
    game: str
    options: dict[str, Any]
    players: int
    seed: int
    seats: tuple[int, ...]
    actions: tuple[dict[str, Any], ...]
    game_us: int = 0
    computers: dict[int, str] = field(default_factory=dict)
    """Station → level of each computer player."""

    def engine_dict(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "options": self.options,
            "players": self.players,
            "seed": self.seed,
            "actions": list(self.actions),
        }


@dataclass(frozen=True)
class FastestRecord:
    """One record of the fastest table: the game it came from, the station, the value."""

    game_id: int
    station: int | None
    value: int
    at: str


_PLAYED_OUT = "reason NOT LIKE 'abandoned%'"
"""Games that were played to their end (not abandoned by the operator or by idleness)."""


def _computers_json(computers: dict[int, str] | None) -> str:
    return json.dumps({str(station): level for station, level in sorted((computers or {}).items())})


LEVELS = frozenset(level.value for level in Level)


def _computers_of(text: object) -> dict[int, str]:
    """A ``computers`` column read back (station → level); ValueError when it is not the
    JSON object of station numbers and level names :func:`_computers_json` writes."""
    if not isinstance(text, str):
        raise ValueError(f"{_shown(text)}, not JSON text")
    try:
        stored = json.loads(text)
    except ValueError as e:  # JSONDecodeError
        raise ValueError(f"not valid JSON ({e})") from None
    if not isinstance(stored, dict):
        raise ValueError(f"{_shown(stored)}, not a JSON object")
    out = {}
    for station, level in stored.items():
        if not (station.isascii() and station.isdigit()) or level not in LEVELS:
            raise ValueError(f"{{{station!r}: {level!r}}}, not a station and a level")
        out[int(station)] = level
    return out


def _shown(value: object, width: int = 40) -> str:
    """A stored value as a log line shows it: its repr, cut short."""
    text = repr(value)
    return text if len(text) <= width else f"{text[: width - 1]}…"


def _is_station(value: object, nullable: bool = True) -> bool:
    """A station number as the store writes it (None where there is none)."""
    return (value is None and nullable) or (type(value) is int and value >= 0)


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def start_of_today(now: datetime | None = None) -> str:
    """Midnight today on the cabinet's local clock, as the store writes times (ISO, UTC):
    records at or after it are today's."""
    local = (now or datetime.now().astimezone()).replace(hour=0, minute=0, second=0, microsecond=0)
    return local.astimezone(UTC).isoformat(timespec="seconds")


def _unusable(path: Path, e: sqlite3.Error) -> StoreUnusable:
    code = getattr(e, "sqlite_errorcode", None)
    damaged = code is not None and code & 0xFF in DAMAGED_CODES
    return StoreUnusable(path, str(e), damaged)


CACHE_KIB = 512
"""SQLite's page cache for the connection.  Its default (2 MB) fills as the journal
grows, game after game: up to 2 MB of memory creep over a long soak.  A cabinet's commits
touch a few pages and its reads are small."""


class Store:
    """Open (creating when new) and check a store; raises :class:`StoreUnusable`.

    ``path`` None: a store in memory, for a cabinet whose data folder cannot be written."""

    def __init__(self, path: str | Path | None) -> None:
        self.path = Path(path) if path is not None else None
        self.notice: StoreNotice | None = None
        self._skipped: set[tuple[str, object, str]] = set()
        """Rows already logged as skipped (table, id, column): each is told once per process."""
        where = self.path or Path(":memory:")
        if self.path is not None:
            # Checked through a read-only connection first: one that writes would, on
            # closing, fold the WAL into a damaged file and delete it.
            problem = inspect(self.path)
            if problem is not None:
                raise problem
        try:
            if self.path is not None:
                self.path.parent.mkdir(parents=True, exist_ok=True)
            self.db = sqlite3.connect(str(where), isolation_level=None)
        except OSError as e:
            raise StoreUnusable(where, e.strerror or str(e), damaged=False) from e
        except sqlite3.Error as e:
            raise _unusable(where, e) from e
        try:
            self._open()
        except sqlite3.Error as e:
            self.db.close()
            raise _unusable(where, e) from e

    def _open(self) -> None:
        self.db.execute(f"PRAGMA cache_size=-{CACHE_KIB}")
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=FULL")
        self.db.execute("PRAGMA foreign_keys=ON")
        with self.db:
            # The tables and the schema version in one transaction: a process stopped while
            # it makes a new store (SIGTERM, kill -9, a power cut) leaves no half-made store
            # that the next start would take for another program's file.
            self.db.executescript(f"BEGIN IMMEDIATE;\n{SCHEMA}")
            for version in sorted(MIGRATIONS):
                for table, column, definition in MIGRATIONS[version]:
                    if column not in {r[1] for r in self.db.execute(f"PRAGMA table_info({table})")}:
                        self.db.execute(f"ALTER TABLE {table} ADD COLUMN {column} {definition}")
            self.db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")

    def begin_game(
        self,
        game: str,
        options: dict[str, Any],
        players: int,
        seed: int,
        seats: tuple[int, ...],
        computers: dict[int, str] | None = None,
    ) -> int:
        """A new game; ``computers``: station → level of each computer player in it."""
        cur = self.db.execute(
            "INSERT INTO games(game, options, players, seed, seats, started_at, computers) VALUES (?,?,?,?,?,?,?)",
            (game, json.dumps(options), players, seed, json.dumps(list(seats)), _now(), _computers_json(computers)),
        )
        assert cur.lastrowid is not None  # set by the INSERT
        return int(cur.lastrowid)

    def append_action(self, game_id: int, seq: int, action: dict[str, Any]) -> None:
        """Durably record one action (committed before this returns)."""
        self.commit_action(game_id, seq, action)

    def commit_action(
        self,
        game_id: int,
        seq: int,
        action: dict[str, Any],
        records: Sequence[tuple[str, int | None, int | None, str]] = (),
        finish: tuple[int | None, str] | None = None,
    ) -> None:
        """One action with what it produced — records (kind, station, value, detail) and
        the game's end (winner station, reason) — in one transaction: one fsync, and
        never half of it after a power cut."""
        now = _now()
        with self.db:
            self.db.execute("BEGIN")
            self.db.execute(
                "INSERT INTO actions(game_id, seq, action) VALUES (?,?,?)", (game_id, seq, json.dumps(action))
            )
            self.db.executemany(
                "INSERT INTO records(game_id, kind, station, value, detail, at) VALUES (?,?,?,?,?,?)",
                [(game_id, kind, station, value, detail, now) for kind, station, value, detail in records],
            )
            if finish is not None:
                self.db.execute(
                    "UPDATE games SET ended_at=?, winner_station=?, reason=? WHERE id=?",
                    (now, finish[0], finish[1], game_id),
                )

    def note_time_base(self, game_id: int, seq: int, cabinet_us: int, game_us: int) -> None:
        """Journal where this process's clock meets the game's time (a session epoch)."""
        self.db.execute(
            "INSERT INTO time_bases(game_id, seq, cabinet_us, game_us, at) VALUES (?,?,?,?,?)",
            (game_id, seq, cabinet_us, game_us, _now()),
        )

    def probe(self) -> None:
        """Commit one small write: raises ``sqlite3.Error`` while the store cannot record
        (disk full, read-only, I/O error); returns once it can again."""
        with self.db:
            self.db.execute("BEGIN IMMEDIATE")
            self.db.execute("INSERT OR REPLACE INTO probes(id, at) VALUES (1, ?)", (_now(),))

    def seat_computers(self, game_id: int, computers: dict[int, str]) -> None:
        """Computer players at ``computers``' stations (station → level) of a game begun as
        people's (the exhibition walks the menus as people would): its records are not people's."""
        self.db.execute("UPDATE games SET computers=? WHERE id=?", (_computers_json(computers), game_id))

    def finish_game(self, game_id: int, winner_station: int | None, reason: str) -> None:
        self.db.execute(
            "UPDATE games SET ended_at=?, winner_station=?, reason=? WHERE id=?",
            (_now(), winner_station, reason, game_id),
        )

    def abandon_game(self, game_id: int, reason: str) -> bool:
        """End a game without a winner (walked away from, or not resumable), keeping its
        journal; it counts in no stats.  False when the store cannot record it now (disk
        full): the game then stays unfinished and is offered again at the next start."""
        try:
            self.finish_game(game_id, None, f"abandoned: {reason}")
        except sqlite3.Error as e:
            log.error("game #%s could not be marked abandoned (%s): %s", game_id, e, reason)
            return False
        return True

    def add_record(self, game_id: int, kind: str, station: int | None, value: int | None, detail: str = "") -> None:
        self.db.execute(
            "INSERT INTO records(game_id, kind, station, value, detail, at) VALUES (?,?,?,?,?,?)",
            (game_id, kind, station, value, detail, _now()),
        )

    def unfinished(self) -> SavedGame | None:
        """The most recent game that never ended (a power cut), with its journal.

        Raises :class:`UnreadableJournal` when that game's rows cannot be read back."""
        row = self.db.execute(
            "SELECT id, game, options, players, seed, seats, computers FROM games WHERE ended_at IS NULL "
            "ORDER BY id DESC LIMIT 1"
        ).fetchone()
        if row is None:
            return None
        game_id = row[0]
        rows = self.db.execute("SELECT seq, action FROM actions WHERE game_id=? ORDER BY seq", (game_id,)).fetchall()
        for expected, (seq, _a) in enumerate(rows):
            if seq != expected:
                raise UnreadableJournal(game_id, f"gap in the journal: action {expected} is missing")
        base = self.db.execute(
            "SELECT game_us FROM time_bases WHERE game_id=? ORDER BY rowid DESC LIMIT 1", (game_id,)
        ).fetchone()
        try:
            if not all(isinstance(text, str) for text in (row[2], row[5], *(a for _s, a in rows))):
                raise ValueError("a JSON column holds something other than text")
            actions = tuple(json.loads(a) for _s, a in rows)
            options, seats = json.loads(row[2]), json.loads(row[5])
        except ValueError as e:  # JSONDecodeError is a ValueError
            raise UnreadableJournal(game_id, f"a row is not valid JSON ({e})") from e
        try:
            computers = _computers_of(row[6])
        except ValueError as e:
            raise UnreadableJournal(game_id, f"computers is {e}") from e
        if not (
            isinstance(row[1], str)
            and type(row[3]) is int
            and type(row[4]) is int
            and isinstance(options, dict)
            and isinstance(seats, list)
            and all(_is_station(s, nullable=False) for s in seats)
            and all(isinstance(a, dict) for a in actions)
            and (base is None or type(base[0]) is int)
        ):
            raise UnreadableJournal(game_id, "a row does not hold what a journal holds")
        return SavedGame(
            id=game_id,
            game=row[1],
            options=options,
            players=row[3],
            seed=row[4],
            seats=tuple(seats),
            actions=actions,
            game_us=base[0] if base else 0,
            computers=computers,
        )

    # -- stats for the attract screen and the service menu ---------------------------
    # Every row read here is checked like the journal's: a row this version cannot read
    # (a hand edit, another program, a bad sector that quick_check let through) is skipped
    # with one log line, once per process, and never stops the cabinet (issue 22).

    def _skip(self, table: str, skipped: Sequence[tuple[object, str, str]]) -> None:
        """Log the rows of ``table`` one read left out, (row id, column, why) each: one
        line per reason, each row's column told once per process (the rows stay as they are)."""
        fresh: dict[str, list[object]] = {}
        for row_id, column, why in skipped:
            if (table, row_id, column) not in self._skipped:
                self._skipped.add((table, row_id, column))
                fresh.setdefault(f"{column} is {why}", []).append(row_id)
        for why, ids in fresh.items():
            named = ", ".join(f"#{i}" for i in ids[:5]) + (f" and {len(ids) - 5} more" if len(ids) > 5 else "")
            log.warning(
                "store: %s %s skipped in the statistics: %s (left in the store untouched)",
                table,
                f"row {named}" if len(ids) == 1 else f"rows {named}",
                why,
            )

    def games_played(self) -> dict[str, int]:
        played: dict[str, int] = {}
        skipped: list[tuple[object, str, str]] = []
        for game, count, first in self.db.execute(
            f"SELECT game, COUNT(*), MIN(id) FROM games WHERE ended_at IS NOT NULL AND {_PLAYED_OUT} GROUP BY game"
        ):
            if isinstance(game, str):
                played[game] = count
            else:
                skipped.append((first, "game", f"{_shown(game)}, not a game's name ({count} rows alike)"))
        self._skip("games", skipped)
        return played

    def wins_by_station(self, game: str) -> dict[int, int]:
        """Wins of the people at each station, in games among people only."""
        wins: dict[int, int] = {}
        skipped: list[tuple[object, str, str]] = []
        for station, count, first in self.db.execute(
            "SELECT winner_station, COUNT(*), MIN(id) FROM games WHERE game=? AND winner_station IS NOT NULL "
            f"AND {PEOPLE_ONLY} GROUP BY winner_station",
            (game,),
        ):
            if _is_station(station, nullable=False):
                wins[station] = count
            else:
                skipped.append((first, "winner_station", f"{_shown(station)}, not a station ({count} rows alike)"))
        self._skip("games", skipped)
        return wins

    def recent_results(self, limit: int = 5) -> list[tuple[str, int | None, str, dict[int, str]]]:
        """The latest games played out: game, winner station, how it ended and the
        computers in it (station → level; empty among people)."""
        results: list[tuple[str, int | None, str, dict[int, str]]] = []
        skipped: list[tuple[object, str, str]] = []
        rows = self.db.execute(
            "SELECT id, game, winner_station, reason, computers FROM games "
            f"WHERE ended_at IS NOT NULL AND {_PLAYED_OUT} ORDER BY id DESC"
        )
        for game_id, game, winner, reason, computers in rows:  # read lazily, up to ``limit`` good ones
            if not isinstance(game, str):
                skipped.append((game_id, "game", f"{_shown(game)}, not a game's name"))
            elif not _is_station(winner):
                skipped.append((game_id, "winner_station", f"{_shown(winner)}, not a station"))
            elif not isinstance(reason, str):
                skipped.append((game_id, "reason", f"{_shown(reason)}, not text"))
            else:
                try:
                    results.append((game, winner, reason, _computers_of(computers)))
                except ValueError as e:
                    skipped.append((game_id, "computers", str(e)))
                    continue
                if len(results) == limit:
                    break
        rows.close()
        self._skip("games", skipped)
        return results

    def fastest(self, kind: str, limit: int = 5) -> list[tuple[int | None, int, str]]:
        """The lowest values of ``kind`` (fastest slaps: ``reaction``), from games among
        people only: a record against the computer is kept with its game, not ranked."""
        return [(r.station, r.value, r.at) for r in self.fastest_records(kind, limit)]

    def fastest_records(self, kind: str, limit: int = 3, since: str | None = None) -> list[FastestRecord]:
        """:meth:`fastest` with the game each came from, optionally only those written
        at or after ``since`` (an ISO time in UTC, as the store writes them): "today's"."""
        after = "" if since is None else "AND r.at >= ? "
        args: tuple[Any, ...] = (kind,) if since is None else (kind, since)
        records: list[FastestRecord] = []
        skipped: list[tuple[object, str, str]] = []
        rows = self.db.execute(
            "SELECT r.id, r.game_id, r.station, r.value, r.at FROM records r JOIN games g ON g.id = r.game_id "
            f"WHERE r.kind=? AND r.value IS NOT NULL AND g.{PEOPLE_ONLY} {after}ORDER BY r.value ASC, r.id ASC",
            args,
        )
        for record_id, game_id, station, value, at in rows:  # lazily: NULL first, then numbers, text, blobs
            if type(value) is not int or value < 0:
                skipped.append((record_id, "value", f"{_shown(value)}, not a whole number"))
            elif not _is_station(station):
                skipped.append((record_id, "station", f"{_shown(station)}, not a station"))
            elif not isinstance(at, str):
                skipped.append((record_id, "at", f"{_shown(at)}, not a time"))
            else:
                records.append(FastestRecord(game_id, station, value, at))
                if len(records) == limit:
                    break
        rows.close()
        self._skip("records", skipped)
        return records

    def integrity_ok(self) -> bool:
        return bool(self.db.execute("PRAGMA integrity_check").fetchone()[0] == "ok")

    def close(self) -> None:
        self.db.close()


def _check(db: sqlite3.Connection, where: Path) -> None:
    """Raise :class:`StoreUnusable` unless ``db`` is sound and this version can read it.
    Reads only: a damaged store is never written to."""
    problems = [row[0] for row in db.execute("PRAGMA quick_check(5)")]
    if problems != ["ok"]:
        raise StoreUnusable(where, f"quick_check failed: {'; '.join(problems)}", damaged=True)
    version = db.execute("PRAGMA user_version").fetchone()[0]
    tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    if version > SCHEMA_VERSION:
        raise StoreUnusable(
            where,
            f"store schema {version} is newer than this Ringside knows ({SCHEMA_VERSION})",
            damaged=False,
            newer=True,
        )
    if version == 0 and tables - TABLES:  # only ours: a store whose making was cut short
        raise StoreUnusable(where, f"not a Ringside store (tables {', '.join(sorted(tables))})", damaged=True)
    if version >= 1:
        for table, wanted in _columns_of(version).items():
            have = {r[1] for r in db.execute(f"PRAGMA table_info({table})")}
            if not wanted <= have:
                missing = ", ".join(sorted(wanted - have)) if have else "the whole table"
                raise StoreUnusable(where, f"table {table} lacks {missing}", damaged=True)


def _columns_of(version: int) -> dict[str, set[str]]:
    """The columns a store of schema ``version`` holds (the later ones come on opening)."""
    later = {(t, c) for v, added in MIGRATIONS.items() if v > version for t, c, _d in added}
    return {table: {c for c in wanted if (table, c) not in later} for table, wanted in COLUMNS.items()}


def inspect(path: Path) -> StoreUnusable | None:
    """What is wrong with the store at ``path`` (None: nothing, or no store yet), found
    without writing to it: :class:`Store` looks before it opens, ``selftest`` reports."""
    if not path.exists():
        return None
    try:
        db = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
    except sqlite3.Error as e:
        return _unusable(path, e)
    try:
        _check(db, path)
    except sqlite3.Error as e:
        return _unusable(path, e)
    except StoreUnusable as e:
        return e
    finally:
        db.close()
    return None


def set_aside(path: Path, when: datetime | None = None) -> Path:
    """Move a store that cannot be used (with its ``-wal`` and ``-shm``) to a name with
    the time, beside it; returns the new path.  Nothing is deleted: the WAL keeps
    committed writes, so it moves with the file under the matching name."""
    stamp = (when or datetime.now()).strftime("%Y%m%d-%H%M%S")
    n = 0
    while True:
        aside = path.with_name(f"{path.stem}.damaged-{stamp}{f'-{n}' if n else ''}{path.suffix}")
        if not any(Path(f"{aside}{s}").exists() for s in ("", "-wal", "-shm")):
            break
        n += 1
    for suffix in ("-wal", "-shm", ""):  # the main file last: a crash midway leaves it found
        src = Path(f"{path}{suffix}")
        if src.exists():
            src.rename(f"{aside}{suffix}")
    return aside


def open_store(path: Path, report: Callable[[str], None] = print) -> Store:
    """The cabinet's store at ``path``, whatever state it is in; never raises for the
    store.  ``report`` tells the operator (the log) what was done about a bad one."""
    try:
        return Store(path)
    except StoreUnusable as e:
        problem = e
    if problem.newer:  # sound, only not ours to read: never moved, never written
        return _in_memory(
            StoreNotice(
                "Store from a newer Ringside: kept as it is; games are NOT recorded",
                f"store {path} was made by a newer Ringside ({problem.reason}); it is kept as it is, untouched, "
                "for that version (a rollback finds it there); games are played but not recorded: update this "
                "cabinet's Ringside, or move the store away by hand to start a fresh one",
            ),
            report,
        )
    if not problem.damaged:
        return _in_memory(
            StoreNotice(
                "Data folder cannot be written: games are NOT recorded",
                f"store {path} cannot be opened for writing ({problem.reason}); it is left untouched; games are "
                "played but not recorded until the data folder can be written (disk space, read-only mount) and "
                "the cabinet restarted",
            ),
            report,
        )
    try:
        aside = set_aside(path)
    except OSError as e:
        return _in_memory(
            StoreNotice(
                "Store damaged and cannot be moved aside: games are NOT recorded",
                f"store {path} cannot be used ({problem.reason}) and could not be moved aside ({e.strerror or e}); "
                "it is left where it is, untouched; games are played but not recorded until the data folder is "
                "fixed and the cabinet restarted",
            ),
            report,
        )
    kept = f"store {path} cannot be used ({problem.reason}); it was kept as {aside} (with its -wal and -shm, if any)"
    try:
        store = Store(path)
    except StoreUnusable as e:
        return _in_memory(
            StoreNotice(
                f"Store damaged: kept as {aside.name}; games are NOT recorded",
                f"{kept}, but a fresh store cannot be made ({e.reason}); games are played but not recorded",
            ),
            report,
        )
    store.notice = StoreNotice(
        f"Store damaged: kept as {aside.name}; playing on a fresh store",
        f"{kept} and the cabinet plays on a fresh store at {path}",
    )
    report(f"STORE: {store.notice.detail}")
    return store


def _in_memory(notice: StoreNotice, report: Callable[[str], None]) -> Store:
    store = Store(None)
    store.notice = notice
    report(f"STORE: {notice.detail}")
    return store

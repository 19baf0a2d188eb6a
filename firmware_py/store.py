"""The cabinet's SQLite store: every game's journal, results and stats.

WAL with ``synchronous=FULL``: a committed write survives a power cut.  The session
writes each action here *before* its effects are shown, so after a power cut the game
resumes from its journal exactly where it was.  One file per cabinet, never shared over
a network.
"""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

SCHEMA_VERSION = 1

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
    reason TEXT
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
"""


@dataclass(frozen=True)
class SavedGame:
    """An unfinished game as stored: enough to rebuild it by replaying ``actions``."""

    id: int
    game: str
    options: dict[str, Any]
    players: int
    seed: int
    seats: tuple[int, ...]
    actions: tuple[dict[str, Any], ...]

    def engine_dict(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "options": self.options,
            "players": self.players,
            "seed": self.seed,
            "actions": list(self.actions),
        }


_PLAYED_OUT = "reason NOT LIKE 'abandoned%'"
"""Games that were played to their end (not abandoned by the operator or by idleness)."""


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


class Store:
    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.db = sqlite3.connect(self.path, isolation_level=None)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=FULL")
        self.db.execute("PRAGMA foreign_keys=ON")
        version = self.db.execute("PRAGMA user_version").fetchone()[0]
        if version not in (0, SCHEMA_VERSION):
            raise RuntimeError(f"{self.path} has store schema {version}; this Ringside knows {SCHEMA_VERSION}")
        self.db.executescript(SCHEMA)
        self.db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")

    def begin_game(self, game: str, options: dict[str, Any], players: int, seed: int, seats: tuple[int, ...]) -> int:
        cur = self.db.execute(
            "INSERT INTO games(game, options, players, seed, seats, started_at) VALUES (?,?,?,?,?,?)",
            (game, json.dumps(options), players, seed, json.dumps(list(seats)), _now()),
        )
        return int(cur.lastrowid)

    def append_action(self, game_id: int, seq: int, action: dict[str, Any]) -> None:
        """Durably record one action (committed before this returns)."""
        self.commit_action(game_id, seq, action)

    def commit_action(
        self,
        game_id: int,
        seq: int,
        action: dict[str, Any],
        records: list[tuple[str, int | None, int | None, str]] = (),
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

    def finish_game(self, game_id: int, winner_station: int | None, reason: str) -> None:
        self.db.execute(
            "UPDATE games SET ended_at=?, winner_station=?, reason=? WHERE id=?",
            (_now(), winner_station, reason, game_id),
        )

    def abandon_game(self, game_id: int, reason: str) -> None:
        """End a game without a winner (walked away from, or not resumable), keeping its
        journal; it counts in no stats."""
        self.finish_game(game_id, None, f"abandoned: {reason}")

    def add_record(self, game_id: int, kind: str, station: int | None, value: int | None, detail: str = "") -> None:
        self.db.execute(
            "INSERT INTO records(game_id, kind, station, value, detail, at) VALUES (?,?,?,?,?,?)",
            (game_id, kind, station, value, detail, _now()),
        )

    def unfinished(self) -> SavedGame | None:
        """The most recent game that never ended (a power cut), with its journal."""
        row = self.db.execute(
            "SELECT id, game, options, players, seed, seats FROM games WHERE ended_at IS NULL ORDER BY id DESC LIMIT 1"
        ).fetchone()
        if row is None:
            return None
        actions = tuple(
            json.loads(a)
            for (a,) in self.db.execute("SELECT action FROM actions WHERE game_id=? ORDER BY seq", (row[0],))
        )
        return SavedGame(row[0], row[1], json.loads(row[2]), row[3], row[4], tuple(json.loads(row[5])), actions)

    # -- stats for the attract screen and the service menu ---------------------------
    def games_played(self) -> dict[str, int]:
        return dict(
            self.db.execute(
                f"SELECT game, COUNT(*) FROM games WHERE ended_at IS NOT NULL AND {_PLAYED_OUT} GROUP BY game"
            )
        )

    def wins_by_station(self, game: str) -> dict[int, int]:
        return dict(
            self.db.execute(
                "SELECT winner_station, COUNT(*) FROM games WHERE game=? AND winner_station IS NOT NULL GROUP BY winner_station",
                (game,),
            )
        )

    def recent_results(self, limit: int = 5) -> list[tuple[str, int | None, str]]:
        return list(
            self.db.execute(
                f"SELECT game, winner_station, reason FROM games WHERE ended_at IS NOT NULL AND {_PLAYED_OUT} "
                "ORDER BY id DESC LIMIT ?",
                (limit,),
            )
        )

    def fastest(self, kind: str, limit: int = 5) -> list[tuple[int, int, str]]:
        return list(
            self.db.execute(
                "SELECT station, value, at FROM records WHERE kind=? ORDER BY value ASC LIMIT ?", (kind, limit)
            )
        )

    def integrity_ok(self) -> bool:
        return self.db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"

    def close(self) -> None:
        self.db.close()

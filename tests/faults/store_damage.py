"""Ways a cabinet's store gets damaged, applied to a real store file (issue 10, defect 2).

Each damage takes a closed store (its WAL checkpointed into the file) and breaks it the
way a pulled SD card, a bad sector, a downgrade or a hand edit would."""

from __future__ import annotations

import hashlib
import json
import random
import sqlite3
from collections.abc import Callable
from pathlib import Path

from firmware_py.runtime.store import Store

PAGE = 4096


def populate(path: Path, games: int = 60, actions: int = 20) -> None:
    """A store with ``games`` finished Punch! games (stats to keep) on several pages."""
    store = Store(path)
    db = store.db
    db.execute("BEGIN")
    for g in range(games):
        gid = db.execute(
            "INSERT INTO games(game, options, players, seed, seats, started_at, ended_at, winner_station, reason) "
            "VALUES ('punch', '{}', 2, ?, '[0, 1]', '2026-01-01', '2026-01-01', ?, 'won 3 matches')",
            (g, g % 2),
        ).lastrowid
        db.executemany(
            "INSERT INTO actions(game_id, seq, action) VALUES (?,?,?)",
            [(gid, i, json.dumps({"type": "PlayCard", "player": i % 2, "card": "block"})) for i in range(actions)],
        )
        db.execute(
            "INSERT INTO records(game_id, kind, station, value, at) VALUES (?, 'reaction', 0, ?, '2026')",
            (gid, 150_000 + g),
        )
    db.execute("COMMIT")
    store.close()  # the last connection checkpoints the WAL into the file


def truncated(path: Path) -> None:
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2 + 100])


def damaged_header(path: Path) -> None:
    with path.open("r+b") as f:
        f.write(b"Ringside was here")


def not_a_database(path: Path) -> None:
    path.write_text("cabinet = 'red'\n" * 400)


def future_schema(path: Path) -> None:
    _sql(path, "PRAGMA user_version=99")


def renamed_column(path: Path) -> None:
    _sql(path, "ALTER TABLE games RENAME COLUMN seed TO deal_seed")


def garbage_page(path: Path) -> None:
    """Random bytes over the root page of the journal table: the store still opens and
    the games table still reads (it ran silently before), but quick_check sees it."""
    db = sqlite3.connect(path)
    (root,) = db.execute("SELECT rootpage FROM sqlite_master WHERE name='actions'").fetchone()
    db.close()
    with path.open("r+b") as f:
        f.seek((root - 1) * PAGE)
        f.write(random.Random(root).randbytes(PAGE))


def _sql(path: Path, statement: str) -> None:
    db = sqlite3.connect(path)
    db.execute(statement)
    db.commit()
    db.close()


DAMAGES: dict[str, Callable[[Path], None]] = {
    "truncated": truncated,
    "damaged header": damaged_header,
    "not a database": not_a_database,
    "renamed column": renamed_column,
    "garbage page": garbage_page,
}


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def contents(folder: Path) -> dict[str, str]:
    """Digest → name of every file under ``folder``: nothing may ever disappear."""
    return {digest(p): str(p.relative_to(folder)) for p in folder.rglob("*") if p.is_file()}

"""A damaged, non-SQLite or foreign ``punch_cards.sqlite3`` never stops the cabinet and is
never written to (issue 22: each once ended every start in a traceback, and another
application's SQLite file got the ledger's tables added to it).  Unlike the cabinet's own
store, the ledger is not moved aside and replaced: it is the event's record of who holds
which card, so the operator decides (restore it, or move it aside to start afresh)."""

from __future__ import annotations

import hashlib
import random
import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest

from firmware_py.games.punch_cards.ledger import Ledger, LedgerRefused
from firmware_py.games.punch_cards.ledger_link import LEDGER_FILE, link_for
from firmware_py.runtime.cabinet import Cabinet
from firmware_py.runtime.scenes import Attract
from hal.config import CabinetConfig
from hal.sim import SimCabinet
from tests.cabinet_driving import run_for
from tests.firmware_py.test_cabinet_punch_cards import open_lobby


def not_sqlite(path: Path) -> None:
    path.write_bytes(b"PK\x03\x04 this is a zip archive, not a ledger\n" * 40)


def damaged_ledger(path: Path) -> None:
    ledger = Ledger(path, event_seed=1)
    for i, name in enumerate(("Ann", "Bo", "Cy")):
        ledger.register(f"r{i}", name, "ABCD")
    ledger.close()  # the last connection folds the WAL into the file
    db = sqlite3.connect(path)
    (root,) = db.execute("SELECT rootpage FROM sqlite_master WHERE name = 'cards'").fetchone()
    (page,) = db.execute("PRAGMA page_size").fetchone()
    db.close()
    with path.open("r+b") as f:  # random bytes over the root page of the cards table
        f.seek((root - 1) * page)
        f.write(random.Random(root).randbytes(page))


def foreign_sqlite(path: Path) -> None:
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE invoices (id INTEGER PRIMARY KEY, total REAL)")
    db.execute("INSERT INTO invoices(total) VALUES (12.5)")
    db.commit()
    db.close()


DAMAGES: dict[str, Callable[[Path], None]] = {
    "not_sqlite": not_sqlite,
    "damaged": damaged_ledger,
    "foreign": foreign_sqlite,
}


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.mark.parametrize("damage", list(DAMAGES))
def test_a_bad_ledger_file_is_refused_in_words_and_left_as_it_was(tmp_path: Path, damage: str) -> None:
    path = tmp_path / LEDGER_FILE
    DAMAGES[damage](path)
    before = digest(path)
    with pytest.raises(LedgerRefused) as refused:
        Ledger(path)
    assert str(path) in str(refused.value) and (
        "move it aside" in str(refused.value) or "its own" in str(refused.value)
    )
    assert digest(path) == before
    assert sorted(p.name for p in tmp_path.iterdir() if not p.name.endswith(("-wal", "-shm"))) == [LEDGER_FILE]


@pytest.mark.slow
@pytest.mark.parametrize("damage", list(DAMAGES))
def test_the_cabinet_plays_on_beside_a_bad_ledger_file(
    damage: str, config: CabinetConfig, cabinet: Cabinet, sim: SimCabinet
) -> None:
    config.data_dir.mkdir(parents=True, exist_ok=True)
    path = config.data_dir / LEDGER_FILE
    DAMAGES[damage](path)
    before = digest(path)
    run_for(cabinet, sim, 40_000_000)  # every attract title card, Punch Cards' leaderboard among them
    assert isinstance(cabinet.scene, Attract)
    board = link_for(cabinet.ctx).board(sim.clock.now_us())
    assert isinstance(board, str) and str(path) in board
    lobby = open_lobby(cabinet, sim)  # the game opens and says why it cannot record
    run_for(cabinet, sim, 1_000_000)
    assert lobby is cabinet.scene
    assert digest(path) == before
    if damage == "foreign":
        db = sqlite3.connect(path)
        assert [r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")] == ["invoices"]
        db.close()

"""A damaged, non-SQLite or foreign ``punch_cards.sqlite3`` never stops the cabinet and is
never written to (issue 22: each once ended every start in a traceback, and another
application's SQLite file got the ledger's tables added to it).  Unlike the cabinet's own
store, the ledger is not moved aside and replaced: it is the event's record of who holds
which card, so the operator decides (restore it, or move it aside to start afresh)."""

from __future__ import annotations

import hashlib
import logging
import os
import random
import resource
import sqlite3
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from firmware_py.games.punch_cards.ledger import Ledger, LedgerRefused
from firmware_py.games.punch_cards.ledger_link import CANNOT_READ, LEDGER_FILE, link_for
from firmware_py.runtime.cabinet import Cabinet
from firmware_py.runtime.scenes import Attract
from hal.config import CabinetConfig
from hal.sim import SimCabinet
from tests.cabinet_driving import run_for
from tests.faults.test_cli_faults import ROOT
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
    damage: str, config: CabinetConfig, cabinet: Cabinet, sim: SimCabinet, caplog: pytest.LogCaptureFixture
) -> None:
    config.data_dir.mkdir(parents=True, exist_ok=True)
    path = config.data_dir / LEDGER_FILE
    DAMAGES[damage](path)
    before = digest(path)
    caplog.set_level(logging.WARNING, logger="ringside.ledger")
    run_for(cabinet, sim, 40_000_000)  # every attract title card, Punch Cards' leaderboard among them
    assert isinstance(cabinet.scene, Attract)
    board = link_for(cabinet.ctx).board(sim.clock.now_us())
    assert board == CANNOT_READ  # in plain words on the screens; the file and why in the log, once
    told = [r.getMessage() for r in caplog.records if r.name == "ringside.ledger"]
    assert len(told) == 1 and str(path) in told[0], told
    lobby = open_lobby(cabinet, sim)  # the game opens and says why it cannot record
    run_for(cabinet, sim, 1_000_000)
    assert lobby is cabinet.scene
    assert digest(path) == before
    if damage == "foreign":
        db = sqlite3.connect(path)
        assert [r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")] == ["invoices"]
        db.close()


def test_a_sound_ledger_on_a_full_disk_is_said_to_be_on_a_full_disk(tmp_path: Path) -> None:
    """Issue 36: a healthy ledger whose disk refused the first write of its opening was
    called "not a readable Punch Cards ledger (disk I/O error): move it aside to start a
    new one"; an operator following that loses the event's record.  The disk is full
    (here: a file-size limit of 0 bytes, as ``RLIMIT_FSIZE`` sets it for the child that
    opens it), so that is what is said, and the ledger is left where it is."""
    path = tmp_path / LEDGER_FILE
    ledger = Ledger(path, event_seed=1)
    ledger.register("r", "Ann", "ABCD")
    ledger.close()
    before = digest(path)
    opening = (
        "from firmware_py.games.punch_cards.ledger import Ledger\n"
        "try:\n"
        f"    Ledger({str(path)!r})\n"
        "except Exception as e:\n"
        "    print(type(e).__name__, e)\n"
    )
    child = subprocess.run(
        [sys.executable, "-c", opening],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_FSIZE, (0, resource.RLIM_INFINITY)),
        timeout=120,
    )
    said = child.stdout.strip().splitlines()[-1]
    assert said.startswith("LedgerUnreachable") and "the disk is full" in said, (said, child.stderr)
    assert "move it aside" not in said.replace("do not move it aside", ""), said
    assert digest(path) == before
    assert not [p for p in tmp_path.iterdir() if "damaged" in p.name or "aside" in p.name]
    assert Ledger(path).players() == ("Ann",)  # room again: the same ledger, whole

"""A store that stops recording pauses the game and says so; it goes on when the store
records again.  Issue 10, defect 5: a full disk once left a game answering "not recorded,
press again" thousands of times.

In process, a connection that answers every write as SQLite does on a full disk; in a
child cabinet process, a real file-size limit (``RLIMIT_FSIZE``, set and lifted from
outside with ``prlimit``) under the real store, at start and mid-game.
"""

from __future__ import annotations

import json
import logging
import resource
import sqlite3
import sys
import threading

import pytest

from firmware_py.runtime.scenes import Attract, Play
from firmware_py.tools.exhibition import ExhibitionDriver
from tests.faults.harness import drive, journal_length, make_rig
from tests.faults.kill_loop import _integrity_ok, _lost, player
from tests.faults.store_damage import digest, populate

GAMES = ["punch", "karate_fight"]


class FillableDisk:
    """Stands in for a store's connection: while ``full``, every write fails the way
    SQLite fails on a full disk; reads and transaction control pass."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db
        self.full = False
        self.refused = 0

    def _check(self, sql: str) -> None:
        if self.full and sql.lstrip().split(None, 1)[0].upper() in ("INSERT", "UPDATE", "DELETE", "REPLACE"):
            self.refused += 1
            raise sqlite3.OperationalError("database or disk is full")

    def execute(self, sql: str, *args):
        self._check(sql)
        return self.db.execute(sql, *args)

    def executemany(self, sql: str, *args):
        self._check(sql)
        return self.db.executemany(sql, *args)

    def __enter__(self):
        return self.db.__enter__()

    def __exit__(self, *exc):
        return self.db.__exit__(*exc)

    def close(self) -> None:
        self.db.close()


def fillable(rig) -> FillableDisk:
    store = rig.cabinet.ctx.store
    disk = FillableDisk(store.db)
    store.db = disk
    return disk


def player_of(rig, game: str, seed: int = 2) -> ExhibitionDriver:
    return ExhibitionDriver(rig.cabinet, rig.sim, game, seed)


@pytest.mark.slow
@pytest.mark.parametrize("game", GAMES)
def test_a_full_disk_pauses_the_game_and_it_goes_on_when_there_is_room(tmp_path, game: str, caplog) -> None:
    rig = make_rig(tmp_path, 1_000_000)
    disk = fillable(rig)
    driver = player_of(rig, game)
    assert drive(rig, driver, lambda: isinstance(rig.cabinet.scene, Play) and journal_length(rig) >= 6, 60_000_000)
    session = rig.play.session
    caplog.set_level(logging.WARNING, "ringside.session")

    disk.full = True
    assert drive(rig, driver, lambda: session.paused is not None, 30_000_000)
    recorded = journal_length(rig)
    drive(rig, driver, lambda: False, 20_000_000)  # 20 s of a full disk
    assert session.paused is not None and "Store cannot record (database or disk is full)" in session.paused
    assert rig.play.screen(rig.clock.now_us()).paused == session.paused  # on screen
    assert journal_length(rig) == recorded  # nothing decided that was not recorded
    assert session.store_errors == 1  # one refusal, then the game waits
    assert disk.refused <= 1 + 21  # the action, then one probe a second
    assert sum("Store cannot record" in r.getMessage() for r in caplog.records) == 1  # the operator's log

    disk.full = False
    assert drive(rig, driver, lambda: session.paused is None, 3_000_000)
    assert any("records again" in r.getMessage() for r in caplog.records)
    assert drive(rig, driver, lambda: journal_length(rig) >= recorded + 6, 60_000_000)
    db = sqlite3.connect(tmp_path / "ringside.sqlite3")
    (stored,) = db.execute("SELECT COUNT(*) FROM actions WHERE game_id=?", (session.game_id,)).fetchone()
    db.close()
    assert stored == journal_length(rig)
    rig.close()


@pytest.mark.slow
def test_a_game_started_on_a_full_disk_waits_to_be_recorded(tmp_path) -> None:
    rig = make_rig(tmp_path, 1_000_000)
    disk = fillable(rig)
    disk.full = True
    driver = player_of(rig, "punch")
    assert drive(rig, driver, lambda: isinstance(rig.cabinet.scene, Play), 30_000_000)
    session = rig.play.session
    drive(rig, driver, lambda: False, 5_000_000)
    assert session.game_id < 0 and session.paused is not None and journal_length(rig) == 0
    disk.full = False
    assert drive(rig, driver, lambda: journal_length(rig) >= 4, 60_000_000)
    assert session.game_id > 0
    assert rig.cabinet.ctx.store.unfinished().actions == tuple(
        json.loads(json.dumps(a)) for a in session.engine.to_dict()["actions"]
    )
    rig.close()


def test_a_journal_that_conflicts_with_the_store_abandons_its_game(tmp_path) -> None:
    """Another writer put a row where this game's next action goes: the game cannot be
    recorded any more, so it is abandoned (kept), not left refusing every press."""
    rig = make_rig(tmp_path, 1_000_000)
    driver = player_of(rig, "punch")
    assert drive(rig, driver, lambda: isinstance(rig.cabinet.scene, Play) and journal_length(rig) >= 3, 60_000_000)
    session = rig.play.session
    n = journal_length(rig)
    other = sqlite3.connect(tmp_path / "ringside.sqlite3")
    other.execute("INSERT INTO actions VALUES (?, ?, ?)", (session.game_id, n, '{"type": "intruder"}'))
    other.commit()
    assert drive(rig, driver, lambda: isinstance(rig.cabinet.scene, Attract), 60_000_000)
    assert session.failed is not None and f"action {n}" in session.failed
    assert any("abandoned" in line and "conflicts" in line for line in rig.log)
    ended, reason = other.execute("SELECT ended_at, reason FROM games WHERE id=?", (session.game_id,)).fetchone()
    assert ended is not None and reason == f"abandoned: journal conflict at action {n}"
    assert other.execute("SELECT COUNT(*) FROM actions WHERE game_id=?", (session.game_id,)).fetchone() == (n + 1,)
    other.close()
    rig.close()


# -- a real file-size limit under a cabinet process -----------------------------------


def lines_until(proc, want, seen: list[str], timeout_s: float = 120.0) -> str:
    """Read the player's lines into ``seen`` until one satisfies ``want``."""
    timer = threading.Timer(timeout_s, proc.kill)
    timer.start()
    try:
        for line in proc.stdout:
            seen.append(line.rstrip("\n"))
            if want(seen[-1]):
                return seen[-1]
    finally:
        timer.cancel()
    raise AssertionError(f"the player ended first: {seen[-5:]}")


@pytest.mark.slow
@pytest.mark.skipif(not hasattr(resource, "prlimit"), reason="prlimit is Linux only")
def test_a_file_size_limit_mid_game_pauses_then_the_game_goes_on(tmp_path) -> None:
    data = tmp_path / "data"
    errors = (tmp_path / "stderr.txt").open("w")
    proc = player(data, "punch", 4, 1_000_000, errors)
    seen: list[str] = []
    acked = {}

    def ack(line: str) -> bool | None:
        """Note an acknowledged action; None for any other line."""
        if not line.startswith("ack "):
            return None
        _, gid, seq, action = line.split(" ", 3)
        acked[(int(gid), int(seq))] = json.loads(action)
        return True

    try:
        for _ in range(5):
            lines_until(proc, lambda line: ack(line) is True, seen)
        limit = 4096  # every WAL write lands beyond it: EFBIG, as on a full disk
        resource.prlimit(proc.pid, resource.RLIMIT_FSIZE, (limit, resource.RLIM_INFINITY))
        # The player may be an action or two ahead of the limit (acknowledged, then its log
        # line): those are counted above and must be in the store; the first word that is
        # neither says the store stopped recording.
        paused = lines_until(
            proc, lambda line: ack(line) is None and not line.startswith("log ") and line != "running", seen
        )
        assert "Store cannot record" in paused
        at = len(seen)
        resource.prlimit(proc.pid, resource.RLIMIT_FSIZE, (resource.RLIM_INFINITY, resource.RLIM_INFINITY))
        lines_until(proc, lambda line: line == "running", seen)
        assert not [line for line in seen[at:] if line.startswith("ack ")]  # nothing while paused
        for _ in range(5):
            lines_until(proc, lambda line: ack(line) is True, seen)
    finally:
        proc.kill()
        proc.wait()
        errors.close()
    assert "Traceback" not in (tmp_path / "stderr.txt").read_text()
    assert _lost(data / "ringside.sqlite3", acked) == 0
    assert _integrity_ok(data / "ringside.sqlite3")


def _full_from_the_start() -> None:
    resource.setrlimit(resource.RLIMIT_FSIZE, (0, resource.RLIM_INFINITY))


@pytest.mark.slow
@pytest.mark.skipif(sys.platform == "win32", reason="POSIX resource limits")
def test_a_disk_full_at_start_plays_on_unrecorded_and_keeps_the_store(tmp_path) -> None:
    import os
    import subprocess

    data = tmp_path / "data"
    data.mkdir()
    populate(data / "ringside.sqlite3", games=3)
    before = digest(data / "ringside.sqlite3")
    root = os.getcwd()
    proc = subprocess.Popen(
        [sys.executable, "-m", "tests.faults.player", str(data), "punch", "5", "1000000"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=root,
        env={**os.environ, "PYTHONPATH": root, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"},
        preexec_fn=_full_from_the_start,
    )
    seen: list[str] = []
    try:
        lines_until(proc, lambda line: line.startswith("ack "), seen)
    finally:
        proc.kill()
        _out, err = proc.communicate()
    store_lines = [line for line in seen if line.startswith("log STORE:")]
    assert store_lines and "cannot be opened for writing" in store_lines[0], seen
    assert "Traceback" not in err
    assert digest(data / "ringside.sqlite3") == before

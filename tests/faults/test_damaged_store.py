"""A damaged store never stops the cabinet, and nothing in it is ever deleted.

Issue 10, defect 2: each damage below once ended the cabinet's start in a traceback (or,
for a garbage page, ran on silently).  Now a store that cannot be used is moved aside
under a name with the time, the operator is told on the attract screen, in the service
menu and in the log where it is, and the cabinet plays on a fresh store; one unreadable
journal abandons only its game; a read-only data folder plays on unrecorded.
"""

from __future__ import annotations

import json
import sqlite3

import pytest

from firmware_py.runtime.scenes import Attract
from firmware_py.runtime.service_menu import ServiceMenu
from firmware_py.runtime.store import Store, inspect
from tests.faults.harness import journal_length, make_rig, play_a_little
from tests.faults.readonly import read_only
from tests.faults.store_damage import DAMAGES, contents, digest, future_schema, garbage_page, populate


def stored_actions(path, game_id: int) -> int:
    db = sqlite3.connect(path)
    (n,) = db.execute("SELECT COUNT(*) FROM actions WHERE game_id=?", (game_id,)).fetchone()
    db.close()
    return n


@pytest.mark.slow
@pytest.mark.parametrize("damage", list(DAMAGES))
def test_a_damaged_store_is_kept_aside_and_the_cabinet_plays_on_a_fresh_one(tmp_path, damage: str) -> None:
    path = tmp_path / "ringside.sqlite3"
    populate(path)
    DAMAGES[damage](path)
    damaged = digest(path)
    before = contents(tmp_path)
    assert inspect(path) is not None and inspect(path).damaged  # what selftest reports

    rig = make_rig(tmp_path, 1_000_000)

    store = rig.cabinet.ctx.store
    assert store.notice is not None and "kept as ringside.damaged-" in store.notice.headline
    (aside,) = tmp_path.glob("ringside.damaged-*.sqlite3")
    assert digest(aside) == damaged  # kept byte for byte
    assert set(before) <= set(contents(tmp_path))  # nothing deleted
    assert any(str(aside) in line for line in rig.log if line.startswith("STORE:"))
    now = rig.clock.now_us()
    assert isinstance(rig.cabinet.scene, Attract)
    assert rig.cabinet.scene.screen(now).recent[0] == store.notice.headline
    service = ServiceMenu(rig.cabinet.ctx, now, rig.cabinet.scene)
    service.cursor = service.titles.index("Cabinet")
    assert str(aside) in " ".join(service.screen(now).body)

    play_a_little(rig)
    game_id = rig.play.session.game_id
    assert stored_actions(path, game_id) == journal_length(rig)  # recorded on the fresh store
    assert store.integrity_ok()
    rig.close()


def test_a_garbage_page_ran_silently_before_quick_check(tmp_path) -> None:
    """The damage the old start-up missed: the file opens and its games read fine."""
    path = tmp_path / "ringside.sqlite3"
    populate(path)
    garbage_page(path)
    db = sqlite3.connect(path)
    assert db.execute("SELECT COUNT(*) FROM games").fetchone() == (60,)
    try:
        verdict = db.execute("PRAGMA quick_check").fetchone()[0]
    except sqlite3.DatabaseError as e:
        verdict = str(e)
    db.close()
    assert verdict != "ok"


def cut_mid_game(tmp_path):
    """A Punch! game cut short after a few actions; returns its id and journal length."""
    rig = make_rig(tmp_path, 1_000_000)
    play_a_little(rig, actions=6)
    return rig.play.session.game_id, journal_length(rig)


@pytest.mark.slow
@pytest.mark.parametrize("fault", ["invalid JSON", "journal gap"])
def test_one_unreadable_journal_abandons_only_its_game(tmp_path, fault: str) -> None:
    path = tmp_path / "ringside.sqlite3"
    populate(path, games=3)
    game_id, n = cut_mid_game(tmp_path)
    db = sqlite3.connect(path)
    if fault == "invalid JSON":
        db.execute('UPDATE actions SET action=\'{"type": "PlayCa\' WHERE game_id=? AND seq=?', (game_id, n - 1))
    else:
        db.execute("DELETE FROM actions WHERE game_id=? AND seq=2", (game_id,))  # the damage under test
    db.commit()
    db.close()
    rows_before = stored_actions(path, game_id)

    rig = make_rig(tmp_path, 2_000_000)

    assert isinstance(rig.cabinet.scene, Attract)
    assert any(f"Could not resume game #{game_id}" in line for line in rig.log), rig.log
    store = rig.cabinet.ctx.store
    assert store.notice is None and not list(tmp_path.glob("*.damaged-*"))  # the store itself is fine
    ended, reason = store.db.execute("SELECT ended_at, reason FROM games WHERE id=?", (game_id,)).fetchone()
    assert ended is not None and reason.startswith("abandoned: journal unreadable")
    assert stored_actions(path, game_id) == rows_before  # its journal kept as it was
    assert store.games_played() == {"punch": 3}  # the other games untouched
    play_a_little(rig)
    assert rig.play.session.game_id > game_id
    rig.close()


def test_a_read_only_data_folder_plays_on_unrecorded_and_touches_nothing(tmp_path) -> None:
    data = tmp_path / "data"
    data.mkdir()
    populate(data / "ringside.sqlite3", games=3)
    before = contents(data)
    with read_only(data):
        rig = make_rig(data, 1_000_000)
        store = rig.cabinet.ctx.store
        assert store.path is None and store.notice is not None
        assert "NOT recorded" in store.notice.headline
        assert rig.cabinet.scene.screen(rig.clock.now_us()).recent[0] == store.notice.headline
        play_a_little(rig)  # played, recorded in memory only
        rig.close()
    assert contents(data) == before


def test_an_abandon_the_store_refuses_leaves_the_game_for_the_next_start(tmp_path, monkeypatch) -> None:
    store = Store(tmp_path / "x.sqlite3")
    game = store.begin_game("punch", {}, 2, 1, (0, 1))

    def full(*_a, **_k):
        raise sqlite3.OperationalError("database or disk is full")

    monkeypatch.setattr(store, "finish_game", full)
    assert store.abandon_game(game, "no input for 5 minutes") is False
    monkeypatch.undo()
    assert store.unfinished() is not None and store.unfinished().id == game
    store.close()


def test_a_store_from_before_time_bases_is_taken_as_it_is(tmp_path) -> None:
    """Version-1 stores written before the time_bases table: opened, not set aside."""
    path = tmp_path / "ringside.sqlite3"
    populate(path, games=2)
    db = sqlite3.connect(path)
    db.execute("DROP TABLE time_bases")
    db.execute("DROP TABLE probes")
    db.commit()
    db.close()
    store = Store(path)
    assert store.notice is None and store.games_played() == {"punch": 2}
    game = store.begin_game("punch", {}, 2, 1, (0, 1))
    store.note_time_base(game, 0, 5, 5)
    store.append_action(game, 0, {"type": "PlayCard", "player": 0, "card": "block"})
    assert json.loads(store.db.execute("SELECT action FROM actions WHERE game_id=?", (game,)).fetchone()[0])
    store.close()


def test_a_damaged_store_in_a_read_only_folder_is_left_untouched(tmp_path) -> None:
    data = tmp_path / "data"
    data.mkdir()
    populate(data / "ringside.sqlite3", games=3)
    DAMAGES["not a database"](data / "ringside.sqlite3")
    before = contents(data)
    with read_only(data):
        rig = make_rig(data, 1_000_000)
        notice = rig.cabinet.ctx.store.notice
        assert notice is not None and notice.headline.startswith("Store damaged and cannot be moved aside")
        assert "file is not a database" in notice.detail
        play_a_little(rig)
        rig.close()
    assert contents(data) == before


def test_a_store_whose_making_was_cut_short_is_taken_not_set_aside(tmp_path) -> None:
    """Issue 22 (found by SIGTERM during start-up): a process stopped after the tables
    were made but before the schema version was written left a store the next start
    took for another program's file and set aside.  Now both are one transaction, and
    such a store (written by an older version) is taken as it is."""
    from firmware_py.runtime.store import SCHEMA

    path = tmp_path / "ringside.sqlite3"
    db = sqlite3.connect(path)
    db.executescript(SCHEMA)  # the tables, user_version still 0
    db.close()
    assert inspect(path) is None
    store = Store(path)
    assert store.db.execute("PRAGMA user_version").fetchone()[0] > 0
    store.close()
    other = tmp_path / "notes.sqlite3"
    db = sqlite3.connect(other)
    db.executescript(f"CREATE TABLE notes (text TEXT);\n{SCHEMA}")
    db.close()
    assert inspect(other) is not None and "not a Ringside store" in inspect(other).reason  # still refused


def test_a_store_from_a_newer_ringside_is_kept_as_it_is_for_a_rollback(tmp_path) -> None:
    """Issue 36: a store whose schema is newer than this Ringside knows was moved aside as
    damaged, so a rollback to the newer version (or back again) no longer found it.  It is
    sound, only not this version's to read: left where it is, byte for byte, and said so;
    the cabinet plays unrecorded meanwhile."""
    path = tmp_path / "ringside.sqlite3"
    populate(path)
    future_schema(path)
    before = contents(tmp_path)
    problem = inspect(path)
    assert problem is not None and problem.newer and not problem.damaged  # what selftest reports

    rig = make_rig(tmp_path, 1_000_000)

    store = rig.cabinet.ctx.store
    assert store.notice is not None and "newer Ringside" in store.notice.headline
    assert "NOT recorded" in store.notice.headline
    assert not list(tmp_path.glob("ringside.damaged-*"))
    assert before.items() <= contents(tmp_path).items()  # not moved, not written (a read leaves an empty -wal)
    assert any("newer Ringside" in line and "rollback" in line for line in rig.log if line.startswith("STORE:"))
    rig.close()
    assert inspect(path) is not None and inspect(path).newer  # still there for the newer Ringside

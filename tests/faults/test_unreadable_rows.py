"""A row the statistics cannot read is skipped with one log line, never a crash loop.

Issue 22: a finished game's ``computers`` that is not JSON, a ``winner_station`` that is
not a number, a text ``value`` in ``records``: the attract screen's statistics read them
on every start, so each ended the start in a traceback and systemd restarted the cabinet
forever.  Now every row read for the statistics, the attract screen and a result screen
is checked like the journal's rows are; a bad one is left out with one log line (once
per process) and kept in the store as it is.

The generic case: every column of every table of the cabinet's store (read from its
schema, so a new column is covered the day it is added) set to a value of the wrong kind,
one column at a time, then the cabinet started the way ``ringside run`` starts it.
"""

from __future__ import annotations

import logging
import shutil
import sqlite3
from pathlib import Path

import pytest

from firmware_py.runtime.scenes import Attract, Play
from firmware_py.runtime.service_menu import ServiceMenu
from firmware_py.runtime.store import Store, start_of_today
from tests.faults.harness import Rig, make_rig, play_a_little

STORE = "ringside.sqlite3"


def schema_columns() -> list[tuple[str, str, str]]:
    """(table, column, declared type) of every column of the cabinet's store, as a new
    store's schema has them."""
    store = Store(None)
    try:
        tables = [r[0] for r in store.db.execute("SELECT name FROM sqlite_master WHERE type='table' ORDER BY name")]
        return [
            (table, row[1], row[2].upper())
            for table in tables
            for row in store.db.execute(f"PRAGMA table_info({table})")
        ]
    finally:
        store.close()


WRONG = {
    "text": "twelve",
    "not JSON": '{"1": ["hard"',
    "integer": 12,
    "real": 1.5,
    "negative": -3,
    "blob": b"\xff\x00\x7f",
    "NULL": None,
}
"""A value of each wrong kind; those of a column's own kind are left out (:func:`wrong_for`)."""


def wrong_for(declared: str) -> list[str]:
    if declared == "INTEGER":
        return [k for k in WRONG if k not in ("integer",)]
    return [k for k in WRONG if k != "text"]


CASES = [
    pytest.param(table, column, kind, id=f"{table}.{column}={kind}")
    for table, column, declared in schema_columns()
    for kind in wrong_for(declared)
]


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A store as a cabinet leaves it: an unfinished Punch! game cut by a power cut (a
    real journal that resumes), finished games among people and against the computer
    in several games, and their records."""
    data = tmp_path_factory.mktemp("template")
    rig = make_rig(data, 1_000_000)
    play_a_little(rig, actions=6)
    rig.close()  # the unfinished game stays unfinished; closing folds the WAL into the file
    store = Store(data / STORE)
    for n, (game, computers, winner) in enumerate(
        [("punch", None, 0), ("karate_fight", None, 1), ("punch", {1: "hard"}, 1), ("big_time_boxing", None, 0)]
    ):
        game_id = store.begin_game(game, {}, 2, n, (0, 1), computers)
        store.note_time_base(game_id, 0, 5, 5)
        store.commit_action(
            game_id,
            0,
            {"type": "PlayCard", "player": 0, "card": "block"},
            records=[("reaction", 0, 150_000 + n, ""), ("reaction", 1, 160_000 + n, "")],
            finish=(winner, "won 3 matches"),
        )
    store.probe()
    store.close()
    return data / STORE


def started(tmp_path: Path, template: Path, statement: str | None, *values: object) -> Rig:
    """The cabinet started on a copy of ``template`` changed by ``statement``."""
    shutil.copy(template, tmp_path / STORE)
    if statement is not None:
        db = sqlite3.connect(tmp_path / STORE)
        try:
            db.execute(statement, values)
            db.commit()
        finally:
            db.close()
    return make_rig(tmp_path, 2_000_000)


def wrong_column(tmp_path: Path, template: Path, table: str, column: str, value: object) -> Rig:
    """The cabinet started with ``column`` set to ``value`` in every row of ``table`` (in
    its first row where a key must stay unique)."""
    try:
        return started(tmp_path, template, f"UPDATE {table} SET {column}=?", value)
    except sqlite3.IntegrityError as e:
        if "UNIQUE" not in str(e):
            raise
    return started(
        tmp_path, template, f"UPDATE {table} SET {column}=? WHERE rowid=(SELECT MIN(rowid) FROM {table})", value
    )


def read_everything(rig: Rig) -> None:
    """What reads the statistics: the attract screen's title card, the service menu's
    Stats page, a result screen's fastest slaps (ever and today's)."""
    now = rig.clock.now_us()
    Attract(rig.cabinet.ctx, now).screen(now)
    menu = ServiceMenu(rig.cabinet.ctx, now, rig.cabinet.scene)
    menu.cursor = menu.titles.index("Stats")
    menu.screen(now)
    store = rig.cabinet.ctx.store
    store.fastest_records("reaction", 3)
    store.fastest_records("reaction", 3, start_of_today())


def store_lines(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.name == "ringside.store" and r.levelno >= logging.WARNING]


@pytest.mark.parametrize(
    ("statement", "column"),
    [
        (
            "UPDATE games SET computers='{\"1\": [\"hard\"' WHERE computers != '{}' AND ended_at IS NOT NULL",
            "computers",
        ),
        ("UPDATE games SET winner_station='Red' WHERE id=(SELECT MAX(id) FROM games)", "winner_station"),
        ("UPDATE records SET value='fast' WHERE station=1", "value"),
    ],
    ids=["computers not JSON", "winner_station not a number", "records value text"],
)
def test_the_issues_rows_are_skipped_with_one_line(
    tmp_path: Path, template: Path, caplog: pytest.LogCaptureFixture, statement: str, column: str
) -> None:
    caplog.set_level(logging.WARNING, logger="ringside.store")
    rig = started(tmp_path, template, statement)
    read_everything(rig)
    read_everything(rig)  # the next title card: told once, not every time
    lines = store_lines(caplog)
    assert len(lines) == 1, lines
    assert f"{column} is" in lines[0] and "skipped" in lines[0] and "left in the store untouched" in lines[0]
    # The good rows are still shown: the other results, the fastest slap.
    now = rig.clock.now_us()
    recent = Attract(rig.cabinet.ctx, now).screen(now).recent
    assert any(line.startswith("Fastest slap:") for line in recent), recent
    assert sum(" won (" in line for line in recent) == 3, recent
    rig.close()


def test_a_bad_row_against_the_computer_is_skipped_not_ranked(tmp_path: Path, template: Path) -> None:
    """The skip never lets a row in: a record against the computer stays out of the fastest."""
    rig = started(
        tmp_path, template, "UPDATE records SET value=1 WHERE game_id IN (SELECT id FROM games WHERE computers != '{}')"
    )
    assert all(v > 1 for _s, v, _at in rig.cabinet.ctx.store.fastest("reaction"))
    rig.close()


@pytest.mark.parametrize(("table", "column", "kind"), CASES)
def test_every_column_of_the_wrong_kind_still_starts_the_cabinet(
    tmp_path: Path, template: Path, caplog: pytest.LogCaptureFixture, table: str, column: str, kind: str
) -> None:
    caplog.set_level(logging.WARNING, logger="ringside.store")
    try:
        rig = wrong_column(tmp_path, template, table, column, WRONG[kind])
    except sqlite3.IntegrityError as e:
        # NOT NULL, CHECK, a typed primary key: the store's own schema keeps this value
        # out, so no start can ever meet it; that refusal is what is checked here.
        assert any(words in str(e) for words in ("NOT NULL", "CHECK", "datatype mismatch")), e
        return
    assert isinstance(rig.cabinet.scene, Attract | Play)
    read_everything(rig)
    first = store_lines(caplog)
    read_everything(rig)
    assert store_lines(caplog) == first  # nothing told twice
    for line in first:
        assert f"{table} row" in line and f"{column} is" in line, line
    resumed = [line for line in rig.log if line.startswith("Could not resume")]
    assert len(resumed) <= 1, rig.log
    rig.close()


@pytest.mark.slow
def test_ringside_run_on_the_issues_rows_plays_instead_of_crash_looping(tmp_path: Path, template: Path) -> None:
    """The whole start-up, as systemd runs it: each of these ended in a traceback, exit 1."""
    import signal

    from tests.faults.test_signals import start, stopped, wait_for_line

    shutil.copy(template, tmp_path / STORE)
    db = sqlite3.connect(tmp_path / STORE)
    db.execute("UPDATE games SET ended_at=started_at, reason='abandoned: test' WHERE ended_at IS NULL")  # no resume
    db.execute("UPDATE games SET computers='{\"1\": [' WHERE computers != '{}'")
    db.execute("UPDATE games SET winner_station='Red' WHERE id=(SELECT MAX(id) FROM games)")
    db.execute("UPDATE records SET value='fast'")
    db.commit()
    db.close()
    proc = start(tmp_path)
    seen = wait_for_line(proc, " chose ")  # past the title card: it plays
    assert seen and " chose " in seen[-1], "".join(seen)
    log = stopped(proc, seen, signal.SIGTERM)
    skipped = [line for line in log.splitlines() if "skipped in the statistics" in line]
    assert any("computers is" in line for line in skipped), log
    assert any("winner_station is" in line for line in skipped), log
    assert any("value is" in line for line in skipped), log

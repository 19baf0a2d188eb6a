"""A value of the Punch Cards ledger that the ledger never writes is a ledger error with one
log line and a plain sentence on the Punch Cards screens; the cabinet plays on.

Issue 36: 6 of 14 damaged shapes of ``punch_cards.sqlite3`` stopped the cabinet on every
start, about 1.4 s in ("unexpected error; the cabinet stops", exit 1, 3 of 3 restarts):
the attract screen's leaderboard caught only ledger errors, and the ``ValueError``,
``TypeError`` or ``KeyError`` of a bad value reached the main loop.  The headless
exhibition never opens the ledger, so these tests drive the screens a window run shows:
the attract screen's leaderboard, the lobby (sign-in, cards, a challenge, the closing
time) and the operator's Punch Cards pages (duels to void, the standings).

The generic case: every column of every table of the ledger (read from its schema, so a
new column is covered the day it is added) and every ``meta`` row, set to a value of each
wrong kind, one at a time.
"""

from __future__ import annotations

import logging
import os
import signal
import sqlite3
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from display.games.punch_cards.models import DeskStep
from display.models import AttractBoard, AttractScreen
from firmware_py.games.punch_cards.keyboard import pin_presses, presses_for
from firmware_py.games.punch_cards.ledger import Ledger
from firmware_py.games.punch_cards.ledger_link import LEDGER_FILE, link_for
from firmware_py.games.punch_cards.lobby import Lobby
from firmware_py.runtime.background import settle
from firmware_py.runtime.cabinet import Cabinet
from firmware_py.runtime.scenes import Attract, Play
from hal.config import CabinetConfig
from hal.events import Button
from hal.sim import SimCabinet
from tests.cabinet_driving import run_for, start_game
from tests.faults.ledger_damage import META_ROWS, PLAYERS, changed, columns, make_template
from tests.faults.test_cli_faults import ROOT
from tests.faults.test_signals import Log, ended
from tests.firmware_py.test_cabinet_punch_cards import open_lobby, service_page, service_page_from_menu, tap, taps

LEDGER_LOG = "ringside.ledger"


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_template(tmp_path_factory.mktemp("ledger") / LEDGER_FILE)


def damaged(config: CabinetConfig, template: Path, statement: str, *values: object) -> Path:
    """The cabinet's own ledger file (the data folder's default) made from ``template``."""
    config.data_dir.mkdir(parents=True, exist_ok=True)
    path = config.data_dir / LEDGER_FILE
    changed(template, path, statement, *values)
    return path


def leaderboard(cabinet: Cabinet, sim: SimCabinet) -> AttractBoard | None:
    """The attract screen's Punch Cards board, read as the attract scene reads it (the
    background read asked for, answered, then shown)."""
    now = sim.clock.now_us()
    Attract(cabinet.ctx, now).screen(now)
    settle()
    screen = Attract(cabinet.ctx, now).screen(now)
    assert isinstance(screen, AttractScreen)
    return screen.board


def window_path(cabinet: Cabinet, sim: SimCabinet) -> list[str]:
    """Everything a window run reads from the ledger, through its scenes: the attract
    screen's leaderboard, the lobby (Ann and Bob sign in, Ann challenges Bob), the
    operator's pages (duels to void, the standings written out).  Returns what the
    Punch Cards screens said along the way."""
    said: list[str] = []
    board = leaderboard(cabinet, sim)
    if board is not None:
        said.append(board.note)
    lobby = open_lobby(cabinet, sim)
    for station, (name, pin) in enumerate(PLAYERS[:2]):
        signed_in(cabinet, sim, station, name, pin)
        said.append(lobby.desks[station].message)
    said.append(lobby.screen(sim.clock.now_us()).view.status)
    if lobby.desks[0].signed_in and lobby.desks[1].signed_in:
        tap(cabinet, sim, 0, Button.A)  # the challenge reads both collections and the duels so far
        if cabinet.scene is lobby:
            said.append(lobby.desks[0].message)
    page = service_page(cabinet, sim, "Void a duel")
    said.append(" / ".join(page.screen(sim.clock.now_us()).body))
    tap(cabinet, sim, 0, Button.E)
    page = service_page_from_menu(cabinet, sim, "Standings")
    tap(cabinet, sim, 0, Button.START)
    said.append(" / ".join(page.screen(sim.clock.now_us()).body))
    return said


def signed_in(cabinet: Cabinet, sim: SimCabinet, station: int, name: str, pin: str) -> None:
    """``name`` signs in at ``station``'s desk of the lobby, as a player does."""
    lobby = cabinet.scene
    assert isinstance(lobby, Lobby)
    desk = lobby.desks[station]
    if desk.step is DeskStep.IDLE:
        tap(cabinet, sim, station, Button.START)
    taps(cabinet, sim, station, presses_for(name))
    if desk.step is DeskStep.PIN:  # else the look-up failed, and the desk says why
        taps(cabinet, sim, station, pin_presses(pin))


def ledger_lines(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.name == LEDGER_LOG and r.levelno >= logging.WARNING]


# -- the issue's six shapes -----------------------------------------------------------------
SHAPES = {
    "schema 'abc'": ("UPDATE meta SET value = 'abc' WHERE key = 'schema'", "meta row 'schema'"),
    "schema ''": ("UPDATE meta SET value = '' WHERE key = 'schema'", "meta row 'schema'"),
    "event_seed text": ("UPDATE meta SET value = 'seed' WHERE key = 'event_seed'", "meta row 'event_seed'"),
    "event_seed missing": ("DELETE FROM meta WHERE key = 'event_seed'", "meta row 'event_seed'"),
    "a name as a blob": ("UPDATE players SET name = CAST(name AS BLOB) WHERE id = 2", "players.name"),
    "a holder as text": ("UPDATE cards SET holder = 'Bob' WHERE serial = 7", "cards.holder"),
}


@pytest.mark.parametrize("shape", list(SHAPES))
def test_the_issues_damaged_ledgers_are_told_and_the_cabinet_plays_on(
    shape: str, config: CabinetConfig, cabinet: Cabinet, sim: SimCabinet, template: Path, caplog
) -> None:
    caplog.set_level(logging.WARNING, logger=LEDGER_LOG)
    statement, where = SHAPES[shape]
    path = damaged(config, template, statement)
    before = path.read_bytes()
    board = leaderboard(cabinet, sim)  # once a ValueError, TypeError or KeyError: exit 1
    from firmware_py.games.punch_cards.ledger_link import CANNOT_READ, headline

    assert board is not None and board.note == headline(CANNOT_READ), board
    lines = ledger_lines(caplog)
    assert len(lines) == 1 and where in lines[0] and "left as it is" in lines[0], lines
    lobby = open_lobby(cabinet, sim)
    signed_in(cabinet, sim, 0, "Bob", "FEED")  # the player whose row or card is damaged
    desk = lobby.desks[0]
    assert desk.signed_in or (desk.message.startswith(CANNOT_READ) and desk.bad), desk.message
    if where.startswith("meta"):  # the ledger cannot open: the lobby's title bar says so
        assert lobby.screen(sim.clock.now_us()).view.status == headline(CANNOT_READ)
    assert ledger_lines(caplog) == lines  # told once, however often it is read
    cabinet.scene = Attract(cabinet.ctx, sim.clock.now_us())  # the same cabinet: another game plays
    run_for(cabinet, sim, 1_000_000)
    assert isinstance(start_game(cabinet, sim, "punch"), Play)
    run_for(cabinet, sim, 2_000_000)
    assert isinstance(cabinet.scene, Play)
    assert path.read_bytes() == before  # left as it was, for the operator


# -- every column and meta row, each value of each wrong kind --------------------------------
WRONG: dict[str, object] = {
    "text": "twelve",
    "empty text": "",
    "number": 12,
    "real": 1.5,
    "negative": -3,
    "blob": b"\xff\x00\x7f",
    "NULL": None,
}


def wrong_for(declared: str) -> list[str]:
    if declared in ("INTEGER", "BIGINT"):
        return [k for k in WRONG if k not in ("number", "negative")]
    return [k for k in WRONG if k not in ("text",)]


SOAK = bool(os.environ.get("RINGSIDE_SOAK"))
"""``make soak`` (RINGSIDE_SOAK=1): every column with every wrong kind (215 cases, minutes);
``make test``: every column with one wrong kind, taken in turn so that every kind is met
across the columns, and every meta row with every kind (about a quarter of the cases)."""


def _cases() -> list[object]:
    with tempfile.TemporaryDirectory() as folder:  # the schema only: a new, empty ledger (one per process)
        path = Path(folder) / LEDGER_FILE
        Ledger(path, event_seed=1).close()
        found = [(t, c, declared) for t, c, declared in columns(path) if t != "meta"]
    cases = [
        pytest.param(f"UPDATE {t} SET {c} = ?", WRONG[k], id=f"{t}.{c}={k}")
        for i, (t, c, declared) in enumerate(found)
        for k in (wrong_for(declared) if SOAK else [wrong_for(declared)[i % len(wrong_for(declared))]])
    ]
    cases += [
        pytest.param(f"UPDATE meta SET value = ? WHERE key = '{row}'", WRONG[k], id=f"meta.{row}={k}")
        for row in META_ROWS
        for k in wrong_for("TEXT") + ["text"]
    ]
    cases += [
        pytest.param(f"DELETE FROM meta WHERE key = '{row}'", None, id=f"meta.{row} missing") for row in META_ROWS
    ]
    return cases


@pytest.mark.soak
@pytest.mark.parametrize(("statement", "value"), _cases())
def test_every_value_of_the_wrong_kind_is_a_ledger_error_on_the_window_path(
    statement: str, value: object, config: CabinetConfig, cabinet: Cabinet, sim: SimCabinet, template: Path, caplog
) -> None:
    caplog.set_level(logging.WARNING, logger=LEDGER_LOG)
    try:
        damaged(config, template, statement, *([] if statement.startswith("DELETE") else [value]))
    except sqlite3.IntegrityError as e:
        # NOT NULL, CHECK, UNIQUE, a typed primary key: the ledger's own schema keeps this
        # value out, so no start can ever meet it; that refusal is what is checked here.
        assert any(w in str(e) for w in ("NOT NULL", "CHECK", "UNIQUE", "datatype mismatch")), e
        return
    said = window_path(cabinet, sim)  # raises what once stopped the cabinet
    lines = ledger_lines(caplog)
    assert len(lines) == len(set(lines)), lines  # each damage told once
    for line in lines:
        assert "left as it is" in line, line
    assert all("Traceback" not in s and "Error" not in s for s in said), said
    link_for(cabinet.ctx).close()


@pytest.mark.slow
@pytest.mark.parametrize("shape", list(SHAPES))
def test_ringside_run_with_a_window_tells_the_damage_and_plays_on(shape: str, tmp_path: Path, template: Path) -> None:
    """The whole start-up as a window run makes it (``ringside run --window`` on SDL's
    dummy drivers): each of these once ended about 1.4 s in with "unexpected error; the
    cabinet stops", exit 1, on every restart."""
    data = tmp_path / "data"
    data.mkdir()
    changed(template, data / LEDGER_FILE, SHAPES[shape][0])
    env = {**os.environ, "PYTHONPATH": str(ROOT), "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
    env.pop("DISPLAY", None)
    command = [sys.executable, "-m", "firmware_py.tools.cli", "run", "--window", "--data", str(data)]
    proc = subprocess.Popen(command, stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True, cwd=ROOT, env=env)
    with ended(proc):
        log = Log(proc)
        told = log.wait_for("Punch Cards ledger")
        log.wait_for("ready: attract screen shown")
        assert SHAPES[shape][1] in log.lines[told]
        assert proc.poll() is None  # still running after the leaderboard's read
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=60)
    text = log.text()
    assert proc.returncode == 0, (proc.returncode, text)
    assert "unexpected error" not in text and "Traceback" not in text, text

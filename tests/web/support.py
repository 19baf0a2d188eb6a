"""Ledgers for the web tests (no tests here): players, duels, and names no cabinet would
accept, planted in the file as a ledger written by something else could hold them."""

from __future__ import annotations

import socket
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from firmware_py.games.punch_cards.ledger import Ledger
from tests.firmware_py.ledger.conftest import FAST_PINS, SEED
from tests.firmware_py.ledger.support import decided_duel

PLAYERS = ("Ann", "Bob", "Carla", "Dmitri Ivanov", "Eve")
HOSTILE = (
    "<script>alert('x')</script>",
    "\u202eevil\u202c 99 points",
    "<img src=x onerror=alert(1)>" + "A" * 10_000,
)
"""HTML, a right-to-left override, 10,000 characters."""


def new_ledger(url: str | Path, players: tuple[str, ...] = PLAYERS) -> Ledger:
    ledger = Ledger(url, event_seed=SEED, pin_hasher=FAST_PINS, cabinet="cabinet-1")
    for i, name in enumerate(players):
        ledger.register(f"register-{i}", name, "ABCD")
    return ledger


def duel(ledger: Ledger, key: str, challenger: str, challenged: str, winner: int = 0) -> int:
    """Records a duel ``winner`` (a seat) wins; returns the card that moved."""
    found = decided_duel(ledger.duel_options(challenger, challenged), winner)
    assert found is not None
    return ledger.record_duel(key, challenger, challenged, found).moves[0].card


def plant_hostile_names(path: Path, names: tuple[str, ...] = HOSTILE) -> None:
    """Renames the last registered players to ``names`` behind the ledger's back (its own
    registration refuses them)."""
    with sqlite3.connect(path) as db:
        ids = [row[0] for row in db.execute("SELECT id FROM players ORDER BY id DESC LIMIT ?", (len(names),))]
        for player, name in zip(ids, names):
            db.execute("UPDATE players SET name = ?, name_key = ? WHERE id = ?", (name, name.casefold(), player))


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def config_for(folder: Path, ledger_url: str) -> Path:
    """A cabinet config (the shipped one) naming ``ledger_url`` as the Punch Cards ledger."""
    config = folder / "cabinet.toml"
    template = (Path(__file__).resolve().parents[2] / "deploy/cabinet.toml").read_text(encoding="utf-8")
    config.write_text(f'{template}\n[game.punch_cards]\nledger = "{ledger_url}"\n', encoding="utf-8")
    return config


class WebServer:
    """``ringside web`` in a process of its own, on loopback, over the ledger in ``data``
    (or the one ``--config`` names, given in ``extra``)."""

    def __init__(self, data: Path, port: int | None = None, *extra: str) -> None:
        self.data = data
        self.port = port or free_port()
        self.extra = extra
        self.process: subprocess.Popen[bytes] | None = None
        self.log = data / "web.log"

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self, timeout_s: float = 60.0) -> None:
        with self.log.open("ab") as log:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "firmware_py.tools.cli", "web", "--data", str(self.data), "--host", "127.0.0.1"]
                + ["--port", str(self.port), *self.extra],
                stdout=log,
                stderr=subprocess.STDOUT,
            )
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            assert self.process.poll() is None, self.log.read_text()
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=1):
                    return
            except OSError:
                time.sleep(0.1)
        raise AssertionError(f"ringside web did not listen within {timeout_s} s: {self.log.read_text()}")

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.process = None


@contextmanager
def serving(ledger: Ledger, server: WebServer) -> Iterator[tuple[Ledger, WebServer]]:
    """``server`` running while the block runs; then stopped, and ``ledger`` closed."""
    server.start()
    try:
        yield ledger, server
    finally:
        server.stop()
        ledger.close()

"""Cabinets killed hard (SIGKILL) in the middle of recording duels lose no acknowledged
duel, and the ledger passes its integrity check; several cabinet processes fighting over
the same cards at once leave it exact."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from firmware_py.games.punch_cards.ledger import Ledger
from tests.firmware_py.ledger.conftest import FAST_PINS, SEED, StoreFactory

pytestmark = pytest.mark.slow
"""Every test here takes more than a moment: ``make check`` leaves them to ``make test``."""

ROOT = Path(__file__).resolve().parents[3]
SOAK = bool(os.environ.get("RINGSIDE_SOAK"))


def writer(url: str, prefix: str, count: int, seed: int) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "tests.firmware_py.ledger.cabinet_writer", url, prefix, str(count), str(seed)],
        stdout=subprocess.PIPE,
        text=True,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT), "PYGAME_HIDE_SUPPORT_PROMPT": "1"},  # stdout: the protocol only
    )


def event(url: str, players: int) -> None:
    ledger = Ledger(url, event_seed=SEED, pin_hasher=FAST_PINS)
    for i in range(players):
        ledger.register(f"reg-{i}", f"Player {i}", "ABCD")
    ledger.close()


def recorded_keys(ledger: Ledger) -> set[str]:
    rows = ledger.backend.run(lambda tx: tx.rows("SELECT idem_key FROM entries WHERE kind = 'duel'"), write=False)
    return {k for (k,) in rows}


def kill_loop(url: str, kills: int, seed: int) -> None:
    event(url, players=8)
    rng = random.Random(seed)
    acknowledged: set[str] = set()
    for round_ in range(kills):
        proc = writer(url, f"w{round_}", 10_000, rng.randrange(1 << 30))
        assert proc.stdout is not None
        wanted = rng.randint(1, 6)
        for seen, line in enumerate(proc.stdout, start=1):
            status, key = line.split()
            if status == "ok":
                acknowledged.add(key)
            if seen >= wanted:
                break
        time.sleep(rng.uniform(0, 0.02))  # land the kill anywhere in the next duel
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        proc.stdout.close()
    ledger = Ledger(url, pin_hasher=FAST_PINS)
    try:
        assert acknowledged <= recorded_keys(ledger)
        assert ledger.check() == []
        assert sum(s.cards for s in ledger.standings()) == 8 * 5
    finally:
        ledger.close()


def test_sigkill_during_duels_loses_no_acknowledged_duel(new_url: StoreFactory) -> None:
    kill_loop(new_url(), kills=3, seed=1)


@pytest.mark.soak
def test_a_long_sigkill_loop_loses_no_acknowledged_duel(new_url: StoreFactory) -> None:
    """``make test``: 15 kills per store; ``make soak`` (RINGSIDE_SOAK=1): 300."""
    kill_loop(new_url(), kills=300 if SOAK else 15, seed=2)


@pytest.mark.parametrize("cabinets", [4])
def test_cabinets_fighting_over_the_same_cards_leave_the_ledger_exact(new_url: StoreFactory, cabinets: int) -> None:
    url = new_url()
    event(url, players=4)  # 20 cards among 4 players: every duel fights over someone's few cards
    procs = [writer(url, f"cab{i}", 12, 100 + i) for i in range(cabinets)]
    acknowledged, stale = set(), set()
    for proc in procs:
        out, _ = proc.communicate(timeout=300)
        assert proc.returncode == 0
        for line in out.splitlines():
            status, key = line.split()
            (acknowledged if status == "ok" else stale).add(key)
    ledger = Ledger(url, pin_hasher=FAST_PINS)
    try:
        assert recorded_keys(ledger) == acknowledged  # every acknowledged duel, and only those
        assert not stale & recorded_keys(ledger)
        assert ledger.check() == []  # moves replay to the holders; every duel replays
        assert sum(s.cards for s in ledger.standings()) == 20
    finally:
        ledger.close()

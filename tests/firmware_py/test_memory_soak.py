"""Memory stays flat over a long soak (issue 10, defect 7): one process plays exhibition
games back to back, and its resident memory grows by at most 5 MB once every game has
been played twice.

Bounded in ``make test`` (12 games: three rounds of the four); ``make soak``
(RINGSIDE_SOAK=1) plays 100.  The baseline is taken after two rounds: the first game of a
kind loads its code, fonts, screens and cached text (2–6 MB each) and the second fills
its computer players' bounded caches, which is warm-up, not creep."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from firmware_py.runtime.cabinet import Cabinet
from firmware_py.runtime.scenes import Attract
from hal.sim import SimPin

ROOT = Path(__file__).resolve().parents[2]
SOAK = bool(os.environ.get("RINGSIDE_SOAK"))
GROWTH_KB = 5 * 1024


@pytest.mark.soak
def test_games_in_one_process_keep_memory_flat() -> None:
    games = 100 if SOAK else 12
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
    result = subprocess.run(
        [sys.executable, "-m", "tests.firmware_py.memory_soak", "--games", str(games)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
        timeout=60 * games,
    )
    assert result.returncode == 0, result.stderr
    played = [json.loads(line) for line in result.stdout.splitlines() if line.startswith("{")]
    assert len(played) == games and all(g["finished"] for g in played)
    kinds = len({g["game"] for g in played})  # the soak takes every registered game in turn
    rss = [g["rss_kb"] for g in played]
    # Two rounds warm every game up: fonts and screens on its first game, and the bounded
    # caches of its computer players (Big Time Boxing's bot keeps 3 × 512 entries, about
    # three fights' worth); creep is what grows after that.
    baseline = rss[2 * kinds - 1]
    growth = max(rss[2 * kinds :]) - baseline
    figures = ", ".join(f"{i + 1}: {kb / 1024:.1f}" for i, kb in enumerate(rss))
    assert growth <= GROWTH_KB, f"RSS grew {growth / 1024:.1f} MB after the first games (MB after each game: {figures})"


@pytest.mark.slow
def test_an_idle_cabinet_does_not_pile_up_mock_pin_history(cabinet: Cabinet, sim, clock) -> None:
    """The attract screen's LED chase changes a segment every 100 ms on every station:
    gpiozero's mock pins kept each change forever (~10 MB an hour in the idle
    development window)."""
    pins = [p for f in sim.factories.values() for p in f.pins.values()]
    for _ in range(6_000):  # ten minutes of attract
        clock.advance(100_000)
        cabinet.step(clock.now_us())
    assert isinstance(cabinet.scene, Attract)
    assert sum(1 for p in pins if len(p.states) == SimPin.HISTORY) >= 20  # every LED segment lit and dimmed often
    assert max(len(p.states) for p in pins) == SimPin.HISTORY


FREED_BLOCK = """
import sys
from firmware_py.process.memory import return_large_blocks
from tests.firmware_py.memory_soak import rss_kb

if sys.argv[1] == "pinned":
    assert return_large_blocks()
block = bytearray(8 << 20)  # a large block, freed: glibc raises its threshold past it
del block
before = rss_kb()
block = bytearray(8 << 20)  # the same size again, written, then freed
del block
print(rss_kb() - before)
"""


def test_a_freed_large_block_goes_back_to_the_system() -> None:
    """What ``ringside run`` sets up: a long-running process keeps no large freed block."""

    def kept_kb(mode: str) -> int:
        result = subprocess.run(
            [sys.executable, "-c", FREED_BLOCK, mode], capture_output=True, text=True, cwd=ROOT, timeout=60
        )
        assert result.returncode == 0, result.stderr
        return int(result.stdout)

    assert kept_kb("glibc-default") >= 6 * 1024  # the second block came from the heap and stayed
    assert kept_kb("pinned") <= 1024

"""Memory over a long soak (issue 10, defect 7; issue 22): one process plays exhibition
games back to back, and its resident memory is measured from the end of the first game.

Bounded in ``make test`` (12 games: three rounds of the four); ``make soak``
(RINGSIDE_SOAK=1) plays 100.

The goal, ≤ 5 MB over 100 games from the first game, is NOT met (BENCHMARKS.md, "Crash
loops, signals, the link and memory"): 100 games grew 19.0 MB from the first game (68.3
to 87.3 MB), 8.1 MB of it after two rounds of the four games, then flat (1.2 MB over the
last 50).  Why: the first play of each other game loads its code and screens (+9 MB
over games 2-4), and every text size drawn for the first time is a FreeType face of its
own (~180 KB with its rendered glyphs), kept by ``display.theme.font``'s cache (up to
192): a card's text is fitted at any whole size (``display.cards.fitting_size``), so new
sizes keep coming for dozens of games (54 faces after the first game, ~100 after 18).
Drawing from a ladder of ~30 sizes (one face each) measured 8.4 MB from the first game
and 1.5 MB after two rounds over 21 games; it changes how text is drawn (the HIL golden
screenshots), so it is left to the display's owners.

What is asserted is what holds, so that a leak still fails: growth from the first game
within :data:`FROM_FIRST_GAME_KB`, and over a full soak, nothing more once the caches
are full: the last half of the games within :data:`PLATEAU_KB`."""

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
FROM_FIRST_GAME_KB = 22 * 1024
"""Measured 19.0 MB over 100 games, 12.4 MB over 12: the first plays of the other games
and the font faces (see above), not the 5 MB goal."""
PLATEAU_KB = 2 * 1024
"""Over the last half of a full soak (measured 1.2 MB over games 50-100)."""


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
    rss = [g["rss_kb"] for g in played]
    figures = ", ".join(f"{i + 1}: {kb / 1024:.1f} ({g['faces']} faces)" for i, (kb, g) in enumerate(zip(rss, played)))
    growth = max(rss[1:]) - rss[0]  # from the end of the first game
    assert growth <= FROM_FIRST_GAME_KB, (
        f"RSS grew {growth / 1024:.1f} MB from the first game (MB after each: {figures})"
    )
    if games >= 48:
        half = games // 2
        plateau = max(rss[half:]) - rss[half - 1]
        assert plateau <= PLATEAU_KB, (
            f"RSS still grew {plateau / 1024:.1f} MB over the last {games - half} games ({figures})"
        )


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

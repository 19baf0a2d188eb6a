"""``kill -9`` at random moments, for every game, with restarts on a lower clock.

Issue 10: 0 acknowledged actions lost, every resumed game playable (it acknowledges new
actions), the store's integrity_check clean after every kill, never a traceback.  A few
kills per game in ``make check``; ``make test`` runs 10 per game, ``make soak``
(RINGSIDE_SOAK=1) at least 200 per game and writes the figures to out/faults/.
"""

from __future__ import annotations

import json
import os
from dataclasses import asdict

import pytest

from tests.conftest import ARTIFACTS
from tests.faults.kill_loop import kill_loop

pytestmark = pytest.mark.slow
"""Every test here takes more than a moment: ``make check`` leaves them to ``make test``."""

GAMES = ["punch", "karate_fight"]
SOAK = bool(os.environ.get("RINGSIDE_SOAK"))


@pytest.mark.parametrize("game", GAMES)
def test_kill_9_loses_nothing_and_every_resume_plays_on(tmp_path, game: str) -> None:
    figures = kill_loop(tmp_path / "data", game, kills=3, seed=3)
    assert figures.clean(), figures
    assert figures.resumes == figures.lower_clock_resumes == 2  # both restarts: a reboot mid-game
    assert figures.acknowledged >= 3


@pytest.mark.soak
@pytest.mark.parametrize("game", GAMES)
def test_kill_9_soak(tmp_path, game: str) -> None:
    kills = 200 if SOAK else 10
    figures = kill_loop(tmp_path / "data", game, kills=kills, seed=7)
    out = ARTIFACTS.parent / "faults"
    out.mkdir(parents=True, exist_ok=True)
    (out / f"kill_loop-{game}-{kills}.json").write_text(json.dumps(asdict(figures), indent=1))
    assert figures.clean(), figures
    assert figures.kills == kills and figures.resumes >= kills // 2
    assert figures.lower_clock_resumes >= figures.resumes // 3

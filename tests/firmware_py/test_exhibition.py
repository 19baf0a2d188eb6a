"""The headless exhibition (`make run` without a screen) plays a whole Punch! game
through the full stack and leaves screenshots and a finished game in the store."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from firmware_py.runtime.cabinet import Cabinet
from firmware_py.tools.exhibition import run_exhibition
from games.punch import Punch

pytestmark = pytest.mark.slow
"""Every test here takes more than a moment: ``make check`` leaves them to ``make test``."""


def test_whole_game_between_computer_players(config, sim, clock, store, tmp_path) -> None:
    lines: list[str] = []
    cabinet = Cabinet(config, sim, clock, store, log=lines.append, seed=5)
    shots = tmp_path / "shots"
    assert run_exhibition(cabinet, sim, clock, "punch", seed=5, shots_dir=shots, fps=10)
    assert store.games_played() == {"punch": 1}
    names = sorted(p.name for p in shots.glob("*.png"))
    assert any("attract" in n for n in names) and any("result" in n for n in names)
    assert any("play-cardsrevealed" in n for n in names)
    assert any("WINS THE GAME" in line for line in lines)
    # The journal in the store replays to the same winner the cabinet announced.
    (game_id,) = [row[0] for row in store.db.execute("SELECT id FROM games")]
    actions = [
        json.loads(a)
        for (a,) in store.db.execute("SELECT action FROM actions WHERE game_id=? ORDER BY seq", (game_id,))
    ]
    row = store.db.execute("SELECT options, seed, winner_station FROM games").fetchone()
    engine = Punch.from_dict(
        {"game": "punch", "options": json.loads(row[0]), "players": 2, "seed": row[1], "actions": actions}
    )
    assert engine.outcome().winner == row[2]


def test_bad_config_stops_with_the_key_named(tmp_path) -> None:
    bad = tmp_path / "cabinet.toml"
    bad.write_text("[cabinet]\nname = 'x'\n[display]\nwidth = 5\n")
    result = subprocess.run(
        [sys.executable, "-m", "firmware_py.tools.cli", "run", "--config", str(bad), "--headless"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 2
    assert "display.width = 5: expected an integer from 320 to 7680" in result.stderr

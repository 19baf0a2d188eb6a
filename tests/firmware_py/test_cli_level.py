"""``ringside run --level``: the level of the computer players, for an operator or a
test engineer: every player of a headless exhibition plays at it, and the join screen
first offers it to a lone player.  An unknown level is one line naming the levels."""

from __future__ import annotations

import pytest

import firmware_py.tools.exhibition as exhibition
from firmware_py.process.exit_codes import EXIT_BAD_INPUT, EXIT_OK
from firmware_py.runtime.cabinet import Cabinet
from firmware_py.runtime.scenes import Join, Play
from firmware_py.runtime.virtual_time import VirtualTimeDriver
from firmware_py.tools.cli import main
from firmware_py.tools.exhibition import ExhibitionDriver
from games.levels import Level
from hal.events import Button
from tests.cabinet_driving import press


def test_an_unknown_level_is_one_line_naming_the_levels(capsys) -> None:
    assert main(["run", "--headless", "--level", "legendary"]) == EXIT_BAD_INPUT
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and " ERROR " in err  # one log line, no traceback
    assert err.endswith("ringside run --level: unknown level 'legendary': choose one of easy, normal, hard, expert\n")


@pytest.mark.parametrize(("given", "level"), [(["--level", "EXPERT"], Level.EXPERT), ([], Level.NORMAL)])
def test_the_headless_exhibition_plays_at_the_level_given(tmp_path, monkeypatch, given, level: Level) -> None:
    seen: dict[str, object] = {}

    def exhibition_run(cabinet: Cabinet, *_args: object, level: Level, **_kw: object) -> bool:
        seen["level"], seen["join"] = level, cabinet.ctx.computer_level
        return True

    monkeypatch.setattr(exhibition, "run_exhibition", exhibition_run)
    args = ["run", "--headless", "--data", str(tmp_path / "d"), "--game", "punch", "--seed", "3", *given]
    assert main(["--log-level", "error", *args]) == EXIT_OK
    assert seen == {"level": level, "join": level}


def test_the_exhibitions_players_are_of_its_level(cabinet: Cabinet, sim, clock) -> None:
    driver = ExhibitionDriver(cabinet, sim, "punch", 1, Level.HARD)
    assert VirtualTimeDriver.at_fps(cabinet, 10).run_until(
        clock.now_us() + 60_000_000,
        after_step=lambda t, is_frame: driver.act(t) if is_frame else None,
        after=lambda _t, _f: driver.players is not None,
    )
    players = driver.players[1]
    assert len(players.bots) == 2 and all(bot.level is Level.HARD for bot in players.bots.values())


def test_the_join_screen_first_offers_the_level_given(config, sim, clock, store) -> None:
    cabinet = Cabinet(config, sim, clock, store, log=lambda _l: None, seed=7, computer_level=Level.EASY)
    press(cabinet, sim, 0, Button.START)
    press(cabinet, sim, 0, Button.START)  # the first game: Punch!
    join = cabinet.scene
    assert isinstance(join, Join)
    press(cabinet, sim, 0, Button.B)
    assert join.computers == {1: Level.EASY}
    press(cabinet, sim, 0, Button.C)  # and C still turns it through every level
    assert join.computers == {1: Level.NORMAL}
    press(cabinet, sim, 0, Button.A)
    press(cabinet, sim, 0, Button.START)
    assert isinstance(cabinet.scene, Play)

"""A game is three folders and one line (issues 21, 29): Tap Race, a game that lives only in
tests/firmware_py/tap_race/ as a folder per layer — engine (games), screens with their
sounds (display), controls (firmware_py), each declared once — is offered by one line,
``games.registry.add("tap_race")``, and is then on the select screen, plays an
exhibition, sounds its events, runs in a HIL scenario, resumes after a power cut and
shows up in the service stats, with no edit anywhere else."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from display.games import registry as display_registry
from display.renderer import Renderer
from firmware_py.games import registry as controls_registry
from firmware_py.hil.runner import run_scenario
from firmware_py.hil.scenario import ScenarioError, load_scenario, parse_scenario
from firmware_py.runtime.cabinet import Cabinet
from firmware_py.runtime.scenes import Attract, Join, Options, Play, Result, Select
from firmware_py.runtime.service_menu import ServiceMenu
from firmware_py.runtime.store import Store
from firmware_py.tools.cli import main as ringside
from firmware_py.tools.exhibition import run_exhibition
from games import registry as games_registry
from games.protocol import IllegalAction
from hal.events import Button
from tests.cabinet_driving import press, run_for
from tests.firmware_py.tap_race import plug_in
from tests.games.playout import random_playout

plug_in()  # the three folders, beside the shipped games'; not yet offered
from display.games.tap_race.screens import draw_tap_race_private  # noqa: E402
from firmware_py.games.tap_race.controls import TapRaceControls  # noqa: E402
from games.tap_race.engine import RaceWon, Tap, TapRace, TapRaceEnding, TapRaceOptions  # noqa: E402

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture
def tap_race() -> Iterator[type[TapRaceControls]]:
    """The one line that offers a game whose folders are in place."""
    games_registry.add("tap_race")
    yield TapRaceControls
    games_registry.remove("tap_race")


def race_between_stations(cabinet: Cabinet, sim) -> Play:
    """From attract, station 0 picks Tap Race on the select screen, station 1 joins."""
    press(cabinet, sim, 0, Button.START)
    assert isinstance(cabinet.scene, Select)
    titles = cabinet.scene.screen(sim.clock.now_us()).games
    for _ in range(titles.index("Tap Race")):
        press(cabinet, sim, 0, Button.B)
    press(cabinet, sim, 0, Button.START)
    assert isinstance(cabinet.scene, Join) and isinstance(cabinet.scene.controls, TapRaceControls)
    press(cabinet, sim, 1, Button.START)
    press(cabinet, sim, 0, Button.A)  # 2 of 2–4 racers: the host starts
    assert isinstance(cabinet.scene, Options)
    press(cabinet, sim, 0, Button.START)
    assert isinstance(cabinet.scene, Play)
    return cabinet.scene


# -- the game itself ------------------------------------------------------------------------
def test_tap_race_first_to_three_taps_wins_and_then_nothing_more_counts() -> None:
    race = TapRace(TapRaceOptions(), 2, seed=0)
    for player in (0, 1, 0, 1, 1):
        race.apply(Tap(player))
    assert race.outcome() is not None and race.outcome().winner == 1
    assert race.outcome().how is TapRaceEnding.FIRST_THERE and race.outcome().score == (2, 3)
    with pytest.raises(IllegalAction):
        race.apply(Tap(0))
    assert race.to_act() == frozenset()


@pytest.mark.parametrize("players", [2, 3, 4])
def test_tap_race_keeps_the_engine_protocol(players: int) -> None:
    """The same generic random playout every registered game gets (tests/games)."""
    for seed in range(3):
        race = random_playout(TapRace(TapRaceOptions(), players, seed), bot_seed=seed)
        assert race.outcome() is not None and sum(race.taps) == len(race.journal)


# -- registered once per layer: every list of games sees it ------------------------------
def built_in() -> tuple[str, ...]:
    """The games that ship, in select-screen order, whichever they are: Tap Race comes after them."""
    return games_registry.BUILTIN


def built_in_titles() -> tuple[str, ...]:
    return tuple(controls_registry.controls_type(n).spec.title for n in built_in())


def test_registries_list_it_after_the_built_in_games_and_forget_it_after(tap_race) -> None:
    assert controls_registry.names()[-1] == "tap_race"
    assert controls_registry.names()[:-1] == built_in()
    assert games_registry.engine_type("tap_race") is TapRace
    assert display_registry.screens("tap_race").private is draw_tap_race_private
    assert controls_registry.controls_type("tap_race") is TapRaceControls


def test_it_is_on_the_select_screen(tap_race, cabinet: Cabinet, sim) -> None:
    press(cabinet, sim, 0, Button.START)
    select = cabinet.scene.screen(sim.clock.now_us())
    assert select.games == (*built_in_titles(), "Tap Race")
    assert select.blurbs[-1] == TapRaceControls.blurb
    Renderer().draw(select)
    assert Attract(cabinet.ctx, 0).screen(0).games == select.games


@pytest.mark.slow
def test_it_plays_at_the_cabinet(tap_race, cabinet: Cabinet, sim, store: Store) -> None:
    play = race_between_stations(cabinet, sim)
    press(cabinet, sim, 0, Button.C)
    assert play.session.refusal(0) == "Tap A!"
    for station in (0, 1, 0, 0):
        press(cabinet, sim, station, Button.A)
    assert play.session.engine.outcome().winner == 0
    assert sim.led_levels(0) == (1.0,) * 10
    assert [type(e) for _t, e in play.session.recent][-1] is RaceWon
    Renderer().draw(play.screen(sim.clock.now_us()))
    run_for(cabinet, sim, 3_500_000)
    assert isinstance(cabinet.scene, Result)
    assert cabinet.scene.model.headline == "RED WINS THE RACE"
    assert store.wins_by_station("tap_race") == {0: 1}


def test_it_resumes_after_a_power_cut(tap_race, config, sim, clock, store: Store, cabinet: Cabinet) -> None:
    play = race_between_stations(cabinet, sim)
    press(cabinet, sim, 1, Button.A)
    press(cabinet, sim, 1, Button.A)
    assert play.session.engine.taps == [0, 2]
    again = Cabinet(config, sim, clock, store, log=lambda _l: None, seed=1)
    assert isinstance(again.scene, Play) and isinstance(again.scene.session.controls, TapRaceControls)
    assert again.scene.session.engine.taps == [0, 2]


def test_an_exhibition_plays_it_to_the_end(tap_race, config, sim, clock, store: Store) -> None:
    lines: list[str] = []
    cabinet = Cabinet(config, sim, clock, store, log=lines.append, seed=4)
    assert run_exhibition(cabinet, sim, clock, "tap_race", seed=4, fps=10)
    assert store.games_played() == {"tap_race": 1}
    assert any("WINS THE RACE ***" in line for line in lines)
    ((_winner, ending),) = store.db.execute("SELECT winner_station, reason FROM games").fetchall()
    assert ending == TapRaceEnding.FIRST_THERE.value
    # Attract's recent results and the operator's stats name it in its own words, and
    # the computers who played it as computers: their win is not the people's at the station.
    now = clock.now_us()
    recent = Attract(cabinet.ctx, now).screen(now).recent
    assert "Tap Race: CPU · NORMAL won (first to the line)" in recent
    stats = ServiceMenu(cabinet.ctx, now, cabinet.scene).screen(now).body
    assert "  Tap Race: 1" in stats  # the Stats page names a game by its title
    assert not any(line.startswith("Tap Race wins: ") for line in stats)


SCENARIO = """
[scenario]
name = "tap-race-red-first"
description = "Tap Race (test-only game): Red taps three times before Blue's second tap."
game = "tap_race"
seed = 1
stations = [0, 1]

[[input]]
at_us = 100_000
station = 0
press = "A"

[[input]]
at_us = 250_000
station = 1
press = "A"

[[input]]
at_us = 400_000
station = 0
press = "A"

[[expect]]
at_us = 450_000
event = { type = "Tapped", player = 0, taps = 2 }
led = { station = 1, lit = 3 }
private = { station = 0, contains = "Tap Race 2/3" }

[[input]]
at_us = 700_000
station = 0
press = "A"

[[expect]]
at_us = 750_000
from_us = 650_000
events = [{ type = "Tapped", player = 0, taps = 3 }, { type = "RaceWon", player = 0 }]
led = { station = 0, lit = 10 }
private = { station = 0, contains = "YOU WIN" }

[[expect]]
at_us = 800_000
private = { station = 1, contains = "Race over" }

[[expect]]
at_us = 4_000_000
scene = "Result"
"""


@pytest.mark.slow
def test_a_hil_scenario_runs_it(tap_race, tmp_path: Path) -> None:
    path = tmp_path / "tap_race.toml"
    path.write_text(SCENARIO)
    result = run_scenario(load_scenario(path), report_dir=tmp_path / "report", window=False)
    assert result.status == "pass", result.summary()
    assert len(result.checks) == 8 and all(c.status == "pass" for c in result.checks)


def test_a_hil_scenario_checks_its_event_names_against_its_own_events(tap_race, tmp_path: Path) -> None:
    bad = SCENARIO.replace('type = "RaceWon"', 'type = "RaceLost"')
    with pytest.raises(ScenarioError, match="RaceLost"):
        parse_scenario(bad, tmp_path / "bad.toml")


# -- its sounds and its engine are declared once, where the rest of it is -----------------
def test_its_sounds_come_with_its_screens_and_play_its_events(tap_race) -> None:
    """One declaration in its display folder (``SCREENS``, sounds among them): the cabinet's
    cue list and the event map find them by name, nothing else lists them."""
    from display.games.tap_race.sounds import SOUNDS

    from display.sound import all_cues, game_sounds

    assert game_sounds("tap_race") is SOUNDS
    assert {"tap_race_tap", "tap_race_won"} <= set(all_cues(controls_registry.names()))
    race = TapRace(TapRaceOptions(), 2, seed=0)
    events = [e for player in (1, 1, 1) for e in race.apply(Tap(player))]
    cues = [(c.cue, c.seat) for e in events for c in SOUNDS.calls(e)]
    assert cues == [("tap_race_tap", 1)] * 3 + [("tap_race_won", None)]


def test_its_controls_name_the_engine_once(tap_race) -> None:
    """``GameControls[TapRace, None, None]`` is the one naming: the engine class and its spec follow."""
    assert TapRaceControls.engine_type is TapRace and TapRaceControls.spec is TapRace.spec
    from firmware_py.runtime.controls import GameControls

    with pytest.raises(TypeError, match="named once"):

        class _Twice(GameControls[TapRace, None, None]):  # the engine named a second time
            engine_type = TapRace


def test_controls_driving_another_engine_are_refused_by_name(tap_race, monkeypatch) -> None:
    import firmware_py.games.tap_race as folder

    from firmware_py.games.punch.controls import PunchControls

    monkeypatch.setattr(folder, "CONTROLS", PunchControls)
    with pytest.raises(controls_registry.EnginesDisagree, match=r"engine_type is Punch, .* ENGINE = TapRace"):
        controls_registry.controls_type("tap_race")


# -- an unknown game is one clear line ----------------------------------------------------
def test_an_unknown_scenario_game_names_the_games_offered(tap_race, tmp_path: Path) -> None:
    with pytest.raises(ScenarioError) as e:
        parse_scenario(SCENARIO.replace('game = "tap_race"', 'game = "tap_dance"'), tmp_path / "s.toml")
    assert f"{', '.join(built_in())}, tap_race" in str(e.value) and "\n" not in str(e.value)


def test_an_unknown_game_for_ringside_run_is_one_line_naming_the_games(tap_race, capsys) -> None:
    assert ringside(["run", "--headless", "--game", "tap_dance"]) == 2
    err = capsys.readouterr().err
    # One log line (time, level, message), nothing else: no traceback.
    names = ", ".join((*built_in(), "tap_race"))
    assert err.count("\n") == 1 and " ERROR " in err
    assert err.endswith(f"ringside run --game: unknown game 'tap_dance': choose one of {names}\n")


def test_once_removed_it_is_gone_everywhere(tap_race) -> None:
    games_registry.remove("tap_race")
    assert "tap_race" not in controls_registry.names()
    with pytest.raises(games_registry.UnknownGame, match=f"choose one of {', '.join(built_in())}$"):
        controls_registry.controls_type("tap_race")
    with pytest.raises(display_registry.NoScreens, match="tap_race"):
        display_registry.screens("tap_race")


def test_no_module_of_the_cabinet_names_it() -> None:
    """Adding it took no edit outside its own files: nothing in the shipped packages
    knows of it."""
    shipped = [
        p for pkg in ("games", "display", "firmware_py", "hal", "calibration") for p in (REPO / pkg).rglob("*.py")
    ]
    assert shipped
    assert [p for p in shipped if "tap_race" in p.read_text(encoding="utf-8").lower()] == []

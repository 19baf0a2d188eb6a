"""The HIL scenario format, checks, runner, reports and recorder (docs/hil.md)."""

from __future__ import annotations

import json
import time
import tomllib
import xml.etree.ElementTree as ET
from pathlib import Path

import pygame
import pytest

from firmware_py.hil.checks import compare_rgb, matches
from firmware_py.hil.runner import run_files, run_scenario
from firmware_py.hil.scenario import ScenarioError, load_scenario, parse_scenario
from firmware_py.tools.cli import main
from tests.hil.make_punch import covered_pairings

HIL = Path(__file__).resolve().parents[2] / "hil"

KARATE = """
[scenario]
name = "tiny-karate"
game = "karate_fight"
seed = 1
stations = [0, 1]
end_us = 700_000

[scenario.options]
deal = [[44, 16], [17, 24]]

[[input]]
at_us = 100_000
station = 0
press = "A"

# Two slaps 1 µs apart; the later stamp arrives first.
[[input]]
at_us = 300_000
station = 1
slap = 100
delay_us = 3_000

[[input]]
at_us = 300_001
station = 0
slap = 100

[[expect]]
at_us = 400_000
event = { type = "HitWon", winner = 1, won_us = 300_000 }
t_us = 300_000

[[expect]]
at_us = 400_000
led = { station = 1, lit = 8 }
"""


def write(tmp_path: Path, text: str, name: str = "s.toml") -> Path:
    p = tmp_path / name
    p.write_text(text)
    return p


# -- format ------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("change", "key"),
    [
        (('press = "A"', 'press = "G"'), "input[0].press"),
        (("station = 0\npress", "press"), "input[0].station"),
        (('press = "A"', 'press = "A"\nslap = 3'), "input[0]"),
        (('type = "HitWon"', 'type = "HitWonn"'), "expect[0].event.type"),
        (("winner = 1,", "victor = 1,"), "expect[0].event.victor"),
        (("deal =", "dael ="), "scenario.options.dael"),
        (('game = "karate_fight"', 'game = "chess"'), "scenario.game"),
        (("stations = [0, 1]", "stations = [0]"), "scenario.stations"),
        (("lit = 8", "lit = 11"), "expect[1].led.lit"),
        (("end_us = 700_000", "end_us = 100"), "scenario.end_us"),
        (("\nt_us = 300_000", "\nt_us = 900_000"), "expect[0].t_us"),
    ],
)
def test_hil_format_errors_name_the_key(tmp_path: Path, change: tuple[str, str], key: str) -> None:
    assert change[0] in KARATE
    with pytest.raises(ScenarioError) as e:
        parse_scenario(KARATE.replace(change[0], change[1], 1), tmp_path / "bad.toml")
    assert e.value.key == key and "bad.toml" in str(e.value)


def test_hil_format_reads_a_timeline_in_time_order(tmp_path: Path) -> None:
    s = parse_scenario(KARATE, tmp_path / "s.toml")
    assert s.game == "karate_fight" and s.stations == (0, 1) and s.start == "game"
    assert [(i.at_us, i.action, i.station) for i in s.inputs] == [
        (100_000, "press", 0),
        (300_000, "slap", 1),
        (300_001, "slap", 0),
    ]
    assert s.inputs[1].delay_us == 3_000 and s.inputs[0].hold_us == 60_000
    assert [e.kinds() for e in s.expects] == [["event"], ["led"]]


def test_hil_event_matching_is_a_subset_of_fields() -> None:
    ev = {"type": "CardsRevealed", "cards": ["punch1", "block"], "n": 1, "flag": False}
    assert matches({"type": "CardsRevealed"}, ev)
    assert matches({"cards": ["punch1", "block"]}, ev)
    assert not matches({"cards": ["punch1"]}, ev)
    assert not matches({"flag": 0}, ev)  # booleans are not numbers
    assert matches({"x": {"a": 1}}, {"x": {"a": 1, "b": 2}})


def test_hil_every_shipped_scenario_loads_and_every_game_has_scenarios() -> None:
    from firmware_py.games import registry as controls_registry

    files = [p for p in HIL.rglob("*.toml") if "scenario" in tomllib.loads(p.read_text())]
    games = {load_scenario(p).game for p in files}
    assert set(controls_registry.names()) <= games
    # Each offered game's own scenarios are in tests/hil/<name>/ (the screen checks sample
    # that folder for every game of the registry), and play that game.
    for name in controls_registry.names():
        own = [p for p in files if p.parent == HIL / name]
        assert own, f"game {name!r} has no scenario in tests/hil/{name}/"
        assert {load_scenario(p).game for p in own} == {name}


def test_hil_every_pairing_scenario_covers_all_36() -> None:
    pairs = covered_pairings(HIL / "punch" / "every_pairing.toml")
    from games.punch import CARDS

    assert pairs == {(a.value, b.value) for a in CARDS for b in CARDS}


# -- running -----------------------------------------------------------------------------
def test_hil_sim_run_is_exact_and_deterministic(tmp_path: Path) -> None:
    s = parse_scenario(KARATE, write(tmp_path, KARATE))
    a = run_scenario(s, report_dir=tmp_path / "a", window=False)
    b = run_scenario(s, report_dir=tmp_path / "b", window=False)
    assert a.status == "pass", a.summary()
    assert b.status == "pass", b.summary()
    assert a.fidelity.inputs == 4 and a.fidelity.exact == 4  # press, release, two slaps: each to the µs
    assert a.fidelity.actions == 3 and a.fidelity.actions_exact == 3  # PlayTop and both Slaps stamps
    log_a = (tmp_path / "a" / "tiny-karate" / "events.jsonl").read_text()
    log_b = (tmp_path / "b" / "tiny-karate" / "events.jsonl").read_text()
    assert log_a == log_b
    kinds = {json.loads(line)["kind"] for line in log_a.splitlines()}
    assert {"input", "event", "led", "private", "scene", "check"} <= kinds


def test_hil_failures_say_what_was_seen_and_write_junit(tmp_path: Path) -> None:
    bad = KARATE.replace("winner = 1, won_us = 300_000", "winner = 0, won_us = 300_000")
    code, results = run_files([write(tmp_path, bad)], report_dir=tmp_path / "r", print_=lambda _l: None)
    assert code == 1 and results[0].status == "fail"
    (fail,) = results[0].failures
    assert "HitWon" in fail.message and "winner" in fail.message
    root = ET.parse(tmp_path / "r" / "junit.xml").getroot()
    assert root.get("failures") == "1" and root.find(".//failure") is not None
    props = {p.get("name"): p.get("value") for p in root.iter("property")}
    assert props["fidelity_exact"] == "4"


@pytest.mark.slow
def test_hil_screen_golden_mismatch_writes_expected_actual_and_diff(tmp_path: Path) -> None:
    golden_dir = tmp_path / "goldens"
    golden_dir.mkdir()
    pygame.image.save(pygame.Surface((1280, 720)), str(golden_dir / "black.png"))
    text = KARATE + '\n[[expect]]\nat_us = 500_000\nscreen = { png = "goldens/black.png", tolerance = 4 }\n'
    code, results = run_files([write(tmp_path, text)], report_dir=tmp_path / "r", print_=lambda _l: None)
    assert code == 1
    (fail,) = results[0].failures
    assert fail.kind.startswith("screen") and "pixels" in fail.message
    names = sorted(Path(f).name.split("-")[-1] for f in fail.files)
    assert names == ["actual.png", "diff.png", "expected.png"]
    # --update-goldens writes the golden, then the same run passes.
    assert (
        run_files([tmp_path / "s.toml"], report_dir=tmp_path / "r", update_goldens=True, print_=lambda _l: None)[0] == 0
    )
    assert run_files([tmp_path / "s.toml"], report_dir=tmp_path / "r", print_=lambda _l: None)[0] == 0


def test_hil_compare_rgb_tolerance() -> None:
    a = bytes([10, 10, 10] * 4)
    b = bytes([12, 10, 10] * 3 + [40, 10, 10])
    bad, diff = compare_rgb((2, 2), a, (2, 2), b, tolerance=2)
    assert bad == 1 and diff[9:12] == bytes([255, 0, 0])
    assert compare_rgb((2, 2), a, (2, 2), b, tolerance=30)[0] == 0


def test_hil_cli_exit_codes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    good = write(tmp_path, KARATE, "good.toml")
    broken = write(tmp_path, KARATE.replace('press = "A"', 'press = "Z"'), "broken.toml")
    assert main(["hil", "run", str(good), "--report-dir", str(tmp_path / "r")]) == 0
    assert main(["hil", "run", str(good), str(broken), "--report-dir", str(tmp_path / "r")]) == 2
    out = capsys.readouterr().out
    assert "PASS  tiny-karate" in out and "input[0].press" in out
    monkeypatch.delenv("RINGSIDE_RIG", raising=False)
    assert main(["hil", "run", "--backend", "rig", str(good)]) == 2  # no rig configured
    assert "RINGSIDE_RIG" in capsys.readouterr().err


# -- recording ---------------------------------------------------------------------------
@pytest.mark.slow
def test_hil_recorded_session_replays_as_a_passing_scenario(tmp_path: Path, config, sim, clock, store) -> None:
    from firmware_py.hil.record import SessionRecorder
    from firmware_py.runtime.cabinet import Cabinet
    from hal.events import Button
    from tests.cabinet_driving import press, run_for, start_game

    cabinet = Cabinet(config, sim, clock, store, log=lambda _l: None, seed=5)
    recorder = SessionRecorder(cabinet, sim, tmp_path / "recorded.toml", log=lambda _l: None)
    play = start_game(cabinet, sim)
    engine = play.session.engine
    for _ in range(6):
        for seat in sorted(engine.to_act()):
            action = engine.legal_actions(seat)[0]
            for b in play.session.controls.bot_presses(engine, seat, action):
                press(cabinet, sim, play.session.seats[seat], b)
    press(cabinet, sim, 0, Button.C)  # whatever happens, the replay must see the same
    run_for(cabinet, sim, 300_000)
    (path,) = recorder.close()
    scenario = load_scenario(path)
    assert scenario.game == "punch" and scenario.seed == engine.seed and len(scenario.inputs) >= 7
    result = run_scenario(scenario, report_dir=tmp_path / "r", window=False)
    assert result.status == "pass", result.summary()
    assert result.fidelity.exact == result.fidelity.inputs
    assert sum(1 for e in scenario.expects if e.event is not None) == len(result_events(tmp_path / "r" / path.stem))
    # The live log a rig reads: the game, then inputs and events in µs since the game started.
    live = [json.loads(line) for line in recorder.live_path.read_text().splitlines()]
    assert live[0]["kind"] == "game" and live[0]["seed"] == engine.seed
    assert [r["event"] for r in live if r["kind"] == "event"] == [
        r["event"] for r in result_events(tmp_path / "r" / path.stem)
    ]


def result_events(out_dir: Path) -> list[dict]:
    rows = [json.loads(line) for line in (out_dir / "events.jsonl").read_text().splitlines()]
    return [r for r in rows if r["kind"] == "event"]


def test_hil_start_us_puts_the_timeline_on_the_cabinet_clock(tmp_path: Path) -> None:
    """A recorded session keeps the cabinet's clock: the game starts at ``start_us`` and
    stamps inside events are absolute."""
    import re

    shifted = re.sub(
        r"(at_us|t_us|won_us) = (\d[\d_]*)",
        lambda m: f"{m.group(1)} = {int(m.group(2).replace('_', '')) + 5_000_000}",
        KARATE,
    )
    shifted = shifted.replace("end_us = 700_000", "end_us = 5_700_000\nstart_us = 5_000_000")
    s = parse_scenario(shifted, write(tmp_path, shifted))
    assert s.start_us == 5_000_000 and s.length_us == 700_000
    r = run_scenario(s, report_dir=tmp_path / "r", window=False)
    assert r.status == "pass", r.summary()
    assert r.fidelity.exact == r.fidelity.inputs == 4
    with pytest.raises(ScenarioError, match="start_us"):
        parse_scenario(shifted.replace("at_us = 5100000", "at_us = 4900000"), tmp_path / "early.toml")


def test_hil_run_takes_folders_and_leaves_cabinet_configs_out(tmp_path: Path) -> None:
    from firmware_py.hil.runner import expand

    files = expand([HIL / "padboard"])
    assert [f.name for f in files] == ["garbage_during_play.toml", "unplug_mid_game.toml"]
    assert expand([HIL / "padboard" / "configs" / "cabinet-padboard.toml"]) == []


@pytest.mark.realtime
def test_hil_real_time_timeline_starts_once_the_cabinet_is_built(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A scenario on the padboard link runs on the wall clock.  Building the cabinet takes
    0.4-0.9 s on a loaded machine; a timeline begun before it started the loop that far
    behind, and a slap handed to the simulator ahead of its time came after the simulator
    had sampled past it: never seen (CI, the garbage scenario).  Here the build is made
    0.8 s slower on purpose, and the slap after the noise still wins the Hit."""
    from firmware_py.runtime.cabinet import Cabinet

    build = Cabinet.__init__

    def slow_build(self: Cabinet, *args: object, **kwargs: object) -> None:
        build(self, *args, **kwargs)  # type: ignore[arg-type]
        time.sleep(0.8)

    monkeypatch.setattr(Cabinet, "__init__", slow_build)
    s = load_scenario(HIL / "padboard" / "garbage_during_play.toml")
    result = run_scenario(s, report_dir=tmp_path, window=False)
    assert result.status == "pass", result.summary()
    assert result.fidelity.unmatched == 0

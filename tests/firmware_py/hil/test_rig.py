"""The rig backend's logic on gpiozero's MockFactory standing in for the rig Pi's pins:
the pin table and its overrides, presses and slaps on the right lines at the right
times, LED read-back, the lock that keeps two runs off one rig.  The real rig runs as
``tests/hil/**::rig`` items, skipped unless RINGSIDE_RIG names a rig config."""

from __future__ import annotations

from pathlib import Path

import pytest
from gpiozero.pins.mock import MockFactory

from firmware_py.hil.rig import (
    DEFAULT_STATIONS,
    RigBusy,
    RigError,
    RigLock,
    RigPins,
    RigRun,
    parse_rig_config,
)
from firmware_py.hil.scenario import parse_scenario
from hal.clock import ManualClock
from hal.events import Button

SCENARIO = """
[scenario]
game = "punch"
seed = 1
start = "menus"
end_us = 400_000

[[input]]
at_us = 100_000
station = 1
press = "C"
hold_us = 50_000

[[input]]
at_us = 120_000
station = 0
slap = 90

[[expect]]
at_us = 300_000
led = { station = 1, lit = 3 }

[[expect]]
at_us = 300_000
scene = "Play"
event = { type = "MatchStarted" }
"""


def rig_config(tmp_path: Path, **rig):
    """The default pin table, but LEDs read on lines 10-19: gpiozero's mock factory models a
    Pi header, whose GPIO2/3 have fixed pull-ups (an expander's lines 0-9 do not)."""
    leds = [{"led": list(range(10, 20))}, {"led": list(range(10, 20))}]
    return parse_rig_config(
        {"rig": {"factory": "mock", "lock_file": str(tmp_path / "rig.lock"), **rig}, "station": leds}
    )


def factories(cfg) -> dict[int, MockFactory]:
    chips = {cfg.input_chip, *cfg.extra["led_chips"]}
    return {c: MockFactory() for c in chips}


def test_hil_rig_default_pin_table_matches_the_cabinet_lines(tmp_path: Path) -> None:
    cfg = parse_rig_config({"rig": {"factory": "mock"}})
    assert [dict((b.value, p) for b, p in s.buttons.items()) for s in cfg.stations] == [
        s["buttons"] for s in DEFAULT_STATIONS
    ]
    assert [s.slap for s in cfg.stations] == [21, 18]
    assert cfg.extra["led_chips"] == (1, 2) and cfg.stations[0].led == tuple(range(10))


def test_hil_rig_pins_are_overridable_and_checked_for_clashes(tmp_path: Path) -> None:
    buttons = {"A": 2, "B": 3, "C": 4, "D": 7, "E": 8, "F": 9, "START": 10}
    cfg = parse_rig_config(
        {
            "rig": {"factory": "mock"},
            "station": [{"buttons": buttons, "slap": 11, "led_chip": 3, "led": list(range(20, 30))}],
        }
    )
    assert (
        cfg.stations[0].buttons[Button.START] == 10 and cfg.stations[0].led[0] == 20 and cfg.extra["led_chips"] == (3,)
    )
    with pytest.raises(RigError, match="already used"):
        parse_rig_config({"rig": {"factory": "mock"}, "station": [{"buttons": buttons, "slap": 2}]})
    with pytest.raises(RigError, match="lgpio"):
        parse_rig_config({"rig": {"factory": "pigpio"}})


def test_hil_rig_press_pulls_the_cabinet_line_low_and_leds_read_back(tmp_path: Path) -> None:
    cfg = rig_config(tmp_path)
    f = factories(cfg)
    pins = RigPins(cfg, f)
    try:
        line = f[0].pin(17)  # station 1, button A
        assert line.state == 1  # idle: released (the cabinet's pull-up level)
        pins.button(1, Button.A, True)
        assert line.state == 0
        pins.button(1, Button.A, False)
        assert line.state == 1
        pins.slap(0, True)
        assert f[0].pin(21).state == 1  # comparator line active high by default
        pins.slap(0, False)
        for seg in range(4):
            f[2].pin(10 + seg).drive_high()
        assert pins.led_segments(1) == (1.0,) * 4 + (0.0,) * 6
        assert pins.led_segments(0) == (0.0,) * 10
    finally:
        pins.close()


def test_hil_rig_lock_stops_a_second_run(tmp_path: Path) -> None:
    first, second = RigLock(tmp_path / "rig.lock"), RigLock(tmp_path / "rig.lock")
    first.acquire("scenario A")
    with pytest.raises(RigBusy, match="scenario A"):
        second.acquire("scenario B")
    first.release()
    second.acquire("scenario B")
    second.release()


def test_hil_rig_run_drives_every_step_on_time_and_checks_what_it_can_see(tmp_path: Path) -> None:
    cfg = rig_config(tmp_path)
    f = factories(cfg)
    clock = ManualClock(5_000_000)
    seen: list[tuple[int, int, int]] = []

    def sleep(seconds: float) -> None:
        clock.advance(max(1, int(seconds * 1e6)))
        seen.append((clock.now_us(), f[0].pin(27).state, f[0].pin(21).state))
        if clock.now_us() - 5_000_000 >= run.offset + 150_000:  # the cabinet lights 3 segments
            for seg in range(3):
                f[2].pin(10 + seg).drive_high()

    scenario = parse_scenario(SCENARIO, tmp_path / "s.toml")
    run = RigRun(scenario, cfg, tmp_path / "out", clock=clock, factories=f, sleep=sleep)
    result = run.run()
    assert run.offset == 0  # start = "menus": the scenario walks the menus itself
    assert result.status == "pass", result.summary()
    statuses = {c.kind: c.status for c in result.checks}
    assert statuses["led station 1"] == "pass"
    assert statuses["scene"] == "skip" and statuses["event"] == "skip"  # a rig cannot see them
    # Station 1's C (rig line 22) was driven at 100 000 µs, the slap line at 120 000 µs.
    drives = {step.label: done for step, done in run.drives}
    assert drives["station 1 press C"] == 100_000 and drives["station 1 release C"] == 150_000
    assert drives["station 0 slap"] == 120_000 and drives["station 0 slap end"] == 120_000 + cfg.slap_pulse_us
    assert result.fidelity.inputs == 3 and result.fidelity.exact == 3
    assert not RigLock(cfg.lock_file)._fd  # released


def test_hil_rig_walks_the_menus_for_a_scenario_that_starts_a_game(tmp_path: Path) -> None:
    text = SCENARIO.replace('start = "menus"', "").replace("[scenario]", "[scenario]\noptions = { matches_to_win = 1 }")
    scenario = parse_scenario(text, tmp_path / "s.toml")
    run = RigRun(scenario, rig_config(tmp_path), tmp_path / "out")
    steps = run.steps()
    presses = [s.label for s in steps if "press" in s.label]
    # START (attract) → START (Punch! is first) → station 1 joins → options: move to
    # "Match wins needed" (A, A), choose 1 (B) → START.
    assert presses[:4] == [
        "station 0 press START",
        "station 0 press START",
        "station 1 press START",
        "station 0 press A",
    ]
    assert presses[4:7] == ["station 0 press A", "station 0 press B", "station 0 press START"]
    assert run.offset > 0 and steps[-1].at_us >= run.offset + 100_000


def test_hil_rig_skips_what_the_menus_cannot_set(tmp_path: Path) -> None:
    text = SCENARIO.replace('game = "punch"', 'game = "karate_fight"').replace('start = "menus"', "")
    text = text.replace("[scenario]", "[scenario]\noptions = { deal = [[44, 16], [17, 24]] }").replace(
        "MatchStarted", "HitWon"
    )
    scenario = parse_scenario(text, tmp_path / "s.toml")
    result = RigRun(scenario, rig_config(tmp_path), tmp_path / "out").run()
    assert result.status == "skip" and "deal" in result.message


def test_hil_rig_reads_engine_events_from_the_cabinets_event_log(tmp_path: Path) -> None:
    log = tmp_path / "session.events.jsonl"
    log.write_text(
        '{"t_us": 0, "kind": "game", "game": "punch"}\n'
        '{"t_us": 0, "kind": "event", "step_us": 0, "event": {"type": "MatchStarted", "match": 1, "replay": false}}\n'
    )
    cfg = rig_config(tmp_path, event_log=str(log))
    f = factories(cfg)
    clock = ManualClock(0)
    scenario = parse_scenario(SCENARIO, tmp_path / "s.toml")
    result = RigRun(
        scenario, cfg, tmp_path / "out", clock=clock, factories=f, sleep=lambda s: clock.advance(max(1, int(s * 1e6)))
    ).run()
    statuses = {c.kind: c.status for c in result.checks}
    assert statuses["event MatchStarted"] == "pass" and statuses["scene"] == "skip"

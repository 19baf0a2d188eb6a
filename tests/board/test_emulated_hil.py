"""HIL scenarios on the ``padboard-emulated`` backend (docs/hil.md): their slaps through
the padboard's firmware on the emulated RP2040, read by the cabinet's driver.

A bounded share for ``make board-test``: Karate's 2-fighter near-tie (two slaps 1 µs
apart) and the padboard unplugged mid-game.  The near-tie's own checks are the sim's
and are reported, not asserted here (1 µs is below the board's stamp error, 10-20 µs:
it comes out either way); asserted is what the backend and the link must do, and each
slap stamped at its contact (through the clock sync's two board readings per pong:
docs/board-testing.md).  The unplug scenario passes whole once its timeline after the
replug allows for the firmware's boot (REBOOT_US).  Every scenario under tests/hil/ runs on this
backend with ``RINGSIDE_PADBOARD_EMULATED=1`` (tests/hil/conftest.py)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import pytest

from firmware_py.hil.emulated_backend import EmulatedRun
from firmware_py.hil.result import ScenarioResult
from firmware_py.hil.scenario import Scenario, load_scenario
from hal.events import PadLinkEvent, SlapEvent
from tests.board import measure

pytestmark = [pytest.mark.board, pytest.mark.slow]

HIL = Path(__file__).resolve().parents[1] / "hil"
REBOOT_US = 2_500_000
"""What a replugged board takes before it answers HELLO that the sim's padboard (which
reboots at once) does not: power-up to main.py serving, measured on the emulated RP2040
at 125 MHz as 2.50 s, 1.50 s compiling and importing the five .py files and the 1.0 s
BOOTSEL window after them (BENCHMARKS.md).  unplug_mid_game.toml gives the link 1.3 s
after the replug, written for the sim: no board running this firmware makes that."""


@dataclass(frozen=True)
class Played:
    result: ScenarioResult
    slaps_injected: int
    slaps_seen: tuple[SlapEvent, ...]
    links: tuple[PadLinkEvent, ...]
    counters: Any
    sync_band_us: float


def after_replug(scenario: Scenario, later_us: int) -> Scenario:
    """``scenario`` with everything after its replug (inputs, checkpoints and their
    windows, the end) ``later_us`` later: the board's boot allowed for, nothing else moved."""
    replug = next(i.at_us for i in scenario.inputs if i.action == "replug")

    def moved(t: int) -> int:
        return t + later_us if t > replug else t

    return replace(
        scenario,
        inputs=tuple(replace(i, at_us=moved(i.at_us)) for i in scenario.inputs),
        expects=tuple(replace(e, at_us=moved(e.at_us), from_us=moved(e.from_us)) for e in scenario.expects),
        end_us=moved(scenario.end_us),
    )


def play(name: str, out: Path, reboot_us: int = 0) -> Played:
    scenario = load_scenario(HIL / name)
    if reboot_us:
        scenario = after_replug(scenario, reboot_us)
    run = EmulatedRun(scenario, out)
    result = run.run()
    seen = [ev for _t, ev in run.rec.inputs_seen]
    print(f"\n{result.summary()}")
    return Played(
        result,
        sum(1 for i in scenario.inputs if i.action == "slap"),
        tuple(e for e in seen if isinstance(e, SlapEvent)),
        tuple(e for e in seen if isinstance(e, PadLinkEvent)),
        run.link.source.counters if run.link is not None else None,
        run.link.source.sync.uncertainty_us if run.link is not None else 0.0,
    )


@pytest.fixture(scope="module")
def near_tie(tmp_path_factory: pytest.TempPathFactory) -> Played:
    return play("karate_fight/near_tie_2.toml", tmp_path_factory.mktemp("near-tie-2"))


@pytest.fixture(scope="module")
def unplugged(tmp_path_factory: pytest.TempPathFactory) -> Played:
    """The scenario with the firmware's boot allowed after the replug (REBOOT_US): as
    written, its link comes back 2.56 s after the replug, past the 1.3 s it allows."""
    return play("padboard/unplug_mid_game.toml", tmp_path_factory.mktemp("unplug"), reboot_us=REBOOT_US)


def test_a_near_tie_plays_through_the_firmware(near_tie: Played) -> None:
    """The scenario runs to its end on the board's clock; the link stays up, clean, and
    delivers no slap twice."""
    r = near_tie.result
    assert r.status in ("pass", "fail") and r.timebase == "emulated", r.summary()
    assert len(r.checks) == 17, r.summary()  # every checkpoint was reached and judged
    assert near_tie.counters.garbage_bytes == 0 and near_tie.counters.bad_frames == 0, near_tie.counters
    assert not near_tie.links, near_tie.links  # no link lost mid-game
    assert len(near_tie.slaps_seen) <= near_tie.slaps_injected, near_tie.slaps_seen


def test_the_board_stamps_each_near_tie_slap_at_its_contact(near_tie: Played) -> None:
    f = near_tie.result.fidelity
    assert f.unmatched == 0, f.as_json()
    slap_errors = sorted(f.errors, key=abs)[-near_tie.slaps_injected :]
    print(f"slap errors {slap_errors} µs, the clock sync's band ±{near_tie.sync_band_us:.0f} µs")
    assert all(abs(e) <= near_tie.sync_band_us + measure.BOARD_STAMP_US for e in slap_errors), (
        f.errors,
        near_tie.sync_band_us,
    )


def test_unplug_pauses_the_game_and_the_board_comes_back(unplugged: Played) -> None:
    """The board's power and USB cut mid-game: the driver reports the link down and the
    game pauses, a slap meanwhile changes nothing; on replug the board restarts from its
    flash, the link comes back, the game resumes and the next slap wins the Hit: every
    check of the scenario, its timeline after the replug moved by the firmware's boot."""
    r = unplugged.result
    assert r.status == "pass", r.summary()
    assert [e.connected for e in unplugged.links] == [False, True], unplugged.links
    assert unplugged.counters.garbage_bytes == 0 and unplugged.counters.bad_frames == 0, unplugged.counters
    print(f"link down {unplugged.links[0].t_us} µs, back {unplugged.links[1].t_us} µs (replug at 2,000,000)")


def test_the_boot_allowance_moves_only_what_follows_the_replug() -> None:
    """after_replug keeps the unplug, the paused slap and their checks where they were."""
    sc = load_scenario(HIL / "padboard/unplug_mid_game.toml")
    moved = after_replug(sc, REBOOT_US)
    replug = next(i.at_us for i in sc.inputs if i.action == "replug")
    for old, new in zip((*sc.inputs, *sc.expects), (*moved.inputs, *moved.expects), strict=True):
        assert new.at_us - old.at_us == (REBOOT_US if old.at_us > replug else 0), (old, new)
    assert moved.end_us == sc.end_us + REBOOT_US


def test_four_fighters_are_more_than_the_board_has_pads(tmp_path: Path) -> None:
    """Karate's 4-fighter near-tie needs four pads: skipped, saying why (the board has three)."""
    result = EmulatedRun(load_scenario(HIL / "karate_fight/near_tie_4.toml"), tmp_path).run()
    assert result.status == "skip" and "3 pads" in result.message, result.summary()

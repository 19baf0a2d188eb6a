"""HIL scenarios on the ``padboard-emulated`` backend (docs/hil.md): their slaps through
the padboard's firmware on the emulated RP2040, read by the cabinet's driver.

A bounded share for ``make board-test``: Karate's 2-fighter near-tie (two slaps 1 µs
apart) and the padboard unplugged mid-game.  The scenarios' own checks are the sim's
and are reported, not asserted here (a 1 µs near-tie is below the board's stamp
resolution: it comes out a dead heat); asserted is what the backend and the link must
do whatever the board's CPU budget, and, as a strict xfail until the clock sync over
the emulated USB is understood, each slap stamped at its contact.  Every scenario under tests/hil/ runs on this
backend with ``RINGSIDE_PADBOARD_EMULATED=1`` (tests/hil/conftest.py)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import pytest

from firmware_py.hil.emulated_backend import EmulatedRun
from firmware_py.hil.result import ScenarioResult
from firmware_py.hil.scenario import load_scenario
from hal.events import PadLinkEvent, SlapEvent

pytestmark = [pytest.mark.board, pytest.mark.slow]

HIL = Path(__file__).resolve().parents[1] / "hil"
CLOCK_SYNC = (
    "issue 32, measured since the detector fits its CPU budget: both near-tie slaps delivered, but "
    "stamped a constant ~0.75 ms early (-750, -733 µs), as the driver's slaps in test_emulated.py: "
    "the ping/pong clock sync over the emulated USB, not the detector (BENCHMARKS.md)"
)
STAMP_US = 400
"""A slap's stamp against its contact: the board's onset error plus the clock sync's
(as tests/board/test_emulated.py asks of the driver)."""


@dataclass(frozen=True)
class Played:
    result: ScenarioResult
    slaps_injected: int
    slaps_seen: tuple[SlapEvent, ...]
    links: tuple[PadLinkEvent, ...]
    counters: Any


def play(name: str, out: Path, longer_us: int = 0) -> Played:
    scenario = load_scenario(HIL / name)
    scenario = replace(scenario, end_us=scenario.end_us + longer_us)
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
    )


@pytest.fixture(scope="module")
def near_tie(tmp_path_factory: pytest.TempPathFactory) -> Played:
    return play("karate_fight/near_tie_2.toml", tmp_path_factory.mktemp("near-tie-2"))


@pytest.fixture(scope="module")
def unplugged(tmp_path_factory: pytest.TempPathFactory) -> Played:
    """Run 3 s past the scenario's end: the replugged board boots and waits out its 1 s
    BOOTSEL window before it answers HELLO; the link came back at ~4.25 s of this 4.3 s
    scenario in the backend's first runs and not by 4.3 s in a later one."""
    return play("padboard/unplug_mid_game.toml", tmp_path_factory.mktemp("unplug"), longer_us=3_000_000)


def test_a_near_tie_plays_through_the_firmware(near_tie: Played) -> None:
    """The scenario runs to its end on the board's clock; the link stays up, clean, and
    delivers no slap twice."""
    r = near_tie.result
    assert r.status in ("pass", "fail") and r.timebase == "emulated", r.summary()
    assert len(r.checks) == 17, r.summary()  # every checkpoint was reached and judged
    assert near_tie.counters.garbage_bytes == 0 and near_tie.counters.bad_frames == 0, near_tie.counters
    assert not near_tie.links, near_tie.links  # no link lost mid-game
    assert len(near_tie.slaps_seen) <= near_tie.slaps_injected, near_tie.slaps_seen


@pytest.mark.xfail(strict=True, reason=CLOCK_SYNC)
def test_the_board_stamps_each_near_tie_slap_at_its_contact(near_tie: Played) -> None:
    f = near_tie.result.fidelity
    assert f.unmatched == 0, f.as_json()
    slap_errors = sorted(f.errors, key=abs)[-near_tie.slaps_injected :]
    assert all(abs(e) <= STAMP_US for e in slap_errors), f.errors


def test_unplug_pauses_the_game_and_the_board_comes_back(unplugged: Played) -> None:
    """The board's power and USB cut mid-game: the driver reports the link down and the
    game pauses; on replug the board restarts from its flash and the link comes back
    (later than the scenario's window allows, which was written for the simulator's
    replug: the firmware's boot and 1 s BOOTSEL window come first; BENCHMARKS.md)."""
    r = unplugged.result
    assert r.status in ("pass", "fail"), r.summary()
    assert [e.connected for e in unplugged.links] == [False, True], unplugged.links
    lost = [c for c in r.checks if c.kind == "paused" and c.expect.startswith("link lost")]
    assert [c.status for c in lost] == ["pass"], [c.as_json() for c in r.checks]
    assert unplugged.counters.garbage_bytes == 0 and unplugged.counters.bad_frames == 0, unplugged.counters
    print(f"link down {unplugged.links[0].t_us} µs, back {unplugged.links[1].t_us} µs (replug at 2,000,000)")


def test_four_fighters_are_more_than_the_board_has_pads(tmp_path: Path) -> None:
    """Karate's 4-fighter near-tie needs four pads: skipped, saying why (the board has three)."""
    result = EmulatedRun(load_scenario(HIL / "karate_fight/near_tie_4.toml"), tmp_path).run()
    assert result.status == "skip" and "3 pads" in result.message, result.summary()

"""From the pad's surface to the verdict (firmware_py.sim.slap_chain), at a bounded N:
the stamps the whole chain gives are the contacts, and the Hit goes to the palm that
touched first.  Accuracy only: nothing here is timed."""

from __future__ import annotations

import random
import statistics

import pytest

from firmware_py.games.karate_fight.slap_verdict import verdict
from firmware_py.padboard.board import Board
from firmware_py.sim.piezo import PiezoPad, peak_for_velocity
from firmware_py.sim.slap_chain import GpioEdgeChain, PadboardChain, PhysicalSlap, Stamped, row_table
from hal.edge_timing import NOMINAL_RING_US, EdgeWalk
from hal.padboard.settings import PadSettings

TABLE = row_table([PiezoPad()] * 4, near=0.05, falloff=0.35)
"""Nominal pads on separate stands: the default onset curve is theirs, crosstalk ≤ 5 %."""
SETTINGS = [PadSettings(xtalk_pct=8)] * 4  # the stands' crosstalk × 1.5, as calibration sets it


def forces(rng: random.Random) -> float:
    return peak_for_velocity(rng.choice([10, 20, 40, 70, 100, 127]))


@pytest.fixture(scope="module")
def padboard() -> PadboardChain:
    return PadboardChain(TABLE, SETTINGS, seed=3)


@pytest.mark.slow
def test_chain_stamps_single_slaps_at_their_contact_whatever_the_force(padboard: PadboardChain) -> None:
    rng = random.Random(1)
    for _ in range(24):
        s = PhysicalSlap(rng.randrange(4), padboard.now_us + 50_000, forces(rng))
        (got,) = [g for g in padboard.run([s]) if g.pad == s.pad]
        assert got.board_error_us is not None and abs(got.board_error_us) <= 60, (s, got)
        assert abs(got.t_us - s.t_us) <= 80, (s, got)  # after the clock sync as well


@pytest.mark.slow
@pytest.mark.parametrize("separation", [200, 1000])
def test_chain_hit_goes_to_the_first_palm(padboard: PadboardChain, separation: int) -> None:
    rng = random.Random(separation)
    for k in range(20):
        pads = rng.sample(range(4), 3 if k % 4 == 3 else 2)
        t0 = padboard.now_us + 50_000
        slaps = [PhysicalSlap(p, t0 + i * separation, forces(rng)) for i, p in enumerate(pads)]
        assert verdict(padboard.run(slaps), t0 - 250_000, 12_000) == pads[0], slaps


def test_chain_gpio_edge_correction_takes_out_the_force_bias() -> None:
    raw = GpioEdgeChain(TABLE, [2000] * 4, seed=5)
    fixed = GpioEdgeChain(TABLE, [2000] * 4, seed=5, walk={p: EdgeWalk(NOMINAL_RING_US) for p in range(4)})
    errors: dict[tuple[str, str], list[int]] = {}
    for k in range(16):
        kind = "soft" if k % 2 else "hard"
        s = PhysicalSlap(k % 4, 1_000_000 + k * 100_000, peak_for_velocity(12 if kind == "soft" else 127))
        for name, chain in (("raw", raw), ("fixed", fixed)):
            (got,) = [g for g in chain.run([s]) if g.pad == s.pad]
            errors.setdefault((name, kind), []).append(got.t_us - s.t_us)
    bias = {
        n: statistics.median(errors[(n, "soft")]) - statistics.median(errors[(n, "hard")]) for n in ("raw", "fixed")
    }
    assert bias["raw"] > 300 and abs(bias["fixed"]) < 60, bias
    assert all(abs(e) <= 100 for kind in ("soft", "hard") for e in errors[("fixed", kind)])
    t0 = 3_000_000
    slaps = [PhysicalSlap(0, t0, peak_for_velocity(12)), PhysicalSlap(1, t0 + 500, peak_for_velocity(127))]
    assert verdict(fixed.run(slaps), t0 - 250_000, 9_000) == 0  # the soft palm, 0.5 ms first
    raw.close()
    fixed.close()


def test_chain_equal_stamps_are_no_winner() -> None:
    same = [Stamped(0, 1_000_000, 1_001_000), Stamped(1, 1_000_000, 1_002_000)]
    assert verdict(same, 800_000, 6_000) is None  # a dead heat goes to Jan Ken, not to a fighter


@pytest.mark.parametrize("gapless", [False, True])
def test_a_gapless_chain_samples_between_cases_as_a_board_does(gapless: bool) -> None:
    """By default each case is sampled from 10 ms before its first slap, and what lies
    between cases is skipped (lighter); ``gapless`` feeds the board every frame, as a
    board samples, so a ring still sounding from the case before reaches the next one."""
    chain = PadboardChain(TABLE, SETTINGS, seed=3, gapless=gapless)
    fed: list[int] = []
    feed = chain.dma.feed

    def recorded(board: Board, t_first: int, count: int) -> None:
        fed.append(t_first)
        feed(board, t_first, count)

    chain.dma.feed = recorded  # type: ignore[method-assign]
    for _ in range(3):
        chain.run([PhysicalSlap(1, chain.now_us + 60_000, 8_000.0)])
    steps = {b - a for a, b in zip(fed, fed[1:], strict=False)}
    block = 40 * chain.dma.frame_us
    assert (steps == {block}) is gapless, sorted(steps)

"""A neighbour's slap rides on a soft slap's rising edge through the table: the board
subtracts each slapped pad's signal, scaled and delayed as calibration measured that
pair's crosstalk, before it times the edge (docs/slap-timing.md).  Pinned here: without
the subtraction the soft slap that came first is stamped late (or dropped) and loses;
with it, it is stamped at its contact; a pad that only carries crosstalk is still
dropped, and a pad shaken by a third pad's slap does not take that slap away twice."""

from __future__ import annotations

from firmware_py.sim.piezo import PiezoPad, peak_for_velocity
from tests.firmware_py.padboard.test_onset import DEFAULT, dma_run

NEAR, FAR = 0.2, 0.07
ROW = [[0.0, NEAR, FAR], [NEAR, 0.0, NEAR], [FAR, NEAR, 0.0]]  # three pads in a row on one table
PAD = PiezoPad(position_us=0.0)  # the palm lands on the same spot: the test's truth is exact


def settings(subtract: bool) -> list[dict[str, int]]:
    """Crosstalk cancel per source pad (×1.5, as calibration sets it) and, with
    ``subtract``, the subtraction calibration would measure on this row."""
    out = []
    for i in range(3):
        s = dict(DEFAULT)
        for j in range(3):
            if j != i:
                s[f"xtalk_from{j}"] = round(150 * ROW[j][i])
                if subtract:
                    s[f"xgain_from{j}"] = round(1000 * ROW[j][i])
                    s[f"xlag_from{j}"] = 250  # the model's crosstalk delay
        s["xclean_pct"] = 40
        out.append(s)
    return out


SOFT, HARD = peak_for_velocity(20), peak_for_velocity(127)


def soft_error(first: int, second: int, subtract: bool, seed: int) -> int | None:
    """The stamp error of a soft slap on ``first`` 100 µs before a hard one on ``second``
    (None: the soft slap was dropped)."""
    slaps = [(first, 30_000, SOFT), (second, 30_100, HARD)]
    hits = dma_run(slaps, pads=3, seed=seed, crosstalk=ROW, pad=PAD, settings=settings(subtract), duration=80_000)
    assert [p for p, _e, _v in hits].count(second) == 1, hits
    soft = [e for p, e, _v in hits if p == first]
    return soft[0] if soft else None


def test_soft_slap_before_a_hard_neighbour_is_stamped_at_its_contact() -> None:
    for seed in range(4):
        with_it = soft_error(0, 1, True, seed)
        assert with_it is not None and abs(with_it) <= 50, with_it
        without = soft_error(0, 1, False, seed)
        assert without is None or without > 100, without  # the hard slap's crosstalk made it late: it lost


def test_soft_slap_before_a_hard_slap_two_pads_away_is_stamped_at_its_contact() -> None:
    """Pad 1 between them carries the hard slap's crosstalk: it is not subtracted as if it
    were a slap, or the hard slap would be taken away twice and the soft one come out early."""
    for seed in range(4):
        with_it = soft_error(0, 2, True, seed)
        assert with_it is not None and abs(with_it) <= 50, with_it
        without = soft_error(0, 2, False, seed)
        assert without is None or without - with_it >= 40, (without, with_it)  # late by the crosstalk's lift


def test_crosstalk_alone_is_still_dropped_with_subtraction() -> None:
    """What is left of pure crosstalk after the subtraction is no slap: cancel drops it."""
    for seed in range(4):
        hits = dma_run([(1, 30_000, HARD)], pads=3, seed=seed, crosstalk=ROW, pad=PAD, settings=settings(True))
        assert [p for p, _e, _v in hits] == [1], hits


def test_hard_slap_first_then_a_soft_one_keeps_the_order() -> None:
    for seed in range(4):
        slaps = [(1, 30_000, HARD), (0, 30_100, SOFT)]
        hits = dma_run(slaps, pads=3, seed=seed, crosstalk=ROW, pad=PAD, settings=settings(True), duration=80_000)
        hard = [e for p, e, _v in hits if p == 1]
        assert len(hard) == 1 and abs(hard[0]) <= 50, hits
        soft = [e for p, e, _v in hits if p == 0]
        assert not soft or soft[0] + 100 > hard[0], hits  # kept or dropped, never ahead of the hard slap

"""gpio-edge pads (a comparator, no analog signal): the same prompted procedure fits the
mask time from one slap's chatter and learns the minimum gap from the flurry."""

from __future__ import annotations

import pytest

from calibration.gpio_fit import apply_mask, groups, ring_period_us
from calibration.runner import run_wizard
from calibration.wizard import Counts, Wizard
from firmware_py.sim.operator import Forces, ScriptedOperator
from firmware_py.sim.pad_sets import SIM_CABINETS, virtual_cabinet
from hal.padboard.messages import PadHit


def test_groups_split_on_quiet() -> None:
    assert groups([0, 1000, 2000, 400_000, 401_000], 150_000) == [[0, 1000, 2000], [400_000, 401_000]]


def test_apply_mask_is_what_the_gpio_source_reports() -> None:
    from calibration.capture import Capture

    hits = tuple(PadHit(0, t, 0, 0) for t in (0, 3_000, 9_000, 100_000))
    cap = Capture("soft", 0, 2, 0, 200_000, (), {}, hits, 0)
    assert [h.t_us for h in apply_mask(cap, {0: 10_000}).hits] == [0, 100_000]


@pytest.mark.slow
def test_comparator_too_low_is_reported_as_crosstalk() -> None:
    vp = virtual_cabinet("quiet", seed=3, comparator=[1500, 1500])
    w = Wizard(
        vp.pads,
        [0, 1],
        {p: vp.read_settings(p) for p in range(vp.pads)},
        analog=False,
        counts=Counts(soft=6, hard=4, flurry=8),
    )
    assert run_wizard(w, vp, ScriptedOperator(vp)) is None  # verification fails: nothing saved
    failed = [c for v in w.verdicts.values() for c in v.failed()]
    assert failed and all(c.name == "crosstalk triggers" for c in failed)
    assert "threshold pot" in failed[0].advice


@pytest.mark.slow
def test_wizard_on_comparator_pads() -> None:
    vp = virtual_cabinet("quiet", seed=3, comparator=[3200, 3200])
    assert not vp.analog
    w = Wizard(
        vp.pads,
        [0, 1],
        {p: vp.read_settings(p) for p in range(vp.pads)},
        analog=False,
        counts=Counts(soft=6, hard=4, flurry=8),
    )
    op = ScriptedOperator(vp, forces=Forces(soft=(5000.0, 8000.0)))
    settings = run_wizard(w, vp, op)
    assert settings is not None, [v.failed() for v in w.verdicts.values()]
    for p in (0, 1):
        g = w.gpio_fits[p]
        assert g.chatter_us > 0  # the ring makes the comparator chatter
        assert g.mask_us > g.chatter_us
        assert g.min_gap_us is not None and g.min_gap_us >= 1.5 * g.mask_us
        assert "chattered" in " ".join(g.reasons)
        # the ring period (for the force correction) from the chatter's spacing: 250 and 220 Hz
        assert (
            abs(g.ring_us - 1e6 / SIM_CABINETS["quiet"].pads[p].ring_hz)
            <= 0.1 * 1e6 / SIM_CABINETS["quiet"].pads[p].ring_hz
        )
    assert w.gpio_masks() == {p: w.gpio_fits[p].mask_us for p in (0, 1)}
    assert w.gpio_rings() == {p: w.gpio_fits[p].ring_us for p in (0, 1)}


def test_ring_period_is_the_chatters_spacing() -> None:
    assert ring_period_us([[0, 4100, 8150, 12300, 16500, 30000], [5, 4000]]) == 4100
    assert ring_period_us([[0], [10, 900]]) == 0  # no swing rang twice: no period

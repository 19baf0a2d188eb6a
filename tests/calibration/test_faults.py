"""Faults said in words: a dead or unplugged pad, a floating input, a saturating pad, a
drifting baseline; and the wizard refuses to pass a pad that cannot work."""

from __future__ import annotations

from dataclasses import replace

import pytest

from calibration.runner import run_wizard
from calibration.wizard import REVIEW, Wizard
from firmware_py.sim.operator import ScriptedOperator
from firmware_py.sim.pad_sets import SIM_CABINETS, SimCabinetSpec, virtual_cabinet
from firmware_py.sim.piezo import PiezoPad


def run_until_review(pads: tuple[PiezoPad, ...], crosstalk: float = 0.1) -> Wizard:
    SIM_CABINETS["_fault"] = SimCabinetSpec("_fault", pads, crosstalk, "test")
    try:
        vp = virtual_cabinet("_fault", seed=4)
    finally:
        del SIM_CABINETS["_fault"]
    originals = {p: vp.read_settings(p) for p in range(vp.pads)}
    w = Wizard(vp.pads, list(range(vp.pads)), originals)

    class StopAtReview(ScriptedOperator):
        def review(self, wizard):
            return "abort"

    run_wizard(w, vp, StopAtReview(vp))
    return w


def kinds(w: Wizard, pad: int) -> set[str]:
    return {f.kind for f in w.faults.get(pad, [])}


GOOD = PiezoPad(noise=100, gain=1.0)


@pytest.fixture(scope="module")
def faulty() -> Wizard:
    dead = PiezoPad(noise=0, gain=0.0, drift=0)
    saturating = PiezoPad(noise=100, gain=9.0)
    drifting = PiezoPad(noise=100, drift=9000, drift_period_s=1.5)
    return run_until_review((GOOD, dead, saturating, drifting))


@pytest.mark.slow
def test_dead_pad_is_a_flat_line(faulty: Wizard) -> None:
    assert "dead" in kinds(faulty, 1)
    text = " ".join(f.text for f in faulty.faults[1])
    assert "flat line" in text and "unplugged" in text
    assert not faulty.fits[1].ok  # no slap seen: nothing to fit
    assert not faulty.fit_ok


@pytest.mark.slow
def test_saturating_pad(faulty: Wizard) -> None:
    assert "saturating" in kinds(faulty, 2)
    assert "gain down" in " ".join(f.text for f in faulty.faults[2])


@pytest.mark.slow
def test_drifting_baseline(faulty: Wizard) -> None:
    assert "drifting" in kinds(faulty, 3)
    assert faulty.fits[3].settings.baseline_shift < 10  # the fit follows the drift faster


@pytest.mark.slow
def test_good_pad_has_no_fault(faulty: Wizard) -> None:
    assert kinds(faulty, 0) == set()


@pytest.mark.slow
def test_floating_input() -> None:
    w = run_until_review((GOOD, PiezoPad(noise=4000, gain=1.0)))
    assert "floating" in kinds(w, 1)


@pytest.mark.slow
def test_the_review_shows_no_review_state_after_abort() -> None:
    w = run_until_review((GOOD, replace(GOOD, gain=0.8)))
    assert w.state != REVIEW and w.fits  # fitted, then aborted at the review

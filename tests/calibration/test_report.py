"""The session report and the saved profile are built from the wizard alone: one page per
calibrated pad with only that pad's lines and signal, and a profile that keeps why each
value was chosen."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

import pytest

from calibration.profiles import wizard_profile
from calibration.report import MAX_PLOTS, report_pages, report_path
from calibration.wizard import DONE, Counts
from firmware_py.sim.proof import calibrate_sim

COUNTS = Counts(soft=4, hard=3, flurry=4, verify_soft=4, verify_hard=2)


@pytest.mark.slow
def test_one_report_page_per_calibrated_pad_with_only_its_lines_and_signal() -> None:
    w, _vp, _op, settings = calibrate_sim("quiet", counts=COUNTS, targets=[1])
    assert w.state == DONE and settings is not None
    (page,) = report_pages(w)
    assert page.title == "Pad 2 report" and page.headline.startswith("Pad 2")
    assert page.lines[0].startswith("Pad 2:") and not any(line.startswith("Pad 1") for line in page.lines)
    assert any("PASS" in line for line in page.lines) and not page.failed
    assert 0 < len(page.plots) <= MAX_PLOTS and all(p.pad == 1 for p in page.plots)
    fitted = [p for p in page.plots if p.label.endswith("(fitted)")]
    assert fitted and all(p.settings == w.candidate()[1] and p.status == "PASS" for p in fitted)
    before = [p for p in page.plots if p.label.endswith("(settings as before)")]
    assert all(p.settings == w.originals[1] for p in before)


@pytest.mark.slow
def test_the_saved_profile_keeps_the_settings_and_every_reason() -> None:
    w, _vp, _op, settings = calibrate_sim("quiet", counts=COUNTS)
    assert settings is not None
    profile = wizard_profile("hall", "cab", w, settings)
    assert (profile.name, profile.cabinet, profile.source) == ("hall", "cab", "padboard")
    assert profile.pads == settings and profile.gpio_mask_us == w.gpio_masks()
    for p, fit in w.fits.items():
        assert [n for n in profile.notes if n.startswith(f"pad {p + 1}: ")] == [
            f"pad {p + 1}: {r}" for r in fit.reasons
        ]


def test_report_path_names_the_profile_and_the_moment() -> None:
    path = report_path(Path("/data"), "cabinet", datetime(2025, 3, 4, 5, 6, 7))
    assert path == Path("/data/calibration/reports/cabinet-20250304-050607.png")

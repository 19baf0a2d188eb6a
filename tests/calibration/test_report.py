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
def test_each_calibrated_pad_gets_a_verdict_page_and_a_details_page_with_only_its_lines() -> None:
    w, _vp, _op, settings = calibrate_sim("quiet", counts=COUNTS, targets=[1])
    assert w.state == DONE and settings is not None
    page, details = report_pages(w)
    assert page.title == "Pad 2 report" and page.headline.startswith("Pad 2: good — ")
    assert page.lines[0].startswith("Pad 2: good — its softest slap was") and not page.failed
    assert (
        page.lines[1]
        == "Pad 2: good — no false triggers, soft slaps seen, none counted twice, the other pads never set it off"
    )
    assert not any(("dB" in line or "σ" in line) for line in page.lines)  # the numbers are on the details page
    assert details.title == "Pad 2: details" and details.plots == ()
    assert details.lines[0].startswith("Pad 2:") and not any(line.startswith("Pad 1") for line in details.lines)
    assert any("dB over the noise" in line for line in details.lines) and any("PASS" in line for line in details.lines)
    assert 0 < len(page.plots) <= MAX_PLOTS and all(p.pad == 1 for p in page.plots)
    fitted = [p for p in page.plots if p.label.endswith("(fitted)")]
    assert fitted and all(p.settings == w.candidate()[1] and p.status == "PASS" for p in fitted)
    before = [p for p in page.plots if p.label.endswith("(settings as before)")]
    assert all(p.settings == w.originals[1] for p in before)


@pytest.mark.slow
def test_the_report_keeps_every_warning_on_the_pads_page_and_every_reason_on_its_details() -> None:
    w, _vp, _op, _settings = calibrate_sim("rough", counts=COUNTS)
    pages = report_pages(w)
    warned = [p for p, f in w.fits.items() if f.warnings]
    assert warned, "the rough set's pads give warnings (the test needs one)"
    for p, fit in w.fits.items():
        page, details = pages[2 * w.targets.index(p)], pages[2 * w.targets.index(p) + 1]
        assert all(f"  ! {x}" in page.lines for x in fit.warnings)
        assert all(f"  - {r}" in details.lines for r in fit.reasons)
        if fit.warnings:
            assert "note" in page.lines[0] and page.lines[0].startswith(f"Pad {p + 1}: usable — ")


def test_a_long_page_is_split_into_pages_that_each_fit_and_keep_every_word() -> None:
    from display.calibration_screen import REPORT_SIZE, CalibrationScreen, layout, paginate

    long_reason = "  - " + " ".join(f"word{i}" for i in range(400))  # longer than one page's width many times
    lines = tuple([f"Pad 1: line {i} " + "x" * (i % 90) for i in range(120)] + [long_reason, "  ! the last warning"])
    screen = CalibrationScreen(
        title="Pad 1 report", step="The numbers", progress=1.0, lines=lines, traces=(), footer="f"
    )
    pages = paginate(screen, REPORT_SIZE)
    assert len(pages) > 2 and pages[1].title == "Pad 1 report (continued)"
    for page in pages:
        _step, body, room = layout(page, REPORT_SIZE)
        assert len(body) <= room  # nothing drawn past the panel's bottom
    words = " ".join(line for page in pages for line in page.lines).split()
    assert words == " ".join(lines).split()


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


def test_each_pad_gets_one_line_in_an_operators_words_whatever_went_wrong() -> None:
    """The review's and the verdict's one line per pad: a fatal fault says what to check,
    a fit that could not meet a rule says why, warnings are counted and sent to the
    details, a failed check says what happened in words (no dB, σ, τ or ADC)."""
    from types import SimpleNamespace

    from calibration.diagnosis import Fault
    from calibration.fit import PadFit
    from calibration.report import review_verdicts, verification_verdicts
    from calibration.verify import Check, PadVerdict
    from hal.padboard.settings import PadSettings

    def fit(pad: int, warnings: tuple[str, ...] = (), problems: tuple[str, ...] = ()) -> PadFit:
        margins = {"noise_db": 12.0, "soft_db": 6.0}
        return PadFit(pad, PadSettings(), ("reason",), margins, warnings, problems)

    w = SimpleNamespace(
        targets=[0, 1, 2, 3],
        names=["Red", "Blue", "Green", "Gold"],
        analog=True,
        settle_us=None,
        faults={0: [Fault(0, "dead", "Pad 1 shows a flat line (σ 0)")], 1: [], 2: [], 3: []},
        fits={
            0: fit(0),
            1: fit(1, problems=("the pad rings longer than the fastest flurry gap allows",)),
            2: fit(2, warnings=("a", "b")),
            3: fit(3),
        },
        verdicts={
            p: PadVerdict(
                p,
                (
                    Check("false triggers at rest", p != 1, f"{2 if p == 1 else 0} in 10 s", "≤ 0"),
                    Check("soft slaps detected", True, "10 of 10 (100%)", "≥ 99%"),
                ),
            )
            for p in range(4)
        },
    )
    lines = review_verdicts(w)
    assert lines[0] == "Red pad: not usable — no signal at all: check its plug on the padboard and the cable to the pad"
    assert lines[1] == "Blue pad: cannot be set up — the pad rings longer than the fastest flurry gap allows"
    assert lines[2].startswith("Green pad: usable — its softest slap was 8× stronger") and lines[2].endswith(
        "2 notes on the details page"
    )
    assert lines[3].startswith("Gold pad: good — ")
    checked = verification_verdicts(w)
    assert checked[1] == "Blue pad: FAILED — false triggers while nobody touched it (2 in 10 s)"
    assert checked[0] == "Red pad: good — no false triggers, soft slaps seen"
    assert not any(word in line for line in lines + checked for word in ("dB", "σ", "τ", "ADC"))

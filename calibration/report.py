"""What the operator reads: chosen values with their reasons and margins, faults, and the
verdict of each check with what to do.  Plain lines, the same on a terminal and on the
cabinet screen.  A session's report has one page per calibrated pad: its lines beside
the plots of its signal in the steps that tell most (:func:`report_pages`); the cabinet
draws the pages into a PNG kept under :func:`report_path`.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from calibration.capture import Capture
from calibration.profiles import calibration_dir
from calibration.wizard import Wizard, pad_name
from hal.padboard.settings import PadSettings

MAX_PLOTS = 4
"""Plots on one report page: the first verification steps, then the calibration steps."""


def review_lines(w: Wizard) -> list[str]:
    out: list[str] = []
    for p in w.targets:
        n = pad_name(p, w.names).capitalize()
        if w.analog:
            f = w.fits[p]
            s = f.settings
            out.append(
                f"{n}: threshold {s.threshold}, sensitivity {s.sensitivity}, curve {s.curve}, scan {s.scan_us} µs, "
                f"mask {s.mask_us} µs, retrigger {s.retrigger_pct} %/{s.retrigger_decay_us} µs, "
                f"crosstalk {s.xtalk_pct} %/{s.xtalk_window_us} µs, baseline shift {s.baseline_shift}"
            )
            out += [f"  - {r}" for r in f.reasons]
            out += [f"  ! {x}" for x in f.warnings]
            out += [f"  ✗ {x}" for x in f.problems]
        else:
            g = w.gpio_fits[p]
            out.append(f"{n}: mask {g.mask_us} µs (gpio-edge: no analog signal)")
            out += [f"  - {r}" for r in g.reasons]
            out += [f"  ✗ {x}" for x in g.problems]
        out += [f"  {'✗' if x.fatal else '!'} {x.text}" for x in w.faults.get(p, [])]
    if w.display is not None:
        out.append(
            "Display: " + ("latency not measured" if w.display.latency_us is None else "timed by the light sensor")
        )
        out += [f"  {'-' if w.display.ok else '!'} {r}" for r in w.display.reasons]
    return out


def verdict_lines(w: Wizard) -> list[str]:
    out: list[str] = []
    for p in w.targets:
        v = w.verdicts[p]
        out.append(f"{pad_name(p, w.names).capitalize()}: {'PASS' if v.passed else 'FAIL'}")
        for c in v.checks:
            out.append(f"  {'✓' if c.passed else '✗'} {c.name}: {c.measured} (wanted {c.wanted})")
            if c.advice:
                out.append(f"      → {c.advice}")
    out.append(
        "ALL CHECKS PASSED: save the profile." if w.passed else "Some checks FAILED: fix what is said above, then redo."
    )
    return out


def criteria_lines(w: Wizard) -> list[str]:
    return ["Pass criteria:"] + [f"  - {c}" for c in w.criteria.describe()]


@dataclass(frozen=True)
class Plot:
    """One pad's signal in one recorded step, with the settings that judged it."""

    capture: Capture
    pad: int
    settings: PadSettings
    label: str
    status: str = ""  # PASS / FAIL for a verification step


@dataclass(frozen=True)
class ReportPage:
    """One calibrated pad: its fit and verdict in words, and its signal."""

    title: str
    headline: str
    lines: tuple[str, ...]
    plots: tuple[Plot, ...]
    failed: bool


def report_pages(w: Wizard) -> list[ReportPage]:
    """One page per calibrated pad: its signal in the steps that tell most (verification
    with the fitted settings, then its own calibration steps with the settings as they
    were), with the fit and verdict lines that concern it."""
    pages = []
    review = review_lines(w) if w.fits or w.gpio_fits else []
    verdict = verdict_lines(w) if w.verdicts else []
    for p in w.targets:
        plots: list[Plot] = []
        status = ("PASS" if w.verdicts[p].passed else "FAIL") if p in w.verdicts else ""
        for cap in w.verify_captures:
            if cap.samples.get(p) and (cap.pad == p or cap.kind == "verify_idle" or len(plots) < 3):
                on = "hands off" if cap.pad is None else f"pad {cap.pad + 1} slapped"
                label = f"{pad_name(p)} · {cap.kind.replace('_', ' ')}, {on} (fitted)"
                plots.append(Plot(cap, p, w.candidate()[p], label, status))
        for cap in w.captures:
            if cap.samples.get(p) and (cap.pad == p or cap.kind == "rest"):
                plots.append(Plot(cap, p, w.originals[p], f"{pad_name(p)} · {cap.kind} (settings as before)"))
        mine = [line for line in review + verdict if line.startswith(pad_name(p).capitalize())]
        pages.append(
            ReportPage(
                f"{pad_name(p).capitalize()} report",
                mine[0] if mine else pad_name(p),
                tuple(pad_lines(review, p) + pad_lines(verdict, p)),
                tuple(plots[:MAX_PLOTS]),
                failed=status == "FAIL",
            )
        )
    return pages


def pad_lines(lines: list[str], pad: int) -> list[str]:
    """The section of ``lines`` (review or verdict) that is about ``pad``."""
    head = pad_name(pad).capitalize()
    out, on = [], False
    for line in lines:
        if line.startswith("Pad "):
            on = line.startswith(head + ":") or line.startswith(head + " (")
        if on:
            out.append(line)
    return out


def report_path(data_dir: Path, profile: str, now: datetime) -> Path:
    """Where the PNG report of a session that saved (or tried) ``profile`` is kept."""
    return calibration_dir(data_dir) / "reports" / f"{profile}-{now.strftime('%Y%m%d-%H%M%S')}.png"

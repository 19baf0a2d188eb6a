"""What the operator reads: chosen values with their reasons and margins, faults, and the
verdict of each check with what to do.  Plain lines, the same on a terminal and on the
cabinet screen.  A session's report has one page per calibrated pad: its lines beside
the plots of its signal in the steps that tell most (:func:`report_pages`); the cabinet
draws the pages into a PNG kept under :func:`report_path`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from calibration.capture import Capture
from calibration.fit import limited
from calibration.profiles import calibration_dir
from calibration.wizard import Wizard, pad_name
from hal.padboard.settings import PadSettings
from hal.timing import PADBOARD_SETTLE_US

MAX_PLOTS = 4
"""Plots on one report page: the first verification steps, then the calibration steps."""


def _cap(words: str) -> str:
    """``words`` with its first letter upper case (and a station's name as it is spelt)."""
    return words[:1].upper() + words[1:]


def review_lines(w: Wizard) -> list[str]:
    out: list[str] = []
    for p in w.targets:
        n = _cap(pad_name(p, w.names))
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


def pad_label(pad: int, names: Sequence[str] | None = None) -> str:
    """A pad as an operator calls it: by its station ("Red pad"), else by number ("Pad 2")."""
    return f"{names[pad]} pad" if names and pad < len(names) else f"Pad {pad + 1}"


FAULT_WORDS = {
    "dead": "no signal at all: check its plug on the padboard and the cable to the pad",
    "floating": "noisy even untouched: a wire of its sensor is loose",
    "saturating": "reads at its limit: turn its gain down (trim pot) or add foam under the pad",
    "drifting": "its resting level wanders: re-seat the cable",
    "silent": "felt nothing when it was slapped: wrong pad slapped, or wired to another input",
}
"""Each pad fault (:mod:`calibration.diagnosis`) in a few plain words."""


def review_verdicts(w: Wizard) -> list[str]:
    """One line per calibrated pad, in an operator's words, once the fit is done: good,
    usable with notes, or not usable and what to do (the numbers: :func:`review_lines`)."""
    out: list[str] = []
    for p in w.targets:
        n = pad_label(p, w.names)
        faults = w.faults.get(p, [])
        fatal = [f for f in faults if f.fatal]
        if fatal:
            out.append(f"{n}: not usable — {FAULT_WORDS.get(fatal[0].kind, fatal[0].text)}")
            continue
        if w.analog:
            f = w.fits[p]
            problems, notes = list(f.problems), len(f.warnings) + len(faults)
            ratio = 10 ** ((f.margins.get("noise_db", 0.0) + f.margins.get("soft_db", 0.0)) / 20)
            good = f"its softest slap was {ratio:.0f}× stronger than the pad at rest, hard slaps read full strength"
            held = limited(f.warnings)
            if held:
                good += f"; limited by what the board can hold: {', '.join(held)} (see the details)"
        else:
            g = w.gpio_fits[p]
            problems, notes = list(g.problems), len(faults)
            good = f"each slap counts once, a new one can follow {g.mask_us / 1000:.0f} ms later"
        if problems:
            out.append(f"{n}: cannot be set up — {problems[0]}")
        elif notes:
            out.append(f"{n}: usable — {good}; {notes} note{'s' if notes > 1 else ''} on the details page")
        else:
            out.append(f"{n}: good — {good}")
    if w.settle_us is not None:
        out.append(
            f"Who slapped first is decided {w.settle_us / 1000:.0f} ms after a slap "
            f"({PADBOARD_SETTLE_US / 1000:.0f} ms by default): these settings make the board report a little later, "
            "and the saved profile allows for it"
        )
    return out


CHECK_WORDS = {
    "false triggers at rest": ("no false triggers", "false triggers while nobody touched it ({measured})"),
    "soft slaps detected": ("soft slaps seen", "soft slaps missed ({measured} seen)"),
    "slaps counted twice": ("none counted twice", "{measured} slaps counted twice"),
    "crosstalk triggers": ("the other pads never set it off", "set off by slaps on the other pads ({measured})"),
}
"""Each verification check (:mod:`calibration.verify`) when it passed and when it failed."""


def verification_verdicts(w: Wizard) -> list[str]:
    """One line per verified pad in an operator's words: good and what was seen, or what
    failed (the measured numbers and the advice: :func:`verdict_lines`)."""
    out: list[str] = []
    for p in w.targets:
        v = w.verdicts[p]
        words = [
            CHECK_WORDS.get(c.name, (c.name, f"{c.name}: {c.measured}"))[0 if c.passed else 1].format(
                measured=c.measured
            )
            for c in v.checks
            if c.passed == v.passed
        ]
        out.append(f"{pad_label(p, w.names)}: {'good' if v.passed else 'FAILED'} — {', '.join(words)}")
    return out


def verdict_lines(w: Wizard) -> list[str]:
    out: list[str] = []
    for p in w.targets:
        v = w.verdicts[p]
        out.append(f"{_cap(pad_name(p, w.names))}: {'PASS' if v.passed else 'FAIL'}")
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
    """Two pages per calibrated pad.  The first: its verdict in words, every warning,
    problem and fault, the checks that failed with what to do, beside its signal in the
    steps that tell most (verification with the fitted settings, then its own
    calibration steps with the settings as they were).  The second, "details": every
    fitted value with its reason and every measured check (the numbers)."""
    pages = []
    review = review_lines(w) if w.fits or w.gpio_fits else []
    verdict = verdict_lines(w) if w.verdicts else []
    plain = (review_verdicts(w) if review else []) + (verification_verdicts(w) if verdict else [])
    for p in w.targets:
        label = pad_label(p, w.names)
        plots: list[Plot] = []
        status = ("PASS" if w.verdicts[p].passed else "FAIL") if p in w.verdicts else ""
        for cap in w.verify_captures:
            if cap.samples.get(p) and (cap.pad == p or cap.kind == "verify_idle" or len(plots) < 3):
                on = "hands off" if cap.pad is None else f"pad {cap.pad + 1} slapped"
                plot_label = f"{pad_name(p)} · {cap.kind.replace('_', ' ')}, {on} (fitted)"
                plots.append(Plot(cap, p, w.candidate()[p], plot_label, status))
        for cap in w.captures:
            if cap.samples.get(p) and (cap.pad == p or cap.kind == "rest"):
                plots.append(Plot(cap, p, w.originals[p], f"{pad_name(p)} · {cap.kind} (settings as before)"))
        mine = [line for line in plain if line.startswith(label + ":")]
        details = pad_lines(review, p) + pad_lines(verdict, p)
        notes = [line for line in details if line.lstrip().startswith(("!", "✗", "→"))]
        shared = [line for line in plain if not line.startswith(tuple(pad_label(q, w.names) for q in w.targets))]
        pages.append(
            ReportPage(
                f"{label} report",
                mine[-1] if mine else label,
                tuple(mine + shared + notes),
                tuple(plots[:MAX_PLOTS]),
                failed=status == "FAIL" or any(line.lstrip().startswith("✗") for line in notes),
            )
        )
        pages.append(ReportPage(f"{label}: details", "The numbers behind the verdict", tuple(details), (), False))
    return pages


def pad_lines(lines: list[str], pad: int) -> list[str]:
    """The section of ``lines`` (review or verdict) that is about ``pad``."""
    head = _cap(pad_name(pad))
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

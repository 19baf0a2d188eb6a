"""Calibration on screen: a pad's recorded signal as the display's :class:`PadTrace`, and
a session's report pages (``calibration.report``) drawn into one PNG.

The glue between the two layers that must not know each other: ``calibration`` says what
a page shows, ``display`` how a trace looks.  Used by the calibration scene (live view)
and by both front ends for the session report.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from calibration.analysis import signed_deviation
from calibration.capture import Capture
from calibration.report import report_pages
from calibration.wizard import Wizard
from display.calibration_screen import CalibrationScreen, PadTrace, save_png
from hal.padboard.settings import PadSettings

REPORT_COLOR = (255, 200, 40)


def trace(
    cap: Capture | None,
    pad: int,
    settings: PadSettings,
    label: str,
    color: tuple[int, int, int],
    status: str = "",
    times: Sequence[int] | None = None,
    samples: Sequence[int] | None = None,
    hits: Sequence[Any] = (),
    span_us: int | None = None,
) -> PadTrace:
    """Pad ``pad``'s signal from a finished capture, or from live ``times``/``samples``/
    ``hits`` over the last ``span_us``, as deviations from the baseline."""
    if cap is not None:
        times, samples, hits = cap.times, cap.samples.get(pad, ()), cap.hits_on(pad)
    times = tuple(times or ())
    values = tuple(signed_deviation(list(samples or ()), settings.baseline_shift))
    t1 = times[-1] if times else 0
    t0 = times[0] if times else 0
    if span_us is not None:
        t0 = t1 - span_us
    hit_marks = tuple((h.t_us, h.velocity) for h in hits if h.pad == pad)
    scale = max([settings.threshold * 4, *(abs(v) for v in values[-4000:])] if values else [settings.threshold * 4])
    return PadTrace(
        label=label,
        t0_us=t0,
        t1_us=max(t1, t0 + 1),
        times=times,
        values=values,
        threshold=settings.threshold,
        mask_us=settings.mask_us,
        hits=hit_marks,
        scale=int(scale * 1.05),
        status=status,
        color=color,
    )


def report_screens(w: Wizard) -> list[CalibrationScreen]:
    """The session report's pages as screen models, one per calibrated pad."""
    return [
        CalibrationScreen(
            title=page.title,
            step=page.headline,
            progress=1.0,
            lines=page.lines,
            traces=tuple(trace(p.capture, p.pad, p.settings, p.label, REPORT_COLOR, p.status) for p in page.plots),
            footer="ringside calibrate · session report",
            alert=page.failed,
        )
        for page in report_pages(w)
    ]


def save_report(w: Wizard, path: Path) -> Path:
    return save_png(report_screens(w), path)

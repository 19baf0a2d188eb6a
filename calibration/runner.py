"""Driving a :class:`~calibration.wizard.Wizard` through a pad source and a front end.

The terminal, the cabinet scene's worker and the scripted operator of the tests all use
this loop.  Whatever ends the run early (the operator's abort, Ctrl-C, a board that
went away) re-applies the settings that were in force before, so the old profile stays
in force: nothing reaches the board's flash unless the run finished and was saved.
"""

from __future__ import annotations

from typing import Protocol

from calibration.capture import Capture, Recording
from calibration.display_latency import DisplayLatency
from calibration.source import CaptureAborted, PadSource, record
from calibration.wizard import ABORTED, CAPTURE, DONE, REVIEW, VERDICT, Step, Wizard
from hal.padboard.settings import PadSettings


class Abort(Exception):
    """The operator chose to abort."""


class Frontend(Protocol):
    def before_step(self, wizard: Wizard, step: Step) -> bool:
        """Show the prompt; False aborts.  (A scripted operator schedules its slaps here.)"""
        ...

    def progress(self, wizard: Wizard, rec: Recording) -> bool:
        """Called while recording; False aborts."""
        ...

    def after_step(self, wizard: Wizard, step: Step, cap: Capture) -> None: ...

    def measure_display(self, wizard: Wizard, step: Step) -> DisplayLatency:
        """The display step: flash the screen ``step.slaps`` times and time it with the
        light sensor (:func:`calibration.display_latency.measure`)."""
        ...

    def review(self, wizard: Wizard) -> str:
        """'accept', 'redo' or 'abort'."""
        ...

    def verdict(self, wizard: Wizard) -> str:
        """'save', 'redo' or 'abort' ('save' only counts when every check passed)."""
        ...


def apply_settings(source: PadSource, settings: dict[int, PadSettings]) -> None:
    if not source.analog:
        return
    for pad, s in settings.items():
        if source.read_settings(pad) != s:
            source.write_settings(pad, s)


def run_step(source: PadSource, wizard: Wizard, step: Step, frontend: Frontend) -> Capture:
    apply_settings(source, step.settings)
    pads = list(range(source.pads))
    keep = step.kind != "verify_idle" or source.analog
    rec = Recording(
        step.kind,
        pads,
        step.window_us,
        step.pad,
        step.slaps,
        keep_raw=keep and not (step.kind == "verify_idle" and step.window_us > 60_000_000),
        min_gap_us=50_000 if step.kind == "flurry" else 150_000,
    )
    return record(source, rec, lambda r: frontend.progress(wizard, r))


def run_wizard(
    wizard: Wizard, source: PadSource, frontend: Frontend, max_rounds: int = 3
) -> dict[int, PadSettings] | None:
    """Run to the end.  Returns the settings to save, or None (aborted; old settings
    re-applied)."""
    result = None
    try:
        while wizard.state not in (DONE, ABORTED):
            if wizard.state == CAPTURE:
                step = wizard.step
                if not frontend.before_step(wizard, step):
                    raise Abort()
                if step.kind == "display":
                    wizard.feed_display(frontend.measure_display(wizard, step))
                    continue
                cap = run_step(source, wizard, step, frontend)
                frontend.after_step(wizard, step, cap)
                wizard.feed(cap)
            elif wizard.state == REVIEW:
                choice = frontend.review(wizard)
                if choice == "accept":
                    wizard.accept()
                elif choice == "redo" and wizard.rounds + 1 < max_rounds:
                    wizard.redo()
                else:
                    raise Abort()
            elif wizard.state == VERDICT:
                choice = frontend.verdict(wizard)
                if choice == "save" and wizard.passed:
                    result = wizard.finish()
                elif choice == "force":
                    result = wizard.finish(force=True)
                elif choice == "redo" and wizard.rounds + 1 < max_rounds:
                    wizard.redo()
                else:
                    raise Abort()
    except (Abort, CaptureAborted, KeyboardInterrupt):
        wizard.abort()
    finally:
        if wizard.state != DONE:
            wizard.abort()
            try:
                apply_settings(source, wizard.restore())
            except Exception:
                pass
    return result

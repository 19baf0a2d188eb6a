"""The outcome of one scenario run on one backend, as the reports and pytest read it."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from firmware_py.hil.checks import CheckResult


@dataclass
class Fidelity:
    """Injected µs stamps against what the cabinet saw.

    ``inputs``: injected presses, releases and slaps paired (in order, per station and
    button) with the input events the cabinet's scenes received; ``exact`` of them carried
    the injected stamp to the µs.  ``actions``: engine actions that carry a ``t_us``
    (timed games) whose stamp is an injected one (``actions_exact``); actions stamped with
    a frame flip (a reveal) are not inputs and are not counted."""

    inputs: int = 0
    exact: int = 0
    unmatched: int = 0
    max_error_us: int = 0
    actions: int = 0
    actions_exact: int = 0
    errors: list[int] = field(default_factory=list)

    def as_json(self) -> dict[str, Any]:
        return {
            "inputs": self.inputs,
            "exact": self.exact,
            "unmatched": self.unmatched,
            "max_error_us": self.max_error_us,
            "actions": self.actions,
            "actions_exact": self.actions_exact,
        }

    def summary(self) -> str:
        s = f"{self.exact}/{self.inputs} inputs exact"
        if self.inputs and self.exact < self.inputs:
            s += f" (max error {self.max_error_us} µs)"
        if self.unmatched:
            s += f", {self.unmatched} not seen"
        if self.actions:
            s += f", {self.actions_exact}/{self.actions} engine stamps exact"
        return s


@dataclass
class ScenarioResult:
    name: str
    path: Path
    backend: str
    status: str = "pass"  # pass, fail, error, skip
    checks: list[CheckResult] = field(default_factory=list)
    message: str = ""
    wall_s: float = 0.0
    length_us: int = 0
    frames: int = 0
    engine_events: int = 0
    fidelity: Fidelity = field(default_factory=Fidelity)
    files: list[str] = field(default_factory=list)
    out_dir: Path | None = None
    timebase: str = "virtual"
    """``virtual`` (sim, ManualClock: exact), ``real-time`` (sim with the padboard
    simulator and driver threads, or a rig)."""

    @property
    def failures(self) -> list[CheckResult]:
        return [c for c in self.checks if c.failed]

    def finish(self) -> ScenarioResult:
        if self.status == "pass" and self.failures:
            self.status = "fail"
            self.message = f"{len(self.failures)} of {len(self.checks)} checks failed"
        return self

    def summary(self) -> str:
        passed = sum(1 for c in self.checks if c.status == "pass")
        skipped = sum(1 for c in self.checks if c.status == "skip")
        line = (
            f"{self.status.upper():5} {self.name} [{self.backend}]: {passed}/{len(self.checks)} checks"
            + (f", {skipped} skipped" if skipped else "")
            + f"; timeline {self.length_us / 1e6:.2f} s in {self.wall_s:.2f} s; {self.fidelity.summary()}"
        )
        if self.message and self.status != "pass":
            line += f"\n      {self.message}"
        for c in self.failures:
            line += f"\n      ✗ {c.expect}: {c.kind}: {c.message}"
        return line

    def failure_text(self) -> str:
        lines = [self.message] if self.message else []
        for c in self.failures:
            lines.append(f"{c.expect} [{c.kind}] {c.message}" + (f" (files: {', '.join(c.files)})" if c.files else ""))
        return "\n".join(lines)

    def as_json(self) -> dict[str, Any]:
        return {
            "scenario": self.name,
            "path": str(self.path),
            "backend": self.backend,
            "status": self.status,
            "message": self.message,
            "wall_s": round(self.wall_s, 4),
            "timeline_us": self.length_us,
            "frames": self.frames,
            "engine_events": self.engine_events,
            "timebase": self.timebase,
            "fidelity": self.fidelity.as_json(),
            "checks": [c.as_json() for c in self.checks],
            "files": self.files,
        }

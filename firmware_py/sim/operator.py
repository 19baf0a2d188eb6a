"""The scripted operator: simulated hands that do what the calibration wizard prompts.

It slaps virtual pads (soft, hard, a flurry, soft to hard with the contact probe, the
neighbours) with forces drawn from a
seeded RNG, keeps every slap as ground truth, and answers the wizard's questions like a
:class:`~calibration.runner.Frontend` (or lends only its hands to the terminal front end
and the calibration scene).  ``abort_at`` names a step kind at which it aborts instead,
to test that nothing changes.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field

from calibration.capture import Capture, Recording
from calibration.display_latency import DisplayLatency, measure
from calibration.report import review_lines, verdict_lines
from calibration.virtual import VirtualPads
from calibration.wizard import Step, Wizard
from firmware_py.sim.panel import SimPanel


@dataclass(frozen=True)
class Forces:
    """How hard the (simulated) players slap: counts before the pad's gain."""

    soft: tuple[float, float] = (3000.0, 6000.0)
    hard: tuple[float, float] = (18000.0, 26000.0)
    flurry: tuple[float, float] = (6000.0, 15000.0)
    flurry_gap_us: tuple[int, int] = (70_000, 110_000)

    @property
    def full(self) -> float:
        return self.hard[1]


@dataclass
class ScriptedOperator:
    """Performs every prompted slap on virtual pads and answers the wizard."""

    pads: VirtualPads
    seed: int = 7
    forces: Forces = field(default_factory=Forces)
    react_us: int = 600_000
    abort_at: str | None = None
    verdict_choice: str = "save"
    on_line: Callable[[str], None] | None = None
    truth: list[tuple[str, int, int, float]] = field(default_factory=list)  # (step, pad, t_us, force)
    panel: SimPanel | None = None  # the screen and light sensor, for a display step

    def __post_init__(self) -> None:
        self.rng = random.Random(self.seed)

    def _say(self, line: str) -> None:
        if self.on_line is not None:
            self.on_line(line)

    def perform(self, step: Step) -> None:
        r, f = self.rng, self.forces
        last = max((s[2] for s in self.truth), default=0)
        t = max(self.pads.now_us(), last + 300_000) + self.react_us  # one step's slaps never spill into the next
        plan: list[tuple[int, float, int]] = []  # pad, force, gap before the next
        if step.kind in ("soft", "verify_soft"):
            assert step.pad is not None  # the wizard names the pad of every slapping step
            plan = [(step.pad, r.uniform(*f.soft), r.randrange(400_000, 600_000)) for _ in range(step.slaps)]
        elif step.kind in ("hard", "verify_hard"):
            assert step.pad is not None  # the wizard names the pad of every slapping step
            plan = [(step.pad, r.uniform(*f.hard), r.randrange(500_000, 700_000)) for _ in range(step.slaps)]
        elif step.kind == "flurry":
            assert step.pad is not None  # the wizard names the pad of every slapping step
            plan = [(step.pad, r.uniform(*f.flurry), r.randrange(*f.flurry_gap_us)) for _ in range(step.slaps)]
        elif step.kind == "probe":
            assert step.pad is not None  # the wizard names the pad of every slapping step
            lo, hi = f.soft[0], f.hard[1]
            plan = [
                (step.pad, lo * (hi / lo) ** ((k + r.random()) / step.slaps), r.randrange(500_000, 700_000))
                for k in range(step.slaps)
            ]
        elif step.kind == "neighbours":
            plan = [
                (q, r.uniform(*f.hard), r.randrange(500_000, 700_000)) for q in step.others for _ in range(step.each)
            ]
        for pad, force, gap in plan:
            self.pads.slap(pad, t, force)
            self.truth.append((step.kind, pad, t, force))
            t += gap

    # -- Frontend -------------------------------------------------------------------------
    def before_step(self, wizard: Wizard, step: Step) -> bool:
        if self.abort_at == step.kind:
            return False
        self._say(step.prompt)
        self.perform(step)
        return True

    def progress(self, wizard: Wizard, rec: Recording) -> bool:
        return True

    def measure_display(self, wizard: Wizard, step: Step) -> DisplayLatency:
        if self.panel is None:
            raise RuntimeError("a display step needs the simulated panel")
        result = measure(self.panel.show, self.panel.wait, self.panel.sensor, step.slaps)
        for line in result.reasons:
            self._say(f"   {line}")
        return result

    def after_step(self, wizard: Wizard, step: Step, cap: Capture) -> None:
        self._say(f"   {len(cap.hits)} hits in {cap.duration_us / 1e6:.1f} s")

    def review(self, wizard: Wizard) -> str:
        for line in review_lines(wizard):
            self._say(line)
        return "abort" if self.abort_at == "review" else "accept"

    def verdict(self, wizard: Wizard) -> str:
        for line in verdict_lines(wizard):
            self._say(line)
        return "abort" if self.abort_at == "verdict" else self.verdict_choice

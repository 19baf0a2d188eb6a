"""The proof on simulated pads: how a set of settings does, and a whole scripted run.

:func:`score` runs settings on fresh simulated pads (another seed than calibration's):
soft slaps one at a time, long hands-off, full-force slaps pad by pad, and counts what
was detected, missed, doubled and leaked.  :func:`calibrate_sim` runs the whole wizard on
a simulated pad set with the scripted operator.  The proof test, the fault tests and the
calibration benchmark are built on these two.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from calibration.runner import run_wizard
from calibration.verify import Criteria
from calibration.virtual import VirtualPads
from calibration.wizard import Counts, Wizard
from firmware_py.sim.operator import Forces, ScriptedOperator
from firmware_py.sim.pad_sets import virtual_cabinet
from hal.padboard.settings import PadSettings


@dataclass(frozen=True)
class Score:
    """How a set of settings does on a simulated cabinet, per pad."""

    soft_slaps: dict[int, int]
    soft_detected: dict[int, int]
    extra_hits: dict[int, int]  # hits during the soft slaps that matched no slap (doubles)
    idle_s: float
    false_triggers: dict[int, int]
    full_slaps: dict[int, int]
    full_detected: dict[int, int]
    crosstalk: dict[int, int]  # hits on this pad while another pad was slapped at full force
    odd: tuple[str, ...] = ()  # every hit that was not a slap's one detection, with its context

    def detection(self, pad: int) -> float:
        return self.soft_detected[pad] / self.soft_slaps[pad] if self.soft_slaps[pad] else 0.0

    def passes(self, pad: int, min_detection: float = 0.99) -> bool:
        return (
            self.detection(pad) >= min_detection
            and self.false_triggers[pad] == 0
            and self.crosstalk[pad] == 0
            and self.extra_hits[pad] == 0
        )


def score(
    cabinet: str,
    settings: Sequence[PadSettings],
    seed: int = 11,
    soft_per_pad: int = 150,
    idle_s: float = 600.0,
    full_per_pad: int = 10,
    forces: Forces = Forces(),
) -> Score:
    """Fresh simulated pads (another seed than calibration's) running ``settings``: soft
    slaps one at a time, then ``idle_s`` hands off, then full-force slaps pad by pad."""
    vp = virtual_cabinet(cabinet, seed=seed, settings=settings)
    n = vp.pads
    rng = random.Random(seed)
    vp.idle(2_000_000)  # the baseline settles as after power-up
    t = vp.now_us() + 100_000
    truth: list[tuple[int, int]] = []
    order = [p for p in range(n) for _ in range(soft_per_pad)]
    rng.shuffle(order)
    for p in order:
        vp.slap(p, t, rng.uniform(*forces.soft))
        truth.append((p, t))
        t += rng.randrange(250_000, 450_000)
    start = len(vp.hits)
    vp.idle(t + 500_000 - vp.now_us())
    soft_hits = vp.hits[start:]
    det = dict.fromkeys(range(n), 0)
    extra = dict.fromkeys(range(n), 0)
    used = [False] * len(soft_hits)
    for p, ts in truth:
        for k, h in enumerate(soft_hits):
            if not used[k] and h.pad == p and abs(h.t_us - ts) <= 5_000:
                used[k] = True
                det[p] += 1
                break
    odd: list[str] = []
    for k, h in enumerate(soft_hits):
        if not used[k]:
            extra[h.pad] += 1
            near = min(truth, key=lambda x: abs(x[1] - h.t_us))
            odd.append(f"soft phase: {h} — nearest slap pad {near[0] + 1} at {(h.t_us - near[1]) / 1000:+.1f} ms")
    start = len(vp.hits)
    vp.idle(int(idle_s * 1e6))
    false = dict.fromkeys(range(n), 0)
    for h in vp.hits[start:]:
        false[h.pad] += 1
    start = len(vp.hits)
    t = vp.now_us() + 100_000
    full: list[tuple[int, int]] = []
    for p in range(n):
        for _ in range(full_per_pad):
            vp.slap(p, t, forces.full)
            full.append((p, t))
            t += rng.randrange(600_000, 800_000)
    vp.idle(t + 500_000 - vp.now_us())
    full_hits = vp.hits[start:]
    fdet = dict.fromkeys(range(n), 0)
    xt = dict.fromkeys(range(n), 0)
    for h in full_hits:
        src = max((f for f in full if f[1] <= h.t_us + 5_000), key=lambda f: f[1])
        if src[0] == h.pad and h.t_us - src[1] <= 5_000:
            fdet[h.pad] += 1
        elif src[0] != h.pad:
            xt[h.pad] += 1
            odd.append(f"full force: {h} — crosstalk from pad {src[0] + 1} at {(h.t_us - src[1]) / 1000:+.1f} ms")
        else:
            extra[h.pad] += 1
            odd.append(f"full force: {h} — double, {(h.t_us - src[1]) / 1000:+.1f} ms after the slap")
    return Score(
        dict.fromkeys(range(n), soft_per_pad),
        det,
        extra,
        idle_s,
        false,
        dict.fromkeys(range(n), full_per_pad),
        fdet,
        xt,
        tuple(odd),
    )


def calibrate_sim(
    cabinet: str,
    seed: int = 1,
    criteria: Criteria = Criteria(),
    counts: Counts = Counts(),
    targets: Sequence[int] | None = None,
    operator_seed: int = 7,
    probe: bool = False,
) -> tuple[Wizard, VirtualPads, ScriptedOperator, dict[int, PadSettings] | None]:
    """Run the whole wizard on a simulated cabinet with the scripted operator (``probe``:
    wearing the contact probe)."""
    vp = virtual_cabinet(cabinet, seed=seed, probe=probe)
    originals = {p: vp.read_settings(p) for p in range(vp.pads)}
    wizard = Wizard(
        vp.pads,
        list(targets) if targets is not None else list(range(vp.pads)),
        originals,
        criteria=criteria,
        counts=counts,
        probe=probe,
    )
    op = ScriptedOperator(vp, seed=operator_seed)
    return wizard, vp, op, run_wizard(wizard, vp, op)

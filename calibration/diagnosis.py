"""Front-end faults, said in words an operator can act on.

Read from the rest capture and the prompted slaps of each pad:
- a flat line (no noise at all, no slap): a dead piezo or an unplugged cable;
- a floating input (huge noise at rest): the piezo's ground or signal wire is off;
- a pad that rests on the ADC's rail, or whose *soft* slaps already clip: saturation;
- a baseline that drifts faster than the detector's baseline can follow.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from calibration.analysis import Event, NoiseStats

FLOATING_SIGMA = 3000.0


@dataclass(frozen=True)
class Fault:
    pad: int
    kind: str  # dead, floating, saturating, drifting, silent
    text: str
    fatal: bool = True


def diagnose(
    pad: int,
    noise: NoiseStats,
    prompted: Sequence[Event],
    soft: Sequence[Event],
    period_us: int = 250,
    threshold_hint: int | None = None,
) -> list[Fault]:
    name = f"Pad {pad + 1}"
    out: list[Fault] = []
    if noise.flat and not prompted:
        out.append(
            Fault(
                pad,
                "dead",
                f"{name} shows a flat line: no noise and no slap at all. The piezo is dead or "
                "unplugged: check its plug on the padboard and the cable to the pad.",
            )
        )
        return out
    if noise.sigma > FLOATING_SIGMA:
        out.append(
            Fault(
                pad,
                "floating",
                f"{name} is very noisy at rest (σ {noise.sigma:.0f} counts): the input is "
                "floating. Check that the piezo's wires (signal and ground) are both connected.",
            )
        )
    if noise.clipped > noise.samples // 10:
        out.append(
            Fault(
                pad,
                "saturating",
                f"{name} rests at the ADC's limit ({noise.clipped} of {noise.samples} samples "
                "clipped): the bias is wrong or the input is shorted. Check the front-end board.",
            )
        )
    elif soft and sum(e.clipped for e in soft) * 2 >= len(soft):
        out.append(
            Fault(
                pad,
                "saturating",
                f"{name} saturates: {sum(e.clipped for e in soft)} of {len(soft)} SOFT slaps "
                "already hit the ADC's limit, so soft and hard cannot be told apart. Turn its gain down "
                "(trim pot) or add foam between the pad and the piezo.",
                fatal=False,
            )
        )
    tau_s = (1 << noise.shift) * period_us / 1e6
    lag = noise.drift_per_s * tau_s
    if noise.drift_per_s > 0 and (lag > 3 * max(noise.sigma, 1.0) or (threshold_hint and lag > threshold_hint / 4)):
        fatal = bool(threshold_hint and lag > threshold_hint / 2)
        out.append(
            Fault(
                pad,
                "drifting",
                f"{name}'s baseline drifts ({noise.drift_per_s:.0f} counts/s, "
                f"{noise.span} counts over the rest capture): the detector lags it by about {lag:.0f}. "
                "A loose connector, a cracked piezo or heat near the pad; re-seat the cable.",
                fatal=fatal,
            )
        )
    if not prompted and not noise.flat:
        out.append(
            Fault(
                pad,
                "silent",
                f"{name} saw no slap when it was prompted: the wrong pad was slapped, or the "
                "pad is not wired to input {pad + 1} of the padboard.",
            )
        )
    return out

"""gpio-edge pads: a comparator line gives edges only, so software can set the mask time
(one slap's chatter must fall inside it), learn the minimum gap between real slaps, and
measure the pad's ring period for the force correction of its stamps (hal.edge_timing).

From the same prompted procedure: edges of slow single slaps are grouped (a group ends
after 150 ms of quiet); the longest group is the chatter.  The flurry's fastest gap
between group starts is the fastest real slapping.  mask = 1.5 × chatter + 2 ms, and
it must stay ≤ fastest gap ÷ 1.5.  The comparator's threshold is a trim pot: false or
crosstalk edges can only be reported, with what to turn.

The ring period: a slap's ring lifts the comparator once per swing, so the rising edges
of one slap's chatter come one ring period apart; the median of the first four spacings
of every slap (as hal.edge_timing's curve was measured) is the pad's period.
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from dataclasses import dataclass, replace

from calibration.capture import Capture
from hal.padboard.messages import PadHit
from hal.timing import GPIO_EDGE_MASK_US


@dataclass(frozen=True)
class GpioFit:
    pad: int
    mask_us: int
    chatter_us: int
    min_gap_us: int | None
    reasons: tuple[str, ...]
    problems: tuple[str, ...] = ()
    ring_us: int = 0  # the pad's ring period (0: its slaps did not ring twice)

    @property
    def ok(self) -> bool:
        return not self.problems


def groups(times: Sequence[int], quiet_us: int) -> list[list[int]]:
    out: list[list[int]] = []
    for t in sorted(times):
        if out and t - out[-1][-1] <= quiet_us:
            out[-1].append(t)
        else:
            out.append([t])
    return out


RING_SPACINGS_US = (1_500, 12_000)  # a piezo pad rings at 80–650 Hz


def ring_period_us(edge_groups: Sequence[Sequence[int]]) -> int:
    """The median spacing of the first four rising edges after each slap's first (0: none)."""
    lo, hi = RING_SPACINGS_US
    spacings = [b - a for g in edge_groups for a, b in list(zip(g, g[1:]))[:4] if lo <= b - a <= hi]
    return int(statistics.median(spacings)) if len(spacings) >= 3 else 0


def fit_gpio(pad: int, singles: Sequence[Capture], flurry: Capture | None) -> GpioFit:
    single_groups = [g for c in singles for g in groups([h.t_us for h in c.hits_on(pad)], 150_000)]
    if not single_groups:
        return GpioFit(
            pad,
            GPIO_EDGE_MASK_US,  # nothing seen to fit: the line keeps the default
            0,
            None,
            (),
            (f"no edges from pad {pad + 1} when it was slapped: check the comparator's threshold pot and its wiring",),
        )
    chatter = max(g[-1] - g[0] for g in single_groups)
    mask = int(chatter * 1.5 + 2000)
    mask = max(mask, 5000)
    fastest = None
    if flurry is not None:
        fg = groups([h.t_us for h in flurry.hits_on(pad)], max(chatter * 3 // 2, 3000))
        gaps = [b[0] - a[0] for a, b in zip(fg, fg[1:])]
        fastest = min(gaps) if gaps else None
    problems = []
    if fastest is not None and mask * 1.5 > fastest:
        problems.append(
            f"pad {pad + 1} chatters for {chatter / 1000:.0f} ms, too close to the fastest slapping "
            f"({fastest / 1000:.0f} ms): raise the comparator's hysteresis or damp the pad"
        )
    ring = ring_period_us(single_groups)
    reasons = (
        f"mask {mask / 1000:.0f} ms: one slap chattered for up to {chatter / 1000:.1f} ms (× 1.5 + 2 ms)",
        f"ring period {ring / 1000:.2f} ms (its chatter's spacing): stamps are corrected for the force "
        "by the width of each slap's first pulse"
        if ring
        else "no ring period: the slaps did not ring twice; stamps stay at the rising edge (force bias not corrected)",
        f"minimum gap: the fastest real slaps came {fastest / 1000:.0f} ms apart ({fastest / mask:.1f}× the mask)"
        if fastest
        else "minimum gap: no flurry recorded",
    )
    return GpioFit(pad, mask, chatter, fastest, reasons, tuple(problems), ring)


def apply_mask(cap: Capture, mask_us: dict[int, int]) -> Capture:
    """The capture as ``GpioEdgeSource`` would report it with these mask times."""
    last: dict[int, int] = {}
    kept: list[PadHit] = []
    for h in sorted(cap.hits, key=lambda h: h.t_us):
        prev = last.get(h.pad)
        if prev is not None and h.t_us - prev < mask_us.get(h.pad, 0):
            continue
        last[h.pad] = h.t_us
        kept.append(h)
    return replace(cap, hits=tuple(kept), samples={})  # a comparator line has no samples

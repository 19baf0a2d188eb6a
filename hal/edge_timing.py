"""When a comparator line's slap really began: its edge corrected by the pulse's width.

A comparator goes high when the piezo's signal crosses its threshold, and a soft slap
crosses it late in its first swing (near the peak) while a hard one crosses early: the
rising edge alone is up to a millisecond late, by how much depending on the force
(docs/slap-timing.md).  The line does carry the force, though: the harder the slap, the
longer the first pulse stays high (time over threshold, the way particle detectors
correct their time walk).  So the slap is stamped when its first pulse ends, at its
rising edge less the delay that pulse width means.

The delay curve is the first swing's shape, which a pad's resonance and the palm's contact
set: the pads' curves are one curve scaled by the pad's ring period, which calibration
measures from the spacing of the pulses a hard slap's ring makes (:class:`EdgeWalk`), less
the part the ring does not set (the contact lasts as long on a slower pad:
``CONTACT_SHARE`` of the period's difference from the nominal pad's).  The curve below is
the simulator's nominal pad (firmware_py.sim.piezo, comparator falling at half its rising
level), in units of that period; a test holds it to the model.
"""

from __future__ import annotations

from dataclasses import dataclass

NOMINAL_WALK: tuple[tuple[float, float], ...] = (
    (0.1987, 0.3656),
    (0.2182, 0.3481),
    (0.2405, 0.3287),
    (0.2707, 0.3029),
    (0.3022, 0.2767),
    (0.3251, 0.2577),
    (0.3528, 0.2344),
    (0.3732, 0.2169),
    (0.4014, 0.1921),
    (0.4198, 0.1751),
    (0.4446, 0.1513),
    (0.4592, 0.1363),
    (0.4699, 0.1246),
    (0.4830, 0.1090),
    (0.4913, 0.0988),
    (0.4995, 0.0877),
    (0.5049, 0.0799),
)
"""(first pulse width, delay from contact to the rising edge), both ÷ the ring period."""

NOMINAL_RING_US = 4116  # the nominal pad's period as calibration measures it (250 Hz)
CONTACT_SHARE = 0.17  # µs less delay per µs of period over the nominal (the contact does not stretch)


@dataclass(frozen=True)
class EdgeWalk:
    """One line's correction: ``ring_us`` is its pad's ring period as calibration measured it."""

    ring_us: int

    def __post_init__(self) -> None:
        if self.ring_us <= 0:
            raise ValueError(f"ring_us={self.ring_us}: the pad's ring period must be positive")

    def delay_us(self, width_us: int) -> int:
        """µs from contact to the rising edge of a first pulse ``width_us`` wide."""
        x = width_us / self.ring_us
        pts = NOMINAL_WALK
        if x <= pts[0][0]:
            (x0, y0), (x1, y1) = pts[0], pts[1]
        elif x >= pts[-1][0]:
            (x0, y0), (x1, y1) = pts[-2], pts[-1]
        else:
            k = next(i for i in range(1, len(pts)) if x <= pts[i][0])
            (x0, y0), (x1, y1) = pts[k - 1], pts[k]
        y = y0 + (y1 - y0) * (x - x0) / (x1 - x0)
        return max(0, round(y * self.ring_us - CONTACT_SHARE * (self.ring_us - NOMINAL_RING_US)))

    @property
    def longest_pulse_us(self) -> int:
        """The widest first pulse the curve knows (a slap reaches the host this much later)."""
        return round(NOMINAL_WALK[-1][0] * self.ring_us)

"""False hits in silence on pads shaped as real pads are (issue 31: ≤ 0.1 per hour).

Per pad kind (the piezo model's ``REAL_PAD_KINDS``, long rings, quiet front end σ 6
counts) and gain (× 1, 4, 8), and at × 1 with mains hum of 30 counts (50 Hz plus a third
of it at 150 Hz, in the calibration's rest step too): the wizard calibrates the pad
(``tests.calibration.real_pad_runs``, seed 1), then

- a direct run: ``DIRECT_S`` seconds of silence on four such pads (noise, drift, hum),
  sampled as the board does (20 kHz round robin, 12 bits, the DMA ring, blocks of 40
  through the detector's ``feed``) with the applied settings; every hit is false;
- the noise tail: the same silence with the pad's noise raised until the threshold is
  3.5–4.5 σ, where false hits are frequent (ring line and second-contact rule off: an
  upper bound), ``ln(rate)`` fitted as a straight line in the ratio (slower than a
  Gaussian's fall) and read at the calibrated ratio (threshold over the σ at the ADC,
  its 12-bit step included).  What the model does not have (bursts of interference, a
  loose wire) is not in these figures."""

from __future__ import annotations

from calibration.fit_cabinet import fit_all
from hal.padboard.settings import PadSettings
from tests.bench.harness import Figure
from tests.calibration.real_pad_runs import QUIET_NOISE, RealPadRun, noise_at_adc, noise_tail, real_pad, silence_hits

TITLE = "False hits in silence on real-pad signals (issue 31)"
DIRECT_S = 60.0  # on each of four pads: 4 pad-minutes per row
TAIL_S = 5.0
HUM = 30.0
PADS = [(kind, gain, 0.0) for kind in ("rubber", "wood", "plate") for gain in (1.0, 4.0, 8.0)] + [
    (kind, 1.0, HUM) for kind in ("rubber", "wood", "plate")
]


def run() -> list[Figure]:
    out = []
    for n, (kind, gain, hum) in enumerate(PADS):
        pad = real_pad(kind, gain)
        fits, _faults, noise = fit_all(RealPadRun(pad, 1, hum=hum).calibration(), [0], {0: PadSettings()})
        s = fits[0].settings
        false = silence_hits(pad, s, DIRECT_S, 100 + n, hum)
        tail = noise_tail(pad, s, TAIL_S, 200 + 10 * n, hum)
        ratio = s.threshold / noise_at_adc(QUIET_NOISE)
        name = f"{kind} × {gain:g}{f', hum {hum:g}' if hum else ''}"
        seen = ", ".join(f"{r:g} σ: {h}" for r, h, _sec in tail.points)
        out += [
            Figure(
                f"{name}: false hits, direct",
                false,
                f"in {4 * DIRECT_S / 60:g} pad-minutes",
                "0",
                f"threshold {s.threshold} (noise peak at rest {noise[0].peak}), {ratio:.1f} σ at the ADC"
                + ("" if fits[0].ok else f"; fit refused: {fits[0].problems[0]}"),
            ),
            Figure(
                f"{name}: false hits per hour, tail read at the threshold",
                tail.per_hour(ratio),
                "per pad-hour",
                "≤ 0.1",
                f"line ln(rate) = {tail.a:.1f} {tail.b:+.2f}·r through hits in {4 * TAIL_S:g} pad-s at {seen}; "
                f"0.1 per hour at {tail.ratio_for(0.1):.1f} σ",
            ),
        ]
    return out

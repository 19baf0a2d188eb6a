"""Calibration captures of one pad shaped as real pads are (issue 31), and how the
settings fitted from them do on fresh slaps.

The pad is one of the piezo model's ``REAL_PAD_KINDS`` (a narrow first lobe, either
polarity) with the long ring real pads have (τ 33–45 ms) and the front end's gain
(× 1–8); ``quiet`` is a front end with little noise (σ 6 counts), where the old fit's
thresholds fell to tens of counts.  Every slap is followed, 26–40 ms later, by the
palm's second contact at 10–17 % of its force, as recordings show.  The operator slaps
as the wizard prompts (8 soft, 5 hard, a flurry of 8), in virtual time, and the board's
own detector runs throughout, so the captures hold what a wizard run records.

Silence (:func:`silence_hits`) is run as the board runs it: 20 kHz round robin, 12 bits,
the DMA ring, blocks of 40 frames through the detector's ``feed``; ``hum`` adds the mains
(50 Hz and its third harmonic) that a real cabinet's front end picks up, in the
calibration's rest step too.
"""

from __future__ import annotations

import math
import random
import statistics
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from calibration.capture import Capture, Recording
from calibration.virtual import VirtualPads
from firmware_py.padboard.detector import Detector
from firmware_py.sim.pad_sets import make_detector
from firmware_py.sim.padboard import SimDma
from firmware_py.sim.piezo import REAL_PAD_KINDS, PiezoModel, PiezoPad, SlapSignal
from hal.padboard.settings import PadSettings

RING_TAU_US = {"rubber": 33_000.0, "wood": 40_000.0, "plate": 45_000.0}
QUIET_NOISE = 6.0
SOFT = (300.0, 600.0)  # main swing before the gain, counts
HARD = (2500.0, 3800.0)
FLURRY = (800.0, 2000.0)
SECOND_US = (26_000, 40_000)
SECOND_SHARE = (0.10, 0.17)
MAINS_HZ = 50.0
BOARD_FRAME_US = 50  # the board's DMA: 20 kHz round robin ...
BOARD_BLOCK = 40  # ... handed to the detector in blocks of 40 frames


class HummingModel(PiezoModel):
    """The piezo model with mains hum on every pad: ``hum`` counts at 50 Hz and a third of
    it at 150 Hz (a rectifier's harmonic), each pad at its own phase."""

    def __init__(self, pads: Sequence[PiezoPad], seed: int, hum: float, crosstalk: float = 0.0) -> None:
        super().__init__(pads, seed=seed, crosstalk=crosstalk)
        self.hum = hum
        self._phase = [random.Random(seed * 31 + j).uniform(0, 2 * math.pi) for j in range(len(pads))]

    def _hummed(self, pad: int, xs: Sequence[int], ts: Sequence[float]) -> list[int]:
        """Samples ``xs`` of ``pad`` taken at ``ts`` with the hum added, clamped to the rails."""
        k, hum, phase, sin = 2 * math.pi * MAINS_HZ, self.hum, self._phase[pad], math.sin
        ws = [k * t / 1e6 + phase for t in ts]
        out = [round(x + hum * (sin(w) + sin(3 * w) / 3)) for x, w in zip(xs, ws)]
        return [v if 0 <= v <= 65535 else 0 if v < 0 else 65535 for v in out]

    def sample(self, t_us: float, stagger_us: float = 0.0) -> list[int]:
        out = super().sample(t_us, stagger_us)
        return [self._hummed(j, [x], [t_us + j * stagger_us])[0] for j, x in enumerate(out)]

    def block(self, t_us: int, period_us: int, most: int, stagger_us: float = 0.0) -> list[list[int]]:
        cols = super().block(t_us, period_us, most, stagger_us)
        return [
            self._hummed(j, col, [t_us + f * period_us + j * stagger_us for f in range(len(col))])
            for j, col in enumerate(cols)
        ]

    def burst(self, pad: int, t_us: float, period_us: float, count: int) -> list[int]:
        out = super().burst(pad, t_us, period_us, count)
        return self._hummed(pad, out, [t_us + k * period_us for k in range(len(out))])


def silence_hits(
    pad: PiezoPad, settings: PadSettings, seconds: float, seed: int, hum: float = 0.0, pads: int = 4
) -> int:
    """Hits the board's detector reports in ``seconds`` of silence on ``pads`` pads like
    ``pad`` (each its own noise, drift and hum), all running ``settings``: false hits."""
    model = HummingModel([pad] * pads, seed, hum)
    dma = SimDma(model, BOARD_FRAME_US, 4096 * pads)
    det = Detector(pads, [settings.as_dict()] * pads)
    block_us = BOARD_BLOCK * BOARD_FRAME_US
    warm = len(dma.ring) // pads // BOARD_BLOCK  # the DMA fills its ring before the detector starts
    for b in range(warm):
        dma.take(b * block_us, BOARD_BLOCK)
    hits = 0
    for b in range(warm, warm + int(seconds * 1e6) // block_us):
        t = b * block_us
        first = dma.take(t, BOARD_BLOCK)
        hits += len(det.feed(dma.ring, first, BOARD_BLOCK, t, BOARD_FRAME_US, SimDma.SHIFT, True))
    return hits


ADC_LSB = 1 << SimDma.SHIFT  # read_u16 counts in one step of the 12-bit ADC
TAIL_RATIOS = (3.5, 3.75, 4.0, 4.25, 4.5)  # threshold / noise σ where false hits come often, well under 1 per mask


def noise_at_adc(noise: float) -> float:
    """The σ the detector sees of a front end's noise σ ``noise``: with the 12-bit ADC's
    rounding (a step of 16 counts: σ 16/√12) added."""
    return math.hypot(noise, ADC_LSB / math.sqrt(12))


@dataclass(frozen=True)
class NoiseTail:
    """False hits in silence against the threshold-to-noise ratio ``r`` (threshold over
    the σ at the ADC), measured where they are frequent (``points``: ``(r, hits, pad
    seconds)``), and ``ln(per hour) = a + b·r`` fitted to those with hits.  A straight line
    in ``r`` falls slower than a Gaussian tail (``−r²/2``): an upper bound further out."""

    points: tuple[tuple[float, int, float], ...]
    a: float
    b: float

    def per_hour(self, r: float) -> float:
        return math.exp(self.a + self.b * r)

    def ratio_for(self, per_hour: float) -> float:
        """The ratio at which the fitted line reaches ``per_hour``."""
        return (math.log(per_hour) - self.a) / self.b


def noise_tail(
    pad: PiezoPad,
    settings: PadSettings,
    seconds: float,
    seed: int,
    hum: float = 0.0,
    ratios: Sequence[float] = TAIL_RATIOS,
) -> NoiseTail:
    """The false-hit rate of ``pad`` at ``settings``' threshold at each threshold-to-noise
    ratio of ``ratios``, the pad's noise raised until its threshold is that many σ
    (everything else as it is: drift, hum, the detector); ``seconds`` of silence on four
    pads each.  The ring line and the second-contact rule are off (retrigger and second 0
    %): each only turns hits away (and with noise crossing all the time, the line, fed by
    every "second contact", never falls: one hit, then none), so the bare threshold and
    mask count at least the false hits the calibrated settings let through."""
    bare = replace(settings, retrigger_pct=0, second_pct=0)
    points = []
    for k, r in enumerate(ratios):
        sigma = math.sqrt(max(1.0, (settings.threshold / r) ** 2 - (ADC_LSB / math.sqrt(12)) ** 2))
        hits = silence_hits(replace(pad, noise=sigma), bare, seconds, seed + k, hum)
        points.append((r, hits, 4 * seconds))
    fitted = [(r, math.log(n / sec * 3600)) for r, n, sec in points if n >= 3]
    if len(fitted) < 3:
        raise ValueError(f"false hits too rare to fit a tail at ratios {ratios}: {points}")
    mr = statistics.fmean(r for r, _ in fitted)
    my = statistics.fmean(y for _, y in fitted)
    b = sum((r - mr) * (y - my) for r, y in fitted) / sum((r - mr) ** 2 for r, _ in fitted)
    return NoiseTail(tuple(points), my - b * mr, b)


def real_pad(kind: str, gain: float, quiet: bool = True, long_ring: bool = True) -> PiezoPad:
    """A pad of ``kind`` behind a front end of ``gain``; ``long_ring``: the ring real pads
    have, else the model's short one (2–3 ms), after which a second contact stands alone."""
    pad = replace(REAL_PAD_KINDS[kind], gain=gain)
    if long_ring:
        pad = replace(pad, ring_tau_us=RING_TAU_US[kind])
    return replace(pad, noise=QUIET_NOISE) if quiet else pad


@dataclass
class RealPadRun:
    """One pad on virtual time with a scripted operator; ``truth`` holds every intended
    slap ``(t_us, force)`` (second contacts are not slaps).  The detector looks at a frame
    every ``period_us`` (the wizard's virtual pads: 4 kHz; the board's DMA: 50 µs)."""

    pad: PiezoPad
    seed: int = 1
    settings: PadSettings = field(default_factory=PadSettings)
    hum: float = 0.0
    period_us: int = 250

    def __post_init__(self) -> None:
        self.vp = VirtualPads(
            SlapSignal(HummingModel([self.pad], self.seed, self.hum)),
            make_detector,
            1,
            [self.settings],
            sample_period_us=self.period_us,
        )
        self.rng = random.Random(self.seed * 7 + 1)
        self.truth: list[tuple[int, float]] = []
        self.vp.idle(1_000_000)  # the baseline settles

    def slap(self, t_us: int, force: float) -> None:
        """A slap and the palm's second contact after it."""
        r = self.rng
        self.vp.slap(0, t_us, force)
        self.vp.slap(0, t_us + r.randrange(*SECOND_US), force * r.uniform(*SECOND_SHARE))
        self.truth.append((t_us, force))

    def step(self, kind: str, slaps: int, forces: tuple[float, float], gap_us: tuple[int, int]) -> Capture:
        """One prompted step, recorded as the wizard records it."""
        rec = Recording(kind, [0], 0, 0 if slaps else None, slaps)
        self.vp.begin(rec)
        t = self.vp.now_us() + 300_000
        for _ in range(slaps):
            self.slap(t, self.rng.uniform(*forces))
            t += self.rng.randrange(*gap_us)
        end = t + 500_000 if slaps else self.vp.now_us() + 3_000_000
        self.vp.pump(rec, end)
        return self.vp.end(rec)

    def calibration(self) -> list[Capture]:
        """The wizard's steps for one pad: 3 s hands off, 8 soft, 5 hard, a flurry of 8."""
        return [
            self.step("rest", 0, (0.0, 0.0), (1, 2)),
            self.step("soft", 8, SOFT, (400_000, 600_000)),
            self.step("hard", 5, HARD, (500_000, 700_000)),
            self.step("flurry", 8, FLURRY, (70_000, 110_000)),
        ]


@dataclass(frozen=True)
class Outcome:
    """Fresh slaps on a pad running fitted settings: each slap found once or not."""

    slaps: int
    found: int
    doubled: int  # extra hits within 300 ms of a slap: its ring or second contact counted
    soft_found: int
    soft: int
    late_us: tuple[int, ...]  # each found slap's stamp after its true contact

    @property
    def median_late_us(self) -> float:
        return statistics.median(self.late_us) if self.late_us else float("nan")

    @property
    def median_error_us(self) -> float:
        return statistics.median(abs(x) for x in self.late_us) if self.late_us else float("nan")


def play(pad: PiezoPad, settings: PadSettings, seed: int = 50, each: int = 30, period_us: int = 250) -> Outcome:
    """``each`` soft and ``each`` hard slaps (each with its second contact), 0.4–0.6 s
    apart, on fresh pads running ``settings`` (a frame every ``period_us``)."""
    run = RealPadRun(pad, seed, settings, period_us=period_us)
    start = len(run.vp.hits)
    t = run.vp.now_us() + 200_000
    kinds = [SOFT] * each + [HARD] * each
    run.rng.shuffle(kinds)
    soft_at = set()
    for f in kinds:
        run.slap(t, run.rng.uniform(*f))
        if f is SOFT:
            soft_at.add(t)
        t += run.rng.randrange(400_000, 600_000)
    run.vp.idle(t + 500_000 - run.vp.now_us())
    hits = sorted(h.t_us for h in run.vp.hits[start:])
    found = doubled = soft_found = 0
    late = []
    for ts, _f in run.truth:
        near = [h for h in hits if -5_000 <= h - ts <= 300_000]
        first = [h for h in near if h - ts <= 5_000]
        found += bool(first)
        soft_found += bool(first) and ts in soft_at
        doubled += max(0, len(near) - 1) if first else len(near)
        late += [first[0] - ts] if first else []
    return Outcome(len(run.truth), found, doubled, soft_found, len(soft_at), tuple(late))


@dataclass(frozen=True)
class FastOutcome:
    """Bursts of fast slaps on a pad running fitted settings."""

    slaps: int
    once: int  # slaps found exactly once
    extra: int  # hits that are no slap's first (doubles, rings, second contacts)
    late_us: tuple[int, ...]  # each found slap's first stamp after its true contact


def play_fast(
    pad: PiezoPad, settings: PadSettings, seed: int = 60, bursts: int = 10, period_us: int = 250
) -> FastOutcome:
    """Bursts of four slaps 15–25 ms apart (two hands in turn; each 0.8–1.25 × the one
    before, from soft to hard, the last with its second contact), 0.4 s apart, on a pad
    looked at every ``period_us`` (the board's DMA: ``BOARD_FRAME_US``)."""
    run = RealPadRun(pad, seed, settings, period_us=period_us)
    start = len(run.vp.hits)
    r = run.rng
    t = run.vp.now_us() + 200_000
    at = []
    for _ in range(bursts):
        f = r.uniform(SOFT[1], HARD[1])
        for n in range(4):
            if n == 3:
                run.slap(t, f)
            else:
                run.vp.slap(0, t, f)
            at.append(t)
            f *= r.uniform(0.8, 1.25)
            t += r.randrange(15_000, 25_000)
        t += 400_000
    run.vp.idle(t - run.vp.now_us())
    hits = sorted(h.t_us for h in run.vp.hits[start:])
    firsts = [[h for h in hits if -2_000 <= h - a <= 5_000] for a in at]
    once = sum(1 for f in firsts if len(f) == 1)
    late = tuple(f[0] - a for f, a in zip(firsts, at, strict=True) if f)
    return FastOutcome(len(at), once, len(hits) - sum(1 for f in firsts if f), late)

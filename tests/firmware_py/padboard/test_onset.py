"""The board stamps the palm's contact: the onset from the rising edge at half the hit's
peak less the pad's delay to there, on frames laid out as the RP2040's DMA writes them."""

from __future__ import annotations

import random
import statistics
from array import array

from firmware_py.padboard.detector import FRAMES, TICKS_MASK, TICKS_PERIOD, Detector, ticks_diff
from firmware_py.sim.padboard import SimDma
from firmware_py.sim.piezo import ModelSlap, PiezoModel, PiezoPad, peak_for_velocity
from hal.padboard.settings import PadSettings

DEFAULT = PadSettings().as_dict()


class _Sink:
    """A Board stand-in for SimDma.feed: collects the detector's hits."""

    def __init__(self, pads: int, settings: list[dict[str, int]]) -> None:
        self.detector = Detector(pads, settings)
        self.hits: list[tuple[int, int, int, int]] = []

    def on_block(self, ring, first, count, t_first, frame_us, shift, stagger) -> None:
        self.hits += self.detector.feed(ring, first, count, t_first, frame_us, shift, stagger)


def dma_run(
    slaps: list[tuple[int, int, float]],
    pads: int = 2,
    seed: int = 1,
    t0: int = 0,
    duration: int = 200_000,
    frame_us: int = 50,
    crosstalk: float | list[list[float]] = 0.0,
    pad: PiezoPad = PiezoPad(),
    settings: list[dict[str, int]] | None = None,
    start_frame: int = 0,
) -> list[tuple[int, int, int]]:
    """Hits as (pad, onset error vs that pad's nearest slap, velocity), sampled by SimDma."""
    model = PiezoModel([pad] * pads, seed=seed, crosstalk=crosstalk)
    for p, t, peak in slaps:
        model.add(ModelSlap(p, t0 + t, peak))
    sink = _Sink(pads, settings or [DEFAULT] * pads)
    dma = SimDma(model, frame_us)
    dma.next_frame = start_frame
    t = t0
    while t < t0 + duration:
        dma.feed(sink, t, 40)
        t += 40 * frame_us
    out = []
    for p, onset, vel, _peak in sink.hits:
        true = min((t0 + ts for pp, ts, _ in slaps if pp == p), key=lambda ts: abs(ticks_diff(onset, ts & TICKS_MASK)))
        out.append((p, ticks_diff(onset, true & TICKS_MASK), vel))
    return out


def crossing_delay(peak: float, threshold: int = 2000) -> int:
    """µs from contact until the nominal pad's signal reaches the threshold (what the
    threshold crossing alone would stamp)."""
    model = PiezoModel([PiezoPad(noise=0.0, drift=0.0, position_us=0.0)])
    model.add(ModelSlap(0, 0, peak))
    t = 0
    while model.signal(0, t) < threshold:
        t += 1
    return t


def test_padboard_onset_has_no_force_bias() -> None:
    """Soft slaps cross the threshold ~900 µs after contact, hard ones ~300: the stamp is
    the contact for both, within the noise and where the palm landed (0–30 µs)."""
    soft, hard = peak_for_velocity(8), peak_for_velocity(127)
    assert crossing_delay(soft) - crossing_delay(hard) > 500
    rng = random.Random(4)
    errors: dict[str, list[int]] = {"soft": [], "hard": []}
    for k in range(24):
        kind = "soft" if k % 2 else "hard"
        hits = dma_run([(0, 30_000 + rng.randrange(50), soft if kind == "soft" else hard)], seed=k, duration=80_000)
        assert len(hits) == 1
        errors[kind].append(hits[0][1])
    assert all(abs(e) <= 70 for es in errors.values() for e in es), errors
    assert abs(statistics.median(errors["soft"]) - statistics.median(errors["hard"])) <= 30, errors


def test_padboard_dma_blocks_give_the_hits_frame_by_frame_feeding_gives() -> None:
    """The DMA's block layout (interleaved pads, a ring that wraps, any block size) is read
    exactly as frames handed over one at a time."""
    model = PiezoModel([PiezoPad()] * 3, seed=5, crosstalk=0.1)
    for p, t, v in ((0, 20_000, 30), (2, 20_400, 120), (1, 90_000, 60)):
        model.add(ModelSlap(p, t, peak_for_velocity(v)))
    frames = list(model.frames(0, 160_000, 250))
    one = Detector(3, [DEFAULT] * 3)
    by_frame = [h for t, s in frames for h in one.process(t, s)]
    ring = array("H", bytes(2 * 3 * 100))  # 100 frames: wraps many times
    blocks = Detector(3, [DEFAULT] * 3)
    by_block = []
    k = 0
    for size in [7, 1, 13] * 1000:
        chunk = frames[k : k + size]
        if not chunk:
            break
        for d, (_t, s) in enumerate(chunk):
            ring[((k + d) * 3) % len(ring) : ((k + d) * 3) % len(ring) + 3] = array("H", s)
        by_block += blocks.feed(ring, k, len(chunk), chunk[0][0], 250)
        k += len(chunk)
    assert by_frame == by_block and len(by_frame) == 3


def test_padboard_round_robin_stagger_is_taken_out_of_every_pad() -> None:
    """The ADC converts pads one after another: pad 3 of a frame is sampled 3/4 of a frame
    late.  The board corrects it, so no pad is stamped early."""
    rng = random.Random(9)
    slaps = [(p, 10_000 + 40_000 * k + rng.randrange(50), peak_for_velocity(90)) for k in range(12) for p in [k % 4]]
    errs = dma_run(slaps, pads=4, duration=500_000, frame_us=250)
    by_pad = {p: statistics.median(e for q, e, _v in errs if q == p) for p in range(4)}
    assert len(errs) == 12 and max(by_pad.values()) - min(by_pad.values()) <= 40, by_pad


def test_padboard_onset_survives_frame_number_and_tick_wraps() -> None:
    t0 = TICKS_PERIOD - 30_000
    hits = dma_run([(1, 29_990, peak_for_velocity(60))], t0=t0, duration=60_000, start_frame=FRAMES - 300)
    assert len(hits) == 1 and hits[0][0] == 1 and abs(hits[0][1]) <= 70


def test_padboard_onset_curve_setting_moves_the_stamp_by_the_delay() -> None:
    """onset_us is what the board subtracts from the half-peak time (at the reference
    peak, where the curve is onset_us itself)."""
    peak = 10_000.0
    with_curve = dma_run([(0, 30_000, peak)], seed=2, duration=80_000)[0][1]
    shorter = dma_run(
        [(0, 30_000, peak)], seed=2, duration=80_000, settings=[{"onset_us": DEFAULT["onset_us"] - 300}] * 2
    )
    assert abs(shorter[0][1] - with_curve - 300) <= 2


def test_padboard_weak_slap_that_came_first_is_kept_crosstalk_after_it_is_dropped() -> None:
    """Crosstalk cancel drops only what could be crosstalk: a weaker hit that came clearly
    before the strong one is a real slap."""
    xt = [[0.0, 0.3], [0.3, 0.0]]
    settings = [{"xtalk_pct": 50}] * 2
    soft, hard = peak_for_velocity(12), peak_for_velocity(127)
    for seed in range(4):
        only_hard = dma_run([(1, 30_000, hard)], seed=seed, crosstalk=xt, settings=settings, duration=80_000)
        assert [p for p, _e, _v in only_hard] == [1]  # its crosstalk on pad 0 is dropped
        both = dma_run(
            [(0, 30_000, soft), (1, 30_800, hard)], seed=seed, crosstalk=xt, settings=settings, duration=80_000
        )
        assert sorted(p for p, _e, _v in both) == [0, 1], both  # within the window, weaker, but first


def test_padboard_crosstalk_ratio_per_source_pad_keeps_a_far_pads_slap() -> None:
    """A far pad shakes this one little: with its own ratio set, a soft slap here next to a
    hard slap there is kept; with the neighbour's ratio for everyone it was dropped."""
    xt = [[0.0, 0.0, 0.02], [0.0, 0.0, 0.0], [0.02, 0.0, 0.0]]
    soft, hard = peak_for_velocity(10), peak_for_velocity(127)
    slaps = [(2, 30_300, hard), (0, 30_000 + 250, soft)]  # the soft one 50 µs later
    coarse = [{"xtalk_pct": 40}] * 3
    assert sorted(p for p, _e, _v in dma_run(slaps, pads=3, crosstalk=xt, settings=coarse)) == [2]
    fine = [{"xtalk_pct": 40, "xtalk_from2": 4}, {"xtalk_pct": 40}, {"xtalk_pct": 40, "xtalk_from0": 4}]
    assert sorted(p for p, _e, _v in dma_run(slaps, pads=3, crosstalk=xt, settings=fine)) == [0, 2]


def test_padboard_soft_slap_on_a_drifting_baseline_is_timed_from_the_baseline_under_it() -> None:
    """The tracked baseline follows slowly and lags a drifting one by hundreds of counts,
    a good part of a soft slap's peak: measured from it, the half-peak level moves and the
    stamp with it, early while the baseline rises and late while it falls.  The edge is
    measured from the samples just before it instead."""
    pad = PiezoPad(noise=60.0, drift=600.0, drift_period_s=4.0, position_us=0.0)
    soft = peak_for_velocity(20)
    by_phase = {}
    for name, phase_us in (("rising", 0), ("falling", 2_000_000)):
        errs = []
        for k in range(8):
            t0 = 4_000_000 * (k + 1) + phase_us - 400_000  # the detector runs 400 ms first
            [(_p, err, _v)] = dma_run([(0, 400_000, soft)], pads=1, t0=t0, duration=440_000, pad=pad, seed=k)
            errs.append(err)
        by_phase[name] = statistics.median(errs)
    assert abs(by_phase["rising"] - by_phase["falling"]) <= 10, by_phase


def test_padboard_slap_clipped_at_both_rails_is_timed_on_its_first_swing() -> None:
    """A hot pad slapped hard hits the top rail, then rings back past the bottom one: the
    swing back is the larger, but the slap is its first swing (it crossed the threshold),
    so the edge is timed there, not a millisecond later on the swing back."""
    hot = PiezoPad(noise=100.0, gain=2.4, ring_hz=200.0, ring_tau_us=9000.0, position_us=0.0, bias=33_000)
    long_scan = [{"scan_us": 3000}]  # as calibration sets it for a slow-rising pad: the swing back is in it
    for seed in range(4):
        hits = dma_run(
            [(0, 30_000, 26_000.0)], pads=1, seed=seed, pad=hot, duration=50_000, frame_us=250, settings=long_scan
        )
        err = hits[0][1]  # (the default mask lets its long ring trigger again: calibration fits that)
        assert err <= 0, hits  # clipped: its peak is unknown and it comes out early, never late

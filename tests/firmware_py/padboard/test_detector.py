"""The board's onset detector (firmware_py/padboard/detector.py) on synthetic piezo signals."""

from __future__ import annotations

import random

import pytest

from firmware_py.padboard.detector import TICKS_MASK, TICKS_PERIOD, Detector, ticks_diff, velocity
from firmware_py.sim.piezo import ModelSlap, PiezoModel, PiezoPad, peak_for_velocity
from hal.padboard.settings import PadSettings

PERIOD = 250  # the board's nominal frame period at 4 pads


def run(
    slaps: list[tuple[int, int, int]],
    *,
    pads: int = 2,
    seed: int = 0,
    t0: int = 0,
    duration: int = 300_000,
    crosstalk: float = 0.2,
    pad: PiezoPad = PiezoPad(),
    settings: PadSettings = PadSettings(),
) -> list[tuple[int, int, int, int]]:
    """Hits as (pad, onset error vs the slap on that pad nearest in time, velocity, peak)."""
    model = PiezoModel([pad] * pads, seed=seed, crosstalk=crosstalk)
    for p, t, v in slaps:
        model.add(ModelSlap(p, t0 + t, peak_for_velocity(v, settings.as_dict())))
    det = Detector(pads, [settings.as_dict()] * pads)
    out = []
    for t, samples in model.frames(t0, t0 + duration, PERIOD):
        for p, onset, vel, peak in det.process(t & TICKS_MASK, samples):
            true = min(
                (t0 + ts for pp, ts, _ in slaps if pp == p),
                key=lambda ts: abs(ticks_diff(onset, ts & TICKS_MASK)),
                default=t,
            )
            out.append((p, ticks_diff(onset, true & TICKS_MASK), vel, peak))
    return out


@pytest.mark.parametrize("v", [5, 8, 20, 60, 127])
def test_padboard_detector_finds_each_slap_once_on_its_pad(v: int) -> None:
    for seed in range(6):
        hits = run([(seed % 2, 50_000 + seed * 61, v)], seed=seed)
        assert [h[0] for h in hits] == [seed % 2], hits
        assert abs(hits[0][2] - v) <= max(3, v // 8)


def test_padboard_detector_onset_stamp_within_one_sample_period() -> None:
    rng = random.Random(7)
    for seed in range(60):
        v = rng.choice([5, 10, 30, 80, 127])
        hits = run([(0, 40_000 + rng.randrange(PERIOD), v)], seed=seed, duration=100_000)
        assert len(hits) == 1
        assert abs(hits[0][1]) <= PERIOD, (v, hits)


def test_padboard_detector_scan_time_past_the_peak_never_moves_the_stamp() -> None:
    """The stamp is timed from the hit's own peak, so the scan must reach the peak; any
    longer scan only delays the report."""
    stamps = {scan: run([(0, 50_000, 40)], settings=PadSettings(scan_us=scan))[0][1] for scan in (2000, 4000, 8000)}
    assert len(set(stamps.values())) == 1, stamps


def test_padboard_detector_rejects_noise_and_baseline_drift() -> None:
    noisy = PiezoPad(noise=250.0, drift=3000.0, drift_period_s=10.0)
    assert run([], pads=4, pad=noisy, duration=3_000_000) == []


def test_padboard_detector_masks_the_ring_of_a_hard_slap() -> None:
    for seed in range(4):
        assert len(run([(0, 20_000, 127)], seed=seed)) == 1


def test_padboard_detector_retrigger_threshold_rides_above_a_long_ring() -> None:
    ringy = PiezoPad(ring_tau_us=12_000.0)
    tuned = PadSettings(retrigger_pct=100, retrigger_decay_us=14_000)  # the ring model: the pad's own decay
    for seed in range(4):
        assert len(run([(0, 20_000, 127)], seed=seed, pad=ringy, settings=tuned)) == 1
    untuned = PadSettings(retrigger_pct=0)
    assert len(run([(0, 20_000, 127)], pad=ringy, settings=untuned)) > 1


def test_padboard_detector_takes_a_real_second_slap_after_the_mask() -> None:
    hits = run([(0, 20_000, 127), (0, 80_000, 40)])
    assert [h[0] for h in hits] == [0, 0]
    assert all(abs(h[1]) <= PERIOD for h in hits)


def test_padboard_detector_cancels_crosstalk_but_keeps_simultaneous_slaps() -> None:
    for seed in range(5):
        assert [h[0] for h in run([(0, 30_000, 127)], seed=seed, crosstalk=0.4)] == [0]
        assert [h[0] for h in run([(1, 30_000, 60)], seed=seed, crosstalk=0.4)] == [1]
    both = run([(0, 30_000, 100), (1, 30_300, 90)], crosstalk=0.3)
    assert sorted(h[0] for h in both) == [0, 1]


def test_padboard_detector_without_crosstalk_cancel_reports_the_leak() -> None:
    hits = run([(0, 30_000, 127)], crosstalk=0.4, settings=PadSettings(xtalk_pct=0))
    assert sorted(h[0] for h in hits) == [0, 1]


def test_padboard_detector_works_across_the_tick_wrap() -> None:
    t0 = TICKS_PERIOD - 50_000
    hits = run([(0, 49_900, 60)], t0=t0, duration=100_000)
    assert len(hits) == 1 and abs(hits[0][1]) <= PERIOD


def test_padboard_detector_health_reports_baseline_noise_peak_and_clipping() -> None:
    det = Detector(1, [{}])
    model = PiezoModel([PiezoPad(noise=100.0, drift=0.0)], seed=3)
    model.add(ModelSlap(0, 50_000, 60_000.0))
    for t, s in model.frames(0, 150_000, PERIOD):
        det.process(t, s)
    baseline, noise, peak, clipped = det.health(0)
    assert abs(baseline - 32768) < 200
    assert 40 < noise < 160  # mean |noise| of a Gaussian is 0.8 sigma
    assert peak > 30_000 and clipped > 0
    assert det.health(0)[2] == 0  # the peak is since the last report


def test_padboard_detector_velocity_curve_spans_1_to_127_monotonically() -> None:
    for curve in (25, 100, 400):
        vs = [velocity(p, 2000, 30000, curve) for p in range(2000, 31000, 250)]
        assert vs[0] == 1 and vs[-1] == 127
        assert all(a <= b for a, b in zip(vs, vs[1:]))


def test_padboard_detector_crosstalk_matrix_leaks_one_way_only() -> None:
    model = PiezoModel([PiezoPad()] * 2, seed=1, crosstalk=[[0.0, 0.6], [0.0, 0.0]])
    model.add(ModelSlap(1, 20_000, 20_000.0))  # pad 1 leaks nowhere
    model.add(ModelSlap(0, 120_000, 20_000.0))  # pad 0 leaks 60 % into pad 1
    det = Detector(2, [PadSettings(xtalk_pct=0).as_dict()] * 2)
    hits = [h[:2] for t, s in model.frames(0, 200_000, PERIOD) for h in det.process(t, s)]
    assert [p for p, _ in hits] == [1, 0, 1]

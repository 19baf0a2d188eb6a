"""The fitting rules one by one, on synthetic data whose answer is known."""

from __future__ import annotations

import math

from hypothesis import given, settings
from hypothesis import strategies as st

from calibration.analysis import CrosstalkSeen, Event, NoiseStats, find_events, noise_stats
from calibration.capture import Capture
from calibration.fit import _last_violation_ms, fit_crosstalk, fit_mask, fit_threshold, fit_velocity
from calibration.verify import Criteria, judge
from hal.padboard.messages import PadHit
from hal.padboard.settings import PadSettings

NOISE = NoiseStats(32768, 100.0, 400, 50.0, 900, 0, 12000, 10)


def ev(peak: int, onset: int = 0, env: tuple[int, ...] = ()) -> Event:
    return Event(0, onset, peak, onset + 1000, False, env or (peak,), 0)


def test_threshold_sits_between_noise_and_softest_with_6_db_each() -> None:
    thr, reasons, margins, _w = fit_threshold(NOISE, [ev(4000), ev(6000)], [])
    assert 800 <= thr <= 2000
    assert margins["noise_db"] >= 6 and margins["soft_db"] >= 6
    assert abs(margins["noise_db"] - margins["soft_db"]) < 0.1  # balanced when nothing else matters
    assert "dB over the noise peak" in reasons[0]


def test_threshold_rises_over_crosstalk_when_there_is_room() -> None:
    xt = [CrosstalkSeen(0, 1, 20000, 1500, 300, ())]
    thr, reasons, _m, _w = fit_threshold(NOISE, [ev(8000)], xt)
    assert thr >= 1500 * 1.25 and "crosstalk" in reasons[0]


def test_threshold_squeezed_and_refused() -> None:
    _t, _r, _m, warn = fit_threshold(NOISE, [ev(1200)], [])  # < 12 dB of room: a warning
    assert warn and not any(w.startswith("PROBLEM") for w in warn)
    _t, _r, _m, warn = fit_threshold(NOISE, [ev(600)], [])  # soft slaps drown in noise
    assert any(w.startswith("PROBLEM") for w in warn)


def test_velocity_hard_median_reads_127_and_soft_about_40() -> None:
    from firmware_py.padboard.detector import velocity

    sens, curve, _r, _w = fit_velocity(1000, [ev(3000), ev(4000), ev(5000)], [ev(20000), ev(22000), ev(24000)])
    assert sens == 22000
    assert velocity(22000, 1000, sens, curve) == 127
    assert 35 <= velocity(4000, 1000, sens, curve) <= 45


def test_mask_and_retrigger_cover_the_ring_but_not_the_flurry() -> None:
    tau = 10.0
    ring = tuple(int(20000 * math.exp(-k / tau)) for k in range(150))
    flurry = [ev(8000, onset=i * 80_000) for i in range(6)]
    mask, pct, decay, reasons, warn, margins = fit_mask(1000, 2000, [(20000, ring)], flurry)
    assert not warn
    assert mask * 1.5 <= 80_000
    for k, e in enumerate(ring):  # after the mask, the ring stays 6 dB under the line
        if k * 1000 >= mask:
            line = max(1000, 20000 * pct / 100 * math.exp(-k * 1000 / decay)) if pct else 1000
            assert e * 2 < line or e * 2 < 1000
    assert margins["flurry_gap_x_mask"] >= 1.5 and "mask" in reasons[0]


def test_a_pad_ringing_longer_than_the_flurry_is_a_problem() -> None:
    ring = tuple(int(20000 * math.exp(-k / 60.0)) for k in range(200))
    flurry = [ev(3000, onset=i * 60_000) for i in range(4)]
    *_x, warn, _m = fit_mask(1000, 2000, [(20000, ring)], flurry)
    assert any("rings longer" in w for w in warn)


def test_crosstalk_ratio_with_margin_off_when_weak() -> None:
    strong = [CrosstalkSeen(0, 1, 20000, 4000, 300, (), 1200)]
    pct, window, _r, _w = fit_crosstalk(1000, strong, noise_peak=300)
    assert pct == 30 and 1500 <= window <= 4000  # 20 % × 1.5
    weak = [CrosstalkSeen(0, 1, 30000, 200, 300, ())]
    assert fit_crosstalk(1000, weak, noise_peak=150)[0] == 0


def test_noise_and_events_from_a_synthetic_trace() -> None:
    import random

    rng = random.Random(1)
    times = list(range(0, 2_000_000, 250))
    samples = [32768 + int(rng.gauss(0, 50)) for _ in times]
    for onset in (500_000, 1_200_000):
        for i, t in enumerate(times):
            if t >= onset:
                dt = t - onset
                samples[i] += int(10000 * math.sin(2 * math.pi * 250 * dt / 1e6) * math.exp(-dt / 8000))
    n = noise_stats(times[:1600], samples[:1600])
    assert 40 < n.sigma < 60 and n.peak < 300
    events = find_events(0, times, samples, 500)
    assert [round(e.onset_us, -3) for e in events] == [500_000, 1_200_000]
    assert all(8400 < e.peak < 9300 for e in events)  # the first peak of sin·exp(−t/8 ms) at 250 Hz: 0.886


def test_judge_counts_false_doubles_and_crosstalk() -> None:
    s = PadSettings(threshold=1000)
    idle = Capture("verify_idle", None, 0, 0, 10_000_000, (), {}, (PadHit(0, 5, 3, 1200),), 0)
    soft = Capture(
        "verify_soft", 0, 10, 0, 6_000_000, (), {}, tuple(PadHit(0, i * 500_000, 30, 3000) for i in range(10)), 0
    )
    hard = Capture("verify_hard", 1, 4, 0, 3_000_000, (), {}, (PadHit(0, 7, 9, 1500),), 0)
    v = judge(0, s, idle, soft, [hard], Criteria())
    names = {c.name: c.passed for c in v.checks}
    assert names == {
        "false triggers at rest": False,
        "soft slaps detected": True,
        "slaps counted twice": True,
        "crosstalk triggers": False,
    }
    assert all(c.advice for c in v.failed())


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.integers(0, 4095), max_size=120),
    st.integers(1, 4095),
    st.integers(1, 400),
    st.sampled_from([0, 25, 50, 100, 150]),
    st.integers(1, 60),
    st.sampled_from([1.0, 1.41, 2.0]),
)
def test_the_last_ring_violation_is_the_last_ms_over_the_line(
    env: list[int], peak: int, thr: int, pct: int, decay: int, safety: float
) -> None:
    """The mask search's question, walked from the ring's end for speed, answers as its
    definition does: one past the last ms where the ring × safety is over both the
    threshold and the retrigger line (0 when it never is)."""
    over = [
        k for k, e in enumerate(env) if e * safety >= max(thr, peak * pct / 100 * math.exp(-k / decay) if pct else 0.0)
    ]
    assert _last_violation_ms(env, peak, thr, pct, decay, safety) == (over[-1] + 1 if over else 0)

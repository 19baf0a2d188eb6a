"""The gate (machine code on the board) against the state machine it shortcuts.

On the board :func:`detector._gate` takes the state frames where only baselines move;
under CPython the state machine takes every frame (``Detector.gated`` is off there: the
gate's plain-Python stand-in is the slower of the two).  Both must give the same hits,
edges and health, whatever the blocks, skipped frames, ticks wrapping, pad kinds,
crosstalk settings and health calls in between: here the gate runs on the host, as
the board runs it, beside the ungated detector."""

from __future__ import annotations

import random
from array import array
from dataclasses import replace
from typing import Any

import pytest

from firmware_py.padboard import detector
from firmware_py.sim.piezo import REAL_PAD_KINDS, ModelSlap, PiezoModel, PiezoPad, peak_for_velocity
from hal.padboard.settings import PadSettings


class GatedDetector(detector.Detector):
    gated = True


def settings_for(rng: random.Random, kind: int) -> dict[str, int]:
    s = PadSettings().as_dict()
    if kind >= 1:  # crosstalk subtraction as calibration sets it
        for j in range(4):
            s[f"xgain_from{j}"] = rng.choice([0, 60, 100, 150, 300])
            s[f"xlag_from{j}"] = rng.choice([0, 100, 250, 400])
        s["xclean_pct"] = rng.choice([50, 100, 200])
    if kind >= 2:
        s["threshold"] = rng.choice([600, 900, 2000, 3000])
        s["scan_us"] = rng.choice([0, 500, 1000, 2000, 4000])
        s["mask_us"] = rng.choice([3000, 10000, 25000])
        s["xtalk_pct"] = rng.choice([0, 30, 50, 80])
        s["xtalk_window_us"] = rng.choice([500, 2000, 5000])
        s["onset_us"] = rng.choice([0, 400, 818])
        if rng.random() < 0.5:  # the ring model calibration applies to a long-ringing pad
            s["mask_us"] = 5000
            s["retrigger_pct"] = rng.choice([130, 200])
            s["retrigger_decay_us"] = rng.choice([2500, 33000])
            s["second_pct"] = 30
    return s


def scenario(case: int) -> dict[str, Any]:
    rng = random.Random(case)
    n = rng.choice([2, 3, 3, 4])
    kinds = [PiezoPad(drift=0.0)] * n if case % 3 else [rng.choice(list(REAL_PAD_KINDS.values())) for _ in range(n)]
    t = (1 << 30) - 150_000 if case % 7 == 0 else 1_000_000  # ticks wrap mid-scenario
    slaps = []
    for _ in range(rng.randint(3, 8)):
        p = rng.randrange(n)
        slaps.append((p, t, peak_for_velocity(rng.randint(1, 127))))
        if rng.random() < 0.3:  # a near tie on another pad
            q = (p + 1 + rng.randrange(n - 1)) % n
            slaps.append((q, t + rng.choice([0, 1, 50, 100, 300]), peak_for_velocity(rng.randint(1, 127))))
        t += rng.choice([500, 3000, 20000, 40000, 70000])
    slaps.sort(key=lambda s: s[1])
    return {
        "pads": kinds,
        "slaps": slaps,
        "settings": [settings_for(rng, case % 3) for _ in range(n)],
        "frame_us": rng.choice([50, 50, 25]) if case % 4 else 250,
        "shift": 4 if case % 2 else 0,
        "stagger": bool(case % 2),
        "ring": n * rng.choice([512, 1024, 2048]),
        "block": rng.choice([1, 7, 40]),
        "crosstalk": rng.choice([0.05, 0.1, 0.3, 0.6]),
        "seed": case,
    }


def run(kind: type[detector.Detector], s: dict[str, Any]) -> list[Any]:
    """Every hit, its edge and the pads' health (mid-run now and then, and at the end)."""
    model = PiezoModel(s["pads"], seed=s["seed"], crosstalk=s["crosstalk"])
    for p, t, peak in s["slaps"]:
        model.add(ModelSlap(p, t, peak))
    n, frame_us, size, block = len(s["pads"]), s["frame_us"], s["ring"], s["block"]
    det = kind(n, s["settings"])
    ring = array("H", bytes(2 * size))
    out: list[Any] = []
    """("hit", hit, its edge) and ("health", every pad's)"""
    blocks = random.Random(s["seed"] ^ 77)
    k, t, end = 0, s["slaps"][0][1] - 100_000, s["slaps"][-1][1] + 80_000
    stagger = frame_us / n if s["stagger"] else 0.0
    while t < end:
        if block > 1 and blocks.random() < 0.02:  # the loop fell behind: frames skipped
            skip = blocks.randint(1, 3 * block)
            k, t = (k + skip) & detector.FRAME_MASK, t + skip * frame_us
        count = blocks.randint(1, block) if block > 1 and blocks.random() < 0.5 else block
        for d in range(count):
            for i, x in enumerate(model.sample(t + d * frame_us, stagger)):
                ring[((k + d) * n + i) % size] = x >> s["shift"]
        hits = det.feed(ring, k, count, t & detector.TICKS_MASK, frame_us, s["shift"], s["stagger"])
        out += [("hit", hit, det.edge(hit[0], hit[1], 2000, 3000, 200)) for hit in hits]
        if blocks.random() < 0.01:  # health mid-run takes back a held plan
            out.append(("health", [det.health(i) for i in range(n)]))
        k, t = (k + count) & detector.FRAME_MASK, t + count * frame_us
    out.append(("health", [det.health(i) for i in range(n)]))
    return out


@pytest.mark.parametrize("case", range(12))
def test_the_gate_gives_the_state_machines_hits_edges_and_health(case: int) -> None:
    s = scenario(case)
    ungated = run(detector.Detector, s)
    assert not detector.Detector.gated  # the host's default: the state machine alone
    assert run(GatedDetector, s) == ungated
    assert any(x[0] == "hit" for x in ungated)


def test_the_gate_takes_frames_when_it_runs() -> None:
    """Not a vacuous comparison: gated, the plans take most state frames."""
    s = scenario(1)
    taken = 0
    real_gate = detector._gate

    def counting(*args: Any) -> int:
        nonlocal taken
        done: int = real_gate(*args)
        taken += done
        return done

    detector._gate = counting
    try:
        run(GatedDetector, s)
    finally:
        detector._gate = real_gate
    assert taken > 1000


def fast_ring_scenario(frame_us: int) -> dict[str, Any]:
    """Fast slaps (bursts of four 15–25 ms apart) on three long-ringing pads with the ring
    model calibration applies, 20 kHz round robin or 4 kHz, blocks of 40 frames."""
    rng = random.Random(31)
    pads = [replace(kind, gain=4.0, ring_tau_us=40_000.0, noise=6.0) for kind in REAL_PAD_KINDS.values()]
    slaps = []
    t = 1_000_000
    for _ in range(6):
        p = rng.randrange(len(pads))
        for _ in range(4):
            slaps.append((p, t, rng.uniform(1500.0, 12000.0)))
            t += rng.randrange(15_000, 25_000)
        t += 150_000
    ring = {"threshold": 204, "mask_us": 5000, "retrigger_pct": 130, "retrigger_decay_us": 40_000, "second_pct": 30}
    return {
        "pads": pads,
        "slaps": slaps,
        "settings": [{**PadSettings().as_dict(), **ring} for _ in pads],
        "frame_us": frame_us,
        "shift": 4,
        "stagger": True,
        "ring": 3 * 2048,
        "block": 40,
        "crosstalk": 0.05,
        "seed": 31,
    }


@pytest.mark.parametrize("frame_us", [50, 250])
def test_the_gate_predicts_a_ring_with_its_phase_as_the_state_machine_does(frame_us: int) -> None:
    """Fast slaps (15–25 ms apart) on long-ringing pads with the ring model: between
    them the gate steps the ring's prediction on (mode 3) and stops where a slap rises
    over it; the hits are the state machine's.  (A first version set the prediction's
    baseline where the gate's peak goes, then wrote the peak over it: 1 of 32 hits
    differed at 4 kHz.)"""
    s = fast_ring_scenario(frame_us)
    pads = s["pads"]
    slaps = s["slaps"]
    predicted = 0
    real_gate = detector._gate

    def counting(ring: Any, st: Any, at: int, count: int) -> int:
        nonlocal predicted
        done: int = real_gate(ring, st, at, count)
        predicted += done * any(st[detector._HEAD + j * detector._PAD_FIELDS] == 3 for j in range(len(pads)))
        return done

    ungated = run(detector.Detector, s)
    detector._gate = counting
    try:
        assert run(GatedDetector, s) == ungated
    finally:
        detector._gate = real_gate
    assert predicted > 100
    assert sum(1 for x in ungated if x[0] == "hit") >= len(slaps) // 2


def test_over_a_ring_predicted_with_its_phase_the_gates_plan_runs_across_blocks() -> None:
    """Over a ring predicted with its phase only a rise over the prediction starts a hit
    (the fading line decides nothing), so the gate's plan there runs on, across blocks, to
    the line's end: on the emulated board a new plan every 2 ms block while the line faded
    (its floats) took ~0.5 ms of each block.  Here, at 20 kHz, in the blocks where a ring
    is predicted: 2.0 plans a block before, 0.58 now (the rest stop for the other pads,
    the refit and the scans); and the hits are still the state machine's."""
    s = fast_ring_scenario(50)
    plans = blocks = 0
    real_plan, real_feed = GatedDetector._plan, GatedDetector.feed

    def ring_predicted(det: detector.Detector) -> bool:
        return any(p.ph_on for p in det.pads)

    def plan(det: detector.Detector, *args: Any) -> int:
        nonlocal plans
        plans += ring_predicted(det)
        return int(real_plan(det, *args))

    def feed(det: detector.Detector, *args: Any) -> Any:
        nonlocal blocks
        blocks += ring_predicted(det)
        return real_feed(det, *args)

    GatedDetector._plan = plan  # type: ignore[method-assign]
    GatedDetector.feed = feed  # type: ignore[method-assign]
    try:
        gated = run(GatedDetector, s)
    finally:
        GatedDetector._plan = real_plan  # type: ignore[method-assign]
        GatedDetector.feed = real_feed  # type: ignore[method-assign]
    assert blocks > 500, blocks
    assert 4 * plans <= 3 * blocks, (plans, blocks)
    assert gated == run(detector.Detector, s)


def test_the_gate_scans_a_hit_over_a_ring_predicted_with_its_phase() -> None:
    """A hit over a ring predicted with its phase is scanned by the gate (mode 4: the peak
    kept, the prediction stepped on, the largest rise over it kept), not by the state
    machine frame by frame: on the emulated board that scan's twelve state frames in
    Python (and a plan before each) cost fast slaps a quarter of their dropped frames
    (issue 31, i31k).  The state machine takes such a scan's last frame, and a few more
    where another pad stops the gate; the hits are the ungated state machine's."""
    s = fast_ring_scenario(50)
    scan_frames = scans = 0
    real_frame = GatedDetector._frame

    def frame(det: detector.Detector, *args: Any) -> Any:
        nonlocal scan_frames, scans
        over = [p.phase == detector.SCAN and p.ph_on for p in det.pads]
        scan_frames += any(over)
        out = real_frame(det, *args)
        scans += sum(1 for p, o in zip(det.pads, over, strict=True) if o and p.phase != detector.SCAN)
        return out

    GatedDetector._frame = frame  # type: ignore[method-assign]
    try:
        gated = run(GatedDetector, s)
    finally:
        GatedDetector._frame = real_frame  # type: ignore[method-assign]
    assert scans >= 8, scans
    assert scan_frames <= 2 * scans, (scan_frames, scans)
    assert gated == run(detector.Detector, s)

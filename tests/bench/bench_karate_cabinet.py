"""Karate Fight at the cabinet, in real time: how long after the settle window of the last
slap the Hit is decided (the loop wakes on the window, not on the next frame)."""

from __future__ import annotations

import os
import random
import tempfile
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

from tests.bench.harness import Figure, percentile

TITLE = "Karate Fight at the cabinet: decision latency after the settle window"
"""Latency is measured from the end of the winning (earliest) slap's settle window: from
then no earlier-stamped slap can arrive, so the Hit is decidable."""


def _now_us() -> int:
    return time.monotonic_ns() // 1000


def decision_latencies(
    cases: int = 300,
    seed: int = 1,
    max_delay_us: int | None = None,
    fit_hardware: Callable[[Any], Any] | None = None,
    frame_work_us: list[float] | None = None,
) -> tuple[list[float], list[float], int]:
    """µs from the end of the last slap's settle window to the engine's decision, and to
    the decision being committed and shown, on the wall clock with the real-time loop;
    also the number of correct winners.  ``fit_hardware(sim)`` may change the simulated
    cabinet (e.g. put its OLEDs on a slow I2C bus) and returns what to close at the end;
    ``frame_work_us`` collects the main loop's time per frame (step and render)."""
    from firmware_py.games.karate_fight.controls import KarateControls
    from firmware_py.runtime.cabinet import Cabinet
    from firmware_py.runtime.loop import run_main_loop
    from firmware_py.runtime.store import Store
    from games.karate_fight import HitShowing, HitWon, KarateOptions
    from hal.clock import ManualClock
    from hal.config import load_config
    from hal.events import Button
    from hal.sim import SimCabinet
    from tests.cabinet_driving import start_session
    from tests.firmware_py.test_cabinet_karate import deal_for_clumsy_hit

    rng = random.Random(seed)
    lat: list[float] = []
    effect: list[float] = []
    correct = 0
    with tempfile.TemporaryDirectory() as tmp:
        cfg = replace(load_config("hal/data/cabinet-4.toml"), data_dir=Path(tmp))
        clock = ManualClock(_now_us())
        sim = SimCabinet(cfg, clock)
        fitted = fit_hardware(sim) if fit_hardware is not None else None
        cabinet = Cabinet(cfg, sim, clock, Store(Path(tmp) / "b.sqlite3"), log=lambda _l: None, seed=1)
        if frame_work_us is not None:
            _time_frames(cabinet, frame_work_us)
        for _ in range(cases):
            fighters = rng.randint(2, 4)
            play = start_session(
                cabinet, KarateControls(), KarateOptions(deal=deal_for_clumsy_hit(fighters)), tuple(range(fighters))
            )
            session = play.session
            decided: list[tuple[int, int]] = []
            shown: list[int] = []
            engine_apply = session.engine.apply

            def timed_apply(action, engine_apply=engine_apply, decided=decided):
                events = engine_apply(action)
                decided += [(_now_us(), e.winner) for e in events if isinstance(e, HitWon)]
                return events

            session.engine.apply = timed_apply
            session.listeners.append(lambda _t, e, s=shown: s.append(_now_us()) if isinstance(e, HitWon) else None)
            state = {"pressed": 0, "slapped": False, "due": 0, "expect": -1}

            def drive(now: int, state=state, session=session, fighters=fighters) -> None:
                clock.set(max(clock.now_us(), now))
                if state["pressed"] < fighters and not sim.next_due():
                    sim.press(state["pressed"], Button.A, now, hold_us=20_000)
                    state["pressed"] += 1
                shown = any(isinstance(e, HitShowing) for _t, e in session.recent)
                if shown and not state["slapped"]:
                    base = now + 1_000
                    gaps = sorted(rng.sample(range(1, 500), fighters - 1))
                    order = rng.sample(range(fighters), fighters)
                    stamps = {order[0]: base, **{order[i + 1]: base + g for i, g in enumerate(gaps)}}
                    for f, t in stamps.items():
                        worst = session.buffer.settle_us - 500 if max_delay_us is None else max_delay_us
                        sim.slap(f, t, delay_us=rng.randrange(0, worst))
                    # The Hit is decidable once the earliest slap's window has passed: no
                    # slap stamped earlier can still arrive.
                    state.update(slapped=True, due=base + session.buffer.settle_us, expect=order[0])

            deadline = _now_us() + 3_000_000
            run_main_loop(cabinet, _now_us, 60, lambda s=shown, dl=deadline: not s and _now_us() < dl, drive)
            if decided and shown:
                lat.append(decided[0][0] - state["due"])
                effect.append(shown[0] - state["due"])
                correct += decided[0][1] == state["expect"]
        if fitted is not None:
            fitted.close()
        sim.close()
    return lat, effect, correct


def _time_frames(cabinet: Any, out: list[float]) -> None:
    """Record the main thread's work per frame: every step since the last render, plus
    the render."""
    step, render = cabinet.step, cabinet.render
    acc = [0.0]

    def timed_step(now_us: int) -> None:
        t0 = time.perf_counter()
        step(now_us)
        acc[0] += time.perf_counter() - t0

    def timed_render() -> Any:
        t0 = time.perf_counter()
        canvas = render()
        out.append((acc[0] + time.perf_counter() - t0) * 1e6)
        acc[0] = 0.0
        return canvas

    cabinet.step, cabinet.render = timed_step, timed_render


def run() -> list[Figure]:
    lat, effect, correct = decision_latencies()
    typical, _effect, typical_correct = decision_latencies(seed=2, max_delay_us=500)
    return [
        Figure(
            "Hit decided after the winning slap's settle window, p50",
            percentile(lat, 50),
            "µs",
            "",
            f"{len(lat)} real-time near-tie Hits, 2–4 fighters, stamps 1–499 µs apart, "
            "transport delays up to the whole window (worst case)",
        ),
        Figure(
            "Hit decided after the settle window, p99 (worst-case delays)",
            percentile(lat, 99),
            "µs",
            "≤ 1,000 µs",
            "a slap arriving while a frame is drawn waits for it",
        ),
        Figure(
            "Hit decided after the settle window, p50 (delays ≤ 0.5 ms, like gpio-edge)",
            percentile(typical, 50),
            "µs",
            "",
            f"{len(typical)} Hits",
        ),
        Figure(
            "Hit decided after the settle window, p99 (delays ≤ 0.5 ms)",
            percentile(typical, 99),
            "µs",
            "≤ 1,000 µs",
            "",
        ),
        Figure(
            "Hit committed (fsync) and shown after the settle window, p50",
            percentile(effect, 50),
            "µs",
            "",
            "the journal commit comes between decision and display",
        ),
        Figure("Hit committed and shown after the settle window, p99", percentile(effect, 99), "µs", "", ""),
        Figure(
            "winner = earliest stamp",
            100 * (correct + typical_correct) / (len(lat) + len(typical)),
            "%",
            "100%",
            "both runs",
        ),
    ]

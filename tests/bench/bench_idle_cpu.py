"""An idle cabinet: CPU the real-time loop uses while the attract screen waits for
players (process CPU time over wall time), with menus redrawn only when they change,
against redrawing every frame as before."""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import statistics
import tempfile
import time
from dataclasses import replace
from pathlib import Path

from tests.bench.harness import Figure

TITLE = "Idle cabinet: attract-screen CPU"

SECONDS = float(os.environ.get("RINGSIDE_BENCH_IDLE_S", "10"))
REPEATS = 3


def idle_cpu_percent(seconds: float, redraw_every_frame: bool = False) -> tuple[float, int]:
    """% of one core the process used over ``seconds`` of the attract screen in the
    real-time loop (60 fps, a window on SDL's dummy driver, simulated hardware), and how
    many frames were drawn."""
    from display.window import Window
    from firmware_py.cabinet import Cabinet
    from firmware_py.loop import run_realtime
    from firmware_py.scenes import Attract
    from firmware_py.store import Store
    from hal.clock import ManualClock, MonotonicClock
    from hal.config import load_config
    from hal.sim import SimCabinet

    with tempfile.TemporaryDirectory() as tmp:
        cfg = replace(load_config(), data_dir=Path(tmp))
        clock = ManualClock(MonotonicClock().now_us())
        sim = SimCabinet(cfg, clock)
        store = Store(Path(tmp) / "s.sqlite3")
        window = Window((cfg.display.width, cfg.display.height))
        cabinet = Cabinet(cfg, sim, clock, store, window, log=lambda _l: None)

        def before(now: int) -> None:
            clock.set(max(clock.now_us(), now))
            if redraw_every_frame:
                cabinet._on_screen = None  # forget what is on screen: every frame drawn

        end = time.monotonic() + seconds
        cpu0, wall0 = time.process_time(), time.monotonic()
        run_realtime(cabinet, MonotonicClock().now_us, cfg.display.fps, lambda: time.monotonic() < end, before)
        cpu, wall = time.process_time() - cpu0, time.monotonic() - wall0
        assert isinstance(cabinet.scene, Attract)
        frames = cabinet.frames
        window.close()
        store.close()
        sim.close()
    return 100 * cpu / wall, frames


def run() -> list[Figure]:
    idle = [idle_cpu_percent(SECONDS) for _ in range(REPEATS)]
    every = [idle_cpu_percent(SECONDS, redraw_every_frame=True) for _ in range(REPEATS)]
    idle_pct = statistics.median(p for p, _f in idle)
    every_pct = statistics.median(p for p, _f in every)
    return [
        Figure(
            "attract idle CPU, menus redrawn only when they change (median)",
            idle_pct,
            "% of one core",
            "≤ 5 %",
            f"{REPEATS} runs of {SECONDS:.0f} s, real-time loop at 60 fps, SDL dummy driver; "
            f"{statistics.median(f for _p, f in idle) / SECONDS:.1f} frames drawn per s",
        ),
        Figure(
            "attract idle CPU, every frame redrawn (as before), median",
            every_pct,
            "% of one core",
            "",
            f"{statistics.median(f for _p, f in every) / SECONDS:.0f} frames drawn per s",
        ),
        Figure("idle CPU saved", every_pct / idle_pct if idle_pct else 0.0, "×", "", "every-frame / changes-only"),
    ]

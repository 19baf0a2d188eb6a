"""An idle cabinet: CPU the real-time loop uses while the attract mode waits for players
(process CPU time over wall time), over its whole cycle: the title card, then a demo of
each game in turn.  Measured with the cabinet's drawing policy (a menu redrawn only when
it changes, a demo's clock-driven parts advancing in ``DEMO_TICK_US`` steps) against
redrawing every frame as before."""

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

SECONDS = float(os.environ.get("RINGSIDE_BENCH_IDLE_S", "4"))
"""Wall time of one measured run of one attract phase."""
REPEATS = 3


def idle_cpu_percent(seconds: float, demo: int | None, every_frame: bool) -> tuple[float, int, str]:
    """% of one core the process used over ``seconds`` of one attract phase in the
    real-time loop (60 fps, a window on SDL's dummy driver, simulated hardware): the
    title card (``demo`` None; at most as long as it lasts) or the demo of the
    ``demo``-th game; frames drawn per second, and the phase's name."""
    from display.window import Window
    from firmware_py.runtime import scenes
    from firmware_py.runtime.cabinet import Cabinet
    from firmware_py.runtime.loop import run_main_loop
    from firmware_py.runtime.store import Store
    from hal.clock import ManualClock, MonotonicClock
    from hal.config import load_config
    from hal.sim import SimCabinet

    tick_us = scenes.DEMO_TICK_US
    with tempfile.TemporaryDirectory() as tmp:
        cfg = replace(load_config(), data_dir=Path(tmp))
        clock = ManualClock(MonotonicClock().now_us())
        sim = SimCabinet(cfg, clock)
        store = Store(Path(tmp) / "s.sqlite3")
        window = Window((cfg.display.width, cfg.display.height))
        cabinet = Cabinet(cfg, sim, clock, store, window, log=lambda _l: None)
        attract = cabinet.scene
        assert isinstance(attract, scenes.Attract)
        name = "title card"
        if demo is not None:
            attract.demo_game = demo
            name = f"{cabinet.ctx.games[demo].spec.title} demo"
        # The phase starts when the measurement does, however long the set-up took (under
        # load it outlasted the title card, whose demo then started inside the measurement):
        # a title card from its first frame, or a demo whose title card is just up.
        clock.set(max(clock.now_us(), MonotonicClock().now_us()))
        attract.phase_us = clock.now_us() - (scenes.TITLE_US if demo is not None else 0)
        if demo is None:  # measured no longer than the title card lasts
            seconds = min(seconds, scenes.TITLE_US / 1e6 - 0.5)

        def before(now: int) -> None:
            clock.set(max(clock.now_us(), now))
            if every_frame:
                cabinet._on_screen = None  # forget what is on screen: every frame drawn

        if every_frame:
            scenes.DEMO_TICK_US = 1
        try:
            end = time.monotonic() + seconds
            frames0 = cabinet.frames
            cpu0, wall0 = time.process_time(), time.monotonic()
            run_main_loop(cabinet, MonotonicClock().now_us, cfg.display.fps, lambda: time.monotonic() < end, before)
            cpu, wall = time.process_time() - cpu0, time.monotonic() - wall0
        finally:
            scenes.DEMO_TICK_US = tick_us
        assert cabinet.scene is attract
        assert (attract.demo is not None) == (demo is not None), "the phase measured is the one named"
        frames = cabinet.frames - frames0
        window.close()
        store.close()
        sim.close()
    return 100 * cpu / wall, frames / wall, name


def _cycle(every_frame: bool) -> tuple[float, list[Figure]]:
    """The cycle's time-weighted CPU (a title card before each game's demo, each demo at
    its full length) and a figure per phase."""
    from firmware_py.runtime.scenes import DEMO_US, TITLE_US
    from games.registry import BUILTIN

    figures = []
    phases: list[tuple[float, float]] = []  # (CPU %, seconds of the cycle)
    for demo in [None, *range(len(BUILTIN))]:
        runs = [idle_cpu_percent(SECONDS, demo, every_frame) for _ in range(REPEATS)]
        pct = statistics.median(p for p, _f, _n in runs)
        fps = statistics.median(f for _p, f, _n in runs)
        name = runs[0][2]
        phases.append((pct, len(BUILTIN) * TITLE_US / 1e6 if demo is None else DEMO_US / 1e6))
        how = "every frame redrawn (before)" if every_frame else "changes only"
        figures.append(
            Figure(f"attract {name}, {how} (median)", pct, "% of one core", "", f"{fps:.1f} frames drawn per s")
        )
    cycle = sum(p * s for p, s in phases) / sum(s for _p, s in phases)
    return cycle, figures


def run() -> list[Figure]:
    from firmware_py.runtime.scenes import DEMO_TICK_US, DEMO_US, TITLE_US

    idle, idle_phases = _cycle(every_frame=False)
    every, every_phases = _cycle(every_frame=True)
    return [
        Figure(
            "attract idle CPU over the whole cycle, changes only",
            idle,
            "% of one core",
            "≤ 5 %",
            f"time-weighted: a {TITLE_US / 1e6:.0f} s title card before each game's demo of "
            f"{DEMO_US / 1e6:.0f} s; demos' clock-driven parts step every {DEMO_TICK_US / 1000:.0f} ms; "
            f"each phase {REPEATS} runs of {SECONDS:.0f} s in the real-time loop at 60 fps, SDL dummy driver",
        ),
        Figure("attract idle CPU over the whole cycle, every frame redrawn (before)", every, "% of one core", "", ""),
        Figure("idle CPU saved", every / idle if idle else 0.0, "×", "", "every-frame / changes-only"),
        *idle_phases,
        *every_phases,
    ]

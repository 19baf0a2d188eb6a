"""An idle cabinet: CPU the real-time loop uses while the attract mode waits for players
(process CPU time over wall time, every thread), over its whole cycle: the title card,
then a demo of each game in turn.  Three ways, each phase's runs taking turns so a
change of the machine's load falls on all three alike:

- **paced** (the cabinet's): a screen drawn only when it changed, and the loop asleep
  between the steps of what the attract screen shows (``Cabinet.quiet_until``);
- **every frame taken** (before issue 34's pacing): drawn only when changed, but the loop
  waking for each 60 fps frame to find out;
- **every frame redrawn** (before issue 13).

The machine is shared: the load average is noted at the start and end."""

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
REPEATS = 5


MODES = ("paced", "every frame taken", "every frame redrawn")


def idle_cpu_percent(seconds: float, demo: int | None, mode: str) -> tuple[float, int, str]:
    """% of one core the process used over ``seconds`` of one attract phase in the
    real-time loop (60 fps, a window on SDL's dummy driver, simulated hardware), the loop
    run as ``mode`` says (:data:`MODES`): the title card (``demo`` None; at most as long
    as it lasts) or the demo of the ``demo``-th game; frames drawn per second, and the
    phase's name."""
    from display.window import Window
    from firmware_py.runtime import scenes
    from firmware_py.runtime.cabinet import Cabinet
    from firmware_py.runtime.loop import run_main_loop
    from firmware_py.runtime.store import Store
    from hal.clock import ManualClock, MonotonicClock
    from hal.config import load_config
    from hal.sim import SimCabinet

    every_frame = mode == "every frame redrawn"
    tick_us = scenes.DEMO_TICK_US
    with tempfile.TemporaryDirectory() as tmp:
        cfg = replace(load_config(), data_dir=Path(tmp))
        clock = ManualClock(MonotonicClock().now_us())
        sim = SimCabinet(cfg, clock)
        store = Store(Path(tmp) / "s.sqlite3")
        window = Window((cfg.display.width, cfg.display.height))
        cabinet = Cabinet(cfg, sim, clock, store, window, log=lambda _l: None)
        if mode != "paced":
            cabinet.quiet_until = lambda: None  # type: ignore[method-assign]  # a frame every 1/60 s
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


def run() -> list[Figure]:
    from firmware_py.runtime.scenes import DEMO_TICK_US, DEMO_US, TITLE_US
    from games.registry import BUILTIN

    load0 = os.getloadavg()[0]
    phases = [None, *range(len(BUILTIN))]
    runs: dict[tuple[int | None, str], list[tuple[float, int, str]]] = {(d, m): [] for d in phases for m in MODES}
    for demo in phases:
        for _ in range(REPEATS):
            for mode in MODES:  # taking turns: a change of load falls on every mode alike
                runs[demo, mode].append(idle_cpu_percent(SECONDS, demo, mode))
    load1 = os.getloadavg()[0]
    weight = {d: len(BUILTIN) * TITLE_US / 1e6 if d is None else DEMO_US / 1e6 for d in phases}
    cycle = {
        m: sum(statistics.median(p for p, _f, _n in runs[d, m]) * weight[d] for d in phases) / sum(weight.values())
        for m in MODES
    }
    figures = [
        Figure(
            "attract idle CPU over the whole cycle, paced",
            cycle["paced"],
            "% of one core",
            "≤ 3 %",
            f"time-weighted: a {TITLE_US / 1e6:.0f} s title card before each game's demo of "
            f"{DEMO_US / 1e6:.0f} s; demos' clock-driven parts step every {DEMO_TICK_US / 1000:.0f} ms; "
            f"each phase {REPEATS} runs of {SECONDS:.0f} s per way, the ways taking turns, in the real-time "
            f"loop at 60 fps, SDL dummy driver; load average {load0:.1f} at the start, {load1:.1f} at the end",
        ),
        Figure(
            "attract idle CPU over the whole cycle, every frame taken (before)",
            cycle["every frame taken"],
            "% of one core",
            "",
            "",
        ),
        Figure(
            "attract idle CPU over the whole cycle, every frame redrawn (before)",
            cycle["every frame redrawn"],
            "% of one core",
            "",
            "",
        ),
        Figure(
            "idle CPU saved by pacing",
            cycle["every frame taken"] / cycle["paced"],
            "×",
            "",
            "every frame taken / paced, same run",
        ),
        Figure(
            "idle CPU saved in all",
            cycle["every frame redrawn"] / cycle["paced"],
            "×",
            "",
            "every frame redrawn / paced, same run",
        ),
    ]
    for mode in MODES:
        for demo in phases:
            pcts = [p for p, _f, _n in runs[demo, mode]]
            fps = statistics.median(f for _p, f, _n in runs[demo, mode])
            figures.append(
                Figure(
                    f"attract {runs[demo, mode][0][2]}, {mode} (median)",
                    statistics.median(pcts),
                    "% of one core",
                    "",
                    f"{fps:.1f} frames drawn per s; runs {', '.join(f'{p:.2f}' for p in pcts)}",
                )
            )
    return figures

"""A memory soak: one process plays exhibition games back to back, through the whole
stack (sim hardware, scenes, sessions, the store, rendering into a headless window),
and prints its resident memory after each game as a JSON line.

    python -m tests.firmware_py.memory_soak --games 100

Run in a process of its own so that nothing else the test session did is counted.
RSS is read from ``/proc/self/statm`` (resident pages), not from psutil or resource.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import sys
import tempfile
from dataclasses import replace
from pathlib import Path


def rss_kb() -> int:
    """This process's resident set size, in KiB."""
    with open("/proc/self/statm", encoding="ascii") as f:
        resident_pages = int(f.read().split()[1])
    return resident_pages * os.sysconf("SC_PAGE_SIZE") // 1024


def soak(games: int, fps: int, data_dir: Path) -> None:
    from display.theme import font
    from display.window import Window, use_headless_drivers
    from firmware_py.process.memory import return_large_blocks

    use_headless_drivers()
    return_large_blocks()  # as ``ringside run`` sets its process up
    from firmware_py.runtime.cabinet import Cabinet
    from firmware_py.runtime.store import Store
    from firmware_py.tools.exhibition import run_exhibition
    from hal.clock import ManualClock
    from hal.config import load_config
    from hal.sim import SimCabinet

    config = replace(load_config(), data_dir=data_dir)
    clock = ManualClock(1_000_000)
    sim = SimCabinet(config, clock)
    store = Store(data_dir / "ringside.sqlite3")
    window = Window((config.display.width, config.display.height))
    cabinet = Cabinet(config, sim, clock, store, window, log=lambda _line: None, seed=1)
    names = [g.spec.name for g in cabinet.ctx.games]
    try:
        for i in range(games):
            game = names[i % len(names)]
            finished = run_exhibition(cabinet, sim, clock, game, seed=i, fps=fps)
            gc.collect()
            faces = font.cache_info().currsize  # the display's text faces: one per size and weight drawn
            print(json.dumps({"game": game, "finished": finished, "rss_kb": rss_kb(), "faces": faces}), flush=True)
    finally:
        sim.close()
        store.close()
        window.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--fps", type=int, default=4, help="frames per virtual second (rendering included)")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        soak(args.games, args.fps, Path(tmp))
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Run inside the container as the ringside user, the cabinet stopped: people start a
game of Punch at the cabinet and play a few moves, then the power goes (this process
ends without closing anything).  The store in the data folder then holds that game in
play, as a cabinet that lost power mid-game would.

The computer players press the simulated cabinet's pins (the exhibition's hands), so
the game is started and played through the cabinet's own menus and journal.
Prints ``game <id> <actions>``.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from firmware_py.runtime.cabinet import Cabinet
from firmware_py.runtime.scenes import Play
from firmware_py.runtime.store import open_store
from firmware_py.runtime.virtual_time import VirtualTimeDriver
from firmware_py.tools.exhibition import ExhibitionDriver
from hal.clock import ManualClock, MonotonicClock
from hal.config import load_config
from hal.sim import SimCabinet

FRAME_US = 50_000
MOVES = 4


def main() -> int:
    config = load_config(sys.argv[1])
    clock = ManualClock(MonotonicClock().now_us())
    sim = SimCabinet(config, clock)
    store = open_store(Path(config.data_dir) / "ringside.sqlite3", print)
    cabinet = Cabinet(config, sim, clock, store, window=None, log=print, seed=5)
    driver = ExhibitionDriver(cabinet, sim, "punch", seed=5)

    def moves() -> int:
        scene = cabinet.scene
        return len(scene.session.engine.journal) if isinstance(scene, Play) else 0

    def act(t: int, is_frame: bool) -> None:
        if is_frame:
            driver.act(t)

    ok = VirtualTimeDriver(cabinet, FRAME_US).run_until(
        clock.now_us() + 300_000_000, after_step=act, after=lambda _t, is_frame: is_frame and moves() >= MOVES
    )
    if not ok:
        print("no game reached its moves", flush=True)
        os._exit(1)
    scene = cabinet.scene
    assert isinstance(scene, Play)
    print(f"game {scene.session.game_id} {moves()}", flush=True)
    os._exit(0)  # the power cut: no close, no flush


if __name__ == "__main__":
    raise SystemExit(main())

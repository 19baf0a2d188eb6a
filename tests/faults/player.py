"""A cabinet process for fault injection: ``python -m tests.faults.player DATA GAME SEED CLOCK_US``.

It starts the way ``ringside run`` does (data folder check, one process per folder, the
store through ``open_store``, resume of an unfinished game) on simulated hardware with a
virtual clock starting at ``CLOCK_US`` (a restart after a reboot starts low), then lets
the exhibition's computer players play game after game of ``GAME`` as fast as the CPU
allows, until it is killed.  It reports on stdout, one line each, flushed:

- ``ack GAME_ID SEQ JSON``  after an action's commit returned (it is then acknowledged:
  a power cut must not lose it);
- ``resumed GAME_ID N``     the game it took up and the actions its journal held;
- ``started GAME_ID``       a new game;
- ``paused TEXT`` / ``running``  the game paused (store, pads) and went on;
- ``stuck``                 a game in play made no progress for :data:`STUCK_US` of
  virtual time (then it exits with 4).
"""

from __future__ import annotations

import json
import signal
import sys
from pathlib import Path

from firmware_py.process import data_folder
from firmware_py.runtime.scenes import Play
from firmware_py.runtime.virtual_time import VirtualTimeDriver
from tests.faults.harness import FRAME_US

STUCK_US = 120_000_000
EXIT_STUCK = 4
FOREVER_US = 2**62
"""Virtual time the player never reaches: it plays until it is killed, or stuck."""


def main(argv: list[str]) -> int:
    data, game, seed, clock_us = Path(argv[0]), argv[1], int(argv[2]), int(argv[3])
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a file-size limit is a full disk: EFBIG, not death
    data_folder.prepare(data)
    try:
        _lock = data_folder.InstanceLock(data).acquire()  # held until the process ends
    except data_folder.DataFolderBusy as e:
        print(f"busy {e}", flush=True)
        return 3
    from dataclasses import replace

    from firmware_py.runtime.cabinet import Cabinet
    from firmware_py.runtime.store import open_store
    from firmware_py.tools.exhibition import ExhibitionDriver
    from hal.clock import ManualClock
    from hal.config import load_config
    from hal.sim import SimCabinet

    def say(line: str) -> None:
        print(line, flush=True)

    config = replace(load_config(), data_dir=data)
    clock = ManualClock(clock_us)
    sim = SimCabinet(config, clock)
    store = open_store(data / "ringside.sqlite3", lambda line: say(f"log {line}"))
    commit = store.commit_action

    def acknowledged(game_id, seq, action, records=(), finish=None) -> None:
        commit(game_id, seq, action, records, finish)
        say(f"ack {game_id} {seq} {json.dumps(action, sort_keys=True)}")

    store.commit_action = acknowledged
    cabinet = Cabinet(config, sim, clock, store, window=None, log=lambda line: say(f"log {line}"), seed=seed)
    if isinstance(cabinet.scene, Play):
        say(f"resumed {cabinet.scene.session.game_id} {len(cabinet.scene.session.engine.journal)}")
    driver = ExhibitionDriver(cabinet, sim, game, seed)
    session, paused, progress_at, journal = None, None, clock.now_us(), -1

    def act(t: int, is_frame: bool) -> None:
        if is_frame:  # the players look at the screen once a frame
            driver.act(t)

    def stuck(t: int, is_frame: bool) -> bool:
        """After each frame: say what changed; True once no action has come for STUCK_US."""
        nonlocal session, paused, progress_at, journal
        scene = cabinet.scene
        if not is_frame:
            return False
        if not isinstance(scene, Play):
            progress_at = t
            return False
        if scene.session is not session:
            session, journal = scene.session, -1
            if len(session.engine.journal) == 0:
                say(f"started {session.game_id}")
        if session.paused != paused:
            paused = session.paused
            say("running" if paused is None else f"paused {paused}")
        if len(session.engine.journal) != journal or paused is not None:
            journal, progress_at = len(session.engine.journal), t
            return False
        return t - progress_at > STUCK_US

    VirtualTimeDriver(cabinet, FRAME_US).run_until(FOREVER_US, after_step=act, after=stuck)
    say("stuck")
    return EXIT_STUCK


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

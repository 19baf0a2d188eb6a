"""Cabinets for the fault tests, made the way ``ringside run`` makes them (the data
folder's store through ``open_store``) and played by the exhibition's computer players
in virtual time, so a test can cut the power, restart with any clock and check that the
game goes on."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path

from firmware_py.runtime.cabinet import Cabinet
from firmware_py.runtime.scenes import Play
from firmware_py.runtime.store import open_store
from firmware_py.runtime.virtual_time import VirtualTimeDriver
from firmware_py.tools.exhibition import ExhibitionDriver
from hal.clock import ManualClock
from hal.config import load_config
from hal.sim import SimCabinet

FRAME_US = 50_000
"""Frames every 50 ms of virtual time: reveals are stamped at real flips, at a cost a
test can afford."""
HOURS_2 = 7_203_616_667
"""A monotonic clock two hours after boot (the uptime in the issue's report)."""


@dataclass
class Rig:
    cabinet: Cabinet
    sim: SimCabinet
    clock: ManualClock
    log: list[str] = field(default_factory=list)

    @property
    def play(self) -> Play:
        assert isinstance(self.cabinet.scene, Play), type(self.cabinet.scene).__name__
        return self.cabinet.scene

    def close(self) -> None:
        """An orderly shutdown (a power cut is simply never calling this)."""
        self.sim.close()
        self.cabinet.ctx.store.close()


def make_rig(data: Path, clock_us: int, seed: int = 5, stations: int = 2) -> Rig:
    config = replace(load_config("hal/data/cabinet-4.toml" if stations > 2 else None), data_dir=data)
    clock = ManualClock(clock_us)
    sim = SimCabinet(config, clock)
    log: list[str] = []
    store = open_store(data / "ringside.sqlite3", log.append)
    cabinet = Cabinet(config, sim, clock, store, window=None, log=log.append, seed=seed)
    return Rig(cabinet, sim, clock, log)


def drive(rig: Rig, driver: ExhibitionDriver, done: Callable[[], bool], max_us: int) -> bool:
    """Let the computer players play until ``done()`` (True) or ``max_us`` of virtual
    time passed (False); a frame is drawn and flipped every :data:`FRAME_US`."""
    end = rig.clock.now_us() + max_us

    def act(t: int, is_frame: bool) -> None:
        if is_frame:  # the players look at the screen once a frame
            driver.act(t)

    return VirtualTimeDriver(rig.cabinet, FRAME_US).run_until(
        end, after_step=act, after=lambda _t, is_frame: is_frame and done()
    )


def journal_length(rig: Rig) -> int:
    return len(rig.play.session.engine.journal)


def play_a_little(rig: Rig, actions: int = 4) -> None:
    """Start a Punch! game from the attract screen and play until ``actions`` are journaled."""
    driver = ExhibitionDriver(rig.cabinet, rig.sim, "punch", seed=1)
    assert drive(
        rig, driver, lambda: isinstance(rig.cabinet.scene, Play) and journal_length(rig) >= actions, 60_000_000
    )

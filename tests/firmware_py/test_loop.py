"""The real-time loop: wakes for settle windows, keeps the collector quiet while a Hit is
being decided, and gives the collector back when it stops."""

from __future__ import annotations

import gc
import time

from firmware_py.games.karate_fight.controls import KarateControls
from firmware_py.runtime.loop import QuietCollector, run_main_loop
from games.karate_fight import HitWon, KarateOptions
from tests.cabinet_driving import start_session
from tests.firmware_py.test_cabinet_karate import deal_for_clumsy_hit, make_cabinet


def now_us() -> int:
    return time.monotonic_ns() // 1000


def test_a_hit_is_decided_in_real_time_and_gc_is_restored(tmp_path) -> None:
    cabinet, sim = make_cabinet(tmp_path, 2)
    sim.clock.set(now_us())
    session = start_session(cabinet, KarateControls(), KarateOptions(deal=deal_for_clumsy_hit(2)), (0, 1)).session
    from hal.events import Button

    state = {"pressed": 0, "slapped": False}

    def drive(now: int) -> None:
        sim.clock.set(max(sim.clock.now_us(), now))
        if state["pressed"] < 2 and sim.next_due() is None:
            sim.press(state["pressed"], Button.A, now, hold_us=20_000)
            state["pressed"] += 1
        if session.engine.public_view().hit_showing is not None and not state["slapped"]:
            sim.slap(1, now + 500, delay_us=100)
            state["slapped"] = True

    deadline = now_us() + 5_000_000
    assert gc.isenabled()
    run_main_loop(
        cabinet,
        now_us,
        60,
        lambda: not any(isinstance(e, HitWon) for _t, e in session.recent) and now_us() < deadline,
        drive,
    )
    assert gc.isenabled()
    (won,) = [e for _t, e in session.recent if isinstance(e, HitWon)]
    assert won.winner == 1
    sim.close()


def test_quiet_collector_collects_only_when_quiet_or_forced() -> None:
    collector = QuietCollector()
    try:
        assert not gc.isenabled()
        before = gc.get_stats()[0]["collections"]
        for _ in range(10):
            collector.after_frame(quiet=False)
        assert gc.get_stats()[0]["collections"] == before
        collector.after_frame(quiet=True)
        assert gc.get_stats()[0]["collections"] == before + 1
        for _ in range(QuietCollector.FORCE):
            collector.after_frame(quiet=False)
        assert gc.get_stats()[0]["collections"] == before + 2
    finally:
        collector.close()
    assert gc.isenabled()

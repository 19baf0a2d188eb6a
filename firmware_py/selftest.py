"""``ringside selftest``: start the cabinet on simulated hardware and check every part a
game relies on — config, store, attract screen, every button of every station, every LED
segment, every private display — printing a line per check.  Run after editing a config
or before a convention opens; exit status 0 means every check passed."""

from __future__ import annotations

import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from hal.config import CabinetConfig
from hal.events import Button, ButtonEvent


def run_selftest(config: CabinetConfig, out: Callable[[str], None] = print, t_start: float | None = None) -> bool:
    from display.window import Window
    from firmware_py.cabinet import Cabinet
    from firmware_py.scenes import Attract
    from firmware_py.store import Store
    from firmware_py.version import describe
    from hal.clock import ManualClock
    from hal.sim import SimCabinet

    t_start = time.perf_counter() if t_start is None else t_start
    failures = 0
    out(describe())

    def check(ok: bool, what: str) -> None:
        nonlocal failures
        failures += not ok
        out(f"{'PASS' if ok else 'FAIL'}  {what}")

    clock = ManualClock(1_000_000)
    sim = SimCabinet(config, clock)
    with tempfile.TemporaryDirectory() as tmp:
        store = Store(Path(tmp) / "selftest.sqlite3")
        window = Window((config.display.width, config.display.height))
        cabinet = Cabinet(config, sim, clock, store, window, log=lambda _l: None, seed=1)
        cabinet.step(clock.now_us())
        cabinet.render()
        check(
            isinstance(cabinet.scene, Attract),
            f"attract screen shown {1000 * (time.perf_counter() - t_start):.0f} ms after start",
        )
        for station, sc in enumerate(config.stations):
            seen = []
            for button in Button:
                sim.press(station, button, clock.now_us() + 20_000, hold_us=20_000)
                clock_end = clock.now_us() + 60_000
                while (due := sim.next_due()) is not None and due <= clock_end:
                    seen += [e for e in sim.poll(due) if isinstance(e, ButtonEvent) and e.pressed]
                sim.poll(clock_end)
            got = [(e.station, e.button) for e in seen]
            check(got == [(station, b) for b in Button], f"{sc.name}: buttons A-F and START each give one press")
            ok = True
            for n in range(11):
                sim.set_led_level(station, n / 10)
                ok &= sum(1 for v in sim.led_levels(station) if v > 0) == n
            check(ok, f"{sc.name}: LED bar lights 0..10 segments in order")
            sim.set_led_level(station, 0)
            cabinet.step(clock.now_us())
            check(
                sim.private[station].image is not None and sim.private[station].image.getbbox() is not None,
                f"{sc.name}: private display shows an image",
            )
        check(store.integrity_ok(), "store opens with WAL and passes integrity_check")
        store.close()
        window.close()
    sim.close()
    out(f"{'all checks passed' if failures == 0 else f'{failures} check(s) FAILED'}")
    return failures == 0

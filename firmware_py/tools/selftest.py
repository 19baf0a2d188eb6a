"""``ringside selftest``: start the cabinet on simulated hardware and check every part a
game relies on — config, data folder and store, attract screen, every button of every
station, every LED segment, every private display — printing a line per check, and a
WARN line for what the real cabinet may miss (sound folder, padboard port).  Run after
editing a config or before a convention opens.  Exit status: 0 every check passed, 1 a
check failed, 2 the data folder cannot be used (as ``ringside run`` would exit)."""

from __future__ import annotations

import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from hal.config import CabinetConfig
from hal.events import Button, ButtonEvent


def run_selftest(config: CabinetConfig, out: Callable[[str], None] = print, t_start: float | None = None) -> int:
    from display.window import Window
    from firmware_py.process.version import describe
    from firmware_py.runtime.cabinet import Cabinet
    from firmware_py.runtime.scenes import Attract
    from firmware_py.runtime.store import Store
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
            image = sim.private[station].image
            check(
                image is not None and image.getbbox() is not None,
                f"{sc.name}: private display shows an image",
            )
        check(store.integrity_ok(), "store opens with WAL and passes integrity_check")
        store.close()
        window.close()
    sim.close()
    data_ok = _check_data_folder(config, check, out)
    _warn_missing_parts(config, out)
    out(f"{'all checks passed' if failures == 0 else f'{failures} check(s) FAILED'}")
    return 0 if failures == 0 else 1 if data_ok else 2


def _check_data_folder(config: CabinetConfig, check: Callable[[bool, str], None], out: Callable[[str], None]) -> bool:
    """The check ``ringside run`` makes of the data folder, and a look at the store in it
    (read only: the running cabinet, if any, keeps it)."""
    from firmware_py.process import data_folder
    from firmware_py.runtime.store import inspect

    folder = config.data_dir
    try:
        data_folder.prepare(folder)
    except data_folder.DataFolderError as e:
        check(False, f"{e}; set cabinet.data_dir in the config or pass --data DIR")
        return False
    if not data_folder.writable(folder):
        out(f"WARN  data folder {folder} cannot be written: games would be played but not recorded")
        return True
    check(True, f"data folder {folder} is a writable folder")
    store = folder / "ringside.sqlite3"
    problem = inspect(store)
    if problem is None:
        check(True, f"store {store} {'passes quick_check' if store.exists() else 'will be created'}")
    elif problem.damaged:
        out(f"WARN  store {store} cannot be used ({problem.reason}): run keeps it aside and starts a fresh one")
    else:
        out(f"WARN  store {store} cannot be read now ({problem.reason})")
    return True


def _warn_missing_parts(config: CabinetConfig, out: Callable[[str], None]) -> None:
    """What the simulated hardware cannot check but the cabinet will look for."""
    folder = config.sound.folder
    if config.sound.enabled and folder is not None and not folder.is_dir():
        out(f"WARN  sound folder {folder} is missing: synthesized cues will play instead")
    if config.padboard is not None and not Path(config.padboard.port).exists():
        out(f"WARN  padboard port {config.padboard.port} is missing: plug the board in (the cabinet waits for it)")

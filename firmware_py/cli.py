"""``ringside``: the cabinet's command line.

``ringside run`` starts the cabinet.  On simulated hardware it opens a window with the
keyboard as the buttons where a screen exists; with no screen it plays a headless
exhibition match between computer players, logs it and saves screenshots.

Expected failures are one line on stderr and an exit code, never a traceback:
0 done; 1 a check failed (selftest, hil) or the exhibition did not finish; 2 bad input
(config, arguments, data or screenshots folder); 3 the data folder is in use by another
Ringside process (``EXIT_*`` below; the table is in README.md).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from datetime import datetime
from pathlib import Path

T_START = time.perf_counter()
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
"""Taken as the CLI module loads, so start-up times include every import."""

from display.window import has_screen, use_headless_drivers  # noqa: E402  (after T_START on purpose)
from hal.config import ConfigError, expand_path, load_config  # noqa: E402

EXIT_OK, EXIT_FAILED, EXIT_BAD_INPUT, EXIT_BUSY = 0, 1, 2, 3


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="ringside", description="Ringside arcade cabinet")
    sub = parser.add_subparsers(dest="command", required=True)
    run = sub.add_parser("run", help="start the cabinet")
    run.add_argument("--config", help="cabinet TOML (default: the shipped 2-station config)")
    run.add_argument("--data", help="data folder (default: the config's cabinet.data_dir)")
    mode = run.add_mutually_exclusive_group()
    mode.add_argument("--window", action="store_true", help="development window even without DISPLAY")
    mode.add_argument("--headless", action="store_true", help="headless exhibition even with a screen")
    run.add_argument(
        "--backend",
        choices=("sim", "gpio"),
        default="sim",
        help="sim: simulated hardware (default); gpio: the real cabinet on a Raspberry Pi",
    )
    run.add_argument(
        "--game", help="game the exhibition plays: a registered game's name (default: the first on the select screen)"
    )
    run.add_argument("--seed", type=int, default=None, help="seed for deterministic exhibitions")
    run.add_argument("--screenshots", help="folder for exhibition screenshots")
    run.add_argument("--record", metavar="FILE", help="write each game played as a HIL scenario file (docs/hil.md)")
    hil = sub.add_parser("hil", help="hardware-in-the-loop scenarios (docs/hil.md)")
    hil_sub = hil.add_subparsers(dest="hil_command", required=True)
    hil_run = hil_sub.add_parser("run", help="run scenario files; exit 0 when all pass")
    hil_run.add_argument("files", nargs="+", metavar="FILE", help="scenario TOML files, or folders of them")
    hil_run.add_argument("--report-dir", default="out/hil", help="JUnit XML, JSONL logs, screenshots (default out/hil)")
    hil_run.add_argument("--backend", choices=("sim", "rig"), default="sim", help="sim (default) or rig")
    hil_run.add_argument("--rig", help="rig TOML for --backend rig (default: $RINGSIDE_RIG)")
    hil_run.add_argument("--update-goldens", action="store_true", help="(re)write golden PNGs from this run")
    hil_run.add_argument("-v", "--verbose", action="store_true", help="print the cabinet log as scenarios run")
    selftest = sub.add_parser("selftest", help="check config, buttons, LED bars and displays on simulated hardware")
    selftest.add_argument("--config", help="cabinet TOML (default: the shipped 2-station config)")
    calibrate = sub.add_parser(
        "calibrate", help="slap-pad calibration wizard (terminal, works over SSH; docs/calibration.md)"
    )
    from firmware_py.calibrate_cli import add_arguments as calibrate_arguments

    calibrate_arguments(calibrate)
    args = parser.parse_args(argv)
    if args.command == "hil":
        return run_hil(args)
    if args.command == "run" and args.game is not None and not known_game(args.game):
        return 2

    try:
        config = load_config(args.config)
    except ConfigError as e:
        print(f"ringside: bad cabinet config: {e}", file=sys.stderr)
        return EXIT_BAD_INPUT
    if getattr(args, "data", None):
        from dataclasses import replace

        try:
            config = replace(config, data_dir=expand_path(args.data, "--data"))
        except ConfigError as e:
            print(f"ringside: bad argument: {e}", file=sys.stderr)
            return EXIT_BAD_INPUT
    if args.command == "selftest":
        use_headless_drivers()
        from firmware_py.selftest import run_selftest

        return run_selftest(config, t_start=T_START)
    if args.command == "calibrate":
        from firmware_py.calibrate_cli import main as calibrate_main

        return calibrate_main(args, config)
    if args.command == "run":
        from firmware_py import data_folder

        try:
            data_folder.prepare(config.data_dir)
            lock = data_folder.InstanceLock(config.data_dir).acquire()
        except data_folder.DataFolderError as e:
            print(f"ringside: {e}; set cabinet.data_dir in the config or pass --data DIR", file=sys.stderr)
            return EXIT_BAD_INPUT
        except data_folder.DataFolderBusy as e:
            print(f"ringside: {e}; stop that one first (one cabinet process per data folder)", file=sys.stderr)
            return EXIT_BUSY
        if not lock.held:
            print(f"ringside: {config.data_dir} cannot hold a lock file (read-only)", file=sys.stderr)
        if args.backend == "gpio":
            return run_realtime(config, args, real_hardware=True)
        windowed = args.window or (has_screen() and not args.headless)
        if not windowed:
            return run_headless(config, args)
        import pygame

        try:
            return run_realtime(config, args, real_hardware=False)
        except pygame.error as e:
            if args.window:
                raise
            # DISPLAY set but no usable screen (an SSH session without X forwarding).
            print(f"ringside: no usable screen ({e}); playing the headless exhibition instead", file=sys.stderr)
            os.environ["SDL_VIDEODRIVER"] = "dummy"
            return run_headless(config, args)
    return EXIT_BAD_INPUT


def known_game(name: str) -> bool:
    """True for a game the cabinet offers; otherwise says which ones it does, in one line."""
    from firmware_py.controls_registry import controls_type
    from games.registry import UnknownGame

    try:
        controls_type(name)
    except UnknownGame as e:
        print(f"ringside run --game: {e}", file=sys.stderr)
        return False
    return True


def run_hil(args) -> int:
    use_headless_drivers()
    from firmware_py.hil.runner import run_files

    rig = args.rig or os.environ.get("RINGSIDE_RIG")
    if args.backend == "rig" and not rig:
        print("ringside hil: --backend rig needs --rig FILE or RINGSIDE_RIG (docs/hil.md)", file=sys.stderr)
        return EXIT_BAD_INPUT
    code, _ = run_files(args.files, args.backend, Path(args.report_dir), args.update_goldens, rig, verbose=args.verbose)
    return code


def _recorder(cabinet, sim, args):
    if not getattr(args, "record", None):
        return None
    from firmware_py.hil.record import SessionRecorder

    return SessionRecorder(cabinet, sim, args.record)


def _store(config):
    from firmware_py.store import open_store

    return open_store(config.data_dir / "ringside.sqlite3", lambda line: print(f"ringside: {line}", file=sys.stderr))


def _screenshots_folder(config, args, stamp: str) -> Path | int | None:
    """The exhibition's screenshots folder, made ready; an exit code when ``--screenshots``
    names one that cannot be written; None (no screenshots, a warning) when the default
    one in the data folder cannot, so a read-only data folder still plays."""
    from firmware_py import data_folder

    given = args.screenshots is not None
    shots = Path(args.screenshots) if given else config.data_dir / "screenshots" / f"exhibition-{stamp}"
    try:
        data_folder.prepare(shots, "screenshots folder")
        if not data_folder.writable(shots):
            raise data_folder.DataFolderError(f"screenshots folder {shots} cannot be written")
    except data_folder.DataFolderError as e:
        if given:
            print(f"ringside: {e}; pass another --screenshots DIR", file=sys.stderr)
            return EXIT_BAD_INPUT
        print(f"ringside: {e}; playing without screenshots", file=sys.stderr)
        return None
    return shots


def run_headless(config, args) -> int:
    use_headless_drivers()
    from display.window import Window
    from firmware_py import controls_registry
    from firmware_py.cabinet import Cabinet
    from firmware_py.exhibition import run_exhibition
    from hal.clock import ManualClock
    from hal.sim import SimCabinet

    seed = args.seed if args.seed is not None else int(time.time())
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    shots = _screenshots_folder(config, args, stamp)
    if isinstance(shots, int):
        return shots
    game = args.game or controls_registry.names()[0]
    print(f"Ringside headless exhibition (no screen found): {game}, seed {seed}")
    print(f"data: {config.data_dir}   screenshots: {shots}")
    clock = ManualClock()
    sim = SimCabinet(config, clock)
    store = _store(config)
    t0 = time.perf_counter()

    def log(line: str) -> None:
        print(f"[{clock.now_us() / 1e6:8.2f}s] {line}", flush=True)

    cabinet = Cabinet(config, sim, clock, store, Window((config.display.width, config.display.height)), log, seed)
    recorder = _recorder(cabinet, sim, args)
    try:
        ok = run_exhibition(cabinet, sim, clock, game, seed, shots, fps=config.display.fps)
    finally:
        if recorder is not None:
            recorder.close()
        sim.close()
        store.close()
    wall = time.perf_counter() - t0
    print(
        f"{'finished' if ok else 'DID NOT FINISH'}: {clock.now_us() / 1e6:.0f} s of play in {wall:.1f} s, "
        f"{cabinet.frames} frames; screenshots in {shots}"
    )
    return EXIT_OK if ok else EXIT_FAILED


def run_realtime(config, args, real_hardware: bool) -> int:
    """The cabinet in real time: on a Pi's hardware (``--backend gpio``), or on simulated
    hardware with the keyboard as the buttons (the development window)."""
    import pygame

    from display.dev_panels import HEIGHT
    from display.window import Window
    from firmware_py.cabinet import Cabinet, CabinetIO
    from firmware_py.loop import run_realtime as loop
    from hal.clock import Clock, ManualClock, MonotonicClock

    store = _store(config)
    window = Window(
        (config.display.width, config.display.height),
        config.display.fullscreen,
        strip_height=0 if real_hardware else HEIGHT,
    )
    keys = recorder = None
    clock: Clock
    hardware: CabinetIO
    if real_hardware:
        from calibration.profiles import config_with_active_profile
        from hal.hardware import open_hardware

        config = config_with_active_profile(config)
        clock = MonotonicClock()
        hardware = open_hardware(config, clock)
        print(f"Ringside on cabinet {config.name} ({config.source})")
    else:
        from hal.keyboard import KEYMAP_TEXT, KeyboardInput
        from hal.sim import SimCabinet

        clock = ManualClock(MonotonicClock().now_us())  # virtual time kept at real time
        hardware = SimCabinet(config, clock)
        keys = KeyboardInput(hardware)
        print("Ringside on simulated hardware. Keys:\n" + KEYMAP_TEXT)
    cabinet = Cabinet(config, hardware, clock, store, window, print)
    if keys is not None:
        recorder = _recorder(cabinet, hardware, args)
    running = [True]

    def before_step(now: int) -> None:
        if keys is not None:
            assert isinstance(clock, ManualClock)  # the keyboard drives the simulated cabinet, on a manual clock
            clock.set(max(clock.now_us(), now))
        for event in pygame.event.get():
            if keys is not None:
                running[0] = keys.handle(event, clock.now_us()) and running[0]
            elif event.type == pygame.QUIT:
                running[0] = False

    try:
        loop(cabinet, MonotonicClock().now_us, config.display.fps, lambda: running[0], before_step)
    except KeyboardInterrupt:
        pass
    finally:
        if recorder is not None:
            recorder.close()
        hardware.close()
        store.close()
        window.close()
    return EXIT_OK


if __name__ == "__main__":
    raise SystemExit(main())

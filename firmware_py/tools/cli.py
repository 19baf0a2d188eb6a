"""``ringside``: the cabinet's command line.

``ringside run`` starts the cabinet.  On simulated hardware it opens a window with the
keyboard as the buttons where a screen exists; with no screen it plays a headless
exhibition match between computer players, logs it and saves screenshots.  A cabinet's
config says ``backend = "gpio"``: then ``run`` drives the real hardware, never a
simulation or an exhibition.  Everything operational goes to the log (stderr, the
journal under systemd); expected failures are one line and an exit code
(:mod:`firmware_py.process.exit_codes`: 0 done, 1 a check failed, 2 bad input, 3 the data folder
is in use by another process, 4 hardware missing, 5 software missing).
"""

from __future__ import annotations

import argparse
import logging
import os
import time
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING

T_START = time.perf_counter()
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
"""Taken as the CLI module loads, so start-up times include every import."""

from firmware_py.games.registry import check_settings  # noqa: E402
from firmware_py.games.registry import names as game_names  # noqa: E402
from firmware_py.process import logs  # noqa: E402  (after T_START on purpose)
from firmware_py.process.exit_codes import EXIT_BAD_INPUT, EXIT_BUSY, EXIT_FAILED, EXIT_HARDWARE, EXIT_OK  # noqa: E402
from hal.config import BACKENDS, CabinetConfig, ConfigError, expand_path, load_config  # noqa: E402

if TYPE_CHECKING:  # the commands import what they run when they run it (start-up time)
    from firmware_py.hil.record import SessionRecorder
    from firmware_py.runtime.cabinet import Cabinet
    from firmware_py.runtime.store import Store
    from games.levels import Level
    from hal.cabinet_io import CabinetIO

log = logging.getLogger("ringside")

WEB_SERVER = "firmware_py.games.punch_cards.web.serve"
DATA_ENV = "RINGSIDE_DATA"
"""Environment variable naming the data folder (below ``--data``, above the config's)."""


def log_options() -> argparse.ArgumentParser:
    """``-v`` / ``--log-level``, accepted before or after the command."""
    p = argparse.ArgumentParser(add_help=False)
    p.add_argument(
        "-v",
        "--verbose",
        dest="log_verbose",
        action="count",
        default=argparse.SUPPRESS,
        help="more log detail (debug)",
    )
    p.add_argument("--log-level", choices=logs.LEVELS, default=argparse.SUPPRESS, help="log level (default info)")
    return p


def main(argv: list[str] | None = None) -> int:
    """``ringside`` called in a process that goes on (the tests): the signal handlers are
    put back as they were afterwards."""
    from firmware_py.tools.run import restore_signals

    return _main(argv, restore_signals)


def process_main() -> int:
    """``ringside`` as its own process (the console script, ``python -m``): SIGTERM,
    SIGINT and SIGHUP stay ignored after it, until the interpreter has finished."""
    from firmware_py.tools.run import ignore_signals

    return _main(None, ignore_signals)


def _main(argv: list[str] | None, after: Callable[[], None]) -> int:
    """SIGTERM or SIGINT while ``run`` starts or plays its headless exhibition is one log
    line and exit 0, like a stop from the main loop; ``after`` sets the signals for what
    follows."""
    from firmware_py.tools.run import StopRequested

    try:
        return command(argv)
    except StopRequested as e:
        log.info("ringside: stopping (%s)", e.signal_name)
        return EXIT_OK
    finally:
        after()


def command(argv: list[str] | None) -> int:
    from firmware_py.process.version import describe

    common = log_options()
    parser = argparse.ArgumentParser(prog="ringside", description="Ringside arcade cabinet", parents=[common])
    parser.add_argument("--version", action="version", version=describe())
    sub = parser.add_subparsers(dest="command", required=True)
    run = sub.add_parser("run", help="start the cabinet", parents=[common])
    run.add_argument("--config", help="cabinet TOML (default: the shipped 2-station config)")
    run.add_argument("--data", help=f"data folder (default: ${DATA_ENV}, else the config's cabinet.data_dir)")
    mode = run.add_mutually_exclusive_group()
    mode.add_argument("--window", action="store_true", help="development window even without DISPLAY")
    mode.add_argument("--headless", action="store_true", help="headless exhibition even with a screen")
    run.add_argument(
        "--backend",
        choices=BACKENDS,
        default=None,
        help="override the config's cabinet.backend (gpio: the real cabinet on a Raspberry Pi; sim: simulated)",
    )
    run.add_argument(
        "--game",
        help=f"game the exhibition plays: {', '.join(game_names())} (default: the first on the select screen)",
    )
    run.add_argument(
        "--level",
        help="level of the computer players (easy, normal, hard, expert; default normal): every player of the "
        "headless exhibition, and the level the join screen first offers a lone player",
    )
    run.add_argument("--seed", type=int, default=None, help="seed for deterministic exhibitions")
    run.add_argument("--screenshots", help="folder for exhibition screenshots")
    run.add_argument("--record", metavar="FILE", help="write each game played as a HIL scenario file (docs/hil.md)")
    from firmware_py.hil.scenario import BACKENDS as BACKENDS_HIL

    hil = sub.add_parser("hil", help="hardware-in-the-loop scenarios (docs/hil.md)")
    hil_sub = hil.add_subparsers(dest="hil_command", required=True)
    hil_run = hil_sub.add_parser("run", help="run scenario files; exit 0 when all pass")
    hil_run.add_argument("files", nargs="+", metavar="FILE", help="scenario TOML files, or folders of them")
    hil_run.add_argument("--report-dir", default="out/hil", help="JUnit XML, JSONL logs, screenshots (default out/hil)")
    hil_run.add_argument(
        "--backend",
        choices=BACKENDS_HIL,
        default="sim",
        help="sim (default); padboard-emulated (the padboard's firmware on an emulated RP2040); rig",
    )
    hil_run.add_argument("--rig", help="rig TOML for --backend rig (default: $RINGSIDE_RIG)")
    hil_run.add_argument("--update-goldens", action="store_true", help="(re)write golden PNGs from this run")
    hil_run.add_argument("-v", "--verbose", action="store_true", help="print the cabinet log as scenarios run")
    selftest = sub.add_parser(
        "selftest",
        help="check config, buttons, LED bars and displays on simulated hardware (--press: the real ones, by hand)",
        parents=[common],
    )
    selftest.add_argument("--config", help="cabinet TOML (default: the shipped 2-station config)")
    selftest.add_argument("--data", help=f"data folder (default: ${DATA_ENV}, else the config's cabinet.data_dir)")
    selftest.add_argument(
        "--press",
        action="store_true",
        help="the real cabinet (service stopped): asks a person to press every button and slap every pad",
    )
    selftest.add_argument("--timeout", type=float, default=10.0, help="with --press: seconds to wait for each (10)")
    calibrate = sub.add_parser(
        "calibrate",
        help="slap-pad calibration wizard (terminal, works over SSH; docs/calibration.md)",
        parents=[common],
    )
    from firmware_py.tools.calibrate import add_arguments as calibrate_arguments

    calibrate_arguments(calibrate)
    web = sub.add_parser(
        "web",
        help="Punch Cards standings on attendees' phones: a read-only web server beside the ledger (docs/operator.md)",
        parents=[common],
    )
    web_server().add_arguments(web)
    args = parser.parse_args(argv)
    logs.configure(logs.level_for(getattr(args, "log_verbose", 0), getattr(args, "log_level", None)))
    if args.command == "run":
        from firmware_py.tools.run import stop_on_signals

        stop_on_signals()
    if args.command == "hil":
        return run_hil(args)
    if args.command == "run" and args.game is not None and not known_game(args.game):
        return EXIT_BAD_INPUT
    if args.command == "run":
        level = computer_level(args.level)
        if level is None:
            return EXIT_BAD_INPUT
        args.level = level

    try:
        config = load_config(args.config)
        check_settings(config)
    except ConfigError as e:
        log.error("ringside: bad cabinet config: %s", e)
        return EXIT_BAD_INPUT
    from dataclasses import replace

    try:
        config = replace(config, data_dir=data_dir(config.data_dir, getattr(args, "data", None)))
    except ConfigError as e:
        log.error("ringside: bad argument: %s", e)
        return EXIT_BAD_INPUT
    if args.command == "selftest":
        from firmware_py.tools.selftest import run_selftest

        if args.press:
            from firmware_py.tools.selftest import run_press_test

            return run_press_test(config, args.timeout)
        os.environ.setdefault("SDL_VIDEODRIVER", "dummy")  # the screen is simulated; sound is the cabinet's own
        return run_selftest(config, t_start=T_START)
    if args.command == "calibrate":
        from firmware_py.tools.calibrate import main as calibrate_main
        from firmware_py.tools.calibrate import remove_scratch, scratch_data_for_sim

        if args.sim and not explicit_data(args):
            config = scratch_data_for_sim(config)
        try:
            return calibrate_main(args, config)
        finally:
            remove_scratch(config)
    if args.command == "web":
        return int(web_server().run(config, args))
    if args.command == "run":
        from firmware_py.process import data_folder
        from firmware_py.tools.run import signalled_stop

        try:
            data_folder.prepare(config.data_dir)
            lock = data_folder.InstanceLock(config.data_dir).acquire()
        except data_folder.DataFolderError as e:
            log.error("ringside: %s; %s", e, e.fix)
            return EXIT_BAD_INPUT
        except data_folder.DataFolderBusy as e:
            log.error("ringside: %s; stop that one first (one cabinet process per data folder)", e)
            return EXIT_BUSY
        if not lock.held:
            log.warning("ringside: %s cannot hold a lock file (read-only)", config.data_dir)
        try:
            return run_cabinet(config, args)
        except Exception as e:
            stop = signalled_stop()
            if stop is None:
                log.exception("ringside: unexpected error; the cabinet stops")
                return EXIT_FAILED
            log.info("ringside: %s cut a step short, which ended in %s: %s", stop.signal_name, type(e).__name__, e)
            raise stop from e
    return EXIT_BAD_INPUT


def web_server() -> ModuleType:
    """``ringside web``'s module.  Punch Cards' own (it reads that game's ledger): found by
    name, as the registry finds each game's folder, so this cabinet-wide CLI imports no
    game's folder."""
    import importlib

    return importlib.import_module(WEB_SERVER)


def run_cabinet(config: CabinetConfig, args: argparse.Namespace) -> int:
    from firmware_py.process.memory import return_large_blocks
    from firmware_py.process.retention import prune

    return_large_blocks()  # a long-running process: freed large blocks go back to the system

    backend = args.backend or config.backend
    if backend == "gpio" and args.headless:
        log.error(
            "ringside run --headless: the backend is gpio (%s), the real cabinet: it plays no exhibition",
            "--backend gpio" if args.backend else f"cabinet.backend in {config.source}",
        )
        return EXIT_BAD_INPUT
    prune(config.data_dir, config.retention)
    if backend == "gpio":
        return run_live(config, args, real_hardware=True)
    from display.window import has_screen

    windowed = args.window or (has_screen() and not args.headless)
    if not windowed:
        return run_headless(config, args)
    import pygame

    try:
        return run_live(config, args, real_hardware=False)
    except pygame.error as e:
        if args.window:  # asked for: a window nobody sees is no window
            log.error("ringside run --window: the window cannot be shown (%s)", e)
            return EXIT_HARDWARE
        # DISPLAY set but no usable screen (an SSH session without X forwarding).
        log.warning(
            "ringside: no usable screen, nothing would be visible (%s); playing the headless exhibition instead", e
        )
        os.environ["SDL_VIDEODRIVER"] = "dummy"
        return run_headless(config, args)


def explicit_data(args: argparse.Namespace) -> bool:
    """Whether the person named a data folder (``--data`` or the environment variable)."""
    return bool(getattr(args, "data", None) or os.environ.get(DATA_ENV))


def data_dir(configured: Path, flag: str | None) -> Path:
    """``--data``, else ``$RINGSIDE_DATA``, else the config's ``cabinet.data_dir`` (whose
    default is the XDG data folder of whoever runs it)."""
    if flag:
        return expand_path(flag, "--data")
    env = os.environ.get(DATA_ENV)
    return expand_path(env, DATA_ENV) if env else configured


def known_game(name: str) -> bool:
    """True for a game the cabinet offers; otherwise says which ones it does, in one line."""
    from firmware_py.games.registry import controls_type
    from games.registry import UnknownGame

    try:
        controls_type(name)
    except UnknownGame as e:
        log.error("ringside run --game: %s", e)
        return False
    return True


def computer_level(name: str | None) -> Level | None:
    """The computers' level ``--level`` names (NORMAL when not given); None, after one
    line naming the levels there are, for a name that is none of them."""
    from games.levels import Level

    if name is None:
        return Level.NORMAL
    try:
        return Level(name.lower())
    except ValueError:
        log.error(
            "ringside run --level: unknown level %r: choose one of %s", name, ", ".join(level.value for level in Level)
        )
        return None


def run_hil(args: argparse.Namespace) -> int:
    from display.window import use_headless_drivers

    use_headless_drivers()
    from firmware_py.hil.runner import run_files

    rig = args.rig or os.environ.get("RINGSIDE_RIG")
    if args.backend == "rig" and not rig:
        log.error("ringside hil: --backend rig needs --rig FILE or RINGSIDE_RIG (docs/hil.md)")
        return EXIT_BAD_INPUT
    code, _ = run_files(args.files, args.backend, Path(args.report_dir), args.update_goldens, rig, verbose=args.verbose)
    return code


def _recorder(cabinet: Cabinet, hardware: CabinetIO, args: argparse.Namespace) -> SessionRecorder | None:
    """``--record FILE``: on simulated and real hardware alike."""
    if not getattr(args, "record", None):
        return None
    from firmware_py.hil.record import SessionRecorder

    return SessionRecorder(cabinet, hardware, args.record, log.info)


def _store(config: CabinetConfig) -> Store:
    from firmware_py.runtime.store import open_store

    return open_store(config.data_dir / "ringside.sqlite3", lambda line: log.warning("ringside: %s", line))


def _screenshots_folder(config: CabinetConfig, args: argparse.Namespace, stamp: str) -> Path | int | None:
    """The exhibition's screenshots folder, made ready; an exit code when ``--screenshots``
    names one that cannot be written; None (no screenshots, a warning) when the default
    one in the data folder cannot, so a read-only data folder still plays."""
    from firmware_py.process import data_folder

    given = args.screenshots is not None
    shots = Path(args.screenshots) if given else config.data_dir / "screenshots" / f"exhibition-{stamp}"
    try:
        data_folder.prepare(shots, "screenshots folder")
        if not data_folder.writable(shots):
            raise data_folder.DataFolderError(f"screenshots folder {shots} cannot be written")
    except data_folder.DataFolderError as e:
        if given:
            log.error("ringside: %s; pass another --screenshots DIR", e)
            return EXIT_BAD_INPUT
        log.warning("ringside: %s; playing without screenshots", e)
        return None
    return shots


def run_headless(config: CabinetConfig, args: argparse.Namespace) -> int:
    from display.window import Window, use_headless_drivers

    use_headless_drivers()
    from firmware_py.games import registry as controls_registry
    from firmware_py.runtime.cabinet import Cabinet
    from firmware_py.tools.exhibition import run_exhibition
    from firmware_py.tools.run import raise_if_stopped
    from hal.clock import ManualClock
    from hal.sim import SimCabinet

    seed = args.seed if args.seed is not None else int(time.time())
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    shots = _screenshots_folder(config, args, stamp)
    if isinstance(shots, int):
        return shots
    game = args.game or controls_registry.names()[0]
    log.info("Ringside headless exhibition (no screen found): %s, seed %s, computers %s", game, seed, args.level.value)
    log.info("data: %s   screenshots: %s", config.data_dir, shots)
    clock = ManualClock()
    sim = SimCabinet(config, clock)
    store = _store(config)
    t0 = time.perf_counter()

    def play_log(line: str) -> None:
        raise_if_stopped()  # a stop pygame's C code swallowed: found at the next line played
        log.info("[%8.2fs] %s", clock.now_us() / 1e6, line)

    window = Window((config.display.width, config.display.height))
    cabinet = Cabinet(config, sim, clock, store, window, play_log, seed, computer_level=args.level, audio="tape")
    recorder = _recorder(cabinet, sim, args)
    try:
        raise_if_stopped()  # a stop swallowed while the window and the cabinet opened
        ok = run_exhibition(cabinet, sim, clock, game, seed, shots, fps=config.display.fps, level=args.level)
    finally:
        if recorder is not None:
            recorder.close()
        sim.close()
        store.close()
        if cabinet.ctx.sound is not None:
            for where in save_exhibition_sound(cabinet.ctx.sound.speaker.output, shots, clock.now_us()):
                log.info("sound: %s", where)
    wall = time.perf_counter() - t0
    (log.info if ok else log.error)(
        "%s: %.0f s of play in %.1f s, %d frames; screenshots in %s",
        "finished" if ok else "DID NOT FINISH",
        clock.now_us() / 1e6,
        wall,
        cabinet.frames,
        shots,
    )
    return EXIT_OK if ok else EXIT_FAILED


def save_exhibition_sound(output: object, shots: Path | None, end_us: int) -> list[str]:
    """The headless exhibition's sound (a tape in virtual time), mixed by the live
    mixer's rules: ``sound.wav`` beside the screenshots, and with ``SDL_AUDIODRIVER=disk``
    the same samples where SDL's disk driver writes what it plays (``SDL_DISKAUDIOFILE``,
    default ``sdlaudio.raw``; signed 16-bit mono at 44.1 kHz, the format the cabinet opens)."""
    from display.audio.mixer import to_pcm16
    from display.audio.output import Tape, write_wav

    if not isinstance(output, Tape):
        return []
    mixed = output.mix(0, end_us)
    said = [f"{len(output.events)} cues played, {len(mixed) / 44_100:.1f} s of sound"]
    targets = [shots / "sound.wav"] if shots is not None else []
    if os.environ.get("SDL_AUDIODRIVER") == "disk":
        import pygame

        if pygame.mixer.get_init():  # SDL holds the file open while its device is: close it first
            pygame.mixer.quit()
        targets.append(Path(os.environ.get("SDL_DISKAUDIOFILE") or "sdlaudio.raw"))
    for path in targets:
        try:
            if path.suffix == ".wav":
                write_wav(path, mixed)
            else:
                path.write_bytes(to_pcm16(mixed))
        except OSError as e:
            said.append(f"not written to {path}: {e}")
        else:
            said.append(
                f"written to {path}" + ("" if path.suffix == ".wav" else " (SDL disk driver's file: s16 mono 44100 Hz)")
            )
    return said


def run_live(config: CabinetConfig, args: argparse.Namespace, real_hardware: bool) -> int:
    """The cabinet in real time: on a Pi's hardware (backend gpio), or on simulated
    hardware with the keyboard as the buttons (the development window)."""
    from firmware_py.tools.run import run_until_stopped as run_process

    return run_process(config, args, real_hardware, _store, _recorder)


if __name__ == "__main__":
    raise SystemExit(process_main())

"""``ringside calibrate``: the slap-pad calibration wizard in a terminal (works over SSH).

    ringside calibrate [--pad N] [--name NAME] [--sim CABINET] [--yes]
    ringside calibrate --restore NAME
    ringside calibrate --list

Against the real padboard (the cabinet's ``[padboard]`` port) the operator follows the
prompts and slaps; every detected slap is printed as it comes with its velocity and
peak.  ``--sim`` runs on simulated pads (``firmware_py.sim.pad_sets``: the board's own
detector on the piezo signal model, in virtual time) and the scripted operator's hands
(``firmware_py.sim.operator``) do the prompted slapping, so the whole procedure can be
watched, tested and benchmarked anywhere.  This module is the command and the terminal
front end only.
"""

from __future__ import annotations

import argparse
import logging
import shutil
import sys
import tempfile
from collections.abc import Callable
from dataclasses import replace
from datetime import datetime
from pathlib import Path
from typing import Protocol

from calibration.capture import Capture
from calibration.display_latency import DisplayLatency
from calibration.live import LivePadboard
from calibration.live_gpio import LiveGpioEdge, gpio_edge_stations
from calibration.profiles import ProfileError, ProfileStore, push, wizard_profile
from calibration.report import (
    criteria_lines,
    report_path,
    review_lines,
    review_verdicts,
    verdict_lines,
    verification_verdicts,
)
from calibration.runner import run_wizard
from calibration.source import PadSource
from calibration.stations import pad_names, station_pads
from calibration.verify import Criteria
from calibration.virtual import VirtualPads
from calibration.wizard import Step, Wizard
from display.window import use_headless_drivers
from firmware_py.process.exit_codes import EXIT_BAD_INPUT, EXIT_FAILED, EXIT_HARDWARE, EXIT_OK, EXIT_SOFTWARE
from firmware_py.runtime.calibration_pages import save_report
from firmware_py.sim.operator import ScriptedOperator
from firmware_py.sim.pad_sets import SIM_CABINETS, virtual_cabinet
from hal.clock import MonotonicClock
from hal.config import CabinetConfig, load_config
from hal.gpio_edge import GpioEdgeSource
from hal.hardware import lgpio_factories, slap_sources
from hal.hardware_errors import DriverMissing, padboard_port_missing
from hal.padboard.driver import PadboardError, PadboardSource
from hal.padboard.messages import PadHit


class TerminalFrontend:
    """Prompts on stdout, answers from stdin; ``hands`` (simulation) does the slapping."""

    def __init__(
        self,
        hands: ScriptedOperator | None = None,
        yes: bool = False,
        read: Callable[[str], str] = input,
        write: Callable[[str], None] = print,
    ) -> None:
        self.hands = hands
        self.yes = yes
        self.read = read
        self.write = write
        self._shown = 0

    def ask(self, question: str, choices: dict[str, str], default: str) -> str:
        if self.yes:
            return choices[default]
        while True:
            try:
                a = self.read(question).strip().lower() or default
            except EOFError:
                return "abort"
            if a in choices:
                return choices[a]
            self.write(f"   please answer one of: {', '.join(choices)}")

    def before_step(self, wizard: Wizard, step: Step) -> bool:
        i, n = wizard.progress
        self.write(f"\n[{step.phase} {i + 1}/{n}] {step.prompt}")
        if self.ask("   Enter when ready (a = abort): ", {"": "go", "a": "abort"}, "") == "abort":
            return False
        if self.hands is not None:
            self.hands.perform(step)
            self.write("   (simulated hands are slapping)")
        else:
            self.write(f"   GO! recording for up to {step.window_us / 1e6:.0f} s …")
        self._shown = 0
        return True

    def progress(self, wizard: Wizard, rec: _Hits) -> bool:
        hits = rec.hits()
        for h in hits[self._shown :]:
            self.write(f"   ● pad {h.pad + 1}  velocity {h.velocity:3d}  peak {h.peak:5d}")
        self._shown = len(hits)
        return True

    def after_step(self, wizard: Wizard, step: Step, cap: Capture) -> None:
        self.progress(wizard, _Done(cap))
        self.write(f"   done: {len(cap.hits)} hits in {cap.duration_us / 1e6:.1f} s")

    def measure_display(self, wizard: Wizard, step: Step) -> DisplayLatency:
        """Never asked: the wizard adds a display step only for a front end that can flash
        the cabinet's screen (SERVICE → Calibration), which a terminal cannot."""
        raise RuntimeError("the display-latency step runs from the cabinet's SERVICE → Calibration, not a terminal")

    def review(self, wizard: Wizard) -> str:
        self.write("\nEach pad:")
        for line in review_verdicts(wizard):
            self.write("  " + line)
        self.write("\nDetails: the fitted settings and why")
        for line in review_lines(wizard):
            self.write("  " + line)
        for line in criteria_lines(wizard):
            self.write("  " + line)
        return self.ask(
            "Verify these settings now? [Y]es / [r]edo / [a]bort: ",
            {"y": "accept", "yes": "accept", "r": "redo", "a": "abort"},
            "y",
        )

    def verdict(self, wizard: Wizard) -> str:
        self.write("\nVerification, each pad:")
        for line in verification_verdicts(wizard):
            self.write("  " + line)
        self.write("\nDetails: each check measured")
        for line in verdict_lines(wizard):
            self.write("  " + line)
        if wizard.passed:
            return self.ask(
                "Save and push to the board? [Y]es / [r]edo / [a]bort: ",
                {"y": "save", "yes": "save", "r": "redo", "a": "abort"},
                "y",
            )
        return self.ask("[R]edo / [a]bort (the old profile stays in force): ", {"r": "redo", "a": "abort"}, "r")


class _Hits(Protocol):
    """What the terminal shows of a recording: its hits so far (a live Recording, or a finished Capture's)."""

    def hits(self) -> list[PadHit]: ...


class _Done:
    def __init__(self, cap: Capture) -> None:
        self._hits = list(cap.hits)

    def hits(self) -> list[PadHit]:
        return self._hits


# -- the command ------------------------------------------------------------------------------


class CalibrateError(Exception):
    """What stops ``ringside calibrate`` before it starts: one line, and the exit code
    ``ringside run`` gives the same cause (:mod:`firmware_py.process.exit_codes`)."""

    def __init__(self, message: str, code: int) -> None:
        super().__init__(message)
        self.code = code


def scratch_data_for_sim(config: CabinetConfig) -> CabinetConfig:
    """``--sim`` without a data folder named: a fresh scratch folder, so trying the
    wizard on simulated pads never touches the cabinet's profiles or active profile.
    :func:`remove_scratch` deletes it when the command ends."""
    scratch = Path(tempfile.mkdtemp(prefix=SCRATCH_PREFIX))
    logging.getLogger("ringside").info(
        "simulated pads: working in a scratch folder, deleted at the end (pass --data DIR to keep the profile "
        "and report, or --report FILE for the report alone)"
    )
    return replace(config, data_dir=scratch)


SCRATCH_PREFIX = "ringside-calibrate-sim-"


def remove_scratch(config: CabinetConfig) -> None:
    """Delete the scratch folder :func:`scratch_data_for_sim` made (only such a folder)."""
    folder = config.data_dir
    if folder.name.startswith(SCRATCH_PREFIX) and folder.parent == Path(tempfile.gettempdir()):
        shutil.rmtree(folder, ignore_errors=True)


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--config", help="cabinet TOML (default: the shipped 2-station config)")
    p.add_argument("--data", help="data folder (default: $RINGSIDE_DATA, else the config's cabinet.data_dir)")
    p.add_argument(
        "--pad", type=int, action="append", help="calibrate only this pad (1-based; repeatable); default all"
    )
    p.add_argument("--name", default="default", help="profile name to save (default: default)")
    p.add_argument("--restore", metavar="NAME", help="push a saved profile to the board again and save it in its flash")
    p.add_argument("--list", action="store_true", help="list saved profiles and their history")
    p.add_argument("--sim", nargs="?", const="hall", choices=sorted(SIM_CABINETS), help="simulated pads (default hall)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument(
        "--comparator",
        type=int,
        metavar="COUNTS",
        help="with --sim: gpio-edge pads behind a comparator at this level (no analog signal)",
    )
    p.add_argument(
        "--probe",
        action="store_true",
        help="the contact probe is worn (with --sim; a real board: [padboard] contact_probe = true)",
    )
    p.add_argument("--idle", type=float, default=10.0, help="seconds hands-off during verification (default 10)")
    p.add_argument("--yes", action="store_true", help="answer every question with its default (scripted runs)")
    p.add_argument("--report", help="PNG report path (default: <data>/calibration/reports/<name>-<stamp>.png)")


def open_source(
    args: argparse.Namespace, config: CabinetConfig, board: PadboardSource | None = None
) -> tuple[PadSource, str, str]:
    """(the pads, the cabinet's name, which kind: simulated, padboard, gpio-edge);
    ``board``: a padboard driver already open (the emulated board's, on its own clock)."""
    if board is not None:
        return LivePadboard(board), config.name, "padboard"
    if args.sim:
        comparator = [args.comparator] * len(SIM_CABINETS[args.sim].pads) if args.comparator else None
        vp = virtual_cabinet(args.sim, seed=args.seed, comparator=comparator, probe=args.probe)
        return vp, SIM_CABINETS[args.sim].name, "simulated"
    if config.padboard is None:
        return open_gpio_edge(config), config.name, "gpio-edge"
    if not Path(config.padboard.port).exists():
        raise CalibrateError(f"ringside calibrate: {padboard_port_missing(config.padboard.port)}", EXIT_HARDWARE)
    board = PadboardSource(config.padboard.port, MonotonicClock(), {})
    try:
        return LivePadboard(board), config.name, "padboard"
    except RuntimeError as e:
        board.close()
        raise CalibrateError(
            f"ringside calibrate: {e} (is the cabinet running? stop it first: the port is exclusive)", EXIT_HARDWARE
        ) from e


def open_gpio_edge(config: CabinetConfig) -> LiveGpioEdge:
    """The cabinet's gpio-edge slap lines, opened on the Pi for calibration (the cabinet
    itself must not be running: the lines are claimed).  lgpio missing is exit 5 and a
    line that cannot be opened exit 4, as for ``ringside run``."""
    stations = gpio_edge_stations(config)
    if not stations:
        raise CalibrateError("ringside calibrate: no station has a slap pad (slap source none)", EXIT_BAD_INPUT)
    clock = MonotonicClock()
    try:
        sources = [s for s in slap_sources(config, lgpio_factories(config), clock) if isinstance(s, GpioEdgeSource)]
    except DriverMissing as e:
        raise CalibrateError(f"ringside calibrate: {e}; or try --sim", EXIT_SOFTWARE) from e
    except Exception as e:
        raise CalibrateError(
            f"ringside calibrate: cannot open the gpio-edge lines ({e}); is the cabinet running? stop it first "
            "(sudo systemctl stop ringside), or try --sim",
            EXIT_HARDWARE,
        ) from e
    return LiveGpioEdge(sources, stations, clock)


def main(
    args: argparse.Namespace,
    config: CabinetConfig,
    write: Callable[[str], None] = print,
    read: Callable[[str], str] = input,
    board: PadboardSource | None = None,
    hands: Callable[[PadSource], ScriptedOperator] | None = None,
) -> int:
    """``board`` and ``hands``: the padboard's driver opened by the caller and simulated
    hands slapping it (tests/board/ runs the operator's flow against the emulated board);
    virtual pads (``--sim``) get the scripted operator of their own."""
    store = ProfileStore(config.data_dir)
    if args.list:
        active = store.active()
        names = store.names()
        if not names:
            write(f"no saved profiles in {store.dir} (`ringside calibrate` saves one)")
        for n in names:
            write(f"{n}{'  (active)' if n == active else ''}")
            for h in store.history(n):
                write(f"    history: {h.name}")
        return EXIT_OK
    restoring = None
    if args.restore:  # the profile first: a name that is not there needs no hardware to say so
        try:
            restoring = store.load(args.restore)
        except ProfileError as e:
            write(f"ringside calibrate --restore: {e}; `ringside calibrate --list` lists them")
            return EXIT_BAD_INPUT
    try:
        source, cabinet, kind = open_source(args, config, board)
    except CalibrateError as e:
        logging.getLogger("ringside").error("%s", e)
        return e.code
    try:
        if restoring is not None:
            try:
                push(source, restoring)
            except (ProfileError, PadboardError) as e:
                write(f"ringside calibrate: {e}")
                return EXIT_FAILED
            store.set_active(restoring.name)
            where = "the simulated board" if args.sim else "the board and its flash"
            write(f"restored {restoring.name!r} ({restoring.created}, cabinet {restoring.cabinet}) to {where}")
            return EXIT_OK
        stations = station_pads(config, source.pads, kind)
        if not stations:
            write("ringside calibrate: no station has a slap pad on these pads (slap source none)")
            return EXIT_BAD_INPUT
        targets = [p - 1 for p in args.pad] if args.pad else sorted(stations)
        if any(p not in stations for p in targets):
            have = ", ".join(f"{p + 1} ({name})" for p, name in sorted(stations.items()))
            write(f"ringside calibrate --pad: the stations' pads are {have}")
            return EXIT_BAD_INPUT
        originals = {p: source.read_settings(p) for p in range(source.pads)}
        wizard = Wizard(
            source.pads,
            targets,
            originals,
            analog=source.analog,
            criteria=Criteria(idle_s=args.idle),
            names=pad_names(stations, source.pads),
            period_us=source.sample_period_us,
            probe=args.probe if args.sim else bool(config.padboard and config.padboard.contact_probe),
        )
        operator = ScriptedOperator(source, seed=args.seed) if isinstance(source, VirtualPads) else None
        if hands is not None:
            operator = hands(source)
        front = TerminalFrontend(operator, yes=args.yes, read=read, write=write)
        write(
            f"Calibrating {', '.join(str(p + 1) for p in targets)} of {source.pads} pads on {cabinet}"
            f"{' (simulated)' if args.sim else ''}.  Ctrl-C aborts at any step: the old profile stays in force."
        )
        settings = run_wizard(wizard, source, front)
        scratch = args.sim and not args.report and config.data_dir.name.startswith(SCRATCH_PREFIX)
        report = None if scratch else _save_report(args, config, wizard, write)
        kept = f"  Report: {report}" if report else ""
        if scratch:
            kept = "  The scratch folder is deleted now: pass --data DIR to keep the profile and report (--report FILE: the report)"
        if settings is None:
            write("aborted: the previous settings are back in force; nothing was saved." + kept)
            return EXIT_FAILED
        profile = wizard_profile(args.name, cabinet, wizard, settings)
        path = store.save(profile)
        try:
            push(source, profile)
        except (ProfileError, PadboardError) as e:  # the board may run them until it restarts: not kept
            write(
                f"ringside calibrate: saved {path}, but the board did not keep it: {e}.  Its flash keeps the "
                f"previous settings; `ringside calibrate --restore {profile.name}` pushes this profile again.{kept}"
            )
            return EXIT_HARDWARE
        store.set_active(profile.name)
        if scratch:
            write(
                f"saved profile {profile.name!r} in the scratch folder (simulated pads: no real board was written).{kept}"
            )
        elif args.sim:
            write(f"saved {path} (simulated pads: no real board was written).{kept}")
        else:
            write(f"saved {path} and pushed it to the board's flash.{kept}")
        return EXIT_OK
    finally:
        close = getattr(source, "close", None)
        if close is not None:
            close()


def _save_report(
    args: argparse.Namespace, config: CabinetConfig, wizard: Wizard, write: Callable[[str], None]
) -> Path | None:
    if not wizard.captures:
        return None
    try:
        use_headless_drivers()
        from firmware_py.process.retention import prune

        path = Path(args.report) if args.report else report_path(config.data_dir, args.name, datetime.now())
        saved = save_report(wizard, path)
        prune(config.data_dir, config.retention)
        return saved
    except Exception as e:
        write(f"(no PNG report: {e})")
        return None


if __name__ == "__main__":  # pragma: no cover
    ap = argparse.ArgumentParser(prog="ringside calibrate")
    add_arguments(ap)
    a = ap.parse_args()
    sys.exit(main(a, load_config(a.config)))

"""``ringside calibrate``: the slap-pad calibration wizard in a terminal (works over SSH).

    ringside calibrate [--pad N] [--name NAME] [--sim CABINET] [--yes]
    ringside calibrate --restore NAME
    ringside calibrate --list

Against the real padboard (the cabinet's ``[padboard]`` port) the operator follows the
prompts and slaps; every detected slap is printed as it comes with its velocity and
peak.  ``--sim`` runs on simulated pads (the board's own detector on the piezo signal
model, in virtual time) and a simulated operator's hands do the prompted slapping, so
the whole procedure can be watched, tested and benchmarked anywhere.

This module also holds the simulated cabinets and the scripted operator that tests and
benchmarks use.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from calibration.capture import Capture, Recording
from calibration.profiles import ProfileError, ProfileStore, new_profile, push
from calibration.report import criteria_lines, review_lines, verdict_lines
from calibration.runner import run_wizard
from calibration.verify import Criteria
from calibration.virtual import VirtualPads
from calibration.wizard import Counts, Step, Wizard
from firmware_py.padboard.detector import Detector
from firmware_py.sim.piezo import ModelSlap, PiezoModel, PiezoPad
from hal.padboard.settings import PadSettings

# -- simulated cabinets -----------------------------------------------------------------------


@dataclass(frozen=True)
class SimCabinetSpec:
    """Pads with known noise, gain, ring and drift, and the table's crosstalk."""

    name: str
    pads: tuple[PiezoPad, ...]
    crosstalk: float
    about: str


SIM_CABINETS = {
    "quiet": SimCabinetSpec(
        "quiet",
        (
            PiezoPad(noise=80, gain=1.0, ring_tau_us=8000),
            PiezoPad(noise=100, gain=0.8, ring_hz=220, ring_tau_us=9000),
        ),
        0.12,
        "2 pads, quiet room, pads on separate stands",
    ),
    "hall": SimCabinetSpec(
        "hall",
        (
            PiezoPad(noise=120, gain=1.0, ring_tau_us=10000),
            PiezoPad(noise=400, gain=2.4, ring_hz=200, ring_tau_us=9000),
            PiezoPad(noise=60, gain=0.45, ring_hz=280, ring_tau_us=7000),
        ),
        0.2,
        "3 pads on one table in a convention hall: one noisy hot pad, one insensitive pad",
    ),
    "rough": SimCabinetSpec(
        "rough",
        (
            PiezoPad(noise=150, gain=1.2, ring_hz=180, ring_tau_us=25000),
            PiezoPad(noise=100, gain=1.0, drift=2500, drift_period_s=2.0),
            PiezoPad(noise=250, gain=1.5, ring_tau_us=12000),
            PiezoPad(noise=90, gain=0.7, ring_hz=300, ring_tau_us=6000),
        ),
        0.25,
        "4 pads, shaky table: a long-ringing pad, a drifting baseline, strong crosstalk",
    ),
}


@dataclass(frozen=True)
class Forces:
    """How hard the (simulated) players slap: counts before the pad's gain."""

    soft: tuple[float, float] = (3000.0, 6000.0)
    hard: tuple[float, float] = (18000.0, 26000.0)
    flurry: tuple[float, float] = (6000.0, 15000.0)
    flurry_gap_us: tuple[int, int] = (70_000, 110_000)

    @property
    def full(self) -> float:
        return self.hard[1]


class _Model:
    """PiezoModel with the slap call the virtual pads expect."""

    def __init__(self, model: PiezoModel) -> None:
        self.model = model
        self.sample = model.sample

    def add_slap(self, pad: int, t_us: int, peak: float) -> None:
        self.model.add(ModelSlap(pad, t_us, peak))


def make_detector(settings: list[dict[str, int]]) -> Detector:
    return Detector(len(settings), settings)


def virtual_cabinet(
    name: str, seed: int = 1, settings: Sequence[PadSettings] | None = None, comparator: Sequence[int] | None = None
) -> VirtualPads:
    spec = SIM_CABINETS[name]
    model = _Model(PiezoModel(spec.pads, seed=seed, crosstalk=spec.crosstalk))
    return VirtualPads(model, make_detector, len(spec.pads), settings, comparator=comparator)


# -- scoring settings on simulated pads (the proof, tests and benchmarks) -------------------


@dataclass(frozen=True)
class Score:
    """How a set of settings does on a simulated cabinet, per pad."""

    soft_slaps: dict[int, int]
    soft_detected: dict[int, int]
    extra_hits: dict[int, int]  # hits during the soft slaps that matched no slap (doubles)
    idle_s: float
    false_triggers: dict[int, int]
    full_slaps: dict[int, int]
    full_detected: dict[int, int]
    crosstalk: dict[int, int]  # hits on this pad while another pad was slapped at full force
    odd: tuple[str, ...] = ()  # every hit that was not a slap's one detection, with its context

    def detection(self, pad: int) -> float:
        return self.soft_detected[pad] / self.soft_slaps[pad] if self.soft_slaps[pad] else 0.0

    def false_per_hour(self, pad: int) -> float:
        return self.false_triggers[pad] * 3600 / self.idle_s if self.idle_s else 0.0

    def passes(self, pad: int, min_detection: float = 0.99) -> bool:
        return (
            self.detection(pad) >= min_detection
            and self.false_triggers[pad] == 0
            and self.crosstalk[pad] == 0
            and self.extra_hits[pad] == 0
        )


def score(
    cabinet: str,
    settings: Sequence[PadSettings],
    seed: int = 11,
    soft_per_pad: int = 150,
    idle_s: float = 600.0,
    full_per_pad: int = 10,
    forces: Forces = Forces(),
) -> Score:
    """Fresh simulated pads (another seed than calibration's) running ``settings``: soft
    slaps one at a time, then ``idle_s`` hands off, then full-force slaps pad by pad."""
    vp = virtual_cabinet(cabinet, seed=seed, settings=settings)
    n = vp.pads
    rng = random.Random(seed)
    vp.idle(2_000_000)  # the baseline settles as after power-up
    t = vp.now_us() + 100_000
    truth: list[tuple[int, int]] = []
    order = [p for p in range(n) for _ in range(soft_per_pad)]
    rng.shuffle(order)
    for p in order:
        vp.slap(p, t, rng.uniform(*forces.soft))
        truth.append((p, t))
        t += rng.randrange(250_000, 450_000)
    start = len(vp.hits)
    vp.idle(t + 500_000 - vp.now_us())
    soft_hits = vp.hits[start:]
    det = dict.fromkeys(range(n), 0)
    extra = dict.fromkeys(range(n), 0)
    used = [False] * len(soft_hits)
    for p, ts in truth:
        for k, h in enumerate(soft_hits):
            if not used[k] and h.pad == p and abs(h.t_us - ts) <= 5_000:
                used[k] = True
                det[p] += 1
                break
    odd: list[str] = []
    for k, h in enumerate(soft_hits):
        if not used[k]:
            extra[h.pad] += 1
            near = min(truth, key=lambda x: abs(x[1] - h.t_us))
            odd.append(f"soft phase: {h} — nearest slap pad {near[0] + 1} at {(h.t_us - near[1]) / 1000:+.1f} ms")
    start = len(vp.hits)
    vp.idle(int(idle_s * 1e6))
    false = dict.fromkeys(range(n), 0)
    for h in vp.hits[start:]:
        false[h.pad] += 1
    start = len(vp.hits)
    t = vp.now_us() + 100_000
    full: list[tuple[int, int]] = []
    for p in range(n):
        for _ in range(full_per_pad):
            vp.slap(p, t, forces.full)
            full.append((p, t))
            t += rng.randrange(600_000, 800_000)
    vp.idle(t + 500_000 - vp.now_us())
    full_hits = vp.hits[start:]
    fdet = dict.fromkeys(range(n), 0)
    xt = dict.fromkeys(range(n), 0)
    for h in full_hits:
        src = max((f for f in full if f[1] <= h.t_us + 5_000), key=lambda f: f[1])
        if src[0] == h.pad and h.t_us - src[1] <= 5_000:
            fdet[h.pad] += 1
        elif src[0] != h.pad:
            xt[h.pad] += 1
            odd.append(f"full force: {h} — crosstalk from pad {src[0] + 1} at {(h.t_us - src[1]) / 1000:+.1f} ms")
        else:
            extra[h.pad] += 1
            odd.append(f"full force: {h} — double, {(h.t_us - src[1]) / 1000:+.1f} ms after the slap")
    return Score(
        dict.fromkeys(range(n), soft_per_pad),
        det,
        extra,
        idle_s,
        false,
        dict.fromkeys(range(n), full_per_pad),
        fdet,
        xt,
        tuple(odd),
    )


def calibrate_sim(
    cabinet: str,
    seed: int = 1,
    criteria: Criteria = Criteria(),
    counts: Counts = Counts(),
    targets: Sequence[int] | None = None,
    operator_seed: int = 7,
) -> tuple[Wizard, VirtualPads, ScriptedOperator, dict[int, PadSettings] | None]:
    """Run the whole wizard on a simulated cabinet with the scripted operator."""
    vp = virtual_cabinet(cabinet, seed=seed)
    originals = {p: vp.read_settings(p) for p in range(vp.pads)}
    wizard = Wizard(
        vp.pads,
        list(targets) if targets is not None else list(range(vp.pads)),
        originals,
        criteria=criteria,
        counts=counts,
    )
    op = ScriptedOperator(vp, seed=operator_seed)
    return wizard, vp, op, run_wizard(wizard, vp, op)


# -- the scripted operator ------------------------------------------------------------------


@dataclass
class ScriptedOperator:
    """Performs every prompted slap on virtual pads and answers the wizard.  ``abort_at``
    names a step kind at which it aborts instead (to test that nothing changes)."""

    pads: VirtualPads
    seed: int = 7
    forces: Forces = field(default_factory=Forces)
    react_us: int = 600_000
    abort_at: str | None = None
    verdict_choice: str = "save"
    on_line: Callable[[str], None] | None = None
    truth: list[tuple[str, int, int, float]] = field(default_factory=list)  # (step, pad, t_us, force)

    def __post_init__(self) -> None:
        self.rng = random.Random(self.seed)

    def _say(self, line: str) -> None:
        if self.on_line is not None:
            self.on_line(line)

    def perform(self, step: Step) -> None:
        r, f = self.rng, self.forces
        last = max((s[2] for s in self.truth), default=0)
        t = max(self.pads.now_us(), last + 300_000) + self.react_us  # one step's slaps never spill into the next
        plan: list[tuple[int, float, int]] = []  # pad, force, gap before the next
        if step.kind in ("soft", "verify_soft"):
            plan = [(step.pad, r.uniform(*f.soft), r.randrange(400_000, 600_000)) for _ in range(step.slaps)]
        elif step.kind in ("hard", "verify_hard"):
            plan = [(step.pad, r.uniform(*f.hard), r.randrange(500_000, 700_000)) for _ in range(step.slaps)]
        elif step.kind == "flurry":
            plan = [(step.pad, r.uniform(*f.flurry), r.randrange(*f.flurry_gap_us)) for _ in range(step.slaps)]
        elif step.kind == "neighbours":
            plan = [
                (q, r.uniform(*f.hard), r.randrange(500_000, 700_000)) for q in step.others for _ in range(step.each)
            ]
        for pad, force, gap in plan:
            self.pads.slap(pad, t, force)
            self.truth.append((step.kind, pad, t, force))
            t += gap

    # -- Frontend -------------------------------------------------------------------------
    def before_step(self, wizard: Wizard, step: Step) -> bool:
        if self.abort_at == step.kind:
            return False
        self._say(step.prompt)
        self.perform(step)
        return True

    def progress(self, wizard: Wizard, rec: Recording) -> bool:
        return True

    def after_step(self, wizard: Wizard, step: Step, cap: Capture) -> None:
        self._say(f"   {len(cap.hits)} hits in {cap.duration_us / 1e6:.1f} s")

    def review(self, wizard: Wizard) -> str:
        for line in review_lines(wizard):
            self._say(line)
        return "abort" if self.abort_at == "review" else "accept"

    def verdict(self, wizard: Wizard) -> str:
        for line in verdict_lines(wizard):
            self._say(line)
        return "abort" if self.abort_at == "verdict" else self.verdict_choice


# -- the terminal front end -----------------------------------------------------------------


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

    def progress(self, wizard: Wizard, rec: Recording) -> bool:
        hits = rec.hits()
        for h in hits[self._shown :]:
            self.write(f"   ● pad {h.pad + 1}  velocity {h.velocity:3d}  peak {h.peak:5d}")
        self._shown = len(hits)
        return True

    def after_step(self, wizard: Wizard, step: Step, cap: Capture) -> None:
        self.progress(wizard, _Done(cap))
        self.write(f"   done: {len(cap.hits)} hits in {cap.duration_us / 1e6:.1f} s")

    def review(self, wizard: Wizard) -> str:
        self.write("\nFitted settings and why:")
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
        self.write("\nVerification:")
        for line in verdict_lines(wizard):
            self.write("  " + line)
        if wizard.passed:
            return self.ask(
                "Save and push to the board? [Y]es / [r]edo / [a]bort: ",
                {"y": "save", "yes": "save", "r": "redo", "a": "abort"},
                "y",
            )
        return self.ask("[R]edo / [a]bort (the old profile stays in force): ", {"r": "redo", "a": "abort"}, "r")


class _Done:
    def __init__(self, cap: Capture) -> None:
        self._hits = list(cap.hits)

    def hits(self):
        return self._hits


# -- the command ------------------------------------------------------------------------------


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--config", help="cabinet TOML (default: the shipped 2-station config)")
    p.add_argument("--data", help="data folder (default: the config's cabinet.data_dir)")
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
    p.add_argument("--idle", type=float, default=10.0, help="seconds hands-off during verification (default 10)")
    p.add_argument("--yes", action="store_true", help="answer every question with its default (scripted runs)")
    p.add_argument("--report", help="PNG report path (default: <data>/calibration/reports/<name>-<stamp>.png)")


def open_source(args, config):
    if args.sim:
        comparator = [args.comparator] * len(SIM_CABINETS[args.sim].pads) if args.comparator else None
        return virtual_cabinet(args.sim, seed=args.seed, comparator=comparator), SIM_CABINETS[args.sim].name
    if config.padboard is None:
        return open_gpio_edge(config), config.name
    from calibration.live import LivePadboard
    from hal.clock import MonotonicClock
    from hal.padboard.driver import PadboardSource

    board = PadboardSource(config.padboard.port, MonotonicClock(), {})
    try:
        return LivePadboard(board), config.name
    except RuntimeError as e:
        board.close()
        raise SystemExit(
            f"ringside calibrate: {e} (is the cabinet running? stop it first: the port is exclusive)"
        ) from e


def open_gpio_edge(config):
    """The cabinet's gpio-edge slap lines, opened on the Pi for calibration (the cabinet
    itself must not be running: the lines are claimed)."""
    from calibration.live_gpio import LiveGpioEdge, gpio_edge_stations
    from hal.clock import MonotonicClock
    from hal.gpio_edge import GpioEdgeSource
    from hal.hardware import lgpio_factories, slap_sources

    stations = gpio_edge_stations(config)
    if not stations:
        raise SystemExit("ringside calibrate: no station has a slap pad (slap source none)")
    clock = MonotonicClock()
    try:
        sources = [s for s in slap_sources(config, lgpio_factories(config), clock) if isinstance(s, GpioEdgeSource)]
    except Exception as e:
        raise SystemExit(
            f"ringside calibrate: cannot open the gpio-edge lines ({e}); "
            "is the cabinet running? stop it first, or try --sim"
        ) from e
    return LiveGpioEdge(sources, stations, clock)


def config_with_active_profile(config, log: Callable[[str], None] = print):
    """The cabinet config with the active calibration profile's gpio-edge mask times in
    force (a padboard keeps its own settings in flash)."""
    from calibration.live_gpio import apply_gpio_masks

    store = ProfileStore(config.data_dir)
    name = store.active()
    if name is None:
        return config
    profile = store.load(name)
    if profile.source != "gpio-edge" or not profile.gpio_mask_us:
        return config
    log(f"calibration profile {name!r}: gpio-edge mask times {profile.gpio_mask_us} µs")
    return apply_gpio_masks(config, profile.gpio_mask_us)


def main(args, config, write: Callable[[str], None] = print, read: Callable[[str], str] = input) -> int:
    store = ProfileStore(config.data_dir)
    if args.list:
        active = store.active()
        for n in store.names():
            write(f"{n}{'  (active)' if n == active else ''}")
            for h in store.history(n):
                write(f"    history: {h.name}")
        return 0
    source, cabinet = open_source(args, config)
    try:
        if args.restore:
            try:
                profile = store.load(args.restore)
                push(source, profile)
            except ProfileError as e:
                write(f"ringside calibrate: {e}")
                return 1
            store.set_active(profile.name)
            write(
                f"restored {profile.name!r} ({profile.created}, cabinet {profile.cabinet}) to the board and its flash"
            )
            return 0
        targets = [p - 1 for p in args.pad] if args.pad else list(range(source.pads))
        if any(not 0 <= p < source.pads for p in targets):
            write(f"ringside calibrate: pads are 1..{source.pads}")
            return 2
        names = [s.name for s in config.stations]
        originals = {p: source.read_settings(p) for p in range(source.pads)}
        wizard = Wizard(
            source.pads,
            targets,
            originals,
            analog=source.analog,
            criteria=Criteria(idle_s=args.idle),
            names=names if not args.sim else None,
            period_us=source.sample_period_us,
        )
        hands = ScriptedOperator(source, seed=args.seed) if args.sim else None
        front = TerminalFrontend(hands, yes=args.yes, read=read, write=write)
        write(
            f"Calibrating {', '.join(str(p + 1) for p in targets)} of {source.pads} pads on {cabinet}"
            f"{' (simulated)' if args.sim else ''}.  Ctrl-C aborts at any step: the old profile stays in force."
        )
        settings = run_wizard(wizard, source, front)
        report = _save_report(args, config, wizard, write)
        if settings is None:
            write(
                "aborted: the previous settings are back in force; nothing was saved."
                + (f"  Report: {report}" if report else "")
            )
            return 1
        profile = new_profile(
            args.name,
            cabinet,
            "padboard" if source.analog else "gpio-edge",
            settings if source.analog else {},
            wizard.gpio_masks(),
            profile_notes(wizard),
        )
        path = store.save(profile)
        push(source, profile)
        store.set_active(profile.name)
        write(f"saved {path} and pushed it to the board's flash.  Report: {report}")
        return 0
    finally:
        close = getattr(source, "close", None)
        if close is not None:
            close()


def profile_notes(wizard: Wizard) -> tuple[str, ...]:
    """Why each value was chosen, per pad, kept in the profile."""
    fits = wizard.fits if wizard.analog else wizard.gpio_fits
    return tuple(f"pad {p + 1}: {r}" for p, f in sorted(fits.items()) for r in f.reasons)


def _save_report(args, config, wizard: Wizard, write) -> Path | None:
    if not wizard.captures:
        return None
    try:
        from display.window import use_headless_drivers

        use_headless_drivers()
        from datetime import datetime

        from firmware_py.scene_calibration import save_report

        stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
        path = (
            Path(args.report)
            if args.report
            else config.data_dir / "calibration" / "reports" / f"{args.name}-{stamp}.png"
        )
        return save_report(wizard, path)
    except Exception as e:
        write(f"(no PNG report: {e})")
        return None


if __name__ == "__main__":  # pragma: no cover
    from hal.config import load_config

    ap = argparse.ArgumentParser(prog="ringside calibrate")
    add_arguments(ap)
    a = ap.parse_args()
    sys.exit(main(a, load_config(a.config)))

"""The calibration wizard as a pure state machine, the same behind the terminal and the
cabinet screen.

It never touches a board: it says what the next step is (a :class:`Step`: a prompt, the
pad, how many slaps, how long the window is, and which settings the detector must run
with), is fed the :class:`~calibration.capture.Capture` of that step, fits, and asks
the operator to review, verify and save.  A front end records each step through a
:class:`~calibration.source.PadSource`.

With the contact probe worn (a conductive glove whose touch on a pad's foil the board
stamps), each pad gets a ``probe`` step: slaps from soft to hard whose true contacts the
probe gives, so the onset curve is measured instead of read from the edges' shape
(:mod:`calibration.onset_fit`).

A cabinet with a light sensor on its screen adds a ``display`` step at the end of the
calibration steps: the front end flashes the screen and feeds the measurement
(:mod:`calibration.display_latency`) instead of a capture.

States: ``capture`` (a step is waiting for its capture) → ``review`` (fitted values
and reasons shown; accept → verify steps, redo, abort) → ``capture`` (verify) →
``verdict`` (pass/fail per check; save when everything passed, redo, abort) → ``done``.
``abort`` is allowed in every state; :meth:`Wizard.restore` then names the settings
that were in force when the wizard began, so the old profile stays in force.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from calibration.capture import Capture
from calibration.diagnosis import Fault
from calibration.display_latency import DisplayLatency
from calibration.fit import PadFit
from calibration.fit_cabinet import fit_all
from calibration.gpio_fit import GpioFit, apply_mask, fit_gpio
from calibration.verify import Criteria, PadVerdict, judge
from hal.padboard.settings import PadSettings

CAPTURE, REVIEW, VERDICT, DONE, ABORTED = "capture", "review", "verdict", "done", "aborted"


@dataclass(frozen=True)
class Counts:
    """How much the operator is asked to do."""

    rest_s: float = 3.0
    soft: int = 8
    hard: int = 5
    flurry: int = 8
    neighbour_hard: int = 2  # per other pad, when one pad is calibrated alone
    probe: int = 12  # with the contact probe: slaps from soft to hard
    verify_soft: int = 10
    verify_hard: int = 4
    slap_window_s: float = 1.1  # window per prompted slap (the capture may end early)


@dataclass(frozen=True)
class Step:
    kind: str  # rest, soft, hard, flurry, probe, neighbours, display, verify_idle, verify_soft, verify_hard
    phase: str  # calibrate | verify
    pad: int | None
    slaps: int
    window_us: int
    prompt: str
    settings: dict[int, PadSettings]  # what every pad's detector runs with during the step
    others: tuple[int, ...] = ()  # the pads to slap in a neighbours step ...
    each: int = 0  # ... and how many times each


def pad_name(pad: int, names: Sequence[str] | None = None) -> str:
    if names and pad < len(names):
        return f"pad {pad + 1} ({names[pad]})"
    return f"pad {pad + 1}"


class Wizard:
    def __init__(
        self,
        pads: int,
        targets: Sequence[int],
        originals: Mapping[int, PadSettings],
        analog: bool = True,
        criteria: Criteria = Criteria(),
        counts: Counts = Counts(),
        names: Sequence[str] | None = None,
        period_us: int = 250,
        display_flashes: int = 0,
        probe: bool = False,
    ) -> None:
        """``display_flashes``: the cabinet has a light sensor on its screen and the front
        end can flash the screen: end the calibration steps with a display step.
        ``probe``: the board has a contact probe: a probe step for each pad."""
        if not targets:
            raise ValueError("no pad to calibrate")
        self.pads = pads
        self.targets = tuple(targets)
        self.originals = dict(originals)
        self.analog = analog
        self.criteria = criteria
        self.counts = counts
        self.names = names
        self.period_us = period_us
        self.state = CAPTURE
        self.captures: list[Capture] = []
        self.verify_captures: list[Capture] = []
        self.fits: dict[int, PadFit] = {}
        self.gpio_fits: dict[int, GpioFit] = {}
        self.faults: dict[int, list[Fault]] = {}
        self.verdicts: dict[int, PadVerdict] = {}
        self.display_flashes = display_flashes
        self.probe = probe
        self.display: DisplayLatency | None = None  # the display step's measurement ...
        self.display_latency_us: int | None = None  # ... and its figure (photodiode)
        self.rounds = 0
        self._steps = self._calibrate_steps()
        self._i = 0

    # -- plan -------------------------------------------------------------------------------
    def _win(self, slaps: int) -> int:
        return int((slaps * self.counts.slap_window_s + 2.0) * 1e6)

    def _calibrate_steps(self) -> list[Step]:
        c = self.counts
        s = dict(self.originals)
        steps = [
            Step(
                "rest",
                "calibrate",
                None,
                0,
                int(c.rest_s * 1e6),
                f"Hands off every pad: measuring the noise floor ({c.rest_s:g} s).",
                s,
            )
        ]
        for p in self.targets:
            n = pad_name(p, self.names)
            steps += [
                Step(
                    "soft",
                    "calibrate",
                    p,
                    c.soft,
                    self._win(c.soft),
                    f"Slap {n} SOFTLY {c.soft} times, about twice a second: the softest slap a player would make.",
                    s,
                ),
                Step(
                    "hard",
                    "calibrate",
                    p,
                    c.hard,
                    self._win(c.hard),
                    f"Slap {n} HARD {c.hard} times: as hard as players will slap it.",
                    s,
                ),
                Step(
                    "flurry",
                    "calibrate",
                    p,
                    c.flurry,
                    self._win(c.flurry) // 2,
                    f"Slap {n} {c.flurry} times AS FAST AS YOU CAN (a flurry).",
                    s,
                ),
            ]
            if self.probe and self.analog:
                steps.append(
                    Step(
                        "probe",
                        "calibrate",
                        p,
                        c.probe,
                        self._win(c.probe),
                        f"Put on the contact glove and slap {n} {c.probe} times, from soft to hard: "
                        "the glove tells when your palm really touched.",
                        s,
                    )
                )
            others = tuple(q for q in range(self.pads) if q not in self.targets)
            if others:
                k = c.neighbour_hard * len(others)
                steps.append(
                    Step(
                        "neighbours",
                        "calibrate",
                        p,
                        0,
                        self._win(k),
                        f"Slap each OTHER pad ({', '.join(str(q + 1) for q in others)}) HARD "
                        f"{c.neighbour_hard} times; {n} is watched for crosstalk.",
                        s,
                        others,
                        c.neighbour_hard,
                    )
                )
        if self.display_flashes:
            steps.append(
                Step(
                    "display",
                    "calibrate",
                    None,
                    self.display_flashes,
                    self.display_flashes * 400_000,
                    f"Hands off: the screen flashes {self.display_flashes} times while the light sensor times "
                    "when each flash is really visible.",
                    s,
                )
            )
        return steps

    def _verify_steps(self) -> list[Step]:
        c, cr = self.counts, self.criteria
        s = self.candidate()
        steps = [
            Step(
                "verify_idle",
                "verify",
                None,
                0,
                int(cr.idle_s * 1e6),
                f"Check: hands off every pad for {cr.idle_s:g} s (false triggers are counted).",
                s,
            )
        ]
        for p in self.targets:
            n = pad_name(p, self.names)
            steps.append(
                Step(
                    "verify_soft",
                    "verify",
                    p,
                    c.verify_soft,
                    self._win(c.verify_soft),
                    f"Check: slap {n} SOFTLY {c.verify_soft} times (each must count once).",
                    s,
                )
            )
        for p in range(self.pads):
            if len(self.targets) == 1 and p == self.targets[0]:
                continue
            if len(self.targets) > 1 and p not in self.targets:
                continue
            n = pad_name(p, self.names)
            steps.append(
                Step(
                    "verify_hard",
                    "verify",
                    p,
                    c.verify_hard,
                    self._win(c.verify_hard),
                    f"Check: slap {n} HARD {c.verify_hard} times (the other pads must stay silent).",
                    s,
                )
            )
        return steps

    # -- progress ---------------------------------------------------------------------------
    @property
    def step(self) -> Step:
        if self.state != CAPTURE:
            raise RuntimeError(f"no capture step in state {self.state}")
        return self._steps[self._i]

    @property
    def progress(self) -> tuple[int, int]:
        return self._i, len(self._steps)

    def feed(self, cap: Capture) -> None:
        step = self.step
        if cap.kind != step.kind:
            raise ValueError(f"capture of {cap.kind!r} fed to step {step.kind!r}")
        (self.captures if step.phase == "calibrate" else self.verify_captures).append(cap)
        self._advance(step)

    def feed_display(self, result: DisplayLatency) -> None:
        """The display step's measurement (the front end flashed the screen)."""
        step = self.step
        if step.kind != "display":
            raise ValueError(f"a display measurement fed to step {step.kind!r}")
        self.display = result
        self.display_latency_us = result.latency_us
        self._advance(step)

    def _advance(self, step: Step) -> None:
        self._i += 1
        if self._i < len(self._steps):
            return
        if step.phase == "calibrate":
            self._fit()
            self.state = REVIEW
        else:
            self._judge()
            self.state = VERDICT

    def _fit(self) -> None:
        if self.analog:
            self.fits, self.faults, self.noise = fit_all(self.captures, self.targets, self.originals, self.period_us)
        else:
            for p in self.targets:
                singles = [c for c in self.captures if c.pad == p and c.kind in ("soft", "hard")]
                flurry = next((c for c in self.captures if c.pad == p and c.kind == "flurry"), None)
                self.gpio_fits[p] = fit_gpio(p, singles, flurry)
                self.faults[p] = []

    def candidate(self) -> dict[int, PadSettings]:
        """Every pad's settings if this run is saved: fitted for the targets, as before for
        the rest."""
        out = dict(self.originals)
        for p, f in self.fits.items():
            out[p] = f.settings
        return out

    @property
    def settle_us(self) -> int | None:
        """The ``[padboard] settle_us`` the fitted settings need, where more than the
        default (the longest any calibrated pad needs)."""
        return max((f.settle_us for f in self.fits.values() if f.settle_us is not None), default=None)

    def gpio_masks(self) -> dict[int, int]:
        return {p: f.mask_us for p, f in self.gpio_fits.items()}

    def gpio_rings(self) -> dict[int, int]:
        """Each gpio-edge pad's ring period (for the force correction; 0: none measured)."""
        return {p: f.ring_us for p, f in self.gpio_fits.items()}

    @property
    def fit_ok(self) -> bool:
        fits = self.fits.values() if self.analog else self.gpio_fits.values()
        fatal = any(f.fatal for fs in self.faults.values() for f in fs)
        return all(f.ok for f in fits) and not fatal

    def accept(self) -> None:
        """Review → verify."""
        if self.state != REVIEW:
            raise RuntimeError(f"accept in state {self.state}")
        self._steps = self._verify_steps()
        self._i = 0
        self.verify_captures = []
        self.state = CAPTURE

    def _judge(self) -> None:
        caps = self.verify_captures
        if not self.analog:
            masks = self.gpio_masks()
            caps = [apply_mask(c, masks) for c in caps]
        idle = next(c for c in caps if c.kind == "verify_idle")
        hard = [c for c in caps if c.kind == "verify_hard"]
        cand = self.candidate()
        for p in self.targets:
            soft = next((c for c in caps if c.kind == "verify_soft" and c.pad == p), None)
            self.verdicts[p] = judge(p, cand[p], idle, soft, hard, self.criteria)

    @property
    def passed(self) -> bool:
        return self.state in (VERDICT, DONE) and all(v.passed for v in self.verdicts.values())

    def redo(self) -> None:
        """Start the calibration steps again (review or verdict)."""
        if self.state not in (REVIEW, VERDICT):
            raise RuntimeError(f"redo in state {self.state}")
        self.rounds += 1
        self.captures, self.verify_captures = [], []
        self.fits, self.gpio_fits, self.faults, self.verdicts = {}, {}, {}, {}
        self.display, self.display_latency_us = None, None
        self._steps = self._calibrate_steps()
        self._i = 0
        self.state = CAPTURE

    def finish(self, force: bool = False) -> dict[int, PadSettings]:
        """Verdict → done: the settings to save.  Refused unless every check passed
        (``force`` saves anyway, for an operator who knows better)."""
        if self.state != VERDICT:
            raise RuntimeError(f"finish in state {self.state}")
        if not self.passed and not force:
            raise RuntimeError("verification failed: fix what it says and redo, or abort")
        self.state = DONE
        return self.candidate()

    def abort(self) -> dict[int, PadSettings]:
        """Abort at any step: the settings that were in force before (to re-apply)."""
        self.state = ABORTED
        return dict(self.originals)

    def restore(self) -> dict[int, PadSettings]:
        return dict(self.originals)

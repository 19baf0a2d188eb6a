"""Checking fitted settings before they are saved: pass/fail against stated criteria.

With the new settings running on the detector:
- idle for a set time, hands off: every hit is a false trigger (criterion: none);
- prompted soft slaps on the pad: each slap seen in the raw signal must be detected
  once (criterion: ≥ 99 %, so 10 of 10); no slap, soft or hard, may count twice;
- hard slaps on the other pads: any hit on this pad is a crosstalk trigger (none).
Each failed check says what to do about it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from calibration.analysis import find_events
from calibration.capture import Capture
from hal.padboard.settings import PadSettings


@dataclass(frozen=True)
class Criteria:
    idle_s: float = 10.0
    max_false: int = 0
    min_detection: float = 0.99
    max_doubles: int = 0
    max_crosstalk: int = 0

    def describe(self) -> list[str]:
        return [
            f"at rest for {self.idle_s:g} s: at most {self.max_false} false triggers per pad",
            f"prompted soft slaps: at least {self.min_detection:.0%} detected, at most {self.max_doubles} counted twice",
            f"hard slaps on the other pads: at most {self.max_crosstalk} crosstalk triggers",
        ]


@dataclass(frozen=True)
class Check:
    name: str
    passed: bool
    measured: str
    wanted: str
    advice: str = ""


@dataclass(frozen=True)
class PadVerdict:
    pad: int
    checks: tuple[Check, ...]

    @property
    def passed(self) -> bool:
        return all(c.passed for c in self.checks)

    def failed(self) -> list[Check]:
        return [c for c in self.checks if not c.passed]


def count_detected(cap: Capture, pad: int, settings: PadSettings, tolerance_us: int = 8_000) -> tuple[int, int, int]:
    """(slaps seen in the raw signal, of which detected, hits that matched no slap).
    A raw slap is anything reaching 70 % of the threshold (3 dB under it): a slap the
    detector missed by a little still counts as a slap."""
    hits = sorted(h.t_us for h in cap.hits_on(pad))
    if cap.samples.get(pad):
        level = max(settings.threshold * 0.7, 1)
        events = find_events(pad, cap.times, cap.samples[pad], level, shift=settings.baseline_shift)
        onsets = [e.onset_us for e in events]
    else:
        onsets = []
    slaps = max(len(onsets), cap.prompted)
    used = [False] * len(hits)
    detected = 0
    for o in onsets:
        for k, t in enumerate(hits):
            if not used[k] and abs(t - o) <= tolerance_us:
                used[k] = True
                detected += 1
                break
    extra = used.count(False)
    if not onsets:  # no raw trace (gpio-edge): trust the count
        detected = min(len(hits), cap.prompted)
        extra = max(0, len(hits) - cap.prompted)
    return slaps, detected, extra


def judge(
    pad: int,
    settings: PadSettings,
    idle: Capture,
    soft: Capture | None,
    neighbours: Sequence[Capture],
    criteria: Criteria = Criteria(),
) -> PadVerdict:
    name = f"pad {pad + 1}"
    checks = []
    false = len(idle.hits_on(pad))
    secs = idle.duration_us / 1e6
    checks.append(
        Check(
            "false triggers at rest",
            false <= criteria.max_false,
            f"{false} in {secs:.0f} s",
            f"≤ {criteria.max_false}",
            ""
            if false <= criteria.max_false
            else f"Something shakes {name} or its cable picks up noise: tighten its mount, keep it off the speaker panel, "
            "route the cable away from power leads, then calibrate again.",
        )
    )
    if soft is not None:
        slaps, det, extra = count_detected(soft, pad, settings)
        for c in neighbours:
            if c.pad == pad:
                extra += count_detected(c, pad, settings)[2]
        rate = det / slaps if slaps else 0.0
        ok = slaps > 0 and rate >= criteria.min_detection - 1e-9
        checks.append(
            Check(
                "soft slaps detected",
                ok,
                f"{det} of {slaps} ({rate:.0%})",
                f"≥ {criteria.min_detection:.0%}",
                ""
                if ok
                else f"{name} missed soft slaps: slap its centre; if it keeps missing, check the piezo is firmly "
                "glued under the pad and turn the front-end gain up, then calibrate again.",
            )
        )
        checks.append(
            Check(
                "slaps counted twice",
                extra <= criteria.max_doubles,
                f"{extra}",
                f"≤ {criteria.max_doubles}",
                ""
                if extra <= criteria.max_doubles
                else f"{name} rings after a slap: put damping foam under it and "
                "tighten its mount, then calibrate again.",
            )
        )
    xt = sum(len(c.hits_on(pad)) for c in neighbours if c.pad != pad)
    hard = sum(c.prompted for c in neighbours if c.pad != pad)
    if neighbours:
        sources = sorted({c.pad + 1 for c in neighbours if c.pad is not None and c.pad != pad and c.hits_on(pad)})
        checks.append(
            Check(
                "crosstalk triggers",
                xt <= criteria.max_crosstalk,
                f"{xt} during {hard} slaps on other pads",
                f"≤ {criteria.max_crosstalk}",
                ""
                if xt <= criteria.max_crosstalk
                else f"Slaps on pad {', '.join(map(str, sources))} shake {name} through the table: move the pads apart, "
                "put rubber feet or foam under them, or mount them on separate boards (a gpio-edge pad: turn its "
                "comparator's threshold pot up a little).",
            )
        )
    return PadVerdict(pad, tuple(checks))

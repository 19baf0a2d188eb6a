"""Checkpoints against what was observed: engine events, LED bars, private displays,
the main screen against a golden PNG (per-pixel with a tolerance; on failure the
expected, actual and diff images are written beside the report), the scene, a pause.

A backend that cannot observe something (a rig cannot read an OLED) answers
:class:`NotObservable` and the check is reported as skipped, never as passed.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from firmware_py.hil.observe import Recorder
from firmware_py.hil.scenario import Expect, Scenario


class NotObservable(Exception):
    """This backend cannot see that (the message says why)."""


class Probe(Protocol):
    """What a backend lets the checks look at, now."""

    def led_segments(self, station: int) -> tuple[float, ...]: ...
    def private_image(self, station: int) -> Any: ...
    def private_text(self, station: int) -> tuple[str, ...] | None: ...
    def screen_rgb(self) -> tuple[tuple[int, int], bytes]: ...
    def scene_name(self) -> str: ...
    def paused(self) -> bool: ...
    def engine_events(self) -> None:
        """Raise :class:`NotObservable` when engine events cannot be seen."""

    def link_state(self) -> dict[str, Any]:
        """The padboard driver's ``connected`` and counters (or :class:`NotObservable`)."""

    def cues_played(self) -> None:
        """Raise :class:`NotObservable` when the sound cues played cannot be seen."""


@dataclass
class CheckResult:
    expect: str
    at_us: int
    kind: str
    status: str  # "pass", "fail", "skip"
    message: str = ""
    files: list[str] = field(default_factory=list)

    @property
    def failed(self) -> bool:
        return self.status == "fail"

    def as_json(self) -> dict[str, Any]:
        return {
            "expect": self.expect,
            "at_us": self.at_us,
            "check": self.kind,
            "status": self.status,
            "message": self.message,
            "files": self.files,
        }


# -- event matching ------------------------------------------------------------------------
def matches(expected: Any, actual: Any) -> bool:
    """``expected`` is a subset of ``actual`` (dict keys), element-wise for lists."""
    if isinstance(expected, dict):
        return isinstance(actual, dict) and all(k in actual and matches(v, actual[k]) for k, v in expected.items())
    if isinstance(expected, list):
        return (
            isinstance(actual, list)
            and len(expected) == len(actual)
            and all(matches(e, a) for e, a in zip(expected, actual))
        )
    if isinstance(expected, bool) or isinstance(actual, bool):
        return expected is actual
    return bool(expected == actual)


def _fmt(ev: dict[str, Any]) -> str:
    return "{" + ", ".join(f"{k}={v!r}" for k, v in ev.items()) + "}"


def check_event(exp: Expect, rec: Recorder) -> CheckResult:
    assert exp.event is not None  # run only for checkpoints that name an event
    window = [e for e in rec.events if exp.from_us <= e.t_us <= exp.at_us]
    hits = [e for e in window if matches(exp.event, e.encoded)]
    name = f"event {exp.event['type']}"
    if exp.t_us is not None:
        at = [e for e in hits if e.t_us == exp.t_us]
        if not at:
            when = ", ".join(str(e.t_us) for e in hits[:5]) or "never"
            return CheckResult(
                exp.name,
                exp.at_us,
                name,
                "fail",
                f"expected {_fmt(exp.event)} at {exp.t_us} µs; seen at: {when}" + _nearest(exp.event, window),
            )
        hits = at
    if exp.count is not None:
        ok = len(hits) == exp.count
        return CheckResult(
            exp.name,
            exp.at_us,
            name,
            "pass" if ok else "fail",
            ""
            if ok
            else f"expected {exp.count} × {_fmt(exp.event)} in [{exp.from_us}, {exp.at_us}] µs, saw {len(hits)}"
            + (f" (first at {hits[0].t_us} µs)" if hits else ""),
        )
    if hits:
        return CheckResult(exp.name, exp.at_us, name, "pass", f"at {hits[0].t_us} µs")
    return CheckResult(
        exp.name,
        exp.at_us,
        name,
        "fail",
        f"no {_fmt(exp.event)} in [{exp.from_us}, {exp.at_us}] µs" + _nearest(exp.event, window),
    )


def check_cue(exp: Expect, rec: Recorder) -> CheckResult:
    assert exp.cue is not None
    window = [(t, n) for t, n in rec.cues if exp.from_us <= t <= exp.at_us]
    hits = [t for t, n in window if n == exp.cue]
    name = f"cue {exp.cue}"
    heard = ", ".join(f"{n} at {t} µs" for t, n in window[:8]) or "nothing"
    if exp.count is not None:
        ok = len(hits) == exp.count
        why = f"expected {exp.count} × {exp.cue} in [{exp.from_us}, {exp.at_us}] µs, heard {len(hits)}; heard: {heard}"
        return CheckResult(exp.name, exp.at_us, name, "pass" if ok else "fail", "" if ok else why)
    if hits:
        return CheckResult(exp.name, exp.at_us, name, "pass", f"at {hits[0]} µs")
    return CheckResult(
        exp.name, exp.at_us, name, "fail", f"no {exp.cue} in [{exp.from_us}, {exp.at_us}] µs; heard: {heard}"
    )


def _nearest(expected: dict[str, Any], window: list[Any]) -> str:
    same = [e for e in window if e.encoded.get("type") == expected["type"]]
    if same:
        return "; same type seen: " + "; ".join(f"{e.t_us} µs {_fmt(e.encoded)}" for e in same[:3])
    return f"; {len(window)} other events in the window"


def check_events(exp: Expect, rec: Recorder) -> CheckResult:
    assert exp.events is not None
    window = [e for e in rec.events if exp.from_us <= e.t_us <= exp.at_us]
    i = 0
    for e in window:
        if i < len(exp.events) and matches(exp.events[i], e.encoded):
            i += 1
    name = "events " + " → ".join(x["type"] for x in exp.events)
    if i == len(exp.events):
        return CheckResult(exp.name, exp.at_us, name, "pass")
    return CheckResult(
        exp.name,
        exp.at_us,
        name,
        "fail",
        f"matched {i} of {len(exp.events)} in order; missing {_fmt(exp.events[i])}" + _nearest(exp.events[i], window),
    )


# -- LED bars -------------------------------------------------------------------------------
def check_led(exp: Expect, probe: Probe) -> CheckResult:
    spec = exp.led
    assert spec is not None
    station = spec["station"]
    segs = probe.led_segments(station)
    lit = sum(1 for v in segs if v > 0)
    tol = float(spec.get("tolerance", 0.02))
    name = f"led station {station}"
    if "lit" in spec:
        ok, want = lit == spec["lit"], f"{spec['lit']} lit"
    elif "level" in spec:
        level = sum(segs) / len(segs) if segs else 0.0
        ok, want = abs(level - spec["level"]) <= tol, f"level {spec['level']}"
    else:
        ok = len(segs) == len(spec["segments"]) and all(abs(a - b) <= tol for a, b in zip(segs, spec["segments"]))
        want = f"segments {spec['segments']}"
    got = f"{lit} lit, segments {[round(v, 3) for v in segs]}"
    return CheckResult(
        exp.name, exp.at_us, name, "pass" if ok else "fail", got if ok else f"expected {want}, got {got}"
    )


# -- images ---------------------------------------------------------------------------------
@dataclass
class Goldens:
    """Where goldens are read and failures written; ``update`` rewrites goldens instead."""

    scenario: Scenario
    out_dir: Path
    update: bool = False


def compare_rgb(
    size: tuple[int, int], actual: bytes, expected_size: tuple[int, int], expected: bytes, tolerance: int
) -> tuple[int, bytes]:
    """Pixels differing by more than ``tolerance`` in any channel, and a diff image
    (RGB bytes: mismatches in red over a dimmed copy of the actual screen)."""
    from PIL import Image, ImageChops

    if size != expected_size:
        return size[0] * size[1], b""
    if actual == expected:
        return 0, b""
    a = Image.frombytes("RGB", size, actual)
    e = Image.frombytes("RGB", size, expected)
    r, g, b = ImageChops.difference(a, e).split()
    worst = ImageChops.lighter(ImageChops.lighter(r, g), b)
    mask = worst.point(lambda v: 255 if v > tolerance else 0)
    bad = mask.histogram()[255]
    dim = a.point(lambda v: v // 4)
    red = Image.new("RGB", size, (255, 0, 0))
    return bad, Image.composite(red, dim, mask).tobytes()


def _save_rgb(path: Path, size: tuple[int, int], data: bytes) -> None:
    import pygame

    path.parent.mkdir(parents=True, exist_ok=True)
    pygame.image.save(pygame.image.frombytes(data, size, "RGB"), str(path))


def _load_rgb(path: Path) -> tuple[tuple[int, int], bytes]:
    import pygame

    surf = pygame.image.load(str(path))
    return surf.get_size(), pygame.image.tobytes(surf, "RGB")


def check_screen(exp: Expect, probe: Probe, g: Goldens) -> CheckResult:
    spec = exp.screen
    assert spec is not None
    golden = g.scenario.resolve(spec["png"])
    size, actual = probe.screen_rgb()
    stem = f"{exp.at_us:012d}-screen-{golden.stem}"
    actual_path = g.out_dir / f"{stem}-actual.png"
    _save_rgb(actual_path, size, actual)
    files = [str(actual_path)]
    name = f"screen {spec['png']}"
    if g.update:
        _save_rgb(golden, size, actual)
        return CheckResult(exp.name, exp.at_us, name, "pass", f"golden written: {golden}", files)
    if not golden.exists():
        return CheckResult(
            exp.name,
            exp.at_us,
            name,
            "fail",
            f"no golden {golden}: run `ringside hil run --update-goldens` and look at it",
            files,
        )
    esize, expected = _load_rgb(golden)
    tol = int(spec.get("tolerance", 0))
    bad, diff = compare_rgb(size, actual, esize, expected, tol)
    total = size[0] * size[1]
    allowed = float(spec.get("max_mismatch", 0.0))
    if esize == size and bad <= allowed * total:
        return CheckResult(exp.name, exp.at_us, name, "pass", f"{bad} of {total} pixels beyond tolerance {tol}", files)
    exp_path, diff_path = g.out_dir / f"{stem}-expected.png", g.out_dir / f"{stem}-diff.png"
    _save_rgb(exp_path, esize, expected)
    if diff:
        _save_rgb(diff_path, size, diff)
        files += [str(exp_path), str(diff_path)]
    else:
        files.append(str(exp_path))
    why = (
        f"size {size} vs golden {esize}"
        if esize != size
        else f"{bad} of {total} pixels ({bad / total:.4%}) differ by more than {tol}; allowed {allowed:.4%}"
    )
    return CheckResult(exp.name, exp.at_us, name, "fail", f"{why}; see {diff_path if diff else exp_path}", files)


def check_private(exp: Expect, probe: Probe, g: Goldens) -> list[CheckResult]:
    spec = exp.private
    assert spec is not None
    station = spec["station"]
    out: list[CheckResult] = []
    name = f"private station {station}"
    for key in ("contains", "lacks"):
        if key not in spec:
            continue
        wanted = [spec[key]] if isinstance(spec[key], str) else list(spec[key])
        text = probe.private_text(station)
        if text is None:
            raise NotObservable(f"the text on station {station}'s private display is not known")
        joined = "\n".join(text)
        missing = [w for w in wanted if (w in joined) != (key == "contains")]
        ok = not missing
        msg = f"shows {list(text)}"
        if not ok:
            msg = f"{'missing' if key == 'contains' else 'must not show'} {missing}; {msg}"
        out.append(CheckResult(exp.name, exp.at_us, f"{name} {key}", "pass" if ok else "fail", msg))
    if "png" in spec:
        out.append(_private_png(exp, probe.private_image(station), g, spec["png"], station))
    return out


def _private_png(exp: Expect, image: Any, g: Goldens, png: str, station: int) -> CheckResult:
    from PIL import Image, ImageChops

    golden = g.scenario.resolve(png)
    name = f"private station {station} png"
    if image is None:
        return CheckResult(exp.name, exp.at_us, name, "fail", "nothing shown on that display yet")
    actual = image.convert("L")
    stem = f"{exp.at_us:012d}-private{station}-{golden.stem}"
    actual_path = g.out_dir / f"{stem}-actual.png"
    actual_path.parent.mkdir(parents=True, exist_ok=True)
    actual.save(actual_path)
    if g.update:
        golden.parent.mkdir(parents=True, exist_ok=True)
        actual.save(golden)
        return CheckResult(exp.name, exp.at_us, name, "pass", f"golden written: {golden}", [str(actual_path)])
    if not golden.exists():
        return CheckResult(
            exp.name, exp.at_us, name, "fail", f"no golden {golden}: run with --update-goldens", [str(actual_path)]
        )
    expected = Image.open(golden).convert("L")
    if expected.size == actual.size and actual.tobytes() == expected.tobytes():
        return CheckResult(exp.name, exp.at_us, name, "pass", "", [str(actual_path)])
    diff_path = g.out_dir / f"{stem}-diff.png"
    if expected.size == actual.size:
        ImageChops.difference(actual, expected).save(diff_path)
    return CheckResult(
        exp.name,
        exp.at_us,
        name,
        "fail",
        f"private display differs from {golden}; see {diff_path}",
        [str(actual_path), str(diff_path)],
    )


def evaluate(exp: Expect, rec: Recorder, probe: Probe, g: Goldens) -> list[CheckResult]:
    """Every part of one checkpoint, now (virtual time ``exp.at_us``)."""
    out: list[CheckResult] = []
    parts: list[tuple[str, Callable[[], list[CheckResult]]]] = []

    def seen(check: Callable[[Expect, Recorder], CheckResult]) -> Callable[[], list[CheckResult]]:
        def run() -> list[CheckResult]:
            probe.engine_events()
            return [check(exp, rec)]

        return run

    if exp.event is not None:
        parts.append(("event", seen(check_event)))
    if exp.events is not None:
        parts.append(("events", seen(check_events)))
    if exp.cue is not None:

        def cue() -> list[CheckResult]:
            probe.cues_played()
            return [check_cue(exp, rec)]

        parts.append(("cue", cue))
    if exp.led is not None:
        parts.append(("led", lambda: [check_led(exp, probe)]))
    if exp.private is not None:
        parts.append(("private", lambda: check_private(exp, probe, g)))
    if exp.screen is not None:
        parts.append(("screen", lambda: [check_screen(exp, probe, g)]))
    if exp.scene is not None:

        def scene() -> list[CheckResult]:
            now = probe.scene_name()
            return [
                CheckResult(
                    exp.name,
                    exp.at_us,
                    "scene",
                    "pass" if now == exp.scene else "fail",
                    f"scene {now}" if now == exp.scene else f"expected scene {exp.scene}, it is {now}",
                )
            ]

        parts.append(("scene", scene))
    if exp.paused is not None:

        def paused() -> list[CheckResult]:
            now = probe.paused()
            return [
                CheckResult(
                    exp.name,
                    exp.at_us,
                    "paused",
                    "pass" if now == exp.paused else "fail",
                    "" if now == exp.paused else f"expected paused={exp.paused}, it is {now}",
                )
            ]

        parts.append(("paused", paused))
    if exp.link is not None:

        def link() -> list[CheckResult]:
            state = probe.link_state()
            want = exp.link or {}
            bad = []
            if "connected" in want and state["connected"] != want["connected"]:
                bad.append(f"connected={state['connected']}")
            for k, v in want.items():
                if k.endswith("_min") and state[k[:-4]] < v:
                    bad.append(f"{k[:-4]}={state[k[:-4]]} < {v}")
            got = ", ".join(f"{k}={v}" for k, v in state.items())
            return [
                CheckResult(
                    exp.name, exp.at_us, "link", "fail" if bad else "pass", f"{'; '.join(bad)} ({got})" if bad else got
                )
            ]

        parts.append(("link", link))
    for kind, run in parts:
        try:
            out += run()
        except NotObservable as e:
            out.append(CheckResult(exp.name, exp.at_us, kind, "skip", str(e)))
    return out

"""Named calibration profiles: TOML files under ``<data_dir>/calibration/``.

``<name>.toml`` is the profile in force for that name; saving over it first moves the
old file to ``history/<name>.<UTC stamp>.toml`` (history is kept, never pruned
silently).  ``active`` names the profile last pushed to the board.  Every write is
atomic: a temporary file in the same folder, flushed and fsynced, then renamed over
the target, and the folder fsynced, so a power cut leaves the old file or the new one,
never half of one.  Pushing writes each pad's settings to the board and saves them in
its flash, then reads them back.
"""

from __future__ import annotations

import json
import logging
import os
import re
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields, replace
from datetime import UTC, datetime
from pathlib import Path

from calibration.fit import limited
from calibration.live_gpio import apply_gpio_masks, apply_gpio_rings
from calibration.source import PadSource
from calibration.wizard import Wizard
from hal.config import CabinetConfig
from hal.padboard.settings import PadSettings

NAME = re.compile(r"[A-Za-z0-9_.-]{1,40}")
SETTING_NAMES = tuple(f.name for f in fields(PadSettings))


class ProfileError(ValueError):
    pass


@dataclass(frozen=True)
class Profile:
    name: str
    cabinet: str
    created: str  # ISO 8601 UTC
    source: str  # padboard | gpio-edge
    pads: dict[int, PadSettings] = field(default_factory=dict)
    gpio_mask_us: dict[int, int] = field(default_factory=dict)
    notes: tuple[str, ...] = ()
    gpio_ring_us: dict[int, int] = field(default_factory=dict)  # for the force correction (0: none)
    display_latency_us: int | None = None  # flip → visible, timed by the photodiode
    padboard_settle_us: int | None = None  # the settle window these settings need (None: the config's)


def calibration_dir(data_dir: Path) -> Path:
    return Path(data_dir) / "calibration"


def _q(s: str) -> str:
    return json.dumps(s, ensure_ascii=False)  # a valid TOML basic string


def to_toml(p: Profile) -> str:
    lines = [
        "# Ringside slap-pad calibration profile (written by `ringside calibrate`)",
        f"name = {_q(p.name)}",
        f"cabinet = {_q(p.cabinet)}",
        f"created = {_q(p.created)}",
        f"source = {_q(p.source)}",
        "notes = [" + ", ".join(_q(n) for n in p.notes) + "]",
    ]
    if p.display_latency_us is not None:
        lines.append(f"display_latency_us = {p.display_latency_us}")
    if p.padboard_settle_us is not None:
        lines.append(f"padboard_settle_us = {p.padboard_settle_us}")
    for pad, s in sorted(p.pads.items()):
        lines += ["", "[[pad]]", f"index = {pad}"]
        lines += [f"{k} = {v}" for k, v in s.as_dict().items()]
    for pad, m in sorted(p.gpio_mask_us.items()):
        lines += ["", "[[gpio]]", f"index = {pad}", f"mask_us = {m}"]
        if p.gpio_ring_us.get(pad):
            lines.append(f"ring_us = {p.gpio_ring_us[pad]}")
    return "\n".join(lines) + "\n"


def from_toml(text: str, where: str = "<profile>") -> Profile:
    try:
        raw = tomllib.loads(text)
        pads = {}
        for t in raw.get("pad", []):
            pads[int(t["index"])] = PadSettings.from_dict({k: t[k] for k in SETTING_NAMES if k in t})
        gpio = {int(t["index"]): int(t["mask_us"]) for t in raw.get("gpio", [])}
        rings = {int(t["index"]): int(t["ring_us"]) for t in raw.get("gpio", []) if "ring_us" in t}
        latency = raw.get("display_latency_us")
        settle = raw.get("padboard_settle_us")
        return Profile(
            str(raw["name"]),
            str(raw["cabinet"]),
            str(raw["created"]),
            str(raw.get("source", "padboard")),
            pads,
            gpio,
            tuple(raw.get("notes", ())),
            rings,
            int(latency) if latency is not None else None,
            int(settle) if settle is not None else None,
        )
    except (tomllib.TOMLDecodeError, KeyError, TypeError, ValueError) as e:
        raise ProfileError(f"{where}: not a calibration profile ({e})") from e


def atomic_write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.tmp-{os.getpid()}")
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(text)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)
    dfd = os.open(path.parent, os.O_RDONLY)
    try:
        os.fsync(dfd)
    finally:
        os.close(dfd)


class ProfileStore:
    def __init__(self, data_dir: Path) -> None:
        self.dir = calibration_dir(data_dir)
        self.history_dir = self.dir / "history"

    def path(self, name: str) -> Path:
        if not NAME.fullmatch(name):
            raise ProfileError(f"profile name {name!r}: use letters, digits, '.', '_' or '-' (1–40)")
        return self.dir / f"{name}.toml"

    def save(self, profile: Profile) -> Path:
        """Write atomically; a profile of the same name moves to history first."""
        target = self.path(profile.name)
        if target.exists():
            old = from_toml(target.read_text(encoding="utf-8"), str(target))
            stamp = re.sub(r"[^0-9T]", "", old.created)[:15] or "old"
            dest = self.history_dir / f"{profile.name}.{stamp}.toml"
            n = 1
            while dest.exists():
                dest = self.history_dir / f"{profile.name}.{stamp}-{n}.toml"
                n += 1
            atomic_write(dest, target.read_text(encoding="utf-8"))
        atomic_write(target, to_toml(profile))
        return target

    def load(self, name: str) -> Profile:
        p = self.path(name)
        if not p.exists():
            have = ", ".join(self.names()) or "none"
            raise ProfileError(f"no profile named {name!r} in {self.dir} (have: {have})")
        return from_toml(p.read_text(encoding="utf-8"), str(p))

    def names(self) -> list[str]:
        return sorted(p.stem for p in self.dir.glob("*.toml")) if self.dir.exists() else []

    def history(self, name: str | None = None) -> list[Path]:
        if not self.history_dir.exists():
            return []
        pat = f"{name}.*.toml" if name else "*.toml"
        return sorted(self.history_dir.glob(pat))

    def active(self) -> str | None:
        p = self.dir / "active"
        return p.read_text(encoding="utf-8").strip() or None if p.exists() else None

    def set_active(self, name: str) -> None:
        atomic_write(self.dir / "active", name + "\n")


def new_profile(
    name: str,
    cabinet: str,
    source: str,
    pads: Mapping[int, PadSettings] | None = None,
    gpio_mask_us: Mapping[int, int] | None = None,
    notes: tuple[str, ...] = (),
    now: datetime | None = None,
    gpio_ring_us: Mapping[int, int] | None = None,
    display_latency_us: int | None = None,
    padboard_settle_us: int | None = None,
) -> Profile:
    t = (now or datetime.now(UTC)).strftime("%Y-%m-%dT%H:%M:%SZ")
    return Profile(
        name,
        cabinet,
        t,
        source,
        dict(pads or {}),
        dict(gpio_mask_us or {}),
        notes,
        dict(gpio_ring_us or {}),
        display_latency_us,
        padboard_settle_us,
    )


def wizard_profile(name: str, cabinet: str, wizard: Wizard, settings: Mapping[int, PadSettings]) -> Profile:
    """The profile a finished wizard run saves: the padboard's detector ``settings`` (or
    the gpio-edge mask times) with the reason for every value, and every value the board
    limited, per pad."""
    reasons = (
        {p: (*f.reasons, *(w for w in f.warnings if limited([w]))) for p, f in wizard.fits.items()}
        if wizard.analog
        else {p: g.reasons for p, g in wizard.gpio_fits.items()}
    )
    notes = tuple(f"pad {p + 1}: {r}" for p, rs in sorted(reasons.items()) for r in rs)
    return new_profile(
        name,
        cabinet,
        "padboard" if wizard.analog else "gpio-edge",
        settings if wizard.analog else {},
        wizard.gpio_masks(),
        notes,
        gpio_ring_us=wizard.gpio_rings(),
        display_latency_us=wizard.display_latency_us,
        padboard_settle_us=wizard.settle_us if wizard.analog else None,
    )


def config_with_active_profile(
    config: CabinetConfig, log: Callable[[str], None] = logging.getLogger("ringside").info
) -> CabinetConfig:
    """The cabinet config with the active calibration profile's gpio-edge mask times and
    ring periods, the display latency the photodiode measured, and the padboard settle
    window its fitted settings need (raised, never lowered), in force (a padboard keeps
    its own settings in flash)."""
    store = ProfileStore(config.data_dir)
    name = store.active()
    if name is None:
        return config
    profile = store.load(name)
    if profile.display_latency_us is not None:
        log(f"calibration profile {name!r}: display latency {profile.display_latency_us} µs (photodiode)")
        config = replace(config, display=replace(config.display, latency_us=profile.display_latency_us))
    pb = config.padboard
    if profile.padboard_settle_us is not None and pb is not None and pb.settle_us < profile.padboard_settle_us:
        log(
            f"calibration profile {name!r}: padboard settle window {profile.padboard_settle_us} µs "
            f"(the config's {pb.settle_us} µs is shorter than its fitted settings hold a hit)"
        )
        config = replace(config, padboard=replace(pb, settle_us=profile.padboard_settle_us))
    if profile.source != "gpio-edge" or not profile.gpio_mask_us:
        return config
    log(f"calibration profile {name!r}: gpio-edge mask times {profile.gpio_mask_us} µs")
    config = apply_gpio_masks(config, profile.gpio_mask_us)
    if any(profile.gpio_ring_us.values()):
        log(f"calibration profile {name!r}: gpio-edge ring periods {profile.gpio_ring_us} µs (force correction)")
        config = apply_gpio_rings(config, profile.gpio_ring_us)
    return config


def push(source: PadSource, profile: Profile) -> None:
    """Write every pad's settings to the board, save them in its flash, read them back."""
    if not profile.pads:
        return
    for pad, s in sorted(profile.pads.items()):
        if pad >= source.pads:
            raise ProfileError(f"profile {profile.name!r} has pad {pad + 1}; the board has {source.pads}")
        source.write_settings(pad, s)
    source.save_settings()
    for pad, s in profile.pads.items():
        got = source.read_settings(pad)
        if got != s:
            raise ProfileError(f"pad {pad + 1} reads back {got}, not the profile's {s}")

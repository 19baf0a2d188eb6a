"""The cabinet configuration (TOML): stations, pins, ports, addresses, display size.

Loading validates everything before anything starts; a mistake stops with a
:class:`ConfigError` that names the key, the value found and what is expected, so an
operator can fix the file without reading code.  Nothing else in Ringside knows a pin.
"""

from __future__ import annotations

import os
import re
import reprlib
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from hal.events import Button
from hal.timing import GPIO_EDGE_MASK_US, GPIO_EDGE_SETTLE_US, PADBOARD_SETTLE_US

HEADER_LINES = range(0, 28)
"""BCM lines a Pi's 40-pin header offers (gpiochip 0)."""

SLAP_SOURCES = ("gpio-edge", "padboard", "none")
BACKENDS = ("gpio", "sim")
"""``gpio``: the real cabinet on a Pi; ``sim``: simulated hardware (development, demos)."""
DISPLAY_DRIVERS = ("ssd1306", "sh1106", "none")


class ConfigError(ValueError):
    """A bad cabinet config: the message names the key, the value and what is expected."""

    def __init__(self, key: str, value: Any, expected: str, source: str = "") -> None:
        where = f"{source}: " if source else ""
        super().__init__(f"{where}{key} = {_SHOWN.repr(value)}: expected {expected}")
        self.key = key


_SHOWN = reprlib.Repr()
"""A bad value as its repr, but nested tables and arrays only a few levels deep (one line,
never a RecursionError of its own)."""
_SHOWN.maxlevel = 4
_SHOWN.maxstring = _SHOWN.maxother = _SHOWN.maxlong = 100_000
_SHOWN.maxdict = _SHOWN.maxlist = _SHOWN.maxtuple = 1_000


@dataclass(frozen=True, kw_only=True)
class DisplayConfig:
    """``latency_us``: how long after a frame is flipped the panel really shows it
    (measured by a photodiode in calibration, or set by hand); reveals count from then.
    ``photodiode_pin``: the GPIO line of an optional light sensor on the screen."""

    width: int
    height: int
    fullscreen: bool
    fps: int
    latency_us: int = 0
    photodiode_pin: int | None = None
    render: str = "native"
    """``native``: frames drawn at ``width`` × ``height``; ``720p``: drawn at 1280×720 and
    scaled up to the screen by the display pipeline (the GPU on a Pi), for a slow Pi."""

    def render_size(self) -> tuple[int, int]:
        """The size frames are drawn at."""
        return RENDER_SIZES.get(self.render) or (self.width, self.height)


RENDER_SIZES: dict[str, tuple[int, int] | None] = {"native": None, "720p": (1280, 720)}
"""``[display] render``: the size frames are drawn at (None: the display's own)."""


@dataclass(frozen=True)
class LedBarConfig:
    chip: int
    pins: tuple[int, ...]
    pwm: bool


@dataclass(frozen=True, kw_only=True)
class PrivateDisplayConfig:
    driver: str
    i2c_bus: int
    address: int
    width: int = 128
    height: int = 64


@dataclass(frozen=True, kw_only=True)
class SlapConfig:
    """``settle_us``: the transport's worst skew; the session holds slaps this long.
    ``ring_us``: a gpio-edge pad's ring period as calibration measured it; when set, the
    line's stamps are corrected for the force by the width of its first pulse (0: off)."""

    source: str
    pin: int | None
    pad: int | None
    mask_us: int
    settle_us: int
    ring_us: int = 0


@dataclass(frozen=True, kw_only=True)
class StationConfig:
    name: str
    color: tuple[int, int, int]
    buttons: tuple[tuple[Button, int], ...]
    led_bar: LedBarConfig
    private_display: PrivateDisplayConfig
    slap: SlapConfig
    input_chip: int = 0
    """gpiochip of the buttons and a gpio-edge slap line (0: the Pi's header)."""

    def button_pin(self, button: Button) -> int:
        return dict(self.buttons)[button]


@dataclass(frozen=True)
class PadboardConfig:
    """``contact_probe``: the board has the calibration's contact probe (a conductive
    glove on its probe pin, foil on the pads): calibration adds a probe step per pad."""

    port: str
    settle_us: int
    contact_probe: bool = False


ATTRACT_SOUND = ("silent", "quiet", "every")
"""The attract screen's sound: none; its music all the time, quietly; or its music once
every ``attract_every_min`` minutes."""


@dataclass(frozen=True)
class SoundConfig:
    """``[sound]``: ``folder``: recorded cues (``<name>.wav``) replacing synthesised ones;
    volumes per kind in percent; the attract screen's policy (:data:`ATTRACT_SOUND`); a
    daily mute window in local time (``mute_from`` to ``mute_until``, minutes of the day;
    None: never muted); the mixer's buffer in frames (its latency)."""

    enabled: bool = True
    folder: Path | None = None
    effects_volume: int = 100
    voice_volume: int = 100
    music_volume: int = 70
    attract: str = "every"
    attract_every_min: int = 5
    mute_from: int | None = None
    mute_until: int | None = None
    buffer: int = 256


@dataclass(frozen=True)
class RetentionConfig:
    """How much the cabinet keeps of what piles up in its data folder, so a card that
    runs for months never fills: the newest ``screenshot_folders`` exhibition folders and
    ``reports`` calibration reports; below ``min_free_mb`` free it warns in the log."""

    screenshot_folders: int = 20
    reports: int = 30
    min_free_mb: int = 200


DEFAULT_SHUTDOWN = ("systemctl", "poweroff")


@dataclass(frozen=True, kw_only=True)
class CabinetConfig:
    name: str
    data_dir: Path
    display: DisplayConfig
    service_pin: int | None
    stations: tuple[StationConfig, ...]
    padboard: PadboardConfig | None
    source: str = ""
    sound: SoundConfig = SoundConfig()
    backend: str = "sim"
    """Which hardware ``ringside run`` drives (:data:`BACKENDS`); a cabinet's config says gpio."""
    shutdown_command: tuple[str, ...] = DEFAULT_SHUTDOWN
    """What the service menu's Shut down runs (after the operator confirms)."""
    retention: RetentionConfig = RetentionConfig()
    games: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    """Each game's own ``[game.<name>]`` table, raw: the game's controls validate it
    (``hal`` knows no game)."""


def default_config_path() -> Path:
    return Path(str(resources.files("hal") / "data" / "cabinet.toml"))


def default_data_dir() -> Path:
    """Where a person's runs keep their data: ``$XDG_DATA_HOME/ringside``, else
    ``~/.local/share/ringside`` (a cabinet's config names ``/var/lib/ringside``)."""
    xdg = os.environ.get("XDG_DATA_HOME", "")
    base = Path(xdg) if xdg and Path(xdg).is_absolute() else Path("~/.local/share").expanduser()
    return base / "ringside"


def load_config(path: str | Path | None = None) -> CabinetConfig:
    """Read and validate a cabinet TOML file (the shipped default when ``path`` is None)."""
    p = Path(path) if path is not None else default_config_path()
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as e:
        raise ConfigError("config file", str(p), f"a readable TOML file ({e.strerror})") from e
    except UnicodeDecodeError as e:
        raise ConfigError(
            "config file", str(p), f"UTF-8 text (byte 0x{e.object[e.start]:02x} at offset {e.start} is not UTF-8)"
        ) from e
    return parse_config(text, source=str(p))


def expand_path(text: str, key: str = "path", source: str = "") -> Path:
    """``text`` as a path with ``~`` and ``~user`` expanded; a :class:`ConfigError` naming
    ``key`` when the user is unknown."""
    try:
        return Path(text).expanduser()
    except RuntimeError as e:  # Path.expanduser: "Could not determine home directory."
        raise ConfigError(key, text, f"a path whose ~user names a user on this machine ({e})", source) from e


def parse_config(text: str, source: str = "<config>") -> CabinetConfig:
    try:
        raw = tomllib.loads(text)
        return TableReader(source).cabinet(raw)
    except tomllib.TOMLDecodeError as e:
        raise ConfigError("file", source, f"valid TOML ({e})") from e
    except RecursionError:  # tomllib parses arrays and inline tables recursively
        raise ConfigError("file", source, "TOML whose arrays and tables nest a few levels deep, not hundreds") from None


class TableReader:
    """Walks the TOML tree, keeping the dotted key path for error messages (a game's
    controls read their own ``[game.<name>]`` table with one too)."""

    def __init__(self, source: str) -> None:
        self.source = source

    def fail(self, key: str, value: Any, expected: str) -> ConfigError:
        return ConfigError(key, value, expected, self.source)

    def check_table(
        self,
        value: Any,
        key: str,
        allowed: set[str],
        required: bool = True,
        *,
        any_key: bool = False,
        moved: Mapping[str, str] | None = None,
    ) -> dict[str, Any]:
        """``value`` as a table whose keys are among ``allowed`` (any, with ``any_key``);
        ``moved``: keys an older config used, with where they went."""
        if value is None:
            if required:
                raise self.fail(key, None, f"a table with keys {', '.join(sorted(allowed))}")
            return {}
        if not isinstance(value, dict):
            raise self.fail(key, value, "a table")
        for k in value:
            if moved and k in moved:
                raise self.fail(f"{key}.{k}", value[k], f"the same keys in {moved[k]}")
            if not any_key and k not in allowed:
                allowed_words = ", ".join(sorted(allowed)) if allowed else "(none)"
                raise self.fail(f"{key}.{k}", value[k], f"no such key; allowed: {allowed_words}")
        return value

    def integer(self, t: dict[str, Any], key: str, name: str, lo: int, hi: int, default: int | None = None) -> int:
        v = t.get(name, default)
        if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
            raise self.fail(f"{key}.{name}", v, f"an integer from {lo} to {hi}")
        return v

    def boolean(self, t: dict[str, Any], key: str, name: str, default: bool) -> bool:
        v = t.get(name, default)
        if not isinstance(v, bool):
            raise self.fail(f"{key}.{name}", v, "true or false")
        return v

    def string(self, t: dict[str, Any], key: str, name: str, default: str | None = None, pattern: str = r".+") -> str:
        v = t.get(name, default)
        if not isinstance(v, str) or not re.fullmatch(pattern, v):
            raise self.fail(f"{key}.{name}", v, f"a string matching {pattern}")
        return v

    def choice(
        self, t: dict[str, Any], key: str, name: str, options: tuple[str, ...], default: str | None = None
    ) -> str:
        v = t.get(name, default)
        if not isinstance(v, str) or v not in options:
            raise self.fail(f"{key}.{name}", v, f"one of {', '.join(options)}")
        return v

    # -- sections -------------------------------------------------------------------
    def cabinet(self, raw: dict[str, Any]) -> CabinetConfig:
        self.check_table(
            raw,
            "(top level)",
            {"cabinet", "display", "service", "sound", "station", "padboard", "retention", "game"},
            moved={"punch_cards": "[game.punch_cards]"},
        )
        cab = self.check_table(raw.get("cabinet"), "cabinet", {"name", "data_dir", "backend"})
        name = self.string(cab, "cabinet", "name", pattern=r"[A-Za-z0-9_.-]{1,40}")
        backend = self.choice(cab, "cabinet", "backend", BACKENDS, "sim")
        data_dir = (
            expand_path(self.string(cab, "cabinet", "data_dir"), "cabinet.data_dir", self.source)
            if "data_dir" in cab
            else default_data_dir()
        )

        disp = self.check_table(
            raw.get("display"),
            "display",
            {"width", "height", "fullscreen", "fps", "latency_us", "photodiode_pin", "render"},
            required=False,
        )
        display = DisplayConfig(
            width=self.integer(disp, "display", "width", 320, 7680, 1280),
            height=self.integer(disp, "display", "height", 240, 4320, 720),
            fullscreen=self.boolean(disp, "display", "fullscreen", False),
            fps=self.integer(disp, "display", "fps", 10, 240, 60),
            latency_us=self.integer(disp, "display", "latency_us", 0, 200_000, 0),
            photodiode_pin=self.integer(disp, "display", "photodiode_pin", 0, 27) if "photodiode_pin" in disp else None,
            render=self.choice(disp, "display", "render", tuple(RENDER_SIZES), "native"),
        )
        service = self.check_table(raw.get("service"), "service", {"pin", "shutdown_command"}, required=False)
        service_pin = self.integer(service, "service", "pin", 0, 27) if "pin" in service else None
        shutdown = service.get("shutdown_command", list(DEFAULT_SHUTDOWN))
        if not isinstance(shutdown, list) or not shutdown or not all(isinstance(a, str) and a for a in shutdown):
            raise self.fail(
                "service.shutdown_command", shutdown, 'a command as a list of strings, e.g. ["systemctl", "poweroff"]'
            )
        ret = self.check_table(
            raw.get("retention"), "retention", {"screenshot_folders", "reports", "min_free_mb"}, required=False
        )
        retention = RetentionConfig(
            screenshot_folders=self.integer(ret, "retention", "screenshot_folders", 1, 10_000, 20),
            reports=self.integer(ret, "retention", "reports", 1, 10_000, 30),
            min_free_mb=self.integer(ret, "retention", "min_free_mb", 0, 1_000_000, 200),
        )

        stations_raw = raw.get("station")
        if not isinstance(stations_raw, list) or not 2 <= len(stations_raw) <= 4:
            count = len(stations_raw) if isinstance(stations_raw, list) else stations_raw
            raise self.fail("station", count, "2 to 4 [[station]] tables")
        stations = tuple(self.station(s, f"station[{i}]") for i, s in enumerate(stations_raw))

        padboard = None
        if "padboard" in raw:
            pb = self.check_table(raw["padboard"], "padboard", {"port", "settle_us", "contact_probe"})
            padboard = PadboardConfig(
                port=self.string(pb, "padboard", "port"),
                settle_us=self.integer(pb, "padboard", "settle_us", 100, 100_000, PADBOARD_SETTLE_US),
                contact_probe=self.boolean(pb, "padboard", "contact_probe", False),
            )
        if any(s.slap.source == "padboard" for s in stations) and padboard is None:
            raise self.fail(
                "padboard", None, "a [padboard] table with port = ... (a station uses slap source padboard)"
            )

        sound = self.sound(raw.get("sound"))
        config = CabinetConfig(
            name=name,
            data_dir=data_dir,
            display=display,
            service_pin=service_pin,
            stations=stations,
            padboard=padboard,
            source=self.source,
            sound=sound,
            backend=backend,
            shutdown_command=tuple(shutdown),
            retention=retention,
            games=self.games(raw.get("game")),
        )
        self.check_pins(config)
        return config

    def sound(self, raw: Any) -> SoundConfig:
        keys = set(SoundConfig.__dataclass_fields__)
        snd = self.check_table(raw, "sound", keys, required=False)
        folder = self.string(snd, "sound", "folder") if "folder" in snd else None
        window = [self.clock_time(snd, "sound", k) for k in ("mute_from", "mute_until")]
        if (window[0] is None) != (window[1] is None):
            missing = "mute_until" if window[1] is None else "mute_from"
            raise self.fail(f"sound.{missing}", None, 'both ends of the mute window, e.g. mute_from = "22:00"')
        buffer = self.integer(snd, "sound", "buffer", 64, 8192, 256)
        if buffer & (buffer - 1):
            raise self.fail("sound.buffer", buffer, "a power of two (frames per mixer buffer: 256 is 5.8 ms)")
        return SoundConfig(
            enabled=self.boolean(snd, "sound", "enabled", True),
            folder=expand_path(folder, "sound.folder", self.source) if folder else None,
            effects_volume=self.integer(snd, "sound", "effects_volume", 0, 100, 100),
            voice_volume=self.integer(snd, "sound", "voice_volume", 0, 100, 100),
            music_volume=self.integer(snd, "sound", "music_volume", 0, 100, 70),
            attract=self.choice(snd, "sound", "attract", ATTRACT_SOUND, "every"),
            attract_every_min=self.integer(snd, "sound", "attract_every_min", 1, 24 * 60, 5),
            mute_from=window[0],
            mute_until=window[1],
            buffer=buffer,
        )

    def clock_time(self, t: dict[str, Any], key: str, name: str) -> int | None:
        """``"HH:MM"`` (local time) as minutes of the day; None when absent."""
        if name not in t:
            return None
        v = t[name]
        m = re.fullmatch(r"([01]?\d|2[0-3]):([0-5]\d)", v) if isinstance(v, str) else None
        if m is None:
            raise self.fail(f"{key}.{name}", v, 'a time of day as "HH:MM" (24-hour, local time)')
        return int(m.group(1)) * 60 + int(m.group(2))

    def games(self, raw: Any) -> dict[str, dict[str, Any]]:
        """``[game.<name>]`` tables, kept raw for each game to validate."""
        tables = self.check_table(raw, "game", set(), required=False, any_key=True)
        for name, table in tables.items():
            if not isinstance(table, dict):
                raise self.fail(f"game.{name}", table, f"a table [game.{name}] of that game's settings")
        return dict(tables)

    def station(self, raw: Any, key: str) -> StationConfig:
        s = self.check_table(raw, key, {"name", "color", "input_chip", "buttons", "led_bar", "private_display", "slap"})
        name = self.string(s, key, "name", pattern=r"[A-Za-z0-9 ]{1,12}")
        color_text = self.string(s, key, "color", pattern=r"#[0-9a-fA-F]{6}")
        color = (int(color_text[1:3], 16), int(color_text[3:5], 16), int(color_text[5:7], 16))

        b = self.check_table(s.get("buttons"), f"{key}.buttons", {btn.value for btn in Button})
        buttons = tuple((btn, self.integer(b, f"{key}.buttons", btn.value, 0, 27)) for btn in Button)

        lb = self.check_table(s.get("led_bar"), f"{key}.led_bar", {"chip", "pins", "pwm"})
        pins = lb.get("pins")
        if (
            not isinstance(pins, list)
            or len(pins) != 10
            or not all(isinstance(p, int) and not isinstance(p, bool) and 0 <= p <= 27 for p in pins)
        ):
            raise self.fail(f"{key}.led_bar.pins", pins, "a list of 10 line numbers (0-27), bottom segment first")
        led_bar = LedBarConfig(
            self.integer(lb, f"{key}.led_bar", "chip", 0, 15, 0),
            tuple(pins),
            self.boolean(lb, f"{key}.led_bar", "pwm", False),
        )

        pd = self.check_table(
            s.get("private_display"), f"{key}.private_display", {"driver", "i2c_bus", "address", "width", "height"}
        )
        private = PrivateDisplayConfig(
            driver=self.choice(pd, f"{key}.private_display", "driver", DISPLAY_DRIVERS),
            i2c_bus=self.integer(pd, f"{key}.private_display", "i2c_bus", 0, 20, 1),
            address=self.integer(pd, f"{key}.private_display", "address", 0x03, 0x77, 0x3C),
            width=self.integer(pd, f"{key}.private_display", "width", 32, 256, 128),
            height=self.integer(pd, f"{key}.private_display", "height", 16, 128, 64),
        )

        sl = self.check_table(s.get("slap"), f"{key}.slap", {"source", "pin", "pad", "mask_us", "settle_us", "ring_us"})
        source = self.choice(sl, f"{key}.slap", "source", SLAP_SOURCES)
        if source == "gpio-edge" and "pin" not in sl:
            raise self.fail(f"{key}.slap.pin", None, "the GPIO line of the pad's comparator (source gpio-edge)")
        if source == "padboard" and "pad" not in sl:
            raise self.fail(f"{key}.slap.pad", None, "the padboard input 0-3 (source padboard)")
        slap = SlapConfig(
            source=source,
            pin=self.integer(sl, f"{key}.slap", "pin", 0, 27) if "pin" in sl else None,
            pad=self.integer(sl, f"{key}.slap", "pad", 0, 3) if "pad" in sl else None,
            mask_us=self.integer(sl, f"{key}.slap", "mask_us", 0, 500_000, GPIO_EDGE_MASK_US),
            settle_us=self.integer(sl, f"{key}.slap", "settle_us", 0, 100_000, GPIO_EDGE_SETTLE_US),
            ring_us=self.integer(sl, f"{key}.slap", "ring_us", 0, 20_000, 0),
        )
        input_chip = self.integer(s, key, "input_chip", 0, 15, 0)
        return StationConfig(
            name=name,
            color=color,
            buttons=buttons,
            led_bar=led_bar,
            private_display=private,
            slap=slap,
            input_chip=input_chip,
        )

    def check_pins(self, config: CabinetConfig) -> None:
        """Every (chip, line) used once; I2C lines free when an OLED is configured."""
        used: dict[tuple[int, int], str] = {}

        def claim(chip: int, line: int, key: str) -> None:
            if (chip, line) in used:
                raise self.fail(key, line, f"a line not already used by {used[(chip, line)]}")
            used[(chip, line)] = key

        if any(s.private_display.driver != "none" for s in config.stations):
            claim(0, 2, "I2C SDA (private displays)")
            claim(0, 3, "I2C SCL (private displays)")
        if config.service_pin is not None:
            claim(0, config.service_pin, "service.pin")
        if config.display.photodiode_pin is not None:
            claim(0, config.display.photodiode_pin, "display.photodiode_pin")
        for i, s in enumerate(config.stations):
            for btn, pin in s.buttons:
                claim(s.input_chip, pin, f"station[{i}].buttons.{btn.value}")
            for j, pin in enumerate(s.led_bar.pins):
                claim(s.led_bar.chip, pin, f"station[{i}].led_bar.pins[{j}]")
            if s.slap.pin is not None:
                claim(s.input_chip, s.slap.pin, f"station[{i}].slap.pin")
        pads = [s.slap.pad for s in config.stations if s.slap.source == "padboard"]
        if len(pads) != len(set(pads)):
            raise self.fail("station[].slap.pad", pads, "each padboard input used by one station only")

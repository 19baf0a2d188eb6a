"""Scenario files: what happens at the cabinet, to the microsecond, and what must be seen.

A scenario is a TOML file (format in ``docs/hil.md``): a ``[scenario]`` table (game,
seed, options, which stations play, which cabinet config), a timeline of ``[[input]]``
tables (press, release, slap, padboard unplug/replug/garbage, SERVICE key) and
``[[expect]]`` checkpoints (engine events, LED bars, private displays, the main screen
against a golden PNG, the scene, a paused game, a sound cue played).

Loading validates everything before anything runs and names the offending key, the
value and what was expected, like the cabinet config does: a typo in a test must not
read as a cabinet fault.  The format knows no game: event types and fields are checked
against the event classes of the game's engine package, options against its options
dataclass, and the game is looked up in the cabinet's controls registry, so a
game added later brings scenarios without changing this file.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, field, fields, is_dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from hal.config import ConfigError
from hal.events import Button

if TYPE_CHECKING:
    from firmware_py.runtime.controls import AnyControls

TOP_KEYS = {"scenario", "input", "expect"}
SCENARIO_KEYS = {
    "name",
    "description",
    "game",
    "seed",
    "options",
    "stations",
    "config",
    "start",
    "start_us",
    "end_us",
    "fps",
    "tags",
    "backends",
}
INPUT_ACTIONS = ("press", "release", "slap", "unplug", "replug", "garbage", "service")
INPUT_KEYS = {"at_us", "station", "hold_us", "velocity", "delay_us", "note", *INPUT_ACTIONS}
EXPECT_KINDS = ("event", "events", "led", "private", "screen", "scene", "paused", "link", "cue")
EXPECT_KEYS = {"at_us", "name", "from_us", "t_us", "count", *EXPECT_KINDS}
STARTS = ("game", "menus")
BACKENDS = ("sim", "padboard-emulated", "rig")
DEFAULT_HOLD_US = 60_000
DEFAULT_TAIL_US = 500_000
"""Time run past the last input or checkpoint when ``end_us`` is not given."""


class ScenarioError(ConfigError):
    """A bad scenario file: the message names the key, the value and what is expected
    (the same shape as a bad cabinet config's)."""


@dataclass(frozen=True)
class Input:
    """One thing done at the cabinet at ``at_us`` (µs since the scenario started).

    ``action`` is one of :data:`INPUT_ACTIONS`; ``button`` for press/release; ``hold_us``
    for press (0: held until a ``release``); ``velocity`` (None: a source without
    velocity) and ``delay_us`` (stamp → arrival skew) for slap; ``count`` bytes for
    garbage; ``on`` for the SERVICE key."""

    at_us: int
    action: str
    station: int | None = None
    button: Button | None = None
    hold_us: int = DEFAULT_HOLD_US
    velocity: int | None = None
    delay_us: int = 0
    count: int = 0
    on: bool = False
    index: int = 0

    def describe(self) -> str:
        who = f"station {self.station} " if self.station is not None else ""
        what = {
            "press": f"press {self.button.value if self.button else ''}" + (" (held)" if self.hold_us == 0 else ""),
            "release": f"release {self.button.value if self.button else ''}",
            "slap": f"slap v={self.velocity}" + (f" +{self.delay_us}µs" if self.delay_us else ""),
            "garbage": f"padboard garbage {self.count} bytes",
            "service": f"SERVICE {'on' if self.on else 'off'}",
        }.get(self.action, f"padboard {self.action}")
        return f"{self.at_us} µs: {who}{what}"


@dataclass(frozen=True)
class Expect:
    """A checkpoint: at ``at_us`` every part given must hold.

    ``event``: an engine event matching these fields (a subset of the event's JSON form)
    was applied in ``[from_us, at_us]``; ``t_us`` pins the µs it was applied at, ``count``
    the exact number of matches (0: must not happen).  ``events``: these, in this order
    (others may come between).  ``led``: ``{station, lit | level | segments}``.
    ``private``: ``{station, contains | lacks | png}``.  ``screen``: ``{png, tolerance,
    max_mismatch}``.  ``scene``: the cabinet scene's class name.  ``paused``: whether
    the game is paused (slap pads lost).  ``link``: the padboard driver's state and
    counters ``{connected, garbage_bytes_min, bad_frames_min, reconnects_min}``.
    ``cue``: a sound cue played in ``[from_us, at_us]``, named as the cabinet plays it
    (``hit_won.1``: station 2's variant); ``count`` the exact number (0: never played)."""

    at_us: int
    name: str
    from_us: int = 0
    t_us: int | None = None
    count: int | None = None
    event: dict[str, Any] | None = None
    events: tuple[dict[str, Any], ...] | None = None
    led: dict[str, Any] | None = None
    private: dict[str, Any] | None = None
    screen: dict[str, Any] | None = None
    scene: str | None = None
    paused: bool | None = None
    link: dict[str, Any] | None = None
    cue: str | None = None
    index: int = 0

    def kinds(self) -> list[str]:
        return [k for k in EXPECT_KINDS if getattr(self, k) is not None]


@dataclass(frozen=True)
class Scenario:
    name: str
    path: Path
    game: str
    seed: int
    options: dict[str, Any]
    stations: tuple[int, ...]
    config: Path | None
    start: str
    end_us: int
    fps: int | None
    start_us: int = 0
    """Where the timeline starts on the cabinet clock (the game, or the boot with
    ``start = "menus"``); every µs in the file is on that clock.  Recorded sessions keep
    the cabinet's own clock so that times inside events (stamps, reveals) match."""
    description: str = ""
    tags: tuple[str, ...] = ()
    backends: tuple[str, ...] = BACKENDS
    inputs: tuple[Input, ...] = ()
    expects: tuple[Expect, ...] = ()
    raw: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)

    @property
    def length_us(self) -> int:
        """The timeline's own length: what a person at the cabinet would take."""
        return self.end_us - self.start_us

    def resolve(self, relative: str) -> Path:
        """A path written in the scenario, relative to the scenario file."""
        p = Path(relative)
        return p if p.is_absolute() else self.path.parent / p

    @property
    def uses_padboard(self) -> bool:
        return any(i.action in ("unplug", "replug", "garbage") for i in self.inputs)


# -- loading -------------------------------------------------------------------------------
def load_scenario(path: str | Path) -> Scenario:
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as e:
        raise ScenarioError("scenario file", str(p), f"a readable TOML file ({e.strerror})") from e
    return parse_scenario(text, p)


def parse_scenario(text: str, path: Path | str = "<scenario>.toml") -> Scenario:
    path = Path(path)
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise ScenarioError("file", str(path), f"valid TOML ({e})") from e
    return _Reader(str(path)).scenario(raw, path)


def game_controls(name: Any, source: str = "") -> type[AnyControls]:
    """The cabinet's controls class for game ``name`` (only games the cabinet offers)."""
    from firmware_py.games import registry as controls_registry
    from games.registry import UnknownGame

    if isinstance(name, str):
        try:
            return controls_registry.controls_type(name)
        except UnknownGame:
            pass
    offered = ", ".join(controls_registry.names())
    raise ScenarioError("scenario.game", name, f"one of {offered} (the games this cabinet offers)", source)


def event_types(controls: type[AnyControls]) -> dict[str, type]:
    """Every engine event class of a game, by name: the event dataclasses defined in the
    package of the game's engine (whatever its modules are called)."""
    from games.protocol import Event

    package = controls.engine_type.__module__.rpartition(".")[0]
    out: dict[str, type] = {}
    todo = list(Event.__subclasses__())
    while todo:
        cls = todo.pop()
        todo += cls.__subclasses__()
        if cls.__module__.startswith(f"{package}.") and is_dataclass(cls):
            out[cls.__name__] = cls
    return out


def make_options(controls: type[AnyControls], values: dict[str, Any], source: str = "") -> Any:
    """The game's options dataclass from the scenario's ``[scenario.options]`` (JSON form)."""
    from games.codec import decode

    tp = controls.spec.options_type
    names = {f.name for f in fields(tp)}
    for k in values:
        if k not in names:
            raise ScenarioError(
                f"scenario.options.{k}", values[k], f"an option of {tp.__name__}: {', '.join(sorted(names))}", source
            )
    try:
        return decode(tp, {"type": tp.__name__, **values})
    except (TypeError, ValueError) as e:
        raise ScenarioError("scenario.options", values, f"valid {tp.__name__} values ({e})", source) from e


class _Reader:
    def __init__(self, source: str) -> None:
        self.source = source

    def fail(self, key: str, value: Any, expected: str) -> ScenarioError:
        return ScenarioError(key, value, expected, self.source)

    def table(self, value: Any, key: str, allowed: set[str]) -> dict[str, Any]:
        if not isinstance(value, dict):
            raise self.fail(key, value, "a table")
        for k in value:
            if k not in allowed:
                raise self.fail(f"{key}.{k}", value[k], f"no such key; allowed: {', '.join(sorted(allowed))}")
        return value

    def integer(self, t: dict[str, Any], key: str, name: str, lo: int, hi: int, default: Any = ...) -> int:
        v = t.get(name, default)
        if v is ...:
            raise self.fail(f"{key}.{name}", None, f"an integer from {lo} to {hi} (required)")
        if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
            raise self.fail(f"{key}.{name}", v, f"an integer from {lo} to {hi}")
        return v

    # -- sections ---------------------------------------------------------------------
    def scenario(self, raw: dict[str, Any], path: Path) -> Scenario:
        self.table(raw, "(top level)", TOP_KEYS)
        if "scenario" not in raw:
            raise self.fail("scenario", None, "a [scenario] table with game = ... and seed = ...")
        sc = self.table(raw["scenario"], "scenario", SCENARIO_KEYS)
        game = sc.get("game")
        controls = game_controls(game, self.source)
        assert isinstance(game, str)  # game_controls accepts only the name of an offered game
        seed = self.integer(sc, "scenario", "seed", 0, 2**63 - 1)
        options = sc.get("options", {})
        if not isinstance(options, dict):
            raise self.fail("scenario.options", options, "a table of the game's options")
        make_options(controls, options, self.source)
        spec = controls.spec
        stations_raw = sc.get("stations", list(range(spec.min_players)))
        if (
            not isinstance(stations_raw, list)
            or not all(isinstance(s, int) and not isinstance(s, bool) and 0 <= s <= 3 for s in stations_raw)
            or len(set(stations_raw)) != len(stations_raw)
        ):
            raise self.fail("scenario.stations", stations_raw, "a list of distinct station numbers 0-3, in seat order")
        if not spec.min_players <= len(stations_raw) <= spec.max_players:
            raise self.fail(
                "scenario.stations", stations_raw, f"{spec.min_players} to {spec.max_players} stations for {spec.title}"
            )
        config = sc.get("config")
        if config is not None and not isinstance(config, str):
            raise self.fail("scenario.config", config, "a cabinet TOML path, relative to the scenario file")
        start = sc.get("start", "game")
        if start not in STARTS:
            raise self.fail("scenario.start", start, f"one of {', '.join(STARTS)}")
        fps = self.integer(sc, "scenario", "fps", 10, 240, None) if "fps" in sc else None
        tags = sc.get("tags", [])
        if not isinstance(tags, list) or not all(isinstance(t, str) for t in tags):
            raise self.fail("scenario.tags", tags, "a list of strings")
        backends = sc.get("backends", list(BACKENDS))
        if not isinstance(backends, list) or not backends or not all(b in BACKENDS for b in backends):
            raise self.fail("scenario.backends", backends, f"a list from {', '.join(BACKENDS)}")
        name = sc.get("name", path.stem)
        if not isinstance(name, str) or not name:
            raise self.fail("scenario.name", name, "a non-empty string")
        description = sc.get("description", "")
        if not isinstance(description, str):
            raise self.fail("scenario.description", description, "a string")

        start_us = self.integer(sc, "scenario", "start_us", 0, 10**13, 0)
        inputs_raw = raw.get("input", [])
        if not isinstance(inputs_raw, list):
            raise self.fail("input", inputs_raw, "[[input]] tables")
        inputs = [self.input(x, f"input[{i}]", i) for i, x in enumerate(inputs_raw)]
        expects_raw = raw.get("expect", [])
        if not isinstance(expects_raw, list):
            raise self.fail("expect", expects_raw, "[[expect]] tables")
        events = event_types(controls)
        expects = [self.expect(x, f"expect[{i}]", i, events) for i, x in enumerate(expects_raw)]
        for i in inputs:
            if i.at_us < start_us:
                raise self.fail(
                    f"input[{i.index}].at_us", i.at_us, f"a time at or after scenario.start_us ({start_us})"
                )
        for e in expects:
            if e.at_us < start_us:
                raise self.fail(
                    f"expect[{e.index}].at_us", e.at_us, f"a time at or after scenario.start_us ({start_us})"
                )
        last = max(
            [i.at_us + (i.hold_us if i.action == "press" else 0) + i.delay_us for i in inputs]
            + [e.at_us for e in expects]
            + [start_us]
        )
        end_us = self.integer(sc, "scenario", "end_us", 0, 10**13, last + DEFAULT_TAIL_US)
        if end_us < last:
            raise self.fail("scenario.end_us", end_us, f"at least {last} (the last input or checkpoint)")
        inputs.sort(key=lambda i: (i.at_us, i.index))
        expects.sort(key=lambda e: (e.at_us, e.index))
        return Scenario(
            name=name,
            path=path,
            game=game,
            seed=seed,
            options=dict(options),
            stations=tuple(stations_raw),
            config=(path.parent / config)
            if config is not None and not Path(config).is_absolute()
            else (Path(config) if config else None),
            start=start,
            end_us=end_us,
            fps=fps,
            start_us=start_us,
            description=description,
            tags=tuple(tags),
            backends=tuple(backends),
            inputs=tuple(inputs),
            expects=tuple(expects),
            raw=raw,
        )

    def input(self, raw: Any, key: str, index: int) -> Input:
        t = self.table(raw, key, INPUT_KEYS)
        actions = [a for a in INPUT_ACTIONS if a in t]
        if len(actions) != 1:
            raise self.fail(key, sorted(t), f"exactly one of {', '.join(INPUT_ACTIONS)}")
        action = actions[0]
        at_us = self.integer(t, key, "at_us", 0, 10**13)
        value = t[action]
        station = self.integer(t, key, "station", 0, 3) if "station" in t else None
        common: dict[str, Any] = {"at_us": at_us, "action": action, "station": station, "index": index}
        if action in ("press", "release", "slap") and station is None:
            raise self.fail(f"{key}.station", None, f"the station (0-3) that does the {action}")
        if action in ("press", "release"):
            names = [b.value for b in Button]
            if value not in names:
                raise self.fail(f"{key}.{action}", value, f"a button: {', '.join(names)}")
            hold = self.integer(t, key, "hold_us", 0, 10**10, DEFAULT_HOLD_US) if action == "press" else 0
            self._only(t, key, {"hold_us"} if action == "press" else set())
            return Input(**common, button=Button(value), hold_us=hold)
        if action == "slap":
            if value is True:
                velocity = t.get("velocity")
            elif isinstance(value, int) and not isinstance(value, bool):
                velocity = value
            else:
                raise self.fail(f"{key}.slap", value, "a velocity 1-127, or true (velocity = ... or none)")
            if velocity is not None and (
                isinstance(velocity, bool) or not isinstance(velocity, int) or not 1 <= velocity <= 127
            ):
                raise self.fail(f"{key}.velocity", velocity, "an integer from 1 to 127")
            delay = self.integer(t, key, "delay_us", 0, 10_000_000, 0)
            self._only(t, key, {"velocity", "delay_us"})
            return Input(**common, velocity=velocity, delay_us=delay)
        if action in ("unplug", "replug"):
            if value is not True:
                raise self.fail(f"{key}.{action}", value, "true")
            self._only(t, key, set())
            return Input(**common)
        if action == "garbage":
            if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 1_000_000:
                raise self.fail(f"{key}.garbage", value, "a number of random bytes, 1 to 1000000")
            self._only(t, key, set())
            return Input(**common, count=value)
        if value not in ("on", "off"):
            raise self.fail(f"{key}.service", value, '"on" or "off"')
        self._only(t, key, set())
        return Input(**common, on=value == "on")

    def _only(self, t: dict[str, Any], key: str, allowed: set[str]) -> None:
        for k in ("hold_us", "velocity", "delay_us"):
            if k in t and k not in allowed:
                raise self.fail(f"{key}.{k}", t[k], "not used with this input")

    def expect(self, raw: Any, key: str, index: int, events: dict[str, type]) -> Expect:
        t = self.table(raw, key, EXPECT_KEYS)
        at_us = self.integer(t, key, "at_us", 0, 10**13)
        kinds = [k for k in EXPECT_KINDS if k in t]
        if not kinds:
            raise self.fail(key, sorted(t), f"at least one of {', '.join(EXPECT_KINDS)}")
        from_us = self.integer(t, key, "from_us", 0, at_us, 0)
        t_us = self.integer(t, key, "t_us", from_us, at_us) if "t_us" in t else None
        count = self.integer(t, key, "count", 0, 100_000) if "count" in t else None
        if t_us is not None and "event" not in t:
            raise self.fail(f"{key}.t_us", t_us, "an event = {...} in the same checkpoint")
        if count is not None and "event" not in t and "cue" not in t:
            raise self.fail(f"{key}.count", count, 'an event = {...} or a cue = "<name>" in the same checkpoint')
        out: dict[str, Any] = {}
        if "event" in t:
            out["event"] = self.event(t["event"], f"{key}.event", events)
        if "events" in t:
            seq = t["events"]
            if not isinstance(seq, list) or not seq:
                raise self.fail(f"{key}.events", seq, "a non-empty list of event tables, in the order they must happen")
            out["events"] = tuple(self.event(e, f"{key}.events[{j}]", events) for j, e in enumerate(seq))
        if "led" in t:
            out["led"] = self.led(t["led"], f"{key}.led")
        if "private" in t:
            out["private"] = self.private(t["private"], f"{key}.private")
        if "screen" in t:
            out["screen"] = self.screen(t["screen"], f"{key}.screen")
        if "scene" in t:
            if t["scene"] not in ("Attract", "Select", "Join", "Options", "Play", "Result", "ServiceMenu"):
                raise self.fail(
                    f"{key}.scene", t["scene"], "a scene: Attract, Select, Join, Options, Play, Result or ServiceMenu"
                )
            out["scene"] = t["scene"]
        if "link" in t:
            lk = self.table(
                t["link"], f"{key}.link", {"connected", "garbage_bytes_min", "bad_frames_min", "reconnects_min"}
            )
            if "connected" in lk and not isinstance(lk["connected"], bool):
                raise self.fail(f"{key}.link.connected", lk["connected"], "true or false")
            for k in ("garbage_bytes_min", "bad_frames_min", "reconnects_min"):
                if k in lk:
                    self.integer(lk, f"{key}.link", k, 0, 10**9)
            out["link"] = dict(lk)
        if "cue" in t:
            if not isinstance(t["cue"], str) or not re.fullmatch(r"[a-z0-9_]+(\.[0-9])?", t["cue"]):
                raise self.fail(
                    f"{key}.cue", t["cue"], 'a cue\'s name, e.g. "bell" or "hit_won.1" (make sounds lists them)'
                )
            out["cue"] = t["cue"]
        if "paused" in t:
            if not isinstance(t["paused"], bool):
                raise self.fail(f"{key}.paused", t["paused"], "true or false")
            out["paused"] = t["paused"]
        name = t.get("name", f"{key} @ {at_us} µs: {', '.join(kinds)}")
        if not isinstance(name, str):
            raise self.fail(f"{key}.name", name, "a string")
        return Expect(at_us=at_us, name=name, from_us=from_us, t_us=t_us, count=count, index=index, **out)

    def event(self, raw: Any, key: str, events: dict[str, type]) -> dict[str, Any]:
        if not isinstance(raw, dict) or not isinstance(raw.get("type"), str):
            raise self.fail(key, raw, 'a table with type = "<EventName>" and any fields to match')
        cls = events.get(raw["type"])
        if cls is None:
            raise self.fail(f"{key}.type", raw["type"], f"an event of this game: {', '.join(sorted(events))}")
        names = {f.name for f in fields(cls)}
        for k in raw:
            if k != "type" and k not in names:
                raise self.fail(
                    f"{key}.{k}", raw[k], f"a field of {cls.__name__}: {', '.join(sorted(names)) or '(none)'}"
                )
        return dict(raw)

    def led(self, raw: Any, key: str) -> dict[str, Any]:
        t = self.table(raw, key, {"station", "lit", "level", "segments", "tolerance"})
        self.integer(t, key, "station", 0, 3)
        given = [k for k in ("lit", "level", "segments") if k in t]
        if len(given) != 1:
            raise self.fail(
                key, sorted(t), "station and exactly one of lit (segments on), level (0..1), segments (10 levels)"
            )
        if "lit" in t:
            self.integer(t, key, "lit", 0, 10)
        if "level" in t and not (
            isinstance(t["level"], (int, float)) and not isinstance(t["level"], bool) and 0 <= t["level"] <= 1
        ):
            raise self.fail(f"{key}.level", t["level"], "a number from 0 to 1")
        if "segments" in t:
            seg = t["segments"]
            if (
                not isinstance(seg, list)
                or len(seg) != 10
                or not all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in seg)
            ):
                raise self.fail(f"{key}.segments", seg, "10 numbers 0..1, bottom segment first")
        return dict(t)

    def private(self, raw: Any, key: str) -> dict[str, Any]:
        t = self.table(raw, key, {"station", "contains", "lacks", "png"})
        self.integer(t, key, "station", 0, 3)
        if not any(k in t for k in ("contains", "lacks", "png")):
            raise self.fail(key, sorted(t), "station and contains, lacks and/or png")
        for k in ("contains", "lacks"):
            v = t.get(k)
            if v is not None and not (
                isinstance(v, str) or (isinstance(v, list) and all(isinstance(x, str) for x in v))
            ):
                raise self.fail(f"{key}.{k}", v, "a string or a list of strings")
        if "png" in t and not isinstance(t["png"], str):
            raise self.fail(f"{key}.png", t["png"], "a PNG path relative to the scenario file")
        return dict(t)

    def screen(self, raw: Any, key: str) -> dict[str, Any]:
        t = self.table(raw, key, {"png", "tolerance", "max_mismatch"})
        if not isinstance(t.get("png"), str):
            raise self.fail(f"{key}.png", t.get("png"), "a golden PNG path relative to the scenario file")
        self.integer(t, key, "tolerance", 0, 255, 0)
        mm = t.get("max_mismatch", 0.0)
        if isinstance(mm, bool) or not isinstance(mm, (int, float)) or not 0 <= mm <= 1:
            raise self.fail(f"{key}.max_mismatch", mm, "a fraction of pixels from 0 to 1")
        return dict(t)

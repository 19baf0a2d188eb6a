"""Issue 30, "a newcomer finishes every game without help": a player who knows nothing
but what the screens say.  From the attract screen it presses only keys that the main
screen or its own station's private display names in the words they drew (the main
screen's layout record, the OLED image's text: never the engine's legal actions), and
plays until a result is on screen.

Which named key it presses is its own choice: the game it came to play on the chooser,
START when one is named (a person wanting to get on presses the key that says "go"),
else a named key at random (seeded).  It looks every :data:`LOOK_US` of game time, as a
person reads and presses, not at machine speed."""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path

from display.layout import LayoutRecord
from display.private import image_text
from display.renderer import Renderer
from firmware_py.runtime.cabinet import Cabinet
from firmware_py.runtime.scenes import Options, Play, Result, Select
from firmware_py.runtime.store import Store
from firmware_py.runtime.virtual_time import VirtualTimeDriver
from hal.clock import ManualClock
from hal.config import load_config
from hal.events import Button
from hal.sim import SimCabinet

FRAME_US = 100_000
"""Ten frames a second: every reveal is flipped and read; quick to step."""
LOOK_US = 400_000
"""A newcomer reads and presses about twice a second."""
SLAP = "SLAP"
"""The slap pad, when a screen says to slap it."""

_LETTERS = "ABCDEF"
_RANGE = re.compile(r"(?<![\w])([A-F])\s*[-–]\s*([A-F])(?![\w])")
_SLASHED = re.compile(r"(?<![\w])([A-F])\s*/\s*([A-F])(?![\w])")
_START = re.compile(r"\bSTART\b")
_SLAP = re.compile(r"\bslap", re.IGNORECASE)
_ONE = re.compile(
    r"(?<![^\s·(/])([A-F])(?=$|\s*[:=,)]|\s+(?:to|or|and)\s|\s+[A-Z][a-z]|\s+[A-Z]{2})"
    r"|(?<![^\s·(/])([B-F])(?=\s+[a-z])"
)
"""A single letter names a key when the words make it one: a word of its own ("A" on a key
chip, "press A") before ":", "=", "to", "or", a capitalised word ("F Dodge") or the end;
B–F also before any word ("B rock"); never the article ("A duel: no rival yet")."""


def named_keys(lines: tuple[str, ...] | list[str]) -> frozenset[str]:
    """The keys (A–F, START, SLAP) that these drawn strings name."""
    keys: set[str] = set()
    for line in lines:
        for a, b in _RANGE.findall(line):
            keys.update(_LETTERS[_LETTERS.index(a) : _LETTERS.index(b) + 1])
        for a, b in _SLASHED.findall(line):
            keys.update((a, b))
        for m in _ONE.finditer(line):
            keys.add(m[1] or m[2])
        if _START.search(line):
            keys.add("START")
        if _SLAP.search(line):
            keys.add(SLAP)
    return frozenset(keys)


@dataclass(frozen=True)
class Look:
    """What one station had in front of it at one moment, and what it pressed."""

    now_us: int
    station: int
    scene: str
    main: tuple[str, ...]
    private: tuple[str, ...]
    pressed: str | None


@dataclass
class HintPlayer:
    """Plays ``game`` from the attract screen at a simulated cabinet, station 0 a person
    following hints; the other seats computers, if the screens let it seat them."""

    game: str
    seed: int
    data_dir: Path
    config_path: str | None = None
    people: tuple[int, ...] = (0,)
    looks: list[Look] = field(default_factory=list)
    dueled: bool = False
    prepare: Callable[[Cabinet], None] | None = None
    main_in_play: bool = True
    """False: in a game it reads only its own private display (what that display must say alone)."""
    wish: tuple[str, str] | None = None
    """A rule it wants on the rules screen (its name, the value as drawn): it changes that
    rule with the key the screen names for it until the value it wants is drawn."""

    def play(self, limit_us: int) -> Cabinet:
        """Play to a result or ``limit_us`` of game time; the cabinet as it ended."""
        cfg = replace(load_config(self.config_path), data_dir=self.data_dir)
        clock = ManualClock(1_000_000)
        sim = SimCabinet(cfg, clock)
        cabinet = Cabinet(cfg, sim, clock, Store(None), log=lambda _line: None, seed=self.seed)
        if self.prepare is not None:
            self.prepare(cabinet)
        rng = random.Random(self.seed)
        renderer = Renderer()
        driver = VirtualTimeDriver(cabinet, FRAME_US, render=False)
        end = clock.now_us() + limit_us

        def flipped(t_us: int, is_frame: bool) -> None:  # a display that shows every frame it is given
            if is_frame:
                cabinet.scene.frame_shown(t_us, t_us)

        try:
            while clock.now_us() < end and not self._finished(cabinet):
                driver.run_until(clock.now_us() + LOOK_US, after_step=flipped)
                record = LayoutRecord(contrast=False)
                renderer.layout(cabinet.scene.screen(clock.now_us()), record)
                main = tuple(d.what for d in record.texts)
                if not self.main_in_play and isinstance(cabinet.scene, Play):
                    main = ()
                for station in self.people:
                    image = sim.private[station].image
                    private = (image_text(image) or ()) if image is not None else ()
                    key = self._choose(cabinet, rng, main, private)
                    self.looks.append(Look(clock.now_us(), station, type(cabinet.scene).__name__, main, private, key))
                    if key == SLAP:
                        sim.slap(station, clock.now_us() + 1_000)
                    elif key is not None:
                        sim.press(station, Button[key], clock.now_us() + 1_000, hold_us=60_000)
        finally:
            sim.close()
        return cabinet

    def _choose(
        self, cabinet: Cabinet, rng: random.Random, main: tuple[str, ...], private: tuple[str, ...]
    ) -> str | None:
        keys = named_keys(main) | named_keys(private)
        if not keys:
            return None
        scene = cabinet.scene
        if isinstance(scene, Select):  # the game it came for: next until it is the one chosen
            chosen = cabinet.ctx.games[scene.cursor].spec.title
            if chosen != self.game:
                return "B" if "B" in keys else None
            return "START" if "START" in keys else None
        if (typed := _typing(private, keys)) is not None:
            return typed
        if "C" in keys and any(line.endswith("C practice") for line in private):  # Punch Cards: a duel with no rival
            return "C"
        if isinstance(scene, Options) and self.wish is not None:
            return self._wished(main, keys)
        if "START" in keys and rng.random() < 0.5:
            return "START"
        return rng.choice(sorted(keys))

    def _finished(self, cabinet: Cabinet) -> bool:
        """A result on screen: the result scene, or (Punch Cards) back at the desks from a duel."""
        scene = type(cabinet.scene).__name__
        if scene == "DuelScene":
            self.dueled = True
        return isinstance(cabinet.scene, Result) or (self.dueled and scene == "Lobby")

    def _wished(self, main: tuple[str, ...], keys: frozenset[str]) -> str | None:
        """On the rules screen: the rule shown is the name drawn before its value; "next
        rule" until it is the wished one, "change" until its value is, then START."""
        assert self.wish is not None
        rule, value = self.wish
        if rule not in main:
            return _key_for(main, "next rule", keys)
        if main[main.index(rule) + 1] != value:
            return _key_for(main, "change", keys)
        return "START" if "START" in keys else None

    def pressed(self) -> Iterator[Look]:
        return (look for look in self.looks if look.pressed is not None)


def _key_for(main: tuple[str, ...], words: str, keys: frozenset[str]) -> str | None:
    """The key whose chip is drawn just before ``words`` (a key legend: "A", "next rule")."""
    for chip, said in zip(main, main[1:]):
        if said == words and chip in keys:
            return chip
    return None


NAME_LENGTH = 3
PIN = "ABCD"


def _typing(private: tuple[str, ...], keys: frozenset[str]) -> str | None:
    """Punch Cards' desk, as a person with a name and a PIN in mind types them: the keys
    its private display names, letters until the name has :data:`NAME_LENGTH`, then START;
    the PIN's letters, then START (None: no name or PIN asked for)."""
    if not private:
        return None
    if private[0].startswith(("NEW PIN", "REPEAT PIN", "PIN for")) and len(private) > 1:
        filled = private[1].split()[0]
        nxt = PIN[filled.index("_")] if "_" in filled else "START"
        return nxt if nxt in keys else None
    if private[0].endswith("_") and any("START done" in line for line in private):
        if len(private[0]) - 1 >= NAME_LENGTH:
            return "START"
        return random.Random(private[0]).choice([k for k in "ABCD" if k in keys])
    if private[0].endswith("_") and any("START back" in line for line in private):
        return random.Random(len(private[0])).choice([k for k in "ABCDEF" if k in keys])
    return None

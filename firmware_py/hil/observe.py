"""What a scenario run saw: every input the cabinet received, every engine event with the
µs the session applied it, LED bar levels as they changed, what each private display was
given, sound cues played, scene changes and the cabinet's log — all in one time-ordered journal that the
checks read and the JSONL report writes out.

Private displays are images; their text is what :mod:`display.private` says it drew on
them (:func:`display.private.image_text`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from games.codec import encode
from hal.events import ButtonEvent, InputEvent, PadLinkEvent, ServiceEvent, SlapEvent


@dataclass
class Observed:
    """One line of the run's journal (and of the JSONL log)."""

    t_us: int
    kind: str
    data: dict[str, Any]

    def as_json(self) -> dict[str, Any]:
        return {"t_us": self.t_us, "kind": self.kind, **self.data}


def input_json(ev: InputEvent) -> dict[str, Any]:
    if isinstance(ev, ButtonEvent):
        return {
            "input": "press" if ev.pressed else "release",
            "station": ev.station,
            "button": ev.button.value,
            "stamp_us": ev.t_us,
        }
    if isinstance(ev, SlapEvent):
        return {
            "input": "slap",
            "station": ev.station,
            "velocity": ev.velocity,
            "source": ev.source,
            "stamp_us": ev.t_us,
        }
    if isinstance(ev, PadLinkEvent):
        return {
            "input": "replug" if ev.connected else "unplug",
            "source": ev.source,
            "detail": ev.detail,
            "stamp_us": ev.t_us,
        }
    if isinstance(ev, ServiceEvent):
        return {"input": "service", "on": ev.on, "stamp_us": ev.t_us}
    return {"input": type(ev).__name__}


@dataclass
class EngineEvent:
    t_us: int
    """The µs the session applied the action that caused it (its stamp for timed games)."""
    step_us: int
    """The loop step it happened in (after the settle window for timed games)."""
    event: Any
    encoded: dict[str, Any]


@dataclass
class Recorder:
    """Collects observations; the backend calls it, the checks and reports read it."""

    journal: list[Observed] = field(default_factory=list)
    events: list[EngineEvent] = field(default_factory=list)
    inputs_seen: list[tuple[int, InputEvent]] = field(default_factory=list)
    leds: dict[int, tuple[float, ...]] = field(default_factory=dict)
    led_changes: int = 0
    private_text: dict[int, tuple[str, ...] | None] = field(default_factory=dict)
    scene: str = ""
    now_us: int = 0
    cues: list[tuple[int, str]] = field(default_factory=list)
    """Every sound cue played: (µs, name as played, e.g. ``hit_won.1``)."""

    def log(self, line: str) -> None:
        self.journal.append(Observed(self.now_us, "log", {"line": line}))

    def input(self, now_us: int, ev: InputEvent) -> None:
        self.inputs_seen.append((now_us, ev))
        self.journal.append(Observed(now_us, "input", input_json(ev)))

    def engine_event(self, t_us: int, ev: Any) -> None:
        enc = encode(ev)
        self.events.append(EngineEvent(t_us, self.now_us, ev, enc))
        self.journal.append(Observed(t_us, "event", {"step_us": self.now_us, "event": enc}))

    def led_levels(self, now_us: int, station: int, levels: tuple[float, ...]) -> None:
        if self.leds.get(station) != levels:
            self.leds[station] = levels
            self.led_changes += 1
            lit = sum(1 for v in levels if v > 0)
            self.journal.append(Observed(now_us, "led", {"station": station, "lit": lit, "segments": list(levels)}))

    def private(self, now_us: int, station: int, text: tuple[str, ...] | None) -> None:
        if self.private_text.get(station, ()) != text:
            self.private_text[station] = text
            self.journal.append(Observed(now_us, "private", {"station": station, "text": list(text) if text else None}))

    def scene_now(self, now_us: int, name: str, detail: dict[str, Any] | None = None) -> None:
        if name != self.scene:
            self.scene = name
            self.journal.append(Observed(now_us, "scene", {"scene": name, **(detail or {})}))

    def cue(self, t_us: int, name: str) -> None:
        self.cues.append((t_us, name))
        self.journal.append(Observed(t_us, "cue", {"cue": name}))

    def note(self, now_us: int, kind: str, **data: Any) -> None:
        self.journal.append(Observed(now_us, kind, data))

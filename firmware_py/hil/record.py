"""``ringside run --record FILE``: a real session at the cabinet becomes a scenario file,
so a fault seen at the cabinet becomes a test.

The recorder watches the hardware's poll (every debounced press and release, every slap
with its stamp and arrival, slap-pad link changes, the SERVICE key) and the game session
(every engine event with the µs it was applied).  When a game starts it notes the game,
options, seed and stations; from then on inputs are written relative to the game's start,
so the scenario starts the game directly.  Each engine event becomes a checkpoint with
its exact µs; the LED bars, private displays and scene at the end become checkpoints too.
Edit the result down to what matters for the fault, and keep it under ``tests/hil/``.

One file per game: the first game goes to ``FILE``, later ones to ``FILE-2.toml``, ...

While the games are played, ``FILE`` with suffix ``.events.jsonl`` gets every input and
engine event as it happens (µs since that game started), flushed line by line: a test
rig reads it as the cabinet's event log (``event_log`` in the rig config, docs/hil.md),
and after a crash it is what survives.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from display.private import image_text
from firmware_py.hil.observe import input_json
from firmware_py.hil.writer import ScenarioWriter, comment_block
from games.codec import encode
from hal.events import ButtonEvent, PadLinkEvent, ServiceEvent, SlapEvent

TAIL_US = 500_000


@dataclass
class _Game:
    session: Any
    t0: int
    inputs: list[tuple[int, int, Any]] = field(default_factory=list)  # (now, stamp, event)
    events: list[tuple[int, int, Any]] = field(default_factory=list)  # (applied, step, event)
    ended_us: int | None = None
    resumed_actions: int = 0
    final_leds: list[tuple[float, ...]] = field(default_factory=list)
    final_text: dict[int, tuple[str, ...] | None] = field(default_factory=dict)


class SessionRecorder:
    def __init__(
        self,
        cabinet: Any,
        hardware: Any,
        path: str | Path,
        log: Callable[[str], None] = logging.getLogger("ringside").info,
    ) -> None:
        self.cabinet = cabinet
        self.hw = hardware
        self.path = Path(path)
        self.log = log
        self.games: list[_Game] = []
        self._current: _Game | None = None
        self._poll = hardware.poll
        self._show = getattr(hardware, "show_private", None)
        self.private_text: dict[int, tuple[str, ...] | None] = {}
        self.live_path = self.path.with_suffix(".events.jsonl")
        self._live: Any = None
        hardware.poll = self._observed_poll
        if self._show is not None:
            hardware.show_private = self._observed_show

    # -- observing -------------------------------------------------------------------------
    def _observed_poll(self, now_us: int) -> list[Any]:
        events: list[Any] = self._poll(now_us)
        self._follow_scene(now_us)
        g = self._current
        if g is not None:
            for ev in events:
                g.inputs.append((now_us, getattr(ev, "t_us", now_us), ev))
                self._write_live(
                    {
                        "t_us": getattr(ev, "t_us", now_us) - g.t0,
                        "kind": "input",
                        "arrived_us": now_us - g.t0,
                        **input_json(ev),
                    }
                )
        return events

    def _write_live(self, row: dict[str, Any]) -> None:
        if self._live is None:
            self.live_path.parent.mkdir(parents=True, exist_ok=True)
            self._live = self.live_path.open("a", encoding="utf-8")
        self._live.write(json.dumps(row, ensure_ascii=False, default=str) + "\n")
        self._live.flush()

    def _observed_show(self, station: int, image: Any) -> None:
        self.private_text[station] = image_text(image)
        assert self._show is not None
        self._show(station, image)

    def _follow_scene(self, now_us: int) -> None:
        session = self.cabinet.scene.live_session()
        g = self._current
        if g is not None and session is not g.session:
            g.ended_us = now_us
            self._snapshot(g)
            self._current = None
        if session is not None and (self._current is None or self._current.session is not session):
            if any(x.session is session for x in self.games):
                return  # back from the service menu to the same game
            g = _Game(session, self.cabinet.scene.entered_us, resumed_actions=len(session.engine.journal))
            self._write_live(
                {
                    "t_us": 0,
                    "kind": "game",
                    "game": session.controls.spec.name,
                    "id": session.game_id,
                    "seed": session.engine.seed,
                    "stations": list(session.seats),
                }
            )
            for t_us, ev in list(session.recent):
                self._event(g, t_us, t_us, ev)
            session.listeners.append(lambda t_us, ev, g=g: self._event(g, t_us, self.cabinet.clock.now_us(), ev))
            self.games.append(g)
            self._current = g
            self.log(f"[record] recording {session.controls.spec.title} #{session.game_id} from {g.t0} µs")

    def _event(self, g: _Game, applied: int, step: int, ev: Any) -> None:
        g.events.append((applied, step, ev))
        self._write_live({"t_us": applied - g.t0, "kind": "event", "step_us": step - g.t0, "event": encode(ev)})

    def _snapshot(self, g: _Game) -> None:
        """What the LED bars and private displays show as recording of ``g`` stops."""
        g.final_leds = []
        for station in range(len(self.cabinet.config.stations)):
            try:
                g.final_leds.append(tuple(self.hw.led_levels(station)))
            except (AttributeError, IndexError):
                break
        g.final_text = dict(self.private_text)

    # -- writing -----------------------------------------------------------------------------
    def close(self) -> list[Path]:
        """Write one scenario per recorded game; returns the files written."""
        if self._live is not None:
            self._live.close()
            self._live = None
        written = []
        now = self.cabinet.clock.now_us()
        for n, g in enumerate(self.games):
            if g.ended_us is None:
                self._snapshot(g)
            path = (
                self.path if n == 0 else self.path.with_name(f"{self.path.stem}-{n + 1}{self.path.suffix or '.toml'}")
            )
            self.scenario(g, now, path.stem).save(path)
            written.append(path)
            self.log(f"[record] wrote {path}")
        if not self.games:
            self.log("[record] no game was played: nothing recorded")
        return written

    def scenario(self, g: _Game, now_us: int, name: str) -> ScenarioWriter:
        """The scenario of game ``g`` on the cabinet's own clock: it starts at ``start_us``
        (the game's start), so times inside events (stamps, reveals) match on replay, and
        the headless loop's frame grid puts reveals on the same flips."""
        from hal.config import default_config_path

        s = g.session
        engine = s.engine
        t0 = g.t0
        end = g.ended_us if g.ended_us is not None else now_us
        config = self.cabinet.config
        extra: dict[str, Any] = {"stations": list(s.seats), "start_us": t0}
        if config.source and Path(config.source).resolve() != default_config_path().resolve():
            extra["config"] = str(Path(config.source).resolve())
        w = ScenarioWriter(
            name,
            engine.spec.name,
            engine.seed,
            description=f"Recorded at cabinet {config.name}: {engine.spec.title} #{s.game_id}, {' vs '.join(s.names)}",
            **extra,
        )
        lines = [
            "Recorded by `ringside run --record`: times are µs on the cabinet's clock; the game started at start_us.",
            "Every engine event is a checkpoint at the µs it was applied; edit down to what matters.",
        ]
        if g.resumed_actions:
            lines.append(
                f"WARNING: this game was resumed after a power cut with {g.resumed_actions} actions "
                "already played; they are not in this file, so it will not replay the same."
            )
        w.preamble = comment_block(lines)
        opts = encode(engine.options)
        opts.pop("type", None)
        w.option(**{k: v for k, v in opts.items() if v is not None})
        self._write_inputs(w, g, t0)
        last = t0
        for applied, step, ev in g.events:
            if applied < t0:
                continue
            enc = {k: v for k, v in encode(ev).items() if v is not None}
            w.expect(max(step, applied), event=enc, t_us=applied, from_us=applied)
            last = max(last, step)
        at = max(end, last)
        for station, levels in enumerate(g.final_leds):
            w.expect(at, led={"station": station, "lit": sum(1 for v in levels if v > 0)})
            text = g.final_text.get(station)
            if text:
                w.expect(at, private={"station": station, "contains": [line for line in text if line.strip()][:3]})
        if g.ended_us is None:
            w.expect(at, scene=type(self.cabinet.scene).__name__)
        w.head["end_us"] = at + TAIL_US
        return w

    def _write_inputs(self, w: ScenarioWriter, g: _Game, t0: int) -> None:
        down: dict[tuple[int, Any], tuple[int, list[Any]]] = {}
        pending: list[tuple[int, dict[str, Any]]] = []
        for now, stamp, ev in g.inputs:
            if isinstance(ev, ButtonEvent):
                if stamp < t0:
                    continue
                key = (ev.station, ev.button)
                if ev.pressed:
                    item: dict[str, Any] = {"station": ev.station, "press": ev.button.value, "hold_us": 0}
                    pending.append((stamp, item))
                    down[key] = (stamp, [item])
                elif key in down:
                    pressed_at, (item,) = down.pop(key)
                    item["hold_us"] = stamp - pressed_at
            elif isinstance(ev, SlapEvent):
                if stamp < t0:
                    continue
                item = {"station": ev.station, "slap": ev.velocity if ev.velocity is not None else True}
                if now > stamp:
                    item["delay_us"] = now - stamp
                pending.append((stamp, item))
            elif isinstance(ev, PadLinkEvent):
                pending.append((max(t0, now), {"replug" if ev.connected else "unplug": True}))
            elif isinstance(ev, ServiceEvent):
                pending.append((max(t0, stamp), {"service": "on" if ev.on else "off"}))
        for at, item in pending:
            w.input(at, **item)

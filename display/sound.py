"""The cabinet's speaker: every cue rendered before play, played by kind on its own
channels, at the operator's volumes.

Cues come from :mod:`display.audio.scenes` (the cabinet's) and each game's
``display/games/<name>/sounds.py`` (found by name through the games registry).  An
operator may drop a recorded ``<name>.wav`` (or ``<name>.<station>.wav`` for one
station's variant) into the configured folder: it replaces that cue, levelled like the
synthesised ones so the mix keeps its headroom.  Rendering happens once per process
(cached), at start-up, never on the main loop.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path

from display.audio.cues import Cue, GameSounds, Kind, variant
from display.audio.mixer import ChannelPlan, level
from display.audio.output import Output, Silent, read_wav
from display.audio.scenes import CABINET_CUES
from display.audio.synth import RATE, Wave
from games import registry as games_registry

_rendered: dict[tuple[Cue, int], Wave] = {}
"""Levelled renders by (cue, station): a process renders each once."""


def render(cue: Cue, station: int = 0) -> Wave:
    key = (cue, station)
    if key not in _rendered:
        _rendered[key] = level(cue.recipe(station), cue.kind)
    return _rendered[key]


SILENT_GAME = GameSounds(cues={})
"""A game whose folder has no ``sounds.py``: it plays, silently (the cabinet's scenes
still sound)."""


def game_sounds(game: str) -> GameSounds:
    """Game ``game``'s sound design: ``display/games/<name>/sounds.py``'s ``SOUNDS``."""
    package = games_registry.game_module("display.games", game).__name__
    try:
        module = importlib.import_module(f"{package}.sounds")
    except ModuleNotFoundError as e:
        if e.name != f"{package}.sounds":
            raise
        return SILENT_GAME
    found = getattr(module, "SOUNDS", None)
    if not isinstance(found, GameSounds):
        raise TypeError(f"display/games/{game}/sounds.py: SOUNDS must be a GameSounds")
    return found


def all_cues(games: Iterable[str]) -> dict[str, Cue]:
    """The cabinet's cues and every game's, by name; two games may not claim one name
    for different cues (a game's cues are named after it where they differ)."""
    cues = dict(CABINET_CUES)
    for g in games:
        for name, cue in game_sounds(g).cues.items():
            if name in cues and cues[name] is not cue:
                raise ValueError(f"cue {name!r} of {g} is also another cue: name it {g}_{name}")
            cues[name] = cue
    return cues


def played_names(cues: Mapping[str, Cue], stations: int) -> dict[str, Cue]:
    """Every name a cue plays under (a per-station cue once per station)."""
    out: dict[str, Cue] = {}
    for name, cue in cues.items():
        if cue.per_station:
            out.update({variant(name, s): cue for s in range(stations)})
        else:
            out[name] = cue
    return out


class Speaker:
    """The cues of ``games`` and the cabinet, rendered (or recorded ones from ``folder``),
    played on ``output``.  :attr:`listeners` hear every cue that plays (the HIL recorder)."""

    def __init__(
        self,
        games: Iterable[str],
        stations: int,
        output: Output | None = None,
        folder: Path | None = None,
        log: Callable[[str], None] = lambda _line: None,
    ) -> None:
        self.log = log
        self.stations = stations
        self.cues = all_cues(games)
        self.names = played_names(self.cues, stations)
        self.output: Output = output if output is not None else Silent()
        self.plan = ChannelPlan()
        self.volumes: dict[Kind, float] = dict.fromkeys(Kind, 1.0)
        self.muted = False
        self.listeners: list[Callable[[int, str], None]] = []
        self.recent: list[tuple[int, str]] = []
        """The latest cues played: (µs, name), newest last."""
        self.waves = self._render(folder)
        self.lengths_us = {n: round(len(w) * 1e6 / RATE) for n, w in self.waves.items()}
        self.output.load(self.waves, self.plan)

    def _render(self, folder: Path | None) -> dict[str, Wave]:
        waves: dict[str, Wave] = {}
        recorded = {p.stem: p for p in folder.glob("*.wav")} if folder is not None and folder.is_dir() else {}
        used: set[str] = set()
        for name, cue in self.names.items():
            base = name.rsplit(".", 1)[0] if cue.per_station else name
            path = recorded.get(name) or recorded.get(base)
            if path is not None:
                try:
                    waves[name] = level(read_wav(path), cue.kind)
                    used.add(path.stem)
                    continue
                except ValueError as e:
                    self.log(f"sound: {path} not used ({e}); the synthesised cue plays")
            if cue.recorded_only:
                continue
            station = int(name.rsplit(".", 1)[1]) if cue.per_station else 0
            waves[name] = render(cue, station)
        unknown = sorted(set(recorded) - used - set(self.names))
        if unknown:
            self.log(f"sound: {folder} has recordings for no cue: {', '.join(unknown)}.wav (see `make sounds`)")
        return waves

    def kind(self, name: str) -> Kind:
        return self.names[name].kind

    def play(self, name: str, t_us: int) -> bool:
        """Starts cue ``name`` now (``t_us``: the cabinet's clock); False when muted or
        the name is no cue (a log line: a game asked for a cue it did not design)."""
        cue = self.names.get(name)
        if cue is None:
            self.log(f"sound: no cue named {name!r}")
            return False
        if self.muted or self.volumes[cue.kind] <= 0 or name not in self.waves:
            return False  # muted, turned down, or a word nobody recorded
        channel = self.plan.assign(cue.kind, name, t_us, self.lengths_us[name])
        self.output.play(channel, name, self.volumes[cue.kind], t_us)
        self.recent.append((t_us, name))
        del self.recent[:-64]
        for listen in self.listeners:
            listen(t_us, name)
        return True

    def playing(self, kind: Kind, now_us: int) -> str | None:
        """The cue sounding on ``kind``'s newest busy channel (the music playing), if any."""
        busy = [self.plan.slots[i] for i in self.plan.range(kind) if self.plan.slots[i].ends_us > now_us]
        return max(busy, key=lambda s: s.started_us).name if busy else None

    def stop(self, kind: Kind, t_us: int) -> None:
        self.output.stop(self.plan.stop(kind, t_us), t_us)

    def close(self) -> None:
        self.output.close()

"""The cabinet's speaker: every cue rendered before play, played by kind on its own
channels, at the operator's volumes.

Cues come from :mod:`display.audio.scenes` (the cabinet's) and each game's
``display/games/<name>/sounds.py``, which the game declares with its screens
(``GameScreens.sounds``, found by name through the games registry).  An
operator may drop a recorded ``<name>.wav`` (or ``<name>.<station>.wav`` for one
station's variant) into the configured folder: it replaces that cue, levelled like the
synthesised ones so the mix keeps its headroom.  Rendering happens once per process
(cached), at start-up, never on the main loop.
"""

from __future__ import annotations

import os
import zipfile
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any

from display.audio.cues import Cue, GameSounds, Kind, variant
from display.audio.mixer import ChannelPlan, level
from display.audio.output import Output, Silent, read_wav
from display.audio.scenes import CABINET_CUES
from display.audio.synth import RATE, Wave
from display.games.registry import screens

_rendered: dict[tuple[Cue, int], Wave] = {}
"""Levelled renders by (cue, station): a process renders each once."""


def render(cue: Cue, station: int = 0) -> Wave:
    key = (cue, station)
    if key not in _rendered:
        _rendered[key] = level(cue.recipe(station), cue.kind)
    return _rendered[key]


def game_sounds(game: str) -> GameSounds:
    """Game ``game``'s sound design, declared with its screens (``GameScreens.sounds``)."""
    return screens(game).sounds


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


class CueCache:
    """The synthesised cues of one sound design in a folder (``cues-<digest>.npz``), so a
    cabinet renders them once, not at every start.  The digest covers the source of the
    synthesiser, the kit, the cabinet's cues and every game's ``sounds.py`` and numpy's
    version: any change renders afresh (and the old file is deleted)."""

    def __init__(self, folder: Path, games: Iterable[str]) -> None:
        import hashlib
        import sys

        import numpy

        from display import audio

        sources = sorted(Path(audio.__file__).parent.glob("*.py"))
        for g in games:
            module = sys.modules.get(f"display.games.{g}.sounds")
            if module is not None and module.__file__:
                sources.append(Path(module.__file__))
        digest = hashlib.sha256(numpy.__version__.encode())
        for path in sources:
            digest.update(path.name.encode() + path.read_bytes())
        self.folder = folder
        self.path = folder / f"cues-{digest.hexdigest()[:16]}.npz"

    def load(self) -> dict[str, Wave]:
        import numpy as np

        try:
            with np.load(self.path) as data:
                return {name: np.asarray(data[name], dtype=np.float32) for name in data.files}
        except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile):
            return {}  # none yet, or unreadable: rendered afresh

    def save(self, waves: Mapping[str, Wave], log: Callable[[str], None]) -> None:
        import numpy as np

        savez: Any = np.savez  # its keyword arguments are the arrays' names
        tmp = self.folder / f".{os.getpid()}-{self.path.name}"  # one per process: a folder may be shared
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            savez(tmp, **waves)
            tmp.replace(self.path)
            for old in self.folder.glob("cues-*.npz"):
                if old != self.path:
                    old.unlink(missing_ok=True)
        except OSError as e:
            tmp.unlink(missing_ok=True)
            log(f"sound: cues not cached in {self.folder} ({e}); they are rendered at every start")


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
        cache: Path | None = None,
    ) -> None:
        """``cache``: a folder where the synthesised cues are kept between starts (the
        renders of this very design: a changed recipe renders afresh)."""
        self.log = log
        self.stations = stations
        self.games = tuple(games)
        self.cues = all_cues(self.games)
        self.names = played_names(self.cues, stations)
        self.output: Output = output if output is not None else Silent()
        self.plan = ChannelPlan()
        self.volumes: dict[Kind, float] = dict.fromkeys(Kind, 1.0)
        self.muted = False
        self.listeners: list[Callable[[int, str], None]] = []
        self.recent: list[tuple[int, str]] = []
        """The latest cues played: (µs, name), newest last."""
        self.cache = CueCache(cache, self.games) if cache is not None else None
        rendered = len(_rendered)
        self.waves = self._render(folder)
        if self.cache is not None and len(_rendered) > rendered:  # something new was rendered: keep it
            self.cache.save({n: w for n, w in self.waves.items() if n not in self._recorded}, log)
        self.lengths_us = {n: round(len(w) * 1e6 / RATE) for n, w in self.waves.items()}
        self.output.load(self.waves, self.plan)

    def _render(self, folder: Path | None) -> dict[str, Wave]:
        waves: dict[str, Wave] = {}
        recorded = {p.stem: p for p in folder.glob("*.wav")} if folder is not None and folder.is_dir() else {}
        used: set[str] = set()
        self._recorded: set[str] = set()
        cached = self.cache.load() if self.cache is not None else {}
        for name, cue in self.names.items():
            base = name.rsplit(".", 1)[0] if cue.per_station else name
            path = recorded.get(name) or recorded.get(base)
            if path is not None:
                try:
                    waves[name] = level(read_wav(path), cue.kind)
                    used.add(path.stem)
                    self._recorded.add(name)
                    continue
                except ValueError as e:
                    self.log(f"sound: {path} not used ({e}); the synthesised cue plays")
            if cue.recorded_only:
                continue
            station = int(name.rsplit(".", 1)[1]) if cue.per_station else 0
            waves[name] = cached[name] if name in cached else render(cue, station)
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

    def busy_until(self, kind: Kind, now_us: int) -> int | None:
        """When the last of ``kind``'s channels sounding now falls silent (None: none sounds)."""
        return max(
            (s.ends_us for i in self.plan.range(kind) if (s := self.plan.slots[i]).ends_us > now_us), default=None
        )

    def playing(self, kind: Kind, now_us: int) -> str | None:
        """The cue sounding on ``kind``'s newest busy channel (the music playing), if any."""
        busy = [self.plan.slots[i] for i in self.plan.range(kind) if self.plan.slots[i].ends_us > now_us]
        return max(busy, key=lambda s: s.started_us).name if busy else None

    def stop(self, kind: Kind, t_us: int) -> None:
        self.output.stop(self.plan.stop(kind, t_us), t_us)

    def close(self) -> None:
        self.output.close()

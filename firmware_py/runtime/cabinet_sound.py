"""What the cabinet plays when: the scenes' cues (attract music by the operator's policy,
the menus, the game's start, the result's fanfare, the service menu), every game's events
through its own cue map, the volumes per kind and the venue's daily mute window.

The cabinet calls :meth:`CabinetSound.follow` once per step, after the scene has handled
the step's inputs: a changed scene, a new game session (whose events it then hears as
they happen), a menu press.  Everything it does is a dictionary look-up and a
``Channel.play``; nothing waits.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, replace
from functools import partial
from pathlib import Path
from typing import Any

from display.audio.cues import Call, GameSounds, Kind, variant
from display.sound import Speaker, game_sounds
from firmware_py.runtime.scene_kind import SceneKind
from hal.config import ATTRACT_SOUND, SoundConfig

KEPT = "sound-settings.json"
SOUND_CACHE_ENV = "RINGSIDE_SOUND_CACHE"


def sound_cache(data_dir: Path) -> Path:
    """Where the rendered cues are kept between starts: the data folder's ``sound-cache``,
    or ``$RINGSIDE_SOUND_CACHE``, a folder many cabinet processes share: a HIL rig or a
    test run starting cabinets on fresh data folders would otherwise render every cue
    (1.6 s of CPU here) at every start."""
    return Path(os.environ.get(SOUND_CACHE_ENV) or data_dir / "sound-cache")


"""In the data folder: the service menu's sound settings, kept over restarts."""
QUIET = 0.3
"""The attract music's share of the music volume under the "quiet" policy."""
MUTE_CHECK_US = 1_000_000


@dataclass(frozen=True, kw_only=True)
class SoundSettings:
    """What the operator may change in the service menu (it starts as the config says)."""

    volumes: tuple[int, int, int]
    """Percent for effects, voice and music."""
    attract: str
    every_min: int

    @classmethod
    def of(cls, c: SoundConfig) -> SoundSettings:
        return cls(
            volumes=(c.effects_volume, c.voice_volume, c.music_volume), attract=c.attract, every_min=c.attract_every_min
        )

    def volume(self, kind: Kind) -> float:
        return self.volumes[list(Kind).index(kind)] / 100


def in_window(minute: int, start: int, end: int) -> bool:
    """Whether ``minute`` of the day is in [start, end) (a window may cross midnight)."""
    return start <= minute < end if start <= end else minute >= start or minute < end


@dataclass(frozen=True, kw_only=True)
class SceneNow:
    """The scene the cabinet is in, as sound sees it (the cabinet fills it in: this module
    imports no scene, so the context may name it)."""

    scene: object
    """The scene itself (a new object: a new scene)."""
    kind: SceneKind
    """What the scene says it is (``Scene.kind``)."""
    session: Any = None
    """The game session it runs, if any."""
    host: int = 0
    """Join: the station that opened it."""
    joined: tuple[int, ...] = ()
    """Join and options: the stations that have joined so far."""
    cues: tuple[str, ...] = ()
    """Cues the scene itself asks for now (``Scene.sound_cues``)."""
    winner: bool = False
    """Result: somebody won."""


class CabinetSound:
    def __init__(
        self,
        speaker: Speaker,
        config: SoundConfig,
        stations: int,
        log: Callable[[str], None] = lambda _line: None,
        wall: Callable[[], float] = time.time,
        kept: Path | None = None,
    ) -> None:
        """``wall``: Unix seconds, for the mute window in local time; ``kept``: where the
        operator's changes are kept (they win over the config until reset)."""
        self.speaker = speaker
        self.config = config
        self.stations = stations
        self.log = log
        self.wall = wall
        self.kept = kept
        self.settings = self._kept_settings() or SoundSettings.of(config)
        self.apply()
        self._scene: object = None
        self._kind = SceneKind.OTHER
        self._joined: tuple[int, ...] = ()
        self._session: Any = None
        self._attract_at: int | None = None
        """When the attract music is next due (the "every" policy)."""
        self._mute_checked = -MUTE_CHECK_US
        self._last_us = 0
        """The previous step's µs: a new session's events since then are played."""
        self._sounds: dict[str, GameSounds] = {}

    # -- settings ----------------------------------------------------------------------
    def apply(self, settings: SoundSettings | None = None) -> None:
        if settings is not None:
            self.settings = settings
        for kind in Kind:
            self.speaker.volumes[kind] = self.settings.volume(kind)

    def change(self, **what: Any) -> None:
        """The operator's change (the service menu's Sound page): logged, and kept."""
        new = replace(self.settings, **what)
        if new.attract not in ATTRACT_SOUND:
            raise ValueError(f"attract policy {new.attract!r}: one of {', '.join(ATTRACT_SOUND)}")
        self.apply(new)
        self._attract_at = None
        self.log(f"sound settings: volumes {'/'.join(map(str, new.volumes))} %, attract {self.describe_attract()}")
        self._keep(asdict(new))

    def reset(self) -> None:
        """Back to the config's settings; the kept ones are forgotten."""
        self.apply(SoundSettings.of(self.config))
        self._attract_at = None
        self._keep(None)
        self.log("sound settings: back to the config's")

    @property
    def changed_here(self) -> bool:
        """The settings differ from the config's (the operator changed them)."""
        return self.settings != SoundSettings.of(self.config)

    def _keep(self, data: dict[str, Any] | None) -> None:
        if self.kept is None:
            return
        try:
            if data is None:
                self.kept.unlink(missing_ok=True)
                return
            tmp = self.kept.with_suffix(".tmp")
            tmp.write_text(json.dumps(data))
            os.replace(tmp, self.kept)
        except OSError as e:
            self.log(f"sound settings not kept ({self.kept}: {e}); they last until the cabinet restarts")

    def _kept_settings(self) -> SoundSettings | None:
        if self.kept is None or not self.kept.exists():
            return None
        try:
            raw = json.loads(self.kept.read_text())
            kept = SoundSettings(
                volumes=tuple(int(v) for v in raw["volumes"]),  # type: ignore[arg-type]
                attract=str(raw["attract"]),
                every_min=int(raw["every_min"]),
            )
            if len(kept.volumes) != 3 or kept.attract not in ATTRACT_SOUND or not 1 <= kept.every_min <= 24 * 60:
                raise ValueError("out of range")
            if not all(0 <= v <= 100 for v in kept.volumes):
                raise ValueError("a volume out of 0-100")
        except (OSError, ValueError, KeyError, TypeError) as e:
            self.log(f"sound settings in {self.kept} not used ({e}); the config's apply")
            return None
        self.log(f"sound settings changed in the service menu ({self.kept}) apply over the config's")
        return kept

    @property
    def device(self) -> str:
        return self.speaker.output.name

    def describe_attract(self) -> str:
        s = self.settings
        return {"silent": "silent", "quiet": "quiet music", "every": f"music every {s.every_min} min"}[s.attract]

    # -- what plays ----------------------------------------------------------------------
    def cue(self, name: str, now_us: int, seat: int | None = None, stations: Sequence[int] = ()) -> bool:
        """Plays ``name`` (seat ``seat``'s variant, ``stations`` mapping seats to stations)."""
        if seat is not None and name in self.speaker.cues and self.speaker.cues[name].per_station:
            station = stations[seat] if seat < len(stations) else seat
            if station >= self.stations:
                return False
            name = variant(name, station)
        return self.speaker.play(name, now_us)

    def call(self, c: Call, now_us: int, stations: Sequence[int]) -> None:
        if c.seat is not None and c.otherwise is not None:
            station = stations[c.seat] if c.seat < len(stations) else c.seat
            if station >= self.stations:  # the computer's seat of a practice game
                self.speaker.play(c.otherwise, now_us)
                return
        self.cue(c.cue, now_us, c.seat, stations)

    def game_event(self, session: Any, t_us: int, event: Any) -> None:
        """An engine event of ``session``: the cues its game's map names."""
        game = session.controls.spec.name
        if game not in self._sounds:
            self._sounds[game] = game_sounds(game)
        for c in self._sounds[game].calls(event):
            self.call(c, t_us, session.seats)

    def follow(self, now: SceneNow, now_us: int, pressed: bool = False) -> None:
        """After the cabinet's step: the scene it is in now; ``pressed``: a button went
        down during the step."""
        if now_us - self._mute_checked >= MUTE_CHECK_US:
            self._mute_checked = now_us
            self._mute_window(now_us)
        session = now.session
        if session is not None and session is not self._session:
            self._session = session
            if now.scene is not self._scene:
                self.speaker.stop(Kind.MUSIC, now_us)
                self.cue("fight", now_us)
            for t, ev in list(session.recent):  # what it said while starting, this step
                if t >= self._last_us:
                    self.game_event(session, t, ev)
            session.listeners.append(partial(self.game_event, session))
        joining = self._kind is SceneKind.JOIN and now.kind in (SceneKind.JOIN, SceneKind.OPTIONS)
        new_joiners = [s for s in now.joined if s not in self._joined and s != now.host] if joining else []
        for station in new_joiners:
            self.cue("join", now_us, seat=0, stations=(station,))
        if now.scene is not self._scene:
            self._entered(self._kind, now, now_us)
            self._scene, self._kind = now.scene, now.kind
        elif new_joiners:
            pass
        elif pressed and now.kind.is_menu:
            self.cue("menu_move", now_us)
        self._joined = now.joined
        for name in now.cues:
            self.cue(name, now_us)
        if now.kind is SceneKind.ATTRACT:
            self._attract(now_us)
        self._last_us = now_us

    def _entered(self, old: SceneKind, new: SceneNow, now_us: int) -> None:
        if old is SceneKind.ATTRACT is not new.kind:
            self.speaker.stop(Kind.MUSIC, now_us)
        if new.kind is SceneKind.SERVICE:
            if old is not SceneKind.SERVICE:
                self.speaker.stop(Kind.MUSIC, now_us)
                self.cue("service", now_us)
        elif new.kind in (SceneKind.SELECT, SceneKind.OPTIONS):
            self.cue("menu_pick", now_us)
        elif new.kind is SceneKind.JOIN:
            self.cue("join", now_us, seat=0, stations=(new.host,))
        elif new.kind is SceneKind.RESULT:
            self.cue("fanfare" if new.winner else "no_winner", now_us)
        elif new.kind is SceneKind.ATTRACT:
            self._attract_at = now_us if self.settings.attract != "silent" else None

    def attract_due(self, now_us: int) -> int | None:
        """When :meth:`follow` next starts the attract music by itself (its loop ending
        under the "quiet" policy, its turn under "every"); None: not on a timer."""
        if self.settings.attract == "quiet":
            return self.speaker.busy_until(Kind.MUSIC, now_us)
        return self._attract_at if self.settings.attract == "every" else None

    def _attract(self, now_us: int) -> None:
        policy = self.settings.attract
        if policy == "silent":
            return
        if self.speaker.playing(Kind.MUSIC, now_us) is not None:
            return
        if policy == "quiet":
            full = self.speaker.volumes[Kind.MUSIC]
            self.speaker.volumes[Kind.MUSIC] = full * QUIET
            self.speaker.play("attract_loop", now_us)
            self.speaker.volumes[Kind.MUSIC] = full
        elif self._attract_at is None:
            self._attract_at = now_us + self.settings.every_min * 60_000_000
        elif now_us >= self._attract_at:
            self.speaker.play("attract_loop", now_us)
            self._attract_at = now_us + self.settings.every_min * 60_000_000

    def _mute_window(self, now_us: int) -> None:
        c = self.config
        if c.mute_from is None or c.mute_until is None:
            return
        t = time.localtime(self.wall())
        muted = in_window(t.tm_hour * 60 + t.tm_min, c.mute_from, c.mute_until)
        if muted != self.speaker.muted:
            self.speaker.muted = muted
            if muted:
                for kind in Kind:
                    self.speaker.stop(kind, now_us)
            self.log(
                f"sound {'muted' if muted else 'back on'}: the venue's mute window is {_hhmm(c.mute_from)}-{_hhmm(c.mute_until)}"
            )

    def close(self) -> None:
        self.speaker.close()


def _hhmm(minute: int) -> str:
    return f"{minute // 60:02d}:{minute % 60:02d}"


def open_sound(
    config: SoundConfig,
    games: Sequence[str],
    stations: int,
    log: Callable[[str], None],
    output: str = "device",
    kept: Path | None = None,
    cache: Path | None = None,
) -> CabinetSound | None:
    """The cabinet's sound, or None when ``[sound] enabled = false``.  ``output``:
    ``device`` (real time), ``tape`` (virtual time: recorded, mixed afterwards) or
    ``none`` (decided and recorded, never heard); ``kept``: where the service menu's
    settings are kept; ``cache``: where rendered cues are kept between starts."""
    if not config.enabled:
        return None
    from display.audio.output import Output, Silent, Tape, open_device

    out: Output
    if output == "device":
        out = open_device(log, config.buffer)
    elif output == "tape":
        out = Tape()
    else:
        out = Silent()
    speaker = Speaker(games, stations, out, config.folder, log, cache)
    if output == "device" and not isinstance(out, Silent):
        log(f"sound: {out.name}; {len(speaker.waves)} cues ready")
    return CabinetSound(speaker, config, stations, log, kept=kept)

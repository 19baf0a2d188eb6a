"""Where cues go: the sound device (pygame's mixer, in real time), a tape (virtual time:
the headless exhibition and HIL runs mix what would have played, at the right instants,
into one recording) or nowhere.

Opening the device is the only slow or failing step, and it happens once at start-up: a
missing or busy device is one log line and a silent cabinet.  Starting a cue is a
``Channel.play`` (a pointer handed to SDL's mixing thread), never a wait.
"""

from __future__ import annotations

import os
import wave
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

import numpy as np

from display.audio.mixer import ChannelPlan, to_pcm16
from display.audio.synth import RATE, Wave

MIXER_BUFFER = 256
"""Frames per mixer buffer the cabinet asks for: 5.8 ms at 44.1 kHz (tests/bench/bench_sound.py)."""


class Output(Protocol):
    name: str
    """What it is, for the service menu ("SDL audio (alsa), 256-frame buffer")."""

    def load(self, sounds: Mapping[str, Wave], plan: ChannelPlan) -> None:
        """Takes the rendered cues (before play)."""

    def play(self, channel: int, name: str, volume: float, t_us: int) -> None: ...

    def stop(self, channels: list[int], t_us: int) -> None: ...

    def close(self) -> None: ...


class Silent:
    """No device: every cue is decided and recorded, none is heard."""

    name = "none: the cabinet plays silent"

    def load(self, sounds: Mapping[str, Wave], plan: ChannelPlan) -> None:
        pass

    def play(self, channel: int, name: str, volume: float, t_us: int) -> None:
        pass

    def stop(self, channels: list[int], t_us: int) -> None:
        pass

    def close(self) -> None:
        pass


def open_device(log: Callable[[str], None], buffer: int = MIXER_BUFFER) -> Output:
    """The sound device through SDL (``SDL_AUDIODRIVER`` picks the driver), or
    :class:`Silent` after one log line when there is none or it is busy."""
    import pygame

    try:
        wanted = (RATE, -16, 1)
        if pygame.mixer.get_init() not in (None, wanted):
            pygame.mixer.quit()
        if not pygame.mixer.get_init():
            pygame.mixer.init(frequency=RATE, size=-16, channels=1, buffer=buffer, allowedchanges=0)
    except (pygame.error, OSError) as e:
        log(f"sound: no sound device ({str(e).strip() or type(e).__name__}): the cabinet plays silent")
        return Silent()
    driver = os.environ.get("SDL_AUDIODRIVER") or "SDL's choice"
    return Device(f"SDL audio ({driver}), {RATE} Hz, {buffer}-frame buffer")


class Device:
    """pygame's mixer, its channels reserved by kind (nothing plays on a channel the
    plan did not choose)."""

    def __init__(self, name: str) -> None:
        import pygame

        self.name = name
        self.pygame = pygame
        self.sounds: dict[str, pygame.mixer.Sound] = {}
        self.channels: list[pygame.mixer.Channel] = []

    def load(self, sounds: Mapping[str, Wave], plan: ChannelPlan) -> None:
        mixer = self.pygame.mixer
        mixer.set_num_channels(plan.total)
        mixer.set_reserved(plan.total)
        self.channels = [mixer.Channel(i) for i in range(plan.total)]
        self.sounds = {name: mixer.Sound(buffer=to_pcm16(w)) for name, w in sounds.items()}

    def play(self, channel: int, name: str, volume: float, t_us: int) -> None:
        sound = self.sounds.get(name)
        if sound is None or channel >= len(self.channels):
            return
        ch = self.channels[channel]
        try:
            ch.set_volume(volume)
            ch.play(sound)
        except self.pygame.error:  # the device went away mid-run (a USB card pulled): silence
            self.sounds = {}

    def stop(self, channels: list[int], t_us: int) -> None:
        for i in channels:
            if i < len(self.channels):
                self.channels[i].stop()

    def close(self) -> None:
        if self.pygame.mixer.get_init():
            self.pygame.mixer.stop()


@dataclass(frozen=True)
class Taped:
    t_us: int
    channel: int
    name: str
    volume: float


class Tape:
    """Virtual time's output: what played when, mixed afterwards into one recording with
    the live mixer's rules (one cue per channel; a new one or a stop cuts it; the sum
    clipped as SDL would)."""

    name = "a tape (virtual time: mixed afterwards)"

    def __init__(self) -> None:
        self.sounds: Mapping[str, Wave] = {}
        self.events: list[Taped] = []
        self.stops: list[tuple[int, int]] = []

    def load(self, sounds: Mapping[str, Wave], plan: ChannelPlan) -> None:
        self.sounds = sounds

    def play(self, channel: int, name: str, volume: float, t_us: int) -> None:
        self.events.append(Taped(t_us, channel, name, volume))

    def stop(self, channels: list[int], t_us: int) -> None:
        self.stops += [(t_us, c) for c in channels]

    def close(self) -> None:
        pass

    def mix(self, start_us: int = 0, end_us: int | None = None) -> Wave:
        """The recording from ``start_us`` to ``end_us`` (default: the last cue's end)."""
        ends: list[int] = []
        for e in self.events:
            ends.append(e.t_us + round(len(self.sounds.get(e.name, ())) * 1e6 / RATE))
        end = end_us if end_us is not None else max(ends, default=start_us)
        n = max(1, round((end - start_us) * RATE / 1e6))
        out = np.zeros(n, dtype=np.float32)
        cuts: dict[int, list[int]] = {}
        for e in self.events:
            cuts.setdefault(e.channel, []).append(e.t_us)
        for t, c in self.stops:
            cuts.setdefault(c, []).append(t)
        for e in self.events:
            w = self.sounds.get(e.name)
            if w is None:
                continue
            later = [t for t in cuts[e.channel] if t > e.t_us]
            stop = min(later) if later else None
            i = round((e.t_us - start_us) * RATE / 1e6)
            length = len(w) if stop is None else min(len(w), round((stop - e.t_us) * RATE / 1e6))
            lo, hi = max(i, 0), min(i + length, n)
            if hi > lo:
                out[lo:hi] += w[lo - i : hi - i] * e.volume
        return np.clip(out, -1.0, 1.0)

    def write_wav(self, path: Path, start_us: int = 0, end_us: int | None = None) -> Path:
        write_wav(path, self.mix(start_us, end_us))
        return path


def write_wav(path: Path, x: Wave) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with wave.open(str(path), "wb") as f:
        f.setnchannels(1)
        f.setsampwidth(2)
        f.setframerate(RATE)
        f.writeframes(to_pcm16(x))


def read_wav(path: Path) -> Wave:
    """A recorded cue (``<name>.wav``: PCM 8/16/32-bit, any rate, mono or stereo) as a
    mono float array at :data:`RATE`.  ValueError says what is wrong with the file."""
    try:
        with wave.open(str(path), "rb") as f:
            channels, width, rate, n = f.getnchannels(), f.getsampwidth(), f.getframerate(), f.getnframes()
            raw = f.readframes(n)
    except (wave.Error, EOFError) as e:
        raise ValueError(f"{path.name} is not a PCM WAV file ({e})") from None
    if width == 1:
        x = (np.frombuffer(raw, dtype=np.uint8).astype(np.float32) - 128) / 128
    elif width == 2:
        x = np.frombuffer(raw, dtype="<i2").astype(np.float32) / 32768
    elif width == 4:
        x = np.frombuffer(raw, dtype="<i4").astype(np.float32) / 2**31
    else:
        raise ValueError(f"{path.name}: {8 * width}-bit samples; use 8, 16 or 32-bit PCM")
    x = x.reshape(-1, channels).mean(axis=1)
    if rate != RATE and len(x) > 1:
        at = np.arange(round(len(x) * RATE / rate)) * rate / RATE
        x = np.interp(at, np.arange(len(x)), x)
    if len(x) == 0:
        raise ValueError(f"{path.name} holds no sound")
    return np.asarray(x, dtype=np.float32)

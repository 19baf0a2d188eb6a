"""Mixing: channels by kind, a loudness per kind, and headroom so nothing ever clips.

SDL_mixer sums its channels and clips the sum; pygame gives no hook for a limiter on the
sum.  So the cabinet budgets its headroom instead: every cue of a kind is levelled to
that kind's loudness and limited to its peak ceiling, and the ceilings times the channels
of each kind add up to less than full scale.  With every channel playing its loudest
cue at its loudest instant, at full volume, the sum still fits (``worst_case_peak``,
measured through the disk driver in the tests).

Channels are reserved by kind (:data:`CHANNELS`): a burst of slaps takes the effect
channels (the oldest effect gives way to a new one) and never the announcer's or the
music's.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from display.audio.cues import Kind
from display.audio.synth import RATE, Wave

CHANNELS = {Kind.EFFECT: 4, Kind.VOICE: 1, Kind.MUSIC: 1}
"""Mixer channels per kind."""
CEILING = {Kind.EFFECT: 0.165, Kind.VOICE: 0.2, Kind.MUSIC: 0.12}
"""Each cue's peak (full scale 1.0) by kind; see :func:`worst_case_peak`."""
LOUDNESS_DB = {Kind.EFFECT: -24.0, Kind.VOICE: -24.0, Kind.MUSIC: -28.0}
"""Each cue's short-term loudness (:func:`loudness_db`) by kind, before its ceiling."""
WINDOW_S = 0.05
"""The short-term loudness window: the loudest 50 ms of a cue is what the ear judges."""


def worst_case_peak(volumes: dict[Kind, float] | None = None) -> float:
    """The largest sum the mixer can reach: every channel at its kind's ceiling at once."""
    v = volumes or {}
    return sum(CHANNELS[k] * CEILING[k] * v.get(k, 1.0) for k in Kind)


def peak(x: Wave) -> float:
    return float(np.max(np.abs(x))) if len(x) else 0.0


def rms_db(x: Wave) -> float:
    """Whole-cue RMS in dB full scale."""
    return float(20 * np.log10(max(float(np.sqrt(np.mean(np.square(x, dtype=np.float64)))), 1e-9)))


def loudness_db(x: Wave) -> float:
    """The loudest :data:`WINDOW_S` RMS of ``x`` in dB full scale (short-term loudness:
    a 0.1 s slap and a 2 s fanfare heard as equally loud measure alike)."""
    n = max(1, int(WINDOW_S * RATE))
    if len(x) <= n:
        return rms_db(x)
    power = np.square(x, dtype=np.float64)
    csum = np.concatenate(([0.0], np.cumsum(power)))
    best = float(np.max(csum[n:] - csum[:-n])) / n
    return float(10 * np.log10(max(best, 1e-18)))


def limit(x: Wave, ceiling: float) -> Wave:
    """Peaks over ``ceiling`` rounded off (a soft knee from 70 % of it), never past it."""
    knee = 0.7 * ceiling
    a = np.abs(x)
    over = a > knee
    if not np.any(over):
        return x
    y = x.copy()
    room = ceiling - knee
    y[over] = np.sign(x[over]) * (knee + room * np.tanh((a[over] - knee) / room))
    return y


def level(x: Wave, kind: Kind) -> Wave:
    """``x`` at its kind's loudness, limited to its kind's ceiling."""
    gain = 10 ** ((LOUDNESS_DB[kind] - loudness_db(x)) / 20)
    return limit((x * gain).astype(np.float32), CEILING[kind])


def to_pcm16(x: Wave) -> bytes:
    return bytes(np.clip(np.round(x * 32767), -32768, 32767).astype("<i2").tobytes())


@dataclass
class Slot:
    name: str = ""
    started_us: int = -1
    ends_us: int = -1


class ChannelPlan:
    """Which mixer channel a cue goes to: the first free one of its kind, else the one
    of its kind that started longest ago.  The same plan drives the live mixer and the
    tape (the exhibition's recording), so both drop the same sounds."""

    def __init__(self) -> None:
        self.first: dict[Kind, int] = {}
        self.slots: list[Slot] = []
        for kind in Kind:
            self.first[kind] = len(self.slots)
            self.slots += [Slot() for _ in range(CHANNELS[kind])]

    def range(self, kind: Kind) -> range:
        return range(self.first[kind], self.first[kind] + CHANNELS[kind])

    def assign(self, kind: Kind, name: str, now_us: int, length_us: int) -> int:
        ours = self.range(kind)
        free = [i for i in ours if self.slots[i].ends_us <= now_us]
        i = free[0] if free else min(ours, key=lambda j: self.slots[j].started_us)
        self.slots[i] = Slot(name, now_us, now_us + length_us)
        return i

    def stop(self, kind: Kind, now_us: int) -> list[int]:
        """Frees the channels of ``kind``; returns those that were sounding."""
        stopped = [i for i in self.range(kind) if self.slots[i].ends_us > now_us]
        for i in self.range(kind):
            self.slots[i] = Slot()
        return stopped

    @property
    def total(self) -> int:
        return len(self.slots)

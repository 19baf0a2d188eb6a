"""The cabinet's synthesiser: numpy building blocks every cue is made from.

A sound is a mono float32 array at :data:`RATE`, nominally within ±1.  Everything here is
pure and deterministic (noise comes from a seeded generator), so a cue renders to the same
samples on every cabinet and in every test.  Filters work in the frequency domain (one
FFT per call), which keeps a second of sound to a few milliseconds of numpy and needs no
per-sample Python loop.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
import numpy.typing as npt

RATE = 44_100
"""Samples per second of every cue and of the mixer the cabinet opens."""

Wave = npt.NDArray[np.float32]
Freq = float | npt.NDArray[np.float64]


def frames(seconds: float) -> int:
    return max(1, round(seconds * RATE))


def times(seconds: float) -> npt.NDArray[np.float64]:
    return np.arange(frames(seconds), dtype=np.float64) / RATE


def silence(seconds: float) -> Wave:
    return np.zeros(frames(seconds), dtype=np.float32)


def note(midi: float) -> float:
    """The frequency of MIDI note ``midi`` (69 = A4 = 440 Hz)."""
    return float(440.0 * 2.0 ** ((midi - 69) / 12))


def glide(start: float, end: float, seconds: float, curve: float = 1.0) -> npt.NDArray[np.float64]:
    """A frequency moving from ``start`` to ``end`` (exponentially: a pitch glide)."""
    x = np.linspace(0.0, 1.0, frames(seconds)) ** curve
    return np.asarray(start * (end / start) ** x, dtype=np.float64)


def _phase(freq: Freq, seconds: float) -> npt.NDArray[np.float64]:
    n = frames(seconds)
    f = np.broadcast_to(np.asarray(freq, dtype=np.float64), (n,))
    return np.asarray(2 * np.pi * np.cumsum(f) / RATE, dtype=np.float64)


def sine(freq: Freq, seconds: float) -> Wave:
    return np.sin(_phase(freq, seconds)).astype(np.float32)


def square(freq: Freq, seconds: float, duty: float = 0.5) -> Wave:
    """A band-limited-enough pulse wave (8-bit arcade colour), softened by a low-pass."""
    cycle = (_phase(freq, seconds) / (2 * np.pi)) % 1.0
    raw = np.where(cycle < duty, 1.0, -1.0).astype(np.float32)
    return lowpass(raw, 6000.0)


def saw(freq: Freq, seconds: float) -> Wave:
    cycle = (_phase(freq, seconds) / (2 * np.pi)) % 1.0
    return lowpass((2.0 * cycle - 1.0).astype(np.float32), 7000.0)


def triangle(freq: Freq, seconds: float) -> Wave:
    cycle = (_phase(freq, seconds) / (2 * np.pi)) % 1.0
    return (4.0 * np.abs(cycle - 0.5) - 1.0).astype(np.float32)


def fm(carrier: Freq, ratio: float, index: float | npt.NDArray[np.float64], seconds: float) -> Wave:
    """Two-operator FM (bells, gongs, metallic hits)."""
    mod = np.sin(_phase(np.asarray(carrier) * ratio, seconds)) * index
    return np.sin(_phase(carrier, seconds) + mod).astype(np.float32)


def noise(seconds: float, seed: int) -> Wave:
    return np.random.default_rng(seed).uniform(-1.0, 1.0, frames(seconds)).astype(np.float32)


# -- envelopes ----------------------------------------------------------------------------
def decay(seconds: float, time_constant: float, attack: float = 0.002) -> Wave:
    """A percussive envelope: a short linear attack, then an exponential decay."""
    t = times(seconds)
    env = np.exp(-t / time_constant)
    if attack > 0:
        env *= np.clip(t / attack, 0.0, 1.0)
    return env.astype(np.float32)


def adsr(seconds: float, attack: float, decay_s: float, sustain: float, release: float) -> Wave:
    """Attack, decay to ``sustain``, hold, and release over the last ``release`` seconds."""
    t = times(seconds)
    env = np.where(
        t < attack,
        t / max(attack, 1e-6),
        sustain + (1 - sustain) * np.exp(-(t - attack) / max(decay_s, 1e-6)),
    )
    tail = np.clip((seconds - t) / max(release, 1e-6), 0.0, 1.0)
    return (env * tail).astype(np.float32)


# -- filters (frequency domain) -------------------------------------------------------------
def shape(x: Wave, gain: Callable[[npt.NDArray[np.float64]], npt.NDArray[np.float64]]) -> Wave:
    """``x`` with each frequency scaled by ``gain(frequencies in Hz)``."""
    n = len(x)
    size = 1 << max(1, (2 * n - 1).bit_length())  # zero-padded: no wrap-around of long tails
    spectrum = np.fft.rfft(x, size)
    f = np.asarray(np.fft.rfftfreq(size, 1.0 / RATE), dtype=np.float64)
    return np.asarray(np.fft.irfft(spectrum * gain(f), size)[:n], dtype=np.float32)


def lowpass(x: Wave, cutoff: float, order: int = 2) -> Wave:
    return shape(x, lambda f: 1.0 / np.sqrt(1.0 + (f / cutoff) ** (2 * order)))


def highpass(x: Wave, cutoff: float, order: int = 2) -> Wave:
    return shape(x, lambda f: 1.0 / np.sqrt(1.0 + (cutoff / np.maximum(f, 1e-3)) ** (2 * order)))


def bandpass(x: Wave, centre: float, width: float) -> Wave:
    return shape(x, lambda f: 1.0 / (1.0 + ((f - centre) / (width / 2)) ** 2))


def formants(x: Wave, peaks: Sequence[tuple[float, float, float]]) -> Wave:
    """``x`` through resonances (centre Hz, bandwidth Hz, gain): a vowel from a buzz."""

    def gain(f: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
        total = np.zeros_like(f)
        for centre, width, g in peaks:
            total += g / (1.0 + ((f - centre) / (width / 2)) ** 2)
        return total

    return shape(x, gain)


# -- assembling -------------------------------------------------------------------------------
def mix(*parts: tuple[float, Wave]) -> Wave:
    """Sounds laid on one timeline: each ``(start seconds, sound)``."""
    end = max(frames(at) + len(w) for at, w in parts) if parts else 1
    out = np.zeros(end, dtype=np.float32)
    for at, w in parts:
        i = frames(at) if at > 0 else 0
        out[i : i + len(w)] += w
    return out


def fade(x: Wave, seconds: float = 0.005) -> Wave:
    """Short fades at both ends, so a cue never starts or stops with a click."""
    n = min(frames(seconds), len(x) // 2)
    if n < 2:
        return x
    ramp = np.linspace(0.0, 1.0, n, dtype=np.float32)
    y = x.copy()
    y[:n] *= ramp
    y[-n:] *= ramp[::-1]
    return y


def echo(x: Wave, delay: float, feedback: float, repeats: int = 4) -> Wave:
    """A simple multi-tap echo: a hall for bells and fanfares."""
    parts = [(0.0, x)] + [(delay * k, x * feedback**k) for k in range(1, repeats + 1)]
    return mix(*parts)

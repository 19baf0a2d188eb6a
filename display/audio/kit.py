"""The cabinet's sound kit: the instruments every game's design is played on (punches,
blocks, the ring bell, card handling, crowd, shouts, stings and fanfares).  A game's
``sounds.py`` picks and tunes these; nothing here knows a game.

Station voices: a per-station cue is transposed by the station's interval
(:data:`STATION_STEPS`), so players learn "that's my sound" (red low, yellow high).
"""

from __future__ import annotations

import numpy as np

from display.audio.synth import (
    Wave,
    adsr,
    bandpass,
    decay,
    echo,
    fade,
    fm,
    formants,
    glide,
    highpass,
    lowpass,
    mix,
    noise,
    note,
    saw,
    silence,
    sine,
    square,
    times,
    triangle,
)

STATION_STEPS = (0, 5, 9, 14)
"""Semitones each station's own cues are raised by (stations 1-4)."""


def station_step(station: int) -> int:
    return STATION_STEPS[station % len(STATION_STEPS)]


# -- impacts -------------------------------------------------------------------------------
def punch(strength: float, seed: int = 1) -> Wave:
    """A glove landing: a body thump (a falling sine) under a slap of filtered noise;
    ``strength`` 0 (a jab) to 1 (a haymaker): lower, longer, with more crack."""
    dur = 0.12 + 0.25 * strength
    thump = sine(glide(150 - 60 * strength, 45, dur, 0.5), dur) * decay(dur, 0.04 + 0.08 * strength)
    slap = bandpass(noise(dur, seed), 1200 + 1500 * strength, 2500) * decay(dur, 0.012 + 0.02 * strength, 0.0005)
    crack = highpass(noise(0.03, seed + 1), 3000) * decay(0.03, 0.004, 0.0)
    return fade(mix((0, thump * (0.7 + 0.4 * strength)), (0, slap * 5.0), (0, crack * (0.8 + 2.0 * strength))))


def block(seed: int = 3) -> Wave:
    """A guard taking the blow: a hollow wooden knock (two damped partials) and a pad thud."""
    dur = 0.16
    knock = (sine(420, dur) + 0.6 * sine(1130, dur)) * decay(dur, 0.03, 0.001)
    thud = lowpass(noise(dur, seed), 600) * decay(dur, 0.02, 0.001)
    return fade(mix((0, knock), (0, thud * 2.0)))


def slap(seed: int = 5) -> Wave:
    """A hand on a pad or a card slammed on the table: short and bright."""
    dur = 0.09
    return fade(
        mix(
            (0, bandpass(noise(dur, seed), 2500, 3000) * decay(dur, 0.015, 0.0003) * 5.0),
            (0, sine(glide(220, 90, dur), dur) * decay(dur, 0.02) * 0.5),
        )
    )


def whoosh(seconds: float = 0.22, seed: int = 7, up: bool = True) -> Wave:
    """Air moving: noise swept through a band (a dodge, a card flying)."""
    centre = glide(600, 3500, seconds) if up else glide(3500, 600, seconds)
    n = noise(seconds, seed)
    # a swept band-pass as a short-time blend of two fixed bands
    lo, hi = bandpass(n, 800, 900), bandpass(n, 3000, 2500)
    w = (centre - 600) / 2900
    body = (lo * (1 - w) + hi * w).astype(np.float32)
    return fade(body * adsr(seconds, seconds * 0.4, 0.1, 0.5, seconds * 0.5) * 2.5)


# -- the ring ------------------------------------------------------------------------------
def bell(strikes: int = 1, gap: float = 0.28) -> Wave:
    """The boxing ring's bell: an FM bell with inharmonic partials, struck ``strikes`` times."""
    dur = 1.4
    one = (fm(1250, 1.4, 3.0 * decay(dur, 0.25).astype(np.float64), dur) + 0.4 * sine(2630, dur)) * decay(
        dur, 0.35, 0.001
    )
    return fade(mix(*((k * gap, one) for k in range(strikes))), 0.02)


def gong(pitch: float = 110.0) -> Wave:
    """A dojo gong: deep FM with a slow swell of overtones."""
    dur = 2.2
    index = 4.0 * (1 - np.exp(-times(dur) / 0.2)) * np.exp(-times(dur) / 1.0)
    return fade(fm(pitch, 1.41, index, dur) * decay(dur, 0.7, 0.01), 0.03)


def tick(pitch: float = 1800.0) -> Wave:
    """A count's tick: a short wooden clave."""
    dur = 0.12
    return fade((sine(pitch, dur) + 0.3 * sine(pitch * 2.7, dur)) * decay(dur, 0.02, 0.0005))


def knockdown(seed: int = 11) -> Wave:
    """A body hitting the canvas: the heaviest punch, a floor boom and a crowd gasp."""
    boom = sine(glide(90, 35, 0.8), 0.8) * decay(0.8, 0.25)
    return fade(mix((0, punch(1.0, seed)), (0.08, boom * 1.2), (0.15, crowd(1.2, seed, excited=False) * 0.6)), 0.02)


# -- people ----------------------------------------------------------------------------------
VOWELS = {
    "a": ((800, 90, 1.0), (1150, 110, 0.6), (2900, 160, 0.25)),
    "i": ((280, 60, 1.0), (2250, 120, 0.5), (2900, 170, 0.3)),
    "o": ((450, 80, 1.0), (800, 100, 0.5), (2830, 170, 0.15)),
    "e": ((400, 70, 1.0), (2000, 120, 0.45), (2550, 150, 0.25)),
    "u": ((325, 60, 1.0), (700, 90, 0.3), (2530, 170, 0.1)),
}


def shout(vowels: str, pitch: float, seconds: float = 0.35, seed: int = 17) -> Wave:
    """A kiai ("hai!", "ho!"): a breathy onset, a falling pitch through ``vowels``."""
    pitch_curve = glide(pitch * 1.25, pitch * 0.8, seconds, 0.7)
    t = times(seconds)
    buzz = saw(pitch_curve, seconds) + 0.08 * noise(seconds, seed)
    if len(vowels) == 1:
        voiced = formants(buzz, VOWELS[vowels])
    else:
        a, b = formants(buzz, VOWELS[vowels[0]]), formants(buzz, VOWELS[vowels[1]])
        w = np.clip((t - seconds * 0.35) / (seconds * 0.3), 0, 1).astype(np.float32)
        voiced = a * (1 - w) + b * w
    breath = highpass(noise(0.06, seed + 1), 1500) * decay(0.06, 0.02, 0.002)
    env = adsr(seconds, 0.015, seconds * 0.3, 0.3, seconds * 0.3)
    return fade(mix((0, breath * 0.8), (0.02, voiced * env * 1.6)))


def crowd(seconds: float, seed: int = 19, excited: bool = True) -> Wave:
    """A crowd: many detuned voices on open vowels over a wash of noise; ``excited``
    swells up (a cheer), otherwise an "ooh" that falls.  Voices on one vowel share its
    formant filter (a filter is linear), so ten voices cost three filters."""
    rng = np.random.default_rng(seed)
    t = times(seconds)
    vowels = "aeo" if excited else "ou"
    buzz = {v: np.zeros(len(t), dtype=np.float64) for v in vowels}
    for k in range(10):
        pitch = float(rng.uniform(160, 380))
        f = pitch * (1 + 0.02 * np.sin(2 * np.pi * float(rng.uniform(4, 7)) * t + float(rng.uniform(0, 6))))
        onset = np.clip((t - float(rng.uniform(0, 0.08))) / 0.05, 0, 1)
        cycle = (np.cumsum(f) / 44_100 + float(rng.uniform(0, 1))) % 1.0
        buzz[vowels[k % len(vowels)]] += (2 * cycle - 1) * onset
    voices = sum((formants(b.astype(np.float32), VOWELS[v]) for v, b in buzz.items()), start=silence(seconds))
    wash = bandpass(noise(seconds, seed), 1200, 2000) * 0.6
    body = wash + voices * 0.35
    env = (
        adsr(seconds, seconds * 0.25, 0.3, 0.7, seconds * 0.5)
        if excited
        else adsr(seconds, 0.05, seconds * 0.3, 0.3, seconds * 0.5)
    )
    return fade(body * env, 0.03)


# -- cards -------------------------------------------------------------------------------------
def card_flip(seed: int = 23) -> Wave:
    """A card turned face up: a papery flick."""
    dur = 0.07
    return fade(highpass(noise(dur, seed), 2500) * decay(dur, 0.012, 0.001) * 1.4)


def card_slide(seed: int = 29) -> Wave:
    """A card pushed across the table to its new owner."""
    dur = 0.3
    body = bandpass(noise(dur, seed), 3000, 3000) * adsr(dur, 0.05, 0.1, 0.6, 0.15)
    return fade(mix((0, body * 1.6), (dur - 0.05, slap(seed) * 0.5)))


def reveal(pitch: float = 72) -> Wave:
    """Cards turned together: a bright rising shimmer over a flick."""
    dur = 0.4
    shimmer = sum(
        (sine(note(pitch + s), dur) * decay(dur, 0.15, 0.01) for s in (0, 7, 12)),
        start=silence(dur),
    )
    return fade(mix((0, card_flip()), (0.02, shimmer * 0.5)))


def coin(pitch: float = 83) -> Wave:
    """The arcade coin: two square-wave notes, a fourth apart."""
    a = square(note(pitch), 0.07, 0.5) * 0.8
    b = square(note(pitch + 5), 0.35, 0.5) * decay(0.35, 0.12) * 0.8
    return fade(mix((0, a), (0.07, b)))


def blip(pitch: float = 76, seconds: float = 0.05) -> Wave:
    """A menu cursor's move."""
    return fade(square(note(pitch), seconds, 0.25) * decay(seconds, 0.03) * 0.7)


def confirm(pitch: float = 76) -> Wave:
    """A choice made: an upward pair of blips."""
    return mix((0, blip(pitch, 0.06)), (0.06, blip(pitch + 7, 0.12)))


# -- stings and music -------------------------------------------------------------------------
def arpeggio(root: float, steps: tuple[int, ...], each: float, wave: str = "square", tail: float = 0.4) -> Wave:
    """Notes one after another (``steps`` semitones over MIDI ``root``), the last held."""
    parts = []
    for k, s in enumerate(steps):
        dur = each * 1.6 if k < len(steps) - 1 else each + tail
        osc = square(note(root + s), dur, 0.5) if wave == "square" else triangle(note(root + s), dur)
        parts.append((k * each, osc * adsr(dur, 0.005, 0.08, 0.6, min(0.1, dur / 2)) * 0.7))
    return fade(mix(*parts))


def sting_win(root: float = 72) -> Wave:
    """Somebody won something: a major arpeggio up to the octave."""
    return arpeggio(root, (0, 4, 7, 12), 0.07)


def sting_lose(root: float = 60) -> Wave:
    """Somebody lost something: a descending minor "wah-wah"."""
    parts = []
    for k, s in enumerate((0, -1, -2, -5)):
        dur = 0.22 if k < 3 else 0.6
        f = note(root + s) * (1 + 0.01 * np.sin(2 * np.pi * 6 * times(dur)))
        parts.append((k * 0.22, lowpass(saw(f, dur), 1400) * adsr(dur, 0.01, 0.1, 0.7, 0.08) * 0.9))
    return fade(mix(*parts))


def jan_ken(pitch: float = 79) -> Wave:
    """Rock-paper-scissors' chant as three rising hits ("jan", "ken", "pon!")."""
    hit = [
        (0.0, blip(pitch, 0.1)),
        (0.22, blip(pitch + 2, 0.1)),
        (0.44, sting_win(pitch - 12 + 4)[: int(0.4 * 44_100)]),
    ]
    return fade(mix(*hit, (0.44, slap() * 0.6)))


def fanfare(root: float = 60) -> Wave:
    """The win fanfare: brass-like saws in a "ta-ta-ta-taaa" over a timpani roll, in a hall."""
    notes = ((0.0, 0, 0.14), (0.15, 0, 0.14), (0.30, 0, 0.14), (0.45, 5, 0.5), (1.0, 7, 0.25), (1.3, 12, 1.1))
    parts = []
    for at, s, dur in notes:
        for detune in (1.0, 1.004):
            tone = lowpass(saw(note(root + 12 + s) * detune, dur), 2500)
            parts.append((at, tone * adsr(dur, 0.02, 0.1, 0.8, 0.1) * 0.45))
        parts.append((at, sine(note(root + s), dur) * adsr(dur, 0.01, 0.2, 0.5, 0.1) * 0.5))
    roll = lowpass(noise(1.2, 31), 300) * adsr(1.2, 0.8, 0.1, 1.0, 0.2) * 1.2
    return fade(echo(mix(*parts, (0.1, roll)), 0.11, 0.25, 3), 0.05)


def _raw(kind: str, freq: float, seconds: float, duty: float = 0.5) -> Wave:
    """An unfiltered oscillator; a track of them is filtered once (:func:`loop_music`)."""
    cycle = (times(seconds) * freq) % 1.0
    if kind == "saw":
        return (2.0 * cycle - 1.0).astype(np.float32)
    return np.where(cycle < duty, 1.0, -1.0).astype(np.float32)


def loop_music(root: float = 45, bars: int = 4, bpm: float = 132.0) -> Wave:
    """The attract loop: a driving bass, a square-wave riff and a kick/snare beat, ``bars``
    of 4/4 (about 7 s at 132 bpm); it ends on the beat so it may be repeated."""
    beat = 60.0 / bpm
    bass: list[tuple[float, Wave]] = []
    lead: list[tuple[float, Wave]] = []
    drums: list[tuple[float, Wave]] = []
    prog = (0, 0, 5, 7)  # i i iv v
    riff = (12, 15, 19, 22, 19, 15, 17, 19)
    kick = sine(glide(120, 40, 0.15), 0.15) * decay(0.15, 0.05) * 1.1
    for bar in range(bars):
        shift = prog[bar % len(prog)]
        for k in range(8):  # eighth-note bass and riff
            at = (bar * 4 + k / 2) * beat
            f = note(root + shift + (12 if k % 4 == 3 else 0))
            bass.append((at, _raw("saw", f, beat / 2) * adsr(beat / 2, 0.003, 0.08, 0.5, 0.02) * 0.8))
            g = note(root + 24 + shift + riff[k])
            lead.append((at, _raw("square", g, beat / 2, 0.25) * decay(beat / 2, 0.09) * 0.35))
        for k in range(4):  # kick on every beat, snare on 2 and 4
            at = (bar * 4 + k) * beat
            drums.append((at, kick))
            if k % 2 == 1:
                drums.append((at, highpass(noise(0.12, 37 + k), 1200) * decay(0.12, 0.03) * 0.5))
    length = int(round(bars * 4 * beat * 44_100))
    tracks = (lowpass(mix(*bass), 900), lowpass(mix(*lead), 5000), mix(*drums))
    out = sum((np.pad(x, (0, max(0, length - len(x))))[:length] for x in tracks), start=silence(length / 44_100))
    return fade(out[:length], 0.01)


def alarm(pitch: float = 74) -> Wave:
    """Time's up / closing time: a two-tone klaxon, three times."""
    parts = []
    for k in range(3):
        parts.append((k * 0.36, square(note(pitch), 0.17, 0.5) * 0.6))
        parts.append((k * 0.36 + 0.18, square(note(pitch - 4), 0.17, 0.5) * 0.6))
    return fade(mix(*parts))


def heartbeat() -> Wave:
    """A fighter with heart getting up: two low thumps."""
    thump = sine(glide(70, 45, 0.18), 0.18) * decay(0.18, 0.05)
    return fade(mix((0, thump), (0.22, thump * 0.8)))


def cowards_blow(seed: int = 41) -> Wave:
    """A blow before the card was shown: a sour trombone slide down under a slap."""
    dur = 0.7
    slide = lowpass(saw(glide(note(58), note(46), dur, 1.5), dur), 1000) * adsr(dur, 0.02, 0.2, 0.7, 0.15)
    return fade(mix((0, slap(seed)), (0.05, slide * 0.9)))

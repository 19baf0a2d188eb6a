"""``make sounds``: every cue rendered to WAV, listed, and drawn on a review sheet.

``python -m display.audio.sheet [folder]`` (default ``out/sounds``) writes
``<name>.wav`` for every cue the cabinet can play (a station's own cue once per station),
``cues.txt`` (name, kind, length, peak, loudness, what it is for: the names an operator's
recordings take) and ``sheet.png``: a row per cue with its waveform and its spectrogram
(log frequency 40 Hz-16 kHz, 70 dB of range), drawn with numpy and pygame.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import numpy as np
import numpy.typing as npt

from display.audio.cues import Kind
from display.audio.mixer import CEILING, loudness_db, peak
from display.audio.output import write_wav
from display.audio.synth import RATE, Wave
from display.sound import Speaker
from games import registry

ROW = 96
LABEL_W = 420
WAVE_W = 560
SPEC_W = 560
PAD = 8
KIND_COLOUR = {Kind.EFFECT: (255, 196, 64), Kind.VOICE: (120, 200, 255), Kind.MUSIC: (200, 140, 255)}
STOPS = np.array([[0, 0, 4], [40, 10, 90], [150, 30, 110], [240, 90, 60], [252, 200, 70], [252, 252, 190]], float)


def colour_map(v: npt.NDArray[np.float64]) -> npt.NDArray[np.uint8]:
    """0..1 → a dark-to-bright heat colour (RGB)."""
    x = np.clip(v, 0, 1) * (len(STOPS) - 1)
    i = np.minimum(x.astype(int), len(STOPS) - 2)
    f = (x - i)[..., None]
    return np.asarray(STOPS[i] * (1 - f) + STOPS[i + 1] * f, dtype=np.uint8)


def spectrogram(w: Wave, width: int, height: int) -> npt.NDArray[np.uint8]:
    """(height, width, 3): magnitude in dB over log frequency, time left to right."""
    n = 2048
    padded = np.pad(w.astype(np.float64), (n // 2, n // 2))
    starts = np.linspace(0, len(padded) - n, width).astype(int)
    frames = np.stack([padded[s : s + n] for s in starts]) * np.hanning(n)
    mag = np.abs(np.fft.rfft(frames, axis=1))
    freqs = np.fft.rfftfreq(n, 1 / RATE)
    rows = np.geomspace(16_000, 40, height)  # top: high
    idx = np.clip(np.searchsorted(freqs, rows), 1, len(freqs) - 1)
    db = 20 * np.log10(mag[:, idx].T + 1e-9)
    db -= db.max()
    return colour_map((db + 70) / 70)


def waveform(w: Wave, width: int, height: int, colour: tuple[int, int, int], ceiling: float) -> npt.NDArray[np.uint8]:
    """(height, width, 3): min/max per column, full scale = ±``ceiling``; the ceiling drawn."""
    img = np.full((height, width, 3), 18, np.uint8)
    edges = np.linspace(0, len(w), width + 1).astype(int)
    mid = height // 2
    for x in range(width):
        seg = w[edges[x] : max(edges[x + 1], edges[x] + 1)]
        lo, hi = float(seg.min()), float(seg.max())
        y0 = int(mid - hi / ceiling * (mid - 2))
        y1 = int(mid - lo / ceiling * (mid - 2))
        img[max(0, y0) : min(height, y1 + 1), x] = colour
    img[mid, :] = (70, 70, 70)
    img[1, :] = img[height - 2, :] = (120, 40, 40)  # the kind's ceiling
    return img


def draw_sheet(speaker: Speaker, path: Path) -> Path:
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    import pygame

    pygame.font.init()
    font = pygame.font.Font(None, 22)
    small = pygame.font.Font(None, 18)
    names = sorted(speaker.waves, key=lambda n: (list(Kind).index(speaker.kind(n)), n))
    width = LABEL_W + WAVE_W + SPEC_W + 4 * PAD
    sheet = pygame.Surface((width, ROW * len(names) + 40))
    sheet.fill((8, 8, 12))
    sheet.blit(
        font.render(
            "Ringside cues: waveform (± the kind's ceiling) and spectrogram (40 Hz–16 kHz, log)", True, (230, 230, 230)
        ),
        (PAD, 10),
    )
    for row, name in enumerate(names):
        w, kind = speaker.waves[name], speaker.kind(name)
        y = 40 + row * ROW
        colour = KIND_COLOUR[kind]
        cue = speaker.names[name]
        sheet.blit(font.render(name, True, colour), (PAD, y + 6))
        facts = f"{kind.value} · {len(w) / RATE:.2f} s · peak {20 * np.log10(peak(w)):.1f} dBFS · loud {loudness_db(w):.1f} dB"
        sheet.blit(small.render(facts, True, (190, 190, 190)), (PAD, y + 30))
        sheet.blit(small.render(cue.what[:60], True, (150, 150, 150)), (PAD, y + 50))
        h = ROW - 10
        for x, img in (
            (LABEL_W + 2 * PAD, waveform(w, WAVE_W, h, colour, CEILING[kind])),
            (LABEL_W + WAVE_W + 3 * PAD, spectrogram(w, SPEC_W, h)),
        ):
            sheet.blit(pygame.surfarray.make_surface(img.swapaxes(0, 1)), (x, y + 4))
    path.parent.mkdir(parents=True, exist_ok=True)
    pygame.image.save(sheet, str(path))
    return path


def main(argv: list[str]) -> int:
    folder = Path(argv[0] if argv else "out/sounds")
    speaker = Speaker(registry.names(), 4)
    lines = [
        f"{name:22} {speaker.kind(name).value:8} (plays only from a recording: {name}.wav)  {cue.what}"
        for name, cue in sorted(speaker.names.items())
        if name not in speaker.waves
    ]
    for name, w in sorted(speaker.waves.items()):
        write_wav(folder / f"{name}.wav", w)
        kind = speaker.kind(name)
        lines.append(
            f"{name:22} {kind.value:8} {len(w) / RATE:5.2f} s  peak {20 * np.log10(peak(w)):6.1f} dBFS"
            f"  loud {loudness_db(w):6.1f} dB  {speaker.names[name].what}"
        )
    (folder / "cues.txt").write_text("\n".join(lines) + "\n")
    sheet = draw_sheet(speaker, folder / "sheet.png")
    print(f"{len(speaker.waves)} cues in {folder}/ (<name>.wav, cues.txt); review sheet: {sheet}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))

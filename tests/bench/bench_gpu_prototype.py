"""Composition on the GPU, prototyped: the CPU a frame costs when the composed picture is
shown through an SDL renderer's texture (pygame-ce ``_sdl2.video``: on a Pi's KMSDRM,
GLES), beside the software window surface the cabinet uses (``pygame.display.update`` of
the changed rectangles).

Big Time Boxing's busiest 30 frames at 1920×1080 (``bench_frames.busiest``) are drawn composed
(``display.compose``) onto an off-screen surface, then shown three ways:

- **surface**: drawn straight into the window surface, its changed rectangles updated
  (the cabinet's path);
- **texture, changed rectangles**: the changed rectangles uploaded into one streaming
  texture, the texture copied to the window, presented;
- **texture, whole upload**: the whole picture uploaded every frame (a GPU path without
  dirty rectangles).

Here only SDL's *software* renderer exists (dummy video driver, no GPU): its texture copy
and present are CPU copies of the whole 1080p picture, which a Pi's GPU does instead, so
the texture figures here are an upper bound for the Pi's CPU; the upload is CPU work on
either.  Instructions by callgrind, as in ``bench_frames``.
"""

from __future__ import annotations

import os
import pickle
import sys
from pathlib import Path

from tests.bench.bench_frames import FRAMES, MEASURED, SIZES, WARM, Stretch, busiest, callgrind, game_frames
from tests.bench.harness import Figure

TITLE = "GPU composition prototype: showing composed frames through an SDL texture vs the window surface"
GAME = "big_time_boxing"
"""The game measured: the one whose frames cost the most."""
WAYS = ("surface", "texture, changed rectangles", "texture, whole upload")


def _worker(stretches_file: str) -> None:
    """Draw and show every stretch the way its name ends with; ``os.getppid()`` around
    the MEASURED frames (callgrind dumps there)."""
    import pygame
    from pygame._sdl2 import video

    from display.renderer import Renderer
    from display.window import Window

    stretches: list[Stretch] = pickle.loads(Path(stretches_file).read_bytes())
    for name, size, models, _changes in stretches:
        way = name.split(": ")[-1]
        if way == "surface":
            window = Window(size)
            renderer = Renderer(canvas=window.main)
        else:
            pygame.display.init()
            gpu_window = video.Window("ringside", size)
            gpu = video.Renderer(gpu_window)
            texture = video.Texture(gpu, size, streaming=True)
            renderer = Renderer(size=size)
        for k, model in enumerate(models):
            if k == WARM:
                os.getppid()
            canvas = renderer.draw(model)
            if way == "surface":
                window.present(canvas, renderer.dirty)
                continue
            rects = renderer.dirty if way == "texture, changed rectangles" else [canvas.get_rect()]
            for r in rects:
                texture.update(canvas.subsurface(r), r)
            texture.draw()
            gpu.present()
        os.getppid()
        if way == "surface":
            window.close()
        else:
            gpu_window.destroy()


def run() -> list[Figure]:
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    from games import registry

    figures = []
    for size in SIZES[-1:]:  # 1080p: the size the question is asked at
        stretches: list[Stretch] = []
        for engine in registry.engines():
            if engine.spec.name != GAME:
                continue
            frames, _traffic = busiest(game_frames(engine.spec.name, FRAMES), size)
            stretches += [(f"{engine.spec.name}: {way}", size, frames, False) for way in WAYS]
        counts = callgrind(stretches, "", "tests.bench.bench_gpu_prototype")
        for (name, _size, _models, _c), n in zip(stretches, counts, strict=True):
            figures.append(
                Figure(
                    f"{name}, {size[0]}×{size[1]}",
                    n,
                    "instr",
                    "",
                    f"busiest {MEASURED} frames, drawn composed + shown; SDL software renderer",
                )
            )
    return figures


if __name__ == "__main__" and len(sys.argv) == 4 and sys.argv[1] == "--worker":
    _worker(sys.argv[2])

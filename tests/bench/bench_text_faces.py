"""Text rendering: the cost of drawing a string the text cache does not hold yet, in the
type every screen now uses (FreeType, unhinted: evenly spaced letters, issue 23) against
SDL_ttf's hinted type it replaced.  A cached string costs a blit either way; this is the
price of a new number or name appearing (a stamina drop, a time to the µs)."""

from __future__ import annotations

import os
import statistics
import time

from tests.bench.harness import Figure

TITLE = "Text: a string not yet cached, FreeType unhinted (now) against SDL_ttf hinted (before)"
WORDS = ("Blue hit  -2", "187.345 ms", "9 cards in hand", "ROUND ENERGY", "Red wins the Jan Ken", "10")
SIZES = (28, 52, 110)
REPEATS = int(os.environ.get("BENCH_TEXT_REPEATS", "15"))


def _per_render(render: object, rounds: int = 40) -> float:
    """Median µs per render over ``REPEATS`` runs of ``rounds`` × every word."""
    runs = []
    for _ in range(REPEATS):
        t0 = time.perf_counter()
        for _ in range(rounds):
            for w in WORDS:
                render(w)  # type: ignore[operator]
        runs.append((time.perf_counter() - t0) * 1e6 / (rounds * len(WORDS)))
    return statistics.median(runs)


def run() -> list[Figure]:
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    import pygame

    from display.theme import Face

    pygame.font.init()
    figures = []
    for size in SIZES:
        for bold in (False, True):
            old = pygame.font.Font(None, size)
            old.set_bold(bold)
            new = Face(size, bold)
            before = _per_render(lambda w, f=old: f.render(w, True, (255, 255, 255)))
            now = _per_render(lambda w, f=new: f.render(w, True, (255, 255, 255)))
            kind = f"size {size}{' bold' if bold else ''}"
            figures.append(Figure(f"{kind}: FreeType (now)", round(now, 1), "µs/render", note=f"{len(WORDS)} strings"))
            figures.append(Figure(f"{kind}: SDL_ttf (before)", round(before, 1), "µs/render"))
            figures.append(Figure(f"{kind}: ratio now/before", round(now / before, 2), "×"))
    return figures

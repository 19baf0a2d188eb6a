"""The attract screen with each game's demo featured, at 1280×720 and 1920×1080 (issue 34):
the attract screen shows every game's demo in turn, and each demo draws its own game's
screen in an inset, so the frame budget holds only if it holds for all four.

For each game featured (the title card naming it, then its demo), as the cabinet's loop
sees them at 60 fps (``bench_frames.attract_frames``: a frame drawn only when its screen
model changed, the frames left unchanged running the renderer's preparation step):

- **stretch**: the title card from its first frame, then the demo's first frames (its
  type prepared while the title card waited): 40 drawn frames, the last 30 counted (the
  title card's last 2 or so and the demo's first ~28, as ``bench_frames``' attract row);
- **demo**: the demo past its first second (~8 drawn frames), 30 frames counted after
  10 (a demo too short for that, its last 40), drawn by a fresh renderer ("cold": every
  string and segment of those 40 frames is new to it);
- **demo after its title card**: the same 30 frames drawn as the cabinet draws them, by
  the renderer that drew the title card (preparing the demo in its idle frames) and the
  demo's frames before them;
- **preparing**: each ``Renderer.prepare`` step after the title card is drawn, faces cold
  (a fresh process);
- **memory traffic** of the demo past its first second (``bench_frames.Traffic``: bytes
  written, whole-screen passes), and its frames' **wall time** beside a bare pygame-ce
  fill-and-flip loop at the same size, in the same run.

Instructions from callgrind (load-independent), as in ``bench_frames``.
"""

from __future__ import annotations

import os
import statistics
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from tests.bench.bench_frames import (
    MEASURED,
    SIZES,
    WARM,
    Stretch,
    _res,
    attract_frames,
    callgrind,
    changed_at,
    floor_ms,
    frame_ms,
    preparation_steps,
    traffic_of,
    until_drawn,
)
from tests.bench.harness import Figure, percentile

TITLE = "Frame budget: the attract screen with each game's demo, 720p and 1080p (issue 34)"
DEMO_FROM = 8
"""Drawn frames of a demo skipped before its 'past its first second' stretch (~7 changes a second)."""


def _written(name: str, counts: list[tuple[float, int, float, int]], note: str) -> Figure:
    """Bytes written per frame (4 a pixel) of ``bench_frames.traffic_of``'s counts."""
    return Figure(name, statistics.mean(c[0] for c in counts) * 4 / 1e6, "MB", "", note)


def run() -> list[Figure]:
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    from display.models import AttractScreen, DemoScreen
    from games.registry import BUILTIN

    figures: list[Figure] = []
    stretches: dict[tuple[int, int], list[Stretch]] = {size: [] for size in SIZES}
    titles: dict[str, Any] = {}
    demos: dict[str, list[Any]] = {}
    for featured in range(len(BUILTIN)):
        loop = attract_frames(every_frame=True, featured=featured)
        drawn = [loop[i] for i in changed_at(loop)]
        title = next(m for m in drawn if isinstance(m, AttractScreen))
        demo = [m for m in drawn if isinstance(m, DemoScreen)]
        game = demo[0].title
        # a short demo (Punch Cards' duel ends in ~5 s) is measured over its last frames
        start = min(DEMO_FROM, len(demo) - WARM - MEASURED)
        assert start >= 0, f"the {game} demo drew {len(demo)} frames: too few to measure"
        titles[game], demos[game] = title, demo[start:]
        shown = len(drawn) - len(demo) + start + WARM + MEASURED  # the title card's frames, then the demo's
        for size in SIZES:
            stretches[size].append((f"{game} featured", size, until_drawn(loop, WARM + MEASURED), True))
            stretches[size].append((f"{game} demo", size, demo[start : start + WARM + MEASURED], True))
            stretches[size].append((f"{game} demo after its title card", size, until_drawn(loop, shown), True))
    card = [m for m in attract_frames(featured=0) if isinstance(m, AttractScreen)]
    for size in SIZES:
        counts = traffic_of(card, size)
        figures.append(
            _written(
                f"title card {_res(size)}: written per frame drawn",
                counts,
                f"{len(counts)} frames after its first {WARM} (PRESS START blinking); "
                f"whole-screen passes {statistics.mean(c[1] for c in counts):.0f}; between blinks nothing is drawn",
            )
        )
        for game, demo in demos.items():
            counts = traffic_of(demo, size)
            figures.append(
                _written(
                    f"{game} demo {_res(size)}: written per frame",
                    counts,
                    f"{len(counts)} drawn frames past the first {WARM}; whole canvas {size[0] * size[1] * 4 / 1e6:.1f} MB",
                )
            )
            figures.append(
                Figure(
                    f"{game} demo {_res(size)}: whole-screen passes per frame",
                    statistics.mean(c[1] for c in counts),
                    "passes",
                    "",
                    "",
                )
            )
            load = os.getloadavg()[0]
            times, floor = frame_ms(demo, size), floor_ms(size, len(demo))
            med, fmed = statistics.median(times), statistics.median(floor)
            figures.append(
                Figure(
                    f"{game} demo {_res(size)}: frame wall time median / p99",
                    med,
                    "ms",
                    "",
                    f"p99 {percentile(times, 99):.2f} ms over {len(times)} frames; floor (fill + flip) median "
                    f"{fmed:.3f} ms, p99 {percentile(floor, 99):.3f} ms; load {load:.1f}",
                )
            )
            figures.append(Figure(f"{game} demo {_res(size)}: frame / floor, median", med / fmed, "×", "", "same run"))
    if os.environ.get("BENCH_NO_CALLGRIND"):
        return figures
    with ThreadPoolExecutor(max_workers=2) as pool:  # two cores, shared
        runs = {size: pool.submit(callgrind, stretches[size], "") for size in SIZES}
        steps = {(size, game): pool.submit(preparation_steps, t, size) for size in SIZES for game, t in titles.items()}
    for size in SIZES:
        goal = "≤ 3 M" if size == (1920, 1080) else ""
        for (name, _size, _models, _changes), per_frame in zip(stretches[size], runs[size].result(), strict=True):
            game, _, stretch = name.partition(" demo")
            if name.endswith("featured"):
                game, what = name.removesuffix(" featured"), "title card, then the demo's first frames"
                note = f"per frame, draw + show; callgrind, {MEASURED} frames after {WARM}"
            elif not stretch:
                what, note = (
                    "past its first second",
                    f"a fresh renderer (cold); callgrind, {MEASURED} frames after {WARM}",
                )
            else:
                what = "past its first second, after its title card"
                note = f"the same {MEASURED} frames drawn by the renderer that drew the title card and the demo before them, as the cabinet does"
            figures.append(Figure(f"attract {game} {_res(size)}: {what}", per_frame, "instr", goal, note))
        for game in titles:
            counts = steps[size, game].result()
            figures.append(
                Figure(
                    f"attract {game} {_res(size)}: preparing its demo, all steps",
                    sum(counts),
                    "instr",
                    "",
                    f"{len(counts)} steps, max {max(counts) / 1e6:.2f} M, median {statistics.median(counts) / 1e6:.2f} M; "
                    "faces cold (a fresh process); callgrind",
                )
            )
    return figures

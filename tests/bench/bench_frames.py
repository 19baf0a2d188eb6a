"""Frame budget: every game's play screen drawn with its animations on, at 1280×720 (the
cabinet) and 1920×1080 (a big screen), and the instructions a frame costs.

Each registered game is played out by random players at its largest table
(``tests.display.screen_states.playout``: actions 400 ms apart), and every state is drawn
frame after frame at 60 frames a second until the next action, so cards turning over
and sliding, flashes, shakes and easing bars are all in the sample.  The time is the
renderer's draw of the frame (dummy SDL driver, no flip), median and p99 per game and
size.

Instructions per frame come from valgrind's callgrind (hardware counters are not
available in a VM): a worker process draws the same frames K₁ then K₂ times under
callgrind, and the difference in instructions over K₂ − K₁ frames is what a frame costs,
free of start-up and of filling the text cache.  Without valgrind the figure says so.
"""

from __future__ import annotations

import os
import pickle
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from tests.bench.harness import Figure, percentile

TITLE = "Frame budget: every play screen with its animations, 720p and 1080p, instructions per frame"
FRAME_US = 16_667
SIZES = ((1280, 720), (1920, 1080))
FRAMES = int(os.environ.get("BENCH_FRAMES", "600"))
"""Frames drawn per game and size."""
WARM = 40
"""Frames drawn first and not timed: the text and figure caches fill."""
CALLGRIND_FRAMES = (int(os.environ.get("BENCH_CG_FEW", "10")), int(os.environ.get("BENCH_CG_MANY", "40")))
CALLGRIND_SEEDS = (0, 1, 2)
"""One pair of callgrind runs per string-hash seed (dict and set order, hence the
garbage collector's timing, differ with it): the figure is the median pair."""
ROOT = Path(__file__).resolve().parents[2]


def game_frames(name: str, frames: int, seed: int = 1) -> list[Any]:
    """``frames`` PlayScreen models of game ``name``: each state of a random playout at
    every 60 Hz frame until the next action."""
    from display.models import PlayScreen
    from games import registry
    from tests.display.screen_states import LOOKS, STEP_US, playout

    engine_type = next(e for e in registry.engines() if e.spec.name == name)
    spec = engine_type.spec
    players = spec.max_players
    engine = engine_type(spec.options_type(), players, seed)
    states = list(playout(engine, seed))
    per_state = STEP_US // FRAME_US
    step = max(1, len(states) * per_state // frames)  # spread the sample over the whole game
    models = []
    for view, events, _now in states[::step]:
        start = events[-1][0]
        for k in range(per_state):
            models.append(
                PlayScreen(
                    game=spec.name,
                    title=spec.title,
                    seats=LOOKS[:players],
                    view=view,
                    events=events,
                    now_us=start + k * FRAME_US,
                )
            )
    return models[:frames]


def _time_frames(models: list[Any], size: tuple[int, int]) -> list[float]:
    from display.renderer import Renderer

    renderer = Renderer(size=size)
    for model in models[:WARM]:
        renderer.draw(model)
    times = []
    for model in models:
        t0 = time.perf_counter()
        renderer.draw(model)
        times.append((time.perf_counter() - t0) * 1000)
    return times


def _callgrind_instructions(models_file: Path, frames: int, hash_seed: int) -> int:
    """Instructions callgrind counts for a worker that warms up then draws ``frames``."""
    out = subprocess.run(
        [
            "valgrind",
            "--tool=callgrind",
            "--callgrind-out-file=/dev/null",
            sys.executable,
            "-m",
            "tests.bench.bench_frames",
            "--worker",
            str(models_file),
            str(frames),
        ],
        cwd=ROOT,
        env={**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy", "PYTHONHASHSEED": str(hash_seed)},
        capture_output=True,
        text=True,
        check=True,
    )
    found = re.search(r"Collected\s*:\s*(\d+)", out.stderr)
    if found is None:
        raise RuntimeError(f"callgrind printed no total:\n{out.stderr[-2000:]}")
    return int(found.group(1))


def instructions_per_frame(models: list[Any]) -> list[float]:
    """Instructions per frame from each pair of callgrind runs (one pair per hash seed)."""
    few, many = CALLGRIND_FRAMES
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "models.pickle"
        path.write_bytes(pickle.dumps(models[: WARM + many]))
        return [
            (_callgrind_instructions(path, many, seed) - _callgrind_instructions(path, few, seed)) / (many - few)
            for seed in CALLGRIND_SEEDS
        ]


def _worker(models_file: str, frames: int) -> None:
    """Draw WARM frames then ``frames`` more at 1280×720 (run under callgrind)."""
    from display.renderer import Renderer

    models = pickle.loads(Path(models_file).read_bytes())
    renderer = Renderer()
    for model in models[:WARM]:
        renderer.draw(model)
    for model in models[WARM : WARM + frames]:
        renderer.draw(model)


def run() -> list[Figure]:
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    from games import registry

    figures = []
    for engine_type in registry.engines():
        name = engine_type.spec.name
        models = game_frames(name, FRAMES)
        for size in SIZES:
            times = _time_frames(models, size)
            res = f"{size[0]}×{size[1]}"
            goal = "≤ 4 ms" if size == (1280, 720) else ""
            note = f"{len(times)} frames, {engine_type.spec.max_players} players, draw only (dummy SDL)"
            figures.append(Figure(f"{name} {res}, median", statistics.median(times), "ms", goal, note))
            figures.append(Figure(f"{name} {res}, p99", percentile(times, 99), "ms", "", ""))
        if shutil.which("valgrind") is None:
            figures.append(Figure(f"{name} instructions per frame", float("nan"), "instr", "", "valgrind missing"))
            continue
        few, many = CALLGRIND_FRAMES
        pairs = instructions_per_frame(models)
        note = (
            f"callgrind, 1280×720: ({many} − {few} frames) difference, median of {len(pairs)} pairs"
            f" (range {min(pairs) / 1e6:.2f}–{max(pairs) / 1e6:.2f} M)"
        )
        figures.append(Figure(f"{name} instructions per frame", statistics.median(pairs), "instr", "", note))
    return figures


if __name__ == "__main__" and len(sys.argv) == 4 and sys.argv[1] == "--worker":
    _worker(sys.argv[2], int(sys.argv[3]))

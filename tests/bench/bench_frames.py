"""Frame budget: what a frame costs, drawn and shown, on every play screen and the attract
mode, at 1280×720 and 1920×1080 — before and after frames were composed (issue 34).

Each registered game is played out by random players at its largest table
(``tests.display.screen_states.playout``: actions 400 ms apart), and every state is drawn
frame after frame at 60 frames a second until the next action, so cards turning over
and sliding, flashes, shakes and easing bars are all in the sample.  Three stretches of
frames per game and size are measured:

- **busiest**: the 30 frames of the playout that repaint the most pixels (after 10 frames
  just before them: the same 40 − 10 frames as before, so caches and the picture on
  screen are what they would be);
- **idle**: a state held 10 s after its last event (a player thinking): nothing moves;
- **attract**: the attract mode as the cabinet draws it (a frame only when its screen
  model changed): the title card, then the first game's demo (its first frames render
  every string of the demo at the inset's size: a one-time cost, in this stretch);
- **attract title card** and **attract demo**: each alone, the demo past its first
  second (what a frame of each costs once its strings are rendered).

**Instructions** come from valgrind's callgrind (no hardware counters in a VM; load-
independent): one worker process per tree and size draws every stretch, each between two
calls of ``os.getppid`` that callgrind dumps its counts at (``--dump-before=getppid``), so
a stretch is counted alone.  "Before" is the same worker run on the tree before issue 34
(``BENCH_BEFORE_TREE``, an export of that commit): whole frames drawn on a canvas and
copied to the window.  Each frame is drawn and shown (``Window.present``, SDL dummy).

**Memory traffic** is counted from the display list (``display.compose.Frame``): the
pixels every paint operation may touch (its box: an upper bound for shapes), clipped to
what is repainted, plus the window's copy (the whole canvas before; the changed
rectangles after), 4 bytes a pixel; "whole-screen passes" are the operations that cover at
least 90 % of the screen.

**Wall time** (load-dependent: the load average is in the note) is each frame drawn and
shown over the whole playout, beside the floor: a bare pygame-ce loop that fills the
window and flips it, at the same size, in the same run.
"""

from __future__ import annotations

import math
import os
import pickle
import re
import statistics
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from pathlib import Path
from typing import Any

from tests.bench.harness import Figure, percentile

TITLE = "Frame budget: play screens and attract, draw + show, 720p and 1080p, before/after composing (issue 34)"
FRAME_US = 16_667
SIZES = ((1280, 720), (1920, 1080))
FRAMES = int(os.environ.get("BENCH_FRAMES", "600"))
"""Frames of each game's playout drawn for the busiest stretch and the wall times."""
WARM, MEASURED = 10, 30
"""Frames drawn first in a stretch and not counted, then frames counted."""
IDLE_US = 10_000_000
"""How long after its last event the idle stretch's state is held."""
ROOT = Path(__file__).resolve().parents[2]
BEFORE_TREE = os.environ.get("BENCH_BEFORE_TREE", "")
"""A tree of the code before issue 34 (``git archive be7f31f | tar -x -C DIR``)."""
WHOLE = 0.9
"""A paint covering this share of the screen counts as a whole-screen pass."""

Stretch = tuple[str, tuple[int, int], list[Any], bool]
"""(name, size, models, changes only): ``changes only``: a model equal to the last is not drawn."""


def game_frames(name: str, frames: int, seed: int = 1) -> list[Any]:
    """``frames`` PlayScreen models of game ``name``: each state of a random playout at
    every 60 Hz frame until the next action."""
    from display.models import PlayScreen
    from display.playout import STEP_US, playout
    from games import registry
    from tests.display.screen_states import LOOKS

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


def idle_frames(models: list[Any]) -> list[Any]:
    """A state from the middle of the playout held :data:`IDLE_US` after its last event."""
    held = models[len(models) // 2]
    start = held.events[-1][0] + IDLE_US
    return [replace(held, now_us=start + k * FRAME_US) for k in range(WARM + MEASURED)]


def attract_frames(every_frame: bool = False, featured: int = 0) -> list[Any]:
    """The attract mode's screen models as the cabinet's loop sees them at 60 fps: the
    title card (6 s), then the demo of the ``featured``-th game (10 s), each model once
    (the loop draws one only when it changed); ``every_frame``: the model of every frame
    of the loop."""
    from firmware_py.runtime import scenes
    from firmware_py.runtime.cabinet import Cabinet
    from firmware_py.runtime.store import Store
    from hal.clock import ManualClock
    from hal.config import load_config
    from hal.sim import SimCabinet

    with tempfile.TemporaryDirectory() as tmp:
        cfg = replace(load_config(), data_dir=Path(tmp))
        clock = ManualClock(1_000_000)
        sim = SimCabinet(cfg, clock)
        store = Store(Path(tmp) / "s.sqlite3")
        cabinet = Cabinet(cfg, sim, clock, store, None, log=lambda _l: None)
        assert isinstance(cabinet.scene, scenes.Attract)
        cabinet.scene.demo_game = featured
        models = []
        for k in range((scenes.TITLE_US + 10_000_000) // FRAME_US):
            now = 1_000_000 + k * FRAME_US
            clock.set(now)
            cabinet.step(now)
            models.append(cabinet.scene.screen(now))
        store.close()
        sim.close()
    return models if every_frame else [models[i] for i in changed_at(models)]


def changed_at(models: list[Any]) -> list[int]:
    """The indices of the models that differ from the one before."""
    return [i for i, m in enumerate(models) if i == 0 or m != models[i - 1]]


def until_drawn(models: list[Any], drawn: int) -> list[Any]:
    """``models`` up to their ``drawn``-th change (the frames a loop drawing only changes
    passes through until it has drawn that many)."""
    changes = changed_at(models)
    return models[: changes[drawn] if drawn < len(changes) else len(models)]


class Traffic:
    """Pixels painted by a composed renderer, and by the same frames drawn whole."""

    def __init__(self, size: tuple[int, int]) -> None:
        from display.renderer import Renderer

        self.renderer = Renderer(size=size)
        self.area = size[0] * size[1]

    def frame(self, model: Any) -> tuple[float, int, float, int]:
        """(pixels written, whole-screen passes) composed, then drawn whole."""
        self.renderer.draw(model)
        frame = self.renderer.composer.shown
        assert frame is not None
        dirty = self.renderer.dirty
        written = passes = 0
        for rect in dirty:
            for box in frame.boxes:
                part = box.clip(rect)
                written += part.w * part.h
                passes += part.w * part.h >= WHOLE * self.area
        shown = sum(r.w * r.h for r in dirty)
        whole = [b.w * b.h for b in frame.boxes]
        return (
            written + shown,
            passes + (shown >= WHOLE * self.area),
            sum(whole) + self.area,
            sum(a >= WHOLE * self.area for a in whole) + 1,
        )


def busiest(models: list[Any], size: tuple[int, int]) -> tuple[list[Any], list[tuple[float, int, float, int]]]:
    """The WARM + MEASURED frames whose MEASURED last repaint the most pixels, and every
    playout frame's traffic."""
    traffic = Traffic(size)
    counts = [traffic.frame(m) for m in models]
    painted = [c[0] for c in counts]
    n = WARM + MEASURED
    start = max(range(len(models) - n + 1), key=lambda s: sum(painted[s + WARM : s + n]))
    return models[start : start + n], counts[start + WARM : start + n]


def traffic_of(models: list[Any], size: tuple[int, int]) -> list[tuple[float, int, float, int]]:
    traffic = Traffic(size)
    counts = [traffic.frame(m) for m in models]
    return counts[WARM:]


def _worker(stretches_file: str, tree: str) -> None:
    """Draw and show every stretch; ``os.getppid()`` before and after its MEASURED frames
    (callgrind dumps there): those after its first WARM, or its last MEASURED when it
    draws more (a demo past its first second drawn after its title card and that second,
    as the cabinet does).  ``tree``: the code to draw with ('' for this one)."""
    if tree:
        sys.path.insert(0, tree)
    from display.renderer import Renderer
    from display.window import Window

    stretches: list[Stretch] = pickle.loads(Path(stretches_file).read_bytes())
    for _name, size, models, changes_only in stretches:
        window = Window(size)
        composed = hasattr(window, "main")
        renderer = Renderer(canvas=window.main) if composed else Renderer(size=size)
        prepares = hasattr(renderer, "prepare")
        draws = len(changed_at(models)) if changes_only else len(models)
        first = max(WARM, draws - MEASURED)  # a longer stretch is counted over its last frames
        last, drawn = None, 0
        for model in models:
            if changes_only and model == last:  # left on screen: the cabinet's idle step
                if prepares:
                    renderer.prepare()
                continue
            if drawn == first:
                os.getppid()
            last, drawn = model, drawn + 1
            canvas = renderer.draw(model)
            if composed:
                window.present(canvas, renderer.dirty)
            else:
                window.present(canvas)
        os.getppid()
        window.close()


def callgrind(stretches: list[Stretch], tree: str, module: str = "tests.bench.bench_frames") -> list[float]:
    """Instructions per measured frame of each stretch (drawn by ``tree``, '' = this one,
    in ``module``'s worker)."""
    totals = _dumps(stretches, "--worker", tree, module)
    ends = totals[-2 * len(stretches) :][1::2]  # each stretch: its start marker's dump, then its end's
    return [t / MEASURED for t in ends]


def preparation_steps(title: Any, size: tuple[int, int]) -> list[int]:
    """Instructions of each step of preparing the next demo (``Renderer.prepare``) after
    the title card ``title`` is drawn, faces cold (a fresh process)."""
    return _dumps([("attract preparation", size, [title], False)], "--steps", "", "tests.bench.bench_frames")[1:-1]


def _steps_worker(stretches_file: str) -> None:
    """Draw the stretch's title card, then prepare until done, ``os.getppid()`` around each step."""
    from display.renderer import Renderer
    from display.window import Window

    ((_name, size, (title,), _changes),) = pickle.loads(Path(stretches_file).read_bytes())
    window = Window(size)
    renderer = Renderer(canvas=window.main)
    renderer.draw(title)
    os.getppid()
    while renderer.prepare():
        os.getppid()
    window.close()


def _dumps(stretches: list[Stretch], mode: str, tree: str, module: str) -> list[int]:
    """Instructions between each two ``os.getppid()`` calls of ``module``'s worker
    (``mode``: ``--worker`` or ``--steps``) run under callgrind on ``stretches``."""
    with tempfile.TemporaryDirectory(prefix="ringside-frames-") as tmp:
        path = Path(tmp) / "stretches.pickle"
        path.write_bytes(pickle.dumps(stretches))
        out = Path(tmp) / "cg.out"
        subprocess.run(
            [
                "valgrind",
                "--tool=callgrind",
                "--dump-before=getppid",
                f"--callgrind-out-file={out}",
                sys.executable,
                "-m",
                module,
                mode,
                str(path),
                tree,
            ],
            cwd=ROOT,
            env={**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy", "PYTHONHASHSEED": "0"},
            capture_output=True,
            text=True,
            check=True,
        )
        dumps = sorted(Path(tmp).glob("cg.out.*"), key=lambda p: int(p.suffix[1:]))
        return [int(re.search(r"^totals:\s*(\d+)", p.read_text(), re.M).group(1)) for p in dumps]  # type: ignore[union-attr]


def floor_ms(size: tuple[int, int], frames: int) -> list[float]:
    """A bare pygame-ce loop's frames: fill the window, flip it."""
    import pygame

    pygame.display.init()
    surface = pygame.display.set_mode(size)
    times = []
    for k in range(frames):
        t0 = time.perf_counter()
        surface.fill((k % 256, 0, 0))
        pygame.display.flip()
        times.append((time.perf_counter() - t0) * 1000)
    pygame.display.quit()
    return times


def frame_ms(models: list[Any], size: tuple[int, int]) -> list[float]:
    """Each frame of the playout drawn and shown (composed), after the first WARM."""
    from display.renderer import Renderer
    from display.window import Window

    window = Window(size)
    renderer = Renderer(canvas=window.main)
    times = []
    for model in models:
        t0 = time.perf_counter()
        window.present(renderer.draw(model), renderer.dirty)
        times.append((time.perf_counter() - t0) * 1000)
    window.close()
    return times[WARM:]


def _res(size: tuple[int, int]) -> str:
    return f"{size[0]}×{size[1]}"


def run() -> list[Figure]:
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    from display.models import DemoScreen
    from games import registry

    figures: list[Figure] = []
    stretches: dict[tuple[int, int], list[Stretch]] = {size: [] for size in SIZES}
    loop = attract_frames(every_frame=True)
    attract = [loop[i] for i in changed_at(loop)]
    names = [e.spec.name for e in registry.engines()]
    for name in names:
        models = game_frames(name, FRAMES)
        idle = idle_frames(models)
        for size in SIZES:
            busy, busy_traffic = busiest(models, size)
            stretches[size] += [(f"{name} busiest", size, busy, False), (f"{name} idle", size, idle, False)]
            for what, counts in (("busiest", busy_traffic), ("idle", traffic_of(idle, size))):
                mb = 4 / 1e6
                figures.append(
                    Figure(
                        f"{name} {_res(size)} {what}: written per frame, before → after",
                        statistics.mean(c[0] for c in counts) * mb,
                        "MB",
                        "",
                        f"before {statistics.mean(c[2] for c in counts) * mb:.1f} MB",
                    )
                )
                figures.append(
                    Figure(
                        f"{name} {_res(size)} {what}: whole-screen passes per frame, after",
                        statistics.mean(c[1] for c in counts),
                        "passes",
                        "≤ 1" if what == "idle" else "",
                        f"before {statistics.mean(c[3] for c in counts):.2f}",
                    )
                )
            load = os.getloadavg()[0]
            times, floor = frame_ms(models, size), floor_ms(size, len(models))
            med, fmed = statistics.median(times), statistics.median(floor)
            note = f"{len(times)} frames drawn + shown; floor (fill + flip) median {fmed:.3f} ms, p99 {percentile(floor, 99):.3f} ms; load {load:.1f}"
            figures.append(Figure(f"{name} {_res(size)} frame wall time, median", med, "ms", "", note))
            figures.append(Figure(f"{name} {_res(size)} frame wall time, p99", percentile(times, 99), "ms", "", ""))
            figures.append(Figure(f"{name} {_res(size)} frame / floor, median", med / fmed, "×", "", ""))
    title = [m for m in attract if not isinstance(m, DemoScreen)]
    demo = [m for m in attract if isinstance(m, DemoScreen)][8:]  # past its first second (~7 changes a second)
    for size in SIZES:
        # every frame of the loop: those it does not draw prepare the next demo (the cabinet's idle step)
        stretches[size].append(("attract", size, until_drawn(loop, WARM + MEASURED), True))
        stretches[size].append(("attract title card", size, (title * (WARM + MEASURED))[: WARM + MEASURED], True))
        stretches[size].append(("attract demo", size, demo[: WARM + MEASURED], True))
    if os.environ.get("BENCH_NO_CALLGRIND"):
        return figures
    trees = ["", BEFORE_TREE] if BEFORE_TREE else [""]
    with ThreadPoolExecutor() as pool:  # valgrind runs side by side: each is one process
        runs = {(size, tree): pool.submit(callgrind, stretches[size], tree) for size in SIZES for tree in trees}
        steps = {size: pool.submit(preparation_steps, title[0], size) for size in SIZES}
    for size in SIZES:
        after = runs[size, ""].result()
        before = runs[size, BEFORE_TREE].result() if BEFORE_TREE else [float("nan")] * len(after)
        for (name, _size, _models, _changes), b, a in zip(stretches[size], before, after, strict=True):
            goal = "≤ 3 M" if name.startswith("attract") else "≤ 1.5 M" if name.endswith("idle") else "≤ 7.2 M"
            figures.append(
                Figure(
                    f"{name} {_res(size)}: instructions per frame (draw + show), after",
                    a,
                    "instr",
                    goal if size == (1920, 1080) else "",
                    ("" if math.isnan(b) else f"before {b / 1e6:.2f} M; ")
                    + f"callgrind, {MEASURED} frames after {WARM}",
                )
            )
        counts = steps[size].result()
        note = f"{len(counts)} steps in frames the title card leaves unchanged (of its ~360 at 60 fps), faces cold; callgrind"
        figures.append(
            Figure(
                f"attract: preparing the next demo {_res(size)}: instructions per step, max",
                max(counts),
                "instr",
                "",
                note,
            )
        )
        figures.append(
            Figure(f"attract: preparing the next demo {_res(size)}: instructions in all", sum(counts), "instr", "", "")
        )
    return figures


if __name__ == "__main__" and len(sys.argv) == 4 and sys.argv[1] == "--worker":
    _worker(sys.argv[2], sys.argv[3])
if __name__ == "__main__" and len(sys.argv) == 4 and sys.argv[1] == "--steps":
    _steps_worker(sys.argv[2])

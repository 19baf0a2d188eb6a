"""HIL figures: timing fidelity (injected µs stamp vs the stamp the cabinet and the engine
saw) and scenario run time against the timeline's own length, over the shipped scenarios
on the sim backend."""

from __future__ import annotations

import os
import statistics
import tempfile
import tomllib
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

from tests.bench.harness import Figure  # noqa: E402

TITLE = "HIL scenarios: timing fidelity and run time vs timeline"
HIL = Path(__file__).resolve().parents[1] / "hil"
REPEATS = 3


def scenario_files() -> list[Path]:
    return sorted(p for p in HIL.rglob("*.toml") if "scenario" in tomllib.loads(p.read_text()))


def run() -> list[Figure]:
    from firmware_py.hil.runner import run_scenario
    from firmware_py.hil.scenario import load_scenario

    scenarios = [load_scenario(p) for p in scenario_files()]
    inputs = exact = actions = actions_exact = 0
    worst = 0
    ratios: dict[str, list[float]] = {}
    walls: dict[str, list[float]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for rep in range(REPEATS):
            for s in scenarios:
                r = run_scenario(s, "sim", Path(tmp) / str(rep))
                if r.status not in ("pass", "skip"):
                    raise AssertionError(r.summary())
                if r.status == "skip":
                    continue
                if rep == 0:
                    f = r.fidelity
                    inputs += f.inputs
                    exact += f.exact
                    actions += f.actions
                    actions_exact += f.actions_exact
                    worst = max(worst, f.max_error_us)
                ratios.setdefault(s.name, []).append(r.wall_s / (s.length_us / 1e6))
                walls.setdefault(s.name, []).append(r.wall_s)
    med = {k: statistics.median(v) for k, v in ratios.items()}
    total_wall = sum(statistics.median(v) for v in walls.values())
    total_timeline = sum(s.length_us for s in scenarios if s.name in walls) / 1e6
    slowest = max(med, key=med.get)
    figures = [
        Figure("injected input stamps seen exactly (sim)", 100 * exact / inputs if inputs else 0, "%", "100 % (exact)",
               f"{exact} of {inputs} presses, releases and slaps over {len(walls)} scenarios; worst error {worst} µs"),
        Figure("engine action stamps equal to the injected stamp (sim)", 100 * actions_exact / actions if actions else 0, "%",
               "100 % (exact)", f"{actions_exact} of {actions} timed actions (PlayTop, Slaps); reveals are frame flips, not inputs"),
        Figure("run time / timeline length, all scenarios", total_wall / total_timeline, "×", "< 1 (faster than real time)",
               f"median of {REPEATS}: {total_wall:.2f} s wall for {total_timeline:.1f} s of timeline"),
        Figure("run time / timeline length, median scenario", statistics.median(med.values()), "×", "< 1", ""),
        Figure("run time / timeline length, slowest scenario", med[slowest], "×", "< 1", slowest),
    ]
    for name in ("punch-whole-match", "punch-every-pairing", "karate-near-tie-4"):
        if name in walls:
            s = next(x for x in scenarios if x.name == name)
            figures.append(Figure(f"{name}: wall time", statistics.median(walls[name]), "s", "",
                                  f"timeline {s.length_us / 1e6:.2f} s; {len(s.inputs)} inputs, {len(s.expects)} checkpoints"))
    return figures


if __name__ == "__main__":
    for f in run():
        print(f)

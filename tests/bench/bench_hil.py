"""HIL figures: timing fidelity (injected µs stamp vs the stamp the cabinet and the engine
saw) and scenario run time against the timeline's own length, over the shipped scenarios
on the sim backend.  Virtual-time scenarios must be exact; padboard scenarios run the
padboard simulator and the real driver in real time, so their stamps carry the clock
sync's error, reported separately."""

from __future__ import annotations

import os
import statistics
import tempfile
import tomllib
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

from tests.bench.harness import Figure

TITLE = "HIL scenarios: timing fidelity and run time vs timeline"
HIL = Path(__file__).resolve().parents[1] / "hil"
REPEATS = 3


def scenario_files() -> list[Path]:
    return sorted(p for p in HIL.rglob("*.toml") if "scenario" in tomllib.loads(p.read_text()))


def run() -> list[Figure]:
    from firmware_py.hil.runner import run_scenario
    from firmware_py.hil.scenario import load_scenario

    scenarios = [load_scenario(p) for p in scenario_files()]
    fid = {"virtual": [0, 0, 0, 0, 0], "real-time": [0, 0, 0, 0, 0]}  # inputs, exact, actions, exact, worst
    rt_errors: list[int] = []
    ratios: dict[str, list[float]] = {}
    walls: dict[str, list[float]] = {}
    timebase: dict[str, str] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for rep in range(REPEATS):
            for s in scenarios:
                r = run_scenario(s, "sim", Path(tmp) / str(rep))
                if r.status not in ("pass", "skip"):
                    raise AssertionError(r.summary())
                if r.status == "skip":
                    continue
                timebase[s.name] = r.timebase
                f, acc = r.fidelity, fid[r.timebase]
                acc[0] += f.inputs
                acc[1] += f.exact
                acc[2] += f.actions
                acc[3] += f.actions_exact
                acc[4] = max(acc[4], f.max_error_us)
                if r.timebase == "real-time":
                    rt_errors += [abs(e) for e in f.errors]
                ratios.setdefault(s.name, []).append(r.wall_s / (s.length_us / 1e6))
                walls.setdefault(s.name, []).append(r.wall_s)
    med = {k: statistics.median(v) for k, v in ratios.items()}
    virtual = [k for k in med if timebase[k] == "virtual"]
    realtime = [k for k in med if timebase[k] == "real-time"]
    v_wall = sum(statistics.median(walls[k]) for k in virtual)
    v_timeline = sum(s.length_us for s in scenarios if s.name in virtual) / 1e6
    vi, ve, va, vae, vworst = fid["virtual"]
    figures = [
        Figure(
            "injected input stamps seen exactly (sim, virtual time)",
            100 * ve / vi if vi else 0,
            "%",
            "100 % (exact)",
            f"{ve} of {vi} presses, releases and slaps over {len(virtual)} scenarios × {REPEATS} runs; worst error {vworst} µs",
        ),
        Figure(
            "engine action stamps equal to the injected stamp (sim, virtual time)",
            100 * vae / va if va else 0,
            "%",
            "100 % (exact)",
            f"{vae} of {va} timed actions (Karate PlayTop, Slaps); reveals are frame flips, not inputs",
        ),
        Figure(
            "run time / timeline length, virtual-time scenarios",
            v_wall / v_timeline,
            "×",
            "< 1 (faster than real time)",
            f"median of {REPEATS}: {v_wall:.2f} s wall for {v_timeline:.1f} s of timeline",
        ),
        Figure(
            "run time / timeline length, slowest virtual-time scenario",
            max(med[k] for k in virtual),
            "×",
            "< 1",
            max(virtual, key=med.get),
        ),
    ]
    if realtime:
        ri, re_, _ra, _rae, rworst = fid["real-time"]
        figures += [
            Figure(
                "padboard scenarios: slap/press stamps within 1 ms",
                100 * sum(e <= 1000 for e in rt_errors) / len(rt_errors) if rt_errors else 100,
                "%",
                "",
                f"{re_} of {ri} exact (presses are; slaps pass the simulator's clock sync); worst {rworst} µs",
            ),
            Figure(
                "run time / timeline length, padboard scenarios (real time)",
                statistics.median(med[k] for k in realtime),
                "×",
                "≈ 1 + link set-up",
                ", ".join(realtime),
            ),
        ]
    for name in ("punch-whole-match", "punch-every-pairing", "karate-near-tie-4"):
        if name in walls:
            s = next(x for x in scenarios if x.name == name)
            figures.append(
                Figure(
                    f"{name}: wall time",
                    statistics.median(walls[name]),
                    "s",
                    "",
                    f"timeline {s.length_us / 1e6:.2f} s; {len(s.inputs)} inputs, {len(s.expects)} checkpoints",
                )
            )
    return figures


if __name__ == "__main__":
    for f in run():
        print(f)

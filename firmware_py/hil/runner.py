"""``ringside hil run``: load scenario files, run each on a backend, write the reports.

Per scenario, ``<report dir>/<scenario name>/`` gets ``events.jsonl`` (every observation
in time order, then every check), ``final.png`` and the screenshots of its screen
checkpoints (``*-actual.png``; ``*-expected.png`` and ``*-diff.png`` on failure).
The report dir gets ``junit.xml`` and ``summary.jsonl``.  Exit status 0: every scenario
passed; 1: a check failed; 2: a scenario could not be run (bad file, no rig).
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Callable, Sequence
from pathlib import Path

from firmware_py.hil.report import write_jsonl, write_junit
from firmware_py.hil.result import ScenarioResult
from firmware_py.hil.scenario import Scenario, ScenarioError, load_scenario

DEFAULT_REPORT_DIR = Path("out") / "hil"


def safe_name(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "-", name).strip("-") or "scenario"


def run_scenario(
    scenario: Scenario,
    backend: str = "sim",
    report_dir: Path = DEFAULT_REPORT_DIR,
    update_goldens: bool = False,
    rig_config: str | Path | None = None,
    log: Callable[[str], None] | None = None,
    window: bool = True,
) -> ScenarioResult:
    out_dir = report_dir / safe_name(scenario.name)
    if backend not in scenario.backends:
        return ScenarioResult(
            scenario.name,
            scenario.path,
            backend,
            "skip",
            message=f"scenario runs on {', '.join(scenario.backends)} only",
            length_us=scenario.length_us,
        )
    if backend in ("sim", "padboard-emulated"):
        from firmware_py.hil.sim_backend import SimRun

        kind = SimRun
        if backend == "padboard-emulated":
            from firmware_py.hil.emulated_backend import EmulatedRun

            kind = EmulatedRun
        run = kind(scenario, out_dir, update_goldens, log, window)
        result = run.run()
        rows = [o.as_json() for o in run.rec.journal]
    elif backend == "rig":
        from firmware_py.hil.rig import RigError, RigRun, load_rig_config

        try:
            rig = load_rig_config(rig_config)
        except RigError as e:
            return ScenarioResult(
                scenario.name, scenario.path, backend, "error", message=str(e), length_us=scenario.length_us
            )
        rrun = RigRun(scenario, rig, out_dir, log)
        result = rrun.run()
        rows = [o.as_json() for o in rrun.rec.journal]
    else:
        raise ValueError(f"no HIL backend {backend!r}: sim, padboard-emulated or rig")
    result.files.append(str(write_jsonl(out_dir / "events.jsonl", rows)))
    return result


def is_scenario_file(path: Path) -> bool:
    """A ``*.toml`` with a ``[scenario]`` table (cabinet and rig configs live beside them)."""
    try:
        return "scenario" in tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return True  # let the loader say what is wrong with it


def expand(paths: Sequence[str | Path]) -> list[Path]:
    """Files as given; folders → every scenario file under them, sorted.  A file given by
    name (or a shell glob) that is not a scenario, such as a cabinet config, is left out."""
    out: list[Path] = []
    for raw in paths:
        p = Path(raw)
        if p.is_dir():
            out += sorted(f for f in p.rglob("*.toml") if is_scenario_file(f))
        elif not p.exists() or is_scenario_file(p):
            out.append(p)
    return out


def run_files(
    paths: Sequence[str | Path],
    backend: str = "sim",
    report_dir: Path = DEFAULT_REPORT_DIR,
    update_goldens: bool = False,
    rig_config: str | Path | None = None,
    print_: Callable[[str], None] = print,
    verbose: bool = False,
) -> tuple[int, list[ScenarioResult]]:
    results: list[ScenarioResult] = []
    for p in expand(paths):
        try:
            scenario = load_scenario(p)
        except ScenarioError as e:
            r = ScenarioResult(Path(p).stem, Path(p), backend, "error", message=str(e))
            results.append(r)
            print_(r.summary())
            continue
        r = run_scenario(scenario, backend, report_dir, update_goldens, rig_config, print_ if verbose else None)
        results.append(r)
        print_(r.summary())
    junit = write_junit(report_dir / "junit.xml", results)
    write_jsonl(report_dir / "summary.jsonl", (r.as_json() for r in results))
    failed = sum(r.status == "fail" for r in results)
    errors = sum(r.status == "error" for r in results)
    passed = sum(r.status == "pass" for r in results)
    print_(
        f"{passed} passed, {failed} failed, {errors} errors, {len(results) - passed - failed - errors} skipped; "
        f"JUnit: {junit}"
    )
    return (2 if errors else 1 if failed else 0), results

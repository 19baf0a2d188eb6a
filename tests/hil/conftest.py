"""Every scenario file under ``tests/hil/`` becomes pytest items, so ``make test`` runs them:

- ``<file>::sim`` — the scenario on the sim backend (headless, deterministic);
- ``<file>::rig`` — the same on a real cabinet test rig, marked ``hil``; collected only
  when ``RINGSIDE_RIG`` names a rig config (see docs/hil.md), so a run without a rig
  counts no skipped item;
- ``<file>::padboard-emulated`` — the same with its slaps through the padboard's firmware
  on an emulated RP2040, marked ``board``; collected only when ``RINGSIDE_PADBOARD_EMULATED``
  is set (minutes of wall time each: docs/hil.md).

A scenario whose padboard link runs on the wall clock is marked ``realtime`` too.

A scenario file is any ``*.toml`` here with a ``[scenario]`` table (cabinet configs and
rig configs beside them are not).  Reports, JSONL logs and screenshots go to
``out/test-artifacts/hil/<backend>/<scenario>/``.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from firmware_py.hil.result import ScenarioResult
from firmware_py.hil.runner import is_scenario_file
from firmware_py.hil.scenario import ScenarioError, load_scenario

ARTIFACTS = (
    Path(os.environ.get("RINGSIDE_TEST_ARTIFACTS", Path(__file__).resolve().parents[2] / "out" / "test-artifacts"))
    / "hil"
)
RIG_ENV = "RINGSIDE_RIG"
EMULATED_ENV = "RINGSIDE_PADBOARD_EMULATED"


def pytest_collect_file(parent: pytest.Collector, file_path: Path) -> pytest.Collector | None:
    if file_path.suffix == ".toml" and is_scenario_file(file_path):
        return ScenarioFile.from_parent(parent, path=file_path)
    return None


class ScenarioFailed(Exception):
    def __init__(self, result: ScenarioResult) -> None:
        super().__init__(result.summary())
        self.result = result


class ScenarioFile(pytest.File):
    def collect(self) -> Any:
        sim = ScenarioItem.from_parent(self, name="sim", backend="sim")
        sim.add_marker(pytest.mark.slow)  # a whole scenario at the cabinet: make test, not make check
        if real_time(self.path):
            sim.add_marker(pytest.mark.realtime)
        yield sim
        if os.environ.get(RIG_ENV):  # without a rig there is nothing to run: not collected, never "skipped"
            rig = ScenarioItem.from_parent(self, name="rig", backend="rig")
            rig.add_marker(pytest.mark.hil)
            rig.add_marker(pytest.mark.slow)
            rig.add_marker(pytest.mark.realtime)
            yield rig
        if os.environ.get(EMULATED_ENV):
            board = ScenarioItem.from_parent(self, name="padboard-emulated", backend="padboard-emulated")
            for mark in (pytest.mark.board, pytest.mark.slow, pytest.mark.realtime):
                board.add_marker(mark)
            yield board


def real_time(path: Path) -> bool:
    """Whether the scenario plays on the wall clock on the sim backend (a padboard link);
    a scenario that does not load is not: its item reports why when it runs."""
    from firmware_py.hil.sim_backend import runs_in_real_time

    try:
        return runs_in_real_time(load_scenario(path))
    except Exception:
        return False


class ScenarioItem(pytest.Item):
    def __init__(self, *, backend: str, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.backend = backend

    def runtest(self) -> None:
        from firmware_py.hil.runner import run_scenario, write_jsonl

        rig = os.environ.get(RIG_ENV) if self.backend == "rig" else None
        try:
            scenario = load_scenario(self.path)
        except ScenarioError as e:
            raise ScenarioFailed(
                ScenarioResult(self.path.stem, self.path, self.backend, "error", message=str(e))
            ) from None
        result = run_scenario(scenario, self.backend, ARTIFACTS / self.backend, rig_config=rig)
        write_jsonl(ARTIFACTS / self.backend / "last-summary.jsonl", [result.as_json()])
        self.user_properties.append(("hil_fidelity", result.fidelity.summary()))
        if result.status == "skip":
            pytest.skip(result.message)
        if result.status != "pass":
            raise ScenarioFailed(result)

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> str:
        if isinstance(excinfo.value, ScenarioFailed):
            r = excinfo.value.result
            where = f"\n      artifacts: {r.out_dir}" if r.out_dir else ""
            return r.summary() + where
        return super().repr_failure(excinfo)

    def reportinfo(self) -> tuple[Path, int, str]:
        return self.path, 0, f"HIL scenario {self.path.name} [{self.backend}]"

"""What each test module costs in CPU, so a parallel run starts the dearest first.

pytest-xdist's worksteal hands each worker a contiguous share of the collection and
lets an idle worker take half of another's queue.  Started in file order, a module of
45 s tests found near the end runs alone while the other worker waits; started dearest
first, the run ends on the cheapest tests and the workers finish together.  A module's
tests stay together (its module-scoped fixtures are made once per worker).

``costs.json`` holds each module's CPU seconds (self and children, summed over its
tests) from a whole run; a module it does not name is taken as cheap.  Refresh it with
``make test-costs`` after adding or reshaping heavy tests: a stale file only orders
less well, it never changes what runs.
"""

from __future__ import annotations

import json
import os
import resource
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

COSTS = Path(__file__).with_name("costs.json")
RECORD_ENV = "RINGSIDE_RECORD_COSTS"
"""A folder: each worker writes what each test cost there (``make test-costs``)."""


def module_of(nodeid: str) -> str:
    return nodeid.split("::", 1)[0]


def dearest_first(items: list[pytest.Item], costs: dict[str, float]) -> list[pytest.Item]:
    """``items`` grouped by module (in their order inside it), dearest module first."""
    modules: dict[str, list[pytest.Item]] = {}
    for item in items:
        modules.setdefault(module_of(item.nodeid), []).append(item)
    order = sorted(modules, key=lambda m: -costs.get(m, 0.0))  # stable: unnamed modules keep file order
    return [item for m in order for item in modules[m]]


def load() -> dict[str, float]:
    try:
        costs: dict[str, float] = json.loads(COSTS.read_text())
    except (OSError, ValueError):
        return {}
    return costs


def _cpu_s() -> float:
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


class Recorder:
    """Appends ``nodeid <tab> CPU s`` per test to this worker's file in ``folder``."""

    def __init__(self, folder: Path) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        self._out = (folder / f"{os.getpid()}.tsv").open("a")

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_protocol(self, item: pytest.Item) -> Iterator[None]:
        before = _cpu_s()
        yield
        self._out.write(f"{item.nodeid}\t{_cpu_s() - before:.3f}\n")
        self._out.flush()


def summed(folder: Path) -> dict[str, float]:
    """Each module's CPU seconds from the recorders' files in ``folder``."""
    costs: dict[str, float] = {}
    for path in folder.glob("*.tsv"):
        for line in path.read_text().splitlines():
            nodeid, seconds = line.rsplit("\t", 1)
            costs[module_of(nodeid)] = costs.get(module_of(nodeid), 0.0) + float(seconds)
    return {m: round(s, 1) for m, s in sorted(costs.items(), key=lambda kv: -kv[1])}


if __name__ == "__main__":  # python -m tests.costs FOLDER: write costs.json from a recorded run
    COSTS.write_text(json.dumps(summed(Path(sys.argv[1])), indent=1) + "\n")
    print(f"wrote {COSTS}")

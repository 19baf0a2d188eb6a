"""Shared fixtures: headless SDL, a fresh cabinet config, a simulated cabinet."""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

from firmware_py.runtime.cabinet import Cabinet
from firmware_py.runtime.store import Store
from hal.clock import ManualClock
from hal.config import CabinetConfig, load_config
from hal.sim import SimCabinet
from tests import costs

ARTIFACTS = Path(
    os.environ.get("RINGSIDE_TEST_ARTIFACTS", Path(__file__).resolve().parents[1] / "out" / "test-artifacts")
)

# Cabinets started by the tests (in process or as `ringside run`) keep their rendered cues
# in one folder, as a HIL rig's do, instead of rendering every cue in each fresh data folder.
os.environ.setdefault("RINGSIDE_SOUND_CACHE", str(ARTIFACTS / "sound-cache"))

# Property tests draw the same examples on every run, so a test run never fails on a
# draw of luck; a failure once found is kept in the test as an explicit ``@example``.
# ``HYPOTHESIS_PROFILE=explore`` draws fresh examples (and more of them) to hunt for new ones.
# Neither times an example: Hypothesis's 200 ms deadline and its "too slow" check are
# wall-clock assertions, and a loaded machine failed the codec's round trip on one.
untimed = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow], database=None, print_blob=True)
settings.register_profile("ringside", untimed, derandomize=True)
settings.register_profile("explore", untimed, max_examples=2_000)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ringside"))


def pytest_configure(config: pytest.Config) -> None:
    folder = os.environ.get(costs.RECORD_ENV)
    if folder:
        config.pluginmanager.register(costs.Recorder(Path(folder)), "ringside-costs")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """A soak is slow: ``make check`` leaves soaks out without marking them twice.  The
    dearest modules run first (tests/costs.py: parallel workers then finish together)."""
    for item in items:
        if item.get_closest_marker("soak") is not None:
            item.add_marker(pytest.mark.slow)
    items[:] = costs.dearest_first(items, costs.load())


@pytest.fixture
def config(tmp_path: Path) -> CabinetConfig:
    from dataclasses import replace

    return replace(load_config(), data_dir=tmp_path / "data")


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock(1_000_000)


@pytest.fixture
def sim(config: CabinetConfig, clock: ManualClock):
    cabinet = SimCabinet(config, clock)
    yield cabinet
    cabinet.close()


@pytest.fixture
def store(config: CabinetConfig):
    s = Store(config.data_dir / "ringside.sqlite3")
    yield s
    s.close()


@pytest.fixture
def cabinet(config: CabinetConfig, sim: SimCabinet, clock: ManualClock, store: Store) -> Cabinet:
    return Cabinet(config, sim, clock, store, window=None, log=lambda _line: None, seed=7)


@pytest.fixture
def artifacts() -> Path:
    """Where tests leave PNGs for a person to look at."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS

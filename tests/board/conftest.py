"""The emulated board's tests (test_emulated*.py) boot an RP2040 in rp2040js: minutes of
wall time each, so only ``make board-test`` (``-m board``) collects them; the
interpreter-only tests (test_micropython.py) run in ``make test``."""

from __future__ import annotations

from pathlib import Path

import pytest


def pytest_ignore_collect(collection_path: Path, config: pytest.Config) -> bool | None:
    if not collection_path.name.startswith("test_emulated"):
        return None
    markexpr = config.getoption("markexpr", "") or ""
    wanted = "board" in markexpr and "not board" not in markexpr
    return None if wanted else True

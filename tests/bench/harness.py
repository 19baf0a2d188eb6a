"""Benchmark plumbing shared by every ``tests/bench/bench_*.py`` module.

A bench module exposes ``TITLE`` (its section heading) and ``run() -> list[Figure]``.
Figures are medians (and percentiles) over repeated runs, never a single run.
``python -m tests.bench`` (``make bench``) runs every module and rewrites BENCHMARKS.md.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Figure:
    """One measured figure; ``goal`` is the issue's target in words (e.g. '≥ 30,000')."""

    name: str
    value: float
    unit: str
    goal: str = ""
    note: str = ""


def percentile(samples: Sequence[float], p: float) -> float:
    """The p-th percentile (0–100) by nearest rank; samples need not be sorted."""
    if not samples:
        raise ValueError("no samples")
    ordered = sorted(samples)
    rank = max(0, min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1))))
    return ordered[rank]


def median_rate(work: Callable[[], int], repeats: int = 7) -> tuple[float, list[float]]:
    """Run ``work`` (which returns how many units it did) ``repeats`` times; return the
    median units per second and every run's rate."""
    rates = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        units = work()
        rates.append(units / (time.perf_counter() - t0))
    return statistics.median(rates), rates

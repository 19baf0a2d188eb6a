"""Slap timing on real pads (issue 31): the widened piezo model's pad kinds behind a front
end of gain ×1, ×4 and ×8, calibrated by the wizard with the contact probe (the
functions live with the rest of the slap-timing bench, :mod:`tests.bench.bench_slap_accuracy`)."""

from __future__ import annotations

import os

from tests.bench.bench_slap_accuracy import real_pad_figures
from tests.bench.harness import Figure

TITLE = "Slap timing on real pads (widened piezo model)"


def run() -> list[Figure]:
    return real_pad_figures(float(os.environ.get("RINGSIDE_BENCH_N", "1.0")))

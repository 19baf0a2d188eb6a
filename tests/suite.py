"""``make test`` and ``make check``: the suite's two parts side by side.

The tests marked ``realtime`` are judged by the wall clock (a padboard link over a pty,
a signal into a running process, a browser waiting on a server) and spend most of their
minute asleep: run after the rest, as they were, they added 70 s to ``make test`` for
about 25 s of CPU.  They now run one at a time beside the parallel part (pytest-xdist on
every core), in their own pytest process.  Where the system lets it (root, as CI runs)
that process and everything it starts run at a higher priority than the parallel
workers (nice −5 against 0: about three quarters of a contended core, and the first
turn on waking), so no worker starves the clock they are judged by; elsewhere they run
at the same priority and hold, as they must under any load (issue 29: the suite passes
while another process keeps both cores busy).

Their report is printed after the parallel part's, whole, so the two never interleave.
The exit status is the first part's that failed.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import tempfile
from collections.abc import Sequence

REALTIME_NICE = -5
"""The realtime part's priority, where the system allows raising it."""


def _raise_priority() -> None:
    """Not root: the realtime part keeps the workers' priority (the module docstring)."""
    with contextlib.suppress(PermissionError):
        os.nice(REALTIME_NICE)


def run(select: str | None, extra: Sequence[str]) -> int:
    """Both parts of the tests ``select`` (a marker expression; None: all) picks, with
    ``extra`` pytest arguments; the exit status is the parallel part's if it failed,
    else the realtime part's."""
    within = f"({select}) and " if select else ""
    pytest = [sys.executable, "-m", "pytest", "-q", *extra]
    parallel = [*pytest, "-n", "auto", "--dist", "worksteal", "-m", f"{within}not realtime"]
    realtime = [*pytest, "-m", f"{within}realtime"]
    with tempfile.TemporaryFile("w+") as log:
        beside = subprocess.Popen(realtime, stdout=log, stderr=subprocess.STDOUT, preexec_fn=_raise_priority)
        try:
            parallel_status = subprocess.call(parallel)
        finally:
            realtime_status = beside.wait()
        log.seek(0)
        sys.stdout.write(f"\nthe realtime tests, run beside the rest:\n{log.read()}")
    return parallel_status or realtime_status


def main(argv: Sequence[str]) -> int:
    """``[-m MARKER_EXPRESSION] [PYTEST_ARGS...]``"""
    if argv[:1] == ["-m"]:
        if len(argv) < 2:
            print("usage: python -m tests.suite [-m MARKER_EXPRESSION] [PYTEST_ARGS...]", file=sys.stderr)
            return 2
        return run(argv[1], argv[2:])
    return run(None, argv)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

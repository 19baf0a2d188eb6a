"""A test run again and again in a process that is stopped and let go at random.

Issue 29: a realtime test that fails under load is either fixed or shown to be a timing
fault in the code.  Load from other processes is hard to repeat; SIGSTOP/SIGCONT is
not: the test's whole process (its threads, the simulated padboard's among them) stops
for 50-300 ms, runs for 10-90 ms, and so on, from ``--after`` seconds on (past pytest's
start-up).  Each run's log is kept, and the runs that failed, and those whose log holds
``--count`` (a log line to count, e.g. the driver's clock-jump warning), are tallied:

    python -m tests.faults.starve tests/hal/padboard/test_link.py::test_padboard_link_simulator_port_at_a_chosen_path

On a Pi the process runs alone; this is far harsher than the busy loops ``make test``
must pass beside, so a failure here is a lead, not a verdict.
"""

from __future__ import annotations

import argparse
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence


def starve_once(node: str, log_path: str, after_s: float, rng: random.Random) -> int:
    """One pytest run of ``node`` starved from ``after_s`` on; its exit status."""
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
    cmd = [sys.executable, "-m", "pytest", "-q", "-p", "no:xdist", "-p", "no:cacheprovider", "-o", "log_level=WARNING"]
    with open(log_path, "w") as log:
        proc = subprocess.Popen([*cmd, node], stdout=log, stderr=subprocess.STDOUT, env=env)
        time.sleep(after_s)
        while proc.poll() is None:
            proc.send_signal(signal.SIGSTOP)
            time.sleep(rng.uniform(0.05, 0.3))
            proc.send_signal(signal.SIGCONT)
            time.sleep(rng.uniform(0.01, 0.09))
        return proc.returncode


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("node", help="a pytest node id")
    ap.add_argument("--runs", type=int, default=20)
    ap.add_argument("--after", type=float, default=0.7, help="seconds before the first stop")
    ap.add_argument("--count", default="clock jumped", help="a log line to count in each run")
    ap.add_argument("--seed", type=int, default=29)
    args = ap.parse_args(argv)
    rng = random.Random(args.seed)
    logs = tempfile.mkdtemp(prefix="ringside-starve-")
    failed = counted = 0
    for i in range(args.runs):
        path = os.path.join(logs, f"run{i + 1}.log")
        status = starve_once(args.node, path, args.after, rng)
        with open(path) as f:
            seen = f.read().count(args.count)
        failed += status != 0
        counted += seen > 0
        print(f"run {i + 1}: exit {status}, {seen} x {args.count!r}", flush=True)
    print(f"{args.runs} runs: {failed} failed, {counted} with {args.count!r}; logs in {logs}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Cabinet processes for ``kill -9`` loops, forked from one interpreter that has already
imported everything: a run then costs a fork, not a second of interpreter start-up, so a
loop of hundreds of kills fits in minutes.

``python -m tests.faults.zygote`` reads one command a line on stdin,
``DATA GAME SEED CLOCK_US STDERR_PATH``, forks a child that runs
:func:`tests.faults.player.main` (nothing is opened before the fork: the child opens the
data folder's lock and store itself, as a fresh process would), answers ``pid N``,
relays the child's stdout line by line until it ends (killed, as a rule), then answers
``exit STATUS``.
"""

from __future__ import annotations

import os
import sys
import traceback

import hal.sim  # noqa: F401  (imported once here, before any fork)
from tests.faults import player


def run_child(args: list[str], stderr_path: str, out: int) -> None:
    """In the forked child: become a player process writing to ``out``; never returns."""
    code = 1
    try:
        err = os.open(stderr_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
        os.dup2(out, 1)
        os.dup2(err, 2)
        sys.stdout = os.fdopen(1, "w", buffering=1)
        sys.stderr = os.fdopen(2, "w", buffering=1)
        code = player.main(args)
    except BaseException:
        traceback.print_exc()
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)


def main() -> int:
    for command in sys.stdin:
        *args, stderr_path = command.split()
        read, write = os.pipe()
        pid = os.fork()
        if pid == 0:
            os.close(read)
            run_child(args, stderr_path, write)
        os.close(write)
        print(f"pid {pid}", flush=True)
        with os.fdopen(read) as lines:
            for line in lines:
                sys.stdout.write(line)
                sys.stdout.flush()
        _, status = os.waitpid(pid, 0)
        print(f"exit {status}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

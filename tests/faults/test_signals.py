"""``ringside run --headless`` stops on SIGTERM and SIGINT, with a line and exit 0.

Issue 22: SDL turned both signals into a QUIT event the headless exhibition never reads,
so 12 of 12 were ignored; and SIGTERM during start-up (before SDL) killed the process
without a line, exit 143.  Here a real ``ringside`` process gets each signal while it
plays, and SIGTERM at moments of its start-up; each time it logs that it stops, exits 0
and leaves its store sound.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from firmware_py.runtime.store import inspect
from firmware_py.tools.run import StopRequested, raise_if_stopped, restore_signals, stop_on_signals
from tests.faults.test_cli_faults import ROOT


def start(data: Path) -> subprocess.Popen[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
    env.pop("DISPLAY", None)
    env.pop("SDL_NO_SIGNAL_HANDLERS", None)  # as a service runs it: SDL's handlers are the fault
    command = [sys.executable, "-m", "firmware_py.tools.cli", "run", "--headless", "--seed", "3", "--data", str(data)]
    return subprocess.Popen(command, stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True, cwd=ROOT, env=env)


def wait_for_line(proc: subprocess.Popen[str], words: str) -> list[str]:
    """Lines of the log up to the first holding ``words`` (all of them if it never comes)."""
    assert proc.stderr is not None
    seen = []
    for line in proc.stderr:
        seen.append(line)
        if words in line:
            break
    return seen


def stopped(proc: subprocess.Popen[str], seen: list[str], sig: signal.Signals) -> str:
    proc.send_signal(sig)
    try:
        _, rest = proc.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        proc.kill()
        _, rest = proc.communicate()
        pytest.fail(f"still running 60 s after {sig.name}:\n{''.join(seen)}{rest}")
    log = "".join(seen) + rest
    assert "Traceback" not in log, log
    assert proc.returncode == 0, (proc.returncode, log)
    assert f"ringside: stopping ({sig.name})" in log, log
    return log


@pytest.mark.slow  # real processes, each a second or more: ``make test`` runs them, ``make check`` not
@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT], ids=lambda s: s.name)
def test_the_headless_exhibition_stops_on_a_signal(tmp_path: Path, sig: signal.Signals) -> None:
    proc = start(tmp_path)
    seen = wait_for_line(proc, " chose ")  # the exhibition is playing
    assert seen and " chose " in seen[-1], "".join(seen)
    log = stopped(proc, seen, sig)
    assert "finished:" not in log and "DID NOT FINISH" not in log  # stopped, not played out
    assert inspect(tmp_path / "ringside.sqlite3") is None  # the store closed sound


@pytest.mark.slow
@pytest.mark.parametrize("delay_s", [0.0, 0.05, 0.2, 0.5])
def test_sigterm_during_start_up_is_a_line_and_exit_0(tmp_path: Path, delay_s: float) -> None:
    """From the first log line on (the config read, the data folder locked), while the
    store, pygame and the cabinet open: wherever SIGTERM lands, one line and exit 0."""
    proc = start(tmp_path)
    seen = wait_for_line(proc, "headless exhibition")
    assert seen and "headless exhibition" in seen[-1], "".join(seen)
    time.sleep(delay_s)
    stopped(proc, seen, signal.SIGTERM)
    assert inspect(tmp_path / "ringside.sqlite3") is None


def test_a_stop_that_c_code_swallowed_is_raised_again() -> None:
    """SIGTERM 50 ms after start-up's first line once landed in pygame's icon loading,
    which ``set_mode`` calls from C and whose exception it clears: the exhibition then
    played on.  The stop is kept, and ``run`` raises it again at its next step."""
    stop_on_signals()
    try:
        try:
            os.kill(os.getpid(), signal.SIGTERM)
            time.sleep(1)  # the handler runs here ...
        except StopRequested:
            pass  # ... and its exception is swallowed, as pygame's C code does
        with pytest.raises(StopRequested) as again:
            raise_if_stopped()
        assert again.value.signal_name == "SIGTERM"
        os.kill(os.getpid(), signal.SIGTERM)  # a second signal while stopping: not raised
    finally:
        restore_signals()
    raise_if_stopped()  # restored: nothing pending any more

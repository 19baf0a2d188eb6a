"""The systemd notify protocol against a fake notify socket: READY at the first frame,
watchdog pings from the main loop only while it runs, none while it hangs, STOPPING and
a clean exit on SIGTERM."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from firmware_py.process.systemd_notify import Heartbeat, Notifier
from firmware_py.runtime.loop import run_main_loop
from tests.notify_socket import FakeNotifySocket

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture
def notify_socket(tmp_path):
    s = FakeNotifySocket(tmp_path)
    yield s
    s.close()


def test_notifier_speaks_sd_notify_to_a_path_and_to_the_abstract_namespace(notify_socket, tmp_path) -> None:
    n = Notifier({"NOTIFY_SOCKET": str(notify_socket.path), "WATCHDOG_USEC": "3000000"})
    assert n.enabled and n.watchdog_us == 3_000_000
    assert n.ready("attract screen shown")
    assert notify_socket.read(5) == "READY=1\nSTATUS=attract screen shown"
    assert n.watchdog() and notify_socket.read(5) == "WATCHDOG=1"
    assert n.stopping() and notify_socket.read(5) == "STOPPING=1"
    n.close()
    import socket

    abstract = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    name = f"ringside-test-{os.getpid()}"
    abstract.bind("\0" + name)
    try:
        assert Notifier({"NOTIFY_SOCKET": "@" + name}).status("hi")
        assert abstract.recv(100) == b"STATUS=hi"
    finally:
        abstract.close()
    # Not under systemd: nothing is sent, nothing fails.
    off = Notifier({})
    assert not off.enabled and not off.ready() and off.watchdog_us is None
    # A watchdog meant for another process (WATCHDOG_PID) is not ours to feed.
    assert Notifier({"NOTIFY_SOCKET": "x", "WATCHDOG_USEC": "1000", "WATCHDOG_PID": "1"}).watchdog_us is None


@pytest.mark.slow
def test_a_hung_main_loop_stops_the_watchdog_pings(cabinet, notify_socket) -> None:
    """The loop runs in real time on the simulated cabinet (on this thread, as in the
    process); a step that blocks (a hang) silences the pings, and they come back when it
    goes on.  Another thread listens on the socket and causes the hang."""
    notifier = Notifier({"NOTIFY_SOCKET": str(notify_socket.path), "WATCHDOG_USEC": "100000"})
    heartbeat = Heartbeat(notifier)
    hang = threading.Event()
    release = threading.Event()
    stop = threading.Event()
    seen: dict[str, object] = {}
    step = cabinet.step

    def step_that_may_hang(now_us: int) -> None:
        if hang.is_set():
            release.wait(30)
        step(now_us)

    def observe() -> None:
        try:
            seen["ready"] = notify_socket.read(10)
            for _ in range(3):
                notify_socket.wait_for("WATCHDOG=1", 10)
            hang.set()
            time.sleep(0.2)  # a ping already on its way may still arrive
            notify_socket.drain()
            seen["pings_hung"] = heartbeat.pings
            seen["while_hung"] = notify_socket.read(1.0)  # 10 watchdog half-periods
            seen["pings_after_wait"] = heartbeat.pings
            hang.clear()
            release.set()
            notify_socket.wait_for("WATCHDOG=1", 10)  # healthy again: pings again
            seen["pings_resumed"] = heartbeat.pings
        except AssertionError as e:
            seen["error"] = e
        finally:
            release.set()
            stop.set()

    cabinet.step = step_that_may_hang
    observer = threading.Thread(target=observe)
    observer.start()

    def before(now: int) -> None:
        cabinet.clock.set(max(cabinet.clock.now_us(), now))

    run_main_loop(cabinet, lambda: time.monotonic_ns() // 1000, 60, lambda: not stop.is_set(), before, heartbeat.frame)
    observer.join(30)
    assert "error" not in seen, seen.get("error")
    assert seen["ready"] == "READY=1\nSTATUS=attract screen shown"
    assert seen["while_hung"] is None  # not one ping while the loop hung
    assert seen["pings_after_wait"] == seen["pings_hung"]
    assert seen["pings_resumed"] > seen["pings_hung"]


@pytest.mark.slow
def test_ringside_run_reports_ready_pings_and_stops_cleanly_on_sigterm(notify_socket, tmp_path) -> None:
    env = {
        **os.environ,
        "NOTIFY_SOCKET": str(notify_socket.path),
        "WATCHDOG_USEC": "200000",
        "SDL_VIDEODRIVER": "dummy",
        "SDL_AUDIODRIVER": "dummy",
    }
    proc = subprocess.Popen(
        [sys.executable, "-m", "firmware_py.tools.cli", "run", "--window", "--data", str(tmp_path / "data")],
        cwd=REPO,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        ready = notify_socket.wait_for("READY=1", 60)
        assert "STATUS=attract screen shown" in ready
        for _ in range(3):
            notify_socket.wait_for("WATCHDOG=1", 10)
        proc.send_signal(signal.SIGTERM)
        notify_socket.wait_for("STOPPING=1", 10)
        _out, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 0, err
    assert "Traceback" not in err and "stopping (SIGTERM)" in err


@pytest.mark.slow
def test_a_start_that_resumes_a_game_says_so_when_ready(notify_socket, tmp_path) -> None:
    """READY's status says what is on screen: a game cut short by a power cut is resumed
    at start, and the journal must not say the attract screen is showing."""
    from firmware_py.runtime.scenes import Play
    from firmware_py.tools.exhibition import ExhibitionDriver
    from tests.faults.harness import drive, journal_length, make_rig

    data = tmp_path / "data"
    rig = make_rig(data, 1_000_000)
    driver = ExhibitionDriver(rig.cabinet, rig.sim, "punch", seed=1)
    assert drive(rig, driver, lambda: isinstance(rig.cabinet.scene, Play) and journal_length(rig) >= 4, 60_000_000)
    rig.sim.close()  # a power cut: the store is never closed, the game never finished
    env = {
        **os.environ,
        "NOTIFY_SOCKET": str(notify_socket.path),
        "SDL_VIDEODRIVER": "dummy",
        "SDL_AUDIODRIVER": "dummy",
    }
    proc = subprocess.Popen(
        [sys.executable, "-m", "firmware_py.tools.cli", "run", "--window", "--data", str(data)],
        cwd=REPO,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        ready = notify_socket.wait_for("READY=1", 60)
        proc.send_signal(signal.SIGTERM)
        _out, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert "STATUS=the Punch! game in play resumed" in ready, ready
    assert "ready: the Punch! game in play resumed" in err and "attract screen shown" not in err

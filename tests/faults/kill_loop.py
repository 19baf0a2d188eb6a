"""``kill -9`` loops: a cabinet process (``tests.faults.player``, forked by
``tests.faults.zygote``) is killed at random moments, restarted on the same data folder, often with a clock far below the old one
(a reboot), and every acknowledged action is looked up in the store after each kill.

A run is killed after a random number of acknowledged actions plus a random few ms, so
kills land anywhere: mid-commit, mid-frame, in the menus between games.  A run that took
an unfinished game up must acknowledge at least one new action before it is killed
(else the resume was not playable).
"""

from __future__ import annotations

import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from tests.faults.harness import HOURS_2

RUN_TIMEOUT_S = 120.0
"""A backstop only: a stuck game says so itself (the player exits after 120 s of
virtual time without progress, a few seconds of wall time)."""


@dataclass
class KillFigures:
    game: str
    kills: int = 0
    acknowledged: int = 0
    lost: int = 0
    resumes: int = 0
    playable_resumes: int = 0
    lower_clock_resumes: int = 0
    """Resumes on a clock that started below where an earlier process's clock started
    (a reboot): far below the game's stamps."""
    games_started: int = 0
    integrity_failures: int = 0
    tracebacks: int = 0
    problems: list[str] = field(default_factory=list)

    def clean(self) -> bool:
        return (
            self.lost == 0
            and self.resumes == self.playable_resumes
            and self.integrity_failures == 0
            and self.tracebacks == 0
            and not self.problems
        )


def player(data: Path, game: str, seed: int, clock_us: int, stderr) -> subprocess.Popen:
    root = Path(__file__).resolve().parents[2]
    env = {**os.environ, "PYTHONPATH": str(root), "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
    return subprocess.Popen(
        [sys.executable, "-m", "tests.faults.player", str(data), game, str(seed), str(clock_us)],
        stdout=subprocess.PIPE,
        stderr=stderr,
        text=True,
        cwd=root,
        env=env,
    )


class Zygote:
    """Forks player processes on request (``tests.faults.zygote``)."""

    def __init__(self) -> None:
        root = Path(__file__).resolve().parents[2]
        env = {**os.environ, "PYTHONPATH": str(root), "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
        env["PYGAME_HIDE_SUPPORT_PROMPT"] = "1"  # stdout carries the protocol only
        self.pid: int | None = None
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "tests.faults.zygote"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            cwd=root,
            env=env,
        )

    def start(self, data: Path, game: str, seed: int, clock_us: int, stderr: Path) -> int:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(f"{data} {game} {seed} {clock_us} {stderr}\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        kind, _, pid = line.partition(" ")
        assert kind == "pid", line
        self.pid = int(pid)
        return self.pid

    def lines(self) -> Iterator[str]:
        """The running child's lines, up to its end."""
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            if line.startswith("exit "):
                self.pid = None
                return
            yield line.rstrip("\n")

    def close(self) -> None:
        if self.pid is not None:  # a test that failed mid-run: the child must not outlive it
            os.kill(self.pid, signal.SIGKILL)
        if self.proc.stdin is not None:
            self.proc.stdin.close()
        self.proc.wait(timeout=RUN_TIMEOUT_S)


def kill_loop(data: Path, game: str, kills: int, seed: int = 1) -> KillFigures:
    rng = random.Random(seed)
    figures = KillFigures(game)
    acked: dict[tuple[int, int], dict] = {}
    last_stamp = 0
    clock_us = highest_start_us = HOURS_2
    errors = data.parent / f"{data.name}-stderr.txt"
    zygote = Zygote()

    def note(line: str) -> str:
        nonlocal last_stamp
        kind, _, rest = line.partition(" ")
        if kind == "ack":
            gid, seq, action = rest.split(" ", 2)
            acked[(int(gid), int(seq))] = json.loads(action)
            last_stamp = max(last_stamp, acked[(int(gid), int(seq))].get("t_us", 0))
        elif kind == "started":
            figures.games_started += 1
        return kind

    try:
        for run in range(kills):
            target = rng.randint(1, 8)
            pid = zygote.start(data, game, rng.randrange(1 << 30), clock_us, errors)
            timer = threading.Timer(RUN_TIMEOUT_S, os.kill, (pid, signal.SIGKILL))
            timer.start()
            resumed, new = False, 0
            lines = zygote.lines()
            for line in lines:
                kind = note(line)
                if kind == "ack":
                    new += 1
                    if new >= target:
                        break
                elif kind == "resumed":
                    resumed = True
                    figures.resumes += 1
                    figures.lower_clock_resumes += clock_us < highest_start_us
                elif kind in ("stuck", "busy"):
                    figures.problems.append(f"run {run}: {line}")
                    break
            time.sleep(rng.uniform(0, 0.01))  # the kill lands anywhere: mid-commit, mid-frame
            os.kill(pid, signal.SIGKILL)
            for line in lines:  # what it acknowledged before it died counts too
                note(line)
            timer.cancel()
            figures.kills += 1
            if resumed and new >= target:
                figures.playable_resumes += 1
            elif new < target:
                figures.problems.append(f"run {run}: {new} of {target} actions acknowledged before it ended")
            if "Traceback" in errors.read_text():
                figures.tracebacks += 1
                figures.problems.append(f"run {run}: {errors.read_text()[-2000:]}")
            figures.lost += _lost(data / "ringside.sqlite3", acked)
            figures.integrity_failures += not _integrity_ok(data / "ringside.sqlite3")
            # The next start: two in three a reboot (a clock far below every stamp), else a
            # process restart on a clock that kept running.
            highest_start_us = max(highest_start_us, clock_us)
            clock_us = rng.randrange(1_000, 60_000_000) if run % 3 != 2 else last_stamp + HOURS_2 + rng.randrange(10**9)
    finally:
        zygote.close()
    figures.acknowledged = len(acked)
    return figures


def _connect(path: Path) -> sqlite3.Connection:
    return sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)


def _lost(path: Path, acked: dict[tuple[int, int], dict]) -> int:
    """Acknowledged actions missing from the store, or stored differently."""
    db = _connect(path)
    stored = {(g, s): json.loads(a) for g, s, a in db.execute("SELECT game_id, seq, action FROM actions")}
    db.close()
    return sum(1 for key, action in acked.items() if stored.get(key) != action)


def _integrity_ok(path: Path) -> bool:
    db = _connect(path)
    try:
        return db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    finally:
        db.close()

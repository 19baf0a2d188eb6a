"""The board's files under MicroPython's own interpreter, on the CPython tests' cases.

The padboard and codec tests run once more under CPython with ``tests/board/trace.py``
recording every call they make into the board's files; ``mp/replay.py`` makes the same
calls under MicroPython (the unix port, heap capped as on a Pico) and every result must
match CPython's bit for bit.  Whatever the detector and its tests are, this follows."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from firmware_py.padboard import settings_store
from tests import costs
from tests.board import micropython

ROOT = Path(__file__).resolve().parents[2]
CASES = ["tests/firmware_py/padboard", "tests/hal/padboard"]
"""The CPython tests whose calls are replayed (their ``slow`` ones too under ``-m slow``),
but for those marked ``realtime``: those judge the link on the wall clock, in
``make test``'s quiet part, and recorded inside the parallel part they failed under
load; the calls they make into the board's files are the other cases' calls too."""
EXPECTED_SITES = {
    "detector.Detector",
    "Detector.process",
    "Detector.feed",
    "board.Board",
    "Board.on_block",
    "Board.on_bytes",
    "FrameDecoder.feed",
    "wire.encode_frame",
    "wire.cobs_decode",
}
"""Calls that must be among those replayed: the detector both ways, the board, the codec."""


HOST_ONLY = "tests/firmware_py/padboard/test_gate.py"
"""The gate against the ungated state machine on the host: its calls, replayed, would
only run the board's gate against itself (the replay compares the board, gated, with
CPython, ungated, on every other case), at twice the replay's time."""


def record(trace: Path, *select: str) -> None:
    env = {k: v for k, v in os.environ.items() if k != costs.RECORD_ENV}  # not this run's test costs
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "tests.board.trace", "--ignore", HOST_ONLY, *select, *CASES],
        cwd=ROOT,
        env={**env, "RINGSIDE_BOARD_TRACE": str(trace)},
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stdout[-3000:]


def replay(trace: Path, board_dir: Path) -> dict:
    return json.loads(
        micropython.run(ROOT / "tests/board/mp/replay.py", board_dir, str(trace)).strip().splitlines()[-1]
    )


@pytest.mark.slow
def test_board_files_give_cpythons_results_bit_for_bit_under_micropython(tmp_path: Path) -> None:
    trace = tmp_path / "trace.jsonl"
    record(trace, "-m", "not slow and not realtime")
    got = replay(trace, micropython.flash(tmp_path / "board"))
    assert got["mismatches"] == {}, json.dumps(got["first"], indent=1)[:6000]
    assert set(got["calls"]) >= EXPECTED_SITES, got["calls"]
    assert got["calls"]["Detector.process"] + got["calls"]["Detector.feed"] > 10_000


@pytest.mark.soak
def test_board_files_match_cpython_on_the_slow_cases_too(tmp_path: Path) -> None:
    """make soak: every slow case; make test bounds it to the codec's slow property tests."""
    trace = tmp_path / "trace.jsonl"
    record(trace, "-m", "slow and not realtime", *([] if os.environ.get("RINGSIDE_SOAK") else ["-k", "test_wire"]))
    got = replay(trace, micropython.flash(tmp_path / "board"))
    assert got["mismatches"] == {}, json.dumps(got["first"], indent=1)[:6000]
    assert got["calls"].get("FrameDecoder.feed", 0) > 100, got["calls"]


@pytest.mark.slow
def test_replay_notices_a_board_file_that_differs(tmp_path: Path) -> None:
    """The comparison can fail: a detector one count off in its velocity is caught."""
    trace = tmp_path / "trace.jsonl"
    record(trace, "-m", "not slow and not realtime", "-k", "velocity_curve or finds_each_slap_once")
    board = micropython.flash(tmp_path / "board")
    source = (board / "detector.py").read_text()
    (board / "detector.py").write_text(source.replace("return 127 if v > 127 else v", "return 126 if v > 126 else v"))
    got = replay(trace, board)
    assert got["mismatches"].get("detector.velocity", 0) > 0 and got["mismatches"].get("Detector.process", 0) > 0


def test_settings_store_round_trips_under_micropython(tmp_path: Path) -> None:
    """The board's flash file: saved and loaded on the board, read by a CPython load too;
    a damaged file falls back to defaults field by field."""
    board = micropython.flash(tmp_path / "board")
    saved, damaged = tmp_path / "saved.json", tmp_path / "damaged.json"
    damaged.write_text('[{"threshold": 1500}, 7')
    code = (
        "import settings_store, wire\n"
        f"s = settings_store.load({str(saved)!r}, 3)\n"
        "s[1]['threshold'] = 1234\n"
        f"settings_store.save({str(saved)!r}, s)\n"
        f"back = settings_store.load({str(saved)!r}, 3)\n"
        "print(back[1]['threshold'], back[0] == wire.default_settings())\n"
        f"print(settings_store.load({str(damaged)!r}, 2) == [wire.default_settings()] * 2)\n"
    )
    assert micropython.run(code, board).split() == ["1234", "True", "True"]
    assert settings_store.load(str(saved), 3)[1]["threshold"] == 1234

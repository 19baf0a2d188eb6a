"""``ringside calibrate`` against the emulated padboard, end to end: the operator's flow
at the terminal (prompts, "Enter when ready", review, verdict), the board's own
firmware streaming raw frames, edges and hits for every step, the fitted settings
written to the board.  The hands are the scripted operator the ``--sim`` flow uses,
their slaps going in as the piezo model's waveforms on the board's ADC inputs.

One pad (the wizard then adds the neighbour step), verification idle cut to 1 s: the
emulated board runs at 0.05-0.4x wall time.  Asserted: the flow runs through every
step on captures from the firmware, its verdict passes on the fitted settings and the
profile is saved; pushing it stops at the board's flash, which rp2040js does not
write (the board answers SAVE_SETTINGS with FLASH_ERROR): the operator is told so in
words (no traceback, exit 4), and the saved profile is not made the active one.  The verdict failed (3
doubles, 7 crosstalk triggers) while the pads read a silent mid-rail between slaps
(calibration fitted a threshold of 144 counts on a noise floor of σ 0) and the board's
raw rows took 90 % of its CPU (BENCHMARKS.md, issue 32)."""

from __future__ import annotations

import argparse
import re
from dataclasses import dataclass, replace
from pathlib import Path
from typing import cast

import pytest

from calibration.profiles import ProfileStore
from calibration.source import PadSource
from calibration.virtual import VirtualPads
from firmware_py.hil.board import emulator, image, slaps
from firmware_py.process.exit_codes import EXIT_FAILED, EXIT_HARDWARE, EXIT_OK
from firmware_py.sim.operator import ScriptedOperator
from firmware_py.tools import calibrate
from hal.config import PadboardConfig, load_config
from hal.padboard import wire

pytestmark = [pytest.mark.board, pytest.mark.slow]

CONFIG = Path(__file__).resolve().parents[1] / "hil/padboard/configs/cabinet-padboard.toml"


@dataclass
class EmulatedHands:
    """What the scripted operator slaps: the emulated board's ADC inputs."""

    board: emulator.EmulatedPadboard
    n: int = 0

    def now_us(self) -> int:
        return self.board.now_us()

    def slap(self, pad: int, t_us: int, force: float) -> None:
        self.n += 1
        slaps.inject(self.board, [(pad, t_us, force)], seed=self.n)


@dataclass(frozen=True)
class Calibrated:
    code: int
    """calibrate.main's exit code."""
    lines: tuple[str, ...]
    report: Path
    slapped: int
    data: Path


@pytest.fixture(scope="module")
def calibrated(tmp_path_factory: pytest.TempPathFactory) -> Calibrated:
    tmp = tmp_path_factory.mktemp("calibrate")
    parser = argparse.ArgumentParser()
    calibrate.add_arguments(parser)
    report = tmp / "report.png"
    args = parser.parse_args(["--pad", "1", "--idle", "1", "--name", "emulated", "--report", str(report)])
    lines: list[str] = []

    def answer(question: str) -> str:
        lines.append(question)
        return "a" if question.startswith("[R]edo") else ""  # Enter for every step and Yes; no redo loop

    with emulator.EmulatedPadboard(image.filesystem(), tmp / "board") as board:
        hands = EmulatedHands(board)
        source = emulator.connect_driver(board, {})
        config = load_config(CONFIG)
        config = replace(config, data_dir=tmp / "data", padboard=PadboardConfig(board.url, 13_000))

        def operator(_: PadSource) -> ScriptedOperator:
            return ScriptedOperator(cast(VirtualPads, hands), seed=3)  # only its now_us and slap are used

        code = calibrate.main(args, config, lines.append, answer, board=source, hands=operator)
    print("\n".join(lines))
    return Calibrated(code, tuple(lines), report, hands.n, config.data_dir)


def test_calibrate_runs_every_step_on_the_boards_captures(calibrated: Calibrated) -> None:
    """Every prompted step recorded from the firmware (its hits printed), the review and
    the verification reached, a report written from the captures."""
    steps = [line for line in calibrated.lines if re.match(r"\n\[\w+ \d+/\d+\]", line)]
    done = [line for line in calibrated.lines if line.strip().startswith("done:")]
    assert steps and len(done) == len(steps), calibrated.lines
    assert any("Verification, each pad:" in line for line in calibrated.lines), calibrated.lines
    assert calibrated.code in (EXIT_OK, EXIT_FAILED, EXIT_HARDWARE), calibrated.lines
    assert calibrated.report.exists() and calibrated.slapped > 0
    hits = sum(int(m.group(1)) for line in done if (m := re.search(r"done: (\d+) hits", line)))
    assert hits > 0, done  # the firmware's hits reached the wizard


def test_calibrate_passes_and_saves_on_the_emulated_board(calibrated: Calibrated) -> None:
    """The fitted settings pass verification on the firmware; the profile is saved, and
    pushing it reaches the board, whose flash the emulator cannot write."""
    assert any("ALL CHECKS PASSED" in line for line in calibrated.lines), calibrated.lines
    assert ProfileStore(calibrated.data).names() == ["emulated"], calibrated.lines
    refused = f"refused command 0x{wire.SAVE_SETTINGS:02x}: status {wire.FLASH_ERROR}"
    said = [line for line in calibrated.lines if "the board did not keep it" in line]
    assert calibrated.code == EXIT_HARDWARE and said and refused in said[0], (calibrated.code, calibrated.lines[-3:])
    assert "--restore emulated" in said[0] and ProfileStore(calibrated.data).active() is None

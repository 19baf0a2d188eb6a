"""The ``padboard-emulated`` backend's choices that need no emulator: which station gets
which of the board's pads, which slaps go in as one waveform, and what it refuses
before booting a board (the runs themselves: tests/board/test_emulated_hil.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from firmware_py.hil.emulated_backend import board_pads, clusters
from firmware_py.hil.runner import run_scenario
from firmware_py.hil.scenario import Input, load_scenario
from firmware_py.hil.sim_backend import BackendLacks
from hal.config import load_config

ROOT = Path(__file__).resolve().parents[3]
HIL = ROOT / "tests/hil"
CABINET_4 = ROOT / "hal/data/cabinet-4.toml"


def test_stations_get_free_pads_in_seat_order_and_keep_their_own() -> None:
    padboard = load_config(HIL / "padboard/configs/cabinet-padboard.toml")  # Red on pad 0, Blue on pad 1
    assert board_pads(padboard, (0, 1)) == {0: 0, 1: 1}
    four = load_config(CABINET_4)  # sim slaps only
    assert board_pads(four, (2, 0)) == {0: 2, 1: 0}


def test_more_slapping_stations_than_pads_is_refused() -> None:
    with pytest.raises(BackendLacks, match="3 pads"):
        board_pads(load_config(CABINET_4), (0, 1, 2, 3))


def test_slaps_whose_rings_overlap_go_in_together() -> None:
    def slap(at: int) -> Input:
        return Input(at_us=at, action="slap", station=0)

    got = clusters([slap(1_000_000), slap(0), slap(1), slap(61_000), slap(200_000)], apart_us=62_000)
    assert [[i.at_us for i in g] for g in got] == [[0, 1, 61_000], [200_000], [1_000_000]]


def test_garbage_is_skipped_before_a_board_boots(tmp_path: Path) -> None:
    """The emulated board writes only its own frames: said at once, nothing started."""
    result = run_scenario(
        load_scenario(HIL / "padboard/garbage_during_play.toml"), "padboard-emulated", tmp_path, window=False
    )
    assert result.status == "skip" and "garbage" in result.message, result.summary()

"""Calibration measures each pair's crosstalk for the board to subtract: the gain and
lag from the prompted slaps' raw signals, and how much a subtraction leaves."""

from __future__ import annotations

import pytest

from firmware_py.sim.piezo import PiezoPad
from firmware_py.sim.slap_chain import calibrate, row_table


@pytest.mark.slow  # a whole calibration run
def test_wizard_measures_each_pairs_crosstalk_gain_and_lag() -> None:
    pads = [
        PiezoPad(gain=1.0, ring_hz=250, delay_us=10),
        PiezoPad(gain=0.85, ring_hz=270, noise=100),
        PiezoPad(gain=1.1, ring_hz=235, noise=140, delay_us=5),
    ]
    table = row_table(pads, near=0.2, falloff=0.35)
    settings, _passed = calibrate(table, seed=3)
    for dst in range(3):
        s = settings[dst].as_dict()
        for src in range(3):
            if src == dst:
                assert s[f"xgain_from{src}"] == 0
                continue
            true = 1000 * table.crosstalk[src][dst] * pads[dst].gain  # crosstalk peak / the source's peak
            assert abs(s[f"xgain_from{src}"] - true) <= 0.15 * true, (src, dst, s)
            if abs(src - dst) == 1:  # the neighbour's crosstalk stands well over the noise: its lag is measured
                assert 120 <= s[f"xlag_from{src}"] <= 380, (src, dst, s)
        assert 20 <= s["xclean_pct"] <= 100, s

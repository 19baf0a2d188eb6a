"""The display step: a light sensor times when a flipped frame is really visible, the
profile keeps the figure, and the cabinet's reveals count from then (sim backend)."""

from __future__ import annotations

from dataclasses import replace

import pytest
from gpiozero.pins.mock import MockFactory

from calibration.display_latency import measure
from calibration.profiles import ProfileStore, config_with_active_profile, from_toml, to_toml, wizard_profile
from calibration.runner import run_wizard
from calibration.wizard import Wizard
from firmware_py.games.karate_fight.controls import KarateControls
from firmware_py.runtime.cabinet import Cabinet
from firmware_py.runtime.store import Store
from firmware_py.sim.operator import ScriptedOperator
from firmware_py.sim.pad_sets import virtual_cabinet
from firmware_py.sim.panel import SimPanel
from games.karate_fight import CowardsBlow, HitShowing, HitWon, KarateOptions
from hal.clock import ManualClock
from hal.config import load_config
from hal.events import Button
from hal.sim import SimCabinet
from tests.cabinet_driving import press, run_for, start_session
from tests.firmware_py.test_cabinet_karate import deal_for_clumsy_hit


@pytest.fixture
def factory():
    f = MockFactory()
    yield f
    f.reset()


def test_display_latency_is_the_median_flip_to_light(factory: MockFactory) -> None:
    panel = SimPanel(ManualClock(1_000_000), factory, 7, lag_us=30_000, spread_us=16_000, seed=3)
    result = measure(panel.show, panel.wait, panel.sensor, flashes=15)
    assert result.ok and len(result.samples) == 15
    assert all(30_000 <= s <= 46_000 for s in result.samples)  # each flash lights the sensor once
    assert abs(result.latency_us - 38_000) <= 4_000  # the middle of the panel's lag
    assert "median of 15 flashes" in result.reasons[0]


def test_display_latency_without_light_fails_and_says_what_to_check(factory: MockFactory) -> None:
    panel = SimPanel(ManualClock(0), factory, 7, dark=True)
    result = measure(panel.show, panel.wait, panel.sensor, flashes=5)
    assert not result.ok and result.latency_us is None
    assert "saw 0 of 5 flashes" in result.reasons[0] and "faces the screen" in result.reasons[0]


@pytest.mark.slow
def test_wizard_display_step_reaches_the_profile_and_the_config(tmp_path, factory: MockFactory) -> None:
    vp = virtual_cabinet("quiet", seed=1)
    originals = {p: vp.read_settings(p) for p in range(vp.pads)}
    wizard = Wizard(vp.pads, list(range(vp.pads)), originals, display_flashes=8)
    assert wizard.progress[1] == Wizard(vp.pads, list(range(vp.pads)), originals).progress[1] + 1
    panel = SimPanel(ManualClock(0), factory, 7, lag_us=20_000, spread_us=0)
    settings = run_wizard(wizard, vp, ScriptedOperator(vp, panel=panel))
    assert settings is not None and wizard.display_latency_us == 20_000
    profile = wizard_profile("hall", "test", wizard, settings)
    assert from_toml(to_toml(profile)).display_latency_us == 20_000
    config = replace(load_config(), data_dir=tmp_path)
    store = ProfileStore(tmp_path)
    store.save(profile)
    store.set_active("hall")
    lines: list[str] = []
    assert config_with_active_profile(config, log=lines.append).display.latency_us == 20_000
    assert any("display latency 20000 µs" in line for line in lines)


def _hit_shown(tmp_path, latency_us: int) -> tuple[Cabinet, SimCabinet, object, int]:
    cfg = replace(load_config(), data_dir=tmp_path)
    cfg = replace(cfg, display=replace(cfg.display, latency_us=latency_us))
    clock = ManualClock(1_000_000)
    sim = SimCabinet(cfg, clock)
    cabinet = Cabinet(cfg, sim, clock, Store(tmp_path / "k.sqlite3"), log=lambda _l: None, seed=3)
    session = start_session(cabinet, KarateControls(), KarateOptions(deal=deal_for_clumsy_hit(2)), (0, 1)).session
    press(cabinet, sim, 0, Button.A, settle_us=120_000)
    sim.press(1, Button.A, sim.clock.now_us(), hold_us=50_000)  # plays the Hit card
    run_for(cabinet, sim, 100_000)
    shown = next(e.revealed_us for _t, e in session.recent if isinstance(e, HitShowing))
    return cabinet, sim, session, shown


def test_reveal_counts_from_when_the_panel_shows_it(tmp_path) -> None:
    _c0, sim0, _s0, flip = _hit_shown(tmp_path / "flip", 0)
    sim0.close()
    _cabinet, sim, _session, shown = _hit_shown(tmp_path / "lag", 25_000)
    assert shown == flip + 25_000  # same flip, reported when the card is visible
    sim.close()


def test_slap_before_the_card_is_visible_is_a_cowards_blow_not_lost(tmp_path) -> None:
    """Between the flip and the panel showing the card nobody can have seen it: a slap
    then is a Coward's Blow (judged in stamp order, not refused as out of order), and a
    slap after it wins the Hit."""
    _c0, sim0, _s0, flip = _hit_shown(tmp_path / "flip", 0)
    sim0.close()
    cfg = replace(load_config(), data_dir=tmp_path / "lag")
    cfg = replace(cfg, display=replace(cfg.display, latency_us=25_000))
    clock = ManualClock(1_000_000)
    sim = SimCabinet(cfg, clock)
    cabinet = Cabinet(cfg, sim, clock, Store(tmp_path / "lag.sqlite3"), log=lambda _l: None, seed=3)
    session = start_session(cabinet, KarateControls(), KarateOptions(deal=deal_for_clumsy_hit(2)), (0, 1)).session
    press(cabinet, sim, 0, Button.A, settle_us=120_000)
    sim.press(1, Button.A, sim.clock.now_us(), hold_us=50_000)
    sim.slap(0, flip + 10_000, delay_us=1_000)  # after the flip, before the panel shows it
    sim.slap(1, flip + 40_000, delay_us=1_000)
    run_for(cabinet, sim, 400_000)
    blows = [e for _t, e in session.recent if isinstance(e, CowardsBlow)]
    assert [b.fighter for b in blows] == [0]
    (won,) = [e for _t, e in session.recent if isinstance(e, HitWon)]
    assert won.winner == 1 and won.reaction_us == 15_000
    sim.close()

"""Profiles: TOML round trip, atomic save with history, push to the board's flash,
restore; and an aborted wizard leaves the previous profile in force."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from calibration.profiles import ProfileError, ProfileStore, from_toml, new_profile, push, to_toml
from calibration.runner import run_wizard
from calibration.wizard import ABORTED, Counts, Wizard
from firmware_py.sim.operator import ScriptedOperator
from firmware_py.sim.pad_sets import virtual_cabinet
from hal.padboard.settings import PadSettings

A = PadSettings(threshold=1234, mask_us=30000, xtalk_pct=40)
B = PadSettings(threshold=800, curve=60)


def test_toml_round_trip() -> None:
    p = new_profile("hall-a", "ringside-dev", "padboard", {0: A, 1: B}, {1: 35000}, ('said "why"',))
    q = from_toml(to_toml(p))
    assert q == p


def test_save_keeps_history_and_is_atomic(tmp_path: Path) -> None:
    store = ProfileStore(tmp_path)
    first = new_profile("hall", "cab", "padboard", {0: A})
    store.save(first)
    second = new_profile("hall", "cab", "padboard", {0: B})
    path = store.save(second)
    assert store.load("hall").pads[0] == B
    hist = store.history("hall")
    assert len(hist) == 1 and from_toml(hist[0].read_text()).pads[0] == A
    assert store.names() == ["hall"]
    leftovers = [f for f in path.parent.iterdir() if ".tmp" in f.name]
    assert not leftovers


def test_a_failed_write_leaves_the_old_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    store = ProfileStore(tmp_path)
    store.save(new_profile("hall", "cab", "padboard", {0: A}))

    def boom(*_a: object) -> None:
        raise OSError("power cut")

    monkeypatch.setattr(os, "replace", boom)
    with pytest.raises(OSError):
        store.save(new_profile("hall", "cab", "padboard", {0: B}))
    monkeypatch.undo()
    assert store.load("hall").pads[0] == A


def test_bad_names_and_missing_profiles(tmp_path: Path) -> None:
    store = ProfileStore(tmp_path)
    with pytest.raises(ProfileError):
        store.path("../etc/passwd")
    with pytest.raises(ProfileError, match="no profile named"):
        store.load("nope")
    bad = tmp_path / "calibration" / "broken.toml"
    bad.parent.mkdir(parents=True)
    bad.write_text("name = 3\n[[pad]]\nindex = 0\n")
    with pytest.raises(ProfileError):
        store.load("broken")


def test_push_writes_ram_and_flash() -> None:
    vp = virtual_cabinet("quiet")
    push(vp, new_profile("p", "cab", "padboard", {0: A, 1: B}))
    assert vp.read_settings(0) == A and vp.flash == [A, B] and vp.flash_writes == 1
    with pytest.raises(ProfileError):
        push(vp, new_profile("p", "cab", "padboard", {5: A}))


@pytest.mark.slow
@pytest.mark.parametrize("where", ["rest", "hard", "review", "verify_soft", "verdict"])
def test_abort_at_any_step_keeps_the_previous_profile(where: str, tmp_path: Path) -> None:
    vp = virtual_cabinet("quiet", settings=[A, B])
    vp.save_settings()
    writes = vp.flash_writes
    originals = {p: vp.read_settings(p) for p in range(vp.pads)}
    w = Wizard(vp.pads, [0, 1], originals, counts=Counts(soft=4, hard=3, flurry=4, verify_soft=4, verify_hard=2))
    op = ScriptedOperator(vp, abort_at=where)
    assert run_wizard(w, vp, op) is None
    assert w.state == ABORTED
    assert [vp.read_settings(p) for p in range(vp.pads)] == [A, B]  # RAM back to the old profile
    assert vp.flash == [A, B] and vp.flash_writes == writes  # flash untouched


@pytest.mark.slow
def test_a_ctrl_c_mid_capture_restores_too() -> None:
    vp = virtual_cabinet("quiet", settings=[A, B])
    originals = {p: vp.read_settings(p) for p in range(vp.pads)}
    w = Wizard(vp.pads, [0, 1], originals)

    class Impatient(ScriptedOperator):
        def progress(self, wizard, rec):
            if wizard.state == "capture" and wizard.step.phase == "verify":
                raise KeyboardInterrupt
            return True

    assert run_wizard(w, vp, Impatient(vp)) is None
    assert [vp.read_settings(p) for p in range(vp.pads)] == [A, B]


def test_profile_saved_before_protocol_2_loads_with_the_new_settings_at_their_defaults() -> None:
    """A profile written before the onset curve and per-pad crosstalk existed still loads."""
    old = to_toml(new_profile("old", "cab", "padboard", {0: PadSettings(threshold=1500)}))
    for name in ("onset_us", "onset_exp", "xtalk_from0", "xtalk_from1", "xtalk_from2", "xtalk_from3"):
        old = "\n".join(line for line in old.splitlines() if not line.startswith(f"{name} = "))
    assert from_toml(old).pads[0] == PadSettings(threshold=1500)


def test_gpio_ring_periods_and_display_latency_round_trip() -> None:
    p = new_profile("g", "cab", "gpio-edge", gpio_mask_us={0: 9000, 1: 8000}, gpio_ring_us={0: 4100})
    back = from_toml(to_toml(p))
    assert (back.gpio_mask_us, back.gpio_ring_us, back.display_latency_us) == ({0: 9000, 1: 8000}, {0: 4100}, None)
    p = new_profile("d", "cab", "padboard", display_latency_us=31_000)
    assert from_toml(to_toml(p)).display_latency_us == 31_000


def test_the_settle_window_a_fit_needs_counts_contact_hold_and_transport() -> None:
    """The default hold gives the default window; a calibrated hold (the convention hall's
    crosstalk windows: 6.8 ms) needs 1 + 6.8 + 8 ms, whole ms up."""
    from calibration.fit import settle_needed_us
    from hal.timing import PADBOARD_CONTACT_LEAD_US, PADBOARD_REPORT_US, PADBOARD_SETTLE_US, PADBOARD_TRANSPORT_US

    assert settle_needed_us(PADBOARD_REPORT_US) == PADBOARD_SETTLE_US
    held = 6_800
    assert settle_needed_us(held) == -(-(PADBOARD_CONTACT_LEAD_US + held + PADBOARD_TRANSPORT_US) // 1000) * 1000
    assert settle_needed_us(held) >= PADBOARD_CONTACT_LEAD_US + held + PADBOARD_TRANSPORT_US


def test_the_active_profile_raises_the_padboard_settle_window_and_never_lowers_it(tmp_path: Path) -> None:
    from dataclasses import replace

    from calibration.profiles import config_with_active_profile
    from hal.config import PadboardConfig, load_config

    profile = new_profile("p", "cab", "padboard", {0: PadSettings()}, padboard_settle_us=17_000)
    assert from_toml(to_toml(profile)).padboard_settle_us == 17_000
    store = ProfileStore(tmp_path)
    store.save(profile)
    store.set_active("p")
    config = replace(load_config(), data_dir=tmp_path, padboard=PadboardConfig("/dev/x", 13_000))
    said: list[str] = []
    raised = config_with_active_profile(config, said.append)
    assert raised.padboard is not None and raised.padboard.settle_us == 17_000
    assert any("settle window 17000 µs" in line for line in said)
    wider = replace(config, padboard=PadboardConfig("/dev/x", 20_000))
    assert config_with_active_profile(wider, said.append).padboard == wider.padboard


@pytest.mark.slow
def test_the_hall_calibration_saves_the_settle_window_its_windows_need() -> None:
    """The simulated convention hall's fitted crosstalk windows hold hits longer than the
    default 13 ms allows for: the wizard's profile carries the longer window."""
    from calibration.profiles import wizard_profile
    from firmware_py.sim.proof import calibrate_sim
    from hal.timing import PADBOARD_SETTLE_US

    w, _vp, _op, settings = calibrate_sim("hall")
    assert settings is not None
    needs = [f.settle_us for f in w.fits.values() if f.settle_us is not None]
    assert needs and w.settle_us == max(needs) > PADBOARD_SETTLE_US
    assert wizard_profile("hall", "cab", w, settings).padboard_settle_us == w.settle_us

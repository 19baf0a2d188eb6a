"""``ringside calibrate`` end to end on simulated pads, and the live padboard source over
a real pty (the simulator speaks the board's protocol)."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from calibration.capture import Recording
from calibration.live import LivePadboard
from calibration.profiles import ProfileStore, new_profile, push
from calibration.source import record
from firmware_py.sim.padboard import PadboardSimulator
from firmware_py.tools.cli import main
from hal.clock import MonotonicClock
from hal.padboard.driver import LinkTiming, PadboardSource
from hal.padboard.settings import PadSettings


@pytest.mark.slow
def test_calibrate_sim_saves_restores_lists(tmp_path: Path, capsys) -> None:
    data = str(tmp_path / "data")
    assert main(["calibrate", "--sim", "quiet", "--yes", "--data", data, "--name", "q"]) == 0
    out = capsys.readouterr().out
    assert "ALL CHECKS PASSED" in out and "threshold" in out and "dB over the noise" in out
    store = ProfileStore(Path(data))
    assert store.active() == "q" and store.load("q").cabinet == "quiet"
    assert list((Path(data) / "calibration" / "reports").glob("q-*.png"))
    assert main(["calibrate", "--sim", "quiet", "--yes", "--data", data, "--name", "q", "--seed", "2"]) == 0
    assert len(store.history("q")) == 1
    assert main(["calibrate", "--restore", "q", "--sim", "quiet", "--data", data]) == 0
    assert "restored 'q'" in capsys.readouterr().out
    assert main(["calibrate", "--list", "--data", data]) == 0
    listing = capsys.readouterr().out
    assert "q  (active)" in listing and "history:" in listing
    assert main(["calibrate", "--restore", "nope", "--sim", "quiet", "--data", data]) == 2


def test_a_board_that_cannot_keep_the_profile_is_said_in_words(
    tmp_path: Path, capsys, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The profile is saved before it is pushed; a board whose flash refuses it (the
    emulated RP2040's does) is told in words, exit 4, no traceback, and the saved profile
    is not made the active one (the board keeps the previous settings in its flash)."""
    from calibration.virtual import VirtualPads
    from hal.padboard.driver import PadboardError

    def refuse(_self: VirtualPads) -> None:
        raise PadboardError("the board refused command 0x12: status 3 (flash error)")

    monkeypatch.setattr(VirtualPads, "save_settings", refuse)
    data = str(tmp_path / "data")
    assert main(["calibrate", "--sim", "quiet", "--pad", "1", "--yes", "--data", data, "--name", "q"]) == 4
    out = capsys.readouterr().out
    assert "but the board did not keep it: the board refused command 0x12" in out
    assert "`ringside calibrate --restore q`" in out and "Traceback" not in out
    store = ProfileStore(Path(data))
    assert store.names() == ["q"] and store.active() is None


@pytest.mark.slow
def test_calibrate_sim_with_the_contact_probe_measures_the_onset_curve(tmp_path: Path, capsys) -> None:
    data = str(tmp_path / "data")
    assert main(["calibrate", "--sim", "quiet", "--probe", "--pad", "1", "--yes", "--data", data]) == 0
    out = capsys.readouterr().out
    assert "contact glove" in out  # the probe step's prompt
    assert "measured with the contact probe (12 slaps" in out


def test_abort_at_the_first_prompt_saves_nothing(tmp_path: Path) -> None:
    from argparse import Namespace

    from firmware_py.tools.calibrate import main as calibrate
    from hal.config import load_config

    config = load_config()
    from dataclasses import replace

    config = replace(config, data_dir=tmp_path)
    lines: list[str] = []
    args = Namespace(
        list=False,
        restore=None,
        sim="quiet",
        seed=1,
        pad=[1],
        idle=10.0,
        yes=False,
        name="x",
        report=None,
        comparator=None,
        probe=False,
    )
    assert calibrate(args, config, write=lines.append, read=lambda _q: "a") == 1
    assert any("previous settings are back" in line for line in lines)
    assert ProfileStore(tmp_path).names() == []


@pytest.mark.slow
@pytest.mark.realtime  # a board over a pty, on the wall clock: starved by parallel workers
def test_live_padboard_records_raw_and_hits_and_pushes_to_flash() -> None:
    clock = MonotonicClock()
    with PadboardSimulator(pads=2, seed=3, clock=clock) as sim:
        board = PadboardSource(sim.port, clock, {}, timing=LinkTiming(backoff_first_s=0.02, backoff_max_s=0.2))
        try:
            live = LivePadboard(board)
            assert live.pads == 2 and live.analog
            rec = Recording("soft", [0, 1], 600_000, pad=0, prompted=1)
            sim.slap(0, clock.now_us() + 250_000, velocity=90)
            cap = record(live, rec)
            assert cap.frames > 1000 and len(cap.samples[0]) == len(cap.times) == len(cap.samples[1])
            assert [h.pad for h in cap.hits] == [0]
            s = PadSettings(threshold=1500, mask_us=30000)
            push(live, new_profile("p", "cab", "padboard", {0: s, 1: s}))
            deadline = time.monotonic() + 5
            while time.monotonic() < deadline and not Path(sim.flash_path).exists():
                time.sleep(0.01)
            stored = json.loads(Path(sim.flash_path).read_text())
            assert stored[0]["threshold"] == 1500 and stored[1]["mask_us"] == 30000
        finally:
            board.close()


@pytest.mark.slow
@pytest.mark.realtime  # a board over a pty, on the wall clock: starved by parallel workers
def test_the_scene_reuses_the_cabinets_open_padboard_link() -> None:
    from types import SimpleNamespace

    from firmware_py.runtime.calibration_scene import running_padboard

    clock = MonotonicClock()
    with PadboardSimulator(pads=2, seed=4, clock=clock) as sim:
        board = PadboardSource(sim.port, clock, {0: 0}, timing=LinkTiming(backoff_first_s=0.02, backoff_max_s=0.2))
        ctx = SimpleNamespace(hardware=SimpleNamespace(sources=[board]))
        try:
            assert running_padboard(ctx, sim.port) is board
            assert running_padboard(ctx, "/dev/nothing") is None
            assert running_padboard(SimpleNamespace(hardware=None), sim.port) is None
        finally:
            board.close()


class _BoardHands:
    """Slaps the pty-simulated board's piezo model at physical forces, like the scripted
    operator does on virtual pads (the simulator's own ``slap`` takes a velocity)."""

    def __init__(self, sim: PadboardSimulator, clock: MonotonicClock) -> None:
        from firmware_py.sim.operator import Forces

        self.sim, self.clock, self.forces, self.truth = sim, clock, Forces(), []

    def now_us(self) -> int:
        return self.clock.now_us()

    def slap(self, pad: int, t_us: int, force: float) -> None:
        from firmware_py.sim.piezo import ModelSlap

        with self.sim._lock:
            self.sim._model.add(ModelSlap(pad, self.sim.board_clock.board_us(t_us), force))


@pytest.mark.slow
@pytest.mark.realtime  # a board over a pty, on the wall clock: starved by parallel workers
def test_live_wizard_over_the_pty_board(tmp_path: Path) -> None:
    """The whole wizard in real time against the simulated board over a pty: captures
    stream, settings are pushed and restored, and saving reaches the board's flash."""
    from calibration.runner import run_wizard
    from calibration.wizard import Counts, Wizard
    from firmware_py.sim.operator import ScriptedOperator
    from firmware_py.sim.piezo import PiezoPad

    clock = MonotonicClock()
    pads = [PiezoPad(noise=100, gain=1.0), PiezoPad(noise=120, gain=0.8)]
    with PadboardSimulator(pads=2, seed=5, clock=clock, pad_models=pads, crosstalk=0.12) as sim:
        board = PadboardSource(sim.port, clock, {}, timing=LinkTiming(backoff_first_s=0.02, backoff_max_s=0.2))
        try:
            live = LivePadboard(board)
            originals = {p: live.read_settings(p) for p in range(2)}
            counts = Counts(rest_s=1.0, soft=3, hard=2, flurry=3, neighbour_hard=1, verify_soft=3, verify_hard=1)
            from calibration.verify import Criteria

            w = Wizard(2, [0], originals, counts=counts, criteria=Criteria(idle_s=1.0))
            hands = _BoardHands(sim, clock)
            op = ScriptedOperator(hands)  # type: ignore[arg-type]
            settings = run_wizard(w, live, op)
            assert w.captures[0].frames > 3000  # 1 s of 4 kHz frames streamed
            assert settings is not None, [v.failed() for v in w.verdicts.values()]
            assert settings[0] != originals[0] and settings[1] == originals[1]
            push(live, new_profile("live", "cab", "padboard", settings))
            assert live.read_settings(0) == settings[0]
        finally:
            board.close()


GPIO_CONFIG = str(Path(__file__).resolve().parents[2] / "deploy" / "cabinet.toml")


def test_list_with_no_profiles_says_so(tmp_path: Path, capsys) -> None:
    assert main(["calibrate", "--list", "--data", str(tmp_path)]) == 0
    assert capsys.readouterr().out.startswith(f"no saved profiles in {tmp_path / 'calibration'}")


def test_restore_of_a_profile_that_is_not_there_says_so_before_opening_any_hardware(tmp_path: Path, capsys) -> None:
    assert main(["calibrate", "--config", GPIO_CONFIG, "--restore", "nosuch", "--data", str(tmp_path)]) == 2
    out, err = capsys.readouterr()
    assert "no profile named 'nosuch'" in out and "--list" in out
    assert "lgpio" not in out + err


def test_without_lgpio_calibrate_exits_5_like_run(tmp_path: Path, caplog) -> None:
    try:
        import lgpio  # noqa: F401

        pytest.skip("lgpio is installed here")
    except ImportError:
        pass
    from firmware_py.process.exit_codes import EXIT_SOFTWARE

    assert main(["calibrate", "--config", GPIO_CONFIG, "--data", str(tmp_path)]) == EXIT_SOFTWARE
    assert main(["run", "--config", GPIO_CONFIG, "--data", str(tmp_path / "run")]) == EXIT_SOFTWARE
    assert "ringside calibrate: the lgpio library is not installed" in caplog.text


@pytest.mark.slow
def test_sim_calibrates_only_the_stations_pads_and_leaves_no_scratch_folder(
    tmp_path: Path, capsys, monkeypatch
) -> None:
    import tempfile

    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    monkeypatch.delenv("RINGSIDE_DATA", raising=False)
    assert main(["calibrate", "--sim", "hall", "--yes", "--idle", "2"]) == 0  # the shipped config: 2 stations
    out = capsys.readouterr().out
    assert "Calibrating 1, 2 of 3 pads on hall (simulated)" in out
    assert "  Red pad: " in out and "  Blue pad: " in out and "Pad 3" not in out
    assert "The scratch folder is deleted now" in out
    assert list(tmp_path.iterdir()) == []  # no ringside-calibrate-sim-* left behind


def test_a_missing_padboard_port_is_exit_4_naming_the_port(tmp_path: Path, caplog) -> None:
    text = Path(GPIO_CONFIG).read_text()
    text = text.replace('source = "gpio-edge", pin = 21', 'source = "padboard", pad = 0')
    text = text.replace('source = "gpio-edge", pin = 18', 'source = "padboard", pad = 1')
    config = tmp_path / "cabinet.toml"
    config.write_text(text + f'\n[padboard]\nport = "{tmp_path / "nope"}"\nsettle_us = 13000\n')
    assert main(["calibrate", "--config", str(config), "--data", str(tmp_path / "d")]) == 4
    assert f"padboard port {tmp_path / 'nope'} does not exist: is the padboard plugged in?" in caplog.text

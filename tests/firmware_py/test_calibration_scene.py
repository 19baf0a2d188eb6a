"""The wizard as a cabinet scene: SERVICE → Calibration → the whole procedure with
station 1's buttons on simulated pads (simulated hands slap), the live view rendered,
the profile saved; the SERVICE key off mid-step aborts and the old settings stay."""

from __future__ import annotations

import pygame
import pytest

from calibration.profiles import ProfileStore
from calibration.wizard import ABORTED, CAPTURE, DONE, REVIEW, VERDICT
from display.calibration_screen import CalibrationScreen
from firmware_py.runtime.cabinet import Cabinet
from firmware_py.runtime.calibration_scene import CalibrationScene
from firmware_py.runtime.service_menu import ServiceMenu, cabinet_pages
from firmware_py.runtime.store import Store
from hal.events import Button
from tests.cabinet_driving import press, run_for
from tests.conftest import ARTIFACTS


@pytest.fixture
def cabinet(config, sim, clock, tmp_path):
    cab = Cabinet(config, sim, clock, Store(tmp_path / "s.sqlite3"), log=lambda _l: None, seed=1)
    yield cab


def open_calibration(cabinet: Cabinet, sim) -> CalibrationScene:
    sim.service_key(True, sim.clock.now_us())
    run_for(cabinet, sim, 100_000, render=False)
    assert isinstance(cabinet.scene, ServiceMenu)
    for _ in range([p.title for p in cabinet_pages(None)].index("Calibration")):
        press(cabinet, sim, 0, Button.B)
    press(cabinet, sim, 0, Button.START)
    assert isinstance(cabinet.scene, CalibrationScene)
    return cabinet.scene


@pytest.mark.slow
def test_whole_wizard_from_the_service_menu(cabinet: Cabinet, sim, config) -> None:
    scene = open_calibration(cabinet, sim)
    w = scene.wizard
    shots = pages_seen = 0
    for _ in range(400):
        if w.state == DONE:
            break
        if w.state == CAPTURE and scene.rec is not None:
            run_for(cabinet, sim, 500_000, render=False)
            if shots == 0 and scene.rec is not None and scene.rec.hits():
                canvas = cabinet.render()
                ARTIFACTS.mkdir(parents=True, exist_ok=True)
                pygame.image.save(canvas, str(ARTIFACTS / "calibration_live.png"))
                assert isinstance(scene.screen(sim.clock.now_us()), CalibrationScreen)
                shots += 1
            continue
        if w.state in (REVIEW, VERDICT):
            cabinet.render()
            assert w.state != VERDICT or w.passed, [v.failed() for v in w.verdicts.values()]
            pages_seen += check_words_then_numbers(cabinet, sim, scene)
        press(cabinet, sim, 0, Button.START)
    assert w.state == DONE and shots == 1 and pages_seen >= 2
    # the simulated hall has 3 pads; the cabinet's 2 stations read 2 of them
    assert list(w.targets) == [0, 1] and list(w.names)[:2] == [s.name for s in config.stations]
    store = ProfileStore(config.data_dir)
    assert store.active() == "cabinet" and store.load("cabinet").pads
    assert list((config.data_dir / "calibration" / "reports").glob("*.png"))
    press(cabinet, sim, 0, Button.START)
    assert isinstance(cabinet.scene, ServiceMenu)


def check_words_then_numbers(cabinet: Cabinet, sim, scene: CalibrationScene) -> int:
    """Review and verdict: a verdict in words per pad first; C turns through the pages of
    numbers (each drawn, none cut) and back.  Returns how many number pages there were."""
    from calibration.report import review_verdicts, verification_verdicts
    from display.calibration_screen import layout
    from display.layout import UNITS

    w = scene.wizard
    now = sim.clock.now_us
    words = review_verdicts(w) if w.state == REVIEW else verification_verdicts(w)
    first = scene.screen(now())
    assert list(first.lines[: len(words)]) == words and "C: the numbers" in first.footer
    assert not any("dB" in line or "σ" in line for line in first.lines)
    pages = 0
    while True:
        press(cabinet, sim, 0, Button.C)
        shown = scene.screen(now())
        if shown.lines[: len(words)] == first.lines[: len(words)]:
            return pages
        pages += 1
        assert shown.traces == () and "the numbers" in shown.title
        _step, body, room = layout(shown, UNITS)
        assert len(body) <= room
        cabinet.render()
        assert pages < 20


def test_service_key_off_mid_step_aborts(cabinet: Cabinet, sim) -> None:
    scene = open_calibration(cabinet, sim)
    before = [scene.source.read_settings(p) for p in range(scene.source.pads)]
    press(cabinet, sim, 0, Button.START)  # rest step records
    run_for(cabinet, sim, 3_500_000, render=False)
    press(cabinet, sim, 0, Button.START)  # soft step records
    sim.service_key(False, sim.clock.now_us())
    run_for(cabinet, sim, 100_000, render=False)
    assert not isinstance(cabinet.scene, (ServiceMenu, CalibrationScene))
    assert scene.wizard.state == ABORTED
    assert [scene.source.read_settings(p) for p in range(scene.source.pads)] == before
    assert scene.source.flash_writes == 0


@pytest.mark.slow  # a whole calibration run
def test_display_step_flashes_the_screen_and_times_the_panel(config, clock, tmp_path) -> None:
    """With a light sensor configured, the steps end with the display step: the whole
    screen flashes black and white, each flip is timed against the simulated panel's
    light at the sensor, and the measured lag is the profile's display latency."""
    from dataclasses import replace

    from hal.sim import SimCabinet

    cfg = replace(config, display=replace(config.display, photodiode_pin=7))
    sim = SimCabinet(cfg, clock)
    cabinet = Cabinet(cfg, sim, clock, Store(tmp_path / "d.sqlite3"), log=lambda _l: None, seed=1)
    try:
        scene = open_calibration(cabinet, sim)
        w = scene.wizard
        assert scene.display is not None and scene.display.panel is not None
        panel = scene.display.panel
        for _ in range(400):
            if w.state != CAPTURE or w.step.kind == "display":
                break
            if scene.rec is not None:
                run_for(cabinet, sim, 500_000, render=False)
            else:
                press(cabinet, sim, 0, Button.START)
        assert w.state == CAPTURE and w.step.kind == "display"
        press(cabinet, sim, 0, Button.START)
        assert scene.flash is not None
        seen: set[bool] = set()
        for _ in range(2000):
            if scene.flash is None:
                break
            run_for(cabinet, sim, 16_667)
            if scene.flash is not None:
                shown = scene._flash_shown
                canvas = cabinet.render()
                assert canvas.get_at((10, 10))[:3] == ((255, 255, 255) if shown else (0, 0, 0))
                seen.add(shown)
        assert seen == {True, False} and scene.flash is None
        assert w.display is not None and w.display.ok, w.display
        lag = w.display_latency_us
        assert lag is not None and panel.lag_us <= lag <= panel.lag_us + panel.spread_us + 16_667, lag
        assert w.state == REVIEW
    finally:
        sim.close()


def test_a_light_sensor_that_cannot_be_opened_leaves_the_display_step_out_in_one_line(
    config, monkeypatch: pytest.MonkeyPatch
) -> None:
    """On a Pi whose light sensor pin cannot be opened, calibration says why in one log
    line and runs without the display step (the cabinet keeps running)."""
    import sys
    import types
    from dataclasses import replace

    from firmware_py.runtime.calibration_scene import default_display

    class NoChip:
        def __init__(self, chip: int) -> None:
            raise OSError(f"cannot open gpiochip{chip}")

    monkeypatch.setitem(sys.modules, "gpiozero.pins.lgpio", types.SimpleNamespace(LGPIOFactory=NoChip))
    lines: list[str] = []
    cfg = replace(config, display=replace(config.display, photodiode_pin=7))
    ctx = types.SimpleNamespace(config=cfg, hardware=None, log=lines.append)
    assert default_display(ctx) is None  # type: ignore[arg-type]
    assert lines == ["calibration: no display step, the light sensor on GPIO 7 cannot be opened: cannot open gpiochip0"]


@pytest.mark.slow  # a board simulated behind a pty
def test_contact_probe_in_the_config_gives_a_probe_step_per_padboard_pad(config) -> None:
    """``[padboard] contact_probe = true``: the scene's wizard on the padboard adds a probe
    step per pad; on simulated pads without a board it does not."""
    import time
    import types
    from dataclasses import replace

    from calibration.live import LivePadboard
    from firmware_py.sim.pad_sets import virtual_cabinet
    from firmware_py.sim.padboard import PadboardSimulator
    from hal.clock import MonotonicClock
    from hal.config import PadboardConfig
    from hal.padboard.driver import PadboardSource

    clock = MonotonicClock()
    with PadboardSimulator(pads=2, seed=1, clock=clock, probe=True) as board_sim:
        cfg = replace(config, padboard=PadboardConfig(board_sim.port, 13_000, contact_probe=True))
        ctx = types.SimpleNamespace(config=cfg, hardware=None, log=lambda _l: None)
        board = PadboardSource(board_sim.port, clock, {})
        try:
            deadline = clock.now_us() + 5_000_000
            while board.info is None and clock.now_us() < deadline:
                time.sleep(0.01)
            live = LivePadboard(board)
            scene = CalibrationScene(ctx, 0, None, lambda _c: (live, None, "test"), display_factory=lambda _c: None)  # type: ignore[arg-type]
            assert scene.wizard is not None
            steps = [(s.kind, s.pad) for s in scene.wizard._steps]
            assert ("probe", 0) in steps and ("probe", 1) in steps
            vp = virtual_cabinet("quiet")
            sim_scene = CalibrationScene(ctx, 0, None, lambda _c: (vp, None, "sim"), display_factory=lambda _c: None)  # type: ignore[arg-type]
            assert sim_scene.wizard is not None and all(s.kind != "probe" for s in sim_scene.wizard._steps)
        finally:
            board.close()

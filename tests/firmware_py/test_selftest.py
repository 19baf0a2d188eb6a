"""``ringside selftest``: the simulated check says it is simulated; ``--press`` asks a person
to press every button and slap every pad on the real hardware (here gpiozero's mock pins
and a recorded I2C bus behind the real ``open_hardware`` wiring), with a timeout and a
FAIL naming the line to check; ``--data`` names the data folder like the other commands."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from gpiozero.pins.mock import MockFactory, MockPWMPin

from firmware_py.tools.cli import main
from firmware_py.tools.selftest import PressTest
from hal.clock import MonotonicClock
from hal.config import CabinetConfig, load_config
from hal.events import Button
from hal.hardware import open_hardware
from hal.timing import BUTTON_DEBOUNCE_US
from tests.i2c_bus import RecordingSMBus

REPO = Path(__file__).resolve().parents[2]
GPIO_CONFIG = REPO / "deploy" / "cabinet.toml"


def test_on_the_real_cabinets_config_it_says_plainly_the_check_was_simulated(tmp_path: Path, capsys) -> None:
    assert main(["selftest", "--config", str(GPIO_CONFIG), "--data", str(tmp_path / "d")]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[1].startswith("NOTE  simulated hardware") and "ringside selftest --press" in out[1]
    button_lines = [line for line in out if "buttons A-F and START" in line]
    assert len(button_lines) == 2 and all(line.endswith("(simulated)") for line in button_lines)
    assert f"PASS  data folder {tmp_path / 'd'} is a writable folder" in out  # --data was used


def test_data_flag_wins_over_the_environment(tmp_path: Path, capsys, monkeypatch) -> None:
    monkeypatch.setenv("RINGSIDE_DATA", str(tmp_path / "env"))
    assert main(["selftest", "--data", str(tmp_path / "flag")]) == 0
    out = capsys.readouterr().out
    assert str(tmp_path / "flag") in out and str(tmp_path / "env") not in out
    assert "NOTE  simulated hardware" not in out  # the shipped config is a simulated cabinet


def test_press_on_a_simulated_config_is_bad_input(capsys) -> None:
    assert main(["selftest", "--press"]) == 2


def test_press_without_lgpio_exits_5_like_run(tmp_path: Path, caplog) -> None:
    try:
        import lgpio  # noqa: F401

        pytest.skip("lgpio is installed here")
    except ImportError:
        pass
    assert main(["selftest", "--press", "--config", str(GPIO_CONFIG), "--data", str(tmp_path)]) == 5
    assert "lgpio library is not installed" in caplog.text and "is the cabinet running" not in caplog.text


@pytest.fixture
def real() -> tuple[CabinetConfig, dict[int, MockFactory]]:
    config = load_config(GPIO_CONFIG)
    factories = {c: MockFactory(pin_class=MockPWMPin) for c in (0, 1, 2)}
    yield config, factories
    for f in factories.values():
        f.reset()


class Person:
    """Reads the prompts and presses (drives the mock line low, then lets go) what they
    ask for, or what ``swap`` says they press instead; answers yes to the light questions."""

    def __init__(self, config: CabinetConfig, factories: dict[int, MockFactory], swap: dict[str, str | None]) -> None:
        self.config, self.factories, self.swap = config, factories, swap
        self.lines: list[str] = []

    def out(self, line: str) -> None:
        self.lines.append(line)
        if line.startswith("Press ") or line.startswith("Slap the "):
            target = line.removeprefix("Press ").removeprefix("Slap the ").removesuffix(" …")
            target = self.swap.get(target, target)
            if target is not None:
                self.act(target)

    def act(self, target: str) -> None:
        time.sleep(2 * BUTTON_DEBOUNCE_US / 1e6)  # a hand is slower than a button's bounce lockout
        name, part = target.split(" ")
        sc = next(s for s in self.config.stations if s.name == name)
        if part == "pad":
            pin = self.factories[0].pin(sc.slap.pin)
            pin.drive_high()
            pin.drive_low()
            return
        pin = self.factories[sc.input_chip].pin(sc.button_pin(Button(part)))
        pin.drive_low()
        pin.drive_high()

    def read(self, question: str) -> str:
        self.lines.append(question)
        return "y"


def press_test(real, swap: dict[str, str | None], timeout_s: float = 2.0) -> tuple[int, list[str]]:
    config, factories = real
    clock = MonotonicClock()
    hw = open_hardware(config, clock, factories=factories, i2c_buses={1: RecordingSMBus(present={0x3C, 0x3D})})
    person = Person(config, factories, swap)
    try:
        code = PressTest(config, hw, clock, out=person.out, read=person.read, timeout_s=timeout_s).run()
    finally:
        hw.close()
    return code, person.lines


def test_press_asks_for_every_button_and_pad_and_passes_when_each_comes(real) -> None:
    code, lines = press_test(real, {})
    assert code == 0, lines
    prompts = [line for line in lines if line.startswith(("Press ", "Slap "))]
    assert prompts[:8] == [f"Press Red {b.value} …" for b in Button] + ["Slap the Red pad …"]
    assert len(prompts) == 16
    assert "PASS  Red A (BCM 5) gives a press" in lines and "PASS  Blue pad (BCM 18) gives a slap" in lines
    assert lines[-1] == "all checks passed"


def test_a_press_that_never_comes_is_a_fail_naming_the_line(real) -> None:
    code, lines = press_test(real, {"Red C": None}, timeout_s=0.3)
    assert code == 1
    assert "FAIL  Red C: no press within 0.3 s: check its wire to BCM 13 and ground" in lines
    assert "PASS  Red D (BCM 19) gives a press" in lines  # the test goes on
    assert lines[-1] == "1 check(s) FAILED"


def test_crossed_wires_are_a_fail_naming_both_buttons(real) -> None:
    code, lines = press_test(real, {"Blue E": "Red E"})
    assert code == 1
    assert "FAIL  Blue E: Red E (BCM 26) answered instead: wires crossed? (Blue E is BCM 24)" in lines


def test_a_light_question_answered_no_is_a_fail_naming_the_bar_and_the_display(real) -> None:
    config, factories = real
    clock = MonotonicClock()
    hw = open_hardware(config, clock, factories=factories, i2c_buses={1: RecordingSMBus(present={0x3C, 0x3D})})
    person = Person(config, factories, {})
    try:
        answers = iter(["y", "n"])
        code = PressTest(config, hw, clock, out=person.out, read=lambda _q: next(answers), timeout_s=2).run()
    finally:
        hw.close()
    assert code == 1
    assert any(
        line.startswith("FAIL  Blue: LED bar or private display (answered no): check gpiochip 2")
        for line in person.lines
    )


def test_no_sound_device_is_a_warning_not_a_pass(tmp_path: Path, capsys, monkeypatch) -> None:
    """Issue 36: ``selftest`` passed with no audio device (it checked on SDL's dummy
    driver).  The cabinet's own sound device is opened; none is a WARN naming why (the
    cabinet plays silent, so it is no FAIL).  Here ALSA is asked for a card that no
    machine has (or SDL has no ALSA at all): either way, no device."""
    monkeypatch.setenv("SDL_AUDIODRIVER", "alsa")
    monkeypatch.setenv("AUDIODEV", "hw:99,0")
    import pygame

    pygame.mixer.quit()  # the device is opened afresh, as at a cabinet's start
    assert main(["selftest", "--data", str(tmp_path / "d")]) == 0
    out = capsys.readouterr().out.splitlines()
    warned = [line for line in out if line.startswith("WARN  sound: no sound device")]
    assert len(warned) == 1 and "plays silent" in warned[0], out
    assert not any(line.startswith("PASS  sound") for line in out)
    pygame.mixer.quit()

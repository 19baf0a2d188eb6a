"""Safe shutdown from the service menu: it asks first, then runs the configured command
(a harmless stand-in here); on simulated hardware there is nothing to power off."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

from firmware_py.process.version import describe
from firmware_py.runtime.cabinet import Cabinet
from firmware_py.runtime.service_menu import ServiceMenu
from firmware_py.runtime.shutdown import ShutdownCommand
from hal.config import parse_config
from hal.events import Button
from tests.cabinet_driving import press, run_for


def service_menu_at(cabinet: Cabinet, sim, item: str) -> ServiceMenu:
    sim.service_key(True, sim.clock.now_us())
    run_for(cabinet, sim, 100_000)
    menu = cabinet.scene
    assert isinstance(menu, ServiceMenu)
    while menu.titles[menu.cursor] != item:
        press(cabinet, sim, 0, Button.B)
    return menu


def wait_for(path: Path, timeout_s: float = 20.0) -> bool:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if path.exists():
            return True
        time.sleep(0.05)
    return False


def test_shut_down_asks_then_runs_the_configured_command(config, sim, clock, store, tmp_path) -> None:
    marker = tmp_path / "powered-off"
    argv_toml = json.dumps([sys.executable, "-c", f"open({str(marker)!r}, 'w').write('off')"])
    text = f"[cabinet]\nname = 'x'\n[service]\npin = 4\nshutdown_command = {argv_toml}\n"
    stations = Path("hal/data/cabinet.toml").read_text().split("[[station]]", 1)[1]
    argv = parse_config(text + "[[station]]" + stations).shutdown_command
    command = ShutdownCommand(argv)
    cabinet = Cabinet(config, sim, clock, store, log=lambda _l: None, seed=1, shutdown=command)
    menu = service_menu_at(cabinet, sim, "Shut down")
    assert "START, then START again to confirm." in menu.screen(clock.now_us()).body
    press(cabinet, sim, 0, Button.START)
    assert menu.screen(clock.now_us()).body[0] == "Really shut the cabinet down?"
    press(cabinet, sim, 0, Button.A)  # moving away cancels
    press(cabinet, sim, 0, Button.B)
    assert menu.screen(clock.now_us()).body[0] == "Powers the cabinet off safely." and command.process is None
    press(cabinet, sim, 0, Button.START)
    assert command.process is None and not marker.exists()  # asked, not run
    press(cabinet, sim, 0, Button.START)
    assert command.process is not None
    assert menu.screen(clock.now_us()).body[0].startswith("Shutting down")
    assert wait_for(marker) and marker.read_text() == "off"
    command.process.wait(20)


def test_a_shutdown_command_that_cannot_start_says_so(config, sim, clock, store, tmp_path) -> None:
    command = ShutdownCommand([str(tmp_path / "no-such-program")])
    cabinet = Cabinet(config, sim, clock, store, log=lambda _l: None, seed=1, shutdown=command)
    menu = service_menu_at(cabinet, sim, "Shut down")
    press(cabinet, sim, 0, Button.START)
    press(cabinet, sim, 0, Button.START)
    assert menu.screen(clock.now_us()).body == ("Shutdown failed: No such file or directory",)


def test_simulated_hardware_has_nothing_to_shut_down(cabinet, sim, clock) -> None:
    menu = service_menu_at(cabinet, sim, "Shut down")
    press(cabinet, sim, 0, Button.START)
    press(cabinet, sim, 0, Button.START)
    assert menu.screen(clock.now_us()).body == ("Nothing to shut down: this is simulated hardware.",)


def test_the_cabinet_page_shows_the_software_version(cabinet, sim, clock) -> None:
    menu = service_menu_at(cabinet, sim, "Cabinet")
    assert f"Software: {describe()}" in menu.screen(clock.now_us()).body

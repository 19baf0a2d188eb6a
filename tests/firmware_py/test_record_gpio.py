"""``ringside run --record`` on the gpio backend: the real-hardware path (``open_hardware``:
GpioCabinet, gpio-edge slaps, luma OLEDs behind their worker) on MockFactory pins and
fake-rpi's I2C bus, driven through the real-time loop from another thread as a player
would press, stopped with SIGTERM as systemd stops it."""

from __future__ import annotations

import os
import signal
import threading
import time
import tomllib

import pytest
from gpiozero.pins.mock import MockFactory, MockPWMPin

from firmware_py.process.exit_codes import EXIT_OK
from firmware_py.tools.cli import main
from hal import hardware
from hal.events import Button
from tests.firmware_py.test_cli_cabinet import cabinet_config
from tests.i2c_bus import RecordingSMBus
from tests.notify_socket import FakeNotifySocket

pytestmark = pytest.mark.slow
"""Every test here takes more than a moment: ``make check`` leaves them to ``make test``."""


def test_record_writes_the_game_played_on_real_hardware_paths(tmp_path, monkeypatch) -> None:
    factories = {c: MockFactory(pin_class=MockPWMPin) for c in (0, 1, 2)}
    bus = RecordingSMBus(present={0x3C, 0x3D})
    real_open = hardware.open_hardware
    opened = []

    def open_on_mock_pins(config, clock):
        hw = real_open(config, clock, factories=factories, i2c_buses={1: bus})
        opened.append(hw)
        return hw

    monkeypatch.setattr(hardware, "open_hardware", open_on_mock_pins)
    notify = FakeNotifySocket(tmp_path)
    monkeypatch.setenv("NOTIFY_SOCKET", str(notify.path))
    config_path = cabinet_config(tmp_path, backend="gpio")
    config = tomllib.loads(config_path.read_text())
    pins = [{b: p for b, p in s["buttons"].items()} for s in config["station"]]
    slap_pin = config["station"][0]["slap"]["pin"]
    record = tmp_path / "fault.toml"
    failure: list[BaseException] = []

    def player() -> None:
        def press(station: int, button: Button) -> None:
            pin = factories[0].pin(pins[station][button.value])
            pin.drive_low()
            time.sleep(0.06)
            pin.drive_high()
            time.sleep(0.25)

        try:
            notify.wait_for("READY=1", 60)
            press(0, Button.START)  # attract → select
            press(0, Button.START)  # the first game: Punch!
            press(1, Button.START)  # Blue joins: two players, options
            press(0, Button.START)  # fight
            press(0, Button.START)  # keep the dealt hands
            press(1, Button.START)
            press(0, Button.A)
            press(1, Button.B)
            slap = factories[0].pin(slap_pin)
            slap.drive_high()
            slap.drive_low()
            time.sleep(0.3)
        except BaseException as e:  # reported on the main thread
            failure.append(e)
        finally:
            os.kill(os.getpid(), signal.SIGTERM)  # as systemctl stop does

    thread = threading.Thread(target=player)
    thread.start()
    try:
        code = main(["run", "--config", str(config_path), "--data", str(tmp_path / "data"), "--record", str(record)])
    finally:
        thread.join(60)
        notify.drain()
        notify.close()
        for f in factories.values():
            f.reset()
    assert not failure, failure
    assert code == EXIT_OK
    assert "STOPPING=1" in notify.received
    scenario = tomllib.loads(record.read_text())
    assert scenario["scenario"]["game"] == "punch"
    inputs = scenario["input"]
    presses = [(i["station"], i["press"]) for i in inputs if "press" in i]
    assert (0, "A") in presses and (1, "B") in presses
    assert any("slap" in i and i["station"] == 0 for i in inputs)
    live = (tmp_path / "fault.events.jsonl").read_text().splitlines()
    assert any('"kind": "game"' in row for row in live)
    # The private displays were written over the (fake) I2C bus by their worker.
    assert bus.data_bytes(0x3C) > 1024 and bus.data_bytes(0x3D) > 1024
    assert opened and opened[0].oleds.workers[1].failures == 0

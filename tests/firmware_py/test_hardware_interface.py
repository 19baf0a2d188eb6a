"""The runtime drives hardware only through ``hal.cabinet_io.CabinetIO``: the production
path never imports the simulator, and the development window's panels come from what
the hardware says it can read back, not from a type check."""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from firmware_py.runtime.cabinet import Cabinet
from hal.cabinet_io import CabinetIO

ROOT = Path(__file__).resolve().parents[2]
PRODUCTION = sorted((ROOT / "firmware_py" / "runtime").glob("*.py")) + sorted(
    p for p in (ROOT / "firmware_py" / "games").rglob("*.py") if "__pycache__" not in p.parts
)
"""The cabinet at run time and each game's part of it: what runs on a Pi."""
SIMULATOR = ("hal.sim", "gpiozero.pins.mock")

GPIO_RUN = """
import json, sys
import hal.hardware

def open_hardware(config, clock):
    print(json.dumps(sorted(sys.modules)))
    raise SystemExit(0)

hal.hardware.open_hardware = open_hardware
from firmware_py.tools.cli import main
main(["run", "--backend", "gpio", "--data", sys.argv[1]])
"""


@pytest.mark.slow
def test_the_production_modules_never_name_the_simulator() -> None:
    for path in PRODUCTION:
        name = str(path.relative_to(ROOT))
        tree = ast.parse(path.read_text(encoding="utf-8"))
        imported = {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
        imported |= {n.module or "" for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}
        names = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}
        assert not imported & set(SIMULATOR), name
        assert "SimCabinet" not in names, name


@pytest.mark.slow
def test_ringside_run_on_a_pi_opens_the_hardware_without_loading_the_simulator(tmp_path) -> None:
    """Everything ``ringside run --backend gpio`` imports before it opens the hardware:
    the CLI, the cabinet, the loop, the scenes — and no simulator among them."""
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
    result = subprocess.run(
        [sys.executable, "-c", GPIO_RUN, str(tmp_path / "data")],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
        env=env,
    )
    assert result.returncode == 0, result.stderr
    modules = set(json.loads(result.stdout.strip().splitlines()[-1]))
    assert {
        "firmware_py.runtime.cabinet",
        "firmware_py.runtime.loop",
        "firmware_py.runtime.scenes",
        "hal.hardware",
    } <= modules
    assert not modules & set(SIMULATOR)


class Panelless(CabinetIO):
    """Hardware that cannot read its outputs back (a real cabinet)."""

    def __init__(self) -> None:
        self.sources = []
        self.readbacks = 0

    def poll(self, now_us):
        return []

    def wait(self, timeout_s):
        pass

    def next_due(self):
        return None

    def set_led_level(self, station, level):
        pass

    def show_private(self, station, image):
        pass

    def readback(self):
        self.readbacks += 1
        return None

    def close(self):
        pass


def test_the_panels_show_only_what_the_hardware_reads_back(config, sim, clock, store) -> None:
    from display.dev_panels import HEIGHT
    from display.window import Window

    for hardware, lit in ((Panelless(), False), (sim, True)):
        window = Window((1280, 720), strip_height=HEIGHT)
        cabinet = Cabinet(config, hardware, clock, store, window, log=lambda _l: None, seed=1)
        cabinet.step(clock.now_us())
        cabinet.render()
        assert window.strip is not None
        colours = {window.strip.get_at((x, y))[:3] for x in range(16, 220, 8) for y in range(50, 150, 8)}
        assert (max(colours) == (255, 255, 255)) is lit  # the OLED's lit pixels, read back from the sim
        if isinstance(hardware, Panelless):
            assert hardware.readbacks == 1
            assert colours == {(0, 0, 0)}  # a blank strip, untouched
        window.close()

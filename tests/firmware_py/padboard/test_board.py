"""The board-side Python stays in the MicroPython subset, and its settings store is safe."""

from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest

from firmware_py.padboard import settings_store
from hal.padboard import wire
from hal.padboard.settings import PadSettings

ROOT = Path(__file__).resolve().parents[3]
BOARD_FILES = [
    ROOT / "hal/padboard/wire.py",
    ROOT / "firmware_py/padboard/detector.py",
    ROOT / "firmware_py/padboard/settings_store.py",
    ROOT / "firmware_py/padboard/board.py",
    ROOT / "firmware_py/padboard/main.py",
]
BOARD_MODULES = {
    "struct",
    "math",
    "json",
    "os",
    "time",
    "sys",
    "select",
    "machine",
    "micropython",
    "rp2",
    "binascii",
    "gc",
}
LOCAL = {"wire", "detector", "settings_store", "board"}


@pytest.mark.parametrize("path", BOARD_FILES, ids=lambda p: p.name)
def test_padboard_board_files_use_only_the_micropython_subset(path: Path) -> None:
    tree = ast.parse(path.read_text())
    guarded: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Try) and any(
            isinstance(h.type, ast.Name) and h.type.id == "ImportError" for h in node.handlers
        ):
            guarded.update(id(n) for n in ast.walk(node))
    for node in ast.walk(tree):
        assert not isinstance(node, ast.JoinedStr), f"{path.name}:{node.lineno}: f-string"
        assert not isinstance(node, (ast.AnnAssign, ast.Match, ast.NamedExpr)), f"{path.name}:{node.lineno}"
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            assert node.returns is None and all(a.annotation is None for a in node.args.args), node.name
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module or ""]
            for name in names:
                top = name.split(".")[0]
                if top in BOARD_MODULES or top in LOCAL:
                    continue
                host_path = name == "hal.padboard" or name.startswith("firmware_py.padboard.")
                assert host_path and id(node) in guarded, f"{path.name}:{node.lineno}: import {name}"


def test_padboard_host_settings_mirror_the_wire_table() -> None:
    assert PadSettings().as_dict() == wire.default_settings()
    assert list(PadSettings().as_dict()) == [f[0] for f in wire.SETTINGS_FIELDS]
    with pytest.raises(ValueError, match="threshold"):
        PadSettings(threshold=0)
    s = PadSettings(threshold=900, xtalk_pct=0)
    assert PadSettings.from_dict(s.as_dict()) == s


def test_padboard_settings_store_round_trip_and_fallbacks(tmp_path: Path) -> None:
    path = str(tmp_path / settings_store.FILENAME)
    assert settings_store.load(path, 2) == [wire.default_settings()] * 2
    chosen = [PadSettings(threshold=1500).as_dict(), PadSettings(mask_us=40_000).as_dict()]
    settings_store.save(path, chosen)
    assert settings_store.load(path, 2) == chosen
    assert settings_store.load(path, 3)[2] == wire.default_settings()
    Path(path).write_text(json.dumps([{"threshold": 10**9, "curve": "x"}, "junk"]))
    loaded = settings_store.load(path, 2)
    assert loaded[0] == wire.default_settings() and loaded[1] == wire.default_settings()
    Path(path).write_text(json.dumps([{"threshold": 10**9}]))
    assert settings_store.load(path, 1)[0]["threshold"] == 65535
    Path(path).write_text("{not json")
    assert settings_store.load(path, 1) == [wire.default_settings()]


class BoardHarness:
    """The board's protocol side without a link: frames in, decoded frames out."""

    def __init__(self, save=None) -> None:
        from firmware_py.padboard.board import Board

        self.out = wire.FrameDecoder()
        self.got: list[tuple[int, int, bytes]] = []
        self.board = Board(2, 250, self._write, [{}, {}], save)
        self.seq = 0

    def _write(self, frame: bytes) -> None:
        self.got += [(t, s, bytes(p)) for t, s, p in self.out.feed(frame)]

    def send(self, msg_type: int, payload: bytes = b"", now: int = 0) -> list[tuple[int, int, bytes]]:
        self.got = []
        self.board.on_bytes(wire.encode_frame(msg_type, self.seq, payload), now)
        self.seq += 1
        return self.got


def test_padboard_board_answers_every_command() -> None:
    h = BoardHarness(save=lambda s: None)
    [(t, s, p)] = h.send(wire.HELLO, b"\x01")
    assert (t, s) == (wire.INFO, 0) and wire.unpack_info(p)[:4] == (wire.PROTOCOL_VERSION, 2, 30, 250)
    [(t, s, p)] = h.send(wire.PING, b"abcd", now=(1 << 30) - 1)
    assert (t, s, p) == (wire.PONG, 1, b"abcd" + ((1 << 30) - 1).to_bytes(4, "little"))
    assert h.send(wire.GET_SETTINGS, b"\x05") == [(wire.ACK, 2, bytes([wire.GET_SETTINGS, wire.BAD_PAD, 2, 0]))]
    assert h.send(wire.SET_SETTINGS, b"\x00\x01")[0][2][1] == wire.BAD_VALUE
    assert h.send(wire.RAW_START, bytes([0b100, 8]))[0][2][1] == wire.BAD_VALUE  # no pad 2
    assert h.send(wire.RAW_START, bytes([0b1, 0]))[0][2][1] == wire.BAD_VALUE
    assert h.send(0x7E)[0][2][:2] == bytes([0x7E, wire.UNKNOWN])
    assert h.send(wire.SAVE_SETTINGS)[0][2][1] == wire.OK
    assert h.send(wire.RESEND, (999).to_bytes(2, "little")) == []
    [(t, s, p)] = h.send(wire.RESEND, (1).to_bytes(2, "little"))
    assert (t, s) == (wire.PONG, 1)  # the very same frame, original number
    assert h.send(wire.HELLO, b"\x01")[0][:2] == (wire.INFO, 0)


def test_padboard_board_reports_flash_failure() -> None:
    def broken(_settings: object) -> None:
        raise OSError(28, "no space")

    h = BoardHarness(save=broken)
    assert h.send(wire.SAVE_SETTINGS)[0][2][1] == wire.FLASH_ERROR


def test_padboard_board_streams_raw_blocks_and_counts_dropped_frames() -> None:
    h = BoardHarness()
    h.send(wire.RAW_START, bytes([0b11, 3]))
    h.got = []
    for i, t in enumerate([100, 350, 600, 1100]):
        h.board.on_frame(t, [1000 + i, 2000 + i], missed=1 if t == 1100 else 0)
    [(t, _s, p)] = h.got
    assert t == wire.RAW
    assert wire.unpack_raw(p) == (100, [0, 1], [(0, (1000, 2000)), (250, (1001, 2001)), (250, (1002, 2002))])
    [(t, _s, p)] = h.send(wire.GET_HEALTH, now=1100)
    frames, dropped, rate_mhz, pads = wire.unpack_health(p)
    assert (frames, dropped, len(pads)) == (4, 1, 2)
    assert rate_mhz == 4 * 10**9 // 1000


def test_padboard_board_files_import_flat_as_on_the_board(tmp_path: Path) -> None:
    """On the board the files sit side by side with no hal package: the fallbacks work."""
    import shutil
    import subprocess
    import sys

    for f in BOARD_FILES:
        if f.name != "main.py":
            shutil.copy(f, tmp_path / f.name)
    script = (
        f"import sys; sys.path.insert(0, {str(tmp_path)!r})\n"
        "import board, detector, settings_store, wire\n"
        "assert 'hal' not in sys.modules\n"
        "out = []\n"
        "b = board.Board(1, 250, out.append, settings_store.load('nope.json', 1))\n"
        "b.on_bytes(wire.encode_frame(wire.HELLO, 0, b'\\x01'), 0)\n"
        "print(wire.FrameDecoder().feed(out[0])[0][0])\n"
    )
    res = subprocess.run([sys.executable, "-I", "-S", "-c", script], capture_output=True, text=True, cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    assert res.stdout.strip() == str(wire.INFO)

"""The board-side Python stays in the MicroPython subset, and its settings store is safe."""

from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest

from firmware_py.padboard import settings_store
from hal.padboard import wire
from hal.padboard.settings import PadSettings

ROOT = Path(__file__).resolve().parents[2]
BOARD_FILES = [
    ROOT / "hal/padboard/wire.py",
    ROOT / "firmware_py/padboard/detector.py",
    ROOT / "firmware_py/padboard/settings_store.py",
    ROOT / "firmware_py/padboard/board.py",
    ROOT / "firmware_py/padboard/main.py",
]
BOARD_MODULES = {"struct", "math", "json", "os", "time", "sys", "select", "machine", "micropython", "rp2", "binascii", "gc"}
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

"""Retention: old exhibition screenshot folders and calibration reports are deleted down
to the configured counts, nothing else in the data folder is touched, and low disk space
is a warning that names the store."""

from __future__ import annotations

import logging
import os
from pathlib import Path

import pytest

from firmware_py.process.retention import prune
from hal.config import ConfigError, RetentionConfig, parse_config


def make_items(data: Path, folders: int, reports: int) -> None:
    for i in range(folders):
        d = data / "screenshots" / f"exhibition-202401{i:02d}-120000"
        d.mkdir(parents=True)
        (d / "frame-0001.png").write_bytes(b"x")
        os.utime(d, (1_700_000_000 + i, 1_700_000_000 + i))
    rep = data / "calibration" / "reports"
    rep.mkdir(parents=True)
    for i in range(reports):
        r = rep / f"default-202401{i:02d}-120000.png"
        r.write_bytes(b"x")
        os.utime(r, (1_700_000_000 + i, 1_700_000_000 + i))


def test_keeps_the_newest_and_nothing_else_is_touched(tmp_path) -> None:
    data = tmp_path / "data"
    make_items(data, folders=7, reports=9)
    (data / "ringside.sqlite3").write_bytes(b"store")
    (data / "calibration" / "default.toml").write_text("profile")
    (data / "screenshots" / "by-hand").mkdir()  # not an exhibition folder
    result = prune(data, RetentionConfig(screenshot_folders=3, reports=4, min_free_mb=0))
    assert len(result.removed) == (7 - 3) + (9 - 4)
    left = sorted(p.name for p in (data / "screenshots").iterdir())
    assert left == ["by-hand", "exhibition-20240104-120000", "exhibition-20240105-120000", "exhibition-20240106-120000"]
    reports = sorted(p.name for p in (data / "calibration" / "reports").iterdir())
    assert reports == [f"default-202401{i:02d}-120000.png" for i in range(5, 9)]
    assert (data / "ringside.sqlite3").read_bytes() == b"store"
    assert (data / "calibration" / "default.toml").exists()
    assert prune(data, RetentionConfig(3, 4, 0)).removed == ()  # nothing more to do


def test_low_disk_space_is_a_warning_naming_the_store(tmp_path, caplog) -> None:
    with caplog.at_level(logging.WARNING):
        result = prune(tmp_path, RetentionConfig(min_free_mb=10**9))
    assert result.free_mb is not None
    (record,) = [r for r in caplog.records if r.levelno == logging.WARNING]
    assert "retention.min_free_mb = 1000000000" in record.getMessage()
    assert str(tmp_path / "ringside.sqlite3") in record.getMessage()


def test_retention_settings_are_validated_by_key() -> None:
    stations = Path("hal/data/cabinet.toml").read_text().split("[[station]]", 1)[1]
    base = "[cabinet]\nname = 'x'\n"
    cfg = parse_config(base + "[retention]\nscreenshot_folders = 5\n[[station]]" + stations)
    assert cfg.retention == RetentionConfig(screenshot_folders=5, reports=30, min_free_mb=200)
    with pytest.raises(ConfigError, match=r"retention.reports = 0: expected an integer from 1"):
        parse_config(base + "[retention]\nreports = 0\n[[station]]" + stations)
    with pytest.raises(ConfigError, match=r"retention.keep = 1: expected no such key"):
        parse_config(base + "[retention]\nkeep = 1\n[[station]]" + stations)
    with pytest.raises(ConfigError, match=r"service.shutdown_command = \[\]: expected a command as a list"):
        parse_config(base + "[service]\nshutdown_command = []\n[[station]]" + stations)


def test_ringside_run_prunes_as_it_starts(tmp_path, monkeypatch) -> None:
    """Even a start that then fails (hardware missing) has pruned first."""
    from firmware_py.process.exit_codes import EXIT_HARDWARE
    from firmware_py.tools.cli import main
    from hal import hardware
    from hal.hardware_errors import HardwareError
    from tests.firmware_py.test_cli_cabinet import cabinet_config

    def no_hardware(config, clock):
        raise HardwareError("no hardware here")

    monkeypatch.setattr(hardware, "open_hardware", no_hardware)
    data = tmp_path / "data"
    make_items(data, folders=25, reports=2)
    assert main(["run", "--config", str(cabinet_config(tmp_path)), "--data", str(data)]) == EXIT_HARDWARE
    assert len(list((data / "screenshots").iterdir())) == 20

"""Retention: what piles up in the data folder is pruned, so the SD card never fills.

Exhibition screenshot folders (``screenshots/exhibition-*``) and calibration reports
(``calibration/reports/*.png``) are kept to the newest N of each (``[retention]`` in the
cabinet config); older ones are deleted when the cabinet starts and after each report.
The store (every game's journal, the results) is the cabinet's record and is never
pruned here; the system journal is capped by journald itself (the installer's
``SystemMaxUse``).  Below ``min_free_mb`` free on the data folder's file system a
warning names what takes the space.
"""

from __future__ import annotations

import logging
import shutil
from dataclasses import dataclass
from pathlib import Path

from hal.config import RetentionConfig

log = logging.getLogger(__name__)

SCREENSHOTS = "screenshots"
REPORTS = Path("calibration") / "reports"


@dataclass(frozen=True)
class Pruned:
    removed: tuple[Path, ...]
    free_mb: int | None
    """Free space left on the data folder's file system (None: could not tell)."""


def newest_first(paths: list[Path]) -> list[Path]:
    """By modification time, newest first; the name breaks ties (names carry a stamp)."""

    def key(p: Path) -> tuple[float, str]:
        try:
            return (p.stat().st_mtime, p.name)
        except OSError:
            return (0.0, p.name)

    return sorted(paths, key=key, reverse=True)


def _remove(path: Path) -> bool:
    try:
        if path.is_dir() and not path.is_symlink():
            shutil.rmtree(path)
        else:
            path.unlink()
        return True
    except OSError as e:
        log.warning("retention: cannot remove %s (%s)", path, e.strerror or e)
        return False


def keep_newest(paths: list[Path], keep: int) -> list[Path]:
    """Delete all but the newest ``keep`` of ``paths``; returns what was deleted."""
    return [p for p in newest_first(paths)[keep:] if _remove(p)]


def prune(data_dir: Path, retention: RetentionConfig) -> Pruned:
    shots = data_dir / SCREENSHOTS
    folders = [p for p in shots.glob("exhibition-*") if p.is_dir()] if shots.is_dir() else []
    reports_dir = data_dir / REPORTS
    reports = [p for p in reports_dir.glob("*.png") if p.is_file()] if reports_dir.is_dir() else []
    removed = keep_newest(folders, retention.screenshot_folders) + keep_newest(reports, retention.reports)
    if removed:
        log.info(
            "retention: removed %d old item(s) (keeping %d screenshot folders, %d reports)",
            len(removed),
            retention.screenshot_folders,
            retention.reports,
        )
    free_mb = _free_mb(data_dir)
    if free_mb is not None and free_mb < retention.min_free_mb:
        log.warning(
            "only %d MB free on the file system of %s (retention.min_free_mb = %d): the store %s holds %d MB",
            free_mb,
            data_dir,
            retention.min_free_mb,
            data_dir / "ringside.sqlite3",
            _size_mb(data_dir / "ringside.sqlite3"),
        )
    return Pruned(tuple(removed), free_mb)


def _free_mb(folder: Path) -> int | None:
    try:
        return shutil.disk_usage(folder).free // 2**20
    except OSError:
        return None


def _size_mb(path: Path) -> int:
    try:
        return path.stat().st_size // 2**20
    except OSError:
        return 0

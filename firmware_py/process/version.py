"""Which Ringside this is: the package version and the git commit of its code.

The commit comes from ``firmware_py/build_info.json`` where the installer wrote
one (the cabinet runs a copy of the checkout, without ``.git``), else from the
repository the code runs from, read from ``.git`` directly (no ``git`` process: the
cabinet user may not own the checkout, and git refuses such repositories).
"""

from __future__ import annotations

import json
from importlib import metadata
from pathlib import Path

PACKAGE = "ringside"
BUILD_INFO = Path(__file__).resolve().parents[1] / "build_info.json"
"""Written by the installer into its copy of the code; never committed."""


def package_version() -> str:
    try:
        return metadata.version(PACKAGE)
    except metadata.PackageNotFoundError:
        return "unknown"


def commit(code_dir: Path | None = None, build_info: Path = BUILD_INFO) -> str:
    """Short commit hash (``+dirty`` when the installer saw local changes), or ``unknown``."""
    try:
        info = json.loads(build_info.read_text(encoding="utf-8"))
        return str(info["commit"])[:12] + ("+dirty" if info.get("dirty") else "")
    except (OSError, ValueError, KeyError, TypeError):
        pass
    here = code_dir if code_dir is not None else Path(__file__).resolve().parents[2]
    sha = git_head(here)
    return sha[:12] if sha else "unknown"


def git_head(start: Path) -> str | None:
    """The commit ``HEAD`` names in the repository at or above ``start``, from its files."""
    for folder in (start, *start.parents):
        dotgit = folder / ".git"
        if dotgit.exists():
            return _head(_git_dir(dotgit))
    return None


def _git_dir(dotgit: Path) -> Path:
    """``.git`` is a folder, or (a worktree, a submodule) a file ``gitdir: PATH``."""
    if dotgit.is_file():
        text = dotgit.read_text(encoding="utf-8").strip()
        if text.startswith("gitdir:"):
            target = Path(text[len("gitdir:") :].strip())
            return target if target.is_absolute() else (dotgit.parent / target).resolve()
    return dotgit


def _head(git_dir: Path) -> str | None:
    try:
        head = (git_dir / "HEAD").read_text(encoding="utf-8").strip()
    except OSError:
        return None
    if not head.startswith("ref:"):
        return head or None  # detached HEAD: the hash itself
    ref = head[len("ref:") :].strip()
    # A worktree's own git dir holds HEAD; its branches live in the common dir.
    common = git_dir
    try:
        common = (git_dir / (git_dir / "commondir").read_text(encoding="utf-8").strip()).resolve()
    except OSError:
        pass
    for base in (git_dir, common):
        try:
            return (base / ref).read_text(encoding="utf-8").strip()
        except OSError:
            pass
        try:
            for line in (base / "packed-refs").read_text(encoding="utf-8").splitlines():
                if line.endswith(" " + ref) and not line.startswith(("#", "^")):
                    return line.split(" ", 1)[0]
        except OSError:
            pass
    return None


def describe() -> str:
    """``ringside 0.1.0 (commit 1a2b3c4d5e6f)``: for ``--version``, the service menu, selftest."""
    return f"ringside {package_version()} (commit {commit()})"

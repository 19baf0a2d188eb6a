"""deploy/install.sh, the parts that run anywhere (``--no-system``: code, venv, config):
the service runs a copy of the checkout installed editable into the venv, and an update
— a new commit, the same command — really replaces the code that runs; the operator's
config is never overwritten."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]


def git(cwd: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(cwd), *args], check=True, capture_output=True, text=True).stdout.strip()


def install(checkout: Path, prefix: Path, etc: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [
            "bash",
            str(checkout / "deploy" / "install.sh"),
            "--no-system",
            "--prefix",
            str(prefix),
            "--etc",
            str(etc),
            # The venv gets only Ringside itself: its dependencies are not needed to
            # read what code and which commit it runs.
            "--pip-args",
            "--no-deps",
        ],
        env={**os.environ, "PYTHON": sys.executable},
        capture_output=True,
        text=True,
        timeout=300,
    )


def running_code(prefix: Path, expr: str) -> str:
    code = f"import firmware_py, firmware_py.process.version as v; print({expr})"
    return subprocess.run(
        [str(prefix / "venv" / "bin" / "python"), "-c", code], check=True, capture_output=True, text=True, cwd="/"
    ).stdout.strip()


@pytest.mark.slow
def test_install_then_update_runs_the_new_commit_and_keeps_the_config(tmp_path: Path) -> None:
    checkout = tmp_path / "checkout"
    subprocess.run(["git", "clone", "-q", str(REPO), str(checkout)], check=True)
    git(checkout, "config", "user.email", "t@example.invalid")
    git(checkout, "config", "user.name", "t")
    prefix, etc = tmp_path / "opt", tmp_path / "etc"

    first = install(checkout, prefix, etc)
    assert first.returncode == 0, first.stderr
    head = git(checkout, "rev-parse", "HEAD")
    assert running_code(prefix, "firmware_py.__file__") == str(prefix / "app" / "firmware_py" / "__init__.py")
    assert running_code(prefix, "v.describe()").endswith(f"(commit {head[:12]})")
    assert json.loads((prefix / "app" / "firmware_py" / "build_info.json").read_text())["commit"] == head
    assert (etc / "cabinet.toml").read_text() == (checkout / "deploy" / "cabinet.toml").read_text()
    assert not (prefix / "app" / ".git").exists()

    # The operator edits the config; a new commit arrives (git pull).
    (etc / "cabinet.toml").write_text((etc / "cabinet.toml").read_text().replace("ringside-1", "arcade-7"))
    init = checkout / "firmware_py" / "__init__.py"
    init.write_text(init.read_text() + "\nUPDATE_MARK = 'second release'\n")
    git(checkout, "commit", "-qam", "second release")
    second = install(checkout, prefix, etc)
    assert second.returncode == 0, second.stderr
    new_head = git(checkout, "rev-parse", "HEAD")
    assert new_head != head
    assert running_code(prefix, "firmware_py.UPDATE_MARK") == "second release"
    assert running_code(prefix, "v.describe()").endswith(f"(commit {new_head[:12]})")
    assert 'name = "arcade-7"' in (etc / "cabinet.toml").read_text()  # kept
    assert (etc / "cabinet.toml.example").read_text() == (checkout / "deploy" / "cabinet.toml").read_text()
    assert "kept" in second.stdout

    # Local changes not committed are installed too, and say so.
    init.write_text(init.read_text() + "\nUPDATE_MARK = 'local edit'\n")
    third = install(checkout, prefix, etc)
    assert third.returncode == 0, third.stderr
    assert running_code(prefix, "firmware_py.UPDATE_MARK") == "local edit"
    assert running_code(prefix, "v.commit()") == new_head[:12] + "+dirty"


def test_install_needs_root_for_the_system_parts(tmp_path: Path) -> None:
    if subprocess.run(["id", "-u"], capture_output=True, text=True).stdout.strip() == "0":
        result = subprocess.run(
            ["bash", str(REPO / "deploy" / "install.sh"), "--bogus"], capture_output=True, text=True
        )
        assert result.returncode == 2 and "unknown option --bogus" in result.stderr
        return
    result = subprocess.run(["bash", str(REPO / "deploy" / "install.sh")], capture_output=True, text=True)
    assert result.returncode == 1 and "run it with sudo" in result.stderr

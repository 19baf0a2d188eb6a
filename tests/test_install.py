"""deploy/install.sh, the parts that run anywhere (``--no-system``: code, venv, config):
the service runs a copy of the checkout installed editable into its own venv, one
release folder per install behind the ``current`` switch; an update — a new commit, the
same command — really replaces the code that runs, a failed one changes nothing, and the
operator's config is never overwritten.  (tests/system/ proves the rest in a booted
Debian.)"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]


def git(cwd: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(cwd), *args], check=True, capture_output=True, text=True).stdout.strip()


def install_env() -> dict[str, str]:
    """The installer's new venv sees this test's packages (it is made with
    --system-site-packages, and PYTHONPATH reaches its smoke check), so that check can
    import pygame and the rest although pip installs only Ringside (--no-deps)."""
    site = sysconfig.get_paths()["purelib"]
    return {**os.environ, "PYTHON": sys.executable, "PYTHONPATH": site}


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
        env=install_env(),
        capture_output=True,
        text=True,
        timeout=300,
    )


def running_code(prefix: Path, expr: str) -> str:
    code = f"import firmware_py, firmware_py.process.version as v; print({expr})"
    return subprocess.run(
        [str(prefix / "current" / "venv" / "bin" / "python"), "-c", code],
        check=True,
        capture_output=True,
        text=True,
        cwd="/",
    ).stdout.strip()


def current(prefix: Path) -> Path:
    return (prefix / "current").resolve()


@pytest.mark.slow
def test_install_then_update_runs_the_new_commit_and_keeps_the_config(tmp_path: Path) -> None:
    checkout = tmp_path / "checkout"
    subprocess.run(["git", "clone", "-q", str(REPO), str(checkout)], check=True)
    git(checkout, "config", "user.email", "t@example.invalid")
    git(checkout, "config", "user.name", "t")
    # The installer as it is in the working tree (the clone has the last commit's).
    shutil.copytree(REPO / "deploy", checkout / "deploy", dirs_exist_ok=True)
    git(checkout, "add", "deploy")
    git(checkout, "commit", "-qm", "the installer under test", "--allow-empty")
    prefix, etc = tmp_path / "opt", tmp_path / "etc"
    for legacy in ("app", "venv"):  # the layout before release folders
        (prefix / legacy).mkdir(parents=True)

    first = install(checkout, prefix, etc)
    assert first.returncode == 0, first.stderr
    head = git(checkout, "rev-parse", "HEAD")
    first_release = current(prefix)
    assert first_release.parent == prefix / "releases" and first_release.name.endswith(head[:12])
    assert running_code(prefix, "firmware_py.__file__") == str(first_release / "app" / "firmware_py" / "__init__.py")
    assert running_code(prefix, "v.describe()").endswith(f"(commit {head[:12]})")
    assert json.loads((first_release / "app" / "firmware_py" / "build_info.json").read_text())["commit"] == head
    assert (etc / "cabinet.toml").read_text() == (checkout / "deploy" / "cabinet.toml").read_text()
    assert not (first_release / "app" / ".git").exists()
    assert not (prefix / "previous").exists()
    assert not (prefix / "app").exists() and not (prefix / "venv").exists()

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
    assert (prefix / "previous").resolve() == first_release  # the way back
    assert 'name = "arcade-7"' in (etc / "cabinet.toml").read_text()  # kept
    assert (etc / "cabinet.toml.example").read_text() == (checkout / "deploy" / "cabinet.toml").read_text()
    assert "kept" in second.stdout

    # Local changes not committed are installed too, and say so.
    init.write_text(init.read_text() + "\nUPDATE_MARK = 'local edit'\n")
    third = install(checkout, prefix, etc)
    assert third.returncode == 0, third.stderr
    assert running_code(prefix, "firmware_py.UPDATE_MARK") == "local edit"
    assert running_code(prefix, "v.commit()") == new_head[:12] + "+dirty"

    # A release that pip cannot install is never made current, and leaves no folder.
    releases = sorted(p.name for p in (prefix / "releases").iterdir())
    running = current(prefix)
    pyproject = checkout / "pyproject.toml"
    pyproject.write_text(
        pyproject.read_text().replace("dependencies = [", 'dependencies = [\n    "ringside-no-such-package>=1",', 1)
    )
    failed = subprocess.run(
        ["bash", str(checkout / "deploy" / "install.sh"), "--no-system", "--prefix", str(prefix), "--etc", str(etc),
         "--pip-args", "--no-index --find-links /nonexistent"],
        env=install_env(), capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert failed.returncode == 1
    assert f"nothing changed: the cabinet keeps {running.name}" in failed.stderr
    assert current(prefix) == running
    assert sorted(p.name for p in (prefix / "releases").iterdir()) == releases


def test_install_needs_root_for_the_system_parts(tmp_path: Path) -> None:
    if subprocess.run(["id", "-u"], capture_output=True, text=True).stdout.strip() == "0":
        result = subprocess.run(
            ["bash", str(REPO / "deploy" / "install.sh"), "--bogus"], capture_output=True, text=True
        )
        assert result.returncode == 2 and "unknown option --bogus" in result.stderr
        return
    result = subprocess.run(["bash", str(REPO / "deploy" / "install.sh")], capture_output=True, text=True)
    assert result.returncode == 1 and "run it with sudo" in result.stderr


def fake_release(prefix: Path, name: str) -> None:
    ringside = prefix / "releases" / name / "venv" / "bin" / "ringside"
    ringside.parent.mkdir(parents=True)
    ringside.write_text("#!/bin/sh\necho ringside " + name + "\n")
    ringside.chmod(0o755)


def rollback(prefix: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["bash", str(REPO / "deploy" / "rollback.sh"), "--prefix", str(prefix), *args], capture_output=True, text=True
    )


@pytest.mark.skipif(os.geteuid() != 0, reason="ringside-rollback switches /opt/ringside: it runs as root")
def test_rollback_swaps_current_and_previous_and_says_when_there_is_no_way_back(tmp_path: Path) -> None:
    prefix = tmp_path / "opt"
    fake_release(prefix, "20260101-000000-aaaaaaaaaaaa")
    (prefix / "current").symlink_to("releases/20260101-000000-aaaaaaaaaaaa")
    alone = rollback(prefix, "--no-start")
    assert alone.returncode == 1 and "no earlier version to return to" in alone.stderr
    assert os.readlink(prefix / "current") == "releases/20260101-000000-aaaaaaaaaaaa"

    fake_release(prefix, "20260202-000000-bbbbbbbbbbbb")
    (prefix / "releases" / "20260303-000000-cccccccccccc").mkdir()
    (prefix / "releases" / "20260303-000000-cccccccccccc" / ".installing").touch()  # cut short
    (prefix / "current").unlink()
    (prefix / "current").symlink_to("releases/20260202-000000-bbbbbbbbbbbb")
    (prefix / "previous").symlink_to("releases/20260101-000000-aaaaaaaaaaaa")
    listing = rollback(prefix, "--list").stdout.splitlines()
    assert [line.split() for line in listing] == [
        ["previous", "20260101-000000-aaaaaaaaaaaa"],
        ["current", "20260202-000000-bbbbbbbbbbbb"],
        ["unfinished", "20260303-000000-cccccccccccc"],
    ]
    back = rollback(prefix, "--no-start")
    assert back.returncode == 0, back.stderr
    assert os.readlink(prefix / "current") == "releases/20260101-000000-aaaaaaaaaaaa"
    assert os.readlink(prefix / "previous") == "releases/20260202-000000-bbbbbbbbbbbb"
    assert "again returns to it" in back.stdout
    # A previous release whose venv is gone is no way back.
    shutil.rmtree(prefix / "releases" / "20260202-000000-bbbbbbbbbbbb" / "venv")
    broken = rollback(prefix, "--no-start")
    assert broken.returncode == 1 and "no earlier version" in broken.stderr

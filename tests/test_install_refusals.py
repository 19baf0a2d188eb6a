"""deploy/install.sh refuses what cannot work on the machine, in one sentence and exit
status 3 (issue 33): a 32-bit userland (no wheels of pygame-ce, numpy or psycopg: the
install would compile for an hour or fail half way), a Python older than 3.11 — both
before anything changes — and an lgpio that is no GPIO library (pip's empty placeholder
``lgpio 0.0.0.2``, or one that does not import) before the new release becomes current.

The detection is the installer's own; only what it reads is stood in for: the userland's
architecture by ``RINGSIDE_INSTALL_ARCH`` (else dpkg's), the Python by ``PYTHON`` (a
script answering as an old one), the lgpio the venv imports by ``PYTHONPATH``.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from tests.test_install import install_env

REPO = Path(__file__).resolve().parents[1]
REFUSED = 3


def run_installer(tmp_path: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """A trial install (--no-system) into ``tmp_path``, of this checkout's code only."""
    return subprocess.run(
        ["bash", str(REPO / "deploy" / "install.sh"), "--no-system",
         "--prefix", str(tmp_path / "opt"), "--etc", str(tmp_path / "etc"), "--pip-args", "--no-deps"],
        env=env, capture_output=True, text=True, timeout=300,
    )  # fmt: skip


def answering_python(tmp_path: Path, version: str) -> str:
    """A stand-in ``python3`` that answers every question with ``version``, and fails
    anything else (making a venv): so a version the installer accepts shows as the venv
    step failing after it."""
    script = tmp_path / f"python{version}"
    script.write_text(f'#!/bin/sh\ncase "$*" in *version_info*) echo {version} ;; *) exit 1 ;; esac\n')
    script.chmod(0o755)
    return str(script)


def nothing_changed(tmp_path: Path) -> bool:
    return not (tmp_path / "opt").exists() and not (tmp_path / "etc").exists()


def refusal(result: subprocess.CompletedProcess[str]) -> str:
    """The one sentence the installer refused with (and nothing else on either stream)."""
    lines = result.stderr.splitlines()
    assert result.returncode == REFUSED and len(lines) == 1 and not result.stdout, result
    return lines[0]


@pytest.mark.parametrize("userland", ["armhf", "armel", "armv7l", "i386"])
def test_a_32_bit_userland_is_refused_before_anything_changes(tmp_path: Path, userland: str) -> None:
    result = run_installer(tmp_path, {**install_env(), "RINGSIDE_INSTALL_ARCH": userland})
    line = refusal(result)
    assert line.startswith("install.sh: Ringside needs 64-bit Raspberry Pi OS: ") and f" {userland} " in line, line
    assert nothing_changed(tmp_path)


@pytest.mark.parametrize("userland", ["arm64", "amd64", "aarch64"])
def test_a_64_bit_userland_passes_on_to_the_python_check(tmp_path: Path, userland: str) -> None:
    env = {**install_env(), "RINGSIDE_INSTALL_ARCH": userland, "PYTHON": answering_python(tmp_path, "3.9")}
    assert "Ringside needs Python 3.11 or newer" in refusal(run_installer(tmp_path, env))


@pytest.mark.parametrize("version", ["3.9", "3.10", "2.7"])
def test_a_python_older_than_3_11_is_refused_before_anything_changes(tmp_path: Path, version: str) -> None:
    python = answering_python(tmp_path, version)
    line = refusal(run_installer(tmp_path, {**install_env(), "RINGSIDE_INSTALL_ARCH": "arm64", "PYTHON": python}))
    assert line == (
        f"install.sh: Ringside needs Python 3.11 or newer, and {python} is Python {version}"
        " (Raspberry Pi OS Bookworm has 3.11, Trixie 3.13)."
    )
    assert nothing_changed(tmp_path)


@pytest.mark.parametrize("version", ["3.11", "3.13"])
def test_python_3_11_and_newer_pass_the_check(tmp_path: Path, version: str) -> None:
    env = {**install_env(), "RINGSIDE_INSTALL_ARCH": "arm64", "PYTHON": answering_python(tmp_path, version)}
    result = run_installer(tmp_path, env)
    assert result.returncode == 1 and "could not create the venv" in result.stderr, result


def test_no_python_at_all_is_refused(tmp_path: Path) -> None:
    env = {**install_env(), "PYTHON": str(tmp_path / "no-such-python")}
    assert "there is no Python at" in refusal(run_installer(tmp_path, env))
    assert nothing_changed(tmp_path)


def lgpio_on_path(tmp_path: Path, module: str) -> dict[str, str]:
    """The environment of an install whose venv imports an lgpio.py with ``module`` in it
    (``PYTHONPATH``, ahead of the test's own packages), with the dist-info pip leaves."""
    folder = tmp_path / "lgpio-stand-in"
    (folder / "lgpio-0.0.0.2.dist-info").mkdir(parents=True)
    (folder / "lgpio-0.0.0.2.dist-info" / "METADATA").write_text(
        "Metadata-Version: 2.1\nName: lgpio\nVersion: 0.0.0.2\n"
    )
    (folder / "lgpio.py").write_text(module)
    env = install_env()
    return {**env, "PYTHONPATH": os.pathsep.join([str(folder), env["PYTHONPATH"]])}


@pytest.mark.slow
def test_the_placeholder_lgpio_is_refused_and_no_release_is_made(tmp_path: Path) -> None:
    """pip's lgpio 0.0.0.2 is an empty lgpio.py: it imports, and nothing would fail until
    the first GPIO call."""
    result = run_installer(tmp_path, lgpio_on_path(tmp_path, ""))
    line = refusal(result)
    assert "Ringside needs lgpio, the GPIO library, and the one" in line and "empty placeholder" in line, line
    assert "pip's 'lgpio 0.0.0.2'" in line and line.endswith("nothing changed: no version was installed before"), line
    assert not (tmp_path / "opt" / "current").exists() and list((tmp_path / "opt" / "releases").iterdir()) == []


@pytest.mark.slow
def test_an_lgpio_that_does_not_import_is_refused(tmp_path: Path) -> None:
    """A wheel built for a newer glibc than the system's fails at its import."""
    module = 'raise ImportError("/lib/aarch64-linux-gnu/libc.so.6: version `GLIBC_2.38\' not found")\n'
    line = refusal(run_installer(tmp_path, lgpio_on_path(tmp_path, module)))
    assert "it does not import in" in line and "GLIBC_2.38" in line, line
    assert not (tmp_path / "opt" / "current").exists()

"""The system test's one container, booted once for the whole run and always powered off
at the end (a finalizer, also when a check fails or the run is interrupted).

Only ``-m system`` (``make system-test``, or ``make system-test ARCH=arm64`` for the
Pi's architecture) collects these tests: ``make test`` and ``make check`` never boot a
container.  Each run copies the cached root to
``/var/cache/ringside-system-test/run-<pid>`` and deletes it at the end
(``RINGSIDE_SYSTEM_KEEP=1`` keeps it, and the container's console log, to look into).
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.system.machine import (
    ARCH,
    CACHE,
    CHECKOUT_IN_CONTAINER,
    EMULATED,
    SLOWDOWN,
    WHEELS_IN_CONTAINER,
    Machine,
    binfmt_problem,
    fresh_machine,
    log,
)

# The fake cabinet: the shipped template with the simulated backend.  A container has no
# lgpio (no GPIO chips), no I2C bus and no KMS screen or sound card, so the cabinet plays
# on simulated hardware (hal.sim: gpiozero's mock pins, a simulated padboard and OLEDs)
# and SDL draws off screen (the dummy drivers).  Everything else is the real install: the
# unit as shipped, run by the ringside user under the container's systemd.
SIM_BACKEND = 'backend = "sim"              '

# The only change to the installed unit, as a drop-in an operator could write: SDL's
# dummy drivers instead of KMS and ALSA, and --window, which makes the simulated backend
# run the cabinet in real time (as on a Pi) rather than the headless exhibition.
STAND_INS = """[Service]
Environment=SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy
ExecStart=
ExecStart=/opt/ringside/current/venv/bin/ringside run --config /etc/ringside/cabinet.toml --window
"""

# Binary wheels only, from the wheelhouse: a package it lacks fails by name, never compiles.
PIP_ARGS = f"--no-index --find-links {WHEELS_IN_CONTAINER} --only-binary=:all:"


def pytest_ignore_collect(collection_path: Path, config: pytest.Config) -> bool | None:
    markexpr = config.getoption("markexpr", "") or ""
    wanted = "system" in markexpr and "not system" not in markexpr
    return None if wanted else True


# Under emulation the cabinet draws 10 frames a second (the config's lowest), not 60: at
# 60 the emulated cabinet took a whole core from pip and systemd beside it.
FPS = 10 if EMULATED else 60


def fake_config(template: str) -> str:
    line = next(x for x in template.splitlines() if x.startswith("backend = "))
    fps = next(x for x in template.splitlines() if x.startswith("fps = "))
    return template.replace(line, SIM_BACKEND + "# the system test: simulated hardware").replace(fps, f"fps = {FPS}")


@pytest.fixture(scope="session")
def machine() -> Iterator[Machine]:
    if os.geteuid() != 0 or not shutil.which("systemd-nspawn") or not shutil.which("debootstrap"):
        pytest.skip("the system test runs as root with debootstrap and systemd-nspawn (.ci/run installs them)")
    problem = binfmt_problem(ARCH)
    if problem:
        pytest.fail(f"make system-test ARCH={ARCH}: {problem}")
    log(f"a Debian bookworm {ARCH} container" + (f", emulated (timeouts x{SLOWDOWN:g})" if SLOWDOWN > 1 else ""))
    for stale in CACHE.glob("run-*"):  # left by a run that was killed (its pid is gone)
        if not Path(f"/proc/{stale.name.removeprefix('run-')}").exists():
            shutil.rmtree(stale, ignore_errors=True)
    workdir = CACHE / f"run-{os.getpid()}"
    m = fresh_machine(workdir)
    try:
        m.put_checkout()
        # The operator's checkout is a git clone: a repository of the working tree.
        m.path("/root/.gitconfig").write_text("[user]\n\tname = Operator\n\temail = operator@example.invalid\n")
        # A Raspberry Pi's boot config, I2C not yet on: the first install turns it on.
        m.path("/boot/firmware").mkdir(parents=True)
        m.path("/boot/firmware/config.txt").write_text("# Raspberry Pi OS\n[all]\n")
        etc = m.path("/etc/ringside")
        etc.mkdir(parents=True)
        template = (Path(__file__).resolve().parents[2] / "deploy" / "cabinet.toml").read_text()
        (etc / "cabinet.toml").write_text(fake_config(template))
        dropin = m.path("/etc/systemd/system/ringside.service.d")
        dropin.mkdir(parents=True)
        (dropin / "stand-ins.conf").write_text(STAND_INS)
        m.boot()
        m.sh(f"cd {CHECKOUT_IN_CONTAINER} && git init -q && git add -A && git commit -qm 'the release installed first'")
        yield m
    finally:
        log("powering the container off")
        m.stop()
        if os.environ.get("RINGSIDE_SYSTEM_KEEP"):
            log(f"kept the container's root: {m.root} (console: {m.console})")
        else:
            shutil.rmtree(workdir, ignore_errors=True)

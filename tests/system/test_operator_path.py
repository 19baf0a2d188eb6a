"""The operator's path in a booted Debian (issue 24): install on a fresh Pi, the reboot,
the service under the real systemd (READY, journal, watchdog, config error, stop),
a reboot in the middle of a game, updates that fail or are cut short, and rollback.

The checks run in this order on one container (each needs the state the one before
left); each asserts one thing the issue names.
"""

from __future__ import annotations

import json
import time

import pytest

from tests.system.conftest import PIP_ARGS
from tests.system.machine import CHECKOUT_IN_CONTAINER, Machine

pytestmark = [pytest.mark.system, pytest.mark.slow]

UNIT = "ringside.service"
INSTALL = f"cd {CHECKOUT_IN_CONTAINER} && deploy/install.sh --pip-args '{PIP_ARGS}'"


def wait_for(machine: Machine, what: str, ok, timeout: float = 60, every: float = 0.5):  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + timeout
    while True:
        value = ok()
        if value:
            return value
        if time.monotonic() > deadline:
            status = machine.run("systemctl", "status", "--no-pager", "-n", "20", UNIT, check=False).stdout
            raise AssertionError(f"timed out waiting for {what}\n{status}")
        time.sleep(every)


def unit(machine: Machine, *props: str) -> dict[str, str]:
    return machine.show(UNIT, *props)


def wait_active(machine: Machine, timeout: float = 90) -> dict[str, str]:
    def active() -> dict[str, str] | None:
        p = unit(machine, "ActiveState", "SubState", "MainPID")
        if p["ActiveState"] == "failed":
            raise AssertionError("ringside.service failed:\n" + journal_text(machine))
        return p if p["ActiveState"] == "active" else None

    return wait_for(machine, "ringside.service active", active, timeout)  # type: ignore[no-any-return]


def journal(machine: Machine, *args: str) -> list[dict[str, str]]:
    out = machine.run("journalctl", "-u", UNIT, "-o", "json", "--no-pager", *args).stdout
    return [json.loads(line) for line in out.splitlines() if line.strip()]


def journal_text(machine: Machine, *args: str) -> str:
    return machine.run("journalctl", "-u", UNIT, "--no-pager", "-o", "cat", *args, check=False).stdout


def cabinet_lines(machine: Machine, *args: str) -> list[dict[str, str]]:
    """The journal entries the cabinet's process wrote (not systemd's about the unit)."""
    return [
        e for e in journal(machine, *args) if e.get("_COMM") != "systemd" and e.get("SYSLOG_IDENTIFIER") != "systemd"
    ]


@pytest.fixture(scope="module")
def first_install(machine: Machine) -> dict[str, object]:
    r = machine.sh(INSTALL, check=False, timeout=600)
    return {"code": r.returncode, "out": r.stdout + r.stderr}


def test_first_install_on_a_fresh_pi_says_reboot_then_calibrate_and_does_not_fail(
    machine: Machine, first_install: dict[str, object]
) -> None:
    out = str(first_install["out"])
    assert first_install["code"] == 0, out
    assert "Job failed" not in out and "Job for" not in out, out
    assert "sudo reboot" in out and "calibrate" in out.lower(), out
    assert "dtparam=i2c_arm=on" in machine.path("/boot/firmware/config.txt").read_text()
    # Enabled for the next boot, not started into hardware that is not there yet.
    assert machine.run("systemctl", "is-enabled", UNIT, check=False).stdout.strip() == "enabled"
    assert unit(machine, "ActiveState")["ActiveState"] == "inactive"


def test_after_the_reboot_the_unit_is_active_and_was_ready_at_its_first_frame(
    machine: Machine, first_install: dict[str, object]
) -> None:
    machine.reboot()
    p = wait_active(machine)
    assert p["SubState"] == "running"
    props = unit(machine, "Type", "StatusText", "NRestarts")
    # Type=notify: systemd calls it active only once READY=1 came, and the cabinet sends
    # that with its first frame (the log line and the status text say so).
    assert props["Type"] == "notify"
    assert "frames drawn" in props["StatusText"], props
    assert any(e["MESSAGE"].startswith("ready: ") for e in cabinet_lines(machine, "-b")), journal_text(machine, "-b")
    assert props["NRestarts"] == "0"


def test_the_ringside_user_and_its_groups_exist(machine: Machine) -> None:
    entry = machine.run("getent", "passwd", "ringside").stdout.strip().split(":")
    assert entry[0] == "ringside" and int(entry[2]) < 1000 and entry[6] == "/usr/sbin/nologin", entry
    groups = set(machine.run("id", "-nG", "ringside").stdout.split())
    assert {"ringside", "gpio", "i2c", "dialout", "video", "render", "audio", "input"} <= groups, groups
    main_pid = unit(machine, "MainPID")["MainPID"]
    owner = machine.run("ps", "-o", "user=", "-p", main_pid).stdout.strip()
    assert owner == "ringside"


def test_the_journal_has_the_cabinets_lines_one_per_entry_with_priorities(machine: Machine) -> None:
    lines = cabinet_lines(machine, "-b")
    assert len(lines) >= 3, lines
    for e in lines:
        assert "\n" not in e["MESSAGE"], e  # one line per entry
        assert not e["MESSAGE"][:3].startswith("<"), e  # the <N> prefix became the priority
        assert e["PRIORITY"] in {"2", "3", "4", "6", "7"}, e
    assert any(e["PRIORITY"] == "6" and "on simulated hardware" in e["MESSAGE"] for e in lines)

"""What goes wrong when a real cabinet's hardware is opened, said in one line each.

Opening a Pi's hardware fails in a few expected ways — the lgpio library is not
installed, a gpiochip cannot be opened, an OLED does not answer, the padboard is not
plugged in — and each deserves one line that names the part, where it was looked for
and what to do, not a library's traceback.  ``firmware_py`` turns these into exit codes.
"""

from __future__ import annotations

import grp
import os
import pwd
from pathlib import Path


class HardwareError(Exception):
    """A part of the cabinet cannot be used; the message is the one line to show."""


class DriverMissing(HardwareError):
    """A library the gpio backend needs is not installed (an install problem, not wiring)."""


def lgpio_missing(detail: str) -> DriverMissing:
    return DriverMissing(
        f"the lgpio library is not installed ({detail}): install Debian's python3-lgpio "
        "(sudo apt install python3-lgpio) and run the cabinet from a venv made with "
        "--system-site-packages, as the installer does"
    )


def _user() -> str:
    try:
        return pwd.getpwuid(os.geteuid()).pw_name
    except KeyError:
        return f"uid {os.geteuid()}"


def device_problem(device: Path, what: str, enable_hint: str) -> str:
    """Why ``device`` cannot be opened: missing (``enable_hint``) or no permission (the
    group to join); empty when it looks usable."""
    if not device.exists():
        return f"{what}: {device} does not exist ({enable_hint})"
    if not os.access(device, os.R_OK | os.W_OK):
        st = device.stat()
        try:
            group = grp.getgrgid(st.st_gid).gr_name
        except KeyError:
            group = str(st.st_gid)
        return (
            f"{what}: {device} is not readable and writable by user {_user()} "
            f"(it belongs to group {group}: sudo adduser {_user()} {group}, then log in again or restart the service)"
        )
    return ""


def gpiochip_error(chip: int, detail: str, dev: Path = Path("/dev")) -> HardwareError:
    why = device_problem(
        dev / f"gpiochip{chip}",
        f"gpiochip {chip} cannot be opened",
        "chip 0 is the Pi's header; an I/O expander's chip appears once its dtoverlay is in config.txt; "
        "gpiodetect lists the chips there are",
    )
    return HardwareError(why or f"gpiochip {chip} cannot be opened: {detail}")


def i2c_error(bus: int, detail: str, dev: Path = Path("/dev")) -> HardwareError | None:
    """The I2C bus itself is unusable (not enabled, no permission); None when it looks fine."""
    why = device_problem(
        dev / f"i2c-{bus}",
        f"I2C bus {bus} cannot be opened ({detail})",
        "enable I2C: dtparam=i2c_arm=on in /boot/firmware/config.txt, or raspi-config → Interface Options → I2C",
    )
    return HardwareError(why) if why else None


def oled_error(station: str, driver: str, bus: int, address: int, detail: str) -> HardwareError:
    return HardwareError(
        f"station {station}'s private display ({driver} at 0x{address:02X} on I2C bus {bus}) does not answer "
        f"({detail}): check its power, SDA/SCL wiring and address (i2cdetect -y {bus} lists what answers)"
    )


def padboard_port_missing(port: str) -> HardwareError:
    return HardwareError(
        f"padboard port {port} does not exist: is the padboard plugged in? The udev rule "
        "(/etc/udev/rules.d/99-ringside-padboard.rules, installed by the installer) names it "
        "/dev/ringside-padboard; ls /dev/ttyACM* shows the raw port"
    )

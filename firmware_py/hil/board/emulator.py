"""The emulated padboard from Python: rp2040js installed into a folder the tests own,
``padboard.mjs`` run under Node at lower priority, its control port and its USB serial
(``socket://``) reached from here."""

from __future__ import annotations

import json
import os
import shutil
import socket
import struct
import subprocess
import time
from pathlib import Path
from typing import Any

import serial

from firmware_py.hil.board import image
from firmware_py.sim.piezo import PiezoPad
from hal.padboard.driver import LinkTiming, PadboardSource
from hal.timing import PADBOARD_SETTLE_US

RP2040JS = "1.4.1"
NODE_DIR = Path(os.environ.get("RINGSIDE_RP2040JS_DIR", image.ROOT / ".venv" / "rp2040js"))
"""Where ``npm install rp2040js`` goes (``make clean`` removes it with the venv)."""
RUNNER = Path(__file__).with_name("padboard.mjs")


SLOW = 40
"""Emulated time runs 0.05-0.4x wall time here: the driver's timeouts (wall clock) are
stretched this much, its clock is the emulator's (:class:`EmulatedClock`)."""
EMULATED_TIMING = LinkTiming(
    handshake_timeout_s=1.0 * SLOW, link_timeout_s=1.5 * SLOW, command_timeout_s=1.0 * SLOW, backoff_max_s=2.0
)
BOOT_US = 1_300_000
"""How long connect_driver waits after power-up before it opens the port (HELLOs sent
earlier wait in the board's stdin and are answered when main.py serves, 2.5 s after
power-up: 1.5 s importing its files, then the 1 s BOOTSEL window)."""
REST_NOISE = PiezoPad().noise / 16
"""Counts of Gaussian noise (σ) on every pad between the host's waveforms: the piezo
model's own noise at rest (σ 120 of 65,535, 7.5 of the ADC's 4,096), so a pad is never
silent (a silent one gave calibration a noise floor of 0 and a threshold of 144)."""


class EmulatorUnavailable(RuntimeError):
    pass


class EmulatedClock:
    """The emulator's clock in µs (``hal.clock.Clock``), read from the file the runner
    updates after every slice of execution (at most ~0.2 ms emulated behind)."""

    def __init__(self, path: Path) -> None:
        self._fd = os.open(path, os.O_RDONLY)

    def now_us(self) -> int:
        while True:
            a, b = struct.unpack("<dd", os.pread(self._fd, 16, 0))
            if a == b:  # not torn by a write in between
                return int(a) // 1000

    def close(self) -> None:
        os.close(self._fd)


def ensure_rp2040js() -> Path:
    """The folder holding rp2040js at the checked version, installed from npm if missing."""
    package = NODE_DIR / "node_modules" / "rp2040js" / "package.json"
    if not (package.exists() and json.loads(package.read_text())["version"] == RP2040JS):
        if shutil.which("npm") is None or shutil.which("node") is None:
            raise EmulatorUnavailable("Node and npm are needed (Debian: apt-get install nodejs npm)")
        NODE_DIR.mkdir(parents=True, exist_ok=True)
        subprocess.run(
            ["npm", "install", "--no-audit", "--no-fund", "--prefix", str(NODE_DIR), f"rp2040js@{RP2040JS}"],
            check=True,
            capture_output=True,
        )
    return NODE_DIR


def free_port_pair() -> int:
    """A port P with P and P+1 both free on loopback (serial, control)."""
    for _ in range(50):
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port: int = s.getsockname()[1]
        try:
            with socket.socket() as s2:
                s2.bind(("127.0.0.1", port + 1))
            return port
        except OSError:
            continue
    raise OSError("no free pair of loopback ports")


class EmulatedPadboard:
    """One emulated RP2040 running MicroPython with ``fs_image`` in its flash."""

    def __init__(self, fs_image: bytes, workdir: Path, bootsel: bool = False, noise: float = REST_NOISE) -> None:
        node = ensure_rp2040js()
        runner = node / RUNNER.name  # ESM finds rp2040js from the script's own folder
        shutil.copyfile(RUNNER, runner)
        workdir.mkdir(parents=True, exist_ok=True)
        fs_path = workdir / "padboard-fs.img"
        fs_path.write_bytes(fs_image)
        self.port = free_port_pair()
        self.clock_path = workdir / "padboard-clock"
        self.clock_path.write_bytes(bytes(16))
        self.log_path = workdir / "padboard-emulator.log"
        args = [
            "nice",
            "-n",
            "10",
            "node",
            str(runner),
            str(image.checked(image.FIRMWARE, image.FIRMWARE_SHA256)),
            str(image.checked(image.BOOTROM, image.BOOTROM_SHA256)),
            str(fs_path),
            str(self.port),
            str(self.clock_path),
            f"--noise={noise}",
        ]
        if bootsel:
            args.append("--bootsel")
        self._log = open(self.log_path, "w")  # noqa: SIM115  (kept for the process's life)
        self.proc = subprocess.Popen(args, stdout=self._log, stderr=subprocess.STDOUT)
        self._ctl = self._connect(self.port + 1)
        self._ctl_buf = b""
        self.clock = EmulatedClock(self.clock_path)

    @property
    def url(self) -> str:
        return f"socket://127.0.0.1:{self.port}"

    def _connect(self, port: int, timeout: float = 30.0) -> socket.socket:
        deadline = time.monotonic() + timeout
        while True:
            if self.proc.poll() is not None:
                raise EmulatorUnavailable(f"the emulator exited: {self.log_path.read_text()[-2000:]}")
            try:
                return socket.create_connection(("127.0.0.1", port), timeout=60)
            except OSError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.1)

    def control(self, **cmd: Any) -> dict[str, Any]:
        """One control line (padboard.mjs) and its reply."""
        self._ctl.sendall(json.dumps(cmd).encode() + b"\n")
        while b"\n" not in self._ctl_buf:
            chunk = self._ctl.recv(65536)
            if not chunk:
                raise EmulatorUnavailable("the emulator closed its control port")
            self._ctl_buf += chunk
        line, self._ctl_buf = self._ctl_buf.split(b"\n", 1)
        reply: dict[str, Any] = json.loads(line)
        if "error" in reply:
            raise ValueError(f"emulator refused {cmd['op']}: {reply['error']}")
        return reply

    def now_us(self) -> int:
        """Emulated µs since the emulator started (the board's ticks count from its boot)."""
        return int(self.control(op="now")["now_ns"]) // 1000

    def wait_emulated(self, us: int, poll: float = 0.05) -> None:
        """Until ``us`` more µs of emulated time have passed."""
        end = self.now_us() + us
        while self.now_us() < end:
            time.sleep(poll)

    def wait_usb(self, timeout: float = 120.0) -> None:
        deadline = time.monotonic() + timeout
        while not self.control(op="now")["plugged"]:
            if time.monotonic() > deadline:
                raise EmulatorUnavailable("the board's USB never came up")
            time.sleep(0.1)

    def exec_raw(self, code: str, timeout: float = 300.0) -> str:
        """Run ``code`` through MicroPython's raw REPL (the board must be at its REPL:
        booted with BOOTSEL held); its output, or an error with the traceback."""
        with serial.serial_for_url(self.url, timeout=0.2) as port:
            port.write(b"\r\x03\x03\x01")  # Ctrl-C twice, then raw REPL
            _read_until(port, b"raw REPL; CTRL-B to exit\r\n>", timeout)
            port.write(code.encode() + b"\x04")
            _read_until(port, b"OK", timeout)
            out = _read_until(port, b"\x04", timeout)[:-1]
            err = _read_until(port, b"\x04", timeout)[:-1]
            port.write(b"\x02")
        if err:
            raise RuntimeError(f"board raised: {err.decode(errors='replace')}")
        return out.decode()

    def close(self) -> None:
        self._ctl.close()
        self.clock.close()
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self._log.close()

    def __enter__(self) -> EmulatedPadboard:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _read_until(port: serial.Serial, marker: bytes, timeout: float) -> bytes:
    deadline = time.monotonic() + timeout
    buf = b""
    while not buf.endswith(marker):
        if time.monotonic() > deadline:
            raise TimeoutError(f"waited for {marker!r}, got {buf[-300:]!r}")
        buf += port.read(1)
    return buf


def connect_driver(
    board: EmulatedPadboard, stations: dict[int, int], settle_us: int = PADBOARD_SETTLE_US
) -> PadboardSource:
    """The cabinet's driver (pads -> stations) on the board's socket://, once main.py
    serves (after its BOOTSEL window: HELLOs sent while it boots, minutes of wall time
    here, are answered in a heap when it starts, and the driver takes them for a
    renumbering board)."""
    board.wait_usb()
    board.wait_emulated(BOOT_US)
    source = PadboardSource(board.url, board.clock, stations, settle_us=settle_us, timing=EMULATED_TIMING)
    deadline = time.monotonic() + 60 * SLOW
    while not source.connected:
        if time.monotonic() > deadline:
            source.close()
            raise EmulatorUnavailable(f"the driver never connected: {source.last_error}")
        time.sleep(0.5)
    return source
